"""Small drawing helpers and widgets shared by every screen of the suite.

Everything here draws with the colours and fonts of `suite.ui.theme`. Widgets take pygame
events through `handle_event(event) -> bool` (True when they used it), advance timers in
`update(dt)` and paint in `draw(surface)`; tooltips are painted separately by
`draw_tooltip(surface)` so a scene can put them above everything else.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import pygame

from suite.ui import theme
from suite.ui.scale import px, ui_factor
from suite.ui.theme import Colour

T = TypeVar("T")

TOOLTIP_DELAY = 0.45  # seconds of hovering before a tooltip shows


def vertical_gradient(size: tuple[int, int], top: Colour, bottom: Colour) -> pygame.Surface:
    """A surface of `size` shading from `top` to `bottom`."""
    width, height = max(1, size[0]), max(1, size[1])
    strip = pygame.Surface((1, 2))
    strip.set_at((0, 0), top)
    strip.set_at((0, 1), bottom)
    return pygame.transform.smoothscale(strip, (width, height))


def draw_panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    *,
    colour: Colour = theme.PANEL,
    border: Colour | None = theme.PANEL_BORDER,
    radius: int = 14,
    alpha: int = 235,
    shadow: int = 6,
    border_width: int = 1,
) -> None:
    """A rounded, slightly translucent panel with a soft drop shadow and an optional border."""
    pad = 2 * shadow
    image = _panel_image(rect.size, colour, border, radius, alpha, shadow, border_width)
    surface.blit(image, (rect.x - pad, rect.y - pad))


@functools.lru_cache(maxsize=512)
def _panel_image(
    size: tuple[int, int],
    colour: Colour,
    border: Colour | None,
    radius: int,
    alpha: int,
    shadow: int,
    border_width: int,
) -> pygame.Surface:
    """The panel with its shadow, padded by 2 * shadow on every side (cached per look)."""
    width, height = size
    pad = 2 * shadow
    image = pygame.Surface((width + 2 * pad, height + 2 * pad), pygame.SRCALPHA)
    body_rect = pygame.Rect(pad, pad, width, height)
    for step in range(shadow, 0, -1):
        grown = body_rect.inflate(2 * step, 2 * step).move(0, shadow // 2)
        pygame.draw.rect(image, (*theme.SHADOW, 110 // shadow), grown, border_radius=radius + step)
    body = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(body, (*colour, alpha), body.get_rect(), border_radius=radius)
    if border is not None and border_width:
        pygame.draw.rect(body, border, body.get_rect(), border_width, border_radius=radius)
    image.blit(body, body_rect)
    return image


@functools.lru_cache(maxsize=4096)
def text_image(text: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
    """`text` rendered in the suite's font, cached (screens redraw the same labels every
    frame). The surface is shared: blit it, never draw on it."""
    return theme.font(size, bold).render(text, True, colour)


def draw_text(
    surface: pygame.Surface,
    text: str,
    pos: tuple[int, int],
    *,
    size: int = 18,
    colour: Colour = theme.TEXT,
    bold: bool = False,
    anchor: str = "topleft",
    shadow: bool = False,
) -> pygame.Rect:
    """Draw one line of text with its `anchor` (a pygame.Rect attribute) at `pos`."""
    image = text_image(text, size, colour, bold)
    rect = image.get_rect(**{anchor: pos})
    if shadow:
        surface.blit(text_image(text, size, theme.SHADOW, bold), rect.move(1, 2))
    surface.blit(image, rect)
    return rect


def wrap_text(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Split `text` into lines no wider than `width` pixels. A word wider than a line (a
    long folder path) is broken, after a path separator where one fits."""
    font = theme.font(size, bold)
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if current and font.size(candidate)[0] > width and font.size(word)[0] <= width:
            lines.append(current)
            current = word
        else:
            current = candidate  # a word wider than a line starts where the line is
        while len(current) > 1 and font.size(current)[0] > width:
            head = _longest_fitting_head(current, font, width)
            lines.append(current[:head])
            current = current[head:]
    if current:
        lines.append(current)
    return lines


def _longest_fitting_head(text: str, font: pygame.font.Font, width: int) -> int:
    """How many leading characters of `text` to keep on a line `width` pixels wide: the
    most that fit (at least one), cut after the last space or path separator among them
    when there is one."""
    fits = 1
    while fits < len(text) and font.size(text[: fits + 1])[0] <= width:
        fits += 1
    cut = max(text.rfind(mark, 1, fits) for mark in (" ", "/", "\\"))
    return cut + 1 if cut > 0 else fits


def fit_lines(text: str, size: int, width: int, max_lines: int, bold: bool = False) -> list[str]:
    """`text` wrapped to `width`, cut to `max_lines` lines with an ellipsis when it overflows."""
    lines = wrap_text(text, size, width, bold)
    if len(lines) <= max_lines:
        return lines
    if max_lines <= 0:
        return []
    font = theme.font(size, bold)
    last = lines[max_lines - 1]
    while last and font.size(last + "\u2026")[0] > width:
        last = last[:-1].rstrip()
    return [*lines[: max_lines - 1], last + "\u2026"]


@functools.lru_cache(maxsize=1024)
def fit_text(text: str, size: int, width: int, bold: bool = False) -> str:
    """`text` cut with "..." to fit `width` pixels (cached)."""
    font = theme.font(size, bold)
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "...")[0] > width:
        text = text[:-1]
    return text + "..."


def draw_tooltip(
    surface: pygame.Surface,
    text: str,
    near: tuple[int, int],
    *,
    size: int | None = None,
    within: pygame.Rect | None = None,
) -> pygame.Rect:
    """A wrapped tooltip below-right of `near` (above it near the bottom edge), kept
    inside the surface.

    `size` is the font size; by default 15 grown with the window (`scale.ui_factor`), as
    the screens' own text grows. With `within`, the tooltip is laid inside that rect
    instead (at its top, centred), so it never covers what lies outside it (a card's text
    and tags)."""
    if size is None:
        size = px(15, ui_factor(surface.get_size()))
    room = (within.width - 24) if within is not None else 320 * size // 15
    lines = wrap_text(text, size, max(80, room - 24))
    line_h = theme.font(size).get_linesize()
    width = max(theme.font(size).size(line)[0] for line in lines) + 24
    rect = pygame.Rect(near[0] + 16, near[1] + 20, width, line_h * len(lines) + 16)
    if within is not None:
        rect.midtop = (within.centerx, within.y + 12)
    elif rect.bottom > surface.get_height():
        rect.bottom = near[1] - 12  # no room below: above the pointer, off the control
    rect.clamp_ip(surface.get_rect())
    draw_panel(surface, rect, colour=(12, 16, 25), border=theme.ACCENT, radius=8, shadow=4)
    for i, line in enumerate(lines):
        draw_text(surface, line, (rect.x + 12, rect.y + 8 + i * line_h), size=size)
    return rect


class Hover:
    """Tracks whether the mouse is over a rect and for how long (for feedback and tooltips)."""

    def __init__(self) -> None:
        self.inside = False
        self.seconds = 0.0
        self.mouse = (0, 0)

    def track(self, event: pygame.event.Event, rect: pygame.Rect) -> bool | None:
        """Follow mouse motion; returns the new state when it changed, else None."""
        if event.type != pygame.MOUSEMOTION:
            return None
        self.mouse = event.pos
        inside = rect.collidepoint(event.pos)
        if inside == self.inside:
            return None
        self.inside = inside
        self.seconds = 0.0
        return inside

    def update(self, dt: float) -> None:
        if self.inside:
            self.seconds += dt

    @property
    def tooltip_due(self) -> bool:
        return self.inside and self.seconds >= TOOLTIP_DELAY


class TooltipArea:
    """A tooltip for any region (e.g. over a pygame_gui widget), in the suite's style."""

    def __init__(self, rect: pygame.Rect, text: str) -> None:
        self.rect = pygame.Rect(rect)
        self.text = text
        self.hover = Hover()

    def handle_event(self, event: pygame.event.Event) -> None:
        self.hover.track(event, self.rect)

    def update(self, dt: float) -> None:
        self.hover.update(dt)

    def draw_tooltip(self, surface: pygame.Surface) -> None:
        if self.hover.tooltip_due:
            draw_tooltip(surface, self.text, self.hover.mouse)


class Button:
    """A themed push button with hover feedback and an optional tooltip.

    `on_click` runs on a left-button release over the button after a press on it, so a
    drag that leaves the button cancels the click. A disabled button ignores clicks but
    still shows its tooltip (which can say why it is disabled).
    """

    def __init__(
        self,
        label: str,
        rect: pygame.Rect,
        on_click: Callable[[], None],
        *,
        tooltip: str = "",
        enabled: bool = True,
        primary: bool = False,
        font_size: int = 18,
    ) -> None:
        self.label = label
        self.rect = pygame.Rect(rect)
        self.on_click = on_click
        self.tooltip = tooltip
        self.enabled = enabled
        self.primary = primary
        self.font_size = font_size
        self.hover = Hover()
        self._pressed = False

    def handle_event(self, event: pygame.event.Event) -> bool:
        self.hover.track(event, self.rect)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._pressed = self.rect.collidepoint(event.pos)
            return self._pressed
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            was_pressed, self._pressed = self._pressed, False
            if was_pressed and self.rect.collidepoint(event.pos):
                if self.enabled:
                    self.on_click()
                return True
        return False

    def update(self, dt: float) -> None:
        self.hover.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        hot = self.enabled and self.hover.inside
        if not self.enabled:
            fill, border, text = theme.PANEL, theme.PANEL_BORDER, theme.DISABLED
        elif self.primary:
            fill = theme.HOVER if hot else theme.ACCENT
            border, text = theme.ACCENT_DARK, (24, 18, 8)
        else:
            fill = theme.PANEL_LIGHT if hot else theme.PANEL
            border = theme.ACCENT if hot else theme.PANEL_BORDER
            text = theme.HOVER if hot else theme.TEXT
        lifted = hot and not self._pressed  # rises under the mouse, sinks back while held
        rect = self.rect.move(0, -1) if lifted else self.rect
        draw_panel(surface, rect, colour=fill, border=border, radius=10, alpha=255, shadow=3)
        draw_text(
            surface,
            self.label,
            rect.center,
            size=self.font_size,
            colour=text,
            bold=True,
            anchor="center",
        )

    def draw_tooltip(self, surface: pygame.Surface) -> None:
        if self.tooltip and self.hover.tooltip_due:
            draw_tooltip(surface, self.tooltip, self.hover.mouse)


@dataclass
class Toast:
    """One short notice and the seconds it has left on screen."""

    text: str
    seconds: float


class Toasts:
    """Short notices stacked at the bottom centre of the window, each fading out in turn."""

    FADE = 0.35

    def __init__(self) -> None:
        self.items: list[Toast] = []

    def add(self, text: str, seconds: float = 2.8) -> None:
        self.items.append(Toast(text, seconds))
        del self.items[:-4]

    @property
    def texts(self) -> list[str]:
        """The notices currently shown, oldest first."""
        return [toast.text for toast in self.items]

    def update(self, dt: float) -> None:
        for toast in self.items:
            toast.seconds -= dt
        self.items = [toast for toast in self.items if toast.seconds > 0]

    def draw(self, surface: pygame.Surface) -> None:
        bottom = surface.get_height() - max(28, surface.get_height() // 7)
        for toast in reversed(self.items):
            image = text_image(toast.text, 18, theme.TEXT, True)
            rect = image.get_rect().inflate(40, 22)
            rect.midbottom = (surface.get_width() // 2, bottom)
            layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            draw_panel(layer, rect, colour=(14, 19, 30), border=theme.ACCENT, radius=12, alpha=245)
            layer.blit(image, image.get_rect(center=rect.center))
            layer.set_alpha(int(255 * min(1.0, toast.seconds / self.FADE)))
            surface.blit(layer, (0, 0))
            bottom = rect.top - 10


def draw_emblem(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The suite's emblem: a brass shield with three pips, one per game, filling `rect`."""
    x, y, w, h = rect
    outline = [
        (x + w * 0.08, y + h * 0.06),
        (x + w * 0.92, y + h * 0.06),
        (x + w * 0.92, y + h * 0.5),
        (x + w * 0.5, y + h * 0.96),
        (x + w * 0.08, y + h * 0.5),
    ]
    pygame.draw.polygon(surface, theme.ACCENT, outline)
    pygame.draw.polygon(surface, theme.ACCENT_DARK, outline, max(1, w // 16))
    pip = max(2, w // 10)
    for i, colour in enumerate(c.rgb for c in theme.PLAYER_COLOURS[:3]):
        centre = (round(x + w * (0.29 + 0.21 * i)), round(y + h * 0.38))
        pygame.draw.circle(surface, theme.BACKGROUND_BOTTOM, centre, pip + max(1, w // 32))
        pygame.draw.circle(surface, colour, centre, pip)


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

    @property
    def shown(self) -> str:
        """The chosen value's text (without the caption)."""
        return self.choices[self.index][1]

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
