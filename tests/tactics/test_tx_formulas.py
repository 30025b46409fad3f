"""The battle equations (RULINGS T4-T6) against the statements of the rule text."""

from __future__ import annotations

import pytest

from suite.core.datafile import DataError
from suite.paths import asset
from suite.tactics.assets.model import Piece, Weapon
from suite.tactics.rules import combat
from suite.tactics.rules.data import load_rules, read_rules
from suite.tactics.rules.forecast import Side, strike

R = load_rules()


def piece(hp: int = 10, strength: int = 4, defense: int = 4, agility: int = 3) -> Piece:
    return Piece(1, "P", "p.bmp", 9, hp, 2, strength, defense, agility, 0, 1, 3, 1, 0)


SWORD = Weapon(1, "Sword", "Melee", "Missile", 4, 255)
BOW = Weapon(2, "Bow", "Missile", "Reach", 3, 255)


def test_attacker_one_agility_higher_never_misses() -> None:
    assert combat.miss_chance(4, 3, R) == 0
    assert combat.miss_chance(9, 3, R) == 0


def test_equal_agility_misses_ten_percent_and_ten_more_per_point() -> None:
    assert combat.miss_chance(3, 3, R) == 10
    assert combat.miss_chance(3, 4, R) == 20
    assert combat.miss_chance(1, 20, R) == 100


def test_twice_the_summed_stats_gives_25_percent_crit() -> None:
    assert combat.crit_chance(4, 4, 2, 2, 2, 1, R) == pytest.approx(25.0)
    assert combat.crit_chance(2, 2, 1, 2, 2, 1, R) == pytest.approx(12.5)


def test_crit_ratio_capped_and_zero_divisor_counts_as_cap() -> None:
    assert combat.capped_ratio(100, 1, R) == R.combat.ratio_cap
    assert combat.capped_ratio(3, 0, R) == R.combat.ratio_cap
    assert combat.crit_chance(5, 5, 2, 0, 0, 0, R) == 100


def test_damage_is_weapon_times_strength_over_defense() -> None:
    assert combat.damage(4, 4, 4, False, R) == 4
    assert combat.damage(3, 6, 4, False, R) == pytest.approx(4.5)


def test_dominance_halves_defense() -> None:
    assert combat.damage(4, 4, 4, True, R) == 8
    assert SWORD.dominates_weapon(BOW) and not BOW.dominates_weapon(SWORD)


def test_damage_ratio_capped_at_20_and_zero_defense() -> None:
    assert combat.damage(2, 50, 1, False, R) == 2 * 20
    assert combat.damage(3, 5, 0, False, R) == 3 * 20
    assert combat.damage(3, 5, 0, True, R) == 3 * 20


def test_points_round_half_up_with_a_minimum_of_one() -> None:
    assert combat.hit_points(0.2, R) == 1
    assert combat.hit_points(4.5, R) == 5
    assert combat.crit_points(4, R) == 7  # 4 * 1.75
    assert combat.crit_points(0.1, R) == 1


def test_runtime_stats_grow_with_level() -> None:
    stats = combat.runtime(piece(hp=10, strength=4, defense=4, agility=3), 3, R)
    assert (stats.strength, stats.agility, stats.defense, stats.max_hp, stats.max_mp) == (
        6,
        5,
        8,
        14,
        6,
    )


def test_experience_rounds_up_and_a_kill_doubles() -> None:
    assert combat.experience(1, 1, False, R) == 10
    assert combat.experience(1, 2, False, R) == 20
    assert combat.experience(3, 1, False, R) == 4  # ceil(10 / 3)
    assert combat.experience(3, 1, True, R) == 8
    assert combat.xp_to_level(2, R) == 100


def test_forecast_expected_damage_and_kill_chance() -> None:
    attacker = Side(piece(agility=3), SWORD, 1, 2)
    target = Side(piece(agility=3, defense=4), BOW, 1, 2, hp=4)
    numbers = strike(attacker, target, R)
    assert numbers.miss == 10
    assert numbers.dominates
    assert numbers.hit_damage == 8 and numbers.crit_damage == 14
    crit = 12.5 * 9 / 9
    assert numbers.crit == pytest.approx(crit)
    assert numbers.expected_damage == pytest.approx(0.9 * ((1 - crit / 100) * 8 + crit / 100 * 14))
    assert numbers.kill_chance == pytest.approx(90.0)


def test_rules_file_errors_name_the_key(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "rules.toml"
    bad.write_text("[army]\nmax_pieces = 9\n", encoding="utf-8")
    with pytest.raises(DataError, match="formation_side"):
        read_rules(bad)
    bad.write_text("[army\n", encoding="utf-8")
    with pytest.raises(DataError, match="rules.toml"):
        read_rules(bad)
    good = asset("tactics", "rules", "tactics.toml").read_text(encoding="utf-8")
    bad.write_text(good.replace("full = 2", 'full = "two"'), encoding="utf-8")
    with pytest.raises(DataError, match=r"rules.toml: at `rest.full`: Expected `int`"):
        read_rules(bad)
    bad.write_text(good.replace("full = 2", "full = 2\nfulll = 3"), encoding="utf-8")
    with pytest.raises(DataError, match="fulll"):
        read_rules(bad)
