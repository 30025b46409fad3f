"""Bot strength figures: win rates with their error bars and Elo ratings from a round robin.

`win_rate(wins, games)` gives the share and its 95 % interval half-width (normal
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
from collections.abc import Mapping, Sequence

import numpy as np

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
