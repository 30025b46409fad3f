"""Tactics asset speed figures (printed with `make bench`; nothing here asserts on time)."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from suite.paths import asset
from suite.tactics.assets.bmp import encode_bmp, read_bmp
from suite.tactics.assets.elevation import generate
from suite.tactics.assets.ini import read_ini
from suite.tactics.assets.pack import load_pack


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
