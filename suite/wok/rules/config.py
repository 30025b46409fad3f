"""`WokConfig`: the typed WoK match config (read through `suite.core.match.parse_config`).

Keys: `players` (seats; a variant made for one number of players takes it when left
out, other variants default to 2), `variant` (a variant of the rule set), `ruleset`
(a shipped rule set: assets/wok/rules/<name>.toml), `map` (a shipped map's name, a
.tmx/.json path or a number of provinces), `robots` (Skirmish: the last n colours are
robots), `names` (seat names), `max_turns` (0: the rule set's cap), `clock` (a turn-clock
preset), `headhunting_turns` (the host's headhunting protection, S12: home provinces are
protected through this turn; default: the variant's). An unknown key or a bad value is
refused with `ConfigError` naming it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from suite.core.match import ConfigError
from suite.wok.rules.ruleset import RuleSet, Variant, load_ruleset, ruleset_path

SEAT_NAMES = ("Han", "Kor", "Mir", "Tal", "Vey", "Sol", "Ura", "Bex", "Dov", "Fen")
NAME_LIMIT = 16
"""The longest seat name (characters)."""


class WokConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A WoK match config (see the module docstring)."""

    players: int | None = None
    variant: str = "skirmish"
    ruleset: str = "standard"
    map: str | int | None = None
    robots: int = 0
    names: tuple[str, ...] = SEAT_NAMES
    max_turns: int = 0
    clock: str = "standard"
    headhunting_turns: int | None = None

    def __post_init__(self) -> None:
        if not ruleset_path(self.ruleset).is_file() or "/" in self.ruleset:
            known = ", ".join(known_rulesets())
            raise ValueError(f"unknown ruleset {self.ruleset!r} (key `ruleset`; have: {known})")
        rules = load_ruleset(self.ruleset)
        if self.variant not in rules.variants:
            known = ", ".join(sorted(rules.variants))
            raise ValueError(f"unknown variant {self.variant!r} (key `variant`; have: {known})")
        if self.clock not in rules.clock:
            known = ", ".join(sorted(rules.clock))
            raise ValueError(f"unknown clock preset {self.clock!r} (key `clock`; have: {known})")
        if self.headhunting_turns is not None and not 0 <= self.headhunting_turns <= 99:
            raise ValueError(
                f"headhunting_turns must be 0..99, not {self.headhunting_turns} "
                "(key `headhunting_turns`)"
            )
        check_names(self.names)
        if self.max_turns < 0:
            raise ValueError(f"max_turns must be 0 or more, not {self.max_turns} (key `max_turns`)")
        seats = rules.variants[self.variant].seats
        if seats and self.players is not None and self.players != seats:
            raise ValueError(f"{self.variant} is for {seats} players, not {self.players}")
        if self.players is not None and not 2 <= self.players <= 10:
            raise ValueError(f"players must be 2..10, not {self.players} (key `players`)")

    def rules(self) -> RuleSet:
        return load_ruleset(self.ruleset)

    def variant_rules(self) -> Variant:
        """The variant's figures, with the host's headhunting turns when given."""
        variant = self.rules().variant(self.variant)
        if self.headhunting_turns is None:
            return variant
        return msgspec.structs.replace(variant, protect_home_until=self.headhunting_turns)

    def player_count(self) -> int:
        """`players`, or the variant's one player count, or 2."""
        if self.players is not None:
            return self.players
        return self.rules().variants[self.variant].seats or 2


def check_names(names: tuple[str, ...]) -> None:
    """ValueError unless every name is 1..NAME_LIMIT printable characters, not blank, and
    no two are the same (ignoring case and the spaces around them)."""
    seen: set[str] = set()
    for i, name in enumerate(names):
        if not name.strip():
            raise ValueError(f"name {i + 1} is empty (key `names`)")
        if len(name) > NAME_LIMIT or not name.isprintable():
            raise ValueError(
                f"name {name!r} must be at most {NAME_LIMIT} printable characters (key `names`)"
            )
        key = name.strip().casefold()
        if key in seen:
            raise ValueError(f"two players are named {name.strip()!r} (key `names`)")
        seen.add(key)


def known_rulesets() -> list[str]:
    """The shipped rule sets' names."""
    return sorted(p.stem for p in ruleset_path("standard").parent.glob("*.toml"))


def read_config(config: Any) -> WokConfig:
    """`config` (a mapping or a `WokConfig`) as a WokConfig; ConfigError names the problem."""
    from suite.core.match import parse_config
    from suite.wok.rules import SPEC

    try:
        return parse_config(SPEC, config)  # type: ignore[no-any-return]
    except ConfigError:
        raise
    except ValueError as exc:
        raise ConfigError(f"bad wok config: {exc}") from exc
