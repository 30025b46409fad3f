"""What a client may ask for in an online match config, checked before the server pays.

A room's config comes from whoever creates the room, so it is untrusted: before any engine
builds a match from it, `check_online_config` bounds its size and nesting, every numeric
value to the range below, and its `map` to a name of the server's own maps (never a
path: a client never names a server file, and the refusal never says whether one exists).
The engines then check what the values mean. The ranges are the server's policy, listed
in docs/protocol.md; the largest config they allow creates within the server's budget
and its views fit in one message (tests/net/test_net_limits.py builds it).

`MapBook` is the server's list of maps by game: each game's shipped maps, generated maps
(bounded), and the files in the host's maps folder (`DATA/maps/<game>/`), which the
room's config names by their file name without the extension.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

MAX_CONFIG_BYTES = 4096
"""A config's JSON, at most."""
MAX_DEPTH = 5
"""Objects and arrays nested at most this deep in a config (the top object is 1)."""
MAX_RULE_NUMBER = 100
"""Every number in World War's `rules` overrides lies in 0..MAX_RULE_NUMBER online."""

RANGES: dict[str, dict[str, tuple[int, int]]] = {
    "worldwar": {
        "map_seed": (0, 2**63 - 1),
        "clock": (0, 600),
        "max_turns": (1, 1000),
    },
    "wok": {
        "max_turns": (0, 999),
        "headhunting_turns": (0, 99),
    },
    "tactics": {
        "pieces_per_turn": (0, 4),
        "army_size": (1, 9),
        "max_pieces": (1, 9),
        "max_rounds": (1, 150),
        "max_turns": (1, 150),
    },
}
"""Per game, the range of each top-level whole-number key (`players` is the game's own
player range)."""

GENERATED = {"worldwar": (12, 42), "wok": (8, 36)}
"""Per game, the sizes a generated map may have online (territories / provinces)."""
MAX_CONTINENTS = 8

_RANDOM_SPEC = re.compile(r"random(?::(\d{1,3}):(\d{1,2}))?")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}")
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]{0,63}")
"""A map name a refusal may repeat (no dot, no slash: never a path)."""
MAP_SUFFIXES = {"worldwar": (".map", ".tmx", ".json"), "wok": (".tmx", ".json")}


class OnlineConfigError(ValueError):
    """A config the server refuses; the message names the key."""


def depth_of(value: Any, limit: int) -> int:
    """How deeply `value` nests (a scalar is 0), counting no further than `limit` + 1.

    Iterative, so a hostile document cannot exhaust the interpreter's stack."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            children: Iterable[Any] = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth) for child in children)
    return deepest


def _whole(key: str, value: Any, lo: int, hi: int) -> None:
    if value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise OnlineConfigError(f"{key} must be a whole number, not {value!r}")
    if not lo <= value <= hi:
        raise OnlineConfigError(f"{key} must be {lo} to {hi} online, not {value}")


def _rule_numbers(value: Any, where: str) -> None:
    """Every number inside World War's rule overrides lies in 0..MAX_RULE_NUMBER."""
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, f"{path}.{k}") for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))
        elif (
            isinstance(item, int | float)
            and not isinstance(item, bool)
            and not 0 <= item <= MAX_RULE_NUMBER
        ):
            raise OnlineConfigError(f"{path} must be 0 to {MAX_RULE_NUMBER} online, not {item!r}")


@dataclass(frozen=True)
class MapBook:
    """The maps a server offers, by game (see the module docstring)."""

    folder: Path | None
    """The host's maps folder (`DATA/maps`), holding one folder per game."""

    def host_maps(self, game: str) -> dict[str, Path]:
        """The host's own maps of `game`: name (file name without extension) -> file."""
        if self.folder is None:
            return {}
        folder = self.folder / game
        if not folder.is_dir():
            return {}
        out: dict[str, Path] = {}
        for path in sorted(folder.iterdir()):
            if (
                path.suffix.lower() in MAP_SUFFIXES.get(game, ())
                and _NAME.fullmatch(path.stem)
                and path.is_file()
                and not path.is_symlink()
            ):
                out.setdefault(path.stem, path)
        return out

    def shipped(self, game: str) -> tuple[str, ...]:
        if game == "worldwar":
            from suite.worldwar.rules.maps import CLASSIC

            return (CLASSIC,)
        if game == "wok":
            from suite.wok.rules.maps import SHIPPED

            return tuple(SHIPPED)
        return ()

    def names(self, game: str) -> list[str]:
        """Every map name a room of `game` may use (generated ones as their pattern)."""
        extra = {"worldwar": ["random", "random:N:K"], "wok": ["a number of provinces"]}
        return [*self.shipped(game), *self.host_maps(game), *extra.get(game, [])]

    def check(self, game: str, value: Any) -> None:
        """OnlineConfigError unless `value` is a map `game` may use online."""
        if value is None or game == "tactics":  # Tactics maps are the host pack's own
            return
        lo, hi = GENERATED[game]
        if game == "wok" and (isinstance(value, int) and not isinstance(value, bool)):
            _whole("map", value, lo, hi)
            return
        if not isinstance(value, str):
            raise OnlineConfigError(f"map must be a map's name, not {type(value).__name__}")
        text = value.strip()
        if game == "wok" and text.isdigit():
            _whole("map", int(text[:4]), lo, hi)
            return
        if game == "worldwar":
            match = _RANDOM_SPEC.fullmatch(text.lower())
            if match is not None:
                if match.group(1) is not None:
                    _whole("map territories", int(match.group(1)), lo, hi)
                    _whole("map continents", int(match.group(2)), 1, MAX_CONTINENTS)
                return
        if text in self.shipped(game) or text in self.host_maps(game):
            return
        shown = text if _PLAIN.fullmatch(text) else "that"
        raise OnlineConfigError(
            f"no map {shown!r} on this server: maps are named, not given as paths "
            f"(this server has: {', '.join(self.names(game))})"
        )

    def engine_config(self, game: str, config: Mapping[str, Any]) -> dict[str, Any]:
        """`config` as the engine takes it: a host map's name becomes its file."""
        value = config.get("map")
        if isinstance(value, str):
            path = self.host_maps(game).get(value.strip())
            if path is not None and value.strip() not in self.shipped(game):
                return {**config, "map": str(path)}
        return dict(config)


def check_online_config(
    game: str, config: Mapping[str, Any], players: tuple[int, int], maps: MapBook
) -> None:
    """OnlineConfigError naming the first key out of bounds (see the module docstring)."""
    if depth_of(config, MAX_DEPTH) > MAX_DEPTH:
        raise OnlineConfigError(f"a config nests at most {MAX_DEPTH} levels deep")
    size = len(msgspec.json.encode(config))
    if size > MAX_CONFIG_BYTES:
        raise OnlineConfigError(f"a config is at most {MAX_CONFIG_BYTES} bytes, not {size}")
    _whole("players", config.get("players"), *players)
    for key, (lo, hi) in RANGES.get(game, {}).items():
        _whole(key, config.get(key), lo, hi)
    if game == "wok" and config.get("robots") not in (None, 0):
        raise OnlineConfigError(
            "robots must be 0 online: every seat of an online room is a player's; "
            "the host seats the server's robot bots instead"
        )
    maps.check(game, config.get("map"))
    if game == "worldwar" and config.get("rules") is not None:
        _rule_numbers(config["rules"], "rules")
    if game == "tactics":
        for key in ("armies", "profiles"):
            items = config.get(key)
            if isinstance(items, list) and len(items) > players[1]:
                raise OnlineConfigError(f"{key} has at most {players[1]} entries")
