"""Capital and Secret Mission modes (issue 15.12): the deal, the goals, hidden missions,
snapshots, and whole games by bots with the invariants checked after every action."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from suite.core.bots import make_bot
from suite.core.datafile import DataError
from suite.core.match import ConfigError
from suite.core.rng import Rng
from suite.paths import asset
from suite.worldwar.rules import SPEC
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.data import load_rules
from suite.worldwar.rules.engine import WorldWarState
from suite.worldwar.rules.modes import Mission, current_mission, describe, mission_deck

from .conftest import Position


def test_the_mission_deck_fits_map_and_players() -> None:
    for players in (2, 3, 6):
        st = WorldWarState.create({"players": players, "mode": "mission"}, 1)
        deck = mission_deck(st)
        kinds = [m.kind for m in deck]
        assert kinds.count("destroy") == (players if players >= 3 else 0)
        n = len(st.topo)
        for m in deck:
            if m.kind == "continents":
                size = sum(len(st.topo.members[c]) for c in m.continents)
                assert 0.25 * n <= size <= 0.45 * n
        assert Mission("territories", territories=24) in deck  # 24 of the classic 42
        assert Mission("territories", territories=19, min_armies=2) in deck
        assert len(st.missions) == players
        for seat, m in enumerate(st.missions):
            assert not (m.kind == "destroy" and m.target == seat)
        st.check()


def test_capitals_are_drawn_among_own_territories() -> None:
    for seed in range(5):
        st = WorldWarState.create({"players": 4, "mode": "capital"}, seed)
        assert [st.owner[t] for t in st.capitals] == [0, 1, 2, 3]
    again = WorldWarState.create({"players": 4, "mode": "capital"}, 4)
    assert again.capitals == st.capitals  # from the seed


def conquer(st: WorldWarState, source: str, target: str) -> list[Any]:
    """Blitz from `source` until `target` falls (the position makes it certain)."""
    events = st.apply(0, A.Blitz(source, target, False))
    assert st.phase == "occupy", "the target fell"
    return events


def test_holding_every_capital_wins_once_the_occupation_is_done(position: Position) -> None:
    st = position(
        [0, 0, 0, 0, 1, 1],
        [3, 1, 1, 40, 1, 5],
        config={"mode": "capital"},
        capitals=[0, 4],
        eliminator=[-1, -1],
    )
    conquer(st, "b1", "b2")
    assert st.outcome() is None  # never in the middle of an occupation
    events = st.apply(0, A.Occupy(st.pending["min"] if st.pending else 1))
    outcome = st.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.reason == "held every capital" and outcome.places == ((0,), (1,))
    assert any(type(e).__name__ == "GameOver" for e in events)
    st.check()


def test_a_mission_of_territories_wins(position: Position) -> None:
    st = position(
        [0, 0, 0, 1, 1, 1],
        [2, 2, 30, 1, 1, 1],
        config={"mode": "mission"},
        missions=[
            {"kind": "territories", "territories": 4, "min_armies": 1},
            {"kind": "continents", "continents": [0]},
        ],
        eliminator=[-1, -1],
    )
    conquer(st, "a3", "b1")
    st.apply(0, A.Occupy(st.pending["min"] if st.pending else 1))
    outcome = st.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.reason == "completed the secret mission: Hold 4 territories"


def test_a_held_mission_needs_the_armies(position: Position) -> None:
    st = position(
        [0, 0, 0, 1, 1, 1],
        [1, 1, 30, 1, 1, 1],
        config={"mode": "mission"},
        missions=[
            {"kind": "territories", "territories": 3, "min_armies": 2},
            {"kind": "continents", "continents": [0]},
        ],
        eliminator=[-1, -1],
        phase="place",
        pool=2,
    )
    st.apply(0, A.Place("a1", 1))
    assert st.outcome() is None  # a2 still holds a single army
    st.apply(0, A.Place("a2", 1))
    outcome = st.outcome()
    assert outcome is not None and "at least 2 armies" in outcome.reason


def test_a_destroy_mission_fulfilled_by_another_becomes_territories(position: Position) -> None:
    st = position(
        [0, 0, 1, 1, 2, 1],
        [2, 2, 30, 1, 1, 1],
        players=3,
        config={"mode": "mission"},
        missions=[
            {"kind": "destroy", "target": 2},
            {"kind": "destroy", "target": 0},
            {"kind": "continents", "continents": [0]},
        ],
        eliminator=[-1, -1, -1],
        current=1,
    )
    assert current_mission(st, 0).kind == "destroy"
    st.armies[3] = 30
    st.apply(1, A.Blitz("b1", "b2", True))  # seat 1 takes seat 2's last territory
    assert st.eliminator[2] == 1
    now = current_mission(st, 0)
    assert now.kind == "territories" and now.territories == 4  # 57% of 6
    assert st.view(0).mission == now
    assert describe(st, now) == "Hold 4 territories"
    st.check()


def test_missions_are_secret_and_snapshots_keep_them() -> None:
    st = WorldWarState.create({"players": 3, "mode": "mission"}, 9)
    views = [st.view(s) for s in range(3)]
    assert [v.mission for v in views] == [current_mission(st, s) for s in range(3)]
    assert st.view(None).mission is None
    other = WorldWarState.from_dict(st.to_dict())
    other.missions[0] = Mission("territories", territories=1)
    assert other.view(1) == st.view(1) and other.view(2) == st.view(2)  # 0's is hidden
    assert other.view(0) != st.view(0)
    again = WorldWarState.from_dict(st.to_dict())
    assert again.to_dict() == st.to_dict() and again.missions == st.missions
    encoded = msgspec.json.encode(views[0])
    assert msgspec.json.decode(encoded, type=SPEC.view_type) == views[0]
    cap = WorldWarState.create({"players": 3, "mode": "capital"}, 9)
    assert WorldWarState.from_dict(cap.to_dict()).capitals == cap.capitals
    assert cap.view(None).capitals == tuple(cap.capitals)


def test_domination_snapshots_carry_no_mode() -> None:
    d = WorldWarState.create({"players": 2}, 3).to_dict()
    assert "mode" not in d["config"] and "modes" not in d["rules"]
    assert "missions" not in d and "capitals" not in d


def test_bad_modes_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="mode"):
        WorldWarState.create({"players": 2, "mode": "chess"}, 1)
    with pytest.raises(ConfigError, match="modes.mission.*territories_share"):
        WorldWarState.create(
            {
                "players": 2,
                "mode": "mission",
                "rules": {"modes": {"mission": {"territories_share": 2}}},
            },
            1,
        )
    broken = tmp_path / "rules.toml"
    broken.write_text(
        asset("worldwar", "rules", "rules.toml").read_text(encoding="utf-8")
        + "\n[modes.capital.extra]\nx = 1\n",
        encoding="utf-8",
    )
    with pytest.raises(DataError, match="rules.toml"):
        load_rules(broken)
    st = WorldWarState.create({"players": 3, "mode": "mission"}, 1)
    d = st.to_dict()
    d["missions"] = [{"kind": "sing"}]
    with pytest.raises(ValueError, match="mission"):
        WorldWarState.from_dict(d)


@pytest.mark.parametrize("mode", ["capital", "mission"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bots_play_each_mode_to_the_end(mode: str, seed: int) -> None:
    config = {"players": 4, "map": "random:18:4", "mode": mode, "cards": "increasing"}
    st = WorldWarState.create(config, seed)
    bots = [make_bot(SPEC, "easy") for _ in range(4)]
    rng = Rng(seed)
    for _ in range(20_000):
        seat = st.actor()
        if seat is None:
            break
        st.apply(seat, bots[seat].choose(st.view(seat), st.legal(seat), rng))
        st.check()
    outcome = st.outcome()
    assert outcome is not None
    assert len({s for place in outcome.places for s in place}) == 4
    if outcome.reason != "conquered every territory":
        assert outcome.reason.startswith(
            "held every capital" if mode == "capital" else "completed the secret mission"
        )
