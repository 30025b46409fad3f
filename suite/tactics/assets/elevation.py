"""Map elevation: from an elevation bitmap or generated from a seed and a roughness.

Generated heights use diamond-square on integers only (draws from `suite.core.rng.Rng`,
floor divisions, no floats), so the same seed and roughness give the same heights on
every machine. Roughness r sets both the height span, 0 to min(255, 16 * r), and how
jagged the field is: the random offset keeps a share min(0.85, 0.4 + 0.05 * r) of its size
from one halving of the grid to the next (about r = 2 gentle slopes, r = 4 bumps, r = 8
steep broken ground, r >= 16 the full 0-255).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from suite.core.rng import Rng
from suite.tactics.assets.bmp import Bitmap

SPAN_PER_ROUGHNESS = 16
MAX_ELEVATION = 255
_BASE_AMPLITUDE = 1 << 20
_KEEP_BASE, _KEEP_PER_ROUGHNESS, _KEEP_MAX = 0.4, 0.05, 0.85


def flat(size: int) -> npt.NDArray[np.uint8]:
    """All zeros: a flat map."""
    return np.zeros((size, size), dtype=np.uint8)


def from_bitmap(bitmap: Bitmap) -> npt.NDArray[np.uint8]:
    """Heights as the red component of each pixel's palette colour."""
    return bitmap.red().astype(np.uint8)


def height_span(roughness: float) -> int:
    """The highest elevation generated for `roughness` (0 for a flat map)."""
    if roughness <= 0:
        return 0
    return min(MAX_ELEVATION, round(roughness * SPAN_PER_ROUGHNESS))


def generate(size: int, seed: int | None, roughness: float) -> npt.NDArray[np.uint8]:
    """A `size` x `size` height field; flat when `seed` is None or `roughness` <= 0."""
    span = height_span(roughness)
    if seed is None or span == 0 or size <= 0:
        return flat(max(size, 0))
    keep = round(256 * min(_KEEP_MAX, _KEEP_BASE + _KEEP_PER_ROUGHNESS * roughness))
    field = _diamond_square(size, Rng(seed & 0xFFFFFFFFFFFFFFFF), keep)
    low, high = int(field.min()), int(field.max())
    if high == low:
        return flat(size)
    scaled = (field - low) * span // (high - low)
    return scaled.astype(np.uint8)


def _diamond_square(size: int, rng: Rng, keep: int) -> npt.NDArray[np.int64]:
    """Integer diamond-square on the smallest 2^k + 1 grid covering `size`, cropped; the
    offset amplitude is multiplied by keep/256 at each level."""
    side = 1
    while side + 1 < size:
        side *= 2
    n = side + 1
    grid = np.zeros((n, n), dtype=np.int64)
    amplitude = _BASE_AMPLITUDE
    for y in (0, side):
        for x in (0, side):
            grid[y, x] = rng.randint(-amplitude, amplitude)
    step = side
    while step > 1:
        half = step // 2
        amplitude = max(1, amplitude * keep // 256)
        # diamond step: centre of each square
        for y in range(half, n, step):
            for x in range(half, n, step):
                corners = (
                    grid[y - half, x - half]
                    + grid[y - half, x + half]
                    + grid[y + half, x - half]
                    + grid[y + half, x + half]
                )
                grid[y, x] = corners // 4 + rng.randint(-amplitude, amplitude)
        # square step: midpoints of each edge
        for y in range(0, n, half):
            for x in range((y + half) % step, n, step):
                total = 0
                count = 0
                for dy, dx in ((-half, 0), (half, 0), (0, -half), (0, half)):
                    yy, xx = y + dy, x + dx
                    if 0 <= yy < n and 0 <= xx < n:
                        total += int(grid[yy, xx])
                        count += 1
                grid[y, x] = total // count + rng.randint(-amplitude, amplitude)
        step = half
    return grid[:size, :size]
