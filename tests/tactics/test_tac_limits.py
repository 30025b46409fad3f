"""A pack is untrusted input (issue 12, item 11): every reader bounds what it allocates
BEFORE allocating, names stay inside the pack, an empty ini has no maps. Crafted files."""

from __future__ import annotations

import os
import struct
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from suite.tactics.assets.bmp import read_bmp
from suite.tactics.assets.limits import PackLimitError, limits
from suite.tactics.assets.pack import load_pack

from .conftest import GOOD_INI, MakePack

MB = 1 << 20


def rle8_claiming(width: int, height: int, body_bytes: int = 1024) -> bytes:
    """A ~1 KiB RLE8 BMP whose header claims `width` x `height` pixels."""
    pixels = bytes([255, 20] * (body_bytes // 2 - 1)) + bytes([0, 1])
    offset = 14 + 40 + 256 * 4
    header = struct.pack("<2sIHHI", b"BM", offset + len(pixels), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, 1, len(pixels), 0, 0, 256, 0)
    return header + info + bytes(256 * 4) + pixels


def peak_mb(work: Callable[[], object]) -> float:
    """Peak traced allocation (numpy reports its buffers to tracemalloc) while `work` runs."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1] / MB
    finally:
        tracemalloc.stop()


def errors(root: Path) -> list[str]:
    return [str(p) for p in load_pack(root).problems if p.is_error]


def test_an_rle8_bitmap_claiming_100000_squared_is_refused_before_allocating() -> None:
    data = rle8_claiming(100_000, 100_000)
    assert len(data) < 3 * 1024
    with pytest.raises(PackLimitError, match=r"field.bmp: a map of 100000x100000 .* 256x256"):
        read_bmp(data, "map", "field.bmp")
    with pytest.raises(PackLimitError, match="a skin of 100000x100000"):
        read_bmp(data, "skin", "knight.bmp")


def test_a_pack_with_that_map_loads_in_little_memory(make_pack: MakePack) -> None:
    root = make_pack()
    (root / "maps" / "field.bmp").write_bytes(rle8_claiming(100_000, 100_000))
    found: list[str] = []
    peak = peak_mb(lambda: found.extend(errors(root)))
    assert peak < 64, peak
    assert any("field.bmp: a map of 100000x100000" in e and "limit" in e for e in found), found


def test_a_tmx_header_claiming_a_huge_map_is_refused_before_pytmx(make_pack: MakePack) -> None:
    ini = GOOD_INI.replace("maps\\field", "maps\\field.tmx")
    root = make_pack(ini, skip=frozenset({"maps/field.tmx"}))
    (root / "maps").mkdir(exist_ok=True)
    (root / "maps" / "field.tmx").write_text(
        '<?xml version="1.0"?>\n<map version="1.10" orientation="isometric" width="100000" '
        'height="100000" tilewidth="64" tileheight="32">\n'
        '<layer id="1" name="ground" width="100000" height="100000">'
        '<data encoding="csv">1</data></layer>\n</map>\n'
    )
    found: list[str] = []
    peak = peak_mb(lambda: found.extend(errors(root)))
    assert peak < 64, peak
    assert any("field.tmx: a map of 100000x100000 is past the limit" in e for e in found), found


def test_num_maps_past_the_limit_is_refused(make_pack: MakePack) -> None:
    root = make_pack(GOOD_INI.replace("numMaps = 1", "numMaps = 100000000000"))
    found: list[str] = []
    peak = peak_mb(lambda: found.extend(errors(root)))
    assert peak < 64, peak
    most = limits().ini.max_maps
    assert any(f"numMaps 100000000000 is past the limit of {most} maps" in e for e in found)
    assert any("no maps" in e for e in found)


def test_an_empty_ini_is_an_error_no_maps(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    (root / "tactics_ini.txt").write_bytes(b"")
    pack = load_pack(root)
    assert [p.message for p in pack.errors] == [
        "tactics_ini.txt: no maps (numMaps and [mapN] sections name none)",
        "tactics_ini.txt: no playable piece (a piece needs at least 1 HP and a weapon the pack "
        "defines): no battle can start",
    ]


def test_names_in_a_local_pack_never_leave_it(make_pack: MakePack, tmp_path: Path) -> None:
    """`..` and absolute names are refused, not looked up outside the pack."""
    outside = tmp_path / "secret.bmp"
    outside.write_bytes(rle8_claiming(4, 4))
    ini = (
        GOOD_INI.replace("tiles\\grass", "..\\secret")
        .replace("skins\\knight", str(outside))
        .replace("sounds\\hit", "..\\..\\etc\\passwd.wav")
    )
    root = make_pack(ini)
    pack = load_pack(root)
    bad = [p for p in pack.errors if "not a relative path inside the pack" in p.message]
    assert len(bad) == 3, pack.problems
    assert pack.tiles[20].bitmap == "" and pack.pieces[1].bitmap == ""
    with pytest.raises(ValueError, match="not a relative path"):
        pack.path("../secret.bmp")


def test_an_oversized_file_is_refused_without_reading(make_pack: MakePack) -> None:
    root = make_pack()
    big = limits().sound.max_bytes + 1
    with open(root / "sounds" / "hit.wav", "r+b") as handle:
        handle.truncate(big)  # sparse: nothing is written
    found = errors(root)
    assert any(f"hit.wav: a sound of {big} bytes is past the limit" in e for e in found), found


def test_a_pack_larger_than_the_whole_pack_limit_is_refused(make_pack: MakePack) -> None:
    root = make_pack()
    whole = limits().pack.max_bytes
    with open(root / "tiles" / "grass.bmp", "r+b") as handle:
        handle.truncate(whole + 1)
    found = errors(root)
    assert any(f"past the limit of {whole}" in e for e in found), found
    assert os.path.getsize(root / "tiles" / "grass.bmp") == whole + 1
