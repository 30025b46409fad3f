"""Which board a WoK game plays on: shipped maps by name, files by path, or generated.

The config key "map" may be a shipped map's name ("trial", "star-islands", "kaomaris"),
a path to a Tiled `.tmx` or board `.json` file, or a number of provinces (an int or a
digit string) for a freshly generated map seeded by the game's seed.
"""

from __future__ import annotations

from pathlib import Path

from suite.core.board import Board, BoardError, load_json
from suite.core.tiled import load_tmx
from suite.paths import asset
from suite.wok.rules.mapgen import generate_map

# name -> (provinces, players); the files are assets/wok/maps/<name>.tmx, made by
# tools/make_wok_maps.py
SHIPPED: dict[str, tuple[int, int]] = {
    "trial": (20, 2),
    "star-islands": (30, 5),
    "kaomaris": (60, 10),
}
TITLES: dict[str, str] = {"trial": "Trial", "star-islands": "Star Islands", "kaomaris": "Kaomaris"}
"""The shipped maps' names as set-up screens show them."""


def default_map(colours: int) -> str:
    """The smallest shipped map made for at least `colours` players."""
    for name, (_, players) in sorted(SHIPPED.items(), key=lambda kv: kv[1]):
        if players >= colours:
            return name
    return "kaomaris"


def resolve_map(spec: object, colours: int, seed: int) -> Board:
    """The board for config value `spec` (see the module docstring)."""
    if spec is None:
        spec = default_map(colours)
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        n = int(spec)
        return generate_map(n, colours, seed, name=f"Generated {n}")
    if not isinstance(spec, str):
        raise BoardError(f"map must be a name, a path or a number of provinces, not {spec!r}")
    if spec in SHIPPED:
        return load_tmx(asset("wok", "maps", f"{spec}.tmx"))
    path = Path(spec)
    if path.suffix == ".tmx":
        return load_tmx(path)
    if path.suffix == ".json":
        return load_json(path)
    known = ", ".join(SHIPPED)
    raise BoardError(f"unknown map {spec!r} (shipped: {known}; or a .tmx/.json path or a number)")
