"""Legal actions worked out from a seat's view (`seat_legal`) agree with the engine.

`WorldWarState.legal` builds its list from the seat's view only (issue 25: no bot can
reach the engine through it). The engine's own validator stays the authority: at many
points of random games in every card mode, with defenders asked and not, every listed
action is accepted, and `contains` answers exactly as `allows` for the listed actions,
for near misses of them (one army or die too many, another seat, wrong types) and for
the unlisted `PlaceMany` and `TimeUp`.
"""

from __future__ import annotations

from typing import Any

import pytest

from suite.core.match import Action
from suite.core.rng import Rng
from suite.worldwar.rules import SPEC
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.bots import RandomBot
from suite.worldwar.rules.engine import WorldWarState


def near_misses(action: Action, ids: tuple[str, ...]) -> list[Any]:
    """Actions next to `action`: one more or less of its count, another territory."""
    out: list[Any] = []
    for field in ("armies", "dice"):
        if hasattr(action, field):
            n = getattr(action, field)
            out += [type(action)(**{**_fields(action), field: n + d}) for d in (-1, 1)]
            out.append(type(action)(**{**_fields(action), field: float(n)}))
    if hasattr(action, "territory"):
        out += [A.Place(t, 1) for t in ids[:6]]
        out.append(A.PlaceMany(((action.territory, 1), (ids[0], 1))))
        out.append(A.PlaceMany(((action.territory, 10**6),)))
    if isinstance(action, A.TurnIn):
        out.append(A.TurnIn(tuple(reversed(action.cards))))
        out.append(A.TurnIn((*action.cards[:-1], action.cards[0])))
    return out


def _fields(action: Action) -> dict[str, Any]:
    return {f: getattr(action, f) for f in action.__struct_fields__}


@pytest.mark.parametrize(
    ("cards", "defender", "clock"),
    [("increasing", "auto", 0), ("poker", "ask", 60), ("royalty", "auto", 0), ("none", "ask", 0)],
)
def test_view_legal_agrees_with_the_engine(cards: str, defender: str, clock: int) -> None:
    config = {"players": 3, "map": "classic", "cards": cards, "defender": defender}
    config.update({"clock": clock, "max_turns": 30})
    st = SPEC.create(config, 5)
    assert isinstance(st, WorldWarState)
    rng = Rng(3)
    bot = RandomBot()
    ids = st.topo.ids
    checked = 0
    step = 0
    while st.result is None and step < 4000:
        seat = st.actor()
        assert seat is not None
        legal = st.legal(seat)
        if step % 5 == 0:
            listed = list(legal)
            assert listed, f"nothing legal for the awaited seat in {st.phase}"
            assert all(st.allows(seat, a) for a in listed)
            picks = [listed[rng.randbelow(len(listed))] for _ in range(4)]
            tries = [*picks, A.TimeUp(), A.EndTurn(), A.SkipTurnIn(), A.AutoPlace()]
            most = st.view(seat).to_place()
            own = next(t for t in range(len(ids)) if st.owner[t] == seat)
            tries += [A.PlaceMany(((ids[own], most + d),)) for d in (0, 1)]
            for pick in picks:
                tries += near_misses(pick, ids)
            for action in tries:
                assert legal.contains(action) == st.allows(seat, action), (st.phase, action)
            for other in range(st.players):
                if other != seat:
                    assert list(st.legal(other)) == []
            checked += 1
        st.apply(seat, bot.choose(st.view(seat), legal, rng))
        step += 1
    assert checked > 50


@pytest.mark.parametrize("cards", ["none", "increasing"])
def test_one_moment_shares_one_view_and_one_list_equal_to_a_fresh_build(cards: str) -> None:
    """Issue 25 item 5: a decision's view and legal actions are made once per moment and
    shared; at every step they equal those of a state rebuilt from its snapshot (which
    has no cache), for the awaited seat, another seat and a spectator."""
    st = SPEC.create({"players": 3, "map": "classic", "cards": cards, "max_turns": 8}, 2)
    assert isinstance(st, WorldWarState)
    rng = Rng(4)
    bot = RandomBot()
    steps = 0
    while st.result is None and steps < 400:
        seat = st.actor()
        assert seat is not None
        view, legal = st.view(seat), st.legal(seat)
        assert st.view(seat) is view and st.legal(seat) is legal
        fresh = WorldWarState.from_dict(st.to_dict())
        for who in (seat, (seat + 1) % st.players, None):
            assert st.view(who) == fresh.view(who), (steps, who)
        assert list(st.legal(seat)) == list(fresh.legal(seat)) == list(legal)
        st.apply(seat, bot.choose(view, legal, rng))
        assert st.view(seat) is not view
        steps += 1
    assert steps > 100


def test_changes_made_by_hand_are_seen() -> None:
    """Armies and cards set by hand (as tests do) show in the next view at once; any
    other change by hand shows after `touch`. A view already handed out never changes."""
    st = SPEC.create({"players": 2, "map": "classic", "cards": "increasing"}, 1)
    assert isinstance(st, WorldWarState)
    seat = st.actor()
    assert seat is not None
    before = st.view(seat)
    legal = st.legal(seat)
    st.armies[0] += 5
    assert st.view(seat).armies[0] == before.armies[0] + 5
    assert before.armies[0] == st.armies[0] - 5
    st.hands[seat] = [0, 1]
    assert st.view(seat).hand == (0, 1)
    st.hands[seat] = [2, 1]
    assert st.view(seat).hand == (1, 2)
    st.hands[1 - seat] = [5, 6, 7]
    assert st.view(seat).hand_sizes[1 - seat] == 3
    other = st.owner[0] ^ 1
    st.owner[0] = other
    st.counts[other] += 1
    st.counts[1 - other] -= 1
    st.touch()
    assert st.view(seat).owner[0] == other
    assert st.view(seat).territory_counts == tuple(st.counts)
    assert st.legal(seat) is not legal
