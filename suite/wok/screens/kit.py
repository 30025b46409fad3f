"""Small pieces of the WoK screens: the interface zoom, labels, buttons, a choice stepper,
a one-line text field, charts.

Everything draws with `suite.ui.theme` and the cached `suite.ui.widgets.text_image`.
The WoK screens are laid out for 1280x800; bigger windows zoom their text and layout by
`zoom()` (1 up to `MAX_ZOOM`), set from the window size by each scene's `on_resize`.
Layout code writes sizes as `px(n)`; `label` and `ZButton` zoom their fonts themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from suite.ui import theme
from suite.ui.theme import Colour
from suite.ui.widgets import Button, TooltipArea, draw_panel, fit_text, text_image

BASE_SIZE = (1280, 800)
MAX_ZOOM = 1.5
_zoom = [1.0]


def set_zoom(size: tuple[int, int]) -> float:
    """Zoom the interface for a window of `size` (1 at 1280x800 and below)."""
    k = min(size[0] / BASE_SIZE[0], size[1] / BASE_SIZE[1])
    _zoom[0] = max(1.0, min(MAX_ZOOM, round(k * 20) / 20))
    return _zoom[0]


def zoom() -> float:
    return _zoom[0]


def px(n: float) -> int:
    """`n` layout pixels (at 1280x800) in window pixels."""
    return round(n * _zoom[0])


class ZButton(Button):
    """A `Button` whose label zooms with the interface. After a press its tooltip stays
    hidden until the pointer leaves the button: it would cover what the click just made
    (the new order line under "Add order"). A disabled button keeps its (why-not) tooltip."""

    hushed = False

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEMOTION and not self.rect.collidepoint(event.pos):
            self.hushed = False
        elif event.type == pygame.MOUSEBUTTONDOWN and self.rect.collidepoint(event.pos):
            self.hushed = self.enabled  # a disabled button's tooltip says why: keep it
        return super().handle_event(event)

    def draw_tooltip(self, surface: pygame.Surface) -> None:
        if not self.hushed:
            super().draw_tooltip(surface)

    def draw(self, surface: pygame.Surface) -> None:
        base = self.font_size
        self.font_size = px(base)
        try:
            super().draw(surface)
        finally:
            self.font_size = base


def label(
    surface: pygame.Surface,
    text: str,
    pos: tuple[int, int],
    *,
    size: int = 15,
    colour: Colour = theme.TEXT,
    bold: bool = False,
    width: int = 0,
    anchor: str = "topleft",
) -> pygame.Rect:
    """Draw one line (cut to `width` when given) at `pos` by `anchor`; `size` zooms."""
    size = px(size)
    if width > 0:
        text = fit_text(text, size, width, bold)
    image = text_image(text, size, colour, bold)
    rect = image.get_rect(**{anchor: pos})
    surface.blit(image, rect)
    return rect


class Stepper:
    """A value picked from `choices` with a button either side ("<  POP->ARM  >").

    `on_change(value)` runs after every step; `shown(value)` gives the text shown.
    """

    def __init__(
        self,
        rect: pygame.Rect,
        choices: Sequence[str],
        on_change: Callable[[str], None] | None = None,
        *,
        shown: Callable[[str], str] = str,
        tooltip: str = "",
    ) -> None:
        self.rect = pygame.Rect(rect)
        self.choices = list(choices)
        self.index = 0
        self.on_change = on_change
        self.shown = shown
        self.left = ZButton("<", pygame.Rect(0, 0, 28, 28), lambda: self.step(-1), tooltip=tooltip)
        self.right = ZButton(">", pygame.Rect(0, 0, 28, 28), lambda: self.step(1), tooltip=tooltip)
        self.layout(rect)

    def layout(self, rect: pygame.Rect) -> None:
        self.rect = pygame.Rect(rect)
        h = self.rect.height
        self.left.rect = pygame.Rect(self.rect.x, self.rect.y, h, h)
        self.right.rect = pygame.Rect(self.rect.right - h, self.rect.y, h, h)

    @property
    def value(self) -> str:
        return self.choices[self.index] if self.choices else ""

    def set_choices(self, choices: Sequence[str], keep: str | None = None) -> None:
        self.choices = list(choices)
        self.index = self.choices.index(keep) if keep in self.choices else 0

    def select(self, value: str) -> None:
        if value in self.choices:
            self.index = self.choices.index(value)

    def step(self, by: int) -> None:
        if self.choices:
            self.index = (self.index + by) % len(self.choices)
            if self.on_change is not None:
                self.on_change(self.value)

    def handle_event(self, event: pygame.event.Event) -> bool:
        return self.left.handle_event(event) or self.right.handle_event(event)

    def update(self, dt: float) -> None:
        self.left.update(dt)
        self.right.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        inner = self.rect.inflate(-2 * self.rect.height - 8, 0)
        pygame.draw.rect(surface, theme.PANEL_LIGHT, inner, border_radius=6)
        label(
            surface,
            self.shown(self.value),
            inner.center,
            size=15,
            bold=True,
            anchor="center",
            width=inner.width - 8,
        )
        self.left.draw(surface)
        self.right.draw(surface)

    def draw_tooltip(self, surface: pygame.Surface) -> None:
        self.left.draw_tooltip(surface)
        self.right.draw_tooltip(surface)


class TextField:
    """A one-line text box: a click inside starts typing (a caret shows), a click outside,
    Enter or Tab ends it; Backspace deletes. At most `limit` characters, printable only.
    `on_done(text)` runs when typing ends; `typing` says whether keys go to this box."""

    def __init__(
        self,
        rect: pygame.Rect,
        text: str,
        *,
        limit: int = 12,
        on_done: Callable[[str], None] | None = None,
        tooltip: str = "",
    ) -> None:
        self.rect = pygame.Rect(rect)
        self.text = text
        self.limit = limit
        self.on_done = on_done
        self.typing = False
        self.tooltip = TooltipArea(self.rect, tooltip) if tooltip else None

    def layout(self, rect: pygame.Rect) -> None:
        self.rect = pygame.Rect(rect)
        if self.tooltip is not None:
            self.tooltip.rect = self.rect

    def stop(self) -> None:
        """End typing (runs `on_done` once)."""
        if self.typing:
            self.typing = False
            if self.on_done is not None:
                self.on_done(self.text)

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Whether the event was this box's (a click on it, or a key while typing)."""
        if self.tooltip is not None:
            self.tooltip.handle_event(event)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self.rect.collidepoint(event.pos):
                self.typing = True
                return True
            self.stop()
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return bool(self.rect.collidepoint(event.pos))
        if not self.typing:
            return False
        if event.type == pygame.TEXTINPUT:
            room = self.limit - len(self.text)
            self.text += "".join(ch for ch in event.text if ch.isprintable())[: max(0, room)]
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_BACKSPACE:
                self.text = self.text[:-1]
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB):
                self.stop()
            return True  # no key reaches the scene's shortcuts while typing
        return False

    def update(self, dt: float) -> None:
        if self.tooltip is not None:
            self.tooltip.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        border = theme.ACCENT if self.typing else theme.PANEL_BORDER
        pygame.draw.rect(surface, theme.PANEL_LIGHT, self.rect, border_radius=6)
        pygame.draw.rect(surface, border, self.rect, 2 if self.typing else 1, border_radius=6)
        shown = self.text + ("|" if self.typing else "")
        label(
            surface,
            shown,
            (self.rect.x + 6, self.rect.centery),
            size=15,
            anchor="midleft",
            width=self.rect.width - 10,
        )

    def draw_tooltip(self, surface: pygame.Surface) -> None:
        if self.tooltip is not None and not self.typing:
            self.tooltip.draw_tooltip(surface)


def line_chart(
    surface: pygame.Surface,
    rect: pygame.Rect,
    title: str,
    xs: Sequence[int],
    series: Sequence[tuple[str, Colour, Sequence[float]]],
) -> None:
    """A small line chart of `series` (name, colour, values per x) with its title."""
    draw_panel(surface, rect, colour=theme.PANEL, radius=8, shadow=2, alpha=245)
    title_rect = label(
        surface, title, (rect.x + 8, rect.y + px(4)), size=13, bold=True, width=rect.width - 16
    )
    if len(series) > 1:  # a key: the series' names in their colours, as far as they fit
        x = title_rect.right + 10
        for name, colour, _ in series:
            image = text_image(name, px(11), colour, True)
            if x + image.get_width() > rect.right - 8:
                break
            surface.blit(image, (x, rect.y + px(6)))
            x += image.get_width() + 8
    area = pygame.Rect(rect.x + px(34), rect.y + px(24), rect.width - px(44), rect.height - px(40))
    values = [v for _, _, vs in series for v in vs]
    top = max(values, default=1.0) or 1.0
    pygame.draw.line(surface, theme.PANEL_BORDER, area.bottomleft, area.bottomright)
    pygame.draw.line(surface, theme.PANEL_BORDER, area.bottomleft, area.topleft)
    label(
        surface,
        f"{top:.0f}",
        (area.x - 4, area.y),
        size=11,
        colour=theme.TEXT_MUTED,
        anchor="topright",
    )
    label(
        surface,
        "0",
        (area.x - 4, area.bottom),
        size=11,
        colour=theme.TEXT_MUTED,
        anchor="bottomright",
    )
    if xs:
        label(surface, f"turn {xs[0]}", (area.x, area.bottom + 1), size=11, colour=theme.TEXT_MUTED)
        label(
            surface,
            f"{xs[-1]}",
            (area.right, area.bottom + 1),
            size=11,
            colour=theme.TEXT_MUTED,
            anchor="topright",
        )
    n = len(xs)
    for _, colour, vs in series:
        pts = [
            (
                area.x + (area.width * i // max(1, n - 1) if n > 1 else area.width // 2),
                area.bottom - round(area.height * v / top),
            )
            for i, v in enumerate(vs)
        ]
        if len(pts) >= 2:
            pygame.draw.lines(surface, colour, False, pts, px(2))
        if len(pts) <= area.width // 12:  # a dot per turn while they stay apart
            for pt in pts:
                pygame.draw.circle(surface, colour, pt, px(3))


def bar_pair(
    surface: pygame.Surface,
    rect: pygame.Rect,
    rows: Sequence[tuple[str, Colour, int, int, int]],
) -> None:
    """Battle bars: per row (name, colour, start, lost, injured), a bar of the start count
    with the lost part dark and the injured who recovered (the winner's) in a darker shade,
    scaled to the larger start. `lost` counts the dead only."""
    top = max((r[2] for r in rows), default=1) or 1
    h = max(6, (rect.height - 4) // max(1, len(rows)) - 4)
    for i, (name, colour, start, lost, injured) in enumerate(rows):
        y = rect.y + 2 + i * (h + 4)
        full = max(2, rect.width * start // top)
        bar = pygame.Rect(rect.x, y, full, h)
        pygame.draw.rect(surface, colour, bar, border_radius=3)
        dead = min(start, lost)
        gone = min(full, rect.width * dead // top)
        if gone:
            pygame.draw.rect(surface, theme.SHADOW, pygame.Rect(bar.right - gone, y, gone, h))
        hurt = min(full - gone, rect.width * min(start - dead, injured) // top)
        if hurt > 0:
            band = pygame.Rect(bar.right - gone - hurt, y, hurt, h)
            pygame.draw.rect(surface, theme.darken(colour, 0.5), band)
        pygame.draw.rect(surface, theme.PANEL_BORDER, bar, 1, border_radius=3)
        left = start - dead
        if start == 0:
            text = f"{name}: none there"
        elif left <= 0:
            text = f"{name}: {start}, all lost"
        else:
            healed = f" ({injured} injured recovered)" if injured else ""
            text = f"{name}: {start}, {dead} lost, {left} left{healed}"
        label(
            surface,
            text,
            (bar.x + 4, y + h // 2),
            size=11,
            colour=theme.TEXT,
            anchor="midleft",
            width=rect.width - 8,
        )
