"""The numbers of the WoS Tactics rules (RULINGS T1-T11), read from
`assets/tactics/rules/tactics.toml`.

`load_rules()` returns a frozen `Rules`; the default file is read once and cached.
A missing or malformed key raises `RulesDataError` naming the file and the key.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from suite.core.datafile import read_toml
from suite.paths import asset

RULES_FILE = ("tactics", "rules", "tactics.toml")


class RulesDataError(ValueError):
    """The rules data file is missing a key or holds a value of the wrong type."""


@dataclass(frozen=True)
class Rules:
    """Every rule number the engine, bots, ratings and profiles use."""

    max_pieces: int
    formation_side: int
    pieces_per_turn_choices: tuple[int, ...]
    default_pieces_per_turn: int
    max_rounds: int
    rest_full: int
    move_cost: int
    attack_cost: int
    rest_gain: int
    act_threshold: int
    max_mobility: int
    max_range: int
    move_elevation_step: int
    shot_elevation_step: int
    air_bit: int
    str_per_level: int
    agi_per_level: int
    def_per_level: int
    hp_per_level: int
    mp_per_level: int
    miss_per_agility: float
    miss_offset: float
    crit_scale: float
    chance_min: float
    chance_max: float
    ratio_cap: float
    dominance_def_factor: float
    min_damage: int
    crit_multiplier: float
    hit_xp: int
    kill_multiplier: int
    xp_per_level: int
    elo_k: float
    elo_start: float
    elo_scale: float
    war_points: int
    place_divisors: tuple[int, ...]
    wins_per_level: int
    start_level: int
    token_first_win: int
    token_ten_wins: int
    token_flawless: int
    ten_wins_count: int


# attribute -> (table, key, type)
_FIELDS: dict[str, tuple[str, str, type]] = {
    "max_pieces": ("army", "max_pieces", int),
    "formation_side": ("army", "formation_side", int),
    "pieces_per_turn_choices": ("turn", "pieces_per_turn_choices", tuple),
    "default_pieces_per_turn": ("turn", "default_pieces_per_turn", int),
    "max_rounds": ("turn", "max_rounds", int),
    "rest_full": ("rest", "full", int),
    "move_cost": ("rest", "move_cost", int),
    "attack_cost": ("rest", "attack_cost", int),
    "rest_gain": ("rest", "gain_per_turn", int),
    "act_threshold": ("rest", "act_threshold", int),
    "max_mobility": ("movement", "max_mobility", int),
    "max_range": ("movement", "max_range", int),
    "move_elevation_step": ("movement", "move_elevation_step", int),
    "shot_elevation_step": ("movement", "shot_elevation_step", int),
    "air_bit": ("movement", "air_bit", int),
    "str_per_level": ("level", "str_per_level", int),
    "agi_per_level": ("level", "agi_per_level", int),
    "def_per_level": ("level", "def_per_level", int),
    "hp_per_level": ("level", "hp_per_level", int),
    "mp_per_level": ("level", "mp_per_level", int),
    "miss_per_agility": ("combat", "miss_per_agility", float),
    "miss_offset": ("combat", "miss_offset", float),
    "crit_scale": ("combat", "crit_scale", float),
    "chance_min": ("combat", "chance_min", float),
    "chance_max": ("combat", "chance_max", float),
    "ratio_cap": ("combat", "ratio_cap", float),
    "dominance_def_factor": ("combat", "dominance_def_factor", float),
    "min_damage": ("combat", "min_damage", int),
    "crit_multiplier": ("combat", "crit_multiplier", float),
    "hit_xp": ("experience", "hit_xp", int),
    "kill_multiplier": ("experience", "kill_multiplier", int),
    "xp_per_level": ("experience", "xp_per_level", int),
    "elo_k": ("rating", "elo_k", float),
    "elo_start": ("rating", "elo_start", float),
    "elo_scale": ("rating", "elo_scale", float),
    "war_points": ("war", "default_points", int),
    "place_divisors": ("war", "place_divisors", tuple),
    "wins_per_level": ("profile", "wins_per_level", int),
    "start_level": ("profile", "start_level", int),
    "token_first_win": ("tokens", "first_win", int),
    "token_ten_wins": ("tokens", "ten_wins", int),
    "token_flawless": ("tokens", "flawless", int),
    "ten_wins_count": ("tokens", "ten_wins_count", int),
}


def _value(data: dict[str, Any], path: Path, table: str, key: str, kind: type) -> Any:
    section = data.get(table)
    if not isinstance(section, dict) or key not in section:
        raise RulesDataError(f"{path}: missing [{table}] {key}")
    raw = section[key]
    if kind is tuple:
        if not isinstance(raw, list) or not all(isinstance(v, int) for v in raw):
            raise RulesDataError(f"{path}: [{table}] {key} must be a list of integers")
        return tuple(raw)
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise RulesDataError(f"{path}: [{table}] {key} must be a number, not {raw!r}")
    if kind is int and not isinstance(raw, int):
        raise RulesDataError(f"{path}: [{table}] {key} must be an integer, not {raw!r}")
    return kind(raw)


def read_rules(path: Path) -> Rules:
    """Parse a rules file; RulesDataError names the file and the bad key."""
    data = read_toml(path, RulesDataError)
    values = {attr: _value(data, path, *spec) for attr, spec in _FIELDS.items()}
    return Rules(**values)


@functools.cache
def load_rules() -> Rules:
    """The shipped rules (read once)."""
    return read_rules(asset(*RULES_FILE))
