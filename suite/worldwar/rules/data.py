"""The World War rule numbers as typed records, read from ``assets/worldwar/rules/rules.toml``.

`RuleSet` mirrors the file table by table (`setup`, `reinforcements`, `battle`, `clock`,
`cards`); `read_rules` converts the file in one call and a broken file raises the core
`DataError` naming the file and the key. A match may change any number through its
config's ``rules`` table (same shape as the file, only the keys to change): `custom_rules`
lays it over the shipped file and converts the result the same way.

The card modes live in `cards` (one class per mode, registered by name); their numbers
are the ``[cards.<mode>]`` tables of the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec

from suite.core.datafile import convert_rules, read_rules, read_toml
from suite.paths import asset
from suite.worldwar.rules.cards import Increasing, NoCards, Poker, Royalty
from suite.worldwar.rules.modes import Modes

RULES_FILE = ("worldwar", "rules", "rules.toml")


class _Table(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A table of the rules file (an unknown key is refused)."""


class Setup(_Table, frozen=True):
    """R1: starting armies by player count (TOML keys are the counts as text)."""

    starting_armies: dict[str, int]
    placement_step: int
    min_players: int
    max_players: int

    def __post_init__(self) -> None:
        if self.placement_step < 1:
            raise ValueError("placement_step must be at least 1")
        if not 2 <= self.min_players <= self.max_players:
            raise ValueError("need 2 <= min_players <= max_players")
        for n in range(self.min_players, self.max_players + 1):
            if str(n) not in self.starting_armies:
                raise ValueError(f"starting_armies has no entry for {n} players")

    def starting(self, players: int) -> int:
        """Starting armies of each player in a game of `players`."""
        return self.starting_armies[str(players)]


class Reinforcements(_Table, frozen=True):
    """R2: max(minimum, territories // divisor) + continents + cards."""

    divisor: int
    minimum: int

    def __post_init__(self) -> None:
        if self.divisor < 1 or self.minimum < 0:
            raise ValueError("divisor must be at least 1 and minimum not negative")


class Battle(_Table, frozen=True):
    """R3: the dice limits, the dice and the armies that stay behind (hashable: the odds
    caches are kept per `Battle`)."""

    attacker_max_dice: int
    defender_max_dice: int
    dice_sides: int
    stay_behind: int

    def __post_init__(self) -> None:
        if min(self.attacker_max_dice, self.defender_max_dice, self.stay_behind) < 1:
            raise ValueError("dice limits and stay_behind must be at least 1")
        if not 2 <= self.dice_sides <= 100:
            raise ValueError("dice_sides must be 2 to 100")
        if self.attacker_max_dice + self.defender_max_dice > 8:
            raise ValueError("at most 8 dice in one roll (attacker plus defender)")


class Clock(_Table, frozen=True):
    """R7: the turn clock choices in seconds (0 = off)."""

    choices: tuple[int, ...]
    default: int

    def __post_init__(self) -> None:
        if self.default not in self.choices:
            raise ValueError(f"default {self.default} is not one of the choices")


class Cards(_Table, frozen=True):
    """R5-R6: the hand limit, the cards drawn after a conquest and each mode's deck."""

    hand_limit: int
    draw_per_turn: int
    increasing: Increasing
    royalty: Royalty
    poker: Poker
    none: NoCards = NoCards()


class RuleSet(_Table, frozen=True):
    """Every number the engine uses (see rules.toml for their meaning)."""

    setup: Setup
    reinforcements: Reinforcements
    battle: Battle
    clock: Clock
    cards: Cards
    modes: Modes = Modes()


@lru_cache(maxsize=1)
def default_rules() -> RuleSet:
    """The shipped rule set (read once)."""
    return read_rules(asset(*RULES_FILE), RuleSet)


def load_rules(path: str | Path) -> RuleSet:
    """Read a rules TOML file (DataError naming the file and key when it is broken)."""
    return read_rules(path, RuleSet)


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        old = out.get(key)
        if isinstance(old, dict) and isinstance(value, Mapping):
            out[key] = _merge(old, value)
        else:
            out[key] = value
    return out


def custom_rules(changes: Mapping[str, Any] | None) -> RuleSet:
    """The shipped rules with `changes` (tables of the file's shape) laid over them.

    DataError names the changed key that does not fit (unknown key or wrong type).
    """
    if not changes:
        return default_rules()
    return _custom(msgspec.json.encode(changes))


@lru_cache(maxsize=16)
def _custom(encoded: bytes) -> RuleSet:
    base = read_toml(asset(*RULES_FILE))
    merged = _merge(base, msgspec.json.decode(encoded))
    return convert_rules(merged, RuleSet, "custom rules")


def rules_dict(rules: RuleSet) -> dict[str, Any]:
    """`rules` as JSON-safe tables (the file's shape), for saves and replays."""
    out = msgspec.to_builtins(rules)
    assert isinstance(out, dict)
    return out


def rules_from_dict(d: Mapping[str, Any], source: str = "saved rules") -> RuleSet:
    """The inverse of `rules_dict` (DataError naming the key when broken)."""
    return convert_rules(dict(d), RuleSet, source)
