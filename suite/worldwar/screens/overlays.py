"""Scenes pushed over the map: the hot-seat privacy screen, the F1 help and the Esc menu."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.backdrop import backdrop
from suite.ui.dialogs import veil
from suite.ui.widgets import Button, draw_panel, draw_text

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


class PassScene(Scene):
    """Hot-seat privacy: an opaque screen asking to pass the machine to `name`; the map
    and the previous player's hand stay hidden until that player confirms."""

    def __init__(
        self, app: App, name: str, colour: tuple[int, int, int], on_ready: Callable[[], None]
    ) -> None:
        super().__init__(app)
        self.name = name
        self.colour = colour
        self.on_ready = on_ready
        self.button = Button(
            f"I am {name}",
            pygame.Rect(0, 0, 260, 54),
            self.ready,
            primary=True,
            tooltip=f"Only {name} should look at the screen now (Enter)",
        )
        self.on_resize(app.size)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.button.rect.center = (size[0] // 2, size[1] // 2 + 70)

    def ready(self) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()
        self.on_ready()

    def back(self) -> bool:
        return True  # Esc must not reveal the map

    def animating(self) -> bool:
        return False  # still until input

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (
            pygame.K_RETURN,
            pygame.K_KP_ENTER,
            pygame.K_SPACE,
        ):
            self.ready()
            return
        self.button.handle_event(event)

    def update(self, dt: float) -> None:
        self.button.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(backdrop(surface.get_size()), (0, 0))
        w, h = surface.get_size()
        rect = pygame.Rect(0, 0, 520, 280)
        rect.center = (w // 2, h // 2)
        draw_panel(surface, rect, border=theme.ACCENT, radius=12)
        pygame.draw.circle(surface, self.colour, (rect.centerx, rect.y + 52), 22)
        pygame.draw.circle(surface, theme.SHADOW, (rect.centerx, rect.y + 52), 22, 3)
        draw_text(
            surface,
            f"Pass to {self.name}",
            (rect.centerx, rect.y + 88),
            size=30,
            bold=True,
            anchor="midtop",
        )
        draw_text(
            surface,
            "The other players should look away now.",
            (rect.centerx, rect.y + 134),
            size=16,
            colour=theme.TEXT_MUTED,
            anchor="midtop",
        )
        self.button.draw(surface)
        self.button.draw_tooltip(surface)


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
