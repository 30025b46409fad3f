"""The board a World War config names (the map of `create` and `from_dict`).

A config names its map with `map` (anything `maps.resolve_map` takes: "classic",
"random:N:K", a .tmx/.json/.map path or a mapping). Random maps are generated from the
config's `map_seed`, so the same config gives the same board; map files are read once
per modification time.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from suite.core.board import Board
from suite.worldwar.rules.config import DEFAULT_MAP, WorldWarConfig
from suite.worldwar.rules.maps import resolve_map


def _seeded(spec: str | Mapping[str, object]) -> bool:
    if isinstance(spec, Mapping):
        return "random" in spec
    return spec.strip().lower().split(":")[0] == "random"


@lru_cache(maxsize=16)
def _file_board(spec: str, mtime: float) -> Board:
    return resolve_map(spec)


def board_for(config: WorldWarConfig, seed: int) -> Board:
    """The board `config.map` names; BoardError if it cannot be read. `seed` draws a
    random map (the config's `map_seed` when it has one)."""
    spec = config.map
    if _seeded(spec):
        return resolve_map(spec, seed if config.map_seed is None else config.map_seed)
    if isinstance(spec, str) and spec == DEFAULT_MAP:
        return resolve_map(spec)
    if isinstance(spec, str):
        path = Path(spec)
        mtime = path.stat().st_mtime if path.is_file() else 0.0
        return _file_board(spec, mtime)
    return resolve_map(spec, seed)
