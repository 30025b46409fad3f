"""Hypothesis invariants: armies accounted exactly, no territory ever empty, cards
conserved, and every illegal action refused with a reason and the state unchanged."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.core.board import Board
from suite.core.match import IllegalAction
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.engine import WorldWarState
from suite.worldwar.rules.views import WorldWarView

TERRITORIES = ["a1", "a2", "a3", "b1", "b2", "b3", "nowhere"]


def wild_action(data: st.DataObject) -> A.Action:
    """Any action with arbitrary fields: mostly illegal, sometimes legal."""
    terr = st.sampled_from(TERRITORIES)
    num = st.integers(-1, 6)
    return data.draw(
        st.one_of(
            st.builds(A.Place, terr, num),
            st.builds(A.PlaceMany, st.lists(st.tuples(terr, num), max_size=3).map(tuple)),
            st.builds(A.TurnIn, st.lists(st.integers(-1, 52), max_size=6).map(tuple)),
            st.builds(A.Attack, terr, terr, num),
            st.builds(A.Blitz, terr, terr, st.booleans()),
            st.builds(A.Defend, num),
            st.builds(A.Occupy, st.integers(-1, 60)),
            st.builds(A.Fortify, terr, terr, num),
            st.just(A.EndAttack()),
            st.just(A.EndTurn()),
            st.just(A.SkipTurnIn()),
        )
    )


def event_delta(events: list[Any]) -> int:
    """Armies added minus armies lost according to the events alone."""
    delta = 0
    for e in events:
        if isinstance(e, A.Placed):
            delta += e.armies
        elif isinstance(e, (A.DiceRolled, A.BattleFought)):
            delta -= e.attacker_loss + e.defender_loss
    return delta


def check_invariants(s: WorldWarState, deck_size: int) -> None:
    assert all(a >= 1 for a in s.armies), "a territory is empty"
    assert sum(s.armies) == s.placed_total - s.lost_total
    assert s.counts == [s.owner.count(p) for p in range(s.players)]
    for p in range(s.players):
        assert s.alive[p] == (s.counts[p] > 0)
    cards = sorted(s.deck + [c for h in s.hands for c in h])
    assert cards == list(range(deck_size))


def check_view(s: WorldWarState, seat: int) -> None:
    """A fresh view shows the board as it is now (its cached tuples are not stale)."""
    v = s.view(seat)
    assert list(v.owner) == s.owner and list(v.armies) == s.armies
    assert list(v.territory_counts) == s.counts and list(v.alive) == s.alive
    assert list(v.setup_left) == s.setup_left
    assert list(v.hand) == sorted(s.hands[seat])
    assert list(v.hand_sizes) == [len(h) for h in s.hands]
    assert msgspec.json.decode(msgspec.json.encode(v), type=WorldWarView) == v


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    players=st.integers(2, 3),
    mode=st.sampled_from(["increasing", "royalty", "poker", "none"]),
    defender=st.sampled_from(["auto", "ask"]),
    seed=st.integers(0, 10_000),
)
def test_random_play_keeps_invariants(
    small_board: Board, data: st.DataObject, players: int, mode: str, defender: str, seed: int
) -> None:
    s = WorldWarState.new(
        small_board, {"players": players, "cards": mode, "defender": defender, "clock": 60}, seed
    )
    deck_size = 0 if s.deck_rules is None else len(s.deck_rules)
    on_board = sum(s.armies)
    check_invariants(s, deck_size)
    for _ in range(120):
        if s.outcome() is not None:
            break
        seat = s.actor()
        assert seat is not None
        old_view = s.view(seat)
        old_json = msgspec.json.encode(old_view)
        if data.draw(st.booleans()):
            action = wild_action(data)
            who = data.draw(st.sampled_from([seat, (seat + 1) % players]))
            before = msgspec.json.encode(s.to_dict())
            try:
                events = s.apply(who, action)
            except IllegalAction as exc:
                assert exc.reason
                assert msgspec.json.encode(s.to_dict()) == before
                assert msgspec.json.encode(old_view) == old_json
                continue
        else:
            legal = s.legal(seat)
            if data.draw(st.integers(0, 9)) == 0:
                action = A.TimeUp()
            else:
                action = legal[data.draw(st.integers(0, len(legal) - 1))]
            events = s.apply(seat, action)
        on_board += event_delta(events)
        assert sum(s.armies) == on_board
        check_invariants(s, deck_size)
        assert msgspec.json.encode(old_view) == old_json, "a view changed after apply"
        seat = s.actor()
        if seat is not None:
            s.check()
            check_view(s, seat)
    restored = WorldWarState.from_dict(s.to_dict(), board=small_board)
    assert restored.to_dict() == s.to_dict()
