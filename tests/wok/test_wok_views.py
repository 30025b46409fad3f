"""Typed views, the view-built action space, ready locks, typed configs and typed input.

Issue 11 items 2, 4, 7 and 8 and issue 13 items 3, 8 and 9 for WoK.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from suite.core.match import ConfigError, GameOver, IllegalAction, encode
from suite.core.rng import Rng
from suite.wok.rules import SPEC, WokEvent, WokSpectatorView, WokState, WokView, create
from suite.wok.rules.bots import GeneralBot
from suite.wok.rules.events import AllianceChanged
from suite.wok.rules.orders import (
    Attack,
    Bomb,
    DeclareAlly,
    OrderSet,
    SetReady,
    SubmitOrders,
    Transform,
    Vote,
)
from suite.wok.rules.space import WokActionSpace
from suite.wok.rules.views import WokViews


def _home(state: WokState, colour: int) -> int:
    return next(p for p in range(state.world.n) if state.world.home[p] == colour)


def _played(config: dict[str, Any], seed: int, turns: int) -> tuple[WokState, list[Any]]:
    state = create(config, seed)
    bot = GeneralBot()
    rng = Rng(seed)
    events: list[Any] = []
    for _ in range(turns):
        for seat in sorted(state.awaiting()):
            events += state.apply(seat, bot.choose(state.view(seat), state.legal(seat), rng))
    return state, events


def test_views_and_events_round_trip_through_json():
    state, events = _played({"players": 3, "map": "star-islands"}, 5, 6)
    for seat in (0, 1, 2, None):
        view = state.view(seat)
        back = msgspec.json.decode(msgspec.json.encode(view), type=WokViews)
        assert back == view and type(back) is type(view)
    assert isinstance(state.view(None), WokSpectatorView)
    assert events
    for event in events:
        assert msgspec.json.decode(msgspec.json.encode(event), type=WokEvent) == event


def test_seat_view_holds_what_a_screen_needs():
    state, _ = _played({"players": 2, "variant": "duel"}, 3, 2)
    v = state.view(0)
    assert isinstance(v, WokView)
    assert [c.letter for c in v.colours] == ["A", "B", "C"]
    assert [g.colours for g in v.variant.groups] == [(0, 1, 2), (3, 4, 5)]
    nap = v.colours[0].nap
    assert nap is not None and nap.partner == 3 and nap.until == 6
    assert nap.turns_left == 6 - state.turn
    assert v.colours[0].attacks_allowed == state.rules.attacks_allowed(state.world.colours[0].tech)
    assert v.limits.attack_orders == 7 and v.colours[0].upgrade_costs == (100, 200, 300)
    assert len(v.map.provinces) == state.world.n and v.map.provinces[0].polygon
    assert v.oop == tuple(state.oop) and v.reports and v.reports[0].turn == state.turn - 1
    assert v.top_ten and v.top_ten[0].score >= v.top_ten[-1].score
    assert v.clock.preset == "standard" and v.clock.deadline == 259200
    assert v.variant.robots == 4 and v.ruleset == "standard"


def _perturb(state: WokState, seat: int) -> None:
    """Change only `seat`'s hidden information: its figures, gold, drafts and intel."""
    w = state.world
    for c in state.seat_colours[seat]:
        w.colours[c].gold += 77
        w.colours[c].eff = max(1, w.colours[c].eff - 3)
        for p in w.owned(c):
            w.arm[p] += 5
            w.pop[p] = max(0, w.pop[p] - 1)
        state.province_intel[c] = {0: w.contents(0) | {"turn": 1}}
    if seat not in state.ready:
        colour = state.seat_colours[seat][0]
        src = _home(state, colour)
        orders = OrderSet(colour, transforms=(Transform(src, "POP_ARM", 8),))
        state.apply(seat, SubmitOrders((orders,), ready=False))


def test_other_seats_hidden_information_changes_neither_view_nor_legal():
    state, _ = _played({"players": 3, "map": "star-islands"}, 8, 2)
    living = [s for s in range(3) if s in state.awaiting()]
    assert len(living) >= 2
    viewer, owner = living[0], living[1]
    others = [s for s in (0, 1, 2, None) if s != owner]
    before = {s: state.view(s) for s in others}
    space = state.legal(viewer)
    assert isinstance(space, WokActionSpace)
    desc = json.dumps(space.describe(), sort_keys=True)
    _perturb(state, owner)
    assert before == {s: state.view(s) for s in others}
    space = state.legal(viewer)
    assert isinstance(space, WokActionSpace)
    assert json.dumps(space.describe(), sort_keys=True) == desc


def _reachable(obj: Any, seen: set[int], depth: int = 0) -> list[Any]:
    if id(obj) in seen or depth > 8:
        return []
    seen.add(id(obj))
    out = [obj]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _reachable(k, seen, depth + 1) + _reachable(v, seen, depth + 1)
    elif isinstance(obj, list | tuple | set | frozenset):
        for v in obj:
            out += _reachable(v, seen, depth + 1)
    elif isinstance(obj, msgspec.Struct):
        for f in obj.__struct_fields__:
            out += _reachable(getattr(obj, f), seen, depth + 1)
    elif hasattr(obj, "__dict__"):
        out += _reachable(vars(obj), seen, depth + 1)
    return out


def test_action_space_reaches_no_state():
    from suite.wok.rules.world import World

    state, _ = _played({"players": 2}, 4, 2)
    space = state.legal(0)
    assert isinstance(space, WokActionSpace)
    found = _reachable(space, set())
    assert not [o for o in found if isinstance(o, WokState | World)]
    json.dumps(space.describe())  # JSON-safe


def test_ready_locks_orders_until_unready():
    state = create({"players": 2}, 1)
    h0 = _home(state, 0)
    first = SubmitOrders((OrderSet(0, transforms=(Transform(h0, "POP_ARM", 8),)),), ready=True)
    state.apply(0, first)
    space = state.legal(0)
    assert isinstance(space, WokActionSpace) and not space.describe()["may_submit"]
    second = SubmitOrders((OrderSet(0),), ready=True)
    assert not space.contains(second)
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="locked while you are ready"):
        state.apply(0, second)
    assert state.to_dict() == before
    assert space.contains(SetReady(False)) and space.sample(Rng(1)) == SetReady(False)
    state.apply(0, SetReady(False))
    space = state.legal(0)
    assert isinstance(space, WokActionSpace) and space.contains(second)
    state.apply(0, second)
    assert state.orders[0] == second.sets[0]


@pytest.mark.parametrize(
    ("seat", "action", "reason"),
    [
        (1.0, SetReady(True), "whole number"),
        (True, SetReady(True), "whole number"),
        (5, SetReady(True), "no seat 5"),
        (0, SubmitOrders((OrderSet(0, attacks=(Attack(1, 2, 1.5),)),)), "malformed"),  # type: ignore[arg-type]
        (0, SubmitOrders((OrderSet(0, bombs=(Bomb(1, 2, "9"),)),)), "malformed"),  # type: ignore[arg-type]
        (0, SetReady(1), "malformed"),  # type: ignore[arg-type]
    ],
)
def test_wrong_typed_seats_and_actions_are_refused_unchanged(seat, action, reason):
    state = create({"players": 2}, 1)
    before = state.to_dict()
    with pytest.raises(IllegalAction, match=reason):
        state.apply(seat, action)
    assert state.to_dict() == before
    assert state.refusal(seat, action) is not None


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"players": 2, "ruleset": "wok5"}, "unknown ruleset 'wok5' \\(key `ruleset`; have: "),
        ({"players": 2, "ruleset": "intermediate", "variant": "duel"}, "unknown variant 'duel'"),
        ({"players": 2, "names": 5}, "Expected `array`, got `int` \\(key `names`\\)"),
        ({"players": 2, "rules": "standard"}, "unknown wok config key 'rules' \\(known: .*ruleset"),
        ({"players": 2, "variant": "blitz"}, "unknown variant 'blitz' \\(key `variant`"),
        ({"players": "two"}, "key `players`"),
        ({"players": 3, "variant": "duel"}, "duel is for 2 players, not 3"),
        ({"players": 4, "names": ["A", "B"]}, "names lists 2 names for 4 seats"),
        ({"players": 2, "names": ["Ann", "  "]}, "name 2 is empty \\(key `names`\\)"),
        ({"players": 2, "names": ["Ann", "ann "]}, "two players are named 'ann'"),
        ({"players": 2, "names": ["Ann", "B" * 17]}, "at most 16 printable characters"),
        ({"players": 2, "headhunting_turns": 100}, "headhunting_turns must be 0..99"),
    ],
)
def test_bad_configs_are_refused_naming_the_key(config, message):
    with pytest.raises(ConfigError, match=message):
        create(config, 1)


def test_variants_with_one_player_count_take_it():
    assert len(create({"variant": "duel"}, 1).seat_colours) == 2
    assert len(create({"variant": "trinity"}, 1).seat_colours) == 3
    assert SPEC.config_type is not None and SPEC.ui == "suite.wok.screens:UI"


def test_sim_refuses_a_ruleset_that_does_not_exist(capsys: pytest.CaptureFixture[str]) -> None:
    from suite.cli import main

    assert main(["sim", "wok", "--set", "ruleset=nonesuch"]) == 2
    assert "unknown ruleset 'nonesuch' (key `ruleset`" in " ".join(capsys.readouterr().err.split())
    assert main(["sim", "wok", "--set", "names=5"]) == 2
    assert "key `names`" in " ".join(capsys.readouterr().err.split())


def test_entering_orders_resets_the_missed_turn_count():
    state = create({"players": 3, "map": "star-islands"}, 2)

    def turn(orders_from_2: bool) -> None:
        state.apply(0, SubmitOrders((OrderSet(0),)))
        if orders_from_2:
            state.apply(2, SubmitOrders((OrderSet(2),), ready=False))
        state.apply(1, SubmitOrders((OrderSet(1),)))
        if state.awaiting() == frozenset({2}):
            state.run()

    turn(False)
    turn(False)
    assert state.missed[2] == 2
    turn(True)  # entered orders, never marked ready
    assert state.missed[2] == 0
    turn(False)
    assert state.missed[2] == 1 and not state.seat_quit[2]


def test_only_mutual_alliances_are_public():
    state = create({"players": 6, "variant": "standard", "map": "kaomaris"}, 1)
    events = state.apply(0, DeclareAlly(0, 1))
    assert not [e for e in events if isinstance(e, AllianceChanged)]
    assert state.view(2).players[0].ally is None and state.view(None).players[0].ally is None
    v0 = state.view(0)
    assert isinstance(v0, WokView) and v0.colours[0].ally == 1
    events = state.apply(1, DeclareAlly(1, 0))
    assert AllianceChanged(0, 1, True) in events
    assert state.view(2).players[0].ally == 1 and state.view(2).players[1].ally == 0
    events = state.apply(1, DeclareAlly(1, None))
    assert AllianceChanged(0, 1, False) in events
    assert state.view(2).players[0].ally is None


def test_bombed_player_sees_the_source_province_not_the_player():
    state = create({"players": 2, "map": "trial"}, 3)
    w = state.world
    target = _home(state, 1)
    src = next(p for p in w.adj[target] if w.owner[p] != 1)
    w.owner[src], w.mis[src] = 0, 20
    bomb = OrderSet(0, bombs=(Bomb(src, target, 20),))
    state.turn = 2  # past the start protection
    state.oop = [0, 1]
    state.apply(0, SubmitOrders((bomb,)))
    state.apply(1, SubmitOrders((OrderSet(1),)))
    mine = state.reports[0]["bombings"][0]
    theirs = state.reports[1]["bombings"][0]
    assert mine["by"] == 0 and mine["source"] == src
    assert "by" not in theirs and theirs["source"] == src and theirs["fired"] == 20
    v1 = state.view(1)
    assert isinstance(v1, WokView) and v1.reports[0].bombings[0].by is None


def test_game_over_is_the_core_event():
    state = create({"players": 2}, 2)
    state.apply(0, Vote(True))
    events = state.apply(1, Vote(True))
    over = [e for e in events if isinstance(e, GameOver)]
    assert len(over) == 1 and over[0].outcome == state.outcome()
    assert encode(over[0])["kind"] == "game_over"


def test_check_names_a_broken_invariant():
    state = create({"players": 2}, 2)
    state.check()
    state.world.arm[0] = -1
    with pytest.raises(AssertionError, match="province 0: troops -1"):
        state.check()
