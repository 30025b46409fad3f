"""Map benchmarks (run by `make bench` with -s): load, import and generation times.

Prints figures only; wall-clock time is never asserted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from suite.core.geometry import shared_edges, voronoi_cells
from suite.core.tiled import load_tmx
from suite.worldwar.rules.domination import load_domination
from suite.worldwar.rules.mapgen import generate_map
from suite.worldwar.rules.maps import classic_path

DATA = Path(__file__).resolve().parent.parent / "worldwar" / "data"


def _best_ms(fn: Callable[[], Any], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def test_bench_maps() -> None:
    rng = random.Random(1)
    pts = [(rng.uniform(0, 1600), rng.uniform(0, 900)) for _ in range(1000)]
    cells = voronoi_cells(pts, 1600, 900)
    rows = [
        ("load classic.tmx (42 territories)", _best_ms(lambda: load_tmx(classic_path()))),
        (
            "import archipelago.map (14)",
            _best_ms(lambda: load_domination(DATA / "archipelago.map")),
        ),
        ("generate random 42/6", _best_ms(lambda: generate_map(42, 6, 1))),
        ("generate random 200/12", _best_ms(lambda: generate_map(200, 12, 1), repeat=2)),
        ("voronoi_cells 1000 points", _best_ms(lambda: voronoi_cells(pts, 1600, 900), repeat=2)),
        ("shared_edges 1000 cells", _best_ms(lambda: shared_edges(cells), repeat=2)),
    ]
    print()
    for label, ms in rows:
        print(f"  maps: {label:<40} {ms:9.1f} ms")
    assert all(ms > 0 for _, ms in rows)
