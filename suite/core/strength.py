"""Bot strength figures: win rates with their error bars and Elo ratings from a round robin.

`play_games(tasks)` plays bot-against-bot games in worker processes (one per core by
default), each game a `GameTask` (its game, config, seed and a bot per seat), and
gives back one `GameResult` per task in order, with the time the `hero` seat took per
decision. `win_rate(wins, games)` gives the share and its 95 % interval half-width (normal
approximation, draws counted by the caller as half a win; near 0 % or 100 % the variance
is floored at that of a 50 % share over four times the games, so a clean sweep of a few
games still shows an honest error bar). `elo(results)` fits
Bradley-Terry ratings to pairwise results by maximum likelihood (Newton steps on the
logistic model, the first player anchored at 0 Elo) and gives each rating's 95 %
half-width from the inverse Fisher information. A player that won or lost every game
has no finite maximum: a prior of one draw against the anchor (`PRIOR_DRAWS`) keeps
every rating finite.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from suite.core.match import game_spec
from suite.core.rng import Rng

ELO_PER_NAT = 400.0 / math.log(10.0)
Z95 = 1.96
PRIOR_DRAWS = 1.0


def win_rate(wins: float, games: int) -> tuple[float, float]:
    """(share won, 95 % half-width) of `wins` in `games` (0, 0 for no games)."""
    if games <= 0:
        return 0.0, 0.0
    p = wins / games
    return p, Z95 * math.sqrt(max(p * (1.0 - p), 0.25 / games) / games)


def elo(
    players: Sequence[str], results: Mapping[tuple[str, str], tuple[float, int]]
) -> dict[str, tuple[float, float]]:
    """Elo ratings (first player 0) and their 95 % half-widths.

    `results[(a, b)]` is (points a scored against b, games they played), a draw worth
    half a point; pairs may be given either way round (or both)."""
    n = len(players)
    index = {name: i for i, name in enumerate(players)}
    games = np.zeros((n, n))
    points = np.zeros((n, n))
    for (a, b), (scored, played) in results.items():
        i, j = index[a], index[b]
        games[i, j] += played
        games[j, i] += played
        points[i, j] += scored
        points[j, i] += played - scored
    for i in range(1, n):  # the prior: one draw against the anchor
        games[0, i] += PRIOR_DRAWS
        games[i, 0] += PRIOR_DRAWS
        points[0, i] += PRIOR_DRAWS / 2
        points[i, 0] += PRIOR_DRAWS / 2
    theta = np.zeros(n)
    hessian = np.zeros((n - 1, n - 1))
    for _ in range(100):
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        grad = (points - games * p).sum(axis=1)[1:]
        w = games * p * (1.0 - p)
        full = np.diag(w.sum(axis=1)) - w
        hessian = full[1:, 1:]
        step = np.linalg.solve(hessian, grad) if n > 1 else np.zeros(0)
        theta[1:] += step
        if np.abs(step).max(initial=0.0) < 1e-9:
            break
    cov = np.linalg.inv(hessian) if n > 1 else np.zeros((0, 0))
    out = {players[0]: (0.0, 0.0)}
    for i in range(1, n):
        se = math.sqrt(max(float(cov[i - 1, i - 1]), 0.0))
        out[players[i]] = (float(theta[i]) * ELO_PER_NAT, Z95 * se * ELO_PER_NAT)
    return out


@dataclass(frozen=True)
class GameTask:
    """One bot game: `bots[seat]` names each seat's bot of `game`'s spec; `hero` is the
    seat whose score and decision times are reported; `iterations`, when set, overrides
    the hero's playouts per decision (a search bot's `iterations`)."""

    game: str
    config: dict[str, Any]
    seed: int
    bots: tuple[str, ...]
    hero: int
    iterations: int | None = None


@dataclass
class GameResult:
    """What one `GameTask` gave: the hero's points (1 for a win alone, a share of 1 for
    a shared win, else 0), its time per decision, the times of the decisions in which it
    searched, its search's playouts and seconds, and the searches its wall-clock cap cut
    short (0 for a bot that does not search)."""

    points: float
    times: list[float] = field(default_factory=list)
    searched: list[float] = field(default_factory=list)
    playouts: int = 0
    search_seconds: float = 0.0
    stopped: int = 0


def play_game(task: GameTask) -> GameResult:
    """Play `task` to its end in this process (deterministic from its seed)."""
    spec = game_spec(task.game)
    bots = [spec.bots[name]() for name in task.bots]
    hero = bots[task.hero]
    if task.iterations is not None and hasattr(hero, "iterations"):
        hero.iterations = task.iterations
    stats = getattr(hero, "stats", None)
    state = spec.create(task.config, task.seed)
    rng = Rng(task.seed + 7_919)
    result = GameResult(0.0)
    while state.outcome() is None:
        seat = min(state.awaiting())
        view, legal = state.view(seat), state.legal(seat)
        if seat != task.hero:
            state.apply(seat, bots[seat].choose(view, legal, rng))
            continue
        before = stats.searches if stats is not None else 0
        began = time.perf_counter()
        action = hero.choose(view, legal, rng)
        spent = time.perf_counter() - began
        result.times.append(spent)
        if stats is not None and stats.searches > before:
            result.searched.append(spent)
        state.apply(seat, action)
    outcome = state.outcome()
    assert outcome is not None
    if task.hero in outcome.winners:
        result.points = 1.0 / len(outcome.winners)
    if stats is not None:
        result.playouts, result.search_seconds = stats.playouts, stats.seconds
        result.stopped = getattr(stats, "stopped", 0)
    return result


def play_games(tasks: Iterable[GameTask], workers: int | None = None) -> Iterator[GameResult]:
    """The results of `tasks`, in order, played by `workers` processes (default: one per
    core; 1 plays them here). The same tasks give the same points however many."""
    todo = list(tasks)
    count = workers if workers is not None else os.cpu_count() or 1
    if count <= 1 or len(todo) <= 1:
        yield from map(play_game, todo)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(min(count, len(todo)), mp_context=context) as pool:
        yield from pool.map(play_game, todo)
