"""Bot-against-bot battles for measurements (bot strength, the balance report).

`play_battle` runs one battle to its end with one bot per seat and returns the state;
`duel_series` plays a series with swapped seats and counts the wins of each bot name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from suite.core.bots import Bot
from suite.core.rng import Rng
from suite.tactics.rules import BOTS_BY_NAME as BOTS
from suite.tactics.rules.state import TacticsState


def make_bot(name: str) -> Bot:
    """A fresh bot by name ("random", "normal", "hard", "expert"); ValueError for others."""
    if name not in BOTS:
        raise ValueError(f"unknown tactics bot {name!r} (have {', '.join(BOTS)})")
    bot: Bot = BOTS[name]()
    return bot


def play_battle(
    config: Mapping[str, Any],
    seed: int,
    bots: Sequence[Bot],
    max_steps: int = 100_000,
) -> TacticsState:
    """Play one battle with `bots[seat]` for each seat; returns the finished state (or the
    state after `max_steps` actions, which a battle never needs within its round limit)."""
    state = TacticsState.create(config, seed)
    rng = Rng(seed + 7_919)
    for _ in range(max_steps):
        if state.outcome() is not None:
            break
        seat = state.current
        action = bots[seat].choose(state.view(seat), state.legal(seat), rng)
        state.apply(seat, action)
    return state


def mirror_army(config: Mapping[str, Any], seed: int) -> list[int]:
    """A random army from the config's pack, the same for every seat."""
    state = TacticsState.create({**config, "armies": None}, seed)
    return [u.kind for u in state.units if u.seat == 0]


def duel_series(
    config: Mapping[str, Any],
    names: tuple[str, str],
    battles: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    mirror: bool = True,
) -> Counter[str]:
    """`battles` 1-vs-1 battles between two bot names, seats swapped every other battle;
    counts wins by name ("draw" for shared first places). With `mirror` both seats get
    the same random army (drawn per pair of battles), so only the play differs."""
    wins: Counter[str] = Counter()
    for i in range(battles):
        order = names if i % 2 == 0 else (names[1], names[0])
        setup = dict(config)
        if mirror:
            army = mirror_army(config, seed + i // 2)
            setup["armies"] = [army, army]
        state = play_battle(setup, seed + i, [make_bot(n) for n in order])
        outcome = state.outcome()
        if outcome is None or len(outcome.winners) != 1:
            wins["draw"] += 1
        else:
            wins[order[outcome.winners[0]]] += 1
        if progress is not None:
            progress(i + 1)
    return wins
