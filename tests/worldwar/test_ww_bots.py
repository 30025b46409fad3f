"""World War bots: every bot plays whole games with legal actions only, in every mode;
the hard bot's choices are sensible in set positions. (Strength over hundreds of games
is measured in tests/bench/test_bench_worldwar.py.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from suite.core.board import Board
from suite.core.match import Outcome
from suite.core.rng import Rng
from suite.worldwar.rules import SPEC, bots
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.bots import EasyBot, HardBot
from suite.worldwar.rules.engine import WorldWarState

Position = Callable[..., WorldWarState]
BOTS = ["random", "easy", "hard", "aggressive"]


def play(
    st: WorldWarState, bots: list[Any], rng: Rng, max_steps: int
) -> tuple[Outcome | None, int]:
    """Bots play to the end through view/legal/apply (apply refuses anything illegal)."""
    steps = 0
    while st.outcome() is None and steps < max_steps:
        seat = st.actor()
        assert seat is not None and st.awaiting() == frozenset({seat})
        st.apply(seat, bots[seat].choose(st.view(seat), st.legal(seat), rng))
        steps += 1
    return st.outcome(), steps


@pytest.mark.parametrize("mode", ["increasing", "royalty", "poker", "none"])
def test_all_bots_finish_games_on_the_classic_map(mode: str) -> None:
    for seed in range(2):
        st = SPEC.create({"players": 4, "map": "classic", "cards": mode}, seed)
        bots = [SPEC.bots[name]() for name in BOTS]
        outcome, steps = play(st, bots, Rng(seed), 20_000)
        assert outcome is not None and steps > 0
        assert outcome.winners and outcome.places[0] == outcome.winners


@pytest.mark.parametrize("name", BOTS)
def test_each_bot_handles_asked_defence_and_small_boards(small_board: Board, name: str) -> None:
    st = WorldWarState.new(small_board, {"players": 3, "defender": "ask", "cards": "poker"}, 4)
    bots = [SPEC.bots[name]() for _ in range(3)]
    outcome, _ = play(st, bots, Rng(1), 20_000)
    assert outcome is not None


def test_hard_bot_attacks_only_when_it_pays(position: Position) -> None:
    bot = HardBot()
    weak = position([0, 0, 0, 1, 1, 1], [1, 1, 2, 9, 1, 1], cards="none")
    assert bot.choose(weak.view(0), weak.legal(0), Rng(0)) == A.EndAttack()
    strong = position([0, 0, 0, 1, 1, 1], [1, 1, 12, 2, 1, 1], cards="none")
    assert bot.choose(strong.view(0), strong.legal(0), Rng(0)) == A.Blitz("a3", "b1", False)


def test_hard_bot_places_on_its_front_and_fortifies_it(position: Position) -> None:
    bot = HardBot()
    st = position([0, 0, 0, 1, 1, 1], [1, 5, 2, 3, 1, 1], phase="place", pool=4)
    assert bot.choose(st.view(0), st.legal(0), Rng(0)) == A.Place("a3", 4)
    st = position([0, 0, 0, 1, 1, 1], [1, 5, 2, 3, 1, 1], phase="fortify")
    assert bot.choose(st.view(0), st.legal(0), Rng(0)) == A.Fortify("a2", "a3", 4)


def test_hard_bot_occupies_toward_the_enemy(position: Position) -> None:
    bot = HardBot()
    st = position(
        [0, 0, 0, 0, 1, 1],
        [1, 1, 4, 3, 5, 1],
        phase="occupy",
        pending={"source": 2, "target": 3, "min": 3},
    )
    # a3 has no enemy neighbour left: everything but one army goes into b1.
    assert bot.choose(st.view(0), st.legal(0), Rng(0)) == A.Occupy(6)


def test_bots_finish_a_beaten_opponent(position: Position, monkeypatch: pytest.MonkeyPatch) -> None:
    # Seat 2 holds one territory (b2); seat 0's b1 outnumbers it by one army only.
    owners, armies = [0, 0, 0, 0, 2, 1], [2, 2, 2, 4, 3, 1]
    st = position(owners, armies, players=3, cards="none")
    assert EasyBot().choose(st.view(0), st.legal(0), Rng(0)) == A.Blitz("b1", "b2", True)
    st = position(owners, [2, 2, 2, 8, 3, 1], players=3, cards="none")
    assert HardBot().choose(st.view(0), st.legal(0), Rng(0)) == A.Blitz("b1", "b2", False)
    # With nobody beaten, the easy bot keeps its two-army margin.
    monkeypatch.setattr(bots, "FINISH", 1)
    calm = position([0, 0, 0, 0, 1, 1], armies, players=2, cards="none")
    assert EasyBot().choose(calm.view(0), calm.legal(0), Rng(0)) == A.EndTurn()
