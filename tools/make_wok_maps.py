"""Regenerate the shipped WoK maps (assets/wok/maps/*.tmx) from their fixed seeds.

Run: .venv/bin/python tools/make_wok_maps.py
"""

from __future__ import annotations

from suite.core.tiled import write_tmx
from suite.paths import asset
from suite.wok.rules.mapgen import generate_map

# file name -> (title, provinces, players, seed, width, height, lobes)
MAPS = {
    "trial": ("Trial", 20, 2, 20, 900, 600, 0),
    "star-islands": ("Star Islands", 30, 5, 30, 1000, 800, 5),
    "kaomaris": ("Kaomaris", 60, 10, 60, 1400, 900, 0),
}


def main() -> int:
    for stem, (title, provinces, players, seed, width, height, lobes) in MAPS.items():
        board = generate_map(provinces, players, seed, title, width, height, lobes)
        path = asset("wok", "maps", f"{stem}.tmx")
        path.parent.mkdir(parents=True, exist_ok=True)
        write_tmx(board, path, width, height)
        degrees = [len(board.neighbours(i)) for i in board.ids()]
        print(f"{path}: {len(board)} provinces, neighbours {min(degrees)}-{max(degrees)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
