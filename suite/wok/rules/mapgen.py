"""Seeded WoK province maps: relaxed Voronoi provinces, POP by size, borders as neighbours.

`generate_map(provinces, players, seed)` gives a connected `Board` whose nodes carry a
`POP` prop (50-130, growing with the province's area, not random), a polygon and a label
point, and whose land neighbours are the provinces sharing a border segment. The map
always has room for `players` homes that are not adjacent to each other (W4).
"""

from __future__ import annotations

from suite.core.board import Board, BoardError, Node, Region
from suite.core.geometry import (
    label_point,
    lloyd_relax,
    polygon_area,
    shared_edges,
    voronoi_cells,
)
from suite.core.rng import Rng

POP_MIN = 50
POP_MAX = 130
EDGE_TOL = 0.5
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
) -> Board:
    """A seeded province map (see the module docstring); BoardError when none fits."""
    if provinces < 2 * players or provinces < 4:
        raise BoardError(f"{provinces} provinces are too few for {players} players")
    rng = Rng(seed)
    for _attempt in range(20):
        board = _attempt_map(rng, provinces, name or f"Generated {provinces}", width, height)
        if board is not None and independent_homes(board, players):
            return board
    raise BoardError(f"no usable {provinces}-province map for {players} players from seed {seed}")


def _attempt_map(rng: Rng, n: int, name: str, width: int, height: int) -> Board | None:
    margin = 10.0
    points: list[tuple[float, float]] = []
    while len(points) < n:
        pt = (
            margin + rng.random() * (width - 2 * margin),
            margin + rng.random() * (height - 2 * margin),
        )
        if all((pt[0] - q[0]) ** 2 + (pt[1] - q[1]) ** 2 > 1.0 for q in points):
            points.append(pt)
    points = lloyd_relax(points, width, height, iterations=2)
    raw = voronoi_cells(points, width, height)
    cells = [[(round(x, 1), round(y, 1)) for x, y in c] for c in raw]
    if any(len(c) < 3 for c in cells):
        return None
    pairs = shared_edges(cells, EDGE_TOL)
    touching: dict[int, set[int]] = {i: set() for i in range(n)}
    for i, j in pairs:
        touching[i].add(j)
        touching[j].add(i)
    # Number provinces from the top left, reading order, as players expect.
    order = sorted(range(n), key=lambda i: (round(points[i][1] / (height / 6)), points[i][0]))
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
