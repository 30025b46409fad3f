"""Only regular files inside the pack are read (issue 24, item 5): a FIFO in place of
`tactics_ini.txt`, a skin or a sound is refused at once instead of blocking forever, and a
link leading outside the pack is refused; links that stay inside still work."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from suite.tactics.assets.check import check_pack
from suite.tactics.assets.model import Pack
from suite.tactics.assets.pack import load_pack
from suite.tactics.screens.sounds import PackSounds
from suite.ui.audio import Audio

from .conftest import MakePack

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def finishes(work: Callable[[], object], seconds: float = 20.0) -> object:
    """`work()`'s result; fails (instead of hanging the suite) when it blocks."""
    result: list[object] = []
    thread = threading.Thread(target=lambda: result.append(work()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "blocked on a FIFO"
    return result[0]


def messages(pack: Pack) -> list[str]:
    return [p.message for p in pack.errors]


def test_a_fifo_ini_is_refused_without_blocking(make_pack: MakePack) -> None:
    root = make_pack()
    (root / "tactics_ini.txt").unlink()
    os.mkfifo(root / "tactics_ini.txt")
    lines: list[str] = []
    assert finishes(lambda: check_pack(root, lines.append)) == 1
    assert any("tactics_ini.txt: not a regular file (a FIFO)" in line for line in lines), lines


@pytest.mark.parametrize("name", ["skins/knight.bmp", "sounds/hit.wav", "maps/field.bmp"])
def test_a_fifo_asset_is_an_error_not_a_hang(make_pack: MakePack, name: str) -> None:
    root = make_pack()
    (root / name).unlink()
    os.mkfifo(root / name)
    pack = finishes(lambda: load_pack(root))
    assert isinstance(pack, Pack)
    assert f"{name}: not a regular file; not read" in messages(pack)


def test_a_fifo_sound_is_silent_in_play(make_pack: MakePack) -> None:
    root = make_pack()
    pack = load_pack(root)
    (root / "sounds" / "hit.wav").unlink()
    os.mkfifo(root / "sounds" / "hit.wav")
    audio = Audio(80)
    if not audio.enabled:
        pytest.skip("no mixer, even with the dummy driver")
    sounds = PackSounds(pack, audio, random.Random(1))
    assert finishes(lambda: sounds._sound(1)) is None


def test_links_leading_outside_are_refused(make_pack: MakePack, tmp_path: Path) -> None:
    root = make_pack()
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "skins" / "knight.bmp").rename(outside / "knight.bmp")
    (root / "skins" / "knight.bmp").symlink_to(outside / "knight.bmp")
    found = messages(load_pack(root))
    assert "'skins/knight.bmp' is a link leading outside the pack" in found, found
    # a linked folder leading outside
    (root / "skins" / "knight.bmp").unlink()
    (root / "skins").rmdir()
    (root / "skins").symlink_to(outside, target_is_directory=True)
    assert "'skins/knight.bmp' is a link leading outside the pack" in messages(load_pack(root))


def test_the_ini_as_a_link_outside_is_refused(make_pack: MakePack, tmp_path: Path) -> None:
    root = make_pack()
    secret = tmp_path / "secret.txt"
    (root / "tactics_ini.txt").rename(secret)
    (root / "tactics_ini.txt").symlink_to(secret)
    assert messages(load_pack(root)) == ["'tactics_ini.txt' is a link leading outside the pack"]


def test_links_inside_the_pack_still_work(make_pack: MakePack) -> None:
    root = make_pack()
    (root / "skins" / "knight.bmp").rename(root / "skins" / "real.bmp")
    (root / "skins" / "knight.bmp").symlink_to(Path("real.bmp"))
    pack = load_pack(root)
    assert pack.errors == [] and 1 in pack.grids
