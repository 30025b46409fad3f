"""The isometric battlefield on screen: camera, zoom, rotation, picking and drawing.

The static map comes pre-rendered from `BattleArt` (once per zoom and rotation); a frame
blits the visible part of it, then the highlights, the pieces (farthest first, on their
tile tops with their oval shadows), their small life bars and the floating numbers.

The camera is the map-local point shown at the middle of `rect`. `centre_on(cell)` glides
there (the screen follows the action); panning and a right click move it at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import pygame

from suite.tactics.assets.model import BORDER_INDEX
from suite.tactics.screens.anim import HOP_HEIGHT, Figure, Floater
from suite.tactics.screens.art import FIELD_BACKGROUND, BattleArt
from suite.tactics.screens.iso import ZOOMS, Cell, Projection, turned, unturned
from suite.tactics.skins import FRAME_NAMES
from suite.ui import theme
from suite.ui.theme import Colour
from suite.ui.widgets import text_image

GLIDE = 9.0  # 1/seconds: how quickly the camera closes on its goal

# highlight looks: (colour, alpha, outline width; 0 = filled)
MARKS: dict[str, tuple[Colour, int, int]] = {
    "reach": ((160, 50, 255), 115, 0),  # purple: where the selected piece may go
    "hover": ((255, 255, 255), 150, 0),  # white: the reachable tile under the mouse
    "zone": ((255, 150, 30), 70, 0),  # light orange: in weapon range now (attack phase)
    "outline": ((255, 150, 30), 255, 2),  # orange outline: in range from the white tile
    "threat": ((255, 120, 20), 150, 0),  # orange: an enemy it could attack from there
    "target": ((255, 120, 20), 170, 0),  # orange: attackable now
    "selected": ((255, 230, 120), 255, 2),  # the commanded piece's tile
    "ready": ((120, 210, 255), 170, 2),  # own pieces that may be commanded now
    "cursor": ((220, 230, 255), 150, 1),  # the tile under the mouse
}
MARK_ORDER = tuple(MARKS)
# cells in front of a piece (turned-grid offsets, nearer last) whose tiles may hide part
# of it: deeper rows, at most one column aside, as far as the highest lift reaches
FRONT = tuple(
    sorted(
        ((du, dv) for du in range(4) for dv in range(4) if du + dv and abs(du - dv) <= 1),
        key=lambda d: (d[0] + d[1], d),
    )
)


@dataclass(frozen=True)
class Marks:
    """Which cells carry which highlight (see MARKS)."""

    cells: Mapping[str, frozenset[Cell]]


class Battlefield:
    """The map view inside `rect`, drawing with `art` (one map of one pack)."""

    def __init__(self, art: BattleArt, rect: pygame.Rect, zoom: int = len(ZOOMS) - 1) -> None:
        self.art = art
        self.rect = pygame.Rect(rect)
        self.zoom_index = zoom
        self.rotation = 0
        self.projection = self._projection()
        w, h = self.projection.surface_size
        self.camera = [w / 2, h / 2]
        self.goal: tuple[float, float] | None = None

    # -- projection ----------------------------------------------------------------------
    def _projection(self) -> Projection:
        return Projection(self.art.grid.elevation, ZOOMS[self.zoom_index], self.rotation)

    @property
    def zoom(self) -> float:
        return ZOOMS[self.zoom_index]

    def _keep_centre(self, change: str, amount: int) -> None:
        cell = self.cell_at(self.rect.center, ignore_pieces=True) or self.centre_cell()
        if change == "zoom":
            self.zoom_index = max(0, min(len(ZOOMS) - 1, self.zoom_index + amount))
        else:
            self.rotation = (self.rotation + amount) % 4
        self.projection = self._projection()
        self.look_at(cell)

    def set_zoom(self, step: int) -> None:
        """Zoom in (+1) or out (-1) one step of ZOOMS, keeping the middle cell."""
        self._keep_centre("zoom", step)

    def rotate(self, quarters: int = 1) -> None:
        """Turn the map by quarter turns, keeping the middle cell."""
        self._keep_centre("rotate", quarters)

    def centre_cell(self) -> Cell:
        n = self.projection.size
        return n // 2, n // 2

    # -- camera ----------------------------------------------------------------------------
    def look_at(self, cell: Cell) -> None:
        """Put `cell` in the middle now."""
        cx, cy = self.projection.centre(*cell)
        self.camera = [float(cx), float(cy)]
        self.goal = None
        self._clamp()

    def centre_on(self, cell: tuple[float, float]) -> None:
        """Glide towards `cell` (when it is not already well inside the view)."""
        x, y = self._float_centre(cell)
        sx, sy = self.to_screen((x, y))
        inner = self.rect.inflate(-self.rect.width // 3, -self.rect.height // 3)
        if self.goal is None and inner.collidepoint(sx, sy):
            return
        self.goal = (x, y)

    def pan(self, dx: float, dy: float) -> None:
        """Move the view by screen pixels."""
        self.camera[0] += dx
        self.camera[1] += dy
        self.goal = None
        self._clamp()

    def _clamp(self) -> None:
        w, h = self.projection.surface_size
        self.camera[0] = max(0.0, min(float(w), self.camera[0]))
        self.camera[1] = max(0.0, min(float(h), self.camera[1]))

    def update(self, dt: float) -> bool:
        """Glide the camera; True when the view moved."""
        if self.goal is None:
            return False
        gx, gy = self.goal
        k = min(1.0, GLIDE * dt)
        self.camera[0] += (gx - self.camera[0]) * k
        self.camera[1] += (gy - self.camera[1]) * k
        if abs(gx - self.camera[0]) < 1 and abs(gy - self.camera[1]) < 1:
            self.camera = [gx, gy]
            self.goal = None
        self._clamp()
        return True

    @property
    def origin(self) -> tuple[int, int]:
        """Where map-local (0, 0) is on the screen."""
        return (
            round(self.rect.centerx - self.camera[0]),
            round(self.rect.centery - self.camera[1]),
        )

    def to_screen(self, point: tuple[float, float]) -> tuple[int, int]:
        ox, oy = self.origin
        return round(point[0] + ox), round(point[1] + oy)

    def _float_centre(self, cell: tuple[float, float]) -> tuple[float, float]:
        """The map-local foot point of a possibly fractional cell (a piece mid-hop)."""
        x, y = cell
        x0, y0 = int(x // 1), int(y // 1)
        n = self.projection.size
        x1, y1 = min(n - 1, x0 + 1), min(n - 1, y0 + 1)
        fx, fy = x - x0, y - y0
        ax, ay = self.projection.centre(x0, y0)
        bx, by = self.projection.centre(x1, y0) if fx else (ax, ay)
        cx, cy = self.projection.centre(x0, y1) if fy else (ax, ay)
        return ax + (bx - ax) * fx + (cx - ax) * fy, ay + (by - ay) * fx + (cy - ay) * fy

    # -- picking ---------------------------------------------------------------------------
    def cell_at(
        self, pos: tuple[int, int], figures: Iterable[Figure] = (), *, ignore_pieces: bool = False
    ) -> Cell | None:
        """The cell under screen point `pos`: a piece's when the point is on its body
        (nearest piece first), else the tile's."""
        if not self.rect.collidepoint(pos):
            return None
        if not ignore_pieces:
            hit = self.figure_at(pos, figures)
            if hit is not None:
                return hit.cell
        ox, oy = self.origin
        return self.projection.cell_at((pos[0] - ox, pos[1] - oy))

    def figure_at(self, pos: tuple[int, int], figures: Iterable[Figure]) -> Figure | None:
        """The living piece whose body is under `pos` (the nearest when they overlap)."""
        best: tuple[int, Figure] | None = None
        for figure in figures:
            if not figure.alive:
                continue
            rect = self.body_rect(figure)
            if rect.inflate(-rect.width // 3, -rect.height // 4).collidepoint(pos):
                depth = self.projection.depth(*figure.cell)
                if best is None or depth > best[0]:
                    best = (depth, figure)
        return None if best is None else best[1]

    def body_rect(self, figure: Figure) -> pygame.Rect:
        """The screen rect of a piece's frame."""
        frames = self.art.frames(figure.kind, figure.army, self.zoom)
        side = frames[0].get_height()
        fx, fy = self.to_screen(self._float_centre((figure.x, figure.y)))
        lift = round(figure.hop * HOP_HEIGHT * self.projection.tile_w)
        rect = pygame.Rect(0, 0, side, side)
        rect.midbottom = (fx, fy + side // 6 - lift)
        return rect

    # -- drawing ---------------------------------------------------------------------------
    def draw(
        self,
        surface: pygame.Surface,
        figures: Iterable[Figure],
        marks: Marks,
        floaters: Iterable[Floater] = (),
    ) -> None:
        """Paint the map, highlights, pieces and floating numbers inside `rect`."""
        clip = surface.get_clip()
        surface.set_clip(self.rect)
        surface.fill(FIELD_BACKGROUND, self.rect)
        ox, oy = self.origin
        area = self.rect.move(-ox, -oy)
        static, (wx, wy) = self.art.static_map(self.projection, area)
        surface.blit(static, self.rect.topleft, area.move(-wx, -wy))
        self._draw_marks(surface, marks)
        ordered = sorted(
            (f for f in figures if f.alive),
            key=lambda f: (self.projection.depth(*f.cell), f.uid),
        )
        bodies = [(figure, self._draw_figure(surface, figure, marks)) for figure in ordered]
        for figure, body in bodies:
            if body is not None and figure.alpha == 255:
                self._life_bar(surface, figure, body)
        for floater in floaters:
            self._draw_floater(surface, floater)
        surface.set_clip(clip)

    def _draw_marks(self, surface: pygame.Surface, marks: Marks) -> None:
        """The highlights, farthest cell first; a higher tile in front hides them."""
        width = self.projection.tile_w
        by_cell: dict[Cell, list[str]] = {}
        for name in MARK_ORDER:
            for cell in marks.cells.get(name, ()):
                by_cell.setdefault(cell, []).append(name)
        for cell in sorted(by_cell, key=lambda c: (self.projection.depth(*c), c)):
            pos = self.to_screen(self.projection.image_pos(*cell))
            for name in by_cell[cell]:
                colour, alpha, outline = MARKS[name]
                surface.blit(self.art.mark(width, colour, alpha, outline), pos)
            self._cover(surface, cell, pygame.Rect(pos, (width, width // 2)), None)

    def _draw_figure(
        self, surface: pygame.Surface, figure: Figure, marks: Marks
    ) -> pygame.Rect | None:
        """Draw a piece, then the tiles in front of it again over it (a higher tile in
        front hides its feet, as in the painter's order); its rect, None when off view."""
        rect = self.body_rect(figure)
        if not rect.colliderect(self.rect):
            return None
        index = FRAME_NAMES.index(figure.frame)
        image = self.art.frames(figure.kind, figure.army, self.zoom)[index]
        if figure.alpha < 255:
            image = image.copy()
            image.set_alpha(figure.alpha)
        surface.blit(image, rect)
        if figure.flash:
            surface.blit(self.art.flash(figure.kind, figure.army, self.zoom, index), rect)
        self._cover(surface, figure.cell, rect, marks)
        return rect

    def _cover(
        self, surface: pygame.Surface, cell: Cell, area: pygame.Rect, marks: Marks | None
    ) -> None:
        """Blit again, inside `area`, the tiles in front of `cell` that stand higher than
        it (with their highlights when `marks` is given)."""
        projection = self.projection
        base = projection.lift(*cell)
        n = projection.size
        u0, v0 = turned(cell[0], cell[1], n, projection.rotation)
        width = projection.tile_w
        flip = projection.rotation % 2 == 1
        tiles = self.art.grid.tiles
        clip = surface.get_clip()
        surface.set_clip(area.clip(clip))
        for du, dv in FRONT:
            u, v = u0 + du, v0 + dv
            if not (0 <= u < n and 0 <= v < n):
                continue
            x, y = unturned(u, v, n, projection.rotation)
            index = int(tiles[y, x])
            if index == BORDER_INDEX or projection.lift(x, y) <= base:
                continue
            pos = self.to_screen(projection.image_pos(x, y))
            if not area.colliderect(pygame.Rect(pos, (width, width))):
                continue
            surface.blit(self.art.tile(index, width, flip), pos)
            if marks is None:
                continue
            for name in MARK_ORDER:
                cells = marks.cells.get(name)
                if cells and (x, y) in cells:
                    colour, alpha, outline = MARKS[name]
                    surface.blit(self.art.mark(width, colour, alpha, outline), (pos[0], pos[1]))
        surface.set_clip(clip)

    def _life_bar(self, surface: pygame.Surface, figure: Figure, body: pygame.Rect) -> None:
        width = max(12, self.projection.tile_w // 4)
        bar = pygame.Rect(0, 0, width, max(3, round(5 * self.zoom)))
        bar.midtop = (body.centerx, body.bottom - body.height // 6 + 4)
        share = max(0.0, min(1.0, figure.hp / max(1, figure.max_hp)))
        pygame.draw.rect(surface, (20, 20, 24), bar.inflate(2, 2))
        fill = bar.copy()
        fill.width = round(bar.width * share)
        colour = theme.SUCCESS if share > 0.5 else (theme.ACCENT if share > 0.25 else theme.DANGER)
        pygame.draw.rect(surface, colour, fill)

    def _draw_floater(self, surface: pygame.Surface, floater: Floater) -> None:
        fx, fy = self.to_screen(self._float_centre((floater.x, floater.y)))
        size = max(14, round(30 * self.zoom))
        image = text_image(floater.text, size, floater.colour, True)
        shade = text_image(floater.text, size, (10, 10, 14), True)
        rise = round(floater.rise * 40 * self.zoom)
        top = fy - round(100 * self.zoom) - rise
        alpha = round(255 * min(1.0, 2.0 * (1.0 - floater.rise)))
        rect = image.get_rect(midbottom=(fx, top))
        if alpha < 255:
            image = image.copy()
            image.set_alpha(alpha)
            shade = shade.copy()
            shade.set_alpha(alpha)
        surface.blit(shade, rect.move(2, 2))
        surface.blit(image, rect)
