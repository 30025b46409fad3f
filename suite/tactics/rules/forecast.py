"""The numbers of one attack (RULINGS T5), shared by the engine and the info popup.

`strike` gives the chances and points of an attack from the stats of both sides;
`Forecast` adds the expected damage and the kill chance for the popup and the bots.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from suite.tactics.assets.model import Piece, Weapon
from suite.tactics.rules import combat
from suite.tactics.rules.data import Rules


class Forecast(msgspec.Struct, frozen=True, kw_only=True):
    """Miss and crit chances (percent), points of a hit and of a crit, the expected damage
    (chances times points, not capped by the target's HP), the chance to kill (percent)
    and whether the attacker's weapon class dominates the target's (a view's `Odds`
    carries the same numbers)."""

    miss: float
    crit: float
    hit_damage: int
    crit_damage: int
    expected_damage: float
    kill_chance: float
    dominates: bool
    in_range: bool = True

    @property
    def hit_chance(self) -> float:
        """Percent chance of an ordinary hit (neither miss nor crit)."""
        return (100.0 - self.miss) * (100.0 - self.crit) / 100.0

    @property
    def crit_total(self) -> float:
        """Percent chance the attack lands as a crit (hit roll passed, then crit roll)."""
        return (100.0 - self.miss) * self.crit / 100.0


@dataclass(frozen=True)
class Side:
    """One side of an attack: piece kind, weapon, level and rest (and HP for the target)."""

    piece: Piece
    weapon: Weapon
    level: int
    rest: int
    hp: int = 0


def strike(attacker: Side, target: Side, rules: Rules, in_range: bool = True) -> Forecast:
    """The forecast of `attacker` striking `target` (rest as it is when the attack starts)."""
    a = combat.runtime(attacker.piece, attacker.level, rules)
    t = combat.runtime(target.piece, target.level, rules)
    miss = combat.miss_chance(a.agility, t.agility, rules)
    crit = combat.crit_chance(
        a.agility, a.strength, attacker.rest, t.agility, t.strength, target.rest, rules
    )
    dominates = attacker.weapon.dominates_weapon(target.weapon)
    raw = combat.damage(attacker.weapon.damage, a.strength, t.defense, dominates, rules)
    hit = combat.hit_points(raw, rules)
    critical = combat.crit_points(raw, rules)
    p_land = (100.0 - miss) / 100.0
    p_crit = crit / 100.0
    expected = p_land * ((1 - p_crit) * hit + p_crit * critical)
    kill = 0.0
    if target.hp > 0:
        if hit >= target.hp:
            kill = p_land
        elif critical >= target.hp:
            kill = p_land * p_crit
    return Forecast(
        miss=miss,
        crit=crit,
        hit_damage=hit,
        crit_damage=critical,
        expected_damage=expected,
        kill_chance=100.0 * kill,
        dominates=dominates,
        in_range=in_range,
    )
