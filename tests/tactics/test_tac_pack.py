"""Loading a pack folder: files, maps as grids, starts, elevation, and problems (no crash)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from suite.tactics.assets.bmp import save_bmp
from suite.tactics.assets.model import Pack, Severity
from suite.tactics.assets.pack import load_bitmap, load_pack

from .conftest import GOOD_INI


def errors(pack: Pack) -> list[str]:
    return [p.message for p in pack.problems if p.severity is Severity.ERROR]


def test_good_pack_loads_cleanly(make_pack, art) -> None:
    root = make_pack()
    pack = load_pack(root)
    assert pack.problems == []
    grid = pack.grids[1]
    assert grid.size == 8
    assert grid.starts == ((1, 1), (6, 1), (6, 6), (1, 6))
    # start cells take the surrounding tile, the border lets nothing in
    assert int(grid.tiles[1, 1]) == 20 and int(grid.movement[1, 1]) == 3
    assert int(grid.movement[0, 0]) == 0
    assert grid.passable(3, 3, 1) and not grid.passable(0, 3, 255) and not grid.passable(9, 9, 1)
    assert not grid.elevation.any()
    assert pack.pieces[1].name == "Knight"
    assert pack.weapons[1].dominates_weapon(pack.weapons[2])
    assert not pack.weapons[2].dominates_weapon(pack.weapons[2])
    skin = load_bitmap(pack, pack.pieces[1].bitmap, "skin")
    assert skin is not None and skin.width == 5 * skin.height


def test_files_are_found_case_insensitively(make_pack) -> None:
    root = make_pack(GOOD_INI.replace("tiles\\grass", "TILES\\Grass"), name="case")
    (root / "TILES" / "Grass.bmp").rename(root / "TILES" / "grass.bmp")
    (root / "TILES").rename(root / "tiles")
    assert load_pack(root).problems == []


def test_missing_files_are_errors_and_placeholders(make_pack) -> None:
    root = make_pack(skip=frozenset({"tiles/grass.bmp", "sounds/hit.wav", "skins/knight.bmp"}))
    pack = load_pack(root)
    found = errors(pack)
    assert "missing tile bitmap tiles/grass.bmp" in found
    assert "missing piece skin skins/knight.bmp" in found
    # RULINGS T19: a missing sound is only a warning (a placeholder plays)
    assert "missing sound sounds/hit.wav" not in found
    assert any("missing sound sounds/hit.wav" in p.message for p in pack.warnings)
    assert pack.missing_files == {"tiles/grass.bmp", "sounds/hit.wav", "skins/knight.bmp"}
    assert load_bitmap(pack, "tiles/grass.bmp", "tile") is None
    # what is sound still loaded
    assert 1 in pack.grids and 1 in pack.pieces


def test_map_problems(make_pack, art) -> None:
    tall = np.full((6, 5), 20, dtype=np.uint8)
    pack = load_pack(make_pack(images={"maps/field.bmp": tall}, name="tall"))
    assert "map 1 'Field': maps/field.bmp is 5x6, a map must be square" in errors(pack)
    assert 1 not in pack.grids

    grid = art.square_map(8, 20)
    grid[6, 6] = 20  # no yellow start
    grid[3, 3] = 77  # no [Tiles] line
    grid[4, 4] = grid[4, 5] = 77
    grid[5, 5] = 249  # a second red start
    pack = load_pack(make_pack(images={"maps/field.bmp": grid}, name="starts"))
    found = errors(pack)
    assert "map 1 'Field': no yellow start (palette index 251)" in found
    assert "map 1 'Field': palette index 77 (3 cells, first at (3, 3)) has no [Tiles] line" in found
    assert any("2 red start pixels" in p.message for p in pack.warnings)
    assert pack.grids[1].starts[2] is None
    assert pack.grids[1].starts[0] == (1, 1)
    assert int(pack.grids[1].movement[3, 3]) == 0


def test_elevation_bitmap(make_pack, art) -> None:
    ini = GOOD_INI + "elevationBitmap = maps\\field_elev\n"
    heights = np.arange(64, dtype=np.uint8).reshape(8, 8) * 3
    pack = load_pack(make_pack(ini, images={"maps/field_elev.bmp": heights}, name="elev"))
    assert pack.problems == []
    assert np.array_equal(pack.grids[1].elevation, heights)  # the palette's red = index

    small = np.zeros((4, 4), dtype=np.uint8)
    pack = load_pack(make_pack(ini, images={"maps/field_elev.bmp": small}, name="elev2"))
    assert "maps/field_elev.bmp is 4x4, the map is 8x8; map is flat" in errors(pack)[0]
    assert not pack.grids[1].elevation.any()


def test_generated_elevation(make_pack) -> None:
    pack = load_pack(make_pack(GOOD_INI + "seed = 5\nroughness = 4\n", name="gen"))
    assert pack.grids[1].elevation.max() > 0


def test_rle8_map_and_bad_media(make_pack, art, tmp_path: Path) -> None:
    root = make_pack(name="media")
    save_bmp(root / "maps" / "field.bmp", art.square_map(8, 20), art.palette, rle8=True)
    (root / "tiles" / "grass.bmp").write_bytes(b"GIF89a not a bitmap")
    save_bmp(root / "skins" / "knight.bmp", art.skin(frames=3), art.palette)
    (root / "sounds" / "hit.wav").write_bytes(b"RIFF....nope")
    pack = load_pack(root)
    found = errors(pack)
    assert 1 in pack.grids
    assert "tiles/grass.bmp: not a BMP file (no 'BM' signature)" in found
    assert any(m.startswith("skins/knight.bmp: a skin is a filmstrip of 5") for m in found)
    assert "sounds/hit.wav: not a WAV file (no RIFF/WAVE header)" in found
    (root / "sounds" / "hit.wav").write_bytes(
        b"RIFF"
        + (36).to_bytes(4, "little")
        + b"WAVEfmt "
        + (16).to_bytes(4, "little")
        + (17).to_bytes(2, "little")
        + bytes(14)
        + b"data"
        + bytes(4)
    )
    warned = [p.message for p in load_pack(root).warnings]
    assert (
        "sounds/hit.wav: sound format 17 is not played (only PCM, format 1); the sound stays silent"
        in warned
    )


def test_tile_size(make_pack, art) -> None:
    small = np.full((64, 64), 6, dtype=np.uint8)
    pack = load_pack(make_pack(images={"tiles/grass.bmp": small}, name="small"))
    assert "tiles/grass.bmp: a tile is 128x128, this is 64x64" in errors(pack)


def test_missing_ini(tmp_path: Path) -> None:
    pack = load_pack(tmp_path / "nowhere")
    assert len(pack.errors) == 1
    assert "cannot read the pack's tactics_ini.txt" in pack.errors[0].message


def test_problems_point_at_the_ini_line(make_pack) -> None:
    root = make_pack(skip=frozenset({"skins/knight.bmp"}))
    pack = load_pack(root)
    problem = next(p for p in pack.problems if "knight" in p.message)
    line = GOOD_INI.splitlines().index(
        next(x for x in GOOD_INI.splitlines() if x.startswith("piece1"))
    )
    assert problem.line == line + 1
    assert str(problem).startswith(f"{root / 'tactics_ini.txt'}:{line + 1}: error: missing")


def test_placeholders_stand_in_for_missing_art(make_pack, art) -> None:
    from suite.tactics.assets.placeholders import ALERT_A, skin_bitmap, tile_bitmap

    root = make_pack(skip=frozenset({"skins/knight.bmp"}))
    pack = load_pack(root)
    assert tile_bitmap(pack, 20).indices[32, 64] == 20  # the real tile
    stand_in = tile_bitmap(pack, 99)
    assert stand_in.indices.shape == (128, 128) and ALERT_A in stand_in.indices
    assert int(stand_in.indices[0, 0]) == 6 and int(stand_in.indices[127, 0]) == 6
    skin = skin_bitmap(pack, 1)
    assert skin.width == 5 * skin.height and ALERT_A in skin.indices
    (root / "skins").mkdir()
    save_bmp(root / "skins" / "knight.bmp", art.skin(frames=3), art.palette)
    assert ALERT_A in skin_bitmap(pack, 1).indices
    save_bmp(root / "skins" / "knight.bmp", art.skin(frames=5), art.palette)
    assert ALERT_A not in skin_bitmap(pack, 1).indices


def test_team_colour_setting(make_pack) -> None:
    """RULINGS T14: 43 and 83 unless `teamColors` names other indices."""
    assert load_pack(make_pack(GOOD_INI, name="plain")).team_color_indices() == (43, 83)
    pack = load_pack(make_pack(GOOD_INI.replace("[Tiles]", "teamColors = 215, 200, 7\n[Tiles]")))
    assert pack.team_color_indices() == (7, 200, 215)
    pack = load_pack(
        make_pack(GOOD_INI.replace("[Tiles]", "teamColors = gold\n[Tiles]"), name="bad")
    )
    assert pack.team_colors == (43, 83)
    assert any("teamColors 'gold' is not a list" in p.message for p in pack.warnings)


def test_empty_bitmap_field(make_pack) -> None:
    pack = load_pack(make_pack(GOOD_INI.replace("skins\\knight", ""), name="nobitmap"))
    assert "no piece skin named" in errors(pack)
