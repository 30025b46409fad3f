"""Generate the default WoS Tactics pack (assets/tactics/) from code: no downloaded art.

    .venv/bin/python tools/make_tactics_pack.py [--out DIR] [--preview PNG]

Writes the palette, iso-cube tiles, maps (some RLE8), elevation bitmaps, 5-frame piece
filmstrips, numpy-synthesised 11 kHz mono sounds and `tactics_ini.txt` (CRLF line ends and
backslash paths, like packs made on Windows). Everything is deterministic: textures use an
integer hash, sounds a fixed-seed `Rng`, generated map elevations the library's own
generator. `--preview` also draws one map as an iso battlefield with pieces on it.
"""

from __future__ import annotations

import argparse
import math
import wave
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from suite.core.rng import Rng
from suite.tactics.assets import elevation
from suite.tactics.assets.bmp import save_bmp
from suite.tactics.assets.model import START_INDICES, TILE_SIZE, TRANSPARENT_INDEX

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "tactics"
U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]

# --------------------------------------------------------------------------- palette
# 16-shade ramps (dark -> light): name -> (first index, dark rgb, mid rgb, light rgb)
RAMPS: dict[str, tuple[int, tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]] = {
    "grass": (16, (18, 48, 14), (70, 140, 40), (196, 226, 110)),
    "dirt": (32, (40, 24, 12), (120, 80, 44), (214, 176, 120)),
    "stone": (48, (30, 32, 40), (112, 116, 124), (222, 222, 214)),
    "forest": (64, (6, 26, 14), (30, 84, 38), (120, 170, 70)),
    "water": (80, (8, 18, 60), (30, 90, 170), (170, 230, 250)),
    "lava": (96, (50, 6, 4), (210, 60, 10), (255, 240, 120)),
    "sand": (112, (90, 62, 30), (206, 170, 96), (252, 240, 190)),
    "snow": (128, (60, 76, 110), (170, 190, 220), (252, 252, 255)),
    "metal": (144, (26, 28, 36), (118, 126, 140), (236, 240, 248)),
    "skin": (160, (70, 36, 20), (196, 130, 90), (255, 222, 190)),
    "magic": (176, (30, 10, 50), (120, 50, 170), (240, 190, 255)),
    "wood": (192, (36, 20, 8), (118, 74, 36), (214, 166, 104)),
    "grey": (208, (0, 0, 0), (136, 136, 136), (255, 255, 255)),
    "team": (232, (70, 40, 0), (214, 150, 20), (255, 244, 150)),
}
ROCK = 224  # 8 shades of dark rock, 224-231
TEAM_FIRST = RAMPS["team"][0]  # the pack names its 16 team shades in teamColors (T14)
OUTLINE = 7
SHADE_COUNT = 16


def _ramp(
    dark: tuple[int, ...], mid: tuple[int, ...], light: tuple[int, ...]
) -> list[tuple[int, ...]]:
    colours = []
    for i in range(SHADE_COUNT):
        t = i / (SHADE_COUNT - 1)
        a, b, f = (dark, mid, t * 2) if t <= 0.5 else (mid, light, t * 2 - 1)
        colours.append(tuple(round(a[k] + (b[k] - a[k]) * f) for k in range(3)))
    return colours


def make_palette() -> U8:
    """The 256 colours: 0 black, 6 transparent teal, ramps, 249-252 the start colours."""
    pal = np.zeros((256, 3), dtype=np.uint8)
    fixed = {
        1: (32, 32, 32),
        2: (64, 64, 64),
        3: (128, 128, 128),
        4: (192, 192, 192),
        5: (255, 255, 254),
        6: (0, 128, 128),
        7: (16, 12, 10),
        8: (255, 255, 255),
        9: (255, 236, 150),
        10: (160, 16, 16),
        11: (255, 70, 40),
        12: (60, 200, 255),
        248: (100, 100, 100),
        249: (255, 0, 0),
        250: (0, 255, 0),
        251: (255, 255, 0),
        252: (0, 0, 255),
        253: (255, 0, 255),
        254: (0, 255, 255),
        255: (250, 250, 250),
    }
    for index, rgb in fixed.items():
        pal[index] = rgb
    for first, dark, mid, light in RAMPS.values():
        for i, rgb in enumerate(_ramp(dark, mid, light)):
            pal[first + i] = rgb
    for i in range(8):
        v = 22 + i * 14
        pal[ROCK + i] = (v, v - 4, v - 8)
    for i in range(13, 16):
        pal[i] = (i * 3, i * 3, i * 3)
    return pal


def shade(ramp: str, level: int) -> int:
    """Palette index of shade `level` (0 dark - 15 light, clamped) of a ramp."""
    return RAMPS[ramp][0] + max(0, min(SHADE_COUNT - 1, level))


def shades(ramp: str, levels: I64) -> U8:
    return (RAMPS[ramp][0] + np.clip(levels, 0, SHADE_COUNT - 1)).astype(np.uint8)


def write_pal(path: Path, pal: U8) -> None:
    """The palette as a JASC-PAL text file (what paint programs load)."""
    lines = ["JASC-PAL", "0100", "256"] + [f"{r} {g} {b}" for r, g, b in pal.tolist()]
    path.write_text("\r\n".join(lines) + "\r\n", encoding="ascii")


# --------------------------------------------------------------------------- noise
def hash01(x: I64, y: I64, seed: int) -> npt.NDArray[np.float64]:
    """A fixed integer hash of (x, y, seed) in [0, 1)."""
    h = (x * 374761393 + y * 668265263 + seed * 2246822519) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    h = h ^ (h >> 16)
    return h.astype(np.float64) / 2**32


def value_noise(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], cell: float, seed: int):
    """Smooth noise in [0, 1): hashed lattice values, smoothstep-interpolated."""
    gx, gy = x / cell, y / cell
    x0, y0 = np.floor(gx).astype(np.int64), np.floor(gy).astype(np.int64)
    fx, fy = gx - x0, gy - y0
    fx, fy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
    a, b = hash01(x0, y0, seed), hash01(x0 + 1, y0, seed)
    c, d = hash01(x0, y0 + 1, seed), hash01(x0 + 1, y0 + 1, seed)
    return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy


# --------------------------------------------------------------------------- tiles
YY, XX = np.mgrid[0:128, 0:128].astype(np.int64)
DIAMOND = (np.abs(XX * 2 - 127) / 128 + np.abs(YY * 2 - 63) / 64) <= 1.0
LEFT = (XX < 64) & (YY * 2 >= 64 + XX) & (YY * 2 < 192 + XX) & ~DIAMOND
RIGHT = (XX >= 64) & (YY * 2 >= 64 + (127 - XX)) & (YY * 2 < 192 + (127 - XX)) & ~DIAMOND
# iso texture coordinates on the top face: u along the down-right edge, v down-left
U = (XX / 2 + YY).astype(np.float64)
V = (-XX / 2 + YY + 64).astype(np.float64)
# depth below the top edge on each side face
DEPTH_L = (YY - (32 + XX // 2)).astype(np.int64)
DEPTH_R = (YY - (32 + (127 - XX) // 2)).astype(np.int64)


def _edge(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    inner = mask.copy()
    inner[1:, :] &= mask[:-1, :]
    inner[:-1, :] &= mask[1:, :]
    inner[:, 1:] &= mask[:, :-1]
    inner[:, :-1] &= mask[:, 1:]
    return mask & ~inner


@dataclass(frozen=True)
class TileKind:
    """A default tile: ini name, file stem, palette index (= map colour), movement bits."""

    name: str
    stem: str
    index: int
    movement: int
    top: Callable[[int], I64]
    top_ramp: str
    side: Callable[[int, I64], tuple[str, I64]]


def _noise_levels(base: int, spread: float, cell: float, seed: int) -> I64:
    n = value_noise(U, V, cell, seed) + 0.5 * value_noise(U, V, cell / 3, seed + 9)
    return np.round(base + (n - 0.75) * spread).astype(np.int64)


def top_grass(seed: int) -> I64:
    levels = _noise_levels(8, 6, 14, seed)
    blades = hash01(XX, YY, seed + 1) > 0.93
    levels[blades] += 3
    dark = hash01(XX, YY, seed + 2) > 0.95
    levels[dark] -= 3
    return levels


def top_dirt(seed: int) -> I64:
    levels = _noise_levels(8, 5, 10, seed)
    pebbles = value_noise(U, V, 3, seed + 4) > 0.82
    levels[pebbles] = 12
    return levels


def top_stone(seed: int) -> I64:
    levels = _noise_levels(9, 4, 12, seed)
    row = np.floor(V / 10).astype(np.int64)
    shift = (row % 2) * 8
    grout = ((V % 10) < 1.3) | (((U + shift) % 16) < 1.3)
    levels += (hash01(np.floor((U + shift) / 16).astype(np.int64), row, seed) * 4).astype(
        np.int64
    ) - 2
    levels[grout] = 3
    return levels


def top_forest(seed: int) -> I64:
    levels = _noise_levels(6, 4, 10, seed)
    canopy = np.zeros_like(levels)
    for k, (cx, cy, r) in enumerate(((40, 24, 15), (84, 22, 14), (62, 40, 16), (64, 12, 10))):
        d = np.sqrt((XX - cx) ** 2 + ((YY - cy) * 1.6) ** 2)
        inside = d < r
        light = np.round(9 + 5 * (1 - d / r) - 3 * ((XX - cx) > 0) + 2 * hash01(XX, YY, seed + k))
        canopy = np.where(inside, np.maximum(canopy, light.astype(np.int64)), canopy)
        ring = (d >= r) & (d < r + 2.2) & (canopy == 0)
        canopy = np.where(ring, 1, canopy)
    return np.where(canopy > 0, canopy, levels)


def top_water(seed: int) -> I64:
    wave_ = np.sin(U / 6 + 3 * value_noise(U, V, 20, seed)) + 0.6 * np.sin(V / 4.5)
    levels = np.round(7 + 2.2 * wave_).astype(np.int64)
    glint = (wave_ > 1.35) & (hash01(XX, YY, seed) > 0.4)
    levels[glint] = 14
    return levels


def top_lava(seed: int) -> I64:
    n = value_noise(U, V, 9, seed) + 0.5 * value_noise(U, V, 4, seed + 3)
    cracks = np.abs(n - 0.75) < 0.09
    levels = np.where(cracks, 13 + np.round(2 * hash01(XX, YY, seed)).astype(np.int64), 2)
    levels = np.where(np.abs(n - 0.75) < 0.04, 15, levels)
    crust = (~cracks) & (hash01(XX, YY, seed + 5) > 0.9)
    return np.where(crust, 4, levels)


def top_sand(seed: int) -> I64:
    ripple = np.sin((U * 0.9 + V * 0.3) / 3.2 + 4 * value_noise(U, V, 24, seed))
    levels = np.round(9 + 1.6 * ripple).astype(np.int64)
    levels[hash01(XX, YY, seed) > 0.96] = 6
    return levels


def top_snow(seed: int) -> I64:
    levels = _noise_levels(12, 4, 16, seed)
    levels[hash01(XX, YY, seed + 1) > 0.97] = 15
    return levels


def top_bridge(seed: int) -> I64:
    plank = np.floor(U / 9).astype(np.int64)
    gap = (U % 9) < 1.4
    levels = 9 + (hash01(plank, plank * 0, seed) * 4).astype(np.int64) - 2
    levels = levels + np.round(np.sin(V / 2.5) * 0.8).astype(np.int64)
    levels[gap] = 2
    nails = ((U % 9) > 3.5) & ((U % 9) < 5) & ((np.abs(V - 40) < 1.2) | (np.abs(V - 88) < 1.2))
    levels[nails] = 0
    return levels


def top_rock(seed: int) -> I64:
    n = value_noise(U, V, 7, seed)
    levels = np.round(1 + n * 6).astype(np.int64)
    levels[np.abs(n - 0.5) < 0.03] = 0
    return levels


def side_strata(ramp: str, base: int, seed: int, fringe: str | None = None):
    def side(face: int, depth: I64) -> tuple[str, I64]:
        band = depth // 11
        levels = base - face + (hash01(band, band * 0 + face, seed) * 3).astype(np.int64)
        levels = levels - (depth // 40)
        levels[(depth % 11) == 0] -= 2
        speck = hash01(XX, YY, seed + face) > 0.94
        levels[speck] -= 2
        return ramp, levels

    return side


def side_with_fringe(top_ramp: str, ramp: str, base: int, seed: int):
    strata = side_strata(ramp, base, seed)

    def side(face: int, depth: I64) -> tuple[str, I64]:
        name, levels = strata(face, depth)
        jag = 5 + (hash01(XX // 3, XX * 0, seed) * 5).astype(np.int64)
        fringe = depth < jag
        # encode the fringe as a negative level marker handled by render_tile
        return name, np.where(fringe, -100 + 7 - face, levels)

    return side


TILES = [
    TileKind(
        "Grass",
        "grass",
        shade("grass", 8),
        3,
        top_grass,
        "grass",
        side_with_fringe("grass", "dirt", 7, 11),
    ),
    TileKind(
        "Dirt road", "dirt", shade("dirt", 8), 3, top_dirt, "dirt", side_strata("dirt", 7, 12)
    ),
    TileKind(
        "Cobbles", "stone", shade("stone", 8), 3, top_stone, "stone", side_strata("stone", 8, 13)
    ),
    TileKind(
        "Forest",
        "forest",
        shade("forest", 8),
        3,
        top_forest,
        "forest",
        side_with_fringe("forest", "dirt", 6, 14),
    ),
    TileKind(
        "Water", "water", shade("water", 8), 10, top_water, "water", side_strata("water", 6, 15)
    ),
    TileKind("Lava", "lava", shade("lava", 8), 6, top_lava, "lava", side_strata("lava", 3, 16)),
    TileKind("Sand", "sand", shade("sand", 8), 3, top_sand, "sand", side_strata("sand", 8, 17)),
    TileKind("Snow", "snow", shade("snow", 8), 3, top_snow, "snow", side_strata("snow", 8, 18)),
    TileKind(
        "Bridge", "bridge", shade("wood", 8), 11, top_bridge, "wood", side_strata("wood", 6, 19)
    ),
    TileKind("Rock wall", "rock", ROCK + 4, 2, top_rock, "rock", side_strata("stone", 3, 20)),
]


def _levels_to_index(ramp: str, levels: I64) -> U8:
    if ramp == "rock":
        return (ROCK + np.clip(levels, 0, 7)).astype(np.uint8)
    return shades(ramp, levels)


def render_tile(kind: TileKind, seed: int) -> U8:
    """A 128x128 tile: the textured diamond on top, shaded cube sides below, outlined."""
    img = np.full((128, 128), TRANSPARENT_INDEX, dtype=np.uint8)
    top = _levels_to_index(kind.top_ramp, kind.top(seed))
    img[DIAMOND] = top[DIAMOND]
    for face, mask, depth in ((2, LEFT, DEPTH_L), (5, RIGHT, DEPTH_R)):
        ramp, levels = kind.side(face, depth)
        fringe = levels < -50
        side = _levels_to_index(ramp, levels)
        side[fringe] = _levels_to_index(kind.top_ramp, levels[fringe] + 100)
        img[mask] = side[mask]
    # black grid line around the diamond and darker cube edges
    img[_edge(DIAMOND)] = OUTLINE
    solid = img != TRANSPARENT_INDEX
    img[_edge(solid) & ~DIAMOND] = OUTLINE
    img[(XX == 63) & (YY >= 64) & solid] = OUTLINE
    return img


# --------------------------------------------------------------------------- maps
@dataclass
class MapSpec:
    id: int
    name: str
    stem: str
    size: int
    tiles: U8
    seed: int | None = None
    roughness: int | None = None  # T16: the height span 0-255
    elevation: U8 | None = None  # palette indices of an elevation bitmap
    rle8: bool = False
    requirements: str = ""


T = {kind.stem: kind.index for kind in TILES}


def _grid(size: int) -> tuple[I64, I64]:
    yy, xx = np.mgrid[0:size, 0:size].astype(np.int64)
    return xx, yy


def _canvas(size: int, ground: str) -> tuple[I64, I64, U8]:
    """Cell coordinates and a map filled with `ground`."""
    xx, yy = _grid(size)
    return xx, yy, np.full((size, size), T[ground], dtype=np.uint8)


def _field(xx: I64, yy: I64, cell: float, seed: int) -> npt.NDArray[np.float64]:
    """Smooth noise over map cells."""
    return value_noise(xx * 1.0, yy * 1.0, cell, seed)


def _finish(tiles: U8, cut: int, inset: int, ground: str = "grass") -> None:
    """Cut the corners to border and place the starts."""
    _cut_corners(tiles, cut)
    _place_starts(tiles, inset, ground)


def _cut_corners(tiles: U8, cut: int) -> None:
    size = tiles.shape[0]
    xx, yy = _grid(size)
    far = size - 1
    for cx, cy in ((0, 0), (far, 0), (0, far), (far, far)):
        tiles[np.abs(xx - cx) + np.abs(yy - cy) < cut] = 0


def _place_starts(tiles: U8, inset: int, ground: str = "grass") -> None:
    """Put the four starts near the edge middles, each on a 3x3 patch that walkers can
    stand on (T8 formations)."""
    size = tiles.shape[0]
    far = size - 1 - inset
    spots = ((inset, size // 2), (size // 2, inset), (far, size // 2), (size // 2, far))
    for (x, y), index in zip(spots, START_INDICES, strict=True):
        area = tiles[y - 1 : y + 2, x - 1 : x + 2]
        blocked = (area == 0) | (area == T["water"]) | (area == T["lava"]) | (area == T["rock"])
        area[blocked] = T[ground]
        tiles[y, x] = index


def _blob(
    tiles: U8, xx: I64, yy: I64, cx: float, cy: float, r: float, index: int, seed: int
) -> None:
    d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) + (_field(xx, yy, 3, seed) - 0.5) * r
    tiles[d < r] = index


def map_meadow() -> MapSpec:
    size = 16
    xx, yy, tiles = _canvas(size, "grass")
    tiles[_field(xx, yy, 3, 5) > 0.68] = T["forest"]
    tiles[(xx == 8) | (yy == 7)] = T["dirt"]
    _finish(tiles, 3, 1)
    return MapSpec(1, "Green Meadow", "meadow", size, tiles)


def map_rivers() -> MapSpec:
    size = 24
    xx, yy, tiles = _canvas(size, "grass")
    tiles[_field(xx, yy, 4, 21) > 0.7] = T["forest"]
    river1 = np.abs(xx - (8 + 2 * np.sin(yy / 3.5))) < 1.2
    river2 = np.abs(xx - (16 + 2 * np.sin(yy / 4 + 2))) < 1.2
    tiles[river1 | river2] = T["water"]
    tiles[(yy == 5) & (river1 | river2)] = T["bridge"]
    tiles[(yy == 18) & (river1 | river2)] = T["bridge"]
    tiles[(yy == 12) & river1] = T["bridge"]
    _finish(tiles, 4, 2)
    # hills: smooth bumps, low in the river beds, as grey-ramp indices (red = 17 * shade)
    height = np.zeros((size, size))
    for cx, cy, h in ((3, 12, 9), (12, 3, 7), (20, 12, 9), (12, 21, 7), (12, 12, 8)):
        height += h * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 30.0)
    height[river1 | river2] -= 1  # water lies a little lower than its banks
    level = np.clip(np.round(height), 0, 15).astype(np.int64)
    return MapSpec(
        2, "Twin Rivers", "rivers", size, tiles, elevation=shades("grey", level), rle8=True
    )


def map_lava_keep() -> MapSpec:
    size = 32
    xx, yy, tiles = _canvas(size, "dirt")
    tiles[_field(xx, yy, 4, 33) > 0.76] = T["rock"]
    ring = np.maximum(np.abs(xx - 15.5), np.abs(yy - 15.5))
    tiles[(ring > 5) & (ring < 9)] = T["lava"]
    tiles[ring <= 5] = T["stone"]
    tiles[((np.abs(xx - 15.5) < 1) | (np.abs(yy - 15.5) < 1)) & (ring < 9)] = T["stone"]
    for k, (cx, cy) in enumerate(((5, 5), (26, 6), (6, 25), (25, 26))):
        _blob(tiles, xx, yy, cx, cy, 2.2, T["lava"], 40 + k)
    _finish(tiles, 5, 2, "dirt")
    return MapSpec(3, "Lava Keep", "lavakeep", size, tiles, seed=7, roughness=40)


def map_crags() -> MapSpec:
    size = 32
    xx, yy, tiles = _canvas(size, "grass")
    n = _field(xx, yy, 6, 51)
    tiles[n > 0.55] = T["dirt"]
    tiles[n > 0.74] = T["rock"]
    tiles[_field(xx, yy, 3, 52) > 0.8] = T["forest"]
    _finish(tiles, 6, 2)
    return MapSpec(
        4, "The Crags", "crags", size, tiles, seed=1234, roughness=96, rle8=True, requirements="L3"
    )


def map_frozen() -> MapSpec:
    size = 24
    xx, yy, tiles = _canvas(size, "snow")
    _blob(tiles, xx, yy, 11.5, 11.5, 5.0, T["water"], 61)
    tiles[_field(xx, yy, 3, 62) > 0.78] = T["forest"]
    tiles[(np.abs(yy - 11.5) < 0.6) & (tiles == T["water"])] = T["bridge"]
    _finish(tiles, 4, 2, "snow")
    return MapSpec(5, "Frozen Lake", "frozen", size, tiles, seed=99, roughness=24)


def map_oasis() -> MapSpec:
    size = 40
    xx, yy, tiles = _canvas(size, "sand")
    _blob(tiles, xx, yy, 19.5, 19.5, 5.5, T["grass"], 71)
    _blob(tiles, xx, yy, 19.5, 19.5, 3.0, T["water"], 72)
    ruins = (np.maximum(np.abs(xx - 9), np.abs(yy - 30)) == 3) | (
        np.maximum(np.abs(xx - 30), np.abs(yy - 9)) == 3
    )
    tiles[ruins & (hash01(xx, yy, 73) > 0.3)] = T["stone"]
    tiles[_field(xx, yy, 4, 74) > 0.8] = T["rock"]
    _finish(tiles, 8, 3, "sand")
    return MapSpec(6, "Desert Oasis", "oasis", size, tiles, seed=2024, roughness=48)


def map_great_field() -> MapSpec:
    size = 48
    xx, yy, tiles = _canvas(size, "grass")
    tiles[_field(xx, yy, 6, 81) > 0.64] = T["forest"]
    tiles[_field(xx, yy, 8, 82) > 0.78] = T["sand"]
    river = np.abs(yy - (23.5 + 4 * np.sin(xx / 6))) < 1.3
    tiles[river] = T["water"]
    tiles[river & ((xx % 12) == 5)] = T["bridge"]
    _blob(tiles, xx, yy, 38, 9, 3.5, T["lava"], 83)
    _blob(tiles, xx, yy, 9, 38, 3.0, T["rock"], 84)
    tiles[(xx == 24) & ~river] = T["dirt"]
    _finish(tiles, 9, 3)
    ridge = 6 * np.exp(-((xx - 12) ** 2) / 30.0) + 5 * np.exp(-((xx - 36) ** 2) / 24.0)
    ridge = ridge * (0.6 + 0.4 * _field(xx, yy, 8, 85))
    ridge[river] = 0
    level = np.clip(np.round(ridge), 0, 15).astype(np.int64)
    return MapSpec(7, "Great Field", "greatfield", size, tiles, elevation=shades("grey", level))


MAPS = [map_meadow, map_rivers, map_lava_keep, map_crags, map_frozen, map_oasis, map_great_field]


def heights_of(spec: MapSpec, pal: U8) -> U8:
    """The heights the game plays: drawn, or generated with the starts connected (T16)."""
    if spec.elevation is not None:
        return pal[spec.elevation, 0]
    heights = elevation.generate(spec.size, spec.seed, spec.roughness)
    walkable, starts = _walkers(spec.tiles)
    return elevation.connect_starts(heights, walkable, starts, _walk_step())


def _walk_step() -> int:
    from suite.tactics.rules.data import load_rules

    return load_rules().movement.move_elevation_step


def _walkers(tiles: U8) -> tuple[npt.NDArray[np.bool_], list[tuple[int, int] | None]]:
    """Cells earth walkers (movement 1) may enter, and the (x, y) of each start."""
    lookup = np.zeros(256, dtype=bool)
    for kind in TILES:
        lookup[kind.index] = bool(kind.movement & 1)
    lookup[list(START_INDICES)] = True
    starts: list[tuple[int, int] | None] = []
    for index in START_INDICES:
        found = np.argwhere(tiles == index)
        starts.append((int(found[0][1]), int(found[0][0])) if len(found) else None)
    return lookup[tiles], starts


def connected_for_walkers(tiles: U8, heights: U8) -> bool:
    """True when earth walkers can reach every start from the first (RULINGS T2)."""
    walkable, starts = _walkers(tiles)
    return all(elevation.reached_starts(heights, walkable, starts, _walk_step()))


# --------------------------------------------------------------------------- pieces
FRAME = 96
POSES = ("credits", "stand", "attack", "pain", "alt")


@dataclass(frozen=True)
class Pose:
    lean: int  # x shift of the upper body
    bob: int  # y shift of the whole figure
    swing: float  # weapon angle in degrees (0 = held upright, 90 = thrust forward)
    legs: int  # leg spread


POSE = {
    "credits": Pose(0, 0, 20, 4),
    "stand": Pose(0, 0, 20, 4),
    "attack": Pose(5, 0, 95, 7),
    "pain": Pose(-5, 2, -25, 3),
    "alt": Pose(0, 1, 35, 4),
}


class Canvas:
    """Draws one 96x96 frame with pygame into an 8-bit surface (palette indices)."""

    def __init__(self, pygame, name: str) -> None:  # type: ignore[no-untyped-def]
        self.pg = pygame
        self.surf = pygame.Surface((FRAME, FRAME), depth=8)
        self.surf.fill(TRANSPARENT_INDEX)
        self.name = name
        self.pose = POSE[name]

    def ellipse(self, colour: int, x: float, y: float, w: float, h: float) -> None:
        self.pg.draw.ellipse(
            self.surf, colour, (round(x - w / 2), round(y - h / 2), round(w), round(h))
        )

    def poly(self, colour: int, points: list[tuple[float, float]]) -> None:
        self.pg.draw.polygon(self.surf, colour, [(round(a), round(b)) for a, b in points])

    def line(
        self, colour: int, a: tuple[float, float], b: tuple[float, float], width: int = 2
    ) -> None:
        self.pg.draw.line(
            self.surf, colour, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), width
        )

    def rect(self, colour: int, x: float, y: float, w: float, h: float) -> None:
        self.pg.draw.rect(self.surf, colour, (round(x), round(y), round(w), round(h)))

    def indices(self) -> U8:
        arr = self.pg.surfarray.array2d(self.surf).T.astype(np.uint8)
        solid = arr != TRANSPARENT_INDEX
        border = np.zeros_like(solid)
        border[1:, :] |= solid[:-1, :]
        border[:-1, :] |= solid[1:, :]
        border[:, 1:] |= solid[:, :-1]
        border[:, :-1] |= solid[:, 1:]
        arr[border & ~solid] = OUTLINE
        return arr


def _tip(x: float, y: float, length: float, degrees: float) -> tuple[float, float]:
    rad = math.radians(degrees)
    return x + length * math.sin(rad), y - length * math.cos(rad)


def humanoid(
    c: Canvas,
    tunic: str,
    skin: str = "skin",
    legs: str = "dirt",
    scale: float = 1.0,
    cx: float = 44,
    head_item: str | None = None,
) -> tuple[float, float]:
    """Legs, team-coloured tunic, arms and head; returns the weapon hand position."""
    p = c.pose
    s = scale
    foot = 82 + p.bob
    hip = foot - 20 * s
    body_x = cx + p.lean
    for side in (-1, 1):
        kx = cx + side * p.legs * s / 2
        c.line(shade(legs, 5), (cx + side * 3 * s, hip), (kx, foot - 2), max(3, round(5 * s)))
        c.ellipse(shade(legs, 3), kx + 2, foot - 1, 8 * s, 4 * s)
    top = hip - 24 * s
    c.poly(
        shade(tunic, 9),
        [
            (cx - 9 * s, hip + 3),
            (cx + 9 * s, hip + 3),
            (body_x + 8 * s, top),
            (body_x - 8 * s, top),
        ],
    )
    c.poly(
        shade(tunic, 12),
        [
            (cx - 7 * s, hip + 2),
            (cx - 2 * s, hip + 2),
            (body_x - 3 * s, top + 2),
            (body_x - 6 * s, top + 2),
        ],
    )
    c.rect(shade("dirt", 3), cx - 9 * s, hip - 3 * s, 18 * s, 3 * s)
    head_y = top - 7 * s
    c.ellipse(shade(skin, 9), body_x, head_y, 13 * s, 14 * s)
    c.ellipse(shade(skin, 12), body_x - 2 * s, head_y - 2 * s, 5 * s, 5 * s)
    c.rect(OUTLINE, body_x + 2 * s, head_y - 1 * s, 2, 2)
    if head_item == "helmet":
        c.poly(
            shade("metal", 10),
            [
                (body_x - 7 * s, head_y),
                (body_x + 7 * s, head_y),
                (body_x + 5 * s, head_y - 9 * s),
                (body_x - 5 * s, head_y - 9 * s),
            ],
        )
        c.line(shade("metal", 13), (body_x - 1, head_y - 9 * s), (body_x - 1, head_y - 1), 1)
    elif head_item == "hood":
        c.poly(
            shade(tunic, 6),
            [
                (body_x - 8 * s, head_y + 4),
                (body_x + 8 * s, head_y + 2),
                (body_x + 2 * s, head_y - 12 * s),
                (body_x - 7 * s, head_y - 6 * s),
            ],
        )
        c.ellipse(shade(skin, 8), body_x + 2 * s, head_y + 1, 7 * s, 8 * s)
    elif head_item == "crown":
        c.poly(
            shade("team", 14),
            [
                (body_x - 7 * s, head_y - 4 * s),
                (body_x - 7 * s, head_y - 12 * s),
                (body_x - 3 * s, head_y - 7 * s),
                (body_x, head_y - 13 * s),
                (body_x + 3 * s, head_y - 7 * s),
                (body_x + 7 * s, head_y - 12 * s),
                (body_x + 7 * s, head_y - 4 * s),
            ],
        )
        c.rect(11, body_x - 1, head_y - 8 * s, 2, 2)
    # back arm and weapon arm
    shoulder = (body_x + 5 * s, top + 4 * s)
    hand = _tip(shoulder[0], shoulder[1], 12 * s, 150 - p.swing * 0.8)
    c.line(
        shade(skin, 7),
        (body_x - 6 * s, top + 4 * s),
        (body_x - 9 * s, top + 15 * s),
        max(3, round(4 * s)),
    )
    c.line(shade(skin, 8), shoulder, hand, max(3, round(4 * s)))
    return hand


def sword(c: Canvas, hand: tuple[float, float], length: float = 24, metal: int = 12) -> None:
    angle = c.pose.swing
    tip = _tip(*hand, length, angle)
    c.line(shade("metal", metal), hand, tip, 3)
    c.line(shade("metal", 15), hand, _tip(*hand, length * 0.8, angle), 1)
    guard_a = _tip(*hand, 4, angle - 90)
    guard_b = _tip(*hand, 4, angle + 90)
    c.line(shade("team", 12), guard_a, guard_b, 2)


def shield(c: Canvas, x: float, y: float, w: float = 14, h: float = 18) -> None:
    c.ellipse(shade("wood", 6), x, y, w, h)
    c.ellipse(shade("team", 10), x, y, w - 4, h - 4)
    c.ellipse(shade("metal", 13), x, y, 4, 4)


def draw_swordsman(c: Canvas) -> None:
    hand = humanoid(c, "team", head_item="helmet")
    shield(c, 36 + c.pose.lean, 56 + c.pose.bob)
    sword(c, hand)


def draw_archer(c: Canvas) -> None:
    p = c.pose
    # a ranger's green cloak behind a team-coloured tunic and hood
    c.poly(
        shade("forest", 6),
        [(36 + p.lean, 38 + p.bob), (50 + p.lean, 38 + p.bob), (52, 74 + p.bob), (30, 76 + p.bob)],
    )
    hand = humanoid(c, "team", head_item="hood")
    bx, by = hand[0] + 4, hand[1] - 2
    span = 30
    c.pg.draw.arc(
        c.surf,
        shade("wood", 9),
        (round(bx - 8), round(by - span / 2), 16, span),
        -math.pi / 2,
        math.pi / 2,
        3,
    )
    pull = 7 if p.swing > 60 else 2
    c.line(shade("stone", 14), (bx, by - span / 2 + 1), (bx - pull, by), 1)
    c.line(shade("stone", 14), (bx - pull, by), (bx, by + span / 2 - 1), 1)
    if p.swing > 60:
        c.line(shade("wood", 12), (bx - pull, by), (bx + 16, by), 1)
        c.line(shade("metal", 14), (bx + 14, by), (bx + 18, by), 2)
    c.rect(shade("wood", 6), 30 + p.lean, 40 + p.bob, 5, 16)  # quiver
    for k in range(3):
        c.line(
            shade("wood", 11),
            (31 + k * 2 + p.lean, 40 + p.bob),
            (29 + k * 2 + p.lean, 33 + p.bob),
            1,
        )


def draw_pikeman(c: Canvas) -> None:
    hand = humanoid(c, "team", legs="metal", head_item="helmet")
    angle = 10 + c.pose.swing * 0.75
    tip = _tip(*hand, 44, angle)
    butt = _tip(*hand, -16, angle)
    c.line(shade("wood", 8), butt, tip, 3)
    c.poly(
        shade("metal", 14),
        [_tip(*tip, 9, angle), _tip(*tip, 3, angle - 90), _tip(*tip, 3, angle + 90)],
    )
    c.rect(shade("team", 12), tip[0] - 5, tip[1] + 2, 4, 6)


def draw_king(c: Canvas) -> None:
    p = c.pose
    c.poly(
        shade("team", 6),
        [(34 + p.lean, 44 + p.bob), (54 + p.lean, 44 + p.bob), (60, 82 + p.bob), (28, 82 + p.bob)],
    )
    c.poly(shade("magic", 3), [(36, 84 + p.bob), (30, 82 + p.bob), (34 + p.lean, 46 + p.bob)])
    hand = humanoid(c, "magic", head_item="crown", legs="magic")
    c.line(shade("snow", 15), (34 + p.lean, 44 + p.bob), (54 + p.lean, 44 + p.bob), 3)
    sword(c, hand, 26, 14)


def draw_mage(c: Canvas) -> None:
    p = c.pose
    # a team-coloured robe below the purple mantle and hood
    c.poly(
        shade("team", 8),
        [(32, 82 + p.bob), (56, 82 + p.bob), (50 + p.lean, 46 + p.bob), (38 + p.lean, 46 + p.bob)],
    )
    hand = humanoid(c, "magic", head_item="hood", legs="team")
    c.poly(
        shade("magic", 12), [(36, 80 + p.bob), (52, 80 + p.bob), (50, 77 + p.bob), (38, 77 + p.bob)]
    )
    angle = c.pose.swing * 0.5
    top = _tip(*hand, 30, angle)
    c.line(shade("wood", 7), _tip(*hand, -14, angle), top, 3)
    glow = 15 if p.swing > 60 else 12
    c.ellipse(shade("magic", glow - 4), top[0], top[1], 10, 10)
    c.ellipse(12 if p.swing > 60 else shade("magic", glow), top[0], top[1], 5, 5)
    if p.swing > 60:
        for k in range(3):
            c.ellipse(shade("magic", 14), top[0] + 8 + k * 6, top[1] + k, 3, 3)


def draw_scout(c: Canvas) -> None:
    hand = humanoid(c, "team", legs="wood", scale=0.88, cx=46)
    lean, bob = c.pose.lean, c.pose.bob
    # a team-coloured travelling cloak, with a lit fold and a clasp
    c.poly(
        shade("team", 7),
        [(38 + lean, 40 + bob), (50 + lean, 40 + bob), (56, 66 + bob), (36, 68 + bob)],
    )
    c.poly(
        shade("team", 11),
        [(41 + lean, 42 + bob), (44 + lean, 42 + bob), (42, 66 + bob), (39, 67 + bob)],
    )
    c.ellipse(shade("metal", 13), 44 + lean, 41 + bob, 4, 3)
    sword(c, hand, 12, 13)
    off = (36 + lean, 58 + bob)
    c.line(shade("metal", 12), off, (off[0] - 4, off[1] + 8), 2)


def draw_ogre(c: Canvas) -> None:
    p = c.pose
    # green hide under a team-coloured jerkin, a belt and shoulder strap; a spiked club
    hand = humanoid(c, "team", skin="forest", legs="forest", scale=1.35, cx=46)
    c.rect(shade("dirt", 4), 30 + p.lean, 48 + p.bob, 30, 6)
    c.rect(shade("metal", 12), 43 + p.lean, 48 + p.bob, 5, 6)
    c.line(shade("dirt", 5), (36 + p.lean, 26 + p.bob), (56 + p.lean, 48 + p.bob), 3)
    c.line(shade("forest", 2), (40 + p.lean, 24 + p.bob), (52 + p.lean, 24 + p.bob), 1)
    angle = p.swing
    end = _tip(*hand, 30, angle)
    c.line(shade("wood", 6), hand, end, 5)
    c.ellipse(shade("wood", 8), end[0], end[1], 14, 14)
    for k in (-1, 1):
        spike = _tip(*end, 9, angle + 90 * k)
        c.line(shade("metal", 13), end, spike, 2)


def draw_harpy(c: Canvas) -> None:
    p = c.pose
    flap = {"attack": -18, "pain": 14, "alt": 10}.get(c.name, 0)
    for side, col in ((-1, 8), (1, 11)):
        root = (44 + p.lean + side * 4, 44 + p.bob)
        tip = (44 + p.lean + side * 34, 22 + flap + p.bob)
        low = (44 + p.lean + side * 26, 56 + p.bob + flap // 2)
        c.poly(shade("team", col), [root, tip, low])
        c.poly(
            shade("team", col - 4), [root, ((tip[0] + low[0]) / 2, (tip[1] + low[1]) / 2 + 4), low]
        )
    hand = humanoid(c, "team", skin="skin", legs="team", scale=0.85, cx=44)
    for side in (-1, 1):
        c.line(shade("metal", 4), (44 + side * 4, 78 + p.bob), (44 + side * 7, 83 + p.bob), 2)
    c.line(shade("metal", 14), hand, _tip(*hand, 8, p.swing + 30), 2)


def draw_naga(c: Canvas) -> None:
    p = c.pose
    # a scaly sea-green tail with team-coloured fins along its back, a team-coloured
    # scale vest and sash on the upper body, a trident
    for k in range(7):
        t = k / 6
        x = 30 + 30 * t + p.lean * (1 - t)
        y = 80 + p.bob - 6 * math.sin(t * math.pi)
        c.ellipse(shade("water", 7 + (k % 2) * 2), x, y, 16 - k, 10 - k // 2)
        if k % 2 == 0:
            top = y - (10 - k // 2) / 2
            c.poly(shade("team", 10), [(x - 5, top + 2), (x, top - 6), (x + 4, top + 2)])
    c.poly(shade("team", 11), [(60, 76 + p.bob), (74, 66 + p.bob), (72, 84 + p.bob)])
    c.poly(shade("team", 7), [(62, 77 + p.bob), (72, 76 + p.bob), (71, 82 + p.bob)])
    hand = humanoid(c, "team", skin="water", legs="water", cx=34)
    lean, bob = p.lean, p.bob
    for row in range(3):  # scales on the vest
        for col in range(3):
            c.ellipse(shade("team", 13), 30 + lean + col * 4, 41 + bob + row * 6, 3, 2)
    c.line(shade("team", 5), (27 + lean, 38 + bob), (41 + lean, 58 + bob), 3)  # sash
    angle = p.swing
    tip = _tip(*hand, 34, angle)
    c.line(shade("metal", 10), _tip(*hand, -10, angle), tip, 2)
    for k in (-1, 0, 1):
        c.line(
            shade("metal", 14),
            _tip(*tip, 3, angle + 90 * k),
            _tip(*_tip(*tip, 3, angle + 90 * k), 7, angle),
            2,
        )


def draw_salamander(c: Canvas) -> None:
    p = c.pose
    y = 70 + p.bob
    # a team-coloured fire lizard: body, head and tail in the army's colour, dark bands,
    # a glowing lava belly and crest, fire breath when it attacks
    c.poly(shade("team", 6), [(10, y), (30, y - 7), (30, y + 6)])  # tail
    c.poly(shade("team", 9), [(14, y - 1), (30, y - 5), (30, y)])
    for lx, back in ((32, 1), (50, -1)):
        c.line(shade("team", 4), (lx + p.lean / 2, y + 4), (lx - 2 * back, y + 13), 5)
        c.ellipse(shade("team", 3), lx - 2 * back + 1, y + 14, 8, 4)
    c.ellipse(shade("team", 8), 42 + p.lean / 2, y, 36, 17)
    c.ellipse(shade("team", 12), 40 + p.lean / 2, y - 4, 24, 6)
    c.ellipse(shade("lava", 11), 43 + p.lean / 2, y + 5, 24, 5)  # belly glow
    for k in range(3):  # dark bands across the back
        bx = 32 + k * 9 + p.lean / 2
        c.line(shade("team", 3), (bx, y - 7), (bx + 2, y + 2), 2)
    head = (63 + p.lean, y - 8 + (6 if p.swing < 0 else 0))
    c.line(shade("team", 7), (54 + p.lean / 2, y - 3), head, 7)  # neck
    c.ellipse(shade("team", 9), head[0], head[1], 19, 13)
    c.ellipse(shade("team", 12), head[0] - 2, head[1] - 3, 9, 4)
    c.rect(shade("lava", 14), head[0] + 2, head[1] - 3, 3, 3)  # eye
    for k in range(4):  # lava crest
        c.poly(
            shade("lava", 12),
            [(30 + k * 7, y - 7), (33 + k * 7, y - 14), (37 + k * 7, y - 7)],
        )
    if p.swing > 60:
        for k in range(4):
            c.ellipse(shade("lava", 15 - k * 2), head[0] + 12 + k * 5, head[1] + k, 7 - k, 6 - k)


def draw_wolf(c: Canvas) -> None:
    p = c.pose
    y = 66 + p.bob
    lunge = p.lean
    c.poly(shade("stone", 6), [(14, y - 8), (24, y - 2), (22, y + 2)])
    c.ellipse(shade("stone", 7), 40 + lunge / 2, y, 36, 18)
    c.ellipse(shade("stone", 10), 38 + lunge / 2, y - 4, 24, 6)
    for lx, back in ((28, 1), (34, -1), (50, 1), (56, -1)):
        c.line(shade("stone", 4), (lx + lunge / 2, y + 6), (lx + back * p.legs / 2, y + 17), 4)
    head = (62 + lunge, y - 10 + (4 if p.swing < 0 else 0))
    c.ellipse(shade("stone", 8), head[0], head[1], 16, 13)
    c.poly(
        shade("stone", 9),
        [(head[0] + 4, head[1] - 2), (head[0] + 14, head[1] + 2), (head[0] + 4, head[1] + 5)],
    )
    c.poly(
        shade("stone", 5),
        [(head[0] - 5, head[1] - 5), (head[0] - 2, head[1] - 13), (head[0] + 1, head[1] - 5)],
    )
    c.rect(11, head[0] + 1, head[1] - 3, 2, 2)
    if p.swing > 60:
        c.line(8, (head[0] + 6, head[1] + 3), (head[0] + 12, head[1] + 3), 1)
    # a team-coloured saddle blanket with a fringe, and a collar
    c.rect(shade("team", 10), 26 + lunge / 2, y - 10, 22, 14)
    c.rect(shade("team", 13), 26 + lunge / 2, y - 10, 22, 3)
    for k in range(5):
        c.rect(shade("team", 6), 27 + k * 4 + lunge / 2, y + 4, 2, 3)
    c.line(shade("team", 8), (head[0] - 7, head[1] + 1), (head[0] - 3, head[1] + 7), 3)


def draw_catapult(c: Canvas) -> None:
    p = c.pose
    y = 74 + p.bob
    # a wooden engine with team-painted side boards, wheel rims and a large pennant
    c.rect(shade("wood", 6), 18, y - 8, 56, 8)
    c.rect(shade("team", 9), 20, y - 7, 52, 5)
    c.poly(shade("wood", 8), [(38, y - 8), (46, y - 30), (54, y - 8)])
    c.poly(shade("team", 8), [(41, y - 9), (46, y - 24), (51, y - 9)])
    for wx in (26, 66):
        c.ellipse(shade("team", 6), wx, y + 2, 17, 17)
        c.ellipse(shade("wood", 4), wx, y + 2, 12, 12)
        c.ellipse(shade("metal", 9), wx, y + 2, 5, 5)
    angle = -60 + p.swing * 0.9 if p.swing > 0 else -70
    end = _tip(46, y - 26, 34, angle)
    c.line(shade("wood", 10), (46, y - 26), end, 4)
    c.ellipse(shade("stone", 8), end[0], end[1], 9, 9)
    c.line(shade("wood", 5), (62, y - 8), (62, y - 50), 2)
    c.poly(shade("team", 12), [(62, y - 50), (82, y - 44), (62, y - 36)])
    c.poly(shade("team", 9), [(62, y - 43), (82, y - 44), (62, y - 36)])


PIECE_ART: dict[str, Callable[[Canvas], None]] = {
    "swordsman": draw_swordsman,
    "archer": draw_archer,
    "harpy": draw_harpy,
    "naga": draw_naga,
    "salamander": draw_salamander,
    "ogre": draw_ogre,
    "king": draw_king,
    "pikeman": draw_pikeman,
    "mage": draw_mage,
    "scout": draw_scout,
    "catapult": draw_catapult,
    "wolf": draw_wolf,
}


def render_skin(pygame, stem: str, pal: U8) -> U8:  # type: ignore[no-untyped-def]
    """A 480x96 filmstrip: credits, stand, attack, pain, alt stand."""
    frames = []
    for pose in POSES:
        canvas = Canvas(pygame, pose)
        canvas.surf.set_palette([tuple(int(v) for v in rgb) for rgb in pal])
        PIECE_ART[stem](canvas)
        frame = canvas.indices()
        if pose == "credits":
            frame[[0, -1], :] = shade("team", 12)
            frame[:, [0, -1]] = shade("team", 12)
        frames.append(frame)
    return np.concatenate(frames, axis=1)


# --------------------------------------------------------------------------- sounds
RATE = 11025


def _env(n: int, attack: float = 0.01, decay: float = 6.0) -> npt.NDArray[np.float64]:
    t = np.arange(n) / RATE
    return np.minimum(1.0, t / max(attack, 1e-4)) * np.exp(-decay * t)


def _tone(
    freqs: list[float], dur: float, decay: float = 6.0, kind: str = "sine"
) -> npt.NDArray[np.float64]:
    n = int(RATE * dur)
    t = np.arange(n) / RATE
    out = np.zeros(n)
    for f in freqs:
        phase = 2 * np.pi * f * t
        out += np.sin(phase) if kind == "sine" else (2 * ((f * t) % 1.0) - 1) * 0.6
    return out / max(1, len(freqs)) * _env(n, decay=decay)


def _noise(dur: float, rng: Rng) -> npt.NDArray[np.float64]:
    n = int(RATE * dur)
    return np.array([rng.random() * 2 - 1 for _ in range(n)])


def _lowpass(x: npt.NDArray[np.float64], k: float) -> npt.NDArray[np.float64]:
    out = np.zeros_like(x)
    acc = 0.0
    for i, v in enumerate(x):
        acc += k * (v - acc)
        out[i] = acc
    return out


def _sweep(f0: float, f1: float, dur: float, decay: float = 4.0) -> npt.NDArray[np.float64]:
    n = int(RATE * dur)
    f = np.linspace(f0, f1, n)
    phase = 2 * np.pi * np.cumsum(f) / RATE
    return np.sin(phase) * _env(n, decay=decay)


def _seq(parts: list[npt.NDArray[np.float64]]) -> npt.NDArray[np.float64]:
    return np.concatenate(parts)


def make_sounds() -> dict[str, npt.NDArray[np.float64]]:
    rng = Rng(11025)
    sounds = {
        "select": _tone([880, 1320], 0.09, 30),
        "ready": _seq([_tone([660], 0.07, 20), _tone([990], 0.1, 18)]),
        "go": _seq([_tone([523], 0.07, 15), _tone([659], 0.07, 15), _tone([784], 0.12, 12)]),
        "go2": _sweep(300, 700, 0.22, 8),
        "attack": _lowpass(_noise(0.25, rng), 0.35) * _env(int(RATE * 0.25), 0.05, 10) * 1.6,
        "attack2": _sweep(900, 200, 0.2, 9) * 0.7 + _lowpass(_noise(0.2, rng), 0.2) * 0.6,
        "pain": _tone([180, 186], 0.3, 7, "saw") + _sweep(260, 150, 0.3, 7) * 0.4,
        "pain2": _tone([140, 143], 0.35, 6, "saw"),
        "death": _sweep(400, 60, 0.8, 3) * 0.8
        + _lowpass(_noise(0.8, rng), 0.1) * _env(int(RATE * 0.8), 0.01, 3),
        "hit": _lowpass(_noise(0.18, rng), 0.25) * _env(int(RATE * 0.18), 0.002, 18) * 1.8
        + _tone([90], 0.18, 14),
        "miss": _lowpass(_noise(0.3, rng), 0.08)
        * np.sin(np.linspace(0, np.pi, int(RATE * 0.3)))
        * 2.5,
        "crit": _tone([523, 1046, 1568, 2217], 0.6, 5) * 1.4
        + _lowpass(_noise(0.6, rng), 0.3) * _env(int(RATE * 0.6), 0.001, 30),
        "turn": _seq([_tone([784, 1175], 0.18, 9), _tone([1047, 1568], 0.3, 6)]),
        "win": _seq(
            [
                _tone([523, 659], 0.14, 8),
                _tone([659, 784], 0.14, 8),
                _tone([784, 1047], 0.14, 8),
                _tone([1047, 1319, 1568], 0.5, 3),
            ]
        ),
        "lose": _seq(
            [_tone([392, 466], 0.22, 5), _tone([349, 415], 0.22, 5), _tone([262, 311], 0.6, 3)]
        ),
    }
    return sounds


def write_wav(path: Path, samples: npt.NDArray[np.float64]) -> None:
    """11 kHz mono 16-bit PCM, normalised with a short fade-out."""
    peak = float(np.max(np.abs(samples))) or 1.0
    data = samples / peak * 0.8
    fade = min(len(data), 200)
    data[-fade:] *= np.linspace(1, 0, fade)
    pcm = np.round(data * 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm.tobytes())


SOUND_IDS = {
    name: i
    for i, name in enumerate(
        [
            "select",
            "ready",
            "go",
            "go2",
            "attack",
            "attack2",
            "pain",
            "pain2",
            "death",
            "hit",
            "miss",
            "crit",
            "turn",
            "win",
            "lose",
        ],
        start=1,
    )
}
SOUND_SETS = [  # id, name, sounds
    (1, "ready", ["select", "ready"]),
    (2, "go", ["go", "go2"]),
    (3, "attack", ["attack", "attack2"]),
    (4, "pain", ["pain", "pain2"]),
    (5, "death", ["death"]),
    (6, "hit", ["hit"]),
    (7, "miss", ["miss"]),
    (8, "crit", ["crit"]),
    (9, "turn", ["turn"]),
    (10, "win", ["win"]),
    (11, "lose", ["lose"]),
]

# --------------------------------------------------------------------------- rules data
WEAPONS = [  # id, name, class, dominates, damage, movement
    (1, "Sword", "Melee", "Missile", 4),
    (2, "Bow", "Missile", "Reach", 3),
    (3, "Pike", "Reach", "Melee", 4),
    (4, "Maul", "Melee", "Missile", 5),
    (5, "Claws", "Melee", "Missile", 3),
    (6, "Trident", "Reach", "Melee", 3),
    (7, "Fire breath", "Missile", "Reach", 3),
    (8, "Firebolt", "Missile", "Reach", 4),
    (9, "Royal blade", "Melee", "Missile", 5),
    (10, "Catapult", "Missile", "Reach", 5),
    (11, "Fangs", "Melee", "Missile", 3),
]
# name, stem, max#, hp, mp, str, def, agi, el, mov, mob, range, minRange, wpn, req
PIECES = [
    ("Swordsman", "swordsman", 0, 10, 0, 4, 4, 3, 0, 1, 3, 1, 0, 1, ""),
    ("Archer", "archer", 0, 7, 0, 4, 2, 4, 0, 1, 3, 4, 1, 2, ""),
    ("Harpy", "harpy", 3, 7, 0, 3, 2, 5, 0, 2, 5, 1, 0, 5, ""),
    ("Naga", "naga", 3, 9, 0, 4, 3, 3, 0, 9, 3, 2, 0, 6, ""),
    ("Salamander", "salamander", 3, 8, 0, 4, 3, 4, 4, 5, 3, 2, 0, 7, ""),
    ("Ogre", "ogre", 2, 16, 0, 6, 5, 1, 0, 1, 2, 1, 0, 4, ""),
    ("King", "king", 1, 12, 4, 5, 4, 3, 0, 1, 3, 1, 0, 9, ""),
    ("Pikeman", "pikeman", 0, 10, 0, 4, 4, 2, 0, 1, 2, 2, 0, 3, ""),
    ("Mage", "mage", 2, 6, 10, 5, 1, 3, 4, 1, 2, 3, 0, 8, "L2"),
    ("Scout", "scout", 0, 7, 0, 3, 2, 6, 0, 1, 5, 1, 0, 1, ""),
    ("Catapult", "catapult", 1, 9, 0, 6, 3, 1, 0, 1, 1, 6, 2, 10, "L5+T1"),
    ("Wolf", "wolf", 3, 8, 0, 4, 2, 5, 0, 1, 5, 1, 0, 11, ""),
]


def ini_text(maps: list[MapSpec]) -> str:
    def set_id(name: str) -> int:
        return next(i for i, n, _s in SOUND_SETS if n == name)

    lines = [
        "; WoS Tactics default pack, generated by tools/make_tactics_pack.py",
        "; Keys and sections are case-insensitive; the first occurrence of a key wins.",
        "[general]",
        f"numMaps = {len(maps)}",
        "version = 1.0",
        "; palette indices recoloured with the army colour (RULINGS T14; real packs use 43, 83)",
        "teamColors = " + ", ".join(str(i) for i in range(TEAM_FIRST, TEAM_FIRST + SHADE_COUNT)),
        "",
        "[Tiles]",
        "; tileN = Name, bitmap, movement, flags   (N = palette index; movement bits:",
        ";         1 earth, 2 air, 4 fire, 8 water)",
    ]
    for kind in TILES:
        lines.append(f"tile{kind.index} = {kind.name}, tiles\\{kind.stem}, {kind.movement}, 0")
    lines += ["", "[Sounds]", "; soundN = label, wav"]
    for name, number in SOUND_IDS.items():
        lines.append(f"sound{number} = {name}, sounds\\{name}")
    lines += ["", "[SoundSets]", "; soundSetN = name, sound ids (any one is played)"]
    for number, name, members in SOUND_SETS:
        ids = ", ".join(str(SOUND_IDS[m]) for m in members)
        lines.append(f"soundSet{number} = {name}" + (f", {ids}" if ids else ","))
    lines += [
        "",
        "[Weapons]",
        "; weaponN = Name, Class, Dominates, Damage, Movement, setHit, setMiss, setCrit, flags",
        "; Melee beats Missile, Missile beats Reach, Reach beats Melee.",
    ]
    hit, miss, crit = set_id("hit"), set_id("miss"), set_id("crit")
    for number, name, cls, dom, damage in WEAPONS:
        lines.append(
            f'weapon{number} = "{name}", {cls}, {dom}, {damage}, 255, {hit}, {miss}, {crit}, 0'
        )
    lines += [
        "",
        "[Pieces]",
        "; pieceN = name, bitmap, max#, hp, mp, str, def, agi, el, mov, mob, range, minRange,",
        ";          setRdy, setGo, setAtt, setPain, setDeath, wpn, armor, spellSet, req, flags",
    ]
    sets = [set_id(n) for n in ("ready", "go", "attack", "pain", "death")]
    for number, row in enumerate(PIECES, start=1):
        name, stem, mx, hp, mp, st, df, ag, el, mov, mob, rng_, mn, wpn, req = row
        fields = [
            name,
            f"skins\\{stem}",
            mx,
            hp,
            mp,
            st,
            df,
            ag,
            el,
            mov,
            mob,
            rng_,
            mn,
            *sets,
            wpn,
            0,
            0,
            f'"{req}"',
            0,
        ]
        lines.append(f"piece{number} = " + ", ".join(str(f) for f in fields))
    for spec in maps:
        lines += [
            "",
            f"[map{spec.id}]",
            f"name = {spec.name}",
            "author = warsuite",
            f"bitmap = maps\\{spec.stem}",
        ]
        if spec.elevation is not None:
            lines.append(f"elevationBitmap = maps\\{spec.stem}_elev")
        if spec.seed is not None:
            lines += [f"seed = {spec.seed}", f"roughness = {spec.roughness}"]
        if spec.requirements:
            lines.append(f"requirements = {spec.requirements}")
    lines += ["", "[Spells]", "", "[Armor]", ""]
    return "\r\n".join(lines) + "\r\n"


# --------------------------------------------------------------------------- preview
def render_preview(pack_dir: Path, map_id: int, out: Path, half: float = 0.5) -> None:
    """Draw one map as an iso battlefield with four armies into a PNG (visual check);
    `half` is the drawing scale (0.5 = tiles 64 pixels wide). Tiles and skins (army
    colours, shadows) come from `suite.tactics.render`, as in the game."""
    import pygame

    from suite.tactics.assets.pack import load_pack
    from suite.tactics.render import PackArt
    from suite.tactics.skins import ALT_STAND, STAND

    pygame.display.init()
    pack = load_pack(pack_dir)
    grid = pack.grids[map_id]
    art = PackArt(pack)
    tw, th = int(TILE_SIZE * half), int(TILE_SIZE * half / 2)
    size = grid.size
    tiles = {i: pygame.transform.smoothscale(art.tile(i), (tw, tw)) for i in pack.tiles}
    width = size * tw + 40
    height = size * th + tw + 80
    screen = pygame.Surface((width, height))
    screen.fill((24, 26, 34))
    ox, oy = width // 2 - tw // 2, 40
    lift = half * 0.5  # elevation units to pixels (255 = two cube heights)

    def spot(x: int, y: int) -> tuple[int, int]:
        sx = ox + (x - y) * tw // 2
        sy = oy + (x + y) * th // 2 - int(int(grid.elevation[y, x]) * lift)
        return sx, sy

    army = list(pack.pieces.values())
    placed: dict[tuple[int, int], tuple[int, int]] = {}
    for team, start in enumerate(grid.starts):
        if start is None:
            continue
        slots = [(start[0] + dx, start[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        for k, (x, y) in enumerate(slots):
            piece = army[(k + team * 5) % len(army)]
            if grid.passable(x, y, piece.movement):
                placed[(x, y)] = (piece.id, team)
    for s in range(2 * size - 1):
        for y in range(size):
            x = s - y
            if not (0 <= x < size) or grid.tiles[y, x] == 0:
                continue
            sx, sy = spot(x, y)
            tile = tiles.get(int(grid.tiles[y, x]))
            if tile is not None:
                screen.blit(tile, (sx, sy))
            if (x, y) in placed:
                pid, team = placed[(x, y)]
                frame = art.frame(pid, team, STAND if (x + y) % 2 == 0 else ALT_STAND)
                fs = int(frame.get_height() * half * 1.2)
                frame = pygame.transform.smoothscale(frame, (fs, fs))
                screen.blit(frame, (sx + tw // 2 - fs // 2, sy + th // 2 - fs + int(fs * 0.12)))
    pygame.image.save(screen, str(out))


# --------------------------------------------------------------------------- main
def build(out: Path) -> None:
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    pal = make_palette()
    for sub in ("tiles", "maps", "skins", "sounds"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    write_pal(out / "palette.pal", pal)
    for n, kind in enumerate(TILES):
        save_bmp(out / "tiles" / f"{kind.stem}.bmp", render_tile(kind, 100 + n), pal)
    maps = []
    for make in MAPS:
        spec = make()
        if not connected_for_walkers(spec.tiles, heights_of(spec, pal)):
            raise SystemExit(f"map {spec.name}: the starts are not connected for walkers")
        save_bmp(out / "maps" / f"{spec.stem}.bmp", spec.tiles, pal, rle8=spec.rle8)
        if spec.elevation is not None:
            save_bmp(out / "maps" / f"{spec.stem}_elev.bmp", spec.elevation, pal)
        maps.append(spec)
    for stem in PIECE_ART:
        save_bmp(out / "skins" / f"{stem}.bmp", render_skin(pygame, stem, pal), pal, rle8=True)
    for name, samples in make_sounds().items():
        write_wav(out / "sounds" / f"{name}.wav", samples)
    (out / "tactics_ini.txt").write_bytes(ini_text(maps).encode("ascii"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="pack folder (assets/tactics)")
    parser.add_argument("--preview", type=Path, help="also draw a battlefield PNG here")
    parser.add_argument("--map", type=int, default=2, help="map id of the preview")
    args = parser.parse_args()
    build(args.out)
    if args.preview:
        render_preview(args.out, args.map, args.preview)


if __name__ == "__main__":
    main()
