"""The battle's tool buttons: the pack's `buttons/` images when it has them, drawn icons
otherwise (HUD book, Skip Move legs under a "no" sign, Skip Attack sword under one, End
Turn red check mark, rotate arrow, zoom).

A pack image is `buttons/<name>.bmp` (case-blind, WoS palette, index 6 transparent, at
most a tile's size); `BUTTON_FILES` lists the names. A missing or unreadable image is
simply drawn instead (a warning of the pack, never an error).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from suite.tactics.assets.model import Pack
from suite.tactics.assets.pack import load_bitmap
from suite.tactics.render import tile_surface
from suite.ui import theme
from suite.ui.theme import Colour
from suite.ui.widgets import Button, draw_panel

BUTTON_FILES = {
    "hud": "buttons/hud.bmp",
    "skip_move": "buttons/skipMove.bmp",
    "skip_attack": "buttons/skipAttack.bmp",
    "end_turn": "buttons/endTurn.bmp",
    "rotate": "buttons/rotate.bmp",
    "zoom_in": "buttons/zoomIn.bmp",
    "zoom_out": "buttons/zoomOut.bmp",
}


def pack_button_images(pack: Pack) -> dict[str, pygame.Surface]:
    """The button images `pack` holds, by button name."""
    found: dict[str, pygame.Surface] = {}
    for name, relative in BUTTON_FILES.items():
        bitmap = load_bitmap(pack, relative, "tile")
        if bitmap is not None:
            found[name] = tile_surface(bitmap, alpha=True)
    return found


def _no_sign(surface: pygame.Surface, rect: pygame.Rect) -> None:
    r = min(rect.width, rect.height) // 2 - 2
    pygame.draw.circle(surface, (220, 40, 40), rect.center, r, 3)
    d = r * 0.7
    c = rect.center
    pygame.draw.line(surface, (220, 40, 40), (c[0] - d, c[1] - d), (c[0] + d, c[1] + d), 3)


def _legs(surface: pygame.Surface, rect: pygame.Rect, ink: Colour) -> None:
    cx, cy = rect.center
    s = rect.height / 28
    for side in (-1, 1):
        hip = (cx + side * 3 * s, cy - 8 * s)
        knee = (cx + side * 5 * s, cy)
        foot = (cx + side * 4 * s, cy + 8 * s)
        pygame.draw.lines(surface, ink, False, [hip, knee, foot], max(2, round(3 * s)))
        pygame.draw.line(
            surface, ink, foot, (foot[0] + side * 4 * s, foot[1]), max(2, round(3 * s))
        )


def _sword(surface: pygame.Surface, rect: pygame.Rect, ink: Colour) -> None:
    cx, cy = rect.center
    s = rect.height / 28
    pygame.draw.line(
        surface, ink, (cx - 8 * s, cy + 8 * s), (cx + 8 * s, cy - 8 * s), max(2, round(3 * s))
    )
    pygame.draw.line(
        surface, ink, (cx - 9 * s, cy + 3 * s), (cx - 3 * s, cy + 9 * s), max(2, round(3 * s))
    )


def _book(surface: pygame.Surface, rect: pygame.Rect, ink: Colour) -> None:
    cx, cy = rect.center
    s = rect.height / 28
    left = [
        (cx, cy - 6 * s),
        (cx - 10 * s, cy - 9 * s),
        (cx - 10 * s, cy + 7 * s),
        (cx, cy + 10 * s),
    ]
    right = [
        (cx, cy - 6 * s),
        (cx + 10 * s, cy - 9 * s),
        (cx + 10 * s, cy + 7 * s),
        (cx, cy + 10 * s),
    ]
    pygame.draw.polygon(surface, (150, 40, 40), left)
    pygame.draw.polygon(surface, (170, 50, 50), right)
    pygame.draw.lines(surface, ink, True, left, 2)
    pygame.draw.lines(surface, ink, True, right, 2)


def _check(surface: pygame.Surface, rect: pygame.Rect, ink: Colour) -> None:
    cx, cy = rect.center
    s = rect.height / 28
    points = [(cx - 9 * s, cy), (cx - 3 * s, cy + 7 * s), (cx + 10 * s, cy - 9 * s)]
    pygame.draw.lines(surface, (220, 40, 40), False, points, max(3, round(5 * s)))


def _rotate(surface: pygame.Surface, rect: pygame.Rect, ink: Colour) -> None:
    cx, cy = rect.center
    r = rect.height * 0.3
    box = pygame.Rect(0, 0, 2 * r, 2 * r)
    box.center = (cx, cy)
    pygame.draw.arc(surface, ink, box, math.radians(30), math.radians(300), 3)
    tip = (cx + r * math.cos(math.radians(30)), cy - r * math.sin(math.radians(30)))
    pygame.draw.polygon(
        surface, ink, [(tip[0] - 6, tip[1] - 6), (tip[0] + 6, tip[1] - 4), (tip[0] + 1, tip[1] + 5)]
    )


def _plus_minus(plus: bool) -> Callable[[pygame.Surface, pygame.Rect, Colour], None]:
    def draw(surface: pygame.Surface, rect: pygame.Rect, ink: Colour) -> None:
        cx, cy = rect.center
        r = rect.height // 4
        pygame.draw.line(surface, ink, (cx - r, cy), (cx + r, cy), 3)
        if plus:
            pygame.draw.line(surface, ink, (cx, cy - r), (cx, cy + r), 3)

    return draw


def _skip_move(surface: pygame.Surface, rect: pygame.Rect, ink: Colour) -> None:
    _legs(surface, rect, ink)
    _no_sign(surface, rect)


def _skip_attack(surface: pygame.Surface, rect: pygame.Rect, ink: Colour) -> None:
    _sword(surface, rect, ink)
    _no_sign(surface, rect)


ICONS: dict[str, Callable[[pygame.Surface, pygame.Rect, Colour], None]] = {
    "hud": _book,
    "skip_move": _skip_move,
    "skip_attack": _skip_attack,
    "end_turn": _check,
    "rotate": _rotate,
    "zoom_in": _plus_minus(True),
    "zoom_out": _plus_minus(False),
}


class IconButton(Button):
    """A square tool button showing the pack's image `name` or its drawn icon."""

    def __init__(
        self,
        name: str,
        rect: pygame.Rect,
        on_click: Callable[[], None],
        *,
        tooltip: str,
        image: pygame.Surface | None = None,
    ) -> None:
        super().__init__("", rect, on_click, tooltip=tooltip)
        self.name = name
        self.image = image
        self._drawn: dict[tuple[tuple[int, int], bool], pygame.Surface] = {}

    def draw(self, surface: pygame.Surface) -> None:
        hot = self.enabled and self.hover.inside
        fill = theme.PANEL_LIGHT if hot else theme.PANEL
        border = theme.ACCENT if hot else theme.PANEL_BORDER
        rect = self.rect.move(0, -1) if hot and not self._pressed else self.rect
        draw_panel(surface, rect, colour=fill, border=border, radius=8, alpha=245, shadow=3)
        key = (rect.size, self.enabled)
        if key not in self._drawn:
            self._drawn[key] = self._icon(rect.size)
        surface.blit(self._drawn[key], rect)

    def _icon(self, size: tuple[int, int]) -> pygame.Surface:
        layer = pygame.Surface(size, pygame.SRCALPHA)
        if self.image is not None:
            inner = layer.get_rect().inflate(-8, -8)
            layer.blit(pygame.transform.smoothscale(self.image, inner.size), inner)
        else:
            ink = theme.TEXT if self.enabled else theme.DISABLED
            ICONS[self.name](layer, layer.get_rect().inflate(-6, -6), ink)
        if not self.enabled:
            layer.set_alpha(80)
        return layer


TOOLTIPS = {
    "hud": "Book of Tactics: map, army, stats (B)",
    "skip_move": "Skip Move: stay and go on to the attack (M)",
    "skip_attack": "Skip Attack: end this piece's command (A)",
    "end_turn": "End Turn (E)",
    "rotate": "Rotate the map a quarter turn (R)",
    "zoom_out": "Zoom out (-)",
    "zoom_in": "Zoom in (+)",
}
TOOL_SIZE = 38


def make_tools(
    images: dict[str, pygame.Surface], actions: dict[str, Callable[[], None]]
) -> list[IconButton]:
    """The battle's tool buttons, in the order of `actions` (names of ICONS)."""
    return [
        IconButton(
            name,
            pygame.Rect(0, 0, TOOL_SIZE, TOOL_SIZE),
            run,
            tooltip=TOOLTIPS[name],
            image=images.get(name),
        )
        for name, run in actions.items()
    ]
