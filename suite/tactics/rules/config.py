"""The typed match config of a Tactics battle (read through core `parse_config`).

Unknown keys and values of the wrong type are refused with a `ConfigError` naming the key;
the values are then checked against the rule numbers by `TacticsState.create`.
"""

from __future__ import annotations

from typing import Literal

import msgspec

ArmyChoice = list[int] | Literal["random", "value"] | None
"""One seat's army: up to 9 formation slots of piece ids (0 = empty, filled row by row),
"random", "value" (the army a simple value model picks) or None (= "random")."""


class ProfileConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A seat's WoS character as requirements see it (RULINGS T12); `free_only`: the seat
    (a bot the host has not allowed locked pieces) fields only pieces with no requirement."""

    level: int = 1
    tokens: list[int] = msgspec.field(default_factory=list)
    free_only: bool = False


class TacticsConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A battle's settings.

    `pack`: pack folder (None = the shipped pack); `map`: id, name or None (the seed picks
    each playable map in turn); `players`: 2-4; `pieces_per_turn`: 1-4, or 0 for "all
    rested" (None = the rules' default); `armies`: per seat, see `ArmyChoice`; `army_size`:
    pieces in a random or value army (None = `max_pieces`); `max_pieces`: army size limit
    (None = the rules' limit); `profiles`: per seat or None (seats with a profile must meet
    their pieces' requirements; seat 0 hosts and must meet the map's); `max_rounds` (and
    its alias `max_turns`, what `suite sim --max-turns` sets): rounds before the battle
    ends by score (None = the rules' cap).
    """

    players: int = 2
    pack: str | None = None
    map: int | str | None = None
    pieces_per_turn: int | None = None
    armies: list[ArmyChoice] | None = None
    army_size: int | None = None
    max_pieces: int | None = None
    profiles: list[ProfileConfig | None] | None = None
    max_rounds: int | None = None
    max_turns: int | None = None
