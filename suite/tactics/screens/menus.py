"""A titled column of buttons over the dimmed screen (the battle menu, the list of
replays). Each entry is (label, tooltip, run): a click closes the menu, then runs it; Esc
closes it without running anything. `veil` dims the screen under any Tactics overlay."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.scale import px, ui_factor
from suite.ui.widgets import Button, draw_panel, draw_text

Entry = tuple[str, str, Callable[[], object]]
VEIL = (4, 6, 12)


def veil(surface: pygame.Surface, alpha: int = 170) -> None:
    """Dim all of `surface` (the screen under an overlay) with a dark veil."""
    layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    layer.fill((*VEIL, alpha))
    surface.blit(layer, (0, 0))


class MenuScene(Scene):
    """See the module docstring; the first entry is the primary one."""

    transparent = True

    def __init__(self, app: App, title: str, entries: Sequence[Entry], *, width: int = 300) -> None:
        super().__init__(app)
        self.title = title
        self.width = width
        self.k = 1.0
        self.buttons = [
            Button(
                label, pygame.Rect(0, 0, width, 42), self._closing(run), tooltip=tip, font_size=16
            )
            for label, tip, run in entries
        ]
        if self.buttons:
            self.buttons[0].primary = True
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.on_resize(app.size)

    def _closing(self, run: Callable[[], object]) -> Callable[[], None]:
        def go() -> None:
            if self.app.stack and self.app.scene is self:
                self.app.pop()
            run()

        return go

    def on_resize(self, size: tuple[int, int]) -> None:
        """Lay the column out at the window's UI factor (`suite.ui.scale`)."""
        k = self.k = ui_factor(size)
        count = max(1, len(self.buttons))
        step = max(44, min(px(52, k), (size[1] - px(140, k)) // count))
        self.rect.size = (px(self.width + 60, k), px(80, k) + step * len(self.buttons))
        self.rect.center = (size[0] // 2, size[1] // 2)
        for i, button in enumerate(self.buttons):
            button.rect.size = (px(self.width, k), min(px(42, k), step - 4))
            button.font_size = px(16, k)
            button.rect.midtop = (self.rect.centerx, self.rect.y + px(62, k) + i * step)

    def handle_event(self, event: pygame.event.Event) -> None:
        for button in self.buttons:
            if button.handle_event(event):
                return

    def update(self, dt: float) -> None:
        for button in self.buttons:
            button.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        veil(surface)
        draw_panel(surface, self.rect, border=theme.ACCENT, alpha=250)
        draw_text(
            surface,
            self.title,
            (self.rect.centerx, self.rect.y + px(16, self.k)),
            size=px(22, self.k),
            bold=True,
            anchor="midtop",
        )
        for button in self.buttons:
            button.draw(surface)
        for button in self.buttons:
            button.draw_tooltip(surface)
