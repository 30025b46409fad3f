"""Tactics asset speed figures (printed with `make bench`; nothing here asserts on time)."""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from suite.paths import asset
from suite.tactics.assets.bmp import encode_bmp, read_bmp
from suite.tactics.assets.check import check_pack
from suite.tactics.assets.elevation import cliff_share, connect_starts, generate, reached_starts
from suite.tactics.assets.ini import read_ini
from suite.tactics.assets.pack import load_pack
from suite.tactics.rules.data import load_rules


def timed(label: str, work: Callable[[], object], repeat: int = 5) -> float:
    """Best wall time of `repeat` runs, printed in milliseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    print(f"{label}: {best * 1000:.2f} ms")
    return best


def test_bench_tactics_assets() -> None:
    root = asset("tactics")
    ini = (root / "tactics_ini.txt").read_bytes()
    timed("read tactics_ini.txt (default pack)", lambda: read_ini(ini, "tactics_ini.txt"))
    timed("load the default pack (ini, every bitmap, wav and map)", lambda: load_pack(root))
    rng = np.random.default_rng(0)
    big = rng.integers(0, 3, (256, 256)).astype(np.uint8)
    big[::7] = 5
    plain = encode_bmp(big, np.zeros((256, 3), dtype=np.uint8))
    rle = encode_bmp(big, np.zeros((256, 3), dtype=np.uint8), rle8=True)
    timed("decode 256x256 8-bit BMP", lambda: read_bmp(plain))
    timed(f"decode 256x256 RLE8 BMP ({len(rle)} bytes)", lambda: read_bmp(rle))
    for size in (16, 32, 48, 64):
        timed(f"generate {size}x{size} elevation (roughness 6)", lambda s=size: generate(s, 9, 6))
    for grid in load_pack(root).grids.values():
        assert grid.size >= 16


def test_bench_tactics_elevation_cliffs() -> None:
    """T16 per roughness: the share of neighbouring steps of 32 or more (before and after
    the generator joins the starts) and whether walkers from every start reach every other
    start, on 20 generated 40x40 maps with a river of water across the middle."""
    step = load_rules().movement.move_elevation_step
    size = 40
    walkable = np.ones((size, size), dtype=bool)
    walkable[size // 2, :] = False
    walkable[size // 2, size // 3 :: size // 3] = True  # fords
    starts: list[tuple[int, int] | None] = [(2, 2), (37, 2), (37, 37), (2, 37)]
    print(f"\nroughness  cliffs>={step} raw  after join  lowered cells  starts joined")
    for roughness in (0, 16, 32, 48, 64, 96, 128, 192, 255):
        raw_shares, shares, lowered, joined = [], [], 0, 0
        for seed in range(1, 21):
            raw = generate(size, seed, roughness)
            heights = connect_starts(raw, walkable, starts, step)
            raw_shares.append(cliff_share(raw, step))
            shares.append(cliff_share(heights, step))
            lowered += int((heights != raw).sum())
            joined += all(reached_starts(heights, walkable, starts, step))
            assert all(reached_starts(heights, walkable, starts, step))
        print(
            f"{roughness:9d}  {min(raw_shares):6.1%}-{max(raw_shares):6.1%}"
            f"  {float(np.mean(shares)):9.1%}  {lowered / 20:13.1f}  {joined}/20"
        )
    timed("generate and join a 256x256 map (roughness 255)", lambda: _join(256, step))


def _join(size: int, step: int) -> object:
    walkable = np.ones((size, size), dtype=bool)
    starts: list[tuple[int, int] | None] = [(1, 1), (size - 2, 1), (size - 2, size - 2), None]
    return connect_starts(generate(size, 5, 255), walkable, starts, step)


def test_bench_tactics_worst_pack(tmp_path: Path) -> None:
    """Issue 24, item 4: `check` on the costliest pack limits.toml allows (should be under
    5 s), with the work it did."""
    spec = importlib.util.spec_from_file_location(
        "worst_pack", Path(__file__).parents[1] / "tactics" / "worst_pack.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks the module up
    spec.loader.exec_module(module)
    start = time.perf_counter()
    worst = module.build_worst_pack(tmp_path / "worst")
    print(f"\nbuild the worst pack: {time.perf_counter() - start:.2f} s", worst)
    lines: list[str] = []
    start = time.perf_counter()
    code = check_pack(worst.root, lines.append)
    print(f"check the worst pack: {time.perf_counter() - start:.2f} s (exit {code})")
    print(lines[-2])
    pack = load_pack(worst.root)
    print(f"bitmaps decoded: {pack.decoded.decodes} ({pack.decoded.pixels} pixels)")
    assert code == 0
