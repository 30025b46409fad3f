"""Plane geometry for map shapes: Voronoi cells, Lloyd relaxation, polygon measures.

Plain Python and numpy only. Polygons are sequences of (x, y) points in order (either
winding), without the first point repeated at the end. Coordinates are pixels with y down,
as in Tiled and pygame, but nothing here depends on the direction of the axes.

Contracts:
- `voronoi_cells(points, w, h)` returns, for each point in input order, its Voronoi cell
  clipped to the rectangle [0, w] x [0, h] (optionally also to a disc-like polygon of
  `max_radius` around the point). Without `max_radius` the cells tile the rectangle: their
  areas sum to w * h and each point lies in its own cell. Points must be distinct.
- `shared_edges(polygons, tol)` finds the pairs (i, j), i < j, whose boundaries share a
  segment longer than `tol` (collinear within `tol`), whatever the vertices on each side.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Point = tuple[float, float]
Polygon = list[Point]

_EPS = 1e-9


def polygon_signed_area(poly: Sequence[Point]) -> float:
    """Shoelace area: positive when the points run counter-clockwise in a y-up frame."""
    n = len(poly)
    if n < 3:
        return 0.0
    s = 0.0
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        s += x0 * y1 - x1 * y0
    return s / 2.0


def polygon_area(poly: Sequence[Point]) -> float:
    """Area of a simple polygon (always >= 0)."""
    return abs(polygon_signed_area(poly))


def polygon_centroid(poly: Sequence[Point]) -> Point:
    """Centre of mass of a simple polygon; the vertex mean when its area is ~0."""
    if not poly:
        raise ValueError("the centroid of an empty polygon is undefined")
    a = polygon_signed_area(poly)
    n = len(poly)
    if abs(a) < _EPS:
        return (sum(p[0] for p in poly) / n, sum(p[1] for p in poly) / n)
    cx = cy = 0.0
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        cross = x0 * y1 - x1 * y0
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    return (cx / (6.0 * a), cy / (6.0 * a))


def point_in_polygon(point: Point, poly: Sequence[Point]) -> bool:
    """Even-odd rule test; points exactly on the boundary may go either way."""
    x, y = point
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def bounding_box(poly: Sequence[Point]) -> tuple[float, float, float, float]:
    """(min_x, min_y, max_x, max_y) of a non-empty point sequence."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def clip_half_plane(poly: Sequence[Point], nx: float, ny: float, c: float) -> Polygon:
    """Keep the part of a convex polygon where nx*x + ny*y <= c (Sutherland-Hodgman step)."""
    out: Polygon = []
    n = len(poly)
    for i in range(n):
        px, py = poly[i]
        qx, qy = poly[(i + 1) % n]
        dp = nx * px + ny * py - c
        dq = nx * qx + ny * qy - c
        if dp <= 0:
            out.append((px, py))
        if (dp < 0 < dq) or (dq < 0 < dp):
            t = dp / (dp - dq)
            out.append((px + t * (qx - px), py + t * (qy - py)))
    return out


def _regular_polygon(cx: float, cy: float, r: float, sides: int) -> Polygon:
    return [
        (cx + r * math.cos(2 * math.pi * k / sides), cy + r * math.sin(2 * math.pi * k / sides))
        for k in range(sides)
    ]


def voronoi_cells(
    points: Sequence[Point],
    width: float,
    height: float,
    max_radius: float | None = None,
    sides: int = 24,
) -> list[Polygon]:
    """The Voronoi cell of each point, clipped to [0, width] x [0, height].

    Each cell starts as the rectangle (intersected with a regular `sides`-gon of radius
    `max_radius` around its point when given, so lonely points do not claim half the sea)
    and is cut by the bisector half-plane of every other point, nearest first; the cut
    stops once the remaining points are too far to touch the cell. Cells are convex and
    counter-clockwise in a y-up frame. Raises ValueError on duplicate points or points
    outside the rectangle.
    """
    if width <= 0 or height <= 0:
        raise ValueError("the rectangle must have a positive size")
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    n = len(pts)
    for i, (x, y) in enumerate(pts):
        if not (0 <= x <= width and 0 <= y <= height):
            raise ValueError(f"point {i} ({x}, {y}) lies outside the {width}x{height} box")
    rect: Polygon = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
    cells: list[Polygon] = []
    for i in range(n):
        px, py = float(pts[i, 0]), float(pts[i, 1])
        cell = list(rect)
        if max_radius is not None:
            ring = _regular_polygon(px, py, max_radius, sides)
            for k, (ax, ay) in enumerate(ring):
                bx, by = ring[(k + 1) % sides]
                # Outward normal of edge a->b of a counter-clockwise polygon (y-up frame).
                nx, ny = by - ay, -(bx - ax)
                cell = clip_half_plane(cell, nx, ny, nx * ax + ny * ay)
        d2 = (pts[:, 0] - px) ** 2 + (pts[:, 1] - py) ** 2
        order = np.argsort(d2, kind="stable")
        for j in order:
            if j == i:
                continue
            if d2[j] < _EPS:
                raise ValueError(f"points {min(i, j)} and {max(i, j)} coincide at ({px}, {py})")
            # A point further than twice the cell's reach cannot cut it any more.
            reach2 = max((cx - px) ** 2 + (cy - py) ** 2 for cx, cy in cell)
            if d2[j] > 4.0 * reach2:
                break
            qx, qy = float(pts[j, 0]), float(pts[j, 1])
            nx, ny = qx - px, qy - py
            c = (qx * qx + qy * qy - px * px - py * py) / 2.0
            cell = clip_half_plane(cell, nx, ny, c)
            if len(cell) < 3:
                break
        cells.append(_dedupe(cell))
    return cells


def _dedupe(poly: Polygon, tol: float = 1e-7) -> Polygon:
    out: Polygon = []
    for p in poly:
        if not out or abs(p[0] - out[-1][0]) > tol or abs(p[1] - out[-1][1]) > tol:
            out.append(p)
    if len(out) > 1 and abs(out[0][0] - out[-1][0]) <= tol and abs(out[0][1] - out[-1][1]) <= tol:
        out.pop()
    return out


def lloyd_relax(
    points: Sequence[Point], width: float, height: float, iterations: int = 2
) -> list[Point]:
    """Move each point to its cell's centroid, `iterations` times (evens out the cells)."""
    cur = [(float(x), float(y)) for x, y in points]
    for _ in range(iterations):
        cur = [
            polygon_centroid(c) if len(c) >= 3 else p
            for c, p in zip(voronoi_cells(cur, width, height), cur, strict=True)
        ]
    return cur


def _edges(poly: Sequence[Point]) -> npt.NDArray[np.float64]:
    arr = np.asarray(poly, dtype=float).reshape(-1, 2)
    return np.concatenate([arr, np.roll(arr, -1, axis=0)], axis=1)


def shared_edges(polygons: Sequence[Sequence[Point]], tol: float = 0.5) -> set[tuple[int, int]]:
    """Index pairs (i < j) of polygons whose boundaries share a segment longer than `tol`.

    Two edges count as shared when each endpoint of one lies within `tol` of the other's
    line and their overlap along it is longer than `tol`. Touching at a corner does not count.
    """
    edges = [_edges(p) if len(p) >= 2 else np.zeros((0, 4)) for p in polygons]
    boxes = [
        bounding_box(p) if len(p) else (math.inf, math.inf, -math.inf, -math.inf) for p in polygons
    ]
    out: set[tuple[int, int]] = set()
    for i in range(len(polygons)):
        for j in range(i + 1, len(polygons)):
            a, b = boxes[i], boxes[j]
            if a[0] > b[2] + tol or b[0] > a[2] + tol or a[1] > b[3] + tol or b[1] > a[3] + tol:
                continue
            if _edges_overlap(edges[i], edges[j], tol):
                out.add((i, j))
    return out


def _edges_overlap(ea: npt.NDArray[np.float64], eb: npt.NDArray[np.float64], tol: float) -> bool:
    if len(ea) == 0 or len(eb) == 0:
        return False
    ax0, ay0, ax1, ay1 = (ea[:, k][:, None] for k in range(4))
    bx0, by0, bx1, by1 = (eb[:, k][None, :] for k in range(4))
    dx, dy = ax1 - ax0, ay1 - ay0
    length = np.hypot(dx, dy)
    safe = np.where(length > _EPS, length, 1.0)
    ux, uy = dx / safe, dy / safe
    # Perpendicular distances of b's endpoints to a's line.
    d0 = np.abs((bx0 - ax0) * uy - (by0 - ay0) * ux)
    d1 = np.abs((bx1 - ax0) * uy - (by1 - ay0) * ux)
    # Projections of b's endpoints on a's direction, compared with a's extent [0, length].
    t0 = (bx0 - ax0) * ux + (by0 - ay0) * uy
    t1 = (bx1 - ax0) * ux + (by1 - ay0) * uy
    lo = np.maximum(np.minimum(t0, t1), 0.0)
    hi = np.minimum(np.maximum(t0, t1), length)
    hit = (length > tol) & (d0 <= tol) & (d1 <= tol) & (hi - lo > tol)
    return bool(hit.any())


def segment_distances(
    px: npt.NDArray[np.float64], py: npt.NDArray[np.float64], poly: Sequence[Point]
) -> npt.NDArray[np.float64]:
    """Distance from each point (px[k], py[k]) to the nearest edge of `poly`."""
    e = _edges(poly)
    ax, ay, bx, by = (e[:, k][None, :] for k in range(4))
    x, y = px[:, None], py[:, None]
    dx, dy = bx - ax, by - ay
    l2 = np.where(dx * dx + dy * dy > _EPS, dx * dx + dy * dy, 1.0)
    t = np.clip(((x - ax) * dx + (y - ay) * dy) / l2, 0.0, 1.0)
    d = np.hypot(x - (ax + t * dx), y - (ay + t * dy))
    result: npt.NDArray[np.float64] = d.min(axis=1)
    return result


def points_in_polygon(
    px: npt.NDArray[np.float64], py: npt.NDArray[np.float64], poly: Sequence[Point]
) -> npt.NDArray[np.bool_]:
    """Vectorised `point_in_polygon` (even-odd rule) for many points."""
    e = _edges(poly)
    ax, ay, bx, by = (e[:, k][None, :] for k in range(4))
    x, y = px[:, None], py[:, None]
    crosses = (ay > y) != (by > y)
    denom = np.where(by - ay == 0, 1.0, by - ay)
    xint = (bx - ax) * (y - ay) / denom + ax
    inside: npt.NDArray[np.bool_] = ((crosses & (x < xint)).sum(axis=1) % 2) == 1
    return inside


def label_point(poly: Sequence[Point], precision: float = 1.0) -> Point:
    """A point well inside the polygon (near its pole of inaccessibility), for a label.

    Grid search for the inside point farthest from the boundary, refined around the best
    candidate until the grid step is below `precision`. Falls back to the centroid for
    degenerate polygons.
    """
    if len(poly) < 3 or polygon_area(poly) < _EPS:
        return polygon_centroid(poly)
    x0, y0, x1, y1 = bounding_box(poly)
    best: Point = polygon_centroid(poly)
    best_d = -1.0
    if point_in_polygon(best, poly):
        best_d = float(segment_distances(np.array([best[0]]), np.array([best[1]]), poly)[0])
    cx, cy, half_w, half_h = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    steps = 16
    for _ in range(12):
        xs = np.linspace(cx - half_w, cx + half_w, steps + 1)
        ys = np.linspace(cy - half_h, cy + half_h, steps + 1)
        gx, gy = (a.ravel() for a in np.meshgrid(xs, ys))
        inside = points_in_polygon(gx, gy, poly)
        if inside.any():
            gx, gy = gx[inside], gy[inside]
            d = segment_distances(gx, gy, poly)
            k = int(np.argmax(d))
            if d[k] > best_d:
                best_d = float(d[k])
                best = (float(gx[k]), float(gy[k]))
        half_w, half_h = half_w * 0.35, half_h * 0.35
        cx, cy = best
        if max(half_w, half_h) * 2 / steps < precision:
            break
    return best


def simplify(poly: Sequence[Point], tolerance: float) -> Polygon:
    """Douglas-Peucker simplification of a closed ring (keeps at least 3 points)."""
    pts = [(float(x), float(y)) for x, y in poly]
    if len(pts) <= 3:
        return pts
    # Split the ring at its first point and the point farthest from it.
    far = max(
        range(len(pts)), key=lambda k: (pts[k][0] - pts[0][0]) ** 2 + (pts[k][1] - pts[0][1]) ** 2
    )
    first = _dp(pts[: far + 1], tolerance)
    second = _dp([*pts[far:], pts[0]], tolerance)
    ring = first[:-1] + second[:-1]
    return ring if len(ring) >= 3 else pts[:3]


def _dp(pts: Polygon, tol: float) -> Polygon:
    if len(pts) <= 2:
        return list(pts)
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        s, e = stack.pop()
        ax, ay = pts[s]
        bx, by = pts[e]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy)
        best, idx = -1.0, -1
        for k in range(s + 1, e):
            x, y = pts[k]
            d = (
                abs((x - ax) * dy - (y - ay) * dx) / norm
                if norm > _EPS
                else math.hypot(x - ax, y - ay)
            )
            if d > best:
                best, idx = d, k
        if idx >= 0 and best > tol:
            keep[idx] = True
            stack.append((s, idx))
            stack.append((idx, e))
    return [p for p, k in zip(pts, keep, strict=True) if k]
