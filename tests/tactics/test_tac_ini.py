"""The tactics_ini.txt reader: every Windows-INI quirk real packs rely on, and bad input."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from suite.tactics.assets.files import UnsafePath, asset_name, check_safe
from suite.tactics.assets.ini import parse_float, parse_int, read_ini, split_fields
from suite.tactics.assets.model import MAX_PIECE_COUNT, Pack, Severity
from suite.tactics.assets.records import Reporter, check_references, read_records

QUIRKS = """\
; a comment line, then a blank one

[General]
NumMaps = 2
version = 1.25
VERSION = 9.0
[Tiles]
tile10 = Grass, tiles\\grass, 3, 0
TILE10 = Not this one, tiles\\other, 1, 0
tile11 = "Deep, dark water", 'tiles\\water', 8,
: a stray colon line
.tile12 = dotted junk
just some words
tile13 = , tiles\\nothing, 1
tile14 = Lava, tiles\\lava.bmp, 5s, 0
tile1x = Broken key, tiles\\x, 1
tile15 = Rock, tiles\\rock, EA
[sounds]
sound1 = hit, sounds\\hit
[SOUNDS]
sound2 = miss, sounds\\Miss
[SoundSets]
SoundSet20 = hits, 1, 2
soundSet10 = quiet,
[soundsets]
soundSet20 = ignored duplicate across repeated sections, 1
soundSet11 = many, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2
[Weapons]
weapon1 = "Sword" "Melee", Missile, 4, 255, 30, 20, 20, 0
weapon2 = Bow, Missile, Melee, 3
[Pieces]
PIECE1
piece2 = Archer, skins\\archer, 12, 7, 0, 3, 2, 4, 0, 1, 3, 4, 1
piece3 = , skins\\none, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
piece4 = Stub, skins\\stub, 1
[map1]
Name = Meadow
author = someone
Bitmap = maps\\meadow
seed = 12
roughness = 40
requirements = L34-T12
[MAP2]
name = Hills
bitmap = maps\\hills.bmp
elevationBitmap = maps\\hills_elev
seed = 4x
[map02]
name = padded
bitmap = maps\\padded
[map3]
name = over the count
bitmap = maps\\three
[Spells]
spell1 = Fire, 3
[Armor]
armor1 = Leather, 1
[Oddities]
x = 1
""".replace(
    "PIECE1",
    'piece1 = "Knight, the brave", skins\\knight, 0, 10, 0, 4s, 4, 3, 0, 1, 8, 9, 0, '
    '20, 20, 20, 20, 20, 1, 0, 0, "L3+T23", 0',
)


def load(text: str = QUIRKS) -> Pack:
    pack = Pack(root=Path("."))
    read_records(read_ini(text.encode("cp1252"), "tactics_ini.txt"), pack)
    check_references(pack, Reporter("tactics_ini.txt", pack.problems))
    return pack


def line_of(needle: str, text: str = QUIRKS) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def messages(pack: Pack) -> list[str]:
    return [str(p) for p in pack.problems]


def has(pack: Pack, line: int, fragment: str, severity: Severity | None = None) -> bool:
    return any(
        p.line == line and fragment in p.message and (severity is None or p.severity is severity)
        for p in pack.problems
    )


def test_general_section_case_blind_and_first_key_wins() -> None:
    pack = load()
    assert pack.num_maps == 2
    assert pack.version == 1.25
    assert has(pack, line_of("VERSION = 9.0"), "duplicate key 'VERSION'")


def test_first_tile_line_wins_and_quoted_fields_hold_commas() -> None:
    pack = load()
    assert pack.tiles[10].name == "Grass"
    assert pack.tiles[10].bitmap == "tiles/grass.bmp"
    assert has(pack, line_of("TILE10"), "duplicate key 'TILE10'")
    water = pack.tiles[11]
    assert water.name == "Deep, dark water"
    assert water.bitmap == "tiles/water.bmp"
    assert water.movement == 8
    assert water.flags == 0  # the trailing comma adds no field; flags take the default


def test_junk_lines_are_skipped_with_warnings() -> None:
    pack = load()
    for needle in (": a stray colon", ".tile12", "just some words"):
        assert has(pack, line_of(needle), "junk line skipped", Severity.WARNING), needle
    assert 12 not in pack.tiles


def test_placeholders_are_skipped_silently() -> None:
    pack = load()
    assert 13 not in pack.tiles and 3 not in pack.pieces
    assert ("tile13", line_of("tile13")) in pack.placeholders
    assert ("piece3", line_of("piece3")) in pack.placeholders
    assert not any(p.line == line_of("tile13") for p in pack.problems)


def test_a_number_with_a_tail_reads_its_leading_digits_with_a_warning() -> None:
    """RULINGS T13: "5s" reads 5, as the original's C reader did."""
    pack = load()
    assert pack.tiles[14].movement == 5
    assert pack.tiles[14].bitmap == "tiles/lava.bmp"  # an extension is not doubled
    assert has(pack, line_of("tile14"), "field 'movement': '5s' read as 5 (its leading digits)")
    knight = pack.pieces[1]
    assert knight.strength == 4
    assert has(pack, line_of("piece1"), "field 'str': '4s' read as 4 (its leading digits)")


def test_a_field_without_leading_digits_takes_its_default() -> None:
    text = QUIRKS.replace("skins\\archer, 12, 7,", "skins\\archer, 12, seven,")
    pack = load(text)
    assert pack.pieces[2].hp == 1
    assert has(
        pack, line_of("piece2", text), "field 'hp': 'seven' is not a number; using default 1"
    )
    assert pack.maps[2].seed == 4  # "4x"
    assert has(pack, line_of("seed = 4x"), "seed: '4x' read as 4")


def test_sounds_naming_a_folder_and_empty_sound_sets_are_warnings() -> None:
    """RULINGS T19 (real packs hold both)."""
    text = QUIRKS.replace("sound2 = miss, sounds\\Miss", "sound2 = miss, sfx\\attack\\")
    pack = load(text)
    assert pack.sounds[2].wav == ""
    assert has(pack, line_of("sound2", text), "names a folder, not a sound", Severity.WARNING)
    quiet = line_of("soundSet10")
    assert has(pack, quiet, "an empty sound set plays nothing", Severity.WARNING)
    assert not [p for p in pack.problems if p.is_error and p.line in (quiet, line_of("sound2"))]


def test_names_leaving_the_pack_are_refused() -> None:
    text = QUIRKS.replace("tiles\\rock", "..\\..\\rock").replace("maps\\three", "C:\\maps\\three")
    pack = load(text.replace("NumMaps = 2", "NumMaps = 3"))
    assert pack.tiles[15].bitmap == "" and 3 not in pack.maps
    bad = [p for p in pack.problems if p.is_error and "not a relative path" in p.message]
    assert len(bad) == 2


def test_malformed_key_skips_the_entry() -> None:
    pack = load()
    assert has(pack, line_of("tile1x"), "key 'tile1x' is not tileN with N >= 1; skipped")


def test_movement_letters_are_read_as_bits() -> None:
    assert load().tiles[15].movement == 1 | 2


def test_sections_repeat_and_merge_case_blind() -> None:
    pack = load()
    assert set(pack.sounds) == {1, 2}
    assert pack.sounds[2].wav == "sounds/Miss.wav"
    assert pack.sound_sets[20].sounds == (1, 2)
    assert has(pack, line_of("ignored duplicate"), "duplicate key 'soundSet20'")
    assert pack.sound_sets[10].sounds == ()
    assert pack.sound_sets[11].sounds == (1,) * 10
    assert has(pack, line_of("soundSet11"), "12 sounds, at most 10; extra ones dropped")


def test_missing_comma_between_quoted_fields_is_tolerated() -> None:
    sword = load().weapons[1]
    assert (sword.name, sword.weapon_class, sword.dominates, sword.damage) == (
        "Sword",
        "Melee",
        "Missile",
        4,
    )


def test_piece_fields_caps_and_requirements() -> None:
    pack = load()
    knight = pack.pieces[1]
    assert knight.name == "Knight, the brave"
    assert knight.max_count == MAX_PIECE_COUNT  # 0 means 9
    assert (knight.mobility, knight.range) == (6, 6)
    assert has(pack, line_of("piece1"), "mobility 8 capped at 6")
    assert has(pack, line_of("piece1"), "range 9 capped at 6")
    assert knight.requirements == "L3+T23"
    assert knight.sound_sets["death"] == 20
    archer = pack.pieces[2]
    assert archer.max_count == 9 and has(pack, line_of("piece2"), "max# 12 capped at 9")
    assert (archer.range, archer.min_range, archer.weapon) == (4, 1, 0)
    assert has(pack, line_of("piece2"), "unknown weapon id 0", Severity.ERROR)


def test_too_few_fields_is_an_error_and_skips() -> None:
    pack = load()
    assert 4 not in pack.pieces
    assert has(pack, line_of("piece4"), "3 fields, needs at least 12", Severity.ERROR)


def test_maps_sections_and_elevation_sources() -> None:
    pack = load()
    meadow = pack.maps[1]
    assert (meadow.name, meadow.author, meadow.bitmap) == ("Meadow", "someone", "maps/meadow.bmp")
    assert (meadow.seed, meadow.roughness, meadow.requirements) == (12, 40, "L34-T12")
    hills = pack.maps[2]
    assert hills.elevation_bitmap == "maps/hills_elev.bmp"
    assert hills.seed == 4 and hills.roughness is None
    assert has(pack, line_of("seed = 4x"), "seed: '4x' read as 4")
    assert has(pack, line_of("[map02]"), "not zero-padded (use [map2]); ignored")
    assert has(pack, line_of("[map3]"), "[map3] ignored: numMaps is 2")
    assert set(pack.maps) == {1, 2}


def test_unused_sections_are_kept() -> None:
    pack = load()
    assert pack.extra_sections["spells"] == {"spell1": "Fire, 3"}
    assert "armor" in pack.extra_sections
    assert has(pack, line_of("[Oddities]"), "unknown section [Oddities] kept, unused")


def test_unknown_references_are_errors() -> None:
    pack = load()
    assert not any("sound set" in p.message for p in pack.problems if p.line == line_of("piece1"))
    assert has(pack, line_of("weapon1"), "setHit is unknown sound-set id 30", Severity.ERROR)
    text = QUIRKS.replace("SoundSet20 = hits, 1, 2", "SoundSet20 = hits, 1, 7")
    pack = load(text)
    assert has(pack, line_of("SoundSet20", text), "unknown sound id 7", Severity.ERROR)


def test_bad_version_and_too_many_decimals() -> None:
    text = "[general]\nversion = 1.234567\n"
    pack = load(text)
    assert pack.version == 1.2346
    assert has(pack, 2, "more than 4 decimals; rounded")
    pack = load("[general]\nversion = one\n")
    assert pack.version is None and has(pack, 2, "is not a number like 1.2345; ignored")


def test_problem_text_is_file_line_message() -> None:
    pack = load()
    text = messages(pack)
    junk = line_of("just some words")
    assert f"tactics_ini.txt:{junk}: warning: junk line skipped: 'just some words'" in text


def test_keys_before_a_section_and_cp1252_text() -> None:
    data = "stray = 1\n[general]\nnumMaps = 0\n[Tiles]\ntile5 = Caf\xe9, t\\cafe, 1\n"
    ini = read_ini(data.encode("cp1252"), "x.txt")
    assert ini.problems[0].line == 1 and "before any [section]" in ini.problems[0].message
    pack = Pack(root=Path("."))
    read_records(ini, pack)
    assert pack.tiles[5].name == "Caf\xe9"


def test_split_fields_cases() -> None:
    assert split_fields("a, b ,c") == (["a", "b", "c"], [])
    assert split_fields('"a,b", c,') == (["a,b", "c"], [])
    assert split_fields("\"a\" 'b'") == (["a", "b"], [])
    assert split_fields("a,,b") == (["a", "", "b"], [])
    assert split_fields("Ogre's club, 3") == (["Ogre's club", "3"], [])
    fields, notes = split_fields('"open, 3')
    assert fields == ["open, 3"] and "unterminated quote" in notes[0]


def test_numbers() -> None:
    assert parse_int(" +5 ") == 5 and parse_int("-3") == -3
    assert parse_int("5s") is None and parse_int("2.5") is None and parse_int("") is None
    assert parse_float("2.5") == 2.5 and parse_float(".5") == 0.5 and parse_float("x") is None


def test_asset_names_and_safety() -> None:
    assert asset_name("tiles\\tileLava", ".bmp") == "tiles/tileLava.bmp"
    assert asset_name("maps\\\\arena.tmx", ".bmp") == "maps/arena.tmx"
    assert check_safe("tiles/grass.bmp") == "tiles/grass.bmp"
    for bad in ("../x.bmp", "a/../../x", "/etc/passwd", "C:/win.bmp", "c:x.bmp", "\\\\host\\x"):
        try:
            check_safe(bad)
        except UnsafePath:
            continue
        raise AssertionError(f"{bad!r} was accepted")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="abc ,;:.=[]\"'\\\n\r\t", max_size=40), max_size=8))
def test_reader_never_raises(lines: list[str]) -> None:
    pack = Pack(root=Path("."))
    read_records(read_ini("\n".join(lines), "fuzz.txt"), pack)
    assert all(p.line >= 0 for p in pack.problems)
