"""The pictures of one battlefield, made once and kept: tiles and skin frames scaled to
each zoom, the static map pre-rendered once per zoom and rotation, and the highlight
diamonds.

Everything comes from the pack the view names (`MapRef`) through the asset loaders
(`suite.tactics.render.PackArt`, which recolours skins per army); nothing here reads the
engine. Only the current zoom and rotation's map is kept: a 48 x 48 map at 100 % is a
6144 x 3300 surface.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pygame

from suite.tactics.assets.model import BORDER_INDEX, MapGrid, Pack
from suite.tactics.render import PackArt
from suite.tactics.rules.packs import get_pack
from suite.tactics.screens.iso import Projection
from suite.ui.theme import Colour

FIELD_BACKGROUND: Colour = (12, 14, 22)
MAX_STATIC_PIXELS = 24_000_000  # a pre-rendered map up to this size is drawn whole (96 MB)
FLASH_RED: Colour = (255, 40, 40)


def load_map_pack(pack: str | None) -> Pack:
    """The pack a view's `MapRef.pack` names (None: the shipped one), loaded once.

    Raises `suite.tactics.rules.packs.PackError` (a ValueError) when the folder is gone.
    """
    return get_pack(Path(pack) if pack else None)


def _scaled(surface: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
    if surface.get_size() == size:
        return surface
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        surface = surface.convert_alpha()
    return pygame.transform.smoothscale(surface, size)


def diamond_points(
    centre: tuple[int, int], w: int, h: int, inset: int = 0
) -> list[tuple[int, int]]:
    """The corners of a cell's top diamond around `centre` (w x h), shrunk by `inset`."""
    x, y = centre
    hw, hh = w // 2 - inset, h // 2 - inset // 2
    return [(x, y - hh), (x + hw, y), (x, y + hh), (x - hw, y)]


class BattleArt:
    """Tiles, frames and the static map of one map of one pack, per zoom and rotation."""

    def __init__(self, pack: Pack, grid: MapGrid) -> None:
        self.pack = pack
        self.grid = grid
        self.art = PackArt(pack)
        self._tiles: dict[tuple[int, int, bool], pygame.Surface] = {}
        self._frames: dict[tuple[int, int, int, bool], list[pygame.Surface]] = {}
        self._flash: dict[tuple[int, int, int, int], pygame.Surface] = {}
        self._map_key: tuple[float, int] | None = None
        self._map: pygame.Surface | None = None
        self._window = pygame.Rect(0, 0, 0, 0)
        self._marks: dict[tuple[int, Colour, int, int], pygame.Surface] = {}
        self.renders = 0  # how many times a static map was drawn (tests, bench)

    # -- tiles and the static map ---------------------------------------------------------
    def tile(self, index: int, width: int, turned: bool = False) -> pygame.Surface:
        """Tile `index` scaled to `width`; `turned` (a quarter turn of the map) mirrors its
        top diamond so that its texture follows the map's axes (a bridge's planks turn
        with the river), while the lit cube sides below keep their light."""
        key = (index, width, turned)
        if key not in self._tiles:
            image = _scaled(self.art.tile(index), (width, width))
            if turned:
                image = image.copy()
                half = pygame.Rect(0, 0, width, width // 2)
                top = pygame.transform.flip(image.subsurface(half).copy(), True, False)
                image.fill((0, 0, 0, 0), half)
                image.blit(top, (0, 0))
            self._tiles[key] = image
        return self._tiles[key]

    def static_map(
        self, projection: Projection, view: pygame.Rect
    ) -> tuple[pygame.Surface, tuple[int, int]]:
        """The map drawn at `projection` around the map-local rect `view`, and where its
        top-left lies in map-local pixels.

        A map up to MAX_STATIC_PIXELS is drawn whole, once per zoom and rotation; a larger
        one (packs may hold maps of up to 256 cells across) is drawn around the view,
        three views wide and high, and again only when the view leaves that window.
        """
        key = (projection.zoom, projection.rotation)
        width, height = projection.surface_size
        whole = pygame.Rect(0, 0, width, height)
        if width * height <= MAX_STATIC_PIXELS:
            wanted = whole
        elif (
            self._map is not None
            and self._map_key == key
            and self._window.contains(view.clip(whole))
        ):
            wanted = self._window
        else:
            wanted = view.inflate(view.width * 2, view.height * 2).clip(whole)
        if self._map is None or self._map_key != key or wanted != self._window:
            self._map = None  # free the previous one before making the next
            self._map = self._render(projection, wanted)
            self._map_key = key
            self._window = wanted
            self.renders += 1
        return self._map, self._window.topleft

    def _render(self, projection: Projection, window: pygame.Rect) -> pygame.Surface:
        surface = pygame.Surface((max(1, window.width), max(1, window.height)))
        surface.fill(FIELD_BACKGROUND)
        tiles = self.grid.tiles
        width = projection.tile_w
        turned = projection.rotation % 2 == 1
        box = (window.x, window.y, window.width, window.height)
        for x, y in projection.cells_within(box, skip=tiles == BORDER_INDEX):
            px, py = projection.image_pos(x, y)
            tile = self.tile(int(tiles[y, x]), width, turned)
            surface.blit(tile, (px - window.x, py - window.y))
        if pygame.display.get_init() and pygame.display.get_surface() is not None:
            surface = surface.convert()
        return surface

    # -- pieces ---------------------------------------------------------------------------
    def frames(
        self, kind: int, army: int, zoom: float, shadow: bool = True
    ) -> list[pygame.Surface]:
        """The skin frames of piece kind `kind` for `army`, scaled by `zoom`."""
        key = (kind, army, round(zoom * 100), shadow)
        if key not in self._frames:
            frames = self.art.frames(kind, army, shadow)
            side = max(4, round(frames[0].get_height() * zoom))
            self._frames[key] = [_scaled(frame, (side, side)) for frame in frames]
        return self._frames[key]

    def flash(self, kind: int, army: int, zoom: float, index: int) -> pygame.Surface:
        """Frame `index` as an all-red silhouette (a piece flashing as it is hit)."""
        key = (kind, army, round(zoom * 100), index)
        if key not in self._flash:
            image = self.frames(kind, army, zoom, shadow=False)[index].copy()
            image.fill((*FLASH_RED, 255), special_flags=pygame.BLEND_RGBA_MIN)
            image.fill((FLASH_RED[0], 0, 0, 0), special_flags=pygame.BLEND_RGBA_MAX)
            self._flash[key] = image
        return self._flash[key]

    def warm(self, pieces: Iterable[tuple[int, int]], zoom: float) -> None:
        """Make the frames of (kind, army) pairs ahead of the first frame drawn."""
        for kind, army in pieces:
            self.frames(kind, army, zoom)

    # -- highlights -----------------------------------------------------------------------
    def mark(self, width: int, colour: Colour, alpha: int, outline: int = 0) -> pygame.Surface:
        """A cell-top diamond `width` wide: filled with `colour` at `alpha`, or, when
        `outline` > 0, only its outline that many pixels thick."""
        key = (width, colour, alpha, outline)
        if key not in self._marks:
            height = width // 2
            image = pygame.Surface((width, height), pygame.SRCALPHA)
            points = diamond_points((width // 2, height // 2), width, height, 1)
            if outline:
                pygame.draw.polygon(image, (*colour, alpha), points, outline)
            else:
                pygame.draw.polygon(image, (*colour, alpha), points)
                pygame.draw.polygon(image, (*colour, min(255, alpha + 90)), points, 2)
            self._marks[key] = image
        return self._marks[key]
