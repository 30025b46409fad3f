"""The WoK game contract: simultaneous orders, ready flags, views, saves, variants, endings."""

from __future__ import annotations

import pytest

from suite.core.match import IllegalAction, decode_action, encode, new_game
from suite.core.rng import Rng
from suite.wok.rules import SPEC, WokSpectatorView, WokState, WokView, create
from suite.wok.rules.orders import (
    Attack,
    Bomb,
    DeclareAlly,
    Move,
    OrderSet,
    Quit,
    SetReady,
    Spy,
    SubmitOrders,
    Transform,
    Upgrade,
    Vote,
)
from suite.wok.rules.turn import decide_end
from suite.wok.rules.world import NEUTRAL


def _home(state: WokState, colour: int) -> int:
    return next(p for p in range(state.world.n) if state.world.home[p] == colour)


def _submit_all(state: WokState, rng: Rng) -> None:
    for seat in sorted(state.awaiting()):
        space = state.legal(seat)
        assert not isinstance(space, list)
        state.apply(seat, space.sample(rng))


def test_registered_and_default_config_plays():
    assert SPEC.name == "wok" and set(SPEC.bots) == {"random", "robot", "general"}
    state = new_game("wok", SPEC.default_config(2), 3)
    assert isinstance(state, WokState)
    assert state.turn == 1 and state.awaiting() == frozenset({0, 1})
    assert state.board.name == "Trial"


def test_turn_zero_deals_non_adjacent_homes_and_reports():
    state = create({"players": 10}, 5)
    w = state.world
    homes = [p for p in range(w.n) if w.home[p] != NEUTRAL]
    assert len(homes) == 10
    assert all(b not in w.adj_sets[a] for a in homes for b in homes)
    p = homes[0]
    assert (w.wok[p], w.arm[p], w.lev[p], w.dfn[p], w.spy[p]) == (24, 12, 1.75, 10, 10)
    neutral = next(q for q in range(w.n) if w.owner[q] == NEUTRAL)
    assert (w.wok[neutral], w.arm[neutral], w.dfn[neutral]) == (16, 7, 3)  # 5 + turn 0's 2
    assert set(state.reports) == set(range(10))
    assert state.reports[0]["turn"] == 0 and state.reports[0]["next_oop"] == state.oop
    assert sorted(state.oop) == list(range(10))


def test_orders_can_be_revised_until_ready():
    state = create({"players": 2}, 1)
    h0 = _home(state, 0)
    first = SubmitOrders((OrderSet(0, transforms=(Transform(h0, "POP_WOK", 10),)),), ready=False)
    state.apply(0, first)
    assert state.awaiting() == frozenset({0, 1})
    second = SubmitOrders((OrderSet(0, transforms=(Transform(h0, "POP_ARM", 8),)),), ready=True)
    state.apply(0, second)
    assert state.awaiting() == frozenset({1})
    assert state.orders[0] == second.sets[0]
    state.apply(0, SetReady(False))
    assert state.awaiting() == frozenset({0, 1})
    state.apply(0, SetReady(True))
    arm_before = state.world.arm[h0]
    state.apply(1, SubmitOrders((OrderSet(1),)))
    assert state.turn == 2 and state.awaiting() == frozenset({0, 1})
    assert state.world.arm[h0] == arm_before + 2  # 8 POP -> 2 ARM, not the first draft


@pytest.mark.parametrize(
    ("orders", "reason"),
    [
        (OrderSet(0, attacks=tuple(Attack(0, 1, 5) for _ in range(8))), "at most 7"),
        (OrderSet(0, bombs=(Bomb(0, 1, 100),)), "bad amount"),
        (OrderSet(0, moves=(Move(0, 1, "ARM", 51),)), "bad amount"),
        (OrderSet(0, transforms=(Transform(0, "POP_ARM", 51),)), "bad amount"),
        (OrderSet(0, transforms=tuple(Transform(0, "POP_ARM", 4) for _ in range(4))), "POP->ARM"),
        (OrderSet(0, attacks=(Attack(0, 99, 5),)), "no such province"),
        (OrderSet(0, spies=tuple(Spy(0, 1, "SPY_PLAYER", 1) for _ in range(6))), "at most 5"),
        (OrderSet(0, upgrades=tuple(Upgrade("TECH") for _ in range(4))), "at most 3"),
        (OrderSet(1), "not yours"),
    ],
)
def test_entry_checks_refuse_and_leave_state_unchanged(orders, reason):
    state = create({"players": 2}, 1)
    before = state.to_dict()
    with pytest.raises(IllegalAction, match=reason):
        state.apply(0, SubmitOrders((orders,)))
    assert state.to_dict() == before


def test_save_load_round_trip_and_determinism():
    a = create({"players": 3, "map": "star-islands"}, 9)
    b = create({"players": 3, "map": "star-islands"}, 9)
    ra, rb = Rng(4), Rng(4)
    for _ in range(6):
        _submit_all(a, ra)
        _submit_all(b, rb)
    assert a.to_dict() == b.to_dict()
    c = WokState.from_dict(a.to_dict())
    assert c.to_dict() == a.to_dict()
    rc = Rng(8)
    ra = Rng(8)
    for _ in range(3):
        _submit_all(a, ra)
        _submit_all(c, rc)
    assert c.to_dict() == a.to_dict()


def test_broken_save_is_refused_with_a_reason():
    data = create({"players": 2}, 1).to_dict()
    del data["colours"]
    with pytest.raises(ValueError, match="missing 'colours'"):
        WokState.from_dict(data)


def test_actions_round_trip_through_json():
    action = SubmitOrders(
        (OrderSet(0, attacks=(Attack(1, 2, 3),), spies=(Spy(1, 2, "STEAL_GOLD", 4),)),)
    )
    assert decode_action("wok", encode(action)) == action


def test_views_hide_what_the_seat_has_not_seen():
    state = create({"players": 2}, 2)
    mine = state.view(0)
    assert isinstance(mine, WokView)
    other = _home(state, 1)
    own = _home(state, 0)
    assert mine.provinces[own].figures is not None and mine.provinces[own].figures.arm == 12
    assert mine.provinces[own].seen == state.turn
    assert mine.provinces[other].figures is None and mine.provinces[other].seen is None
    assert mine.provinces[other].owner == 1
    spectator = state.view(None)
    assert isinstance(spectator, WokSpectatorView)
    assert all(p.figures is None for p in spectator.provinces)
    state.province_intel[0] = {other: state.world.contents(other) | {"turn": 1}}
    seen = state.view(0).provinces[other]
    assert seen.seen == 1 and seen.figures is not None and seen.figures.arm == 12


def test_unanimous_vote_ends_with_shared_victory():
    state = create({"players": 2}, 2)
    state.apply(0, Vote(True))
    assert state.outcome() is None
    state.apply(1, Vote(True))
    out = state.outcome()
    assert out is not None and set(out.winners) == {0, 1} and out.reason == "unanimous vote"
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, SetReady(True))


def test_last_player_standing_and_rip_credit():
    state = create({"players": 3, "map": "star-islands"}, 2)
    w = state.world
    for p in w.owned(2):
        w.owner[p] = 0
    w.colours[2].alive = False
    assert decide_end(state) is None
    for p in w.owned(1):
        w.owner[p] = 0
    w.colours[1].alive = False
    out = decide_end(state)
    assert out is not None and out.winners == (0,)


def test_alliances_only_with_more_than_five_players_and_not_in_skirmish():
    small = create({"players": 2, "variant": "standard"}, 1)
    with pytest.raises(IllegalAction, match="alliances"):
        small.apply(0, DeclareAlly(0, 1))
    skirmish = create({"players": 6}, 1)
    with pytest.raises(IllegalAction, match="alliances"):
        skirmish.apply(0, DeclareAlly(0, 1))
    big = create({"players": 6, "variant": "standard", "map": "kaomaris"}, 1)
    big.apply(0, DeclareAlly(0, 1))
    big.apply(1, DeclareAlly(1, 0))
    w = big.world
    for c in range(2, 6):
        for p in w.owned(c):
            w.owner[p] = 0
        w.colours[c].alive = False
    out = decide_end(big)
    assert out is not None and out.winners == (0, 1) and out.reason == "alliance victory"


def test_quit_keeps_provinces_and_ends_a_two_player_game():
    state = create({"players": 2}, 1)
    home = _home(state, 1)
    state.apply(1, Quit())
    assert state.world.owner[home] == 1
    out = state.outcome()
    assert out is not None and out.winners == (0,)


def test_robot_colours_are_played_by_the_engine():
    state = create({"players": 5, "robots": 4, "map": "star-islands"}, 4)
    assert state.awaiting() == frozenset({0})
    assert [c.seat for c in state.world.colours] == [0, None, None, None, None]
    state.apply(0, SubmitOrders((OrderSet(0),)))
    assert state.turn == 2
    robot_home = _home(state, 1)
    assert state.world.aim[robot_home] == "MIN"


def test_duel_layout_naps_and_start_protection():
    state = create({"players": 2, "variant": "duel"}, 6)
    w = state.world
    assert [c.name for c in w.colours[:6]] == ["HanA", "HanB", "HanC", "KorA", "KorB", "KorC"]
    assert state.seat_colours == [[0, 1, 2], [3, 4, 5]]
    assert all(c.seat is None for c in w.colours[6:]) and len(w.board) == 60
    # HanA (0) owns a neutral next to a KorA (3) province: the NAP cancels the attack.
    ka = _home(state, 3)
    target = next(t for t in w.adj[ka] if w.home[t] == NEUTRAL)
    w.owner[target] = 3
    src = next(t for t in w.adj[target] if w.home[t] == NEUTRAL and t != ka)
    w.owner[src], w.arm[src] = 0, 50
    # HanB (1) next to KorA's home: start provinces are protected on turns 1-3.
    near = next(t for t in w.adj[ka] if w.home[t] == NEUTRAL and t not in (target, src))
    w.owner[near], w.arm[near] = 1, 50
    state.apply(
        0,
        SubmitOrders(
            (
                OrderSet(0, attacks=(Attack(src, target, 40),)),
                OrderSet(1, attacks=(Attack(near, ka, 40),)),
            )
        ),
    )
    state.apply(1, SubmitOrders((OrderSet(3),)))
    reasons = [c["reason"] for c in state.reports[0]["cancelled"]]
    assert any("napped with KorA until the start of turn 6" in r for r in reasons)
    assert any("start province" in c["reason"] for c in state.reports[1]["cancelled"])
    assert w.owner[target] == 3 and w.owner[ka] == 3


def test_duel_three_rips_win_and_all_colours_lost():
    state = create({"players": 2, "variant": "duel"}, 6)
    w = state.world
    w.colours[0].rips = [6, 7]
    w.colours[1].rips = [3]
    out = decide_end(state)
    assert out is not None and out.winners == (0,) and out.reason == "3 RIPs"
    state = create({"players": 2, "variant": "duel"}, 6)
    for c in (3, 4, 5):
        state.world.colours[c].alive = False
    out = decide_end(state)
    assert out is not None and out.winners == (0,)


def test_trinity_layout_has_no_naps():
    state = create({"players": 3, "variant": "trinity"}, 6)
    assert state.seat_colours == [[0, 1], [2, 3], [4, 5]]
    assert state.variant.nap_until == () and state.variant.protect_home_until == 3
    with pytest.raises(ValueError, match="trinity is for 3 players"):
        create({"players": 2, "variant": "trinity"}, 6)


def test_turn_cap_ends_by_score():
    state = create({"players": 2, "max_turns": 2}, 1)
    rng = Rng(1)
    _submit_all(state, rng)
    assert state.outcome() is None
    _submit_all(state, rng)
    out = state.outcome()
    assert out is not None and "turn limit" in out.reason and len(out.winners) == 1


def test_duel_quit_gives_the_other_player_the_win():
    state = create({"players": 2, "variant": "duel"}, 3)
    state.apply(0, Quit())
    out = state.outcome()
    assert out is not None and out.winners == (1,)
    assert all(state.world.colours[c].quit for c in (0, 1, 2))


def test_trinity_goes_on_after_one_player_quits():
    state = create({"players": 3, "variant": "trinity"}, 3)
    state.apply(2, Quit())
    assert state.outcome() is None and state.awaiting() == frozenset({0, 1})


def test_rules_import_no_pygame():
    import subprocess
    import sys

    code = (
        "import sys, suite.wok.rules as r; r.create({'players': 2}, 1); "
        "bad = [m for m in sys.modules if m.startswith(('pygame', 'suite.ui', 'suite.net'))]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_host_sets_the_headhunting_turns() -> None:
    from suite.core.match import ConfigError, new_game

    state = new_game("wok", {"players": 2, "headhunting_turns": 4}, 3)
    assert state.view(0).variant.protect_home_until == 4
    restored = type(state).from_dict(state.to_dict())
    assert restored.view(1).variant.protect_home_until == 4
    default = new_game("wok", {"players": 2}, 3).view(0).variant.protect_home_until
    assert default == 1
    with pytest.raises(ConfigError, match="headhunting_turns"):
        new_game("wok", {"players": 2, "headhunting_turns": -1}, 3)
