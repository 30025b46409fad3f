"""Creating and restoring World War states from configs and snapshots (the GameSpec hooks).

A config names its map with "map" (anything `maps.resolve_map` takes: "classic",
"random:N:K", a .tmx/.json/.map path or a mapping). Random maps are generated from the
game's seed, so the same config and seed give the same board.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from suite.core.board import Board
from suite.worldwar.rules.engine import ConfigError, WorldWar
from suite.worldwar.rules.maps import resolve_map

DEFAULT_MAP = "classic"


def _seeded(spec: str | Mapping[str, Any]) -> bool:
    if isinstance(spec, Mapping):
        return "random" in spec
    return spec.strip().lower().split(":")[0] == "random"


@lru_cache(maxsize=16)
def _file_board(spec: str, mtime: float) -> Board:
    return resolve_map(spec)


def board_for(config: Mapping[str, Any], seed: int) -> Board:
    """The board `config["map"]` names (default classic); BoardError if it cannot be read."""
    spec = config.get("map", DEFAULT_MAP)
    if not isinstance(spec, (str, Mapping)):
        raise ConfigError(f"map must be a name, a path or a mapping, not {spec!r}")
    if _seeded(spec):
        return resolve_map(spec, seed)
    if isinstance(spec, str) and spec == DEFAULT_MAP:
        return resolve_map(spec)
    if isinstance(spec, str):
        path = Path(spec)
        mtime = path.stat().st_mtime if path.is_file() else 0.0
        return _file_board(spec, mtime)
    return resolve_map(spec, seed)


def create(config: Mapping[str, Any], seed: int) -> WorldWar:
    """A new match; the map seed is kept in the config as "map_seed" for restoring."""
    cfg = dict(config)
    cfg.setdefault("map", DEFAULT_MAP)
    cfg["map_seed"] = seed
    return WorldWar.new(board_for(cfg, seed), cfg, seed)


def load(d: dict[str, Any]) -> WorldWar:
    """Restore `WorldWar.to_dict()` output (the board comes from the snapshot or its map)."""
    config = d["config"]
    if "board" in d:
        board = Board.from_json(d["board"], source="saved game")
    else:
        board = board_for(config, int(config.get("map_seed", 0)))
    return WorldWar.restore(d, board)
