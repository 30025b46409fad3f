"""A crafted pack on disk: the loader's grid drives reach and shots (elevation bitmaps with
steps of 31/32 and 63/64, each movement bit) and the formation moves off bad cells."""

from __future__ import annotations

import numpy as np
import pytest

from suite.tactics.assets.model import START_INDICES
from suite.tactics.rules import actions as A
from suite.tactics.rules.state import TacticsState

INI = """\
[general]
numMaps = 1
[Tiles]
tile20 = Grass, tiles\\grass, 1, 0
tile30 = Lava, tiles\\lava, 4, 0
tile40 = Water, tiles\\water, 8, 0
tile50 = Cliff, tiles\\cliff, 2, 0
[Weapons]
weapon1 = Sword, Melee, Missile, 4, 1, 0, 0, 0, 0
weapon2 = Wings, Melee, Missile, 4, 3, 0, 0, 0, 0
[Pieces]
piece1 = Walker, skins\\w, 0, 10, 0, 4, 4, 3, 0, 1, 2, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, "", 0
piece2 = Flyer, skins\\f, 0, 10, 0, 4, 4, 3, 0, 3, 2, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, "", 0
piece3 = Firewalker, skins\\x, 0, 10, 0, 4, 4, 3, 0, 5, 2, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, "", 0
piece4 = Swimmer, skins\\s, 0, 10, 0, 4, 4, 3, 0, 9, 2, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, "", 0
[map1]
name = Lab
bitmap = maps\\lab
elevationBitmap = maps\\lab_elev
"""

SIZE = 12


def lab_images() -> dict[str, np.ndarray]:
    tiles = np.full((SIZE, SIZE), 20, dtype=np.uint8)
    tiles[0, :] = tiles[-1, :] = tiles[:, 0] = tiles[:, -1] = 0
    # row 3: lava, water, cliff in a strip right of x=5
    tiles[3, 6], tiles[3, 7], tiles[3, 8] = 30, 40, 50
    spots = ((2, 2), (9, 2), (9, 9), (2, 9))
    for (x, y), index in zip(spots, START_INDICES, strict=True):
        tiles[y, x] = index
    heights = np.zeros((SIZE, SIZE), dtype=np.uint8)
    heights[6, 5] = 31  # east of (4, 6): walkable
    heights[6, 3] = 32  # west of (4, 6): too steep on foot
    heights[8, 5] = 63  # shots: east of (4, 8) fine
    heights[8, 3] = 64  # west of (4, 8) blocks a ground shot
    return {"maps/lab.bmp": tiles, "maps/lab_elev.bmp": heights}


@pytest.fixture
def lab(make_pack):  # type: ignore[no-untyped-def]
    root = make_pack(INI, images=lab_images())

    def create(armies: list[list[int]], seed: int = 1) -> TacticsState:
        return TacticsState.create({"pack": str(root), "players": 2, "armies": armies}, seed)

    return create


def put(state: TacticsState, uid: int, x: int, y: int) -> None:
    unit = state.units[uid]
    state.occupied[unit.cell] = 0
    unit.cell = state.terrain.index(x, y)
    state.occupied[unit.cell] = uid + 1


def reach(state: TacticsState, uid: int) -> set[tuple[int, int]]:
    return {state.terrain.cell(c) for c in state.reachable(state.units[uid])}


def test_loaded_elevation_steps_for_walking(lab) -> None:  # type: ignore[no-untyped-def]
    state = lab([[1], [2]])
    put(state, 0, 4, 6)
    put(state, 1, 4, 6 - 4)
    assert (5, 6) in reach(state, 0) and (3, 6) not in reach(state, 0)
    put(state, 1, 4, 7)  # the flyer ignores elevation
    put(state, 0, 9, 10)
    put(state, 1, 4, 6)
    assert (3, 6) in reach(state, 1)


def test_each_movement_bit_on_loaded_tiles(lab) -> None:  # type: ignore[no-untyped-def]
    state = lab([[1, 2, 3, 4], [1]])
    strip = {(6, 3), (7, 3), (8, 3)}  # lava (4), water (8), cliff (2)
    parking = [(2, 6), (2, 7), (2, 8), (3, 8)]
    expect = {0: set(), 1: {(8, 3)}, 2: {(6, 3)}, 3: {(7, 3)}}
    for uid, cells in expect.items():
        for other, spot in enumerate(parking):
            if other != uid:
                put(state, other, *spot)
        put(state, uid, 7, 4)
        assert reach(state, uid) & strip == cells, state.pieces[state.units[uid].kind].name
        put(state, uid, *parking[uid])


def test_loaded_elevation_steps_for_shots(lab) -> None:  # type: ignore[no-untyped-def]
    state = lab([[1], [1, 2]])
    put(state, 0, 4, 8)
    put(state, 1, 5, 8)
    put(state, 2, 3, 8)
    shots = {state.terrain.cell(c) for c in state.shot_cells(state.units[0])}
    assert (5, 8) in shots and (3, 8) not in shots
    attacker = state.units[0]
    targets = {t.uid for t in state.targets(attacker)}
    assert targets == {1}


def test_formation_moves_slots_off_the_border(lab) -> None:  # type: ignore[no-untyped-def]
    state = lab([[1] * 9, [1] * 9])
    for unit in state.units:
        x, y = state.terrain.cell(unit.cell)
        assert 0 < x < SIZE - 1 and 0 < y < SIZE - 1
    assert len({u.cell for u in state.units}) == 18
    seat = state.current
    state.apply(seat, A.EndTurn())
    assert state.current != seat


def test_packs_that_cannot_host_say_why(make_pack) -> None:  # type: ignore[no-untyped-def]
    from suite.tactics.rules.packs import PackError

    no_weapon = INI.replace("weapon1 = Sword", "weapon9 = Sword").replace(
        "weapon2 = Wings", "weapon8 = Wings"
    )
    root = make_pack(no_weapon, images=lab_images(), name="noweapon")
    with pytest.raises(PackError, match="no playable piece"):
        TacticsState.create({"pack": str(root), "players": 2}, 1)
    two_starts = lab_images()
    tiles = two_starts["maps/lab.bmp"]
    tiles[tiles == START_INDICES[2]] = 20
    tiles[tiles == START_INDICES[3]] = 20
    root = make_pack(INI, images=two_starts, name="twostarts")
    assert TacticsState.create({"pack": str(root), "players": 2}, 1).map_id == 1
    with pytest.raises(PackError, match="no map has starts for 3"):
        TacticsState.create({"pack": str(root), "players": 3}, 1)
    with pytest.raises(PackError, match="no such pack folder"):
        TacticsState.create({"pack": str(root / "missing"), "players": 2}, 1)
