"""The battle's tool buttons: the pack's own button strips when it has them, drawn icons
otherwise (HUD book, Skip Move legs under a "no" sign, Skip Attack sword under one, End
Turn red check mark, rotate arrows, zoom).

Real packs carry their buttons as 4-state strips (`PACK_BUTTONS`: `buttonMain`,
`buttonSkipMove`, `buttonSkipAttack`, `buttonEndTurn`, `buttonRotateLeft`,
`buttonRotateRight`), looked up in the pack's `buttons/` folder, then beside the ini
(case-blind, WoS palette, index 6 transparent, within limits.toml's `[button]`). A strip
holds four equal frames, side by side or stacked (whichever way it is longer): normal,
hover, pressed, disabled (`STATES`). A picture that is no strip serves every state (dimmed
when disabled). Each button falls back on its own: a missing or unreadable strip is drawn
instead (a warning of the pack, never an error).
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

PACK_BUTTONS = {
    "hud": "buttonMain",
    "skip_move": "buttonSkipMove",
    "skip_attack": "buttonSkipAttack",
    "end_turn": "buttonEndTurn",
    "rotate_left": "buttonRotateLeft",
    "rotate": "buttonRotateRight",
}
BUTTON_FOLDERS = ("buttons/", "")
STATES = ("normal", "hover", "pressed", "disabled")
Strip = dict[str, pygame.Surface]


def pack_button_images(pack: Pack) -> dict[str, Strip]:
    """The button strips `pack` holds, by button name: a Surface per state of `STATES`."""
    found: dict[str, Strip] = {}
    for name, stem in PACK_BUTTONS.items():
        for folder in BUTTON_FOLDERS:
            bitmap = load_bitmap(pack, f"{folder}{stem}.bmp", "button")
            if bitmap is not None:
                found[name] = split_strip(tile_surface(bitmap, alpha=True))
                break
    return found


def split_strip(image: pygame.Surface) -> Strip:
    """The four state frames of a button strip (along its longer side); a picture shorter
    than four frames' worth is every state at once, the disabled one dimmed."""
    width, height = image.get_size()
    if width >= 2 * height and width >= 4:
        side = width // 4
        frames = [image.subsurface((i * side, 0, side, height)) for i in range(4)]
    elif height >= 2 * width and height >= 4:
        side = height // 4
        frames = [image.subsurface((0, i * side, width, side)) for i in range(4)]
    else:
        dim = image.copy()
        dim.set_alpha(110)
        frames = [image, image, image, dim]
    return dict(zip(STATES, frames, strict=True))


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


def _rotate_left(surface: pygame.Surface, rect: pygame.Rect, ink: Colour) -> None:
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    _rotate(layer, layer.get_rect(), ink)
    surface.blit(pygame.transform.flip(layer, True, False), rect)


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
    "rotate_left": _rotate_left,
    "rotate": _rotate,
    "zoom_in": _plus_minus(True),
    "zoom_out": _plus_minus(False),
}


class IconButton(Button):
    """A square tool button showing the pack's strip for `name` (the frame of its state)
    or its drawn icon."""

    def __init__(
        self,
        name: str,
        rect: pygame.Rect,
        on_click: Callable[[], None],
        *,
        tooltip: str,
        strip: Strip | None = None,
    ) -> None:
        super().__init__("", rect, on_click, tooltip=tooltip)
        self.name = name
        self.strip = strip
        self._drawn: dict[tuple[tuple[int, int], str], pygame.Surface] = {}

    @property
    def state(self) -> str:
        """One of `STATES`: what the button shows now."""
        if not self.enabled:
            return "disabled"
        if self.hover.inside:
            return "pressed" if self._pressed else "hover"
        return "normal"

    def draw(self, surface: pygame.Surface) -> None:
        state = self.state
        key = (self.rect.size, state)
        if self.strip is not None:
            if key not in self._drawn:
                self._drawn[key] = self._frame(state)
            surface.blit(self._drawn[key], self.rect)
            return
        hot = state in ("hover", "pressed")
        fill = theme.PANEL_LIGHT if hot else theme.PANEL
        border = theme.ACCENT if hot else theme.PANEL_BORDER
        rect = self.rect.move(0, -1) if state == "hover" else self.rect
        draw_panel(surface, rect, colour=fill, border=border, radius=8, alpha=245, shadow=3)
        if key not in self._drawn:
            self._drawn[key] = self._icon(rect.size)
        surface.blit(self._drawn[key], rect)

    def _frame(self, state: str) -> pygame.Surface:
        """The pack's frame for `state`, scaled to fit the button, centred."""
        assert self.strip is not None
        frame = self.strip[state]
        layer = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        fw, fh = frame.get_size()
        scale = min(self.rect.width / max(1, fw), self.rect.height / max(1, fh))
        size = (max(1, round(fw * scale)), max(1, round(fh * scale)))
        scaled = pygame.transform.smoothscale(frame, size)
        layer.blit(scaled, scaled.get_rect(center=layer.get_rect().center))
        return layer

    def _icon(self, size: tuple[int, int]) -> pygame.Surface:
        layer = pygame.Surface(size, pygame.SRCALPHA)
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
    "rotate_left": "Rotate the map a quarter turn left (Shift+R)",
    "rotate": "Rotate the map a quarter turn right (R)",
    "zoom_out": "Zoom out (-)",
    "zoom_in": "Zoom in (+)",
}
TOOL_SIZE = 38


def make_tools(
    strips: dict[str, Strip], actions: dict[str, Callable[[], None]]
) -> list[IconButton]:
    """The battle's tool buttons, in the order of `actions` (names of ICONS)."""
    return [
        IconButton(
            name,
            pygame.Rect(0, 0, TOOL_SIZE, TOOL_SIZE),
            run,
            tooltip=TOOLTIPS[name],
            strip=strips.get(name),
        )
        for name, run in actions.items()
    ]
