"""`suite tactics check`: the default pack is clean; a broken copy lists every problem."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from suite.cli import main
from suite.paths import asset
from suite.tactics.assets.bmp import load_bmp, save_bmp
from suite.tactics.assets.check import check_pack


def run_check(root: Path) -> tuple[int, list[str]]:
    lines: list[str] = []
    return check_pack(root, lines.append), lines


def test_default_pack_is_clean(artifacts: Path) -> None:
    code, lines = run_check(asset("tactics"))
    (artifacts / "tactics_check_default.txt").write_text("\n".join(lines) + "\n")
    assert code == 0
    assert lines[-1] == "0 error(s), 0 warning(s), 0 placeholder(s)"
    assert "7/7 maps, 12 pieces, 11 weapons, 10 tiles, 15 sounds, 11 sound sets" in lines[-2]


def break_copy(root: Path) -> None:
    (root / "tiles" / "lava.bmp").unlink()
    (root / "sounds" / "crit.wav").unlink()
    meadow = load_bmp(root / "maps" / "meadow.bmp", "map")
    save_bmp(root / "maps" / "meadow.bmp", meadow.indices[:12], meadow.palette)
    rivers = load_bmp(root / "maps" / "rivers.bmp", "map")
    indices = rivers.indices.copy()
    indices[indices == 252] = 24
    save_bmp(root / "maps" / "rivers.bmp", indices, rivers.palette, rle8=True)
    frozen = load_bmp(root / "maps" / "frozen.bmp", "map")
    indices = frozen.indices.copy()
    indices[10, 3:6] = 77
    save_bmp(root / "maps" / "frozen.bmp", indices, frozen.palette)
    wolf = load_bmp(root / "skins" / "wolf.bmp", "skin")
    save_bmp(root / "skins" / "wolf.bmp", wolf.indices[:, : 96 * 3], wolf.palette)
    ini = (root / "tactics_ini.txt").read_bytes().decode("ascii")
    ini = ini.replace(
        'weapon1 = "Sword", Melee, Missile, 4, 255, 6,',
        'weapon1 = "Sword", Melee, Missile, 4, 255, 42,',
    )
    ini = ini.replace(
        "piece6 = Ogre, skins\\ogre, 2, 16, 0, 6,", "piece6 = Ogre, skins\\ogre, 2, 16s, 0, 6,"
    )
    ini = ini.replace(', 4, 0, 0, "", 0\r\npiece7', ', 99, 0, 0, "", 0\r\npiece7')
    ini = ini.replace("[Sounds]\r\n", "[Sounds]\r\nthis line is junk\r\n")
    (root / "tactics_ini.txt").write_bytes(ini.encode("ascii"))


def test_broken_copy_lists_every_problem(tmp_path: Path, artifacts: Path) -> None:
    root = tmp_path / "broken"
    shutil.copytree(asset("tactics"), root)
    break_copy(root)
    code, lines = run_check(root)
    (artifacts / "tactics_check_broken.txt").write_text("\n".join(lines) + "\n")
    assert code == 1
    text = "\n".join(lines)
    ini = str(root / "tactics_ini.txt")
    expected = [
        "warning: junk line skipped: 'this line is junk'",
        "error: missing tile bitmap tiles/lava.bmp",
        "warning: missing sound sounds/crit.wav; a placeholder is used",
        "error: weapon1 Sword: setHit is unknown sound-set id 42",
        "warning: piece6 field 'hp': '16s' read as 16 (its leading digits)",
        "error: piece6 Ogre: unknown weapon id 99",
        "error: skins/wolf.bmp: a skin is a filmstrip of 5 square frames (width = 5 x height); "
        "this is 288x96",
        "error: map 1 'Green Meadow': maps/meadow.bmp is 16x12, a map must be square",
        "error: map 2 'Twin Rivers': no blue start (palette index 252)",
        "error: map 5 'Frozen Lake': palette index 77 (3 cells, first at (3, 10)) has no "
        "[Tiles] line",
    ]
    for message in expected:
        assert message in text, message
    for line in lines[:-2]:
        assert line.startswith(ini + ":"), line
        number = line[len(ini) + 1 :].split(":", 1)[0]
        assert number.isdigit() and int(number) > 0
    assert lines[-1].startswith("7 error(s), 3 warning(s)")
    assert "6/7 maps" in lines[-2]


def test_cli_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["tactics", "check", str(asset("tactics"))]) == 0
    assert "0 error(s)" in capsys.readouterr().out
    assert main(["tactics", "check", str(tmp_path)]) == 1
    assert "cannot read the pack's tactics_ini.txt" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["tactics"])


def test_every_default_map_has_four_starts_and_sizes() -> None:
    from suite.tactics.assets.pack import load_pack

    pack = load_pack(asset("tactics"))
    sizes = sorted(grid.size for grid in pack.grids.values())
    assert sizes[0] == 16 and sizes[-1] == 48
    for grid in pack.grids.values():
        assert all(start is not None for start in grid.starts)
    assert any(grid.elevation.any() for grid in pack.grids.values())
    assert any(not grid.elevation.any() for grid in pack.grids.values())
    movement = {int(bits) for grid in pack.grids.values() for bits in np.unique(grid.movement)}
    assert {0, 3, 6, 10} <= movement  # border, land, lava, water


def test_default_sounds_are_11khz_mono_and_short() -> None:
    import wave

    from suite.tactics.assets.pack import load_pack

    pack = load_pack(asset("tactics"))
    labels = {sound.label for sound in pack.sounds.values()}
    wanted = {"select", "go", "attack", "pain", "death", "hit", "miss", "crit", "turn", "win"}
    assert wanted | {"lose"} <= labels
    for sound in pack.sounds.values():
        with wave.open(str(pack.path(sound.wav)), "rb") as wav:
            assert (wav.getframerate(), wav.getnchannels()) == (11025, 1)
            assert 0 < wav.getnframes() <= 11025 * 2


def test_a_pack_with_no_playable_piece_is_an_error(tmp_path: Path) -> None:
    """Issue 24, item 6: it passed check but could not start a battle."""
    from .conftest import GOOD_INI, build_pack

    ini = GOOD_INI.replace("Knight, skins\\knight, 0, 10,", "Knight, skins\\knight, 0, 0,")
    assert ini != GOOD_INI
    code, lines = run_check(build_pack(tmp_path / "nobody", ini))
    assert code == 1
    assert any(
        line.endswith(
            "tactics_ini.txt:0: error: tactics_ini.txt: no playable piece (a piece "
            "needs at least 1 HP and a weapon the pack defines): no battle can start"
        )
        for line in lines
    ), lines
    ghost = "piece2 = Ghost, skins\\knight, 0, 0, 0, 4, 4, 3, 0, 1, 3, 1, 0, 1, 1, 1, 1, 1, 1"
    ini = ini.replace("[map1]", ghost + "\n[map1]")
    pack_root = build_pack(tmp_path / "two", ini)
    from suite.tactics.assets.pack import load_pack

    assert sorted(load_pack(pack_root).pieces) == [1, 2]
    _, lines = run_check(pack_root)
    assert sum("no playable piece" in line for line in lines) == 1


def test_warnings_show_names_as_the_file_wrote_them(tmp_path: Path) -> None:
    """Issue 24, item 6: `'sfx\\'`, not Python's `'sfx\\\\'`."""
    from .conftest import GOOD_INI, build_pack

    ini = GOOD_INI.replace(
        "sound1 = hit, sounds\\hit", "sound1 = hit, sounds\\hit\nsound2 = x, sfx\\"
    )
    _, lines = run_check(build_pack(tmp_path / "folder", ini))
    shown = [line for line in lines if "names a folder" in line]
    assert len(shown) == 1 and "'sfx\\'" in shown[0] and "\\\\" not in shown[0], shown
