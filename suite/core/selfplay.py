"""Playing one match to its end with bots: the loop of `suite sim` (`play_one`).

The loop runs once per action, so it costs as much as a cheap engine's action: it asks
the state for the outcome and the awaited seats once a step, takes the usual case of a
single awaited seat without sorting, and is compiled with mypyc (setup.py's COMPILED),
like World War's engine, so that the loop adds next to nothing to what the engine and the
bots spend. Every bot still gets only `view(seat)` and `legal(seat)` (the Bot contract).

This module holds no record type, so it can be compiled (setup.py) without changing one.
"""

from __future__ import annotations

import time

from suite.core.bots import Bot, RandomBot
from suite.core.match import Outcome, Seat, State
from suite.core.rng import Rng


class GameRun:
    """One simulated game: its outcome (None when cut off), actions and engine time."""

    __slots__ = ("outcome", "steps", "engine_seconds")

    def __init__(self, outcome: Outcome | None, steps: int, engine_seconds: float) -> None:
        self.outcome = outcome
        self.steps = steps
        self.engine_seconds = engine_seconds


def play_one(
    state: State, rng: Rng, max_steps: int = 200_000, bots: list[Bot] | None = None
) -> GameRun:
    """Let bots (default: random) play `state` to its end.

    Every awaited seat acts in seat order each step, so simultaneous-order games work (a
    seat an earlier seat's action took off the awaited set is skipped). The outcome is
    None when `max_steps` passed first. Engine time counts only `apply`.
    """
    fallback: Bot = RandomBot()
    clock = time.perf_counter
    steps = 0
    engine = 0.0
    while state.outcome() is None:
        if steps >= max_steps:
            return GameRun(None, steps, engine)
        waiting = state.awaiting()
        if len(waiting) == 1:
            seat: Seat = next(iter(waiting))
            bot = bots[seat] if bots is not None else fallback
            action = bot.choose(state.view(seat), state.legal(seat), rng)
            started = clock()
            state.apply(seat, action)
            engine += clock() - started
            steps += 1
            continue
        if not waiting:
            raise RuntimeError(f"{state.game}: no outcome yet nobody is awaited")
        for seat in sorted(waiting):
            # An earlier seat's action may have changed who is awaited.
            if seat not in state.awaiting():
                continue
            bot = bots[seat] if bots is not None else fallback
            action = bot.choose(state.view(seat), state.legal(seat), rng)
            started = clock()
            state.apply(seat, action)
            engine += clock() - started
            steps += 1
            if state.outcome() is not None:
                break
    return GameRun(state.outcome(), steps, engine)
