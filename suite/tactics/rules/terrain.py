"""The map as the engine reads it: movement bits and elevation in flat lists (cell
`i = y * size + x`), with reachability (RULINGS T2) and shot lines (T3).

Built once per battle from a loaded `MapGrid` (numpy); the searches run on plain lists,
which is several times faster than indexing numpy scalars on grids this small.
`occupied` arguments are flat lists of the same length holding 0 for a free cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from suite.tactics.assets.model import MapGrid
from suite.tactics.rules.data import Rules

Cell = tuple[int, int]
FIELD_CACHE = 64
# memory bounds of the caches (issue 24, item 9): a terrain lives as long as its pack's
# cache entry, battle after battle, so its caches are cleared when they pass these
FIELD_CACHE_CELLS = 1 << 20  # distance fields kept: at most this many cells together
SHOT_CACHE = 8_192  # shot_cells results kept


@dataclass(frozen=True)
class Terrain:
    """Movement bits and elevation of every cell, and the map's start cells."""

    size: int
    movement: tuple[int, ...]
    elevation: tuple[int, ...]
    starts: tuple[Cell | None, ...]
    move_step: int
    shot_step: int
    air_bit: int
    # shot_cells results by (origin, bits, min_range, max_range); the terrain never changes
    _shots: dict[tuple[int, int, int, int], tuple[int, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # recent distance fields by (sources, bits): bots ask again while enemies stand still
    _fields: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    @classmethod
    def from_grid(cls, grid: MapGrid, rules: Rules) -> Terrain:
        return cls(
            grid.size,
            tuple(int(v) for v in grid.movement.ravel()),
            tuple(int(v) for v in grid.elevation.ravel()),
            grid.starts,
            rules.movement.move_elevation_step,
            rules.movement.shot_elevation_step,
            rules.movement.air_bit,
        )

    def index(self, x: int, y: int) -> int:
        return y * self.size + x

    def cell(self, index: int) -> Cell:
        return index % self.size, index // self.size

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def can_hold(self, index: int, bits: int) -> bool:
        """True when a piece with movement `bits` may stand on cell `index`."""
        return bool(self.movement[index] & bits)

    def reachable(
        self, start: int, bits: int, mobility: int, occupied: Sequence[int]
    ) -> dict[int, int]:
        """T2: every cell a piece on `start` may walk to in at most `mobility` steps, mapped
        to the cell it came from (walk the map back to `start` for the path). `start`
        itself is not included. Other pieces block both standing and passing."""
        size = self.size
        movement = self.movement
        elevation = self.elevation
        flies = bool(bits & self.air_bit)
        limit = self.move_step
        parents: dict[int, int] = {start: -1}
        frontier = [start]
        for _ in range(mobility):
            nxt: list[int] = []
            for here in frontier:
                height = elevation[here]
                x = here % size
                for there in (here - size, here + size, here - 1, here + 1):
                    if there < 0 or there >= len(movement) or there in parents:
                        continue
                    if (there == here - 1 and x == 0) or (there == here + 1 and x == size - 1):
                        continue
                    if not movement[there] & bits or occupied[there]:
                        continue
                    if not flies and abs(elevation[there] - height) >= limit:
                        continue
                    parents[there] = here
                    nxt.append(there)
            if not nxt:
                break
            frontier = nxt
        del parents[start]
        return parents

    def distances(self, sources: Sequence[int], bits: int) -> tuple[int, ...]:
        """Steps from the nearest of `sources` to every cell for a piece with movement
        `bits`, ignoring pieces (unreachable cells get size * size + 1). Used by bots to
        march around walls and water; the last few fields are kept."""
        key = (tuple(sorted(sources)), bits)
        cached = self._fields.get(key)
        if cached is not None:
            return cached
        if len(self._fields) >= min(FIELD_CACHE, max(1, FIELD_CACHE_CELLS // len(self.movement))):
            self._fields.clear()
        result = tuple(self._distances(sources, bits))
        self._fields[key] = result
        return result

    def _distances(self, sources: Sequence[int], bits: int) -> list[int]:
        size = self.size
        total = size * size
        movement = self.movement
        elevation = self.elevation
        flies = bool(bits & self.air_bit)
        limit = self.move_step
        far = total + 1
        dist = [far] * total
        frontier = []
        for cell in sources:
            if dist[cell] == far:
                dist[cell] = 0
                frontier.append(cell)
        steps = 0
        while frontier:
            steps += 1
            nxt: list[int] = []
            for here in frontier:
                height = elevation[here]
                x = here % size
                for there in (here - size, here + size, here - 1, here + 1):
                    if there < 0 or there >= total or dist[there] != far:
                        continue
                    if (there == here - 1 and x == 0) or (there == here + 1 and x == size - 1):
                        continue
                    if not movement[there] & bits:
                        continue
                    if not flies and abs(elevation[there] - height) >= limit:
                        continue
                    dist[there] = steps
                    nxt.append(there)
            frontier = nxt
        return dist

    def path(self, parents: dict[int, int], start: int, goal: int) -> list[Cell]:
        """The cells walked from `start` to `goal` (both included) by `reachable`'s map."""
        cells = [goal]
        while cells[-1] != start:
            cells.append(parents[cells[-1]])
        cells.reverse()
        return [self.cell(i) for i in cells]

    def shot_cells(self, origin: int, bits: int, min_range: int, max_range: int) -> tuple[int, ...]:
        """T3: cells a weapon with movement `bits` can shoot from `origin`: step distance d
        with min_range < d <= max_range (and d >= 1), joined to `origin` by a path of d
        north/south/east/west steps over cells the weapon's bits allow, each step differing
        in elevation by less than the shot step (the weapon's air bit waives this). Pieces
        do not block shots; the origin cell is not checked, the target cell is."""
        key = (origin, bits, min_range, max_range)
        cached = self._shots.get(key)
        if cached is not None:
            return cached
        size = self.size
        ox, oy = origin % size, origin // size
        movement = self.movement
        elevation = self.elevation
        flies = bool(bits & self.air_bit)
        limit = self.shot_step
        found: list[int] = []
        for sx in (1, -1):
            for sy in (1, -1):
                # ok[(i, j)]: the cell i steps along sx and j along sy is reached by a
                # monotone path; each quadrant is a small dynamic programme.
                ok: dict[tuple[int, int], bool] = {(0, 0): True}
                for d in range(1, max_range + 1):
                    for i in range(d + 1):
                        j = d - i
                        x, y = ox + sx * i, oy + sy * j
                        good = False
                        if 0 <= x < size and 0 <= y < size:
                            cell = y * size + x
                            if movement[cell] & bits:
                                height = elevation[cell]
                                for pi, pj in ((i - 1, j), (i, j - 1)):
                                    if pi < 0 or pj < 0 or not ok.get((pi, pj), False):
                                        continue
                                    prev = (oy + sy * pj) * size + ox + sx * pi
                                    if flies or abs(elevation[prev] - height) < limit:
                                        good = True
                                        break
                        ok[(i, j)] = good
                        if good and d > min_range:
                            found.append(y * size + x)
        result = tuple(sorted(set(found)))
        if len(self._shots) >= SHOT_CACHE:
            self._shots.clear()
        self._shots[key] = result
        return result
