"""The isometric projection of a Tactics battlefield: where a cell is drawn, and which
cell is under a point (pure arithmetic and numpy, no drawing).

A map of `size` x `size` cells is turned by `rotation` quarter turns, then every cell
(u, v) of the turned grid becomes a diamond `tile_w` wide and `tile_w // 2` tall, its
128 x 128 tile image (diamond on top, cube sides below) blitted at `image_pos`. A cell's
height (0-255) lifts it by `height * ELEVATION_PIXELS / 255` pixels at 100 % zoom, so a
tile that stands above its neighbours shows its cube sides (the lower half of its image).

Map-local coordinates have (0, 0) at the top-left of the pre-rendered map surface
(`surface_size`); cells behind are drawn first (`draw_order`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

TILE_PIXELS = 128  # a tile bitmap is 128 x 128: a 128 x 64 diamond over its cube sides
ELEVATION_PIXELS = 60  # pixels (at 100 %) a cell of height 255 stands above height 0
ZOOMS = (0.5, 0.75, 1.0)
ROTATIONS = 4

Cell = tuple[int, int]


def turned(x: int, y: int, size: int, rotation: int) -> Cell:
    """Cell (x, y) of the map in the grid turned by `rotation` quarter turns clockwise."""
    r = rotation % ROTATIONS
    if r == 0:
        return x, y
    if r == 1:
        return size - 1 - y, x
    if r == 2:
        return size - 1 - x, size - 1 - y
    return y, size - 1 - x


def unturned(u: int, v: int, size: int, rotation: int) -> Cell:
    """The map cell drawn at (u, v) of the turned grid (inverse of `turned`)."""
    return turned(u, v, size, (ROTATIONS - rotation % ROTATIONS) % ROTATIONS)


@dataclass(frozen=True)
class Projection:
    """One zoom and rotation of one map; `heights` is the map's elevation [y, x]."""

    heights: npt.NDArray[np.uint8] = field(compare=False, hash=False)
    zoom: float = 1.0
    rotation: int = 0

    @property
    def size(self) -> int:
        return int(self.heights.shape[0])

    @property
    def tile_w(self) -> int:
        return max(8, round(TILE_PIXELS * self.zoom))

    @property
    def tile_h(self) -> int:
        return self.tile_w // 2

    @cached_property
    def lift_max(self) -> int:
        return round(ELEVATION_PIXELS * self.zoom)

    def lift(self, x: int, y: int) -> int:
        """Pixels cell (x, y) stands above height 0."""
        return round(int(self.heights[y, x]) * self.lift_max / 255)

    @property
    def surface_size(self) -> tuple[int, int]:
        """The pre-rendered map's size: every tile with its sides and the highest lift."""
        n = self.size
        return n * self.tile_w, (n - 1) * self.tile_h + self.tile_w + self.lift_max

    def image_pos(self, x: int, y: int) -> tuple[int, int]:
        """Top-left of cell (x, y)'s tile image in map-local pixels."""
        u, v = turned(x, y, self.size, self.rotation)
        px = (u - v + self.size - 1) * self.tile_w // 2
        py = (u + v) * self.tile_h // 2 + self.lift_max - self.lift(x, y)
        return px, py

    def centre(self, x: int, y: int) -> tuple[int, int]:
        """The middle of cell (x, y)'s top diamond (where a piece stands)."""
        px, py = self.image_pos(x, y)
        return px + self.tile_w // 2, py + self.tile_h // 2

    def depth(self, x: int, y: int) -> int:
        """Drawing order key: larger is nearer the viewer."""
        u, v = turned(x, y, self.size, self.rotation)
        return u + v

    def draw_order(self) -> list[Cell]:
        """Every map cell, farthest first."""
        n = self.size
        cells = [(x, y) for y in range(n) for x in range(n)]
        cells.sort(key=lambda c: (self.depth(*c), c))
        return cells

    def cells_within(
        self, window: tuple[int, int, int, int], skip: npt.NDArray[np.bool_] | None = None
    ) -> list[Cell]:
        """The cells whose tile image meets map-local `window` (x, y, w, h), farthest
        first (the order of `draw_order`); cells where `skip[y, x]` is set are left out."""
        cx, cy, depth = self._centres
        left = cx - self.tile_w // 2
        top = cy - self.tile_h // 2
        wx, wy, ww, wh = window
        mask = (left + self.tile_w > wx) & (left < wx + ww) & (top + self.tile_w > wy)
        mask &= top < wy + wh
        if skip is not None:
            mask &= ~skip
        ys, xs = np.nonzero(mask)
        order = np.lexsort((ys, xs, depth[ys, xs]))
        return [(int(xs[k]), int(ys[k])) for k in order]

    @cached_property
    def _centres(
        self,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        n = self.size
        ys, xs = np.mgrid[0:n, 0:n]
        r = self.rotation % ROTATIONS
        if r == 0:
            us, vs = xs, ys
        elif r == 1:
            us, vs = n - 1 - ys, xs
        elif r == 2:
            us, vs = n - 1 - xs, n - 1 - ys
        else:
            us, vs = ys, n - 1 - xs
        lift = np.rint(self.heights.astype(np.float64) * self.lift_max / 255).astype(np.int64)
        cx = (us - vs + n - 1) * self.tile_w // 2 + self.tile_w // 2
        cy = (us + vs) * self.tile_h // 2 + self.lift_max - lift + self.tile_h // 2
        return cx.astype(np.int64), cy.astype(np.int64), (us + vs).astype(np.int64)

    def cell_at(self, point: tuple[float, float]) -> Cell | None:
        """The cell whose top diamond holds map-local `point` (the nearest such cell when
        lifted tiles overlap), or None."""
        cx, cy, depth = self._centres
        half_w, half_h = self.tile_w / 2, self.tile_h / 2
        inside = (np.abs(cx - point[0]) / half_w + np.abs(cy - point[1]) / half_h) <= 1.0
        if not inside.any():
            return None
        ranked = np.where(inside, depth, -1)
        y, x = np.unravel_index(int(np.argmax(ranked)), ranked.shape)
        return int(x), int(y)
