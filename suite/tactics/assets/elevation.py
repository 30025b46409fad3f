"""Map elevation: from an elevation bitmap or generated from a seed and a roughness.

RULINGS T16 (amended): a map's `roughness` (0-255) is the height span of its generated
bumps: heights run from 0 to roughness. A map is flat without a seed, with `seed = 0` (real
packs label such maps "flat") or with roughness 0; a nonzero seed without a roughness uses
`DEFAULT_ROUGHNESS` (32). An elevation bitmap is taken as drawn (the red component).

Generated heights (`generate`) add three integer fields drawn from `suite.core.rng.Rng`
(no floats, so the same seed and roughness give the same heights on every machine):
- plateaus: value noise on a lattice `_PLATEAU_CELL` tiles wide, split at its median into
  low and high ground; the plateau edges are the cliffs, `_PLATEAU_WEIGHT` of the span high;
- hills: value noise on a lattice `_HILL_CELL` tiles wide (the bumps' slopes);
- grain: one draw per tile (small steps).
Because the plateau edge is more than half the span, steps of 32 or more appear once the
span reaches 32 and their share grows with roughness (T16: 3-12 % of neighbouring steps on
roughness 64, 20-45 % on 255; none under 32, where no step can reach 32).

`connect_starts` then lowers cliffs until walkers from every start reach every other start
(T16); the pack loader applies it with the map's own tiles and starts.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from suite.core.rng import Rng
from suite.tactics.assets.bmp import Bitmap

MAX_ELEVATION = 255
DEFAULT_ROUGHNESS = 32
_UNIT = 1 << 16  # each generated field is scaled to 0.._UNIT before weighting
_PLATEAU_CELL = 6
_HILL_CELL = 2
_PLATEAU_WEIGHT = 56  # percent of the span (the cliff an edge makes before the other fields)
_HILL_WEIGHT = 22
_GRAIN_WEIGHT = 22

Cell = tuple[int, int]
Heights = npt.NDArray[np.uint8]


def flat(size: int) -> Heights:
    """All zeros: a flat map."""
    return np.zeros((size, size), dtype=np.uint8)


def from_bitmap(bitmap: Bitmap) -> Heights:
    """Heights as the red component of each pixel's palette colour."""
    return bitmap.red().astype(np.uint8)


def height_span(seed: int | None, roughness: int | None) -> int:
    """T16: the highest generated elevation (0 for a flat map)."""
    if not seed:
        return 0
    span = DEFAULT_ROUGHNESS if roughness is None else roughness
    return max(0, min(MAX_ELEVATION, span))


def describe(seed: int | None, roughness: int | None) -> str:
    """ "flat" or "seed N roughness R" (the span actually used)."""
    span = height_span(seed, roughness)
    return f"seed {seed} roughness {span}" if span else "flat"


def generate(size: int, seed: int | None, roughness: int | None) -> Heights:
    """A `size` x `size` height field from 0 to the T16 span (flat when that is 0); the
    starts are not yet connected (see `connect_starts`)."""
    span = height_span(seed, roughness)
    if seed is None or span == 0 or size <= 0:
        return flat(max(size, 0))
    rng = Rng(seed & 0xFFFFFFFFFFFFFFFF)
    plateau = _value_noise(size, _PLATEAU_CELL, rng)
    median = np.sort(plateau, axis=None)[plateau.size // 2]
    high_ground = (plateau > median).astype(np.int64) * _UNIT
    hills = _value_noise(size, _HILL_CELL, rng)
    grain = _unit(np.array(rng.randbelows(_UNIT, size * size), dtype=np.int64).reshape(size, size))
    field = _PLATEAU_WEIGHT * high_ground + _HILL_WEIGHT * hills + _GRAIN_WEIGHT * grain
    return _scaled(field, span)


def _value_noise(size: int, cell: int, rng: Rng) -> npt.NDArray[np.int64]:
    """Random lattice values `cell` tiles apart, bilinearly interpolated, scaled 0.._UNIT."""
    n = size // cell + 2
    lattice = np.array(rng.randbelows(_UNIT, n * n), dtype=np.int64).reshape(n, n)
    index = np.arange(size, dtype=np.int64)
    i0 = index // cell
    fx = (index % cell)[None, :]
    fy = (index % cell)[:, None]
    top = lattice[i0][:, i0] * (cell - fx) + lattice[i0][:, i0 + 1] * fx
    bottom = lattice[i0 + 1][:, i0] * (cell - fx) + lattice[i0 + 1][:, i0 + 1] * fx
    field = np.asarray(top * (cell - fy) + bottom * fy, dtype=np.int64)
    return _unit(field)


def _unit(field: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    low, high = int(field.min()), int(field.max())
    if high == low:
        return np.zeros_like(field)
    result: npt.NDArray[np.int64] = (field - low) * _UNIT // (high - low)
    return result


def _scaled(field: npt.NDArray[np.int64], span: int) -> Heights:
    low, high = int(field.min()), int(field.max())
    if high == low:
        return flat(field.shape[0])
    return ((field - low) * span // (high - low)).astype(np.uint8)


def steps(heights: Heights) -> npt.NDArray[np.int64]:
    """Every height difference between side-by-side cells (rows, then columns)."""
    h = heights.astype(np.int64)
    return np.concatenate([np.abs(np.diff(h, axis=0)).ravel(), np.abs(np.diff(h, axis=1)).ravel()])


def cliff_share(heights: Heights, step: int) -> float:
    """The share of neighbouring steps of `step` or more (0.0 on a map under 2 cells)."""
    every = steps(heights)
    return float((every >= step).mean()) if every.size else 0.0


def reached_starts(
    heights: Heights, walkable: npt.NDArray[np.bool_], starts: Sequence[Cell | None], step: int
) -> list[bool]:
    """For each start (x, y): can a walker from the first usable start reach it? A walker
    enters walkable cells whose height differs from its own by less than `step`."""
    usable = [s for s in starts if s is not None and bool(walkable[s[1], s[0]])]
    if not usable:
        return [False for _ in starts]
    grid = _Padded(heights, walkable)
    costs = grid.fewest_cliffs(usable[0], step, stop_at_cliffs=True)[0]
    return [s is not None and costs[grid.index(s)] == 0 for s in starts]


class _Padded:
    """Heights and walkable cells as flat lists with a one-cell unwalkable frame, so the
    searches need no bounds checks (cell (x, y) is `(y + 1) * (size + 2) + x + 1`)."""

    def __init__(self, heights: Heights, walkable: npt.NDArray[np.bool_]) -> None:
        self.side: int = int(heights.shape[0]) + 2
        self.heights: list[int] = np.pad(heights.astype(np.int64), 1).ravel().tolist()
        self.walkable: list[bool] = np.pad(walkable, 1).ravel().tolist()

    def index(self, cell: Cell) -> int:
        return (cell[1] + 1) * self.side + cell[0] + 1

    def cell(self, index: int) -> tuple[int, int]:
        """(y, x) of a flat index (numpy's order)."""
        return index // self.side - 1, index % self.side - 1

    def fewest_cliffs(
        self, origin: Cell, step: int, stop_at_cliffs: bool = False
    ) -> tuple[list[int], list[int]]:
        """0-1 search from `origin` (x, y) over walkable cells: (cliffs crossed on the best
        path to each cell, -1 when unreached; each cell's parent on it, -1 for none). With
        `stop_at_cliffs`, only the cells reached without crossing one are searched."""
        h, ok, side = self.heights, self.walkable, self.side
        cost = [-1] * len(h)
        parent = [-1] * len(h)
        first = self.index(origin)
        cost[first] = 0
        queue: deque[int] = deque([first])
        done = [False] * len(h)
        offsets = (-side, side, -1, 1)
        while queue:
            here = queue.popleft()
            if done[here]:
                continue
            done[here] = True
            height, base = h[here], cost[here]
            for offset in offsets:
                there = here + offset
                if done[there] or not ok[there]:
                    continue
                cliff = abs(h[there] - height) >= step
                if cliff and stop_at_cliffs:
                    continue
                total = base + cliff
                if cost[there] < 0 or total < cost[there]:
                    cost[there] = total
                    parent[there] = here
                    if cliff:
                        queue.append(there)
                    else:
                        queue.appendleft(there)
        return cost, parent


def connect_starts(
    heights: Heights, walkable: npt.NDArray[np.bool_], starts: Sequence[Cell | None], step: int
) -> Heights:
    """T16: `heights` with cliffs lowered until walkers from every start reach every other
    start (starts the tiles alone keep apart stay apart). Unchanged when they already do.

    From the first usable start, the path to each other start crossing the fewest cliffs
    is found; then every cell on those paths is lowered to at most its path neighbour's
    height + step - 1 (the highest such heights, so only what blocks is lowered)."""
    usable = [s for s in starts if s is not None and bool(walkable[s[1], s[0]])]
    if len(usable) < 2 or all(reached_starts(heights, walkable, usable, step)):
        return heights
    grid = _Padded(heights, walkable)
    cost, parents = grid.fewest_cliffs(usable[0], step)
    tree: dict[int, set[int]] = {}
    for start in usable[1:]:
        cell = grid.index(start)
        if cost[cell] < 0:
            continue  # the tiles keep it apart: no height change helps
        while parents[cell] >= 0:
            parent = parents[cell]
            tree.setdefault(cell, set()).add(parent)
            tree.setdefault(parent, set()).add(cell)
            cell = parent
    lowered = {cell: grid.heights[cell] for cell in tree}
    queue = [(height, cell) for cell, height in lowered.items()]
    heapq.heapify(queue)
    while queue:
        height, cell = heapq.heappop(queue)
        if height != lowered[cell]:
            continue
        for other in sorted(tree[cell]):
            if lowered[other] > height + step - 1:
                lowered[other] = height + step - 1
                heapq.heappush(queue, (lowered[other], other))
    result = heights.copy()
    for cell, height in lowered.items():
        result[grid.cell(cell)] = height
    return result
