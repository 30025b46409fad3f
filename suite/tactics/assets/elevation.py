"""Map elevation: from an elevation bitmap or generated from a seed and a roughness.

RULINGS T16: a map's `roughness` (0-255) is the height span of its generated bumps:
heights run from 0 to roughness. A map is flat without a seed, with `seed = 0` (real packs
label such maps "flat") or with roughness 0; a nonzero seed without a roughness uses
`DEFAULT_ROUGHNESS` (32). An elevation bitmap is taken as drawn (the red component).

Generated heights use diamond-square on integers only (draws from `suite.core.rng.Rng`,
floor divisions, no floats), so the same seed and roughness give the same heights on
every machine. The random offset halves with each halving of the grid (a smooth field),
so on roughness 64 nearly every step between neighbours stays below 32 and walkers meet.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from suite.core.rng import Rng
from suite.tactics.assets.bmp import Bitmap

MAX_ELEVATION = 255
DEFAULT_ROUGHNESS = 32
_BASE_AMPLITUDE = 1 << 20
_KEEP = 128  # the offset keeps 128/256 of its size from one grid halving to the next


def flat(size: int) -> npt.NDArray[np.uint8]:
    """All zeros: a flat map."""
    return np.zeros((size, size), dtype=np.uint8)


def from_bitmap(bitmap: Bitmap) -> npt.NDArray[np.uint8]:
    """Heights as the red component of each pixel's palette colour."""
    return bitmap.red().astype(np.uint8)


def height_span(seed: int | None, roughness: int | None) -> int:
    """T16: the highest generated elevation (0 for a flat map)."""
    if not seed:
        return 0
    span = DEFAULT_ROUGHNESS if roughness is None else roughness
    return max(0, min(MAX_ELEVATION, span))


def describe(seed: int | None, roughness: int | None) -> str:
    """ "flat" or "seed N roughness R" (the span actually used)."""
    span = height_span(seed, roughness)
    return f"seed {seed} roughness {span}" if span else "flat"


def generate(size: int, seed: int | None, roughness: int | None) -> npt.NDArray[np.uint8]:
    """A `size` x `size` height field from 0 to the T16 span (flat when that is 0)."""
    span = height_span(seed, roughness)
    if seed is None or span == 0 or size <= 0:
        return flat(max(size, 0))
    field = _diamond_square(size, Rng(seed & 0xFFFFFFFFFFFFFFFF), _KEEP)
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
