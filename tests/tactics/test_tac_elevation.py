"""Elevation: from a bitmap's red channel, or generated (golden values pin the generator)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.tactics.assets.bmp import Bitmap
from suite.tactics.assets.elevation import from_bitmap, generate, height_span

GOLDEN_9_42_4 = [
    [0, 26, 27, 40, 46, 55, 44, 38, 40],
    [12, 31, 44, 35, 47, 49, 49, 38, 37],
    [20, 36, 46, 46, 35, 51, 53, 49, 35],
    [31, 45, 36, 33, 36, 37, 58, 55, 51],
    [43, 38, 33, 34, 32, 38, 53, 64, 58],
    [43, 52, 50, 32, 39, 51, 50, 51, 45],
    [39, 40, 58, 38, 41, 57, 52, 39, 36],
    [37, 39, 50, 39, 46, 49, 43, 34, 47],
    [40, 32, 37, 43, 57, 51, 42, 46, 45],
]
GOLDEN_5_7_16 = [
    [255, 230, 203, 205, 144],
    [160, 140, 120, 84, 5],
    [196, 246, 117, 137, 56],
    [222, 189, 237, 79, 0],
    [79, 122, 203, 102, 91],
]


def test_golden_values() -> None:
    assert generate(9, 42, 4).tolist() == GOLDEN_9_42_4
    assert generate(5, 7, 16).tolist() == GOLDEN_5_7_16
    assert int(generate(20, 3, 2).sum()) == 6194
    assert int(generate(48, 1234, 6).sum()) == 109130


def test_flat_without_seed_or_roughness() -> None:
    assert not generate(12, None, 5).any()
    assert not generate(12, 5, 0).any()
    assert generate(12, 5, 0).shape == (12, 12)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.integers(0, 2**40), st.floats(0.1, 30))
def test_span_and_repeatability(size: int, seed: int, roughness: float) -> None:
    field = generate(size, seed, roughness)
    assert field.shape == (size, size) and field.dtype == np.uint8
    assert np.array_equal(field, generate(size, seed, roughness))
    assert int(field.min()) == 0 or size == 1
    assert int(field.max()) <= height_span(roughness)


def test_rougher_is_more_jagged() -> None:
    def jag(roughness: float) -> float:
        total = 0.0
        for seed in (11, 12, 13):
            field = generate(32, seed, roughness).astype(float) / height_span(roughness)
            total += float(np.abs(np.diff(field, axis=0)).mean())
        return total

    assert jag(1) < jag(4) < jag(8)


def test_from_bitmap_uses_the_red_component() -> None:
    palette = np.zeros((256, 3), dtype=np.uint8)
    palette[3] = (200, 1, 2)
    palette[4] = (17, 250, 250)
    bitmap = Bitmap(np.array([[3, 4], [4, 0]], dtype=np.uint8), palette)
    assert from_bitmap(bitmap).tolist() == [[200, 17], [17, 0]]
