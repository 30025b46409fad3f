"""Dice: sorted d6 rolls, the Risk comparison, the WoK contest draw and percent checks."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from suite.core.rng import Rng


def roll_sorted(rng: Rng, n: int, sides: int = 6) -> tuple[int, ...]:
    """`n` dice, highest first."""
    return tuple(sorted(rng.roll(n, sides), reverse=True))


def risk_losses(attacker: Sequence[int], defender: Sequence[int]) -> tuple[int, int]:
    """Compare dice highest against highest, second against second; ties go to the defender.

    Returns (attacker losses, defender losses). Dice need not be pre-sorted.
    """
    att = sorted(attacker, reverse=True)
    dfn = sorted(defender, reverse=True)
    att_loss = def_loss = 0
    for a, d in zip(att, dfn, strict=False):
        if a > d:
            def_loss += 1
        else:
            att_loss += 1
    return att_loss, def_loss


def contest_range(power: float) -> int:
    """Highest value a side may draw in a W6 contest: round(P), at least 1.

    Halves round up (2.5 -> 3), as a player reading "round" expects; Python's round()
    would round them to even.
    """
    return max(1, math.floor(power + 0.5))


@dataclass(frozen=True, slots=True)
class ContestRound:
    """One pair of draws of a W6 contest.

    `loser` is "attacker", "defender" or None (equal draws lose nothing); `injured`
    tells whether the losing unit is only injured (difference < half the higher draw).
    """

    attacker_draw: int
    defender_draw: int
    loser: str | None
    injured: bool


def contest_round(rng: Rng, attacker_power: float, defender_power: float) -> ContestRound:
    """Draw once for each side (RULINGS W6): uniform over 0..round(P); P < 1 draws 0 or 1."""
    a = rng.randint(0, contest_range(attacker_power))
    d = rng.randint(0, contest_range(defender_power))
    if a == d:
        return ContestRound(a, d, None, False)
    loser = "defender" if a > d else "attacker"
    high = max(a, d)
    injured = abs(a - d) < high / 2
    return ContestRound(a, d, loser, injured)
