"""Bots read every rule from the match's rules (issue 22 items 5 and 6): every bot plays
under a non-default value of every rule of the rules data without one illegal action and
without getting stuck; rule values that cannot be played are refused; a turn with
nothing to place moves on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from suite.core.match import ConfigError, IllegalAction
from suite.core.rng import Rng
from suite.worldwar.rules import SPEC
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.data import default_rules, rules_dict
from suite.worldwar.rules.engine import WorldWarState

BOTS = list(SPEC.bots)
"""Every registered bot: one seat each in every game below (up to six players)."""
PLAYERS = min(6, len(BOTS))
SEARCH_BUDGET = 24
"""Playouts per decision for bots that search (`iterations`), so the test stays quick."""
CARD_MODES = ["increasing", "royalty", "poker", "none"]
NOT_PLAY = {
    ("clock", "choices"),
    ("clock", "default"),
    ("setup", "min_players"),
    ("setup", "max_players"),
}
"""Rules the set-up screen and the host use, not the play of a turn."""


def leaves(d: dict[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    for key, value in d.items():
        if isinstance(value, dict):
            yield from leaves(value, (*path, key))
        else:
            yield (*path, key), value


def variants(value: Any) -> list[Any]:
    """Non-default values of one rule, near and far from the shipped one."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return sorted({0, max(0, value - 1), value + 1, value * 2 + 1} - {value})
    if isinstance(value, float):
        return [round(value * 0.6, 3), min(1.0, round(value * 1.3, 3))]
    return []


def nested(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    out: Any = value
    for key in reversed(path):
        out = {key: out}
    assert isinstance(out, dict)
    return out


def cases() -> list[tuple[tuple[str, ...], Any]]:
    found = []
    for path, value in leaves(rules_dict(default_rules())):
        if path[:2] in NOT_PLAY or path[0] == "clock":
            continue
        found += [(path, v) for v in variants(value)]
    return found


def play(rules: dict[str, Any], cards: str, mode: str, seed: int) -> WorldWarState:
    names = [BOTS[(seed + k) % len(BOTS)] for k in range(PLAYERS)]
    config = {
        "players": len(names),
        "map": "random:24:4",
        "cards": cards,
        "mode": mode,
        "rules": rules,
        "max_turns": 12,
        "defender": "ask",
    }
    st = SPEC.create(config, seed)
    assert isinstance(st, WorldWarState)
    bots = [SPEC.bots[name]() for name in names]
    for bot in bots:
        if hasattr(bot, "iterations"):
            bot.iterations = SEARCH_BUDGET
    rng = Rng(seed)
    for _ in range(20_000):
        if st.outcome() is not None:
            return st
        seat = st.actor()
        assert seat is not None
        legal = st.legal(seat)
        assert len(legal) > 0, f"{st.phase}: seat {seat} has nothing it may do"
        st.apply(seat, bots[seat].choose(st.view(seat), legal, rng))
    raise AssertionError("the game never ended")


@pytest.mark.parametrize(("path", "value"), cases(), ids=lambda x: str(x))
def test_every_bot_plays_under_every_rule(path: tuple[str, ...], value: Any) -> None:
    cards = path[1] if path[0] == "cards" and path[1] in CARD_MODES else "increasing"
    mode = path[1] if path[0] == "modes" else "domination"
    rules = nested(path, value)
    try:
        SPEC.create({"players": PLAYERS, "map": "random:24:4", "cards": cards, "rules": rules}, 1)
    except ConfigError:
        return  # refused: a value that cannot be played (see the test below)
    for seed in range(2):
        try:
            st = play(rules, cards, mode, seed)
        except IllegalAction as exc:
            raise AssertionError(f"a bot broke {'.'.join(path)} = {value}: {exc}") from exc
        assert st.outcome() is not None


def test_custom_stay_behind_games_end() -> None:
    """Issue 22.5: every bot game stopped with "needs at least 3 armies to attack"."""
    for stay in (2, 3, 5):
        st = play({"battle": {"stay_behind": stay}}, "increasing", "domination", 3)
        assert st.outcome() is not None


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"reinforcements": {"divisor": 0}}, "divisor"),
        ({"battle": {"stay_behind": 0}}, "stay_behind"),
        ({"setup": {"placement_step": 0}}, "placement_step"),
    ],
)
def test_rules_that_cannot_be_played_are_refused(rules: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        SPEC.create({"players": 4, "map": "random:24:4", "rules": rules}, 1)


def test_a_turn_with_nothing_to_place_moves_on() -> None:
    """reinforcements.minimum = 0: a seat with few territories gets nothing; its turn
    goes to the attack (or to the choice of a set), never to an empty list of actions."""
    st = SPEC.create(
        {
            "players": 3,
            "map": "classic",
            "cards": "none",
            "auto_place": True,
            "rules": {"reinforcements": {"minimum": 0, "divisor": 50}},
        },
        2,
    )
    assert isinstance(st, WorldWarState)
    empty = 0
    for _ in range(12):
        seat = st.actor()
        assert seat is not None
        if st.phase == "place":
            assert st.pool > 0
            mine = next(t for t, o in zip(st.topo.ids, st.owner, strict=True) if o == seat)
            st.apply(seat, A.Place(mine, st.pool))
            continue
        assert st.phase == "attack" and st.legal(seat)
        events = st.apply(seat, A.EndTurn())
        began = [e for e in events if isinstance(e, A.TurnBegan)]
        empty += sum(1 for e in began if e.reinforcements == 0)
    assert empty >= 3
