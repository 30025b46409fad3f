"""Exact battle odds from the Markov chain over (attacker armies, defender armies).

A battle starts with `attackers` armies on the attacking territory (one must stay
behind, RULINGS R3) against `defenders` armies and is fought "to the end": every roll
uses the most dice (attacker min(3, a - 1), defender min(2, d)) until the territory
falls (d = 0) or the attacker is down to one army (a = 1). Nothing is sampled: single
rolls are counted over all 6^n dice faces and the chain is propagated exactly with numpy.

- `roll_counts(att_dice, def_dice)`: exact counts of (attacker loss, defender loss).
- `battle(a, d)`: `BattleOdds` with the conquest probability, the distribution of what
  remains on each side and the expected losses.
- `win_probability(a, d)`: the conquest probability alone (table-backed for bots).
- `sample_outcome(a, d, u)`: the battle's end state for a uniform draw u in [0, 1), exact in
  distribution (the engine's "attack to the end" fast path).
- `resolve_battle(a, d, rng)`: the end state of a battle drawn from `rng`, for any size.

The exact chain needs (a + 1) * (d + 1) cells. Past `EXACT_CELLS` (about 2000 against
2000) memory and time would run away, so `battle` gives a normal approximation of the
same chain instead (marked `exact=False`), and `resolve_battle` plays such a battle roll
by roll, which is still exact in distribution.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

import numpy as np
import numpy.typing as npt

from suite.core.dice import risk_losses
from suite.core.rng import Rng
from suite.worldwar.rules.data import default_rules

FloatArray = npt.NDArray[np.float64]


@lru_cache(maxsize=64)
def roll_counts(
    att_dice: int, def_dice: int, sides: int | None = None
) -> tuple[tuple[int, int, int], ...]:
    """For one roll: (attacker loss, defender loss, number of dice faces giving it).

    The counts add up to sides ** (att_dice + def_dice); e.g. 3 vs 2 gives
    (0, 2, 2890), (1, 1, 2611), (2, 0, 2275) out of 7776.
    """
    n_sides = default_rules().dice_sides if sides is None else sides
    counts: dict[tuple[int, int], int] = {}
    faces = range(1, n_sides + 1)
    for roll in product(faces, repeat=att_dice + def_dice):
        key = risk_losses(roll[:att_dice], roll[att_dice:])
        counts[key] = counts.get(key, 0) + 1
    return tuple((a, d, c) for (a, d), c in sorted(counts.items()))


@lru_cache(maxsize=64)
def roll_probabilities(att_dice: int, def_dice: int) -> tuple[tuple[int, int, float], ...]:
    """`roll_counts` as probabilities."""
    rows = roll_counts(att_dice, def_dice)
    total = sum(c for _, _, c in rows)
    return tuple((a, d, c / total) for a, d, c in rows)


def _dice(a: int, d: int) -> tuple[int, int]:
    rules = default_rules()
    return min(rules.attacker_max_dice, a - rules.stay_behind), min(rules.defender_max_dice, d)


@dataclass(frozen=True)
class BattleOdds:
    """The exact result distribution of a battle fought to the end.

    `attacker_left[k]` is the probability that the attacking territory ends with k armies
    (k >= 2 only on a conquest, k = 1 on a failure); `defender_left[k]` the probability
    that the defender ends with k (k = 0 is a conquest). Arrays are read-only. `exact` is
    False only for battles past `EXACT_CELLS`, whose figures are a normal approximation.
    """

    attackers: int
    defenders: int
    win: float
    attacker_left: FloatArray
    defender_left: FloatArray
    exact: bool = True

    @property
    def expected_attacker_loss(self) -> float:
        """Expected armies the attacker loses."""
        k = np.arange(len(self.attacker_left))
        return float(self.attackers - (k * self.attacker_left).sum())

    @property
    def expected_defender_loss(self) -> float:
        """Expected armies the defender loses."""
        k = np.arange(len(self.defender_left))
        return float(self.defenders - (k * self.defender_left).sum())


SMALL_BATTLE = 1500


def _propagate_small(attackers: int, defenders: int) -> list[float]:
    """`_propagate` for small battles in plain Python (numpy's per-call cost dominates)."""
    A, D = attackers, defenders
    W = D + 1
    flat = [0.0] * ((A + 1) * W)
    flat[A * W + D] = 1.0
    stay = default_rules().stay_behind
    moves_of: dict[tuple[int, int], list[tuple[int, float]]] = {}
    for s in range(A + D, stay + 1, -1):
        for a in range(max(stay + 1, s - D), min(A, s - 1) + 1):
            d = s - a
            base = a * W + d
            mass = flat[base]
            if mass == 0.0:
                continue
            key = _dice(a, d)
            moves = moves_of.get(key)
            if moves is None:
                moves = [(la * W + ld, p) for la, ld, p in roll_probabilities(*key)]
                moves_of[key] = moves
            for off, p in moves:
                flat[base - off] += mass * p
    return flat


def _propagate(attackers: int, defenders: int) -> FloatArray:
    """Probability mass over all (a, d) after absorption, as an (A+1, D+1) array.

    Only absorbing cells (a = 1 or d = 0) are meaningful. Cells of one level a + d = s sit
    at flat index a * D + s, so each level is a strided slice and every transition is a
    fixed shift of that slice.
    """
    A, D = attackers, defenders
    W = D + 1
    flat = np.zeros((A + 1) * W, dtype=np.float64)
    flat[A * W + D] = 1.0
    rules = default_rules()
    max_a, max_d = rules.attacker_max_dice, rules.defender_max_dice
    stay = rules.stay_behind
    # A full roll removes n armies in all: (a - la, d - ld) with la + ld = n lands on
    # level s - n at position a - la, so one convolution moves a whole level.
    n = min(max_a, max_d)
    kernel = np.zeros(n + 1)
    for la, _ld, p in roll_probabilities(max_a, max_d):
        kernel[n - la] += p
    small: dict[tuple[int, int], list[tuple[int, float]]] = {}
    full_from = max_a + stay  # a at or above this rolls all attacker dice
    for s in range(A + D, stay + 2 - 1, -1):
        lo = max(stay + 1, s - D)
        hi = min(A, s - 1)
        if lo > hi:
            continue
        b_lo = max(lo, full_from)
        b_hi = min(hi, s - max_d)
        if b_lo <= b_hi:
            start = b_lo * D + s
            stop = b_hi * D + s + 1
            dest = (b_lo - n) * D + s - n
            flat[dest : stop - n : D] += np.convolve(flat[start:stop:D], kernel)
        edges = range(lo, hi + 1) if b_lo > b_hi else (*range(lo, b_lo), *range(b_hi + 1, hi + 1))
        for a in edges:
            d = s - a
            mass = flat[a * W + d]
            if mass == 0.0:
                continue
            key = _dice(a, d)
            moves = small.get(key)
            if moves is None:
                moves = [(la * W + ld, p) for la, ld, p in roll_probabilities(*key)]
                small[key] = moves
            base = a * W + d
            for off, p in moves:
                flat[base - off] += mass * p
    return flat.reshape(A + 1, W)


@lru_cache(maxsize=4096)
def battle(attackers: int, defenders: int) -> BattleOdds:
    """Exact odds of `attackers` (on the territory, one stays) against `defenders`."""
    if attackers < 1 or defenders < 0:
        raise ValueError(f"no battle with {attackers} against {defenders}")
    A, D = attackers, defenders
    att = np.zeros(A + 1)
    dfn = np.zeros(D + 1)
    if D == 0:
        att[A] = 1.0
        dfn[0] = 1.0
    elif default_rules().stay_behind >= A:
        att[A] = 1.0
        dfn[D] = 1.0
    elif (A + 1) * (D + 1) > EXACT_CELLS:
        return _approximate_battle(A, D)
    else:
        if A * D <= SMALL_BATTLE:
            grid = np.array(_propagate_small(A, D)).reshape(A + 1, D + 1)
        else:
            grid = _propagate(A, D)
        att[2:] = grid[2:, 0]
        att[1] = grid[1, 1:].sum()
        dfn[1:] = grid[1, 1:]
        dfn[0] = grid[2:, 0].sum()
    att.flags.writeable = False
    dfn.flags.writeable = False
    return BattleOdds(A, D, float(dfn[0]), att, dfn)


EXACT_CELLS = 4_000_000


def _normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _approximate_battle(A: int, D: int) -> BattleOdds:
    """A normal approximation of a huge battle's chain (no sampling).

    Almost every roll of such a battle is a full roll (3 against 2 by default), in which a
    share f of the removed armies are the defender's. Imagine the rolls going on until
    L = A - 1 + D armies are gone in all: the defender's losses X are then a sum of
    independent rolls, nearly normal. X >= D means a conquest; the rolls after the real end
    removed the attacker's spare armies at the rate f, so stay + (X - D) / f attackers are
    left. X < D means a failure with (D - X) / (1 - f) defenders left.
    """
    rules = default_rules()
    stay = rules.stay_behind
    rows = roll_probabilities(rules.attacker_max_dice, rules.defender_max_dice)
    per_roll = rows[0][0] + rows[0][1]  # every outcome of a full roll removes as many
    mean1 = sum(p * ld for _la, ld, p in rows)
    var1 = sum(p * ld * ld for _la, ld, p in rows) - mean1 * mean1
    share = mean1 / per_roll
    total = A - stay + D
    rolls = total / per_roll
    mean, sd = mean1 * rolls, math.sqrt(max(var1 * rolls, 1e-12))
    edges = (np.arange(total + 2, dtype=np.float64) - 0.5 - mean) / sd
    cdf = np.array([_normal_cdf(float(z)) for z in edges])
    mass = np.diff(cdf)
    mass /= mass.sum()
    att = np.zeros(A + 1)
    dfn = np.zeros(D + 1)
    for x in np.flatnonzero(mass > 0.0):
        p = float(mass[x])
        if x >= D:
            att[min(A, max(stay + 1, stay + round((x - D) / share)))] += p
            dfn[0] += p
        else:
            att[stay] += p
            dfn[min(D, max(1, round((D - x) / (1.0 - share))))] += p
    att.flags.writeable = False
    dfn.flags.writeable = False
    return BattleOdds(A, D, float(dfn[0]), att, dfn, exact=False)


def resolve_battle(attackers: int, defenders: int, rng: Rng) -> tuple[int, int]:
    """The end state of a battle fought to the end, drawn from `rng`.

    Battles the exact chain can hold take one draw (`sample_outcome`); larger ones are
    rolled one roll at a time from the exact single-roll probabilities.
    """
    sampler = _SAMPLERS.get((attackers, defenders))
    if sampler is None and (attackers + 1) * (defenders + 1) <= EXACT_CELLS:
        if len(_SAMPLERS) >= SAMPLER_LIMIT:
            _SAMPLERS.clear()
        sampler = _SAMPLERS[attackers, defenders] = _sampler(attackers, defenders)
    if sampler is not None:
        # `sample_outcome` inlined: this runs for every attack to the end.
        cum, ends = sampler
        i = bisect.bisect_right(cum, rng.random() * cum[-1])
        return ends[min(i, len(ends) - 1)]
    stay = default_rules().stay_behind
    a, d = attackers, defenders
    while a > stay and d > 0:
        rows = roll_probabilities(*_dice(a, d))
        u = rng.random()
        pick = rows[-1]
        for row in rows:
            u -= row[2]
            if u < 0.0:
                pick = row
                break
        a, d = a - pick[0], d - pick[1]
    return a, d


_TABLE: list[list[float]] = [[0.0]]


def _grow_table(size: int) -> None:
    """Extend the conquest-probability table to size x size (pure recurrence, no sampling)."""
    old = len(_TABLE)
    if size <= old:
        return
    rows = [row + [0.0] * (size - len(row)) for row in _TABLE]
    rows.extend([0.0] * size for _ in range(size - old))
    stay = default_rules().stay_behind
    for a in range(size):
        row = rows[a]
        for d in range(size):
            if a < old and d < old:
                continue
            if d == 0:
                row[d] = 1.0 if a > stay else 0.0
                continue
            if a <= stay:
                row[d] = 0.0
                continue
            total = 0.0
            for la, ld, p in roll_probabilities(*_dice(a, d)):
                total += p * rows[a - la][d - ld]
            row[d] = total
    _TABLE[:] = rows


TABLE_LIMIT = 160


def win_probability(attackers: int, defenders: int) -> float:
    """Conquest probability of a battle to the end (exact; fast for small armies)."""
    if attackers < TABLE_LIMIT and defenders < TABLE_LIMIT:
        if attackers >= len(_TABLE) or defenders >= len(_TABLE):
            _grow_table(min(TABLE_LIMIT, max(attackers, defenders) * 2 + 8))
        return _TABLE[attackers][defenders]
    return battle(attackers, defenders).win


SAMPLER_LIMIT = 8192
_SAMPLERS: dict[tuple[int, int], tuple[list[float], list[tuple[int, int]]]] = {}


@lru_cache(maxsize=SAMPLER_LIMIT)
def _sampler(attackers: int, defenders: int) -> tuple[list[float], list[tuple[int, int]]]:
    odds = battle(attackers, defenders)
    ends: list[tuple[int, int]] = []
    probs: list[float] = []
    for k in range(odds.attacker_left.size - 1, 1, -1):
        if odds.attacker_left[k] > 0.0:
            ends.append((k, 0))
            probs.append(float(odds.attacker_left[k]))
    for k in range(1, odds.defender_left.size):
        if odds.defender_left[k] > 0.0:
            ends.append((1, k))
            probs.append(float(odds.defender_left[k]))
    cum = np.cumsum(probs).tolist()
    return cum, ends


def sample_outcome(attackers: int, defenders: int, u: float) -> tuple[int, int]:
    """The end state (attacker armies left, defender armies left) for a uniform u in [0, 1).

    Inverse-CDF over the exact end distribution: one draw per battle, exact in distribution.
    """
    cum, ends = _sampler(attackers, defenders)
    i = bisect.bisect_right(cum, u * cum[-1])
    return ends[min(i, len(ends) - 1)]
