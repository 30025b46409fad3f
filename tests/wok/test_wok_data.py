"""The rule-set data file, maps (generator and shipped) and bad input."""

from __future__ import annotations

import tomllib

import pytest

from suite.core.board import BoardError
from suite.core.datafile import DataError
from suite.core.geometry import polygon_area
from suite.core.tiled import load_tmx, write_tmx
from suite.paths import asset
from suite.wok.rules import create
from suite.wok.rules.mapgen import POP_MAX, POP_MIN, generate_map, independent_homes
from suite.wok.rules.maps import SHIPPED, resolve_map
from suite.wok.rules.ruleset import load_ruleset, load_ruleset_file, parse_ruleset


def _data() -> dict:
    return tomllib.loads(asset("wok", "rules", "standard.toml").read_text())


def test_standard_rule_set_figures():
    r = load_ruleset("standard")
    assert r.limits.bomb_orders == 5 and r.limits.bomb_missiles == 99
    assert r.limits.attack_orders == 7 and r.limits.transform_pop_arm_orders == 3
    assert r.limits.aim_orders == 4 and r.limits.spy_orders == 5
    assert r.upgrades.costs == (100, 200, 300)
    assert [r.attacks_allowed(t) for t in range(6)] == [3, 4, 5, 6, 7, 7]
    assert [r.growth_percent(p) for p in (0, 99, 100, 250, 350, 999)] == [20, 20, 15, 10, 6, 3]
    assert r.working.mis_per == 3  # S1
    assert set(r.variants) == {"standard", "skirmish", "duel", "trinity"}


def test_missing_key_names_file_and_key():
    data = _data()
    del data["attack"]["base_attacks"]
    with pytest.raises(
        DataError, match=r"x\.toml: at `attack`: Object missing required field `base_attacks`"
    ):
        parse_ruleset(data, "x.toml")


def test_wrong_type_and_bad_aim_are_refused():
    data = _data()
    data["caps"]["pop"] = "many"
    with pytest.raises(DataError, match="x.toml: at `caps.pop`: Expected `int`, got `str`"):
        parse_ruleset(data, "x.toml")
    data = _data()
    data["start"]["home"]["aim"] = "NAP"
    with pytest.raises(DataError, match="start.home.aim"):
        parse_ruleset(data, "x.toml")
    data = _data()
    data["bombing"]["hit_chance"] = 1.0
    with pytest.raises(
        DataError, match="x.toml: at `bombing`: Object contains unknown field `hit_chance`"
    ):
        parse_ruleset(data, "x.toml")


def test_broken_toml_and_unknown_variant(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    with pytest.raises(DataError, match="bad.toml"):
        load_ruleset_file(bad)
    with pytest.raises(ValueError, match="unknown variant 'blitz'"):
        create({"players": 2, "variant": "blitz"}, 1)


def test_generated_map_is_seeded_and_sized():
    a = generate_map(24, 4, seed=5)
    b = generate_map(24, 4, seed=5)
    assert a == b and len(a) == 24
    assert a != generate_map(24, 4, seed=6)
    pops = [a[i].props["POP"] for i in a.ids()]
    assert min(pops) == POP_MIN and max(pops) == POP_MAX
    areas = [polygon_area(a[i].polygon) for i in a.ids()]
    by_area = [p for _, p in sorted(zip(areas, pops, strict=True))]
    assert by_area == sorted(by_area)  # POP grows with the province's size
    assert independent_homes(a, 4)


def test_generated_map_round_trips_through_tmx(tmp_path):
    board = generate_map(20, 2, seed=3, name="T")
    path = tmp_path / "t.tmx"
    write_tmx(board, path, 1200, 800)
    assert load_tmx(path) == board
    assert resolve_map(str(path), 2, 0) == board


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_maps(name):
    provinces, players = SHIPPED[name]
    board = resolve_map(name, players, 0)
    assert len(board) == provinces
    assert independent_homes(board, players)
    assert all(POP_MIN <= board[i].props["POP"] <= POP_MAX for i in board.ids())
    create({"players": players, "map": name}, 1)


def test_bad_maps_are_refused(tmp_path):
    with pytest.raises(BoardError, match="unknown map 'atlantis'"):
        resolve_map("atlantis", 2, 0)
    with pytest.raises(BoardError, match="no such file"):
        resolve_map(str(tmp_path / "none.tmx"), 2, 0)
    with pytest.raises(BoardError, match="too few"):
        resolve_map(3, 2, 0)
    assert len(resolve_map("25", 3, 1)) == 25
    with pytest.raises(ValueError, match="no room for 10 homes"):
        create({"players": 10, "map": "trial"}, 1)
