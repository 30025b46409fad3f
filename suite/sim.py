"""Headless self-play of any registered game with random bots (`suite sim`)."""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from suite.core.bots import Bot, make_bot
from suite.core.match import GameSpec, game_spec, new_game
from suite.core.rng import Rng
from suite.core.selfplay import GameRun, play_one

__all__ = ["GameRun", "SimReport", "make_bots", "play_one", "simulate"]


@dataclass
class SimReport:
    """What `simulate` measured over its games."""

    game: str
    players: int
    games: int
    wins: Counter[str] = field(default_factory=Counter)
    total_steps: int = 0
    total_turns: int = 0
    counts_turns: bool = False
    engine_seconds: float = 0.0
    reasons: Counter[str] = field(default_factory=Counter)
    unfinished: int = 0
    capped: int = 0
    """Games that played up to the config's `max_turns` (ended by the tie rule)."""
    seconds: float = 0.0
    seats: int = 0
    """Seats that played (from the outcomes' places): fewer than `players` when the
    config gives some colours to the engine (WoK's `robots`); 0 when no game ended."""

    @property
    def mean_steps(self) -> float:
        return self.total_steps / self.games if self.games else 0.0

    @property
    def mean_turns(self) -> float | None:
        """Turns per game, when the game counts turns."""
        if not self.counts_turns or not self.games:
            return None
        return self.total_turns / self.games

    @property
    def ms_per_turn(self) -> float | None:
        """Milliseconds the engine spent applying actions, per turn played."""
        if not self.counts_turns or not self.total_turns:
            return None
        return 1000 * self.engine_seconds / self.total_turns

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


def make_bots(spec: GameSpec, names: list[str] | None, players: int) -> list[Bot]:
    """One bot per seat by name (default all "random"); ValueError names an unknown bot."""
    chosen = names or ["random"]
    if len(chosen) == 1:
        chosen = chosen * players
    if len(chosen) != players:
        raise ValueError(f"--bots names {len(chosen)} bots for {players} players")
    return [make_bot(spec, name) for name in chosen]


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Within: what exists on entry (modules, tables, caches) is frozen (`gc.freeze`), so
    the full collections that many short games set off do not scan it again and again.
    A heap already frozen by the caller is left as it is."""
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    try:
        yield
    finally:
        if freeze:
            gc.unfreeze()


def simulate(
    game: str,
    players: int,
    seed: int,
    games: int,
    config: dict[str, Any] | None = None,
    max_steps: int = 200_000,
    progress: Any = None,
    options: dict[str, Any] | None = None,
    bot_names: list[str] | None = None,
) -> SimReport:
    """Play `games` games of `game` with bots; game i uses seed `seed + i`.

    `options` (non-None values only) overlay the config; `bot_names` picks a bot per seat.
    `progress`, when given, is called with the number of games finished.
    """
    spec = game_spec(game)
    low, high = spec.players
    if not low <= players <= high:
        raise ValueError(f"{spec.title} takes {low}-{high} players, not {players}")
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    cfg = dict(spec.default_config(players)) if config is None else dict(config)
    cfg.update({k: v for k, v in (options or {}).items() if v is not None})
    report = SimReport(game=game, players=players, games=games)
    report.counts_turns = spec.turn_of is not None
    with frozen_heap():
        started = time.perf_counter()
        for i in range(games):
            state = new_game(game, cfg, seed + i)
            bots = make_bots(spec, bot_names, players)
            run = play_one(state, Rng(seed + i + 1_000_003), max_steps, bots)
            report.total_steps += run.steps
            report.engine_seconds += run.engine_seconds
            if spec.turn_of is not None:
                turns = spec.turn_of(state)
                report.total_turns += turns
                max_turns = cfg.get("max_turns")
                if isinstance(max_turns, int) and turns >= max_turns:
                    report.capped += 1
            if run.outcome is None:
                report.unfinished += 1
                report.wins["unfinished"] += 1
                report.reasons["step limit reached"] += 1
            else:
                report.seats = max(report.seats, sum(len(tie) for tie in run.outcome.places))
                key = "+".join(f"seat {w}" for w in run.outcome.winners) or "nobody"
                report.wins[key] += 1
                report.reasons[run.outcome.reason] += 1
            if progress is not None:
                progress(i + 1)
    report.seconds = time.perf_counter() - started
    return report
