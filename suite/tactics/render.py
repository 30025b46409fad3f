"""pygame Surfaces of a pack's art for the tactics screens (drawing only, no rules).

`suite.tactics.skins` does the pixel work in numpy; this module turns its RGBA arrays and
the pack's tile bitmaps into Surfaces and keeps them per pack:

    art = PackArt(pack)
    screen.blit(art.tile(int(grid.tiles[y, x])), spot)
    screen.blit(art.frame(piece_id, army, STAND), spot)   # recoloured, with its shadow

Surfaces are converted to the display format when a display mode is set (faster blits);
without one (tests, tools) they stay plain 32-bit RGBA or 8-bit palette surfaces.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pygame

from suite.tactics.assets.bmp import Bitmap
from suite.tactics.assets.model import TILE_SIZE, TRANSPARENT_INDEX, Pack
from suite.tactics.assets.placeholders import placeholder_tile, tile_bitmap
from suite.tactics.skins import SkinCache, SkinStyle, frame_index, to_rgba

U8 = npt.NDArray[np.uint8]


def _for_display(surface: pygame.Surface, alpha: bool) -> pygame.Surface:
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert_alpha() if alpha else surface.convert()
    return surface


def rgba_surface(rgba: U8) -> pygame.Surface:
    """A per-pixel-alpha Surface (w x h) of an RGBA array (h x w x 4); the pixels are
    copied, so the array may change or go away afterwards."""
    height, width = rgba.shape[:2]
    data = np.ascontiguousarray(rgba, dtype=np.uint8).tobytes()
    surface = pygame.image.frombytes(data, (width, height), "RGBA")
    return _for_display(surface, alpha=True)


def frame_surfaces(frames: U8) -> list[pygame.Surface]:
    """One Surface per frame of a (frames, h, h, 4) array from `suite.tactics.skins`."""
    return [rgba_surface(frame) for frame in frames]


def tile_surface(bitmap: Bitmap, alpha: bool = True) -> pygame.Surface:
    """A tile bitmap as a Surface, index 6 transparent: per-pixel alpha when `alpha`
    (scales smoothly), else an 8-bit palette surface with colour key 6 (cheapest blits)."""
    if alpha:
        return rgba_surface(to_rgba(bitmap.indices, bitmap.palette))
    surface = pygame.Surface((bitmap.width, bitmap.height), depth=8)
    surface.set_palette([(int(r), int(g), int(b)) for r, g, b in bitmap.palette])
    pygame.surfarray.blit_array(surface, bitmap.indices.T)
    surface.set_colorkey(TRANSPARENT_INDEX)
    return _for_display(surface, alpha=False)


class PackArt:
    """The Surfaces of one pack, made on first use and kept: tiles by palette index and
    skin frames by (piece, army, shadow).

    An undefined, unreadable or wrongly sized tile is drawn as the placeholder tile, a
    missing or broken skin as the placeholder skin (see `assets.placeholders`).
    """

    def __init__(self, pack: Pack, style: SkinStyle | None = None, alpha_tiles: bool = True):
        self.pack = pack
        self.skins = SkinCache(pack, style)
        self.alpha_tiles = alpha_tiles
        self._tiles: dict[int, pygame.Surface] = {}
        self._frames: dict[tuple[int, int, bool], list[pygame.Surface]] = {}

    def tile(self, index: int) -> pygame.Surface:
        """The Surface of tile `index` (TILE_SIZE x TILE_SIZE)."""
        if index not in self._tiles:
            bitmap = tile_bitmap(self.pack, index)
            if (bitmap.width, bitmap.height) != (TILE_SIZE, TILE_SIZE):
                bitmap = placeholder_tile(bitmap.palette)
            self._tiles[index] = tile_surface(bitmap, self.alpha_tiles)
        return self._tiles[index]

    def frames(self, piece_id: int, army: int, shadow: bool = True) -> list[pygame.Surface]:
        """Every frame of `piece_id`'s skin for `army` (0-3, start order)."""
        key = (piece_id, army, shadow)
        if key not in self._frames:
            self._frames[key] = frame_surfaces(self.skins.frames(piece_id, army, shadow))
        return self._frames[key]

    def frame(self, piece_id: int, army: int, name: str, shadow: bool = True) -> pygame.Surface:
        """The frame called `name` (`skins.FRAME_NAMES`) of `piece_id` for `army`."""
        return self.frames(piece_id, army, shadow)[frame_index(name)]
