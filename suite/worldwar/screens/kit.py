"""Small building blocks of the World War screens: cached text and panels (so frames stay
cheap), an option cycler button and a themed slider. All draw with `suite.ui.theme`."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

import pygame

from suite.ui import theme
from suite.ui.theme import Colour
from suite.ui.widgets import Button, Hover, draw_panel, draw_tooltip

T = TypeVar("T")


@functools.lru_cache(maxsize=2048)
def text_image(text: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
    """`text` rendered once in the suite's font (cached: frames redraw the same labels)."""
    return theme.font(size, bold).render(text, True, colour)


@functools.lru_cache(maxsize=1024)
def fit_text(text: str, size: int, width: int, bold: bool = False) -> str:
    """`text` cut with "..." to fit `width` pixels (cached)."""
    font = theme.font(size, bold)
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "...")[0] > width:
        text = text[:-1]
    return text + "..."


def blit_text(
    surface: pygame.Surface,
    text: str,
    pos: tuple[int, int],
    *,
    size: int = 16,
    colour: Colour = theme.TEXT,
    bold: bool = False,
    anchor: str = "topleft",
) -> pygame.Rect:
    image = text_image(text, size, colour, bold)
    rect = image.get_rect(**{anchor: pos})
    surface.blit(image, rect)
    return rect


@functools.lru_cache(maxsize=256)
def panel_image(
    size: tuple[int, int],
    colour: Colour = theme.PANEL,
    border: Colour | None = theme.PANEL_BORDER,
    radius: int = 12,
    alpha: int = 235,
) -> pygame.Surface:
    """A `draw_panel` rendered once per size and style (with room for its shadow)."""
    pad = 12
    image = pygame.Surface((size[0] + 2 * pad, size[1] + 2 * pad), pygame.SRCALPHA)
    draw_panel(
        image,
        pygame.Rect(pad, pad, *size),
        colour=colour,
        border=border,
        radius=radius,
        alpha=alpha,
    )
    return image


def blit_panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    *,
    colour: Colour = theme.PANEL,
    border: Colour | None = theme.PANEL_BORDER,
    radius: int = 12,
    alpha: int = 235,
) -> None:
    surface.blit(panel_image(rect.size, colour, border, radius, alpha), (rect.x - 12, rect.y - 12))


def draw_star(
    surface: pygame.Surface, centre: tuple[float, float], r: float, colour: Colour
) -> None:
    """A five-pointed star of outer radius `r`."""
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        pts.append((centre[0] + rad * math.cos(angle), centre[1] + rad * math.sin(angle)))
    if r >= 1:
        pygame.draw.polygon(surface, colour, pts)


class Cycler(Button, Generic[T]):
    """A button showing "<caption>: <choice>"; a left click picks the next choice, a right
    click the previous one. `on_change(value)` runs after each change."""

    def __init__(
        self,
        caption: str,
        rect: pygame.Rect,
        choices: Sequence[tuple[T, str]],
        *,
        index: int = 0,
        tooltip: str = "",
        on_change: Callable[[T], None] | None = None,
        font_size: int = 16,
    ) -> None:
        self.caption = caption
        self.choices = list(choices)
        self.index = index % len(self.choices)
        self.on_change = on_change
        super().__init__("", rect, self.step, tooltip=tooltip, font_size=font_size)
        self._refresh()

    @property
    def value(self) -> T:
        return self.choices[self.index][0]

    def select(self, value: T) -> None:
        for i, (v, _) in enumerate(self.choices):
            if v == value:
                self.index = i
        self._refresh()

    def step(self, by: int = 1) -> None:
        self.index = (self.index + by) % len(self.choices)
        self._refresh()
        if self.on_change is not None:
            self.on_change(self.value)

    def _refresh(self) -> None:
        shown = self.choices[self.index][1]
        self.label = f"{self.caption}: {shown}" if self.caption else shown

    def handle_event(self, event: pygame.event.Event) -> bool:
        if (
            event.type == pygame.MOUSEBUTTONUP
            and event.button == 3
            and self.enabled
            and self.rect.collidepoint(event.pos)
        ):
            self.step(-1)
            return True
        return super().handle_event(event)


class Slider:
    """Pick a whole number lo..hi by dragging, clicking the track, the wheel or the arrow
    keys (`nudge`). The minimum is marked; `value` is always within the range."""

    def __init__(self, rect: pygame.Rect, lo: int, hi: int, value: int, tooltip: str = "") -> None:
        self.rect = pygame.Rect(rect)
        self.lo = lo
        self.hi = max(lo, hi)
        self.value = max(self.lo, min(self.hi, value))
        self.tooltip = tooltip
        self.hover = Hover()
        self.dragging = False

    def _from_x(self, x: int) -> int:
        if self.hi == self.lo:
            return self.lo
        track = self.rect.inflate(-24, 0)
        frac = (x - track.x) / max(1, track.width)
        return max(self.lo, min(self.hi, round(self.lo + frac * (self.hi - self.lo))))

    def knob_x(self) -> int:
        track = self.rect.inflate(-24, 0)
        if self.hi == self.lo:
            return track.right
        return round(track.x + (self.value - self.lo) / (self.hi - self.lo) * track.width)

    def nudge(self, by: int) -> None:
        self.value = max(self.lo, min(self.hi, self.value + by))

    def handle_event(self, event: pygame.event.Event) -> bool:
        self.hover.track(event, self.rect)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.rect.collidepoint(event.pos):
                self.dragging = True
                self.value = self._from_x(event.pos[0])
                return True
        elif event.type == pygame.MOUSEMOTION and self.dragging:
            self.value = self._from_x(event.pos[0])
            return True
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            self.dragging = False
            return True
        elif event.type == pygame.MOUSEWHEEL and self.hover.inside:
            self.nudge(1 if event.y > 0 else -1)
            return True
        return False

    def update(self, dt: float) -> None:
        self.hover.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        track = self.rect.inflate(-24, 0)
        y = self.rect.centery
        pygame.draw.line(surface, theme.PANEL_BORDER, (track.x, y), (track.right, y), 6)
        pygame.draw.line(surface, theme.ACCENT_DARK, (track.x, y), (self.knob_x(), y), 6)
        pygame.draw.line(surface, theme.TEXT_MUTED, (track.x, y - 9), (track.x, y + 9), 2)
        hot = self.hover.inside or self.dragging
        pygame.draw.circle(surface, theme.SHADOW, (self.knob_x(), y + 2), 11)
        pygame.draw.circle(surface, theme.HOVER if hot else theme.ACCENT, (self.knob_x(), y), 11)
        pygame.draw.circle(surface, theme.ACCENT_DARK, (self.knob_x(), y), 11, 2)

    def draw_tooltip(self, surface: pygame.Surface) -> None:
        if self.tooltip and self.hover.tooltip_due:
            draw_tooltip(surface, self.tooltip, self.hover.mouse)
