"""Golden reachable and attackable sets on crafted grids (RULINGS T2, T3)."""

from __future__ import annotations

from suite.tactics.rules.data import load_rules
from suite.tactics.rules.terrain import Terrain

R = load_rules()
EARTH, AIR, FIRE, WATER = 1, 2, 4, 8


def grid(rows: list[str], heights: dict[tuple[int, int], int] | None = None) -> Terrain:
    """`.` earth (bits 3: earth+air), `#` border (0), `F` fire (6), `W` water (10),
    `A` air only (2)."""
    bits = {".": 3, "#": 0, "F": 6, "W": 10, "A": 2}
    size = len(rows)
    movement = tuple(bits[ch] for row in rows for ch in row)
    elevation = [0] * (size * size)
    for (x, y), h in (heights or {}).items():
        elevation[y * size + x] = h
    return Terrain(
        size,
        movement,
        tuple(elevation),
        (None,) * 4,
        R.movement.move_elevation_step,
        R.movement.shot_elevation_step,
        R.movement.air_bit,
    )


def cells(t: Terrain, found: object) -> set[tuple[int, int]]:
    return {t.cell(i) for i in found}  # type: ignore[attr-defined]


def test_reach_counts_steps_north_south_east_west() -> None:
    t = grid(["....."] * 5)
    got = cells(t, t.reachable(t.index(2, 2), EARTH, 1, [0] * 25))
    assert got == {(2, 1), (2, 3), (1, 2), (3, 2)}
    got2 = cells(t, t.reachable(t.index(2, 2), EARTH, 2, [0] * 25))
    assert (1, 1) in got2 and (0, 2) in got2 and (0, 0) not in got2 and (2, 2) not in got2


def test_elevation_step_31_passes_32_blocks_unless_air() -> None:
    t = grid(["....."] * 5, {(3, 2): 31, (1, 2): 32})
    start = t.index(2, 2)
    walk = cells(t, t.reachable(start, EARTH, 1, [0] * 25))
    assert (3, 2) in walk and (1, 2) not in walk
    fly = cells(t, t.reachable(start, EARTH | AIR, 1, [0] * 25))
    assert (1, 2) in fly


def test_elevation_counts_both_ways() -> None:
    t = grid(["....."] * 5, {(2, 2): 40, (3, 2): 10})
    got = cells(t, t.reachable(t.index(2, 2), EARTH, 1, [0] * 25))
    assert (3, 2) in got and (1, 2) not in got


def test_each_movement_bit_and_the_border() -> None:
    t = grid([".FWA#"] * 5)
    start = t.index(0, 2)
    for bits, expect in (
        (EARTH, set()),
        (FIRE, {(1, 2)}),
        (WATER, set()),
        (FIRE | WATER, {(1, 2), (2, 2)}),
        (AIR, {(1, 2), (2, 2), (3, 2)}),
        (255, {(1, 2), (2, 2), (3, 2)}),
    ):
        got = cells(t, t.reachable(start, bits, 6, [0] * 25))
        assert {c for c in got if c[1] == 2 and c[0] > 0} == expect, bits
        assert all(x < 4 for x, _ in got)


def test_pieces_block_standing_and_passing() -> None:
    t = grid(["#####", "#...#", "#...#", "#...#", "#####"])
    occupied = [0] * 25
    occupied[t.index(2, 1)] = 5
    got = cells(t, t.reachable(t.index(1, 1), EARTH, 2, occupied))
    assert (2, 1) not in got and (3, 1) not in got
    assert (1, 3) in got and (2, 2) in got


def test_shots_need_min_range_below_distance() -> None:
    t = grid(["......."] * 7)
    origin = t.index(3, 3)
    ring = cells(t, t.shot_cells(origin, 255, 0, 1))
    assert ring == {(3, 2), (3, 4), (2, 3), (4, 3)}
    far = cells(t, t.shot_cells(origin, 255, 1, 2))
    assert (3, 1) in far and (2, 2) in far and (3, 2) not in far and (3, 3) not in far


def test_shot_elevation_63_passes_64_blocks_unless_weapon_flies() -> None:
    t = grid(["....."] * 5, {(3, 2): 63, (1, 2): 64})
    origin = t.index(2, 2)
    ground = cells(t, t.shot_cells(origin, EARTH, 0, 1))
    assert (3, 2) in ground and (1, 2) not in ground
    air = cells(t, t.shot_cells(origin, EARTH | AIR, 0, 1))
    assert (1, 2) in air


def test_shots_follow_a_path_the_weapon_bits_allow() -> None:
    t = grid([".....", ".....", "..FF.", ".....", "....."])
    origin = t.index(2, 1)
    # straight down through fire is refused for an earth weapon...
    ground = cells(t, t.shot_cells(origin, EARTH, 0, 2))
    assert (2, 3) not in ground
    # ...but a fire weapon passes, and a bent path around the fire is accepted
    assert (2, 3) in cells(t, t.shot_cells(origin, FIRE | EARTH, 0, 2))
    assert (1, 2) in ground and (1, 3) not in ground
    assert (1, 3) in cells(t, t.shot_cells(origin, EARTH, 0, 3))


def test_shots_ignore_pieces_and_stop_at_the_border() -> None:
    t = grid(["#####", "#...#", "#...#", "#...#", "#####"])
    got = cells(t, t.shot_cells(t.index(1, 1), 255, 0, 6))
    assert all(t.movement[t.index(x, y)] for x, y in got)
    assert (3, 3) in got


def test_distances_route_around_walls() -> None:
    t = grid([".....", "###..", ".....", ".####", "....."])
    dist = t.distances([t.index(0, 0)], EARTH)
    assert dist[t.index(0, 2)] == 8
    assert dist[t.index(0, 4)] > 8
