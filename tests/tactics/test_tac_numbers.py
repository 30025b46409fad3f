"""Every number a pack holds is length-checked before it is converted (issue 24, item 3):
5,000 digits in `numMaps`, a piece key, a field, a map section, a seed or a `.tmx` give a
clear file:line error, never Python's "Exceeds the limit (4300 digits)" ValueError."""

from __future__ import annotations

import pytest

from suite.tactics.assets.check import check_pack
from suite.tactics.assets.ini import read_ini, too_long
from suite.tactics.assets.limits import limits
from suite.tactics.assets.pack import load_pack
from suite.tactics.rules.packs import PackError, resolve_map

from .conftest import GOOD_INI, MakePack

HUGE = "9" * 5000
LIMIT = limits().ini.max_digits


def line_of(ini: str, text: str) -> int:
    return next(n for n, line in enumerate(ini.splitlines(), start=1) if text in line)


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("numMaps = 1", f"numMaps = {HUGE}", "numMaps"),
        ("piece1 = Knight", f"piece{HUGE} = Knight", "piece99999"),
        ("Knight, skins\\knight, 0, 10,", f"Knight, skins\\knight, 0, {HUGE},", "piece1"),
        ("name = Field", f"name = Field\nseed = {HUGE}", "seed"),
        ("weapon1 = Sword", f"weapon{HUGE} = Sword", "weapon9999"),
    ],
)
def test_a_5000_digit_number_is_a_clear_error(
    make_pack: MakePack, old: str, new: str, key: str
) -> None:
    ini = GOOD_INI.replace(old, new)
    assert ini != GOOD_INI
    root = make_pack(ini)
    lines: list[str] = []
    assert check_pack(root, lines.append) == 1
    line = line_of(ini, HUGE)
    expected = f"tactics_ini.txt:{line}: error: {key}"
    found = [entry for entry in lines if "5000 digits" in entry]
    assert len(found) == 1 and expected in found[0], lines
    assert f"past the limit of {LIMIT}; the line is ignored" in found[0]
    assert not any("Exceeds the limit" in entry for entry in lines)


def test_a_long_map_section_drops_its_keys() -> None:
    ini = read_ini(f"[map{HUGE}]\nname = a\n[Pieces]\npiece1 = x\n", "t.txt")
    assert [str(p)[:40] for p in ini.problems if p.is_error] == [
        "t.txt:1: error: [map99999999999999999999"
    ]
    assert ini.section("pieces") is not None and ini.get("pieces", "piece1") is not None
    assert any("'name' before any [section]" in p.message for p in ini.problems)


def test_numbers_up_to_the_limit_still_read() -> None:
    at_limit = "1" * LIMIT
    assert not too_long(f"seed = {at_limit}") and too_long(f"seed = {at_limit}1")
    ini = read_ini(f"[map1]\nseed = {at_limit}\n", "t.txt")
    assert ini.problems == [] and ini.get("map1", "seed") is not None


def test_a_tmx_with_a_5000_digit_number_names_its_line(make_pack: MakePack) -> None:
    ini = GOOD_INI.replace("maps\\field", "maps\\field.tmx")
    root = make_pack(ini, skip=frozenset({"maps/field.tmx"}))
    (root / "maps").mkdir(exist_ok=True)
    (root / "maps" / "field.tmx").write_text(
        '<?xml version="1.0"?>\n<map version="1.10" orientation="isometric" width="8" '
        f'height="8" tilewidth="64" tileheight="32">\n<tileset firstgid="{HUGE}"/>\n'
        '<layer id="1" name="ground" width="8" height="8">'
        '<data encoding="csv">1</data></layer>\n</map>\n'
    )
    found = [str(p) for p in load_pack(root).errors]
    assert any(
        f"field.tmx:3: a number of 5000 digits is past the limit of {LIMIT}" in e for e in found
    ), found


def test_a_5000_digit_map_choice_is_a_pack_error() -> None:
    from suite.tactics.rules.packs import get_pack

    pack = get_pack(None)
    with pytest.raises(PackError, match="no playable map 999999999999..."):
        resolve_map(pack, HUGE, 1, 2)
