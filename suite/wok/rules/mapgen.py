"""Seeded WoK province maps: relaxed Voronoi provinces, POP by size, borders as neighbours.

`generate_map(provinces, players, seed)` gives a connected `Board` whose nodes carry a
`POP` prop (50-130, growing with the province's area, not random), a polygon and a label
point, and whose land neighbours are the provinces sharing a border segment. The map
always has room for `players` homes that are not adjacent to each other (W4).
"""

from __future__ import annotations

import math

from suite.core.board import Board, BoardError, Node, Region
from suite.core.geometry import (
    label_point,
    polygon_area,
    polygon_centroid,
    shared_edges,
    voronoi_cells,
)
from suite.core.rng import Rng

POP_MIN = 50
POP_MAX = 130
EDGE_TOL = 0.5
_AREA_GRID = (60, 40)  # cells used to measure the island's area
_ONSETS = ("K", "M", "T", "Dr", "S", "V", "Al", "Br", "G", "N", "R", "Th", "Z", "H", "L", "P")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ao", "ei")
_CODAS = ("", "n", "r", "s", "th", "l", "m", "sk", "nd")
_ENDINGS = ("", "ia", "is", "or", "an", "ur", "eth", "os")


def _name(rng: Rng, used: set[str]) -> str:
    while True:
        parts = [rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)]
        if rng.randbelow(2):
            parts.append(rng.choice(_ONSETS).lower() + rng.choice(_VOWELS))
        name = "".join(parts) + rng.choice(_ENDINGS)
        if name not in used:
            used.add(name)
            return name


def independent_homes(board: Board, count: int) -> bool:
    """True when a greedy pick finds `count` mutually non-adjacent provinces."""
    chosen: set[str] = set()
    for nid in sorted(board.ids(), key=lambda i: (len(board.neighbours(i)), i)):
        if not any(board.adjacent(nid, c) for c in chosen):
            chosen.add(nid)
    return len(chosen) >= count


def pop_by_area(areas: list[float]) -> list[int]:
    """POP from POP_MIN (smallest province) to POP_MAX (largest), linear in area."""
    lo, hi = min(areas), max(areas)
    span = hi - lo
    return [
        POP_MIN + (round((a - lo) * (POP_MAX - POP_MIN) / span) if span > 0 else 0) for a in areas
    ]


def generate_map(
    provinces: int,
    players: int,
    seed: int,
    name: str | None = None,
    width: int = 1200,
    height: int = 800,
    lobes: int = 0,
) -> Board:
    """A seeded province map (see the module docstring); BoardError when none fits.

    The land is a noisy blob (with `lobes` arms when > 0, e.g. 5 for a star) in a sea of
    unused Voronoi sites, so the coast is irregular and the provinces vary in size.
    """
    if provinces < 2 * players or provinces < 4:
        raise BoardError(f"{provinces} provinces are too few for {players} players")
    rng = Rng(seed)
    for _attempt in range(20):
        shape = _Shape(rng, width, height, lobes)
        board = _attempt_map(rng, shape, provinces, name or f"Generated {provinces}")
        if board is not None and independent_homes(board, players):
            return board
    raise BoardError(f"no usable {provinces}-province map for {players} players from seed {seed}")


class _Shape:
    """A star-shaped island: inside when the scaled radius is below a wavy bound."""

    def __init__(self, rng: Rng, width: int, height: int, lobes: int) -> None:
        self.width, self.height = width, height
        self.cx, self.cy = width / 2, height / 2
        self.rx, self.ry = 0.46 * width, 0.46 * height
        self.waves = [
            (k, 0.03 + 0.07 * rng.random(), rng.random() * 2 * math.pi) for k in range(2, 7)
        ]
        if lobes:
            self.waves.append((lobes, 0.22, rng.random() * 2 * math.pi))

    def bound(self, theta: float) -> float:
        top = 1 + sum(a for _, a, _ in self.waves)
        return (1 + sum(a * math.cos(k * theta + ph) for k, a, ph in self.waves)) / top

    def radius(self, x: float, y: float) -> tuple[float, float]:
        dx, dy = (x - self.cx) / self.rx, (y - self.cy) / self.ry
        return math.hypot(dx, dy), math.atan2(dy, dx)

    def inside(self, x: float, y: float, scale: float = 1.0) -> bool:
        r, theta = self.radius(x, y)
        return r < self.bound(theta) * scale


def _attempt_map(rng: Rng, shape: _Shape, n: int, name: str) -> Board | None:
    width, height = shape.width, shape.height
    cw, ch = width / _AREA_GRID[0], height / _AREA_GRID[1]
    inside = sum(
        1
        for i in range(_AREA_GRID[0])
        for j in range(_AREA_GRID[1])
        if shape.inside((i + 0.5) * cw, (j + 0.5) * ch)
    )
    land_area = inside * cw * ch
    spacing = math.sqrt(land_area / n)
    land: list[tuple[float, float]] = []
    gap = 0.7 * spacing
    tries = 0
    while len(land) < n:
        tries += 1
        if tries % 2000 == 0:
            gap *= 0.9
        pt = (rng.random() * width, rng.random() * height)
        if shape.inside(*pt, 0.92) and all(
            (pt[0] - q[0]) ** 2 + (pt[1] - q[1]) ** 2 > gap * gap for q in land
        ):
            land.append(pt)
    sea: list[tuple[float, float]] = []
    step = 0.75 * spacing
    rows, cols = int(height / step) + 2, int(width / step) + 2
    for i in range(cols):
        for j in range(rows):
            x = (i + 0.2 + 0.6 * rng.random()) * step
            y = (j + 0.2 + 0.6 * rng.random()) * step
            if x <= width and y <= height and not shape.inside(x, y, 1.04):
                sea.append((x, y))
    for _ in range(2):
        cells = voronoi_cells(land + sea, width, height)
        moved = [
            polygon_centroid(c) if len(c) >= 3 else p for c, p in zip(cells[:n], land, strict=True)
        ]
        # Coastal sites stay on land so the coast provinces keep their size.
        land = [m if shape.inside(*m, 0.95) else p for m, p in zip(moved, land, strict=True)]
    raw = voronoi_cells(land + sea, width, height)[:n]
    cells = [[(round(x, 1), round(y, 1)) for x, y in c] for c in raw]
    if any(len(c) < 3 for c in cells):
        return None
    pairs = shared_edges(cells, EDGE_TOL)
    touching: dict[int, set[int]] = {i: set() for i in range(n)}
    for i, j in pairs:
        touching[i].add(j)
        touching[j].add(i)
    # Number provinces from the top left, reading order, as players expect.
    order = sorted(range(n), key=lambda i: (round(land[i][1] / (height / 6)), land[i][0]))
    index = {old: new for new, old in enumerate(order)}
    pops = pop_by_area([polygon_area(c) for c in cells])
    used: set[str] = set()
    nodes = []
    for old in order:
        nid = f"p{index[old]}"
        nodes.append(
            Node(
                id=nid,
                name=_name(rng, used),
                region="kaomaris",
                neighbours=tuple(
                    f"p{index[j]}" for j in sorted(touching[old], key=lambda j: index[j])
                ),
                polygon=tuple(cells[old]),
                label=tuple(round(v, 1) for v in label_point(cells[old])),  # type: ignore[arg-type]
                props={"POP": pops[old]},
            )
        )
    try:
        return Board(nodes, [Region("kaomaris", "Kaomaris", 0, "#6b8e4e")], name=name)
    except BoardError:
        return None
