"""Whole W6 contests (battles and counter-espionage) with the draws batched in numpy.

A contest repeats `suite.core.dice.contest_round` until one side has no units left; this
module runs the same rule over arrays. The draws come from a PCG64 stream seeded from the
game's `Rng` (one draw per contest) and are turned into integers by rejection sampling on
the raw 64-bit words, so results are identical on every machine and numpy version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from suite.core.dice import contest_range
from suite.core.rng import Rng

_U64 = 1 << 64
_SEED_SPACE = 1 << 63


@dataclass(frozen=True, slots=True)
class ContestResult:
    """How a contest ended. Injured counts are part of the losses of each side.

    `a_lost`/`d_lost` count every unit that lost a draw (dead or injured);
    `a_injured`/`d_injured` the losers whose draw was close (W6).
    """

    rounds: int
    a_lost: int
    a_injured: int
    d_lost: int
    d_injured: int

    def attacker_won(self, a_units: int) -> bool:
        return self.a_lost < a_units


def _uniform(bits: np.random.PCG64, high: int, count: int) -> np.ndarray:
    """`count` uniform integers in 0..high by rejection on raw words."""
    n = high + 1
    rest = _U64 % n
    out: list[np.ndarray] = []
    need = count
    while need > 0:
        words = bits.random_raw(need)
        # Reject the top partial bucket (none when n divides 2**64).
        ok = words[words < np.uint64(_U64 - rest)] if rest else words
        out.append((ok % np.uint64(n)).astype(np.int64))
        need -= len(ok)
    return out[0] if len(out) == 1 else np.concatenate(out)


def contest(
    rng: Rng,
    a_units: int,
    a_power: float,
    d_units: int,
    d_power: float,
    injured_fraction: float = 0.5,
) -> ContestResult:
    """Fight until one side is used up (RULINGS W6); neither side may start empty."""
    if a_units <= 0 or d_units <= 0:
        raise ValueError(f"a contest needs units on both sides, got {a_units} and {d_units}")
    bits = np.random.PCG64(rng.randbelow(_SEED_SPACE))
    a_hi, d_hi = contest_range(a_power), contest_range(d_power)
    a_left, d_left = a_units, d_units
    rounds = a_inj = d_inj = 0
    while a_left > 0 and d_left > 0:
        batch = a_left + d_left + 8
        da = _uniform(bits, a_hi, batch)
        dd = _uniform(bits, d_hi, batch)
        a_loses = da < dd
        d_loses = da > dd
        cum_a = np.cumsum(a_loses)
        cum_d = np.cumsum(d_loses)
        done = (cum_a >= a_left) | (cum_d >= d_left)
        end = int(np.argmax(done)) + 1 if bool(done.any()) else batch
        a_l, d_l = a_loses[:end], d_loses[:end]
        close = np.abs(da[:end] - dd[:end]) * 1.0 < injured_fraction * np.maximum(
            da[:end], dd[:end]
        )
        a_inj += int(np.count_nonzero(a_l & close))
        d_inj += int(np.count_nonzero(d_l & close))
        a_left -= int(cum_a[end - 1])
        d_left -= int(cum_d[end - 1])
        rounds += end
    return ContestResult(
        rounds=rounds,
        a_lost=a_units - a_left,
        a_injured=a_inj,
        d_lost=d_units - d_left,
        d_injured=d_inj,
    )


@dataclass(frozen=True, slots=True)
class WornContest:
    """A contest with DEF wear (WoK IV): the result and the defender's DEF left, in tenths."""

    result: ContestResult
    def_tenths: int


def worn_contest(
    rng: Rng,
    a_units: int,
    a_power: float,
    d_units: int,
    d_power_at: Callable[[int], float],
    def_tenths: int,
    wear: tuple[float, int],
) -> WornContest:
    """A W6 contest without injuries in which every round destroys `wear[1]` tenths of the
    defender's DEF with chance `wear[0]` % (WoK IV's 3 % per round); the defender's power
    is `d_power_at(def_tenths)`, so it drops with the DEF from the next round on."""
    if a_units <= 0 or d_units <= 0:
        raise ValueError(f"a contest needs units on both sides, got {a_units} and {d_units}")
    wear_percent, wear_tenths = wear
    bits = np.random.PCG64(rng.randbelow(_SEED_SPACE))
    a_hi = contest_range(a_power)
    threshold = round(wear_percent * 100)  # wear draws are 0..9999, hundredths of a percent
    a_left, d_left = a_units, d_units
    rounds = 0
    while a_left > 0 and d_left > 0:
        d_hi = contest_range(d_power_at(def_tenths))
        batch = a_left + d_left + 8
        da = _uniform(bits, a_hi, batch)
        dd = _uniform(bits, d_hi, batch)
        worn = _uniform(bits, 9999, batch) < threshold
        cum_a = np.cumsum(da < dd)
        cum_d = np.cumsum(da > dd)
        stop = (cum_a >= a_left) | (cum_d >= d_left) | (worn & (def_tenths > 0))
        end = int(np.argmax(stop)) + 1 if bool(stop.any()) else batch
        a_left -= int(cum_a[end - 1])
        d_left -= int(cum_d[end - 1])
        rounds += end
        if def_tenths > 0 and bool(worn[end - 1]):
            def_tenths = max(0, def_tenths - wear_tenths)
    result = ContestResult(rounds, a_units - a_left, 0, d_units - d_left, 0)
    return WornContest(result, def_tenths)
