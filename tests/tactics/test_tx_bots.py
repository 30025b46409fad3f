"""Bots: legal choices, sensible attacks, a seeded golden battle per bot level.

Golden battles pin a whole seeded battle per bot; set TX_REGEN=1 to rewrite
`golden/tx_battles.json` after an intended rule or bot change (and review the diff).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from suite.core.rng import Rng
from suite.tactics.rules import actions as A
from suite.tactics.rules.arena import duel_series, make_bot, play_battle
from suite.tactics.rules.bots import HardBot, NormalBot
from suite.tactics.rules.expert import ExpertBot
from suite.tactics.rules.state import TacticsState

GOLDEN = Path(__file__).parent / "golden" / "tx_battles.json"
SMALL = {"players": 2, "map": 1, "armies": [[1, 2, 8, 10], [1, 2, 8, 10]]}


def summary(state: TacticsState, steps: int) -> dict[str, Any]:
    outcome = state.outcome()
    assert outcome is not None
    return {
        "places": [list(p) for p in outcome.places],
        "reason": outcome.reason,
        "round": state.round,
        "units": [[u.uid, u.hp, u.level, u.xp, u.cell] for u in state.units],
        "steps": steps,
    }


def golden_run(name: str) -> dict[str, Any]:
    state = TacticsState.create(SMALL, 11)
    bots = [make_bot(name), make_bot(name)]
    rng = Rng(99)
    steps = 0
    while state.outcome() is None:
        seat = state.current
        legal = state.legal(seat)
        action = bots[seat].choose(state.view(seat), legal, rng)
        assert action in legal
        state.apply(seat, action)
        steps += 1
    return summary(state, steps)


@pytest.mark.parametrize("name", ["random", "normal", "hard", "expert"])
def test_golden_battle(name: str) -> None:
    got = golden_run(name)
    stored = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("TX_REGEN"):
        stored[name] = got
        GOLDEN.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    assert stored.get(name) == got


def _ready(seed: int) -> tuple[TacticsState, int, int]:
    state = TacticsState.create(SMALL, seed)
    attacker = state.alive_units(state.current)[0]
    target = state.alive_units(1 - state.current)[0]
    for unit, (x, y) in ((attacker, (5, 5)), (target, (6, 5))):
        state.occupied[unit.cell] = 0
        unit.cell = state.terrain.index(x, y)
        state.occupied[unit.cell] = unit.uid + 1
    target.hp = 1
    return state, attacker.uid, target.uid


@pytest.mark.parametrize("bot", [NormalBot(), HardBot(), ExpertBot()])
def test_bots_take_a_sure_kill(bot: NormalBot) -> None:
    state, attacker, target = _ready(3)
    seat = state.current
    state.apply(seat, A.Select(attacker))
    choice = bot.choose(state.view(seat), state.legal(seat), Rng(1))
    state.apply(seat, choice)
    assert state.phase == "attack"
    assert bot.choose(state.view(seat), state.legal(seat), Rng(1)) == A.Attack(target)


def test_normal_beats_random_in_a_short_series() -> None:
    wins = duel_series({"players": 2, "map": 1, "army_size": 4}, ("normal", "random"), 4)
    assert wins["normal"] >= 3


def test_play_battle_reaches_the_end_with_four_bots() -> None:
    names = ["random", "normal", "random", "normal"]
    state = play_battle({"players": 4, "map": 1, "army_size": 3}, 5, [make_bot(n) for n in names])
    outcome = state.outcome()
    assert outcome is not None and len(outcome.places) >= 1
    with pytest.raises(ValueError, match="unknown tactics bot"):
        make_bot("genius")


def test_cautious_bots_march_and_fight_instead_of_waiting() -> None:
    """RULINGS T17: hard bots used to keep out of each other's reach until the battle
    ended on the stalemate count; now they march to firing positions and fight (this
    seed on Twin Rivers ended in a stalemate before)."""
    from suite.tactics.rules.arena import mirror_army

    army = mirror_army({"players": 2, "map": 2}, 501)
    setup = {"players": 2, "map": 2, "armies": [army, army]}
    state = play_battle(setup, 502, [make_bot("hard"), make_bot("hard")])
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "one army left"


def test_a_bot_without_an_attack_moves_toward_a_firing_position() -> None:
    """T17: with no attack in reach the bot moves the piece that gets closest to a tile
    from which it could hit an enemy, rather than ending its turn."""
    from suite.tactics.rules.bots import Analysis

    state = TacticsState.create(SMALL, 4)
    seat = state.current
    bot = HardBot()
    choice = bot.choose(state.view(seat), state.legal(seat), Rng(1))
    assert isinstance(choice, A.Select)
    state.apply(seat, choice)
    unit = state.units[choice.piece]
    analysis = Analysis(state, seat, bot.aggression, aware=True)
    before = analysis.field(unit)[unit.cell]
    move = bot.choose(state.view(seat), state.legal(seat), Rng(1))
    assert isinstance(move, A.Move)
    state.apply(seat, move)
    assert analysis.field(unit)[unit.cell] < before
