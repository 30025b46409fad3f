"""The battle equations (RULINGS T4, T5, T6): runtime stats, miss, crit, damage, experience.

Pure functions of numbers and `Rules`; the engine and the forecast both use them so the
info popup always predicts exactly what the engine does. Every ratio is capped at
`rules.combat.ratio_cap` and a zero (or negative) divisor counts as the cap. Points are rounded
half up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from suite.tactics.assets.model import Piece
from suite.tactics.rules.data import Rules


@dataclass(frozen=True)
class Runtime:
    """A piece kind's stats at a level (T4)."""

    strength: int
    agility: int
    defense: int
    max_hp: int
    max_mp: int


def runtime(piece: Piece, level: int, rules: Rules) -> Runtime:
    """T4: STR+L-1, AGI+L-1, DEF+2(L-1), maxHP HP+2(L-1), maxMP MP+2(L-1)."""
    up = level - 1
    return Runtime(
        piece.strength + rules.level.str_per_level * up,
        piece.agility + rules.level.agi_per_level * up,
        piece.defense + rules.level.def_per_level * up,
        piece.hp + rules.level.hp_per_level * up,
        piece.mp + rules.level.mp_per_level * up,
    )


def capped_ratio(numerator: float, divisor: float, rules: Rules) -> float:
    """numerator / divisor capped at the ratio cap; a divisor <= 0 gives the cap."""
    if divisor <= 0:
        return rules.combat.ratio_cap
    return min(numerator / divisor, rules.combat.ratio_cap)


def _clamp(percent: float, rules: Rules) -> float:
    return max(rules.combat.chance_min, min(rules.combat.chance_max, percent))


def miss_chance(agility: int, target_agility: int, rules: Rules) -> float:
    """T5: clamp((tgtAGI - AGI + 1) * 10, 0, 100) percent."""
    return _clamp(
        (target_agility - agility + rules.combat.miss_offset) * rules.combat.miss_per_agility, rules
    )


def crit_chance(
    agility: int,
    strength: int,
    rest: int,
    target_agility: int,
    target_strength: int,
    target_rest: int,
    rules: Rules,
) -> float:
    """T5: clamp(12.5 * (AGI+STR+rest) / (tgtAGI+tgtSTR+tgtRest), 0, 100) percent."""
    ratio = capped_ratio(
        agility + strength + rest, target_agility + target_strength + target_rest, rules
    )
    return _clamp(rules.combat.crit_scale * ratio, rules)


def damage(
    weapon_damage: int, strength: int, target_defense: int, dominates: bool, rules: Rules
) -> float:
    """T5: weapon damage * STR / tgtDEF, tgtDEF halved when the weapon class dominates."""
    defense = target_defense * rules.combat.dominance_def_factor if dominates else target_defense
    return weapon_damage * capped_ratio(strength, defense, rules)


def round_half_up(value: float) -> int:
    return math.floor(value + 0.5)


def hit_points(raw_damage: float, rules: Rules) -> int:
    """Points a hit deals: max(1, round(damage))."""
    return max(rules.combat.min_damage, round_half_up(raw_damage))


def crit_points(raw_damage: float, rules: Rules) -> int:
    """Points a crit deals: max(1, round(damage * 1.75))."""
    return max(rules.combat.min_damage, round_half_up(raw_damage * rules.combat.crit_multiplier))


def experience(level: int, target_level: int, kill: bool, rules: Rules) -> int:
    """T6: a hit earns ceil(10 * tgtLevel / level) XP; a kill multiplies it."""
    xp = -(-rules.experience.hit_xp * target_level // max(level, 1))
    return xp * rules.experience.kill_multiplier if kill else xp


def xp_to_level(level: int, rules: Rules) -> int:
    """XP a piece at `level` needs to level up (T6)."""
    return rules.experience.xp_per_level * level
