"""Geometry: Voronoi cells tile the box, shared edges, polygon measures, label points."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.core.geometry import (
    label_point,
    lloyd_relax,
    point_in_polygon,
    polygon_area,
    polygon_centroid,
    polygon_signed_area,
    segment_distances,
    shared_edges,
    simplify,
    voronoi_cells,
)

W, H = 400.0, 300.0


def _spread(raw: list[tuple[float, float]], gap: float = 2.0) -> list[tuple[float, float]]:
    """Drop points closer than `gap` to an earlier one (cells need distinct sites)."""
    out: list[tuple[float, float]] = []
    for p in raw:
        if all(math.dist(p, q) >= gap for q in out):
            out.append(p)
    return out


points_strategy = st.lists(
    st.tuples(st.floats(1.0, W - 1.0), st.floats(1.0, H - 1.0)), min_size=1, max_size=40
).map(_spread)


@settings(max_examples=50, deadline=None)
@given(points_strategy)
def test_cells_tile_the_rectangle_and_hold_their_points(points: list[tuple[float, float]]) -> None:
    cells = voronoi_cells(points, W, H)
    assert len(cells) == len(points)
    assert sum(polygon_area(c) for c in cells) == pytest.approx(W * H, rel=1e-9)
    for p, cell in zip(points, cells, strict=True):
        assert point_in_polygon(p, cell)
        for x, y in cell:
            assert -1e-6 <= x <= W + 1e-6 and -1e-6 <= y <= H + 1e-6


@settings(max_examples=30, deadline=None)
@given(points_strategy)
def test_every_cell_point_is_nearest_to_its_own_site(points: list[tuple[float, float]]) -> None:
    cells = voronoi_cells(points, W, H)
    for i, cell in enumerate(cells):
        probe = polygon_centroid(cell)
        mine = math.dist(probe, points[i])
        assert all(mine <= math.dist(probe, q) + 1e-6 for q in points)


def test_one_point_gets_the_whole_rectangle() -> None:
    (cell,) = voronoi_cells([(10.0, 10.0)], W, H)
    assert polygon_area(cell) == pytest.approx(W * H)


def test_max_radius_bounds_each_cell() -> None:
    pts = [(50.0, 50.0), (60.0, 50.0), (300.0, 250.0)]
    cells = voronoi_cells(pts, W, H, max_radius=30.0)
    for p, cell in zip(pts, cells, strict=True):
        assert all(math.dist(p, v) <= 30.0 + 1e-6 for v in cell)
    # The lonely point's cell is a disc-like polygon, close to pi r^2.
    assert polygon_area(cells[2]) == pytest.approx(math.pi * 900, rel=0.03)


def test_bad_points_are_refused() -> None:
    with pytest.raises(ValueError, match="coincide"):
        voronoi_cells([(5.0, 5.0), (5.0, 5.0)], W, H)
    with pytest.raises(ValueError, match="outside"):
        voronoi_cells([(5.0, 500.0)], W, H)


def test_grid_cells_share_edges_with_four_neighbours_only() -> None:
    pts = [(50.0 + 100 * i, 50.0 + 100 * j) for j in range(3) for i in range(4)]
    cells = voronoi_cells(pts, W, H)
    pairs = shared_edges(cells)
    expected = set()
    for k in range(12):
        i, j = k % 4, k // 4
        if i < 3:
            expected.add((k, k + 1))
        if j < 2:
            expected.add((k, k + 4))
    assert pairs == expected


def test_shared_edges_handles_t_junctions_and_corners() -> None:
    big = [(0.0, 0.0), (10.0, 0.0), (10.0, 20.0), (0.0, 20.0)]
    top = [(10.0, 0.0), (20.0, 0.0), (20.0, 10.0), (10.0, 10.0)]
    bottom = [(10.0, 10.0), (20.0, 10.0), (20.0, 20.0), (10.0, 20.0)]
    corner = [(20.0, 20.0), (30.0, 20.0), (30.0, 30.0), (20.0, 30.0)]
    assert shared_edges([big, top, bottom, corner]) == {(0, 1), (0, 2), (1, 2)}


def test_area_centroid_and_winding() -> None:
    square = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)]
    assert polygon_area(square) == 16.0
    assert polygon_area(square[::-1]) == 16.0
    assert polygon_signed_area(square) == -polygon_signed_area(square[::-1])
    assert polygon_centroid(square) == pytest.approx((2.0, 2.0))
    assert polygon_centroid(square[::-1]) == pytest.approx((2.0, 2.0))
    tri = [(0.0, 0.0), (6.0, 0.0), (0.0, 3.0)]
    assert polygon_centroid(tri) == pytest.approx((2.0, 1.0))


L_SHAPE = [(0.0, 0.0), (100.0, 0.0), (100.0, 10.0), (10.0, 10.0), (10.0, 100.0), (0.0, 100.0)]


def test_point_in_concave_polygon() -> None:
    assert point_in_polygon((5.0, 50.0), L_SHAPE)
    assert point_in_polygon((50.0, 5.0), L_SHAPE)
    assert not point_in_polygon((50.0, 50.0), L_SHAPE)
    assert not point_in_polygon((-1.0, 5.0), L_SHAPE)


def test_label_point_sits_well_inside_a_concave_shape() -> None:
    x, y = label_point(L_SHAPE)
    assert point_in_polygon((x, y), L_SHAPE)
    import numpy as np

    clearance = segment_distances(np.array([x]), np.array([y]), L_SHAPE)[0]
    assert clearance >= 4.5  # the arms are 10 wide: the best possible is about 5.9


@settings(max_examples=30, deadline=None)
@given(points_strategy)
def test_label_points_lie_in_their_cells(points: list[tuple[float, float]]) -> None:
    for cell in voronoi_cells(points, W, H):
        assert point_in_polygon(label_point(cell), cell)


def test_lloyd_relaxation_evens_out_cells() -> None:
    pts = [(10.0 + i * 3.0, 10.0 + (i * 7) % 20) for i in range(20)]
    relaxed = lloyd_relax(pts, W, H, 5)
    assert relaxed == lloyd_relax(pts, W, H, 5)

    def spread(ps: list[tuple[float, float]]) -> float:
        areas = [polygon_area(c) for c in voronoi_cells(ps, W, H)]
        return max(areas) / min(areas)

    assert spread(relaxed) < spread(pts) / 4
    assert all(0 <= x <= W and 0 <= y <= H for x, y in relaxed)


def test_simplify_drops_collinear_points_and_keeps_corners() -> None:
    square = [(0.0, 0.0), (5.0, 0.0), (10.0, 0.0), (10.0, 5.0), (10.0, 10.0), (0.0, 10.0)]
    assert sorted(simplify(square, 0.1)) == sorted(
        [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    )
