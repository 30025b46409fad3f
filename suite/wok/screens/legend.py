"""The players list's place: its own column at the map's left or its own strip at the
top, whichever leaves the map bigger, so it never covers the map (issue 23 item 7).

A row is a list of pieces (colour dot or None, text, ink, bold). In a column the rows
stand one under the other (the full rows when they fit the height, else one line per
player); in a strip the one-line rows flow into as many columns as the width holds.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from suite.ui import theme
from suite.ui.theme import Colour
from suite.ui.widgets import draw_panel
from suite.wok.screens.kit import label, px
from suite.wok.screens.mapdraw import MARGIN, colour_of

LegendRow = list[tuple[int | None, str, Colour, bool]]
KEEP_FOR_MAP = 120
"""Unzoomed pixels of height the map keeps below a column of full rows."""


@dataclass(frozen=True)
class Legend:
    """Where the players list goes: `rect`, its `rows`, and `columns` of `cell` pixels
    when it is a strip at the top (0: a column at the left)."""

    rect: pygame.Rect
    rows: list[LegendRow]
    columns: int
    cell: int


def _size(ink: Colour) -> int:
    return px(12 if ink == theme.TEXT_MUTED else 13)


def row_width(row: LegendRow) -> int:
    """Pixels one row needs (dots, texts and the gaps between them)."""
    total = 0
    for dot, text, ink, bold in row:
        total += (px(16) if dot is not None else 0) + theme.font(_size(ink), bold).size(text)[0]
        total += px(8)
    return total


def _scale(world: tuple[float, float, float, float], width: int, height: int) -> float:
    """How big the whole map is drawn in a `width` x `height` area (as WokMapView fits)."""
    x0, y0, x1, y1 = world
    return min((width - 2 * MARGIN) / max(1.0, x1 - x0), (height - 2 * MARGIN) / max(1.0, y1 - y0))


def layout_legend(
    area: pygame.Rect,
    world: tuple[float, float, float, float],
    full: list[LegendRow],
    compact: list[LegendRow],
    floor: tuple[int, int] = (0, 0),
) -> Legend:
    """The column or the strip in the map's `area`, whichever leaves the map (of extent
    `world`) drawn bigger; the column when they tie. Rows are measured with room for a
    " (ready)" mark, and never narrower than `floor` (the column's and the strip cell's
    widths so far), so the map does not shift each time a player gets ready."""
    lh = px(17)
    slack = theme.font(px(13)).size(" (ready)")[0] + 16
    rows = full if 10 + lh * len(full) <= area.height - px(KEEP_FOR_MAP) else compact
    natural = max(max(map(row_width, rows), default=0) + slack, floor[0])
    width = min(natural, px(300), area.width // 3)
    column = Legend(pygame.Rect(area.x + 6, area.y + 6, width, 10 + lh * len(rows)), rows, 0, width)
    inner = area.width - 12
    cell = min(max(max(map(row_width, compact), default=0) + slack, floor[1]), inner)
    columns = max(1, inner // max(1, cell))
    lines = -(-len(compact) // columns)
    strip = Legend(
        pygame.Rect(area.x + 6, area.y + 6, inner, 10 + lh * lines),
        compact,
        columns,
        inner // columns,
    )
    beside = _scale(world, area.width - width - 12, area.height)
    below = _scale(world, area.width, area.height - strip.rect.height - 12)
    return column if beside >= below else strip


def map_area(area: pygame.Rect, legend: Legend | None) -> pygame.Rect:
    """What is left of `area` for the map once the list has its place."""
    out = pygame.Rect(area)
    if legend is None:
        return out
    if legend.columns == 0:
        out.width -= legend.rect.right + 6 - area.x
        out.x = legend.rect.right + 6
    else:
        out.height -= legend.rect.bottom + 6 - area.y
        out.y = legend.rect.bottom + 6
    return out


def draw_legend(surface: pygame.Surface, legend: Legend) -> None:
    """Paint the list in its place (a piece that does not fit is cut with "...")."""
    lh = px(17)
    rect = legend.rect
    draw_panel(surface, rect, colour=(14, 19, 30), radius=8, shadow=2, alpha=215)
    per_column = -(-len(legend.rows) // legend.columns) if legend.columns else len(legend.rows)
    for i, row in enumerate(legend.rows):
        col, line = divmod(i, max(1, per_column))
        y = rect.y + 5 + line * lh
        if y + lh > rect.bottom:
            continue
        x = rect.x + 8 + col * legend.cell
        right = x + legend.cell - 8 if legend.columns else rect.right - 8
        for dot, text, ink, bold in row:
            if dot is not None:
                pygame.draw.circle(surface, colour_of(dot), (x + px(6), y + px(9)), px(5))
                x += px(16)
            room = right - x
            if room < px(20):
                break
            size = 12 if ink == theme.TEXT_MUTED else 13
            drawn = label(surface, text, (x, y), size=size, colour=ink, bold=bold, width=room)
            x = drawn.right + px(8)
