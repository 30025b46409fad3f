"""The engine's fast paths give what the plain ones give (issue 15, speed).

- views reuse the seat's last view when only the armies or the board changed: every view
  during play equals the view of a state rebuilt from its snapshot (no caches at all);
- `apply` checks field types with unrolled predicates: they agree with the core's
  `validate_action` on well- and badly-typed actions of every kind;
- the aggressive bot's placements drawn with `Rng.randbelows` are the draws of
  `randbelow` one at a time.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from suite.core.match import IllegalAction, validate_action
from suite.core.rng import Rng
from suite.worldwar.rules import SPEC
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.engine import WorldWarState, _well_typed

CONFIGS: list[dict[str, Any]] = [
    {"players": 2, "map": "classic", "cards": "none"},
    {"players": 3, "map": "classic", "cards": "increasing", "defender": "ask", "max_turns": 6},
    {"players": 3, "map": "classic", "cards": "poker", "mode": "mission", "max_turns": 6},
    {"players": 2, "map": "classic", "cards": "none", "mode": "capital", "max_turns": 8},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['players']}p-{c['cards']}")
def test_views_during_play_equal_views_built_from_scratch(config: dict[str, Any]) -> None:
    st = SPEC.create(config, 11)
    assert isinstance(st, WorldWarState)
    rng = Rng(3)
    names = ["aggressive", "easy", "random"]
    bots = [SPEC.bots[names[s % len(names)]]() for s in range(st.players)]
    seats: list[int | None] = [*range(st.players), None]
    steps = 0
    while st.result is None and steps < 400:
        fresh = WorldWarState.from_dict(st.to_dict())
        for seat in seats:
            assert st.view(seat) == fresh.view(seat), f"seat {seat} at step {steps}"
        seat = st.actor()
        assert seat is not None
        st.apply(seat, bots[seat].choose(st.view(seat), st.legal(seat), rng))
        steps += 1
    fresh = WorldWarState.from_dict(st.to_dict())
    assert all(st.view(seat) == fresh.view(seat) for seat in seats)


GOOD: list[A.Action] = [
    A.Place("alaska", 2),
    A.PlaceMany((("alaska", 1), ("peru", 2))),
    A.AutoPlace(),
    A.TurnIn((1, 2, 3)),
    A.Attack("alaska", "kamchatka", 3),
    A.Blitz("alaska", "kamchatka", True),
    A.Defend(2),
    A.Occupy(4),
    A.EndAttack(),
    A.Fortify("alaska", "alberta", 1),
    A.EndTurn(),
    A.SkipTurnIn(),
    A.TimeUp(),
]

BAD: list[A.Action] = [
    A.Place("alaska", 1.5),  # type: ignore[arg-type]
    A.Place(7, 1),  # type: ignore[arg-type]
    A.Place("alaska", True),
    A.PlaceMany((("alaska", 1), ("peru", 2.0))),  # type: ignore[arg-type]
    A.PlaceMany((("alaska", 1, 2),)),  # type: ignore[arg-type]
    A.TurnIn((1, "2", 3)),  # type: ignore[arg-type]
    A.Attack("alaska", "kamchatka", 3.0),  # type: ignore[arg-type]
    A.Blitz("alaska", "kamchatka", 1),  # type: ignore[arg-type]
    A.Blitz("alaska", None, True),  # type: ignore[arg-type]
    A.Defend(False),
    A.Occupy("4"),  # type: ignore[arg-type]
    A.Fortify("alaska", "alberta", 1.0),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("action", GOOD, ids=lambda a: type(a).__name__)
def test_fast_type_check_accepts_what_the_core_accepts(action: A.Action) -> None:
    assert validate_action(action, A.WorldWarAction) == action
    assert _well_typed(action)


@pytest.mark.parametrize("action", BAD, ids=repr)
def test_fast_type_check_refuses_what_the_core_refuses(action: A.Action) -> None:
    with pytest.raises(IllegalAction):
        validate_action(action, A.WorldWarAction)
    assert not _well_typed(action)
    st = SPEC.create({"players": 2, "map": "classic", "cards": "none"}, 1)
    before = st.to_dict()
    with pytest.raises(IllegalAction, match="malformed"):
        st.apply(st.current, action)
    assert st.to_dict() == before


def test_every_action_kind_has_a_good_example() -> None:
    kinds = {type(a) for a in GOOD}
    assert kinds == set(A.WorldWarAction.__args__)
    assert all(msgspec.json.decode(msgspec.json.encode(a), type=type(a)) == a for a in GOOD)


@pytest.mark.parametrize("n", [1, 2, 7, 42, 2**63 + 5])
def test_randbelows_are_randbelow_draws(n: int) -> None:
    many, single = Rng(9), Rng(9)
    assert many.randbelows(n, 150) == [single.randbelow(n) for _ in range(150)]
    for count in (1, 5, 7, 30, 64, 3):  # within a batch and across batches
        assert many.randbelows(n, count) == [single.randbelow(n) for _ in range(count)]
    assert many == single
    assert many.randbelows(n, 0) == []
    with pytest.raises(ValueError, match="n >= 1"):
        many.randbelows(0, 3)
