"""Elevation (RULINGS T16, amended): from a bitmap's red channel, or generated with
roughness as the height span, plateaus whose edges are cliffs, and the starts connected
(golden values pin the generator)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.tactics.assets.bmp import Bitmap
from suite.tactics.assets.elevation import (
    cliff_share,
    connect_starts,
    from_bitmap,
    generate,
    height_span,
    reached_starts,
)
from suite.tactics.rules.data import load_rules

STEP = load_rules().movement.move_elevation_step  # 32: a walker's step must stay below it

GOLDEN_9_42_64 = [
    [15, 6, 0, 52, 59, 51, 63, 62, 62],
    [16, 10, 14, 49, 47, 63, 59, 59, 56],
    [7, 2, 6, 50, 55, 60, 64, 62, 62],
    [9, 13, 5, 47, 51, 52, 60, 58, 62],
    [12, 8, 4, 45, 48, 49, 47, 46, 51],
    [6, 6, 12, 47, 61, 46, 47, 51, 6],
    [41, 54, 62, 17, 20, 17, 11, 11, 14],
    [16, 6, 21, 16, 24, 14, 8, 14, 8],
    [11, 15, 14, 17, 23, 12, 52, 45, 12],
]
GOLDEN_5_7_255 = [
    [63, 40, 45, 68, 76],
    [0, 10, 14, 45, 64],
    [161, 204, 203, 217, 80],
    [182, 224, 173, 201, 81],
    [171, 200, 255, 239, 77],
]


def test_golden_values() -> None:
    assert generate(9, 42, 64).tolist() == GOLDEN_9_42_64
    assert generate(5, 7, 255).tolist() == GOLDEN_5_7_255
    assert int(generate(20, 3, 32).sum()) == 6162
    assert int(generate(48, 1234, 96).sum()) == 109678


def test_flat_without_seed_with_seed_zero_or_roughness_zero() -> None:
    assert not generate(12, None, 5).any()
    assert not generate(12, 0, 64).any()  # real packs label seed-0 maps "flat"
    assert not generate(12, 5, 0).any()
    assert generate(12, 5, 0).shape == (12, 12)
    assert height_span(5, None) == 32  # a seed without a roughness
    assert int(generate(12, 5, None).max()) == 32


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.integers(1, 2**40), st.integers(1, 255))
def test_roughness_is_the_height_span(size: int, seed: int, roughness: int) -> None:
    field = generate(size, seed, roughness)
    assert field.shape == (size, size) and field.dtype == np.uint8
    assert np.array_equal(field, generate(size, seed, roughness))
    assert int(field.min()) == 0 or size == 1
    assert int(field.max()) == roughness or size <= 2 or int(field.max()) == 0


def shares(roughness: int, size: int = 40, seeds: int = 20) -> list[float]:
    return [cliff_share(generate(size, seed, roughness), STEP) for seed in range(1, seeds + 1)]


def test_cliffs_grow_with_roughness() -> None:
    """T16: steps of 32 or more are 3-12 % of neighbouring steps on roughness 64 and 20-45 %
    on 255, none under 32."""
    for roughness in (1, 16, 31):
        assert max(shares(roughness)) == 0.0
    for size in (16, 40):
        assert all(0.03 <= share <= 0.12 for share in shares(64, size))
        assert all(0.20 <= share <= 0.45 for share in shares(255, size))
    means = [float(np.mean(shares(r, seeds=8))) for r in (48, 64, 128, 192, 255)]
    assert means == sorted(means)


def test_bumps_are_a_few_tiles_wide() -> None:
    """High ground comes in patches, not single tiles: most cliff-top cells have a
    cliff-top neighbour at the same level of the plateau."""
    field = generate(48, 11, 255).astype(int)
    high = field >= 128
    same = (
        high[1:-1, 1:-1] & (high[:-2, 1:-1] | high[2:, 1:-1]) & (high[1:-1, :-2] | high[1:-1, 2:])
    )
    assert same.sum() >= 0.6 * high[1:-1, 1:-1].sum()


def ring_map(size: int = 15) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int] | None]]:
    """Flat ground with the red start walled in by a 200-high ring two cells out."""
    heights = np.zeros((size, size), dtype=np.uint8)
    heights[2:7, 2:7] = 200
    heights[3:6, 3:6] = 0
    walkable = np.ones((size, size), dtype=bool)
    starts: list[tuple[int, int] | None] = [(4, 4), (12, 12), (12, 2), None]
    return heights, walkable, starts


def test_connect_starts_lowers_only_the_cliffs_in_the_way() -> None:
    heights, walkable, starts = ring_map()
    assert reached_starts(heights, walkable, starts, STEP) == [True, False, False, False]
    joined = connect_starts(heights, walkable, starts, STEP)
    assert reached_starts(joined, walkable, starts, STEP) == [True, True, True, False]
    changed = np.argwhere(joined != heights)
    assert 1 <= len(changed) <= 2  # one cell of the ring is enough
    assert all(joined[y, x] < STEP for y, x in changed)
    assert np.array_equal(heights, ring_map()[0])  # the input is left alone


def test_connect_starts_leaves_connected_maps_and_tile_walls_alone() -> None:
    heights, walkable, starts = ring_map()
    heights[2:7, 2:7] = 0
    assert connect_starts(heights, walkable, starts, STEP) is heights
    heights, walkable, starts = ring_map()
    walkable[:, 9] = False  # water the walkers cannot cross: heights cannot help
    joined = connect_starts(heights, walkable, starts, STEP)
    assert reached_starts(joined, walkable, starts, STEP) == [True, False, False, False]
    assert np.array_equal(joined, heights)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 2**32), st.sampled_from([64, 128, 255]), st.integers(0, 2**32))
def test_every_start_reaches_every_other(seed: int, roughness: int, holes: int) -> None:
    """T16: whatever the roughness, walkers from every start reach every other start that
    the tiles alone do not keep apart."""
    size = 24
    heights = generate(size, seed, roughness)
    walkable = np.random.default_rng(holes).random((size, size)) > 0.15
    starts: list[tuple[int, int] | None] = [(1, 1), (22, 1), (22, 22), (1, 22)]
    for x, y in starts:  # type: ignore[misc]
        walkable[y, x] = True
    joined = connect_starts(heights, walkable, starts, STEP)
    flat = np.zeros_like(heights)
    assert reached_starts(joined, walkable, starts, STEP) == reached_starts(
        flat, walkable, starts, STEP
    )
    assert (joined <= heights).all()
    if all(reached_starts(heights, walkable, starts, STEP)):
        assert np.array_equal(joined, heights)


def test_from_bitmap_uses_the_red_component() -> None:
    palette = np.zeros((256, 3), dtype=np.uint8)
    palette[3] = (200, 1, 2)
    palette[4] = (17, 250, 250)
    bitmap = Bitmap(np.array([[3, 4], [4, 0]], dtype=np.uint8), palette)
    assert from_bitmap(bitmap).tolist() == [[200, 17], [17, 0]]
