"""Modal dialogs as scenes: push one over any screen, it is popped when answered.

Because a dialog is a transparent scene on the stack, the screen below keeps being drawn
but receives no input until the dialog is gone, and Esc cancels it like any other scene.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.widgets import Button, draw_panel, draw_text, wrap_text


class ConfirmScene(Scene):
    """A yes/no question. Enter or the confirm button pops the dialog and runs `on_confirm`;
    Esc or the cancel button pops it and runs `on_cancel` (if any)."""

    transparent = True

    def __init__(
        self,
        app: App,
        question: str,
        detail: str,
        confirm_label: str,
        on_confirm: Callable[[], None],
        *,
        cancel_label: str = "Cancel",
        on_cancel: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(app)
        self.question = question
        self.detail = detail
        self.on_confirm = on_confirm
        self.on_cancel = on_cancel
        self.answer: bool | None = None
        self.rect = pygame.Rect(0, 0, 480, 220)
        self.confirm_button = Button(
            confirm_label, pygame.Rect(0, 0, 160, 48), self.confirm, primary=True
        )
        self.cancel_button = Button(cancel_label, pygame.Rect(0, 0, 160, 48), self.cancel)
        self.on_resize(app.size)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.rect.center = (size[0] // 2, size[1] // 2)
        self.cancel_button.rect.bottomright = (self.rect.centerx - 10, self.rect.bottom - 26)
        self.confirm_button.rect.bottomleft = (self.rect.centerx + 10, self.rect.bottom - 26)

    def confirm(self) -> None:
        self._close(True)
        self.on_confirm()

    def cancel(self) -> None:
        self._close(False)

    def _close(self, answer: bool) -> None:
        self.answer = answer
        if self.app.stack and self.app.scene is self:
            self.app.pop()

    def on_exit(self) -> None:
        if self.answer is None:
            self.answer = False
        if not self.answer and self.on_cancel is not None:
            self.on_cancel()
            self.on_cancel = None

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.confirm()
            return
        for button in (self.confirm_button, self.cancel_button):
            if button.handle_event(event):
                return

    def animating(self) -> bool:
        return False

    def update(self, dt: float) -> None:
        self.confirm_button.update(dt)
        self.cancel_button.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((4, 6, 12, 175))
        surface.blit(veil, (0, 0))
        draw_panel(surface, self.rect, colour=theme.PANEL, border=theme.ACCENT, alpha=252)
        draw_text(
            surface,
            self.question,
            (self.rect.centerx, self.rect.y + 28),
            size=26,
            bold=True,
            anchor="midtop",
        )
        y = self.rect.y + 74
        for line in wrap_text(self.detail, 16, self.rect.width - 60):
            draw_text(
                surface,
                line,
                (self.rect.centerx, y),
                size=16,
                colour=theme.TEXT_MUTED,
                anchor="midtop",
            )
            y += theme.font(16).get_linesize()
        self.cancel_button.draw(surface)
        self.confirm_button.draw(surface)
