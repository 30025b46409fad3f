"""Packs and maps as the engine uses them: loaded once per folder and cached.

A battle names its pack by folder (None = the shipped default pack), so states stay small
and JSON-safe; `get_pack` and `get_terrain` return the shared, read-only objects.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from suite.paths import asset
from suite.tactics.assets.ini import too_long
from suite.tactics.assets.model import Pack, Piece
from suite.tactics.assets.pack import load_pack
from suite.tactics.rules.data import load_rules
from suite.tactics.rules.terrain import Terrain


class PackError(ValueError):
    """A pack or map that cannot host a battle (message names the folder and the item)."""


def default_pack_dir() -> Path:
    return asset("tactics")


@functools.lru_cache(maxsize=64)
def pack_key(root: str | Path | None) -> str:
    """The cache key of a pack folder (its resolved path)."""
    return str(Path(root).resolve()) if root else str(default_pack_dir().resolve())


@functools.lru_cache(maxsize=8)
def _load(key: str) -> Pack:
    path = Path(key)
    if not path.is_dir():
        raise PackError(f"{key}: no such pack folder")
    return load_pack(path)


def get_pack(root: str | Path | None) -> Pack:
    """The pack in `root` (None: the default pack), loaded once."""
    return _load(pack_key(root))


def playable_pieces(pack: Pack) -> dict[int, Piece]:
    """Pieces an army may hold: at least 1 HP and a weapon the pack defines."""
    return pack.playable_pieces()


def playable_maps(pack: Pack, players: int) -> list[int]:
    """Ids of the loaded maps that have a start for each of `players` armies."""
    return sorted(
        mid
        for mid, grid in pack.grids.items()
        if sum(start is not None for start in grid.starts) >= players
    )


def resolve_map(pack: Pack, choice: object, seed: int, players: int) -> int:
    """The map id a config's "map" names: an id, a digit string, a name (case-blind), or
    None for "each map in turn" (the seed picks among the playable maps)."""
    maps = playable_maps(pack, players)
    if not maps:
        raise PackError(f"{pack.root}: no map has starts for {players} armies")
    if choice is None or choice == "":
        return maps[seed % len(maps)]
    if isinstance(choice, str) and choice.strip().isdigit():
        if too_long(choice):
            raise PackError(f"{pack.root}: no playable map {choice.strip()[:12]}... (have {maps})")
        choice = int(choice)
    if isinstance(choice, int) and not isinstance(choice, bool):
        if choice in maps:
            return choice
        raise PackError(f"{pack.root}: no playable map {choice} (have {maps})")
    if isinstance(choice, str):
        for mid in maps:
            if pack.grids[mid].name.lower() == choice.strip().lower():
                return mid
        names = ", ".join(pack.grids[m].name for m in maps)
        raise PackError(f"{pack.root}: no playable map named {choice!r} (have {names})")
    raise PackError(f"map must be an id or a name, not {choice!r}")


@functools.lru_cache(maxsize=8)  # each terrain keeps bounded caches (see terrain.py)
def _terrain(key: str, map_id: int) -> Terrain:
    return Terrain.from_grid(_load(key).grids[map_id], load_rules())


def get_terrain(root: str | Path | None, map_id: int) -> Terrain:
    """The engine's view of one loaded map (cached)."""
    return _terrain(pack_key(root), map_id)


@functools.lru_cache(maxsize=8)
def _digest(key: str) -> str:
    from suite.tactics.assets.files import resolve
    from suite.tactics.assets.limits import limits, read_limited
    from suite.tactics.assets.model import INI_NAME

    try:
        data = read_limited(resolve(Path(key), INI_NAME), limits().ini.max_bytes, INI_NAME)
    except (OSError, ValueError):
        data = b""
    return hashlib.sha256(data).hexdigest()[:16]


def pack_digest(root: str | Path | None) -> str:
    """The first 16 hex digits of the SHA-256 of the pack's `tactics_ini.txt` (cached)."""
    return _digest(pack_key(root))
