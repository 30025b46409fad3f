"""Charts of a match over its turns (territories, armies and cards per player), drawn on the
game-over screen and, at any time during play, in the `StatsScene` opened from the HUD.
They read only the match's per-turn statistics (`Match.history`), which come from views."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.theme import Colour
from suite.ui.widgets import Button, draw_panel, draw_text
from suite.worldwar.screens.match import Match

CHARTS = (("Territories", "territories"), ("Armies", "armies"), ("Cards", "cards"))
"""(title, TurnStats field) of each chart, left to right."""


def grid_steps(highest: float, lines: int = 5) -> tuple[float, float]:
    """The chart's top and gridline step for values up to `highest`: a round step (1, 2 or
    5 times a power of ten, at least 1) and a top that is a whole number of steps, so every
    gridline sits on a round value and its label is exactly that value."""
    want = max(1.0, highest) / lines
    power = 10.0 ** math.floor(math.log10(want))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= want)
    step = max(1.0, step)
    return step * max(1, math.ceil(highest / step)), step


def gridlines(plot: pygame.Rect, top: float, step: float) -> list[tuple[float, int]]:
    """(value, screen y) of every gridline from 0 to `top`, on the same scale as the
    chart's lines (y = bottom - height * value / top)."""
    count = round(top / step)
    return [(k * step, round(plot.bottom - plot.height * k * step / top)) for k in range(count + 1)]


def line_chart(
    surface: pygame.Surface,
    rect: pygame.Rect,
    title: str,
    series: Sequence[Sequence[float]],
    colours: Sequence[Colour],
) -> None:
    """One line per series over the same x steps, on a panel with a light grid."""
    draw_panel(surface, rect, radius=12)
    draw_text(surface, title, (rect.x + 16, rect.y + 10), size=16, bold=True)
    plot = pygame.Rect(rect.x + 46, rect.y + 40, rect.width - 62, rect.height - 70)
    highest = max((max(s) for s in series if s), default=0.0)
    top, step = grid_steps(highest)
    steps = max((len(s) for s in series), default=1)
    for value, y in gridlines(plot, top, step):
        pygame.draw.line(surface, theme.PANEL_BORDER, (plot.x, y), (plot.right, y))
        draw_text(
            surface,
            f"{value:g}",
            (plot.x - 8, y),
            size=12,
            colour=theme.TEXT_MUTED,
            anchor="midright",
        )
    draw_text(
        surface,
        "turns",
        (plot.right, plot.bottom + 6),
        size=12,
        colour=theme.TEXT_MUTED,
        anchor="topright",
    )
    for values, colour in zip(series, colours, strict=False):
        if not values:
            continue
        pts = [
            (plot.x + plot.width * i / max(1, steps - 1), plot.bottom - plot.height * v / top)
            for i, v in enumerate(values)
        ]
        if len(pts) == 1:
            pts.append((plot.right, pts[0][1]))
        pygame.draw.lines(surface, colour, False, pts, 3)
        pygame.draw.aalines(surface, colour, False, pts)


def series(match: Match, field: str) -> list[list[float]]:
    """One list per seat: `field` of `TurnStats` at the start of every recorded turn (turns
    recorded before a field existed, as in old saves, count as 0)."""
    out: list[list[float]] = []
    for seat in range(len(match.seats)):
        row: list[float] = []
        for stats in match.history:
            values: list[int] = getattr(stats, field)
            row.append(float(values[seat]) if seat < len(values) else 0.0)
        out.append(row)
    return out


def draw_charts(surface: pygame.Surface, rect: pygame.Rect, match: Match) -> list[pygame.Rect]:
    """The three charts side by side in `rect` (stacked when `rect` is narrow); their rects."""
    colours = [theme.player_colour(s.colour).rgb for s in match.seats]
    gap = 16
    n = len(CHARTS)
    if rect.width >= 3 * 200:
        w = (rect.width - gap * (n - 1)) // n
        rects = [pygame.Rect(rect.x + i * (w + gap), rect.y, w, rect.height) for i in range(n)]
    else:
        h = (rect.height - gap * (n - 1)) // n
        rects = [pygame.Rect(rect.x, rect.y + i * (h + gap), rect.width, h) for i in range(n)]
    for (title, field), box in zip(CHARTS, rects, strict=True):
        line_chart(surface, box, title, series(match, field), colours)
    return rects


class StatsScene(Scene):
    """The charts over the map, at any time of the match (S or the HUD's Stats button);
    any key, a click or Close returns to the map."""

    transparent = True

    def __init__(self, app: App, match: Match) -> None:
        super().__init__(app)
        self.match = match
        self.close_button = Button(
            "Close", pygame.Rect(0, 0, 120, 40), self.close, tooltip="Back to the map (Esc)"
        )
        self.on_resize(app.size)

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        self.panel = pygame.Rect(0, 0, min(w - 40, 1400), min(h - 40, 760))
        self.panel.center = (w // 2, h // 2)
        self.close_button.rect.bottomright = (self.panel.right - 16, self.panel.bottom - 14)

    def close(self) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.close_button.handle_event(event):
            return
        outside = event.type == pygame.MOUSEBUTTONUP and not self.panel.collidepoint(event.pos)
        if event.type == pygame.KEYDOWN or outside:
            self.close()

    def update(self, dt: float) -> None:
        self.close_button.update(dt)

    def animating(self) -> bool:
        return False  # the charts change only with the match, which waits under this scene

    def draw(self, surface: pygame.Surface) -> None:
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((4, 6, 12, 170))
        surface.blit(veil, (0, 0))
        p = self.panel
        draw_panel(surface, p, border=theme.ACCENT, alpha=250, radius=12)
        turn = self.match.history[-1].turn if self.match.history else 0
        draw_text(surface, "Statistics", (p.x + 20, p.y + 14), size=22, bold=True)
        draw_text(
            surface,
            f"per player, at the start of each turn (now turn {turn})",
            (p.x + 20, p.y + 46),
            size=14,
            colour=theme.TEXT_MUTED,
        )
        inner = pygame.Rect(p.x + 16, p.y + 76, p.width - 32, p.height - 76 - 66)
        draw_charts(surface, inner, self.match)
        x = p.x + 20
        for seat in self.match.seats:
            colour = theme.player_colour(seat.colour).rgb
            pygame.draw.circle(surface, colour, (x + 6, p.bottom - 34), 6)
            shown = draw_text(
                surface, seat.name, (x + 18, p.bottom - 34), size=14, anchor="midleft"
            )
            x = shown.right + 18
            if x > self.close_button.rect.left - 80:
                break
        self.close_button.draw(surface)
        self.close_button.draw_tooltip(surface)
