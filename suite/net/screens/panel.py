"""What the online screens' button panels share (`ButtonScene`): input to the buttons,
their hover timers, and the backdrop with a titled panel."""

from __future__ import annotations

import pygame

from suite.ui import theme
from suite.ui.app import Scene
from suite.ui.backdrop import backdrop
from suite.ui.widgets import Button, draw_panel, draw_text


class ButtonScene(Scene):
    """A scene whose input goes to its `buttons` (first taker wins) and that moves only
    when something happens (no animation of its own)."""

    @property
    def buttons(self) -> list[Button]:
        return []

    def handle_event(self, event: pygame.event.Event) -> None:
        for button in self.buttons:
            if button.handle_event(event):
                return

    def animating(self) -> bool:
        return False

    def update(self, dt: float) -> None:
        for button in self.buttons:
            button.update(dt)

    def draw_panel_titled(self, surface: pygame.Surface, panel: pygame.Rect, title: str) -> None:
        """The backdrop, `panel` and its `title` (the caller draws the rest)."""
        surface.blit(backdrop(surface.get_size()), (0, 0))
        draw_panel(surface, panel, colour=theme.PANEL, radius=16, alpha=230)
        draw_text(
            surface, title, (panel.x + 30, panel.y + 24), size=28, bold=True, colour=theme.ACCENT
        )

    def draw_buttons(self, surface: pygame.Surface) -> None:
        """Every button, then every tooltip above them."""
        for button in self.buttons:
            button.draw(surface)
        for button in self.buttons:
            button.draw_tooltip(surface)
