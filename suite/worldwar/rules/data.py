"""The World War rule numbers, read once from ``assets/worldwar/rules/rules.toml``.

`RULES` is the parsed, validated rule set. A bad data file raises `RulesDataError`
naming the file and the key, so a modder sees what to fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from suite.core.datafile import read_toml
from suite.paths import asset

CARD_MODES = ("increasing", "royalty", "poker", "none")


class RulesDataError(ValueError):
    """The rules data file is missing, broken or lacks a key."""


@dataclass(frozen=True, slots=True, eq=False)
class CardRules:
    """One card mode's deck and values (`values` maps a set name to armies)."""

    mode: str
    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    copies: int
    set_sizes: tuple[int, ...]
    straight_length: int
    values: dict[str, int]
    optional_after_elimination: bool
    discard_lowest_without_pair: bool
    ace_low_straight: bool
    first_value: int
    step: int


@dataclass(frozen=True, slots=True, eq=False)
class RuleSet:
    """Every number the engine uses (see rules.toml for their meaning)."""

    starting_armies: dict[int, int]
    placement_step: int
    min_players: int
    max_players: int
    divisor: int
    minimum: int
    attacker_max_dice: int
    defender_max_dice: int
    dice_sides: int
    stay_behind: int
    clock_choices: tuple[int, ...]
    clock_default: int
    hand_limit: int
    draw_per_turn: int
    cards: dict[str, CardRules]


def _get(table: dict[str, Any], key: str, source: str) -> Any:
    if key not in table:
        raise RulesDataError(f"{source}: missing key {key!r}")
    return table[key]


def _card_rules(mode: str, t: dict[str, Any], src: str) -> CardRules:
    where = f"{src} [cards.{mode}]"
    if mode == "increasing":
        ranks = tuple(str(x) for x in _get(t, "types", where))
        suits: tuple[str, ...] = ("",)
        values: dict[str, int] = {}
        straight_length = 0
    else:
        ranks = tuple(str(x) for x in _get(t, "ranks", where))
        suits = tuple(str(x) for x in _get(t, "suits", where))
        straight_length = int(_get(t, "straight_length", where))
        names = (
            ("pair", "three_of_a_kind", "straight", "flush", "straight_flush")
            if mode == "royalty"
            else (
                "one_pair",
                "three_of_a_kind",
                "straight",
                "flush",
                "full_house",
                "four_of_a_kind",
                "straight_flush",
                "royal_flush",
            )
        )
        values = {name: int(_get(t, name, where)) for name in names}
    return CardRules(
        mode=mode,
        ranks=ranks,
        suits=suits,
        copies=int(_get(t, "copies", where)),
        set_sizes=tuple(int(x) for x in _get(t, "set_sizes", where)),
        straight_length=straight_length,
        values=values,
        optional_after_elimination=bool(_get(t, "optional_after_elimination", where)),
        discard_lowest_without_pair=bool(t.get("discard_lowest_without_pair", False)),
        ace_low_straight=bool(t.get("ace_low_straight", False)),
        first_value=int(t.get("first_value", 0)),
        step=int(t.get("step", 0)),
    )


def parse_rules(data: dict[str, Any], source: str) -> RuleSet:
    """Build a RuleSet from parsed TOML; RulesDataError names the missing key."""
    try:
        setup = _get(data, "setup", source)
        rein = _get(data, "reinforcements", source)
        battle = _get(data, "battle", source)
        clock = _get(data, "clock", source)
        cards = _get(data, "cards", source)
        starting = {int(k): int(v) for k, v in _get(setup, "starting_armies", source).items()}
        card_rules = {
            mode: _card_rules(mode, _get(cards, mode, f"{source} [cards]"), source)
            for mode in CARD_MODES
            if mode != "none"
        }
        return RuleSet(
            starting_armies=starting,
            placement_step=int(_get(setup, "placement_step", source)),
            min_players=int(_get(setup, "min_players", source)),
            max_players=int(_get(setup, "max_players", source)),
            divisor=int(_get(rein, "divisor", source)),
            minimum=int(_get(rein, "minimum", source)),
            attacker_max_dice=int(_get(battle, "attacker_max_dice", source)),
            defender_max_dice=int(_get(battle, "defender_max_dice", source)),
            dice_sides=int(_get(battle, "dice_sides", source)),
            stay_behind=int(_get(battle, "stay_behind", source)),
            clock_choices=tuple(int(x) for x in _get(clock, "choices", source)),
            clock_default=int(_get(clock, "default", source)),
            hand_limit=int(_get(cards, "hand_limit", source)),
            draw_per_turn=int(_get(cards, "draw_per_turn", source)),
            cards=card_rules,
        )
    except (TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, RulesDataError):
            raise
        raise RulesDataError(f"{source}: bad value: {exc}") from exc


def load_rules(path: str | Path) -> RuleSet:
    """Read and validate a rules TOML file."""
    return parse_rules(read_toml(path, RulesDataError), str(Path(path)))


@lru_cache(maxsize=1)
def default_rules() -> RuleSet:
    """The shipped rule set (read once)."""
    return load_rules(asset("worldwar", "rules", "rules.toml"))
