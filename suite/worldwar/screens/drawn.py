"""Draw a map that has a graph but no picture so that the picture tells the truth.

A Domination `.map` without its images gives each territory a point and a list of
neighbours, nothing more. `drawn_map(board)` lays it out on a pixel grid:

1. The points (the file's x, y) are scaled so that the typical distance between a
   territory and its nearest other one is `SPACING` pixels, then pushed apart until no two
   lie closer than `MIN_GAP` spacings (room for a badge and a name).
2. Every territory grows from its point, one pixel ring at a time, up to `REACH` spacings:
   a pixel goes to the nearest territory that reaches it, but only when no pixel within
   `SEPARATION` pixels (Chebyshev) belongs to a territory that is not its neighbour. So two
   territories that are not neighbours always keep a strip of sea between them, and
   neighbours meet wherever their growth does.
3. Neighbours whose cells could not meet (too far apart, or cut off by a third one) are
   joined by a line between their points.

Contract: in the grid, two 4-adjacent pixels of different territories are neighbours on
the board; every pair of neighbours either touches in the grid or is in `lines`; every
territory holds the pixel of its point and is one 4-connected piece. `drawn_adjacency`
computes what a picture shows (touching pixels plus lines), which the tests compare with
the board. Pure numpy: no pygame, no display.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from suite.core.board import Board

SPACING = 46.0
"""Pixels between a territory's point and its nearest other one (the median)."""
MIN_GAP = 0.9
"""No two points closer than this many spacings once pushed apart."""
REACH = 1.6
"""A territory grows at most this many spacings from its point."""
PULL = 1.25
"""Neighbours farther apart than this many spacings are drawn nearer while laid out."""
ROUNDS = 80
"""Rounds of the layout's push and pull."""
ASPECT = 1.35
"""Maps wider than this (width / height) are stretched upwards ..."""
STRETCH = 1.3
"""... by at most this factor."""
SEPARATION = 4
"""Pixels of sea (at least) between two territories that are not neighbours."""
BORDER = SPACING * 0.75
"""Pixels of sea around the laid-out map."""
MAX_PIXELS = 6_000_000
"""A grid larger than this is laid out at a smaller spacing (huge maps stay affordable)."""

IntGrid = npt.NDArray[np.int32]
_OFFSETS = [
    (dx, dy)
    for dx in range(-SEPARATION, SEPARATION + 1)
    for dy in range(-SEPARATION, SEPARATION + 1)
    if (dx, dy) != (0, 0)
]


@dataclass(frozen=True)
class DrawnMap:
    """`index[x, y]`: board index + 1 of the territory at pixel (x, y), 0 for sea;
    `points[t]`: territory t's point (where its badge goes); `lines`: the (a, b) pairs,
    a < b, of neighbours joined by a line instead of a shared border."""

    index: IntGrid
    points: list[tuple[float, float]]
    lines: list[tuple[int, int]]

    @property
    def size(self) -> tuple[int, int]:
        w, h = self.index.shape
        return (int(w), int(h))


_CACHE: dict[tuple[object, ...], DrawnMap] = {}
CACHED = 8
"""Layouts kept (the set-up preview and the game draw the same map: one layout)."""


def drawn_map(board: Board) -> DrawnMap:
    """The layout of `board` (computed once per graph and points: a map loaded again,
    for the set-up preview and then the game, is laid out once)."""
    key = tuple(
        (t, board[t].label, board[t].polygon[:1], tuple(sorted(board.neighbours(t))))
        for t in board.ids()
    )
    cached = _CACHE.get(key)
    if cached is None:
        if len(_CACHE) >= CACHED:
            _CACHE.clear()
        cached = _CACHE[key] = _layout(board)
    return cached


def touching_pairs(index: IntGrid) -> set[tuple[int, int]]:
    """(a, b) board index pairs, a < b, with 4-adjacent pixels in `index` (ids are
    index + 1, 0 is sea)."""
    out: set[tuple[int, int]] = set()
    for a, b in ((index[1:, :], index[:-1, :]), (index[:, 1:], index[:, :-1])):
        meet = (a != b) & (a > 0) & (b > 0)
        lo = np.minimum(a[meet], b[meet]).astype(np.int64)
        hi = np.maximum(a[meet], b[meet]).astype(np.int64)
        codes = np.unique(lo * (1 << 20) + hi)
        out.update((int(c >> 20) - 1, int(c & ((1 << 20) - 1)) - 1) for c in codes)
    return out


def drawn_adjacency(index: IntGrid, lines: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """What a picture shows as neighbours: territories whose pixels touch, plus lines."""
    return touching_pairs(index) | {(min(a, b), max(a, b)) for a, b in lines}


def graph_pairs(board: Board) -> set[tuple[int, int]]:
    """The board's (a, b) index pairs, a < b, of neighbours (land and sea)."""
    pos = {t: i for i, t in enumerate(board.ids())}
    return {(pos[t], pos[o]) for t in board.ids() for o in board.neighbours(t) if pos[t] < pos[o]}


def _points(board: Board) -> tuple[npt.NDArray[np.float64], float]:
    """The territories' points scaled to `SPACING` and pushed apart; and the spacing used."""
    raw = []
    for t in board.ids():
        node = board[t]
        if node.label is not None:
            raw.append(node.label)
        elif node.polygon:
            xs, ys = zip(*node.polygon, strict=True)
            raw.append((sum(xs) / len(xs), sum(ys) / len(ys)))
        else:
            raw.append((0.0, 0.0))
    pts = np.array(raw, dtype=np.float64).reshape(-1, 2)
    n = len(pts)
    if n > 1:
        d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
        np.fill_diagonal(d, np.inf)
        nearest = d.min(axis=1)
        typical = float(np.median(nearest[nearest > 0])) if (nearest > 0).any() else 1.0
    else:
        typical = 1.0
    spacing = SPACING
    span = pts.max(axis=0) - pts.min(axis=0) if n else np.zeros(2)
    area = (span[0] / typical * spacing + 2 * BORDER) * (span[1] / typical * spacing + 2 * BORDER)
    if area > MAX_PIXELS:
        spacing *= math.sqrt(MAX_PIXELS / area)
    pts = (pts - pts.min(axis=0)) * (spacing / typical)
    span = pts.max(axis=0) if n else np.ones(2)
    if span[1] > 0 and span[0] / span[1] > ASPECT:
        # Wide pictures leave a game screen's map area half empty: stand them up a little.
        pts[:, 1] *= min(STRETCH, span[0] / span[1] / ASPECT)
    _settle(pts, graph_pairs(board), spacing)
    pts -= pts.min(axis=0)
    pts += BORDER * spacing / SPACING
    return pts, spacing


def _settle(pts: npt.NDArray[np.float64], pairs: set[tuple[int, int]], spacing: float) -> None:
    """Move the points (in place) so that no two lie closer than `MIN_GAP` spacings and
    neighbours farther apart than `PULL` spacings draw nearer (so that more of them can
    share a border), except pairs across more than half the map (a link around the
    world, like Alaska and Kamchatka), which stay lines. Deterministic: coincident points
    are split along a fixed direction per pair."""
    n = len(pts)
    if n < 2:
        return
    gap = MIN_GAP * spacing
    width = float(pts[:, 0].max() - pts[:, 0].min())
    links = np.array(
        [(a, b) for a, b in pairs if abs(pts[a, 0] - pts[b, 0]) <= width / 2], dtype=np.int64
    ).reshape(-1, 2)
    for step in range(ROUNDS):
        dx = pts[:, None, 0] - pts[None, :, 0]
        dy = pts[:, None, 1] - pts[None, :, 1]
        d = np.hypot(dx, dy)
        np.fill_diagonal(d, np.inf)
        same = d < 1e-6
        if same.any():
            i, j = np.nonzero(np.triu(same))
            pts[j, 0] += 0.7 + 0.1 * (j % 7)
            pts[j, 1] += 0.3 + 0.1 * (i % 5)
            continue
        close = d < gap
        pull_done = step >= ROUNDS // 2
        if pull_done and not close.any():
            return
        push = np.where(close, (gap - np.where(close, d, gap)) / (2 * np.where(close, d, 1)), 0.0)
        move = np.stack([(push * dx).sum(axis=1), (push * dy).sum(axis=1)], axis=1) * 0.6
        if not pull_done and len(links):
            a, b = links[:, 0], links[:, 1]
            vec = pts[b] - pts[a]
            dist = np.hypot(vec[:, 0], vec[:, 1])
            excess = np.maximum(dist - PULL * spacing, 0.0) / np.maximum(dist, 1e-9) * 0.08
            np.add.at(move, a, vec * excess[:, None])
            np.add.at(move, b, -vec * excess[:, None])
        pts += move


def _layout(board: Board) -> DrawnMap:
    ids = board.ids()
    n = len(ids)
    pts, spacing = _points(board)
    border = BORDER * spacing / SPACING
    w = max(1, math.ceil(float(pts[:, 0].max()) + border)) if n else 1
    h = max(1, math.ceil(float(pts[:, 1].max()) + border)) if n else 1
    compat = np.zeros((n + 1, n + 1), dtype=bool)
    compat[0, :] = compat[:, 0] = True
    compat[np.arange(n + 1), np.arange(n + 1)] = True
    for a, b in graph_pairs(board):
        compat[a + 1, b + 1] = compat[b + 1, a + 1] = True
    pad = SEPARATION + 1
    grid = _Grid(w + 2 * pad, h + 2 * pad, compat)
    grid.sx = np.concatenate([[np.inf], pts[:, 0] + pad])
    grid.sy = np.concatenate([[np.inf], pts[:, 1] + pad])
    seeds = np.clip(np.round(pts).astype(np.int64), 0, [w - 1, h - 1]) + pad
    grid.seed(seeds[:, 0] * grid.h + seeds[:, 1], np.arange(1, n + 1, dtype=np.int32))
    # The padding stays sea: growth never enters it.
    frame = np.ones((grid.w, grid.h), dtype=bool)
    frame[pad:-pad, pad:-pad] = False
    grid.dead[frame.ravel()] = True
    reach = REACH * spacing
    radius = 1.0
    while radius <= reach:
        if not grid.grow(radius):
            radius += 1.0
    lab = grid.lab.reshape(grid.w, grid.h)[pad:-pad, pad:-pad].copy()
    touching = touching_pairs(lab)
    lines = sorted(graph_pairs(board) - touching)
    return DrawnMap(lab, [(float(x), float(y)) for x, y in pts], lines)


class _Grid:
    """The growing territories on a flat, padded pixel grid (index x * h + y)."""

    def __init__(self, w: int, h: int, compat: npt.NDArray[np.bool_]) -> None:
        self.w, self.h = w, h
        self.compat = compat
        self.lab = np.zeros(w * h, dtype=np.int32)
        self.dead = np.zeros(w * h, dtype=bool)
        self.pending = np.zeros(w * h, dtype=np.int32)
        self.prio = np.full(w * h, np.inf)
        self.sx = np.zeros(1)
        self.sy = np.zeros(1)
        self.steps = np.array([h, -h, 1, -1], dtype=np.int64)
        self.window = np.array([dx * h + dy for dx, dy in _OFFSETS], dtype=np.int64)
        # Claimed pixels within SEPARATION of a pixel are known compatible with its label;
        # a pixel claimed from its neighbour at `step` needs only the far strip checked
        # (the window's side away from that neighbour): one strip per step, in step order.
        sep = SEPARATION
        strips = []
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            strip = [
                ox * h + oy
                for ox in range(-sep, sep + 1)
                for oy in range(-sep, sep + 1)
                if (dx and ox == -dx * sep) or (dy and oy == -dy * sep)
            ]
            strips.append(strip)
        self.strips = np.array(strips, dtype=np.int64)
        self.frontier = np.zeros(0, dtype=np.int64)
        """Free pixels next to claimed ones (with repeats and stale entries: filtered as
        used), so a round costs its frontier, not the whole grid."""

    def seed(self, cells: npt.NDArray[np.int64], labels: npt.NDArray[np.int32]) -> None:
        self.lab[cells] = labels
        self.frontier = (cells[:, None] + self.steps[None, :]).ravel()

    def grow(self, radius: float) -> bool:
        """Claim the free pixels next to a territory whose point lies within `radius`; a
        claim within SEPARATION of a non-neighbour's pixel makes that pixel sea for good.
        Two claims of one round that clash go to the nearer point. True when any pixel
        was claimed."""
        lab, h = self.lab, self.h
        cells = np.unique(self.frontier)
        cells = cells[(lab[cells] == 0) & ~self.dead[cells]]
        self.frontier = cells
        if len(cells) == 0:
            return False
        cx, cy = cells // h, cells % h
        best = np.zeros(len(cells), dtype=np.int32)
        best_d = np.full(len(cells), np.inf)
        side = np.zeros(len(cells), dtype=np.int64)
        for k, step in enumerate(self.steps):
            other = lab[cells + step]
            d = np.hypot(cx - self.sx[other], cy - self.sy[other])
            better = (other > 0) & ((d < best_d) | ((d == best_d) & (other < best)))
            best = np.where(better, other, best)
            best_d = np.where(better, d, best_d)
            side = np.where(better, k, side)
        due = best_d <= radius
        waiting = cells[~due]
        cells, best, best_d, side = cells[due], best[due], best_d[due], side[due]
        if len(cells) == 0:
            return False
        self.pending[cells] = best
        self.prio[cells] = best_d
        compat = self.compat
        far = cells[:, None] + self.strips[side]
        bad = (~compat[best[:, None], lab[far]]).any(axis=1)
        near = cells[:, None] + self.window[None, :]
        rival = self.pending[near]
        rival_d = self.prio[near]
        mine_d, mine = best_d[:, None], best[:, None]
        first = (rival_d < mine_d) | ((rival_d == mine_d) & (rival < mine))
        lost = (~compat[mine, rival] & first).any(axis=1)
        self.pending[cells] = 0
        self.prio[cells] = np.inf
        self.dead[cells[bad]] = True
        take = ~bad & ~lost
        new = cells[take]
        lab[new] = best[take]
        around = (new[:, None] + self.steps[None, :]).ravel()
        self.frontier = np.concatenate([waiting, cells[lost & ~bad], around])
        return bool(take.any())
