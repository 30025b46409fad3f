"""Modal dialogs as scenes: push one over any screen, it is popped when answered.

Because a dialog is a transparent scene on the stack, the screen below keeps being drawn
but receives no input until the dialog is gone, and Esc cancels it like any other scene.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.backdrop import backdrop
from suite.ui.scale import px, ui_factor
from suite.ui.widgets import Button, draw_panel, draw_text, wrap_text

VEIL = (4, 6, 12)
MenuEntry = tuple[str, str, Callable[[], object]]
"""A menu entry: (label, tooltip, what to run once the menu has closed)."""


def veil(surface: pygame.Surface, alpha: int = 170) -> None:
    """Dim all of `surface` (the screen under an overlay) with a dark veil."""
    layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    layer.fill((*VEIL, alpha))
    surface.blit(layer, (0, 0))


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
        self.k = 1.0
        self.rect = pygame.Rect(0, 0, 480, 220)
        self.confirm_button = Button(
            confirm_label, pygame.Rect(0, 0, 160, 48), self.confirm, primary=True
        )
        self.cancel_button = Button(cancel_label, pygame.Rect(0, 0, 160, 48), self.cancel)
        self.on_resize(app.size)

    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the dialog, sized by the window's UI factor (`suite.ui.scale`)."""
        k = self.k = ui_factor(size)
        self.rect.size = (min(px(480, k), size[0] - 40), px(220, k))
        self.rect.center = (size[0] // 2, size[1] // 2)
        for button in (self.cancel_button, self.confirm_button):
            button.rect.size = (px(160, k), px(48, k))
            button.font_size = px(18, k)
        bottom = self.rect.bottom - px(26, k)
        self.cancel_button.rect.bottomright = (self.rect.centerx - px(10, k), bottom)
        self.confirm_button.rect.bottomleft = (self.rect.centerx + px(10, k), bottom)

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
        veil(surface, 175)
        k = self.k
        draw_panel(surface, self.rect, colour=theme.PANEL, border=theme.ACCENT, alpha=252)
        draw_text(
            surface,
            self.question,
            (self.rect.centerx, self.rect.y + px(28, k)),
            size=px(26, k),
            bold=True,
            anchor="midtop",
        )
        y = self.rect.y + px(74, k)
        for line in wrap_text(self.detail, px(16, k), self.rect.width - px(60, k)):
            draw_text(
                surface,
                line,
                (self.rect.centerx, y),
                size=px(16, k),
                colour=theme.TEXT_MUTED,
                anchor="midtop",
            )
            y += theme.font(px(16, k)).get_linesize()
        self.cancel_button.draw(surface)
        self.confirm_button.draw(surface)


class MenuScene(Scene):
    """A titled column of buttons over the dimmed screen (an Esc menu, a list of saves or
    replays). A click on an entry closes the menu, then runs the entry; Esc closes it
    without running anything. The first entry is the primary one. The column follows the
    window's UI factor and shrinks its steps so that every entry fits the window."""

    transparent = True

    def __init__(
        self,
        app: App,
        title: str,
        entries: Sequence[MenuEntry],
        *,
        width: int = 300,
        font_size: int = 16,
    ) -> None:
        super().__init__(app)
        self.title = title
        self.width = width
        self.font_size = font_size
        self.k = 1.0
        self.buttons = [
            Button(label, pygame.Rect(0, 0, width, 42), self._closing(run), tooltip=tip)
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
        k = self.k = ui_factor(size)
        count = max(1, len(self.buttons))
        step = max(44, min(px(52, k), (size[1] - px(140, k)) // count))
        self.rect.size = (px(self.width + 60, k), px(80, k) + step * len(self.buttons))
        self.rect.center = (size[0] // 2, size[1] // 2)
        for i, button in enumerate(self.buttons):
            button.rect.size = (px(self.width, k), min(px(42, k), step - 4))
            button.font_size = px(self.font_size, k)
            button.rect.midtop = (self.rect.centerx, self.rect.y + px(62, k) + i * step)

    def animating(self) -> bool:
        return False

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


class PassScene(Scene):
    """Hot-seat privacy: an opaque "Pass to <name>" screen. Nothing of the previous player
    shows until the next one confirms (Enter, Space or the button); Esc does nothing, so it
    cannot reveal the screen below. `note` is the line under the name."""

    def __init__(
        self,
        app: App,
        name: str,
        colour: tuple[int, int, int],
        on_ready: Callable[[], None],
        *,
        note: str = "The other players should look away now.",
    ) -> None:
        super().__init__(app)
        self.name = name
        self.colour = colour
        self.note = note
        self.on_ready = on_ready
        self.k = 1.0
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.button = Button(
            f"I am {name}",
            pygame.Rect(0, 0, 260, 54),
            self.ready,
            primary=True,
            tooltip=f"Only {name} should look at the screen now (Enter)",
        )
        self.on_resize(app.size)

    def on_resize(self, size: tuple[int, int]) -> None:
        k = self.k = ui_factor(size)
        self.rect.size = (min(px(520, k), size[0] - 40), px(280, k))
        self.rect.center = (size[0] // 2, size[1] // 2)
        self.button.rect.size = (px(260, k), px(54, k))
        self.button.font_size = px(18, k)
        self.button.rect.midbottom = (self.rect.centerx, self.rect.bottom - px(30, k))

    def ready(self) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()
        self.on_ready()

    def back(self) -> bool:
        return True  # Esc must not reveal the screen below

    def animating(self) -> bool:
        return False

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
        k, rect = self.k, self.rect
        draw_panel(surface, rect, border=theme.ACCENT, radius=12)
        centre = (rect.centerx, rect.y + px(52, k))
        pygame.draw.circle(surface, self.colour, centre, px(22, k))
        pygame.draw.circle(surface, theme.SHADOW, centre, px(22, k), 3)
        draw_text(
            surface,
            f"Pass to {self.name}",
            (rect.centerx, rect.y + px(88, k)),
            size=px(30, k),
            bold=True,
            anchor="midtop",
        )
        y = rect.y + px(134, k)
        for line in wrap_text(self.note, px(16, k), rect.width - px(40, k)):
            draw_text(
                surface,
                line,
                (rect.centerx, y),
                size=px(16, k),
                colour=theme.TEXT_MUTED,
                anchor="midtop",
            )
            y += theme.font(px(16, k)).get_linesize()
        self.button.draw(surface)
        self.button.draw_tooltip(surface)
