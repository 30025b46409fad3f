"""Core speed figures (printed with `make bench`; nothing here asserts on time)."""

from __future__ import annotations

import time
from collections.abc import Callable

from suite.core.board import Board, Node, Region
from suite.core.dice import risk_losses
from suite.core.rng import Rng


def rate(label: str, unit: str, work: Callable[[], int], seconds: float = 1.0) -> float:
    """Run `work` (which returns how many units it did) for about `seconds`; print units/s."""
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += work()
    per_second = done / elapsed
    print(f"{label}: {per_second:,.0f} {unit} per second")
    return per_second


def grid_board(width: int, height: int) -> Board:
    def nid(x: int, y: int) -> str:
        return f"{x}.{y}"

    nodes = []
    for y in range(height):
        for x in range(width):
            near = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            nodes.append(
                Node(
                    id=nid(x, y),
                    name=nid(x, y),
                    region="all",
                    neighbours=tuple(
                        nid(a, b) for a, b in near if 0 <= a < width and 0 <= b < height
                    ),
                )
            )
    return Board(nodes, [Region("all", "All")], name="grid")


def test_bench_rng_draws() -> None:
    rng = Rng(1)
    seen: set[int] = set()

    def draws() -> int:
        for _ in range(10_000):
            rng.randint(1, 6)
        seen.add(rng.randint(1, 6))
        return 10_001

    rate("Rng.randint(1, 6)", "draws", draws)
    assert seen <= {1, 2, 3, 4, 5, 6}


def test_bench_risk_losses() -> None:
    rng = Rng(2)
    rolls = [(rng.roll(3), rng.roll(2)) for _ in range(1000)]

    losses: set[int] = set()

    def battles() -> int:
        for att, dfn in rolls:
            losses.add(sum(risk_losses(att, dfn)))
        return len(rolls)

    rate("risk_losses 3 vs 2", "comparisons", battles)
    assert losses == {2}  # two pairs of dice, two armies lost in all


def test_bench_shortest_path_on_a_1000_node_grid() -> None:
    started = time.perf_counter()
    board = grid_board(40, 25)
    print(f"building and validating a 1000-node grid: {time.perf_counter() - started:.3f} s")
    rng = Rng(3)
    ids = board.ids()
    pairs = [(rng.choice(ids), rng.choice(ids)) for _ in range(50)]
    # Opposite corners: the longest path on the grid.
    assert board.distance("0.0", "39.24") == 39 + 24

    def paths() -> int:
        for start, goal in pairs:
            assert board.shortest_path(start, goal) is not None
        return len(pairs)

    rate("Board.shortest_path on 1000 nodes (random pairs)", "paths", paths)
