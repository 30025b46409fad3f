"""A match's own rules (config "rules") reach everything: the engine's single rolls, the
blitz and the odds it resolves through, the bots, views, saves and replays (issue 15.2)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from suite.core.match import ConfigError, IllegalAction, Replay
from suite.core.rng import Rng
from suite.worldwar.rules import SPEC
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.bots import HardBot
from suite.worldwar.rules.engine import WorldWarState
from suite.worldwar.rules.odds import odds_for

Position = Callable[..., WorldWarState]
ONE_DIE = {"battle": {"attacker_max_dice": 1}}
TRIALS = 1500


def monte_carlo_by_single_rolls(position: Position, rules: dict[str, object]) -> float:
    """How often 10 armies take a territory of 5 rolling the engine's real dice, one
    `Attack` at a time with the most dice the match allows (no odds code involved)."""
    wins = 0
    for seed in range(TRIALS):
        st = position([0, 0, 0, 1, 1, 1], [2, 2, 10, 5, 1, 1], seed=seed, config={"rules": rules})
        while st.phase == "attack" and st.armies[2] > 1 and st.owner[3] == 1:
            st.apply(0, A.Attack("a3", "b1", min(st.att_max, st.armies[2] - 1)))
        wins += st.owner[3] == 0
    return wins / TRIALS


def blitz_rate(position: Position, rules: dict[str, object]) -> float:
    wins = 0
    for seed in range(TRIALS):
        st = position([0, 0, 0, 1, 1, 1], [2, 2, 10, 5, 1, 1], seed=seed, config={"rules": rules})
        st.apply(0, A.Blitz("a3", "b1", True))
        wins += st.owner[3] == 0
    return wins / TRIALS


def test_one_die_battles_follow_the_matchs_rules(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [2, 2, 10, 5, 1, 1], config={"rules": ONE_DIE})
    exact = odds_for(st.rules.battle).battle(10, 5).win
    default = odds_for().battle(10, 5).win
    assert 0.25 < exact < 0.32 and default > 0.85  # issue 15: 28 % against 88 %
    sd = (exact * (1 - exact) / TRIALS) ** 0.5
    assert abs(monte_carlo_by_single_rolls(position, ONE_DIE) - exact) < 4 * sd
    assert abs(blitz_rate(position, ONE_DIE) - exact) < 4 * sd


def test_single_rolls_use_the_matchs_dice(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [2, 2, 10, 5, 1, 1], config={"rules": ONE_DIE})
    with pytest.raises(IllegalAction, match="1 to 1 dice"):
        st.apply(0, A.Attack("a3", "b1", 2))
    events = st.apply(0, A.Attack("a3", "b1", 1))
    rolled = [e for e in events if isinstance(e, A.DiceRolled)]
    assert len(rolled[0].attacker_dice) == 1 and len(rolled[0].defender_dice) == 2
    view = st.view(0)
    assert view.rules.attacker_max_dice == 1 and view.attack_dice(2) == 1


def test_bots_read_the_matchs_dice(position: Position) -> None:
    st = position(
        [0, 0, 0, 1, 1, 1],
        [2, 2, 10, 5, 1, 1],
        config={"rules": {"battle": {"defender_max_dice": 3}}, "defender": "ask"},
    )
    st.apply(0, A.Attack("a3", "b1", 3))
    assert st.phase == "defend"
    choice = HardBot().choose(st.view(1), st.legal(1), Rng(0))
    assert choice == A.Defend(3)


def test_rules_travel_with_saves_and_replays(tmp_path: Path) -> None:
    config = {"players": 2, "map": "classic", "cards": "none", "rules": ONE_DIE}
    st = SPEC.create(config, 5)
    assert isinstance(st, WorldWarState)
    assert st.to_dict()["rules"]["battle"]["attacker_max_dice"] == 1
    back = WorldWarState.from_dict(st.to_dict())
    assert back.rules == st.rules and back.rules.battle.attacker_max_dice == 1
    replay = Replay(game="worldwar", config=config, seed=5)
    path = tmp_path / "r.json"
    replay.save(path)
    again = Replay.load(path).start()
    assert isinstance(again, WorldWarState) and again.rules.battle.attacker_max_dice == 1


def test_bad_custom_rules_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="attacker_max_dice"):
        SPEC.create({"rules": {"battle": {"attacker_max_dice": "three"}}}, 1)
    with pytest.raises(ConfigError, match="at least 1"):
        SPEC.create({"rules": {"battle": {"attacker_max_dice": 0}}}, 1)
