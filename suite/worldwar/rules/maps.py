"""Where World War boards come from: the classic map, random maps and map files.

`resolve_map(spec, seed)` turns a map spec into a validated Board:
- "classic": the 42-territory world map (assets/worldwar/maps/classic.tmx);
- "random", "random:N:K" or {"random": {"territories": N, "continents": K}}: a generated
  map seeded by `seed` (defaults from assets/worldwar/maps/generator.toml);
- a path ending .tmx (Tiled), .json (core board JSON) or .map (Domination), or
  {"path": "..."}.
Anything else raises BoardError saying what is accepted. `list_maps(folder)` lists the
choices for a set-up screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from suite.core.board import Board, BoardError, load_json
from suite.core.tiled import load_tmx
from suite.paths import asset
from suite.worldwar.rules.domination import load_domination, map_title
from suite.worldwar.rules.mapgen import generate_map, settings

CLASSIC = "classic"
RANDOM = "random"
FILE_KINDS = {".tmx": "tiled", ".json": "json", ".map": "domination"}
_ACCEPTED = (
    "use 'classic', 'random', 'random:N:K', {'random': {'territories': N, 'continents': K}} "
    "or a .tmx, .json or .map file"
)


@dataclass(frozen=True, slots=True)
class MapChoice:
    """One entry of `list_maps`: pass `spec` to `resolve_map`; show `title`."""

    spec: str
    title: str
    kind: str  # "classic", "random", "tiled", "json" or "domination"


def classic_path() -> Path:
    return asset("worldwar", "maps", "classic.tmx")


@cache
def classic_map() -> Board:
    """The classic world map (loaded once; boards are immutable)."""
    return load_tmx(classic_path())


def resolve_map(spec: str | Mapping[str, Any], seed: int = 0) -> Board:
    """The board a map spec names (see the module docstring); BoardError when it cannot."""
    if isinstance(spec, Mapping):
        return _resolve_mapping(spec, seed)
    if not isinstance(spec, str):
        raise BoardError(f"map spec must be a string or a mapping, not {type(spec).__name__}")
    text = spec.strip()
    if text.lower() == CLASSIC:
        return classic_map()
    if text.lower() == RANDOM or text.lower().startswith(RANDOM + ":"):
        return _resolve_random(text, seed)
    return load_map_file(text)


def load_map_file(path: str | Path) -> Board:
    """Load a .tmx, .json or .map file by its extension."""
    p = Path(path)
    kind = FILE_KINDS.get(p.suffix.lower())
    if kind is None:
        raise BoardError(f"unknown map {str(path)!r}: {_ACCEPTED}")
    if not p.is_file():
        raise BoardError("no such map file", str(p))
    loader = {"tiled": load_tmx, "json": load_json, "domination": load_domination}[kind]
    try:
        return loader(p)
    except BoardError:
        raise
    except (ValueError, LookupError, ArithmeticError, RecursionError, OSError) as exc:
        # The loaders name the item that is wrong; anything they let through still
        # becomes a BoardError naming the file, never a crash of the set-up screen.
        raise BoardError(f"unreadable map: {type(exc).__name__}: {exc}", str(p)) from exc


def _resolve_random(text: str, seed: int) -> Board:
    cfg = settings()
    parts = text.split(":")
    if len(parts) == 1:
        return generate_map(cfg.default_territories, cfg.default_continents, seed)
    if len(parts) != 3:
        raise BoardError(f"bad random map spec {text!r}: write random:N:K, e.g. random:42:6")
    try:
        n, k = int(parts[1]), int(parts[2])
    except ValueError:
        raise BoardError(f"bad random map spec {text!r}: N and K must be whole numbers") from None
    return generate_map(n, k, seed)


def _resolve_mapping(spec: Mapping[str, Any], seed: int) -> Board:
    if set(spec) == {RANDOM}:
        opts = spec[RANDOM]
        if opts is True or opts is None:
            opts = {}
        if not isinstance(opts, Mapping):
            raise BoardError(f"'random' options must be a mapping, not {opts!r}")
        unknown = set(opts) - {"territories", "continents"}
        if unknown:
            raise BoardError(f"unknown random map options {sorted(unknown)}")
        cfg = settings()
        try:
            n = int(opts.get("territories", cfg.default_territories))
            k = int(opts.get("continents", cfg.default_continents))
        except (TypeError, ValueError):
            raise BoardError(f"random map options must be whole numbers: {dict(opts)}") from None
        return generate_map(n, k, seed)
    if set(spec) == {"path"}:
        return load_map_file(str(spec["path"]))
    raise BoardError(f"unknown map spec {dict(spec)!r}: {_ACCEPTED}")


def list_maps(user_maps_dir: str | Path | None = None) -> list[MapChoice]:
    """Classic first, then every .map, .tmx and .json file in the folder (by name), then random.

    Files are only named here, not validated: `resolve_map` reports a broken one.
    """
    out = [MapChoice(CLASSIC, "Classic world", "classic")]
    if user_maps_dir is not None:
        folder = Path(user_maps_dir)
        if folder.is_dir():
            for p in sorted(folder.iterdir(), key=lambda q: q.name.lower()):
                kind = FILE_KINDS.get(p.suffix.lower())
                if kind is None or not p.is_file():
                    continue
                title = map_title(p) if kind == "domination" else p.stem.replace("_", " ")
                out.append(MapChoice(str(p), title, kind))
    cfg = settings()
    out.append(
        MapChoice(
            RANDOM,
            f"Random ({cfg.default_territories} territories, {cfg.default_continents} continents)",
            "random",
        )
    )
    return out
