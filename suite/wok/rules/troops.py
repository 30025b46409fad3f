"""Troop types (Intermediate WoK): taking and placing mixed troops, and battles between them.

A province holds ARM and the upgraded types PIK, ARC, KNI and CAT at one LEV. Orders name
a number of troops; they are taken in the rule set's `troops.order` (ARM first, as TRO
moves do). In a battle (RULINGS I3) each side's terrain bonus level is `bonus_level` x
the share of its fighting troops whose preferred terrain is the battle province's,
recomputed every round; a lost round kills or injures one troop picked at random in
proportion to the side's fighting troops by type. Draws follow W6 like Standard battles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from suite.core.rng import Rng
from suite.core.units import mix_levels
from suite.wok.rules.world import TROOPS, World


def counts(w: World, p: int) -> dict[str, int]:
    """Troops in p by type."""
    return {k: w.units(k)[p] for k in TROOPS}


def take(w: World, p: int, count: int, order: tuple[str, ...]) -> dict[str, int]:
    """Remove up to `count` troops from p in `order`; returns what was taken by type."""
    out: dict[str, int] = {}
    left = count
    for kind in order:
        units = w.units(kind)
        got = min(left, units[p])
        if got:
            units[p] -= got
            out[kind] = got
            left -= got
    return out


def put(w: World, p: int, troops: dict[str, int], level: float) -> int:
    """Add `troops` at `level` to p, mixing levels by head count (W9) up to the troop cap;
    returns how many the cap lost."""
    added_total = 0
    lost = 0
    before = w.troops(p)
    for kind in TROOPS:
        n = troops.get(kind, 0)
        room = w.rules.caps.arm - w.troops(p)
        add = max(0, min(n, room))
        lost += n - add
        if add:
            w.units(kind)[p] += add
            added_total += add
    if added_total:
        w.lev[p] = w.bound_lev(mix_levels(before, w.lev[p], added_total, level))
    return lost


def _draw(rng: Rng, power: float) -> int:
    """W6: an integer from 0..round(P) (halves up); {0, 1} when P < 1."""
    top = 1 if power < 1 else math.floor(power + 0.5)
    return rng.randint(0, top)


@dataclass
class Side:
    """One side of a typed battle: fighting troops, injured and dead by type."""

    fighting: dict[str, int]
    injured: dict[str, int] = field(default_factory=dict)
    dead: dict[str, int] = field(default_factory=dict)

    def total(self) -> int:
        return sum(self.fighting.values())

    def bonus(self, preferred: dict[str, str], terrain: str, bonus_level: float) -> float:
        """The terrain bonus level: bonus_level x share of troops at home in `terrain`."""
        total = self.total()
        if not total or not terrain:
            return 0.0
        at_home = sum(n for k, n in self.fighting.items() if preferred.get(k) == terrain)
        return bonus_level * at_home / total

    def lose_one(self, rng: Rng, injured: bool) -> None:
        """One troop picked in proportion to the fighting types is injured or dies."""
        pick = rng.randbelow(self.total())
        for kind in TROOPS:
            n = self.fighting.get(kind, 0)
            if pick < n:
                self.fighting[kind] = n - 1
                book = self.injured if injured else self.dead
                book[kind] = book.get(kind, 0) + 1
                return
            pick -= n

    def survivors(self, won: bool) -> dict[str, int]:
        """Troops left after the battle: the fighting, plus the injured if the side won."""
        out = dict(self.fighting)
        if won:
            for k, n in self.injured.items():
                out[k] = out.get(k, 0) + n
        return {k: n for k, n in out.items() if n}


@dataclass
class TypedResult:
    rounds: int
    attacker: Side
    defender: Side

    @property
    def attacker_won(self) -> bool:
        return self.defender.total() == 0


def typed_battle(
    rng: Rng,
    attacker: Side,
    defender: Side,
    patt_per_level: float,
    pdef_parts: tuple[float, float, float],
    levels: tuple[float, float],
    terrain: str,
    w: World,
) -> TypedResult:
    """Fight until one side has no fighting troops (RULINGS I3).

    PATT = patt_per_level x (attacker LEV + bonus); PDEF = eff x (factor x (defender LEV +
    bonus) + def_part), with `pdef_parts` = (eff, factor, def_part).
    """
    t = w.rules.terrain
    preferred = t.preferred_by if t else {}
    bonus_level = t.bonus_level if t else 0.0
    frac = w.rules.attack.injured_fraction
    d_eff, d_factor, d_def = pdef_parts
    a_lev, d_lev = levels
    rounds = 0
    while attacker.total() and defender.total():
        patt = patt_per_level * (a_lev + attacker.bonus(preferred, terrain, bonus_level))
        pdef = d_eff * (
            d_factor * (d_lev + defender.bonus(preferred, terrain, bonus_level)) + d_def
        )
        a = _draw(rng, patt)
        d = _draw(rng, pdef)
        rounds += 1
        if a == d:
            continue
        high = max(a, d)
        injured = abs(a - d) < frac * high
        (attacker if a < d else defender).lose_one(rng, injured)
    return TypedResult(rounds, attacker, defender)
