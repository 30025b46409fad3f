"""The World War match config: a typed record (unknown keys and bad values refused).

`suite.core.match.parse_config` turns a plain mapping (a set-up screen's choices, `suite
sim --set`, a save) into a `WorldWarConfig`, naming a bad key and listing the known ones.
Checks that need the rules (the clock's choices, the player range) are the engine's.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from suite.worldwar.rules.cards import CARD_MODES

DEFAULT_MAP = "classic"


class WorldWarConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One match's settings.

    `map`: anything `maps.resolve_map` takes ("classic", "random:N:K", a .tmx/.json/.map
    path or a mapping); `map_seed`: the seed random maps are drawn from (set by `create`);
    `cards`: a card mode of `cards.CARD_MODES`; `defender`: "auto" (the defender always
    rolls the most dice, R3's default) or "ask" (the defender chooses with `Defend`);
    `clock`: seconds per turn, one of the rules' clock choices (R7; the host sends
    `TimeUp`); `max_turns`: after that many rounds the game ends and ranks by territories,
    then armies; `rules`: changes to the shipped rules data, in its shape (e.g.
    ``{"battle": {"attacker_max_dice": 1}}``), kept with the match, its saves and replays;
    `auto_place`: deal and place every starting army at once (RULINGS R13); `mode`: how
    the match is won, "domination" (R8), "capital" or "mission" (see `modes`).
    """

    players: int = 2
    map: str | dict[str, Any] = DEFAULT_MAP
    map_seed: int | None = None
    cards: str = "increasing"
    defender: Literal["auto", "ask"] = "auto"
    clock: int = 0
    max_turns: int | None = None
    rules: dict[str, Any] | None = None
    auto_place: bool = False
    mode: Literal["domination", "capital", "mission"] = "domination"

    def __post_init__(self) -> None:
        if self.cards not in CARD_MODES:
            raise ValueError(
                f"cards must be one of {', '.join(CARD_MODES)}, not {self.cards!r} (key `cards`)"
            )
        if self.max_turns is not None and self.max_turns < 1:
            raise ValueError(
                f"max_turns must be at least 1, not {self.max_turns} (key `max_turns`)"
            )
        if self.clock < 0:
            raise ValueError("clock must not be negative (key `clock`)")


def config_dict(config: WorldWarConfig) -> dict[str, Any]:
    """`config` as JSON-safe builtins (for snapshots and replays). The default `mode` is
    left out, so Domination matches snapshot exactly as before modes existed."""
    out = msgspec.to_builtins(config)
    assert isinstance(out, dict)
    if out.get("mode") == "domination":
        del out["mode"]
    return out
