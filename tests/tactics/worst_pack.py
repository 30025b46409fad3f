"""The costliest pack `assets/tactics/rules/limits.toml` still allows (issue 24, item 4):
as many pieces, sounds, sound sets and weapons as allowed; skins of the widest size made of
1-pixel RLE8 runs (the slowest to decode) filling the pixel budget, every piece naming one
of them; maps of the largest side filling the map-cell budget, each generated at roughness
255 (the most cliffs for the generator to lower). Used by the test and the bench."""

from __future__ import annotations

import struct
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from suite.tactics.assets.bmp import save_bmp
from suite.tactics.assets.limits import limits
from suite.tactics.assets.model import START_INDICES

PALETTE = np.stack([np.arange(256)] * 3, axis=1).astype(np.uint8)
_BMP_HEAD = 14 + 40 + 256 * 4


@dataclass(frozen=True)
class WorstPack:
    root: Path
    skins: int  # distinct skin files
    skin_size: tuple[int, int]  # width, height
    maps: int
    bitmaps: int  # distinct bitmap files (skins, tiles, maps)


def one_pixel_runs(width: int, height: int) -> bytes:
    """An RLE8 BMP whose every pixel is its own run (the slowest stream to decode)."""
    values = (np.arange(width * height) % 250 + 1).astype(np.uint8).reshape(height, width)
    pairs = np.empty((height, 2 * width + 2), dtype=np.uint8)
    pairs[:, 0 : 2 * width : 2] = 1
    pairs[:, 1 : 2 * width : 2] = values
    pairs[:, -2:] = 0  # end of line
    pixels = bytearray(pairs.tobytes())
    pixels[-1] = 1  # the last end of line is the end of the bitmap
    table = np.zeros((256, 4), dtype=np.uint8)
    table[:, :3] = PALETTE[:, ::-1]
    header = struct.pack("<2sIHHI", b"BM", _BMP_HEAD + len(pixels), 0, 0, _BMP_HEAD)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, 1, len(pixels), 0, 0, 256, 0)
    return header + info + table.tobytes() + bytes(pixels)


def build_worst_pack(root: Path) -> WorstPack:
    rules = limits()
    root.mkdir(parents=True, exist_ok=True)
    for sub in ("tiles", "skins", "maps", "sounds"):
        (root / sub).mkdir(exist_ok=True)
    side = rules.map.max_side
    maps = max(1, min(rules.ini.max_maps, rules.pack.max_map_cells // (side * side)))
    width = rules.skin.max_width
    height = min(rules.skin.max_height, (rules.skin.max_bytes - _BMP_HEAD) // (2 * width + 2))
    tile_pixels = 128 * 128
    left = rules.pack.max_pixels - maps * side * side - tile_pixels
    skins = max(1, left // (width * height))
    skin = one_pixel_runs(width, height)
    for n in range(skins):
        (root / "skins" / f"s{n}.bmp").write_bytes(skin)
    tile = np.full((128, 128), 6, dtype=np.uint8)
    tile[32:96, :] = 20
    save_bmp(root / "tiles" / "grass.bmp", tile, PALETTE)
    grid = np.full((side, side), 20, dtype=np.uint8)
    grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = 0
    spots = ((1, 1), (side - 2, 1), (side - 2, side - 2), (1, side - 2))
    for (x, y), index in zip(spots, START_INDICES, strict=True):
        grid[y, x] = index
    for n in range(maps):
        save_bmp(root / "maps" / f"m{n}.bmp", grid, PALETTE)
    for n in range(rules.ini.max_sounds):
        with wave.open(str(root / "sounds" / f"w{n}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(1)
            out.setframerate(11025)
            out.writeframes(bytes([128 + n % 7]) * 64)
    lines = ["[general]", f"numMaps = {maps}", "version = 1.5", "[Tiles]"]
    lines.append("tile20 = Grass, tiles\\grass, 1, 0")
    lines.append("[Sounds]")
    lines += [f"sound{n + 1} = s{n}, sounds\\w{n}" for n in range(rules.ini.max_sounds)]
    lines.append("[SoundSets]")
    sets = rules.ini.max_sound_sets
    for n in range(sets):
        ids = ", ".join(str((n * 10 + k) % rules.ini.max_sounds + 1) for k in range(10))
        lines.append(f"soundSet{n + 1} = set{n}, {ids}")
    lines.append("[Weapons]")
    lines += [
        f"weapon{n + 1} = W{n}, Melee, Missile, 4, 255, 1, 1, 1, 0"
        for n in range(rules.ini.max_weapons)
    ]
    lines.append("[Pieces]")
    for n in range(rules.ini.max_pieces):
        a, b, c, d, e = ((n + k) % sets + 1 for k in range(5))
        weapon = n % rules.ini.max_weapons + 1
        lines.append(
            f"piece{n + 1} = P{n}, skins\\s{n % skins}, 0, 10, 0, 4, 4, 3, 0, 1, 3, 1, 0, "
            f'{weapon}, {a}, {b}, {c}, {d}, {e}, 0, 0, "", 0'
        )
    for n in range(maps):
        lines += [f"[map{n + 1}]", f"name = M{n}", f"bitmap = maps\\m{n}", f"seed = {n + 1}"]
        lines.append("roughness = 255")
    (root / "tactics_ini.txt").write_bytes("\r\n".join(lines).encode("ascii") + b"\r\n")
    return WorstPack(root, skins, (width, height), maps, skins + 1 + maps)
