"""A crafted copy of a real world's tactics folder (issue 12, rulings T13-T19): RLE8 skins
carrying the team flag in palette indices 43 and 83 and the artist's guide grid, backslash
paths in another case than on disk, a "flat" map with seed 0, a bumpy seeded map with
roughness 64, an elevation bitmap, "5s" numbers, a sound naming a folder and an empty
sound set. No network: the pack is written here."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from suite.tactics.assets.bmp import save_bmp
from suite.tactics.assets.elevation import cliff_share, reached_starts
from suite.tactics.assets.model import START_INDICES, TRANSPARENT_INDEX
from suite.tactics.assets.pack import load_pack
from suite.tactics.rules.arena import make_bot, play_battle
from suite.tactics.skins import SkinCache, default_style

from .conftest import build_pack

INI = """\
; exported by hand from a world's tactics folder
[General]
NumMaps = 3
Version = 1.07
[Tiles]
tile20 = Grass, TILES\\Grass, 1, 0
tile21 = Road, tiles\\road, 1, 0
[Sounds]
sound1 = hit, SFX\\hit
sound2 = attack, sfx\\attack\\
[SoundSets]
soundSet1 = hits, 1
soundSet2 = nothing,
[Weapons]
weapon1 = Sword, Melee, Missile, 5s, 255, 1, 2, 1, 0
weapon2 = Bow, Missile, Melee, 4, 255, 1, 2, 1, 0
[Pieces]
piece1 = Knight, Skins\\Knight, 0, 14, 0, 5, 4, 3, 0, 1, 3, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, "", 0
piece2 = Archer, skins\\archer, 0, 10, 0, 4, 2, 4, 0, 1, 3, 4s, 1, 1, 1, 1, 1, 1, 2, 0, 0, "", 0
[map1]
name = flat
bitmap = maps\\plain
seed = 0
roughness = 64
[map2]
name = bumpy
bitmap = maps\\bumpy
seed = 4242
roughness = 64
[map3]
name = drawn
bitmap = maps\\drawn
elevationBitmap = maps\\drawn_elev
"""

SIZE = 16
FRAME = 24


def field_map() -> np.ndarray:
    grid = np.full((SIZE, SIZE), 20, dtype=np.uint8)
    grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = 0
    grid[SIZE // 2, 1:-1] = 21
    spots = ((2, 2), (SIZE - 3, 2), (SIZE - 3, SIZE - 3), (2, SIZE - 3))
    for (x, y), index in zip(spots, START_INDICES, strict=True):
        grid[y, x] = index
    return grid


def flag_skin() -> np.ndarray:
    """Six frames (the sixth is ignored): a body of index 30, a flag of 43 (dark) and 83
    (light), the guide grid in index 0 on row 0, column 0 and the shadow line."""
    strip = np.full((FRAME, FRAME * 6 + 5), TRANSPARENT_INDEX, dtype=np.uint8)
    shadow = FRAME - FRAME // 6
    for k in range(6):
        left = k * FRAME
        strip[6:shadow, left + 8 : left + 16] = 30
        strip[4:8, left + 16 : left + 20] = 43
        strip[4:6, left + 16 : left + 20] = 83
        strip[0, left : left + FRAME] = 0
        strip[:, left] = 0
        strip[shadow, left : left + FRAME] = 0
    return strip


@pytest.fixture
def real(tmp_path: Path) -> Path:
    images = {
        "maps/plain.bmp": field_map(),
        "maps/bumpy.bmp": field_map(),
        "maps/drawn.bmp": field_map(),
        "maps/drawn_elev.bmp": np.tile(np.arange(SIZE, dtype=np.uint8) * 8, (SIZE, 1)),
    }
    root = build_pack(tmp_path / "tactics", INI, images)
    palette = np.stack([np.arange(256)] * 3, axis=1).astype(np.uint8)
    palette[43], palette[83] = (176, 88, 0), (252, 160, 40)
    for folder in ("Skins", "skins"):
        if (root / folder).is_dir():
            shutil.rmtree(root / folder)
    (root / "skins").mkdir()
    save_bmp(root / "skins" / "Knight.BMP", flag_skin(), palette, rle8=True)
    save_bmp(root / "skins" / "archer.bmp", flag_skin(), palette, rle8=True)
    (root / "sfx" / "attack").mkdir(parents=True, exist_ok=True)
    return root


def test_the_real_folder_loads_with_warnings_only(real: Path) -> None:
    pack = load_pack(real)
    assert pack.errors == [], [str(p) for p in pack.errors]
    warnings = " | ".join(p.message for p in pack.warnings)
    assert "'5s' read as 5" in warnings and "'4s' read as 4" in warnings
    assert "names a folder, not a sound" in warnings
    assert "an empty sound set plays nothing" in warnings
    assert pack.weapons[1].damage == 5 and pack.pieces[2].range == 4
    assert sorted(pack.grids) == [1, 2, 3]
    assert not pack.grids[1].elevation.any()  # seed 0: "flat"
    bumpy = pack.grids[2].elevation.astype(int)
    assert 0 < int(bumpy.max()) <= 64
    # T16 amended: roughness 64 makes cliffs a walker must go around, yet the starts meet
    assert 0.0 < cliff_share(pack.grids[2].elevation, 32) <= 0.12
    walkable = (pack.grids[2].movement & 1) != 0
    assert all(reached_starts(pack.grids[2].elevation, walkable, pack.grids[2].starts, 32))
    assert pack.grids[3].elevation[0].tolist() == [8 * x for x in range(SIZE)]


def test_the_flag_takes_each_armys_colour_and_the_guides_vanish(real: Path) -> None:
    pack = load_pack(real)
    cache = SkinCache(pack)
    style = default_style()
    shadow = FRAME - FRAME // 6
    for army in range(4):
        frames = cache.frames(1, army, shadow=False)
        assert frames.shape == (5, FRAME, FRAME, 4)
        stand = frames[1]
        dark, light = stand[7, 17, :3].astype(int), stand[4, 17, :3].astype(int)
        target = np.array(style.colour(army))
        for shade in (dark, light):
            assert shade @ target / (np.linalg.norm(shade) * np.linalg.norm(target)) > 0.85
        assert dark.sum() < light.sum()
        assert tuple(stand[10, 10, :3]) == (30, 30, 30)  # the body keeps its colour
        assert not stand[0, :, 3].any() and not stand[:, 0, 3].any()
        assert not stand[shadow, :, 3].any()


@pytest.mark.parametrize("map_id", [1, 2, 3])
def test_bots_fight_it_out_on_every_map(real: Path, map_id: int) -> None:
    config = {"pack": str(real), "players": 2, "map": map_id, "armies": [[1, 2, 1], [2, 1, 2]]}
    state = play_battle(config, 7, [make_bot("normal"), make_bot("hard")])
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "one army left"
