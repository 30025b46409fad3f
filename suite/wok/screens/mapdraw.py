"""The WoK map: provinces in their owners' colours, names or numbers, armies, overlays, arrows.

`WokMapView` draws a view's `WokMap` (fixed geometry) into a rect of the window. The
fills, borders, labels and army badges are rendered once into a layer, rebuilt only when
the owners or the figures shown change (`set_state`) or the rect changes; a frame blits
that layer, then the cheap dynamic parts: overlay tints of the provinces an order may
name, the hover and selection outlines and the planned-order arrows. `province_at`
answers which province is under the mouse by a point-in-polygon test.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pygame

from suite.ui import theme
from suite.ui.theme import Colour
from suite.ui.widgets import text_image
from suite.wok.rules.views import ProvinceView, WokMap

SEA: Colour = (16, 30, 48)
NEUTRAL: Colour = (92, 96, 104)
EDGE: Colour = (12, 15, 22)
MARGIN = 12
ZOOM_MAX, ZOOM_STEP = 3.0, 1.25
NAMES_FROM = 0.9  # map scale from which provinces show their names, not just numbers
EXTRA_COLOURS: tuple[Colour, ...] = ((150, 96, 70), (150, 150, 255))


def colour_of(colour: int) -> Colour:
    """The fill of a WoK colour (player palette, two more for ten players); -1 neutral."""
    if colour < 0:
        return NEUTRAL
    palette = [c.rgb for c in theme.PLAYER_COLOURS] + list(EXTRA_COLOURS)
    return palette[colour % len(palette)]


@dataclass(frozen=True)
class Arrow:
    """A planned order drawn on the map: from, to, its colour and whether it is chained."""

    source: int
    target: int
    colour: Colour
    dashed: bool = False
    label: str = ""


def _point_in(poly: Sequence[tuple[float, float]], x: float, y: float) -> bool:
    inside = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / ((yj - yi) or 1e-9) + xi:
            inside = not inside
        j = i
    return inside


class WokMapView:
    """Draws `board` into `rect` and maps the mouse to provinces (see the module docstring)."""

    def __init__(self, board: WokMap, rect: pygame.Rect) -> None:
        self.board = board
        self.rect = pygame.Rect(rect)
        pts = [pt for p in board.provinces for pt in p.polygon] or [(0.0, 0.0), (1.0, 1.0)]
        self.world = (
            min(x for x, _ in pts),
            min(y for _, y in pts),
            max(x for x, _ in pts),
            max(y for _, y in pts),
        )
        self.owners: tuple[int, ...] = tuple(-1 for _ in board.provinces)
        self.armies: tuple[str | None, ...] = tuple(None for _ in board.provinces)
        self.marks: tuple[str, ...] = tuple("" for _ in board.provinces)
        self.names = True
        self.plain = False  # True: fills and borders only (a preview), no labels or badges
        self.unknown_badges = True  # False: no "?" badge where the armies are unknown
        self.zoom = 1.0
        self.pan = ((self.world[0] + self.world[2]) / 2, (self.world[1] + self.world[3]) / 2)
        self._layer: pygame.Surface | None = None
        self._screen_polys: list[list[tuple[int, int]]] = []
        self._labels: list[tuple[int, int]] = []
        self.layers_built = 0
        self.set_rect(rect)

    # -- geometry ---------------------------------------------------------------------------

    def set_rect(self, rect: pygame.Rect) -> None:
        """Lay the map out in `rect` at the current zoom and pan."""
        self.rect = pygame.Rect(rect)
        x0, y0, x1, y1 = self.world
        w, h = max(1.0, x1 - x0), max(1.0, y1 - y0)
        fit = min((self.rect.width - 2 * MARGIN) / w, (self.rect.height - 2 * MARGIN) / h)
        s = fit * self.zoom
        # the pan is the world point shown at the rect's centre
        cx = self.pan[0] if self.zoom > 1 else (x0 + x1) / 2
        cy = self.pan[1] if self.zoom > 1 else (y0 + y1) / 2
        self.scale = s
        self._origin = (self.rect.centerx - cx * s, self.rect.centery - cy * s)
        self._screen_polys = [
            [self.to_screen(pt) for pt in p.polygon] for p in self.board.provinces
        ]
        self._labels = []
        for i, p in enumerate(self.board.provinces):
            if p.label is not None:
                self._labels.append(self.to_screen(p.label))
            else:
                poly = self._screen_polys[i]
                self._labels.append(
                    (sum(x for x, _ in poly) // len(poly), sum(y for _, y in poly) // len(poly))
                )
        self._layer = None

    def to_world(self, pos: tuple[int, int]) -> tuple[float, float]:
        return ((pos[0] - self._origin[0]) / self.scale, (pos[1] - self._origin[1]) / self.scale)

    def zoom_at(self, pos: tuple[int, int], steps: float) -> None:
        """Zoom by ZOOM_STEP ** steps (between 1 and ZOOM_MAX) keeping the point under `pos`."""
        new = max(1.0, min(ZOOM_MAX, self.zoom * ZOOM_STEP**steps))
        if abs(new - self.zoom) < 1e-9:
            return
        wx, wy = self.to_world(pos)
        ratio = self.zoom / new
        cx, cy = self.to_world(self.rect.center)
        self.zoom = new
        self.pan = (wx + (cx - wx) * ratio, wy + (cy - wy) * ratio)
        self._clamp()
        self.set_rect(self.rect)

    def drag(self, rel: tuple[int, int]) -> None:
        """Move the zoomed map by `rel` screen pixels."""
        if self.zoom <= 1:
            return
        self.pan = (self.pan[0] - rel[0] / self.scale, self.pan[1] - rel[1] / self.scale)
        self._clamp()
        self.set_rect(self.rect)

    def _clamp(self) -> None:
        x0, y0, x1, y1 = self.world
        self.pan = (min(x1, max(x0, self.pan[0])), min(y1, max(y0, self.pan[1])))

    def to_screen(self, pt: tuple[float, float]) -> tuple[int, int]:
        return (
            round(self._origin[0] + pt[0] * self.scale),
            round(self._origin[1] + pt[1] * self.scale),
        )

    def bounds(self, province: int) -> pygame.Rect:
        """The province's bounding box on screen."""
        xs = [x for x, _ in self._screen_polys[province]]
        ys = [y for _, y in self._screen_polys[province]]
        return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)

    def centre(self, province: int) -> tuple[int, int]:
        return self._labels[province]

    def province_at(self, pos: tuple[int, int]) -> int | None:
        if not self.rect.collidepoint(pos):
            return None
        for i, poly in enumerate(self._screen_polys):
            if _point_in(poly, pos[0], pos[1]):
                return i
        return None

    # -- state ------------------------------------------------------------------------------

    def set_state(
        self,
        owners: Sequence[int],
        armies: Sequence[str | None],
        marks: Sequence[str] | None = None,
    ) -> None:
        """What the layer shows: owner per province, armies known (None: unknown) and a
        short mark (e.g. "H" for a start province); rebuilds the layer only on change."""
        owners_t, armies_t = tuple(owners), tuple(armies)
        marks_t = tuple(marks) if marks is not None else self.marks
        if (owners_t, armies_t, marks_t) != (self.owners, self.armies, self.marks):
            self.owners, self.armies, self.marks = owners_t, armies_t, marks_t
            self._layer = None

    # -- drawing ----------------------------------------------------------------------------

    def _label_size(self) -> int:
        return max(10, min(15, round(self.scale * 11)))

    def _build(self) -> pygame.Surface:
        self.layers_built += 1
        layer = pygame.Surface(self.rect.size)
        layer.fill(SEA)
        off = (-self.rect.x, -self.rect.y)
        size = self._label_size()
        for i, poly in enumerate(self._screen_polys):
            pts = [(x + off[0], y + off[1]) for x, y in poly]
            fill = colour_of(self.owners[i])
            pygame.draw.polygon(layer, theme.darken(fill, 0.25), pts)
            pygame.draw.polygon(layer, EDGE, pts, 2)
        if self.plain:
            return layer
        for i, (x, y) in enumerate(self._labels):
            cx, cy = x + off[0], y + off[1]
            name = self.board.provinces[i].name
            text = f"{i} {name}" if self.names and self.scale > NAMES_FROM else str(i)
            image = text_image(text, size, theme.TEXT, False)
            layer.blit(
                text_image(text, size, theme.SHADOW, False),
                image.get_rect(midbottom=(cx + 1, cy + 1)),
            )
            layer.blit(image, image.get_rect(midbottom=(cx, cy)))
            armies = self.armies[i]
            if armies is None and not self.marks[i] and not self.unknown_badges:
                continue
            badge = "?" if armies is None else armies
            if self.marks[i]:
                badge = f"{badge} {self.marks[i]}"
            self._badge(layer, badge, (cx, cy + 2), colour_of(self.owners[i]), size)
        return layer

    @staticmethod
    def _badge(
        layer: pygame.Surface, text: str, top: tuple[int, int], fill: Colour, size: int
    ) -> None:
        ink = (20, 20, 24) if sum(fill) > 360 else theme.TEXT
        image = text_image(text, size, ink, True)
        rect = image.get_rect(midtop=top).inflate(10, 2)
        pygame.draw.rect(layer, fill, rect, border_radius=rect.height // 2)
        pygame.draw.rect(layer, EDGE, rect, 1, border_radius=rect.height // 2)
        layer.blit(image, image.get_rect(center=rect.center))

    def draw(
        self,
        surface: pygame.Surface,
        *,
        tint: Iterable[int] = (),
        tint_colour: Colour = theme.ACCENT,
        soft: Iterable[int] = (),
        soft_colour: Colour = theme.TEXT_MUTED,
        hover: int | None = None,
        selected: Sequence[int] = (),
        arrows: Sequence[Arrow] = (),
    ) -> None:
        """One frame: the layer, then overlay outlines, hover, selection and arrows."""
        if self._layer is None:
            self._layer = self._build()
        surface.blit(self._layer, self.rect)
        clip = surface.get_clip()
        surface.set_clip(self.rect)
        for i in tint:
            pygame.draw.polygon(surface, tint_colour, self._screen_polys[i], 3)
        for i in soft:
            pygame.draw.polygon(surface, soft_colour, self._screen_polys[i], 2)
        for i in selected:
            pygame.draw.polygon(surface, theme.TEXT, self._screen_polys[i], 3)
        if hover is not None:
            pygame.draw.polygon(surface, theme.HOVER, self._screen_polys[hover], 2)
        for arrow in arrows:
            self._arrow(surface, arrow)
        surface.set_clip(clip)

    def badge_centre(self, province: int) -> tuple[int, int]:
        """Where the province's army badge sits (arrows run between badges, under the names)."""
        x, y = self._labels[province]
        return (x, y + 2 + round(self._label_size() * 0.7))

    def _arrow(self, surface: pygame.Surface, arrow: Arrow) -> None:
        a, b = self.badge_centre(arrow.source), self.badge_centre(arrow.target)
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        start = (a[0] + ux * 8, a[1] + uy * 8)
        end = (b[0] - ux * 10, b[1] - uy * 10)
        if arrow.dashed:
            steps = max(1, int(length // 12))
            for k in range(0, steps, 2):
                p = (
                    start[0] + (end[0] - start[0]) * k / steps,
                    start[1] + (end[1] - start[1]) * k / steps,
                )
                q = (
                    start[0] + (end[0] - start[0]) * (k + 1) / steps,
                    start[1] + (end[1] - start[1]) * (k + 1) / steps,
                )
                pygame.draw.line(surface, arrow.colour, p, q, 3)
        else:
            pygame.draw.line(surface, theme.SHADOW, start, end, 5)
            pygame.draw.line(surface, arrow.colour, start, end, 3)
        head = [
            end,
            (end[0] - ux * 12 - uy * 7, end[1] - uy * 12 + ux * 7),
            (end[0] - ux * 12 + uy * 7, end[1] - uy * 12 - ux * 7),
        ]
        pygame.draw.polygon(surface, arrow.colour, head)
        pygame.draw.polygon(surface, theme.SHADOW, head, 1)
        if arrow.label:
            mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
            image = text_image(arrow.label, self._label_size(), theme.TEXT, True)
            rect = image.get_rect(center=(round(mid[0]), round(mid[1]))).inflate(8, 2)
            pygame.draw.rect(surface, (10, 12, 18), rect, border_radius=6)
            surface.blit(image, image.get_rect(center=rect.center))


def army_badge(p: ProvinceView, turn: int) -> str | None:
    """A province's armies as its badge shows them: "12" now, "~12" from older intel,
    None when unknown."""
    if p.figures is None:
        return None
    old = p.seen is not None and p.seen < turn
    return f"~{p.figures.troops()}" if old else str(p.figures.troops())
