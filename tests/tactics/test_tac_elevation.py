"""Elevation (RULINGS T16): from a bitmap's red channel, or generated with roughness as
the height span (golden values pin the generator)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.tactics.assets.bmp import Bitmap
from suite.tactics.assets.elevation import from_bitmap, generate, height_span

GOLDEN_9_42_64 = [
    [2, 0, 9, 3, 3, 14, 35, 41, 56],
    [8, 5, 10, 12, 14, 25, 38, 42, 40],
    [21, 17, 5, 16, 18, 18, 23, 34, 37],
    [21, 21, 11, 12, 13, 26, 39, 39, 48],
    [32, 28, 15, 11, 16, 30, 41, 45, 58],
    [39, 30, 24, 16, 13, 29, 34, 46, 62],
    [41, 43, 31, 17, 13, 25, 32, 50, 64],
    [48, 42, 33, 29, 31, 31, 37, 58, 57],
    [56, 40, 37, 31, 23, 37, 51, 55, 62],
]
GOLDEN_5_7_255 = [
    [255, 209, 212, 120, 113],
    [159, 152, 174, 136, 160],
    [66, 144, 137, 90, 132],
    [75, 63, 95, 45, 84],
    [30, 6, 16, 0, 45],
]


def test_golden_values() -> None:
    assert generate(9, 42, 64).tolist() == GOLDEN_9_42_64
    assert generate(5, 7, 255).tolist() == GOLDEN_5_7_255
    assert int(generate(20, 3, 32).sum()) == 6194
    assert int(generate(48, 1234, 96).sum()) == 63854


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


def test_bumpy_maps_stay_walkable() -> None:
    """T16: on roughness 64 nearly every step between neighbours stays below 32 (the
    engine's walking step), so walkers meet."""
    steps = []
    for seed in range(1, 21):
        field = generate(48, seed, 64).astype(int)
        steps.append(np.abs(np.diff(field, axis=0)).ravel())
        steps.append(np.abs(np.diff(field, axis=1)).ravel())
    every = np.concatenate(steps)
    assert (every < 32).mean() >= 0.99


def test_from_bitmap_uses_the_red_component() -> None:
    palette = np.zeros((256, 3), dtype=np.uint8)
    palette[3] = (200, 1, 2)
    palette[4] = (17, 250, 250)
    bitmap = Bitmap(np.array([[3, 4], [4, 0]], dtype=np.uint8), palette)
    assert from_bitmap(bitmap).tolist() == [[200, 17], [17, 0]]
