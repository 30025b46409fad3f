"""The numbers of the WoS Tactics rules (RULINGS T1-T17), read from
`assets/tactics/rules/tactics.toml` into typed msgspec records in one call.

`load_rules()` returns the frozen `Rules` (one record per TOML table); the default file is
read once and cached. A missing key, a misspelt key or a value of the wrong type raises
the core `DataError` naming the file and the key (`tactics.toml: at `rest.full`: ...`).
"""

from __future__ import annotations

import functools
from pathlib import Path

import msgspec

from suite.core.datafile import DataError
from suite.core.datafile import read_rules as read_typed
from suite.paths import asset

RULES_FILE = ("tactics", "rules", "tactics.toml")


class _Table(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A table of the rules file: every key required, unknown keys refused."""


class Army(_Table, frozen=True):
    """T8: `max_pieces` per army; the formation is `formation_side` squared."""

    max_pieces: int
    formation_side: int


class Turn(_Table, frozen=True):
    """T7, T17: pieces per turn (0 = all rested), the round cap and the stalemate count."""

    pieces_per_turn_choices: tuple[int, ...]
    default_pieces_per_turn: int
    max_rounds: int
    quiet_rounds: int


class Rest(_Table, frozen=True):
    """T1: rest a piece holds, what moving and attacking cost, the gain per turn."""

    full: int
    move_cost: int
    attack_cost: int
    gain_per_turn: int
    act_threshold: int


class Movement(_Table, frozen=True):
    """T2, T3: caps, elevation steps walkers and shots may take, the air bit."""

    max_mobility: int
    max_range: int
    move_elevation_step: int
    shot_elevation_step: int
    air_bit: int


class Level(_Table, frozen=True):
    """T4: runtime stat = base + per_level * (level - 1)."""

    str_per_level: int
    agi_per_level: int
    def_per_level: int
    hp_per_level: int
    mp_per_level: int


class Combat(_Table, frozen=True):
    """T5: the equations' constants."""

    miss_per_agility: float
    miss_offset: float
    crit_scale: float
    chance_min: float
    chance_max: float
    ratio_cap: float
    dominance_def_factor: float
    min_damage: int
    crit_multiplier: float


class Experience(_Table, frozen=True):
    """T6."""

    hit_xp: int
    kill_multiplier: int
    xp_per_level: int


class Rating(_Table, frozen=True):
    """T10."""

    elo_k: float
    elo_start: float
    elo_scale: float


class War(_Table, frozen=True):
    """T11."""

    default_points: int
    place_divisors: tuple[int, ...]


class ProfileRules(_Table, frozen=True):
    """T12 profiles."""

    wins_per_level: int
    start_level: int


class Tokens(_Table, frozen=True):
    """T12 achievement tokens."""

    first_win: int
    ten_wins: int
    flawless: int
    ten_wins_count: int


class Rules(_Table, frozen=True):
    """Every rule number the engine, bots, ratings and profiles use, by TOML table."""

    army: Army
    turn: Turn
    rest: Rest
    movement: Movement
    level: Level
    combat: Combat
    experience: Experience
    rating: Rating
    war: War
    profile: ProfileRules
    tokens: Tokens


def read_rules(path: Path) -> Rules:
    """Parse a rules file; `DataError` names the file and the bad key."""
    rules = read_typed(path, Rules)
    if rules.turn.default_pieces_per_turn not in rules.turn.pieces_per_turn_choices:
        raise DataError(
            f"{path}: at `turn.default_pieces_per_turn`: "
            f"{rules.turn.default_pieces_per_turn} is not one of pieces_per_turn_choices"
        )
    return rules


@functools.cache
def load_rules() -> Rules:
    """The shipped rules (read once)."""
    return read_rules(asset(*RULES_FILE))
