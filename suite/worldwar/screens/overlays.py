"""Scenes pushed over the map: the hot-seat privacy screen, the F1 help and the Esc menu."""

from __future__ import annotations

import pygame

from suite.ui import theme
from suite.ui.app import Scene
from suite.ui.dialogs import veil
from suite.ui.widgets import draw_panel, draw_text

SHORTCUTS = (
    ("Click", "place 1 army / pick a territory"),
    ("Shift+click", "place 5 armies"),
    ("Right click", "take back an army / clear the selection"),
    ("U or Backspace", "undo the last placement"),
    ("A", "deployment: place all your armies at once"),
    ("Number keys", "attack (or defend) with that many dice"),
    ("Space", "attack once"),
    ("Enter", "attack to the end / confirm a move"),
    ("Left, Right", "change the armies to move"),
    ("F", "stop attacking and make the free move"),
    ("E", "end the turn"),
    ("C", "show or hide your cards;  T turn in,  B best set"),
    ("Wheel, +, -", "zoom;  drag or arrow keys to pan;  0 to fit"),
    ("S", "charts: territories, armies and cards per turn"),
    ("F1", "this help"),
    ("Esc", "clear the selection, or the menu: save, help, leave"),
)


class HelpScene(Scene):
    """The F1 overlay listing every shortcut; any key or click closes it."""

    transparent = True

    def animating(self) -> bool:
        return False  # still until input

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONUP):
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        veil(surface)
        w, h = surface.get_size()
        step = max(22, min(30, (h - 110) // len(SHORTCUTS)))  # fits 800x560
        size = 16 if step >= 26 else 14
        rect = pygame.Rect(0, 0, min(640, w - 20), 90 + step * len(SHORTCUTS))
        rect.center = (w // 2, h // 2)
        draw_panel(surface, rect, border=theme.ACCENT, alpha=250, radius=12)
        draw_text(
            surface,
            "Keys and mouse",
            (rect.centerx, rect.y + 18),
            size=24,
            bold=True,
            anchor="midtop",
        )
        y = rect.y + 66
        for keys, what in SHORTCUTS:
            draw_text(
                surface,
                keys,
                (rect.x + 190, y),
                size=size,
                bold=True,
                colour=theme.ACCENT,
                anchor="topright",
            )
            draw_text(surface, what, (rect.x + 210, y), size=size)
            y += step
