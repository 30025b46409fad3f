"""Turn the sections of a parsed `tactics_ini.txt` into the typed records of `model`.

Pure data work: no file is opened here. Every oddity becomes a `Problem` with the ini
file and line. Decisions for bad input (documented for modders):
- a key whose number is malformed (`tile5s`) or 0: the entry is skipped (warning);
- an entry whose name field is empty: a placeholder, skipped and listed in
  `Pack.placeholders` (not a problem);
- a number followed by other characters (`5s`) reads its leading digits, with a warning;
  a field with no leading digits takes its default (shown in the warning); the entry is
  kept either way (RULINGS T13);
- an asset name that would leave the pack (`..`, absolute, a drive) is refused (error) and
  counts as not named; a sound naming a folder (`sfx\attack\\`) is a warning, and so is an
  empty sound set (RULINGS T19);
- missing required fields: the entry is skipped (error); missing optional trailing fields
  take their defaults silently; extra fields are ignored with a warning.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from suite.tactics.assets.files import UnsafePath, asset_name, check_safe, quoted
from suite.tactics.assets.ini import IniFile, IniValue, leading_int, parse_int, split_fields
from suite.tactics.assets.limits import limits
from suite.tactics.assets.model import (
    MAX_MOBILITY,
    MAX_PIECE_COUNT,
    MAX_RANGE,
    MAX_SOUNDS_PER_SET,
    MOVE_LETTERS,
    VERSION_DECIMALS,
    MapInfo,
    Pack,
    Piece,
    Problem,
    Severity,
    Sound,
    SoundSet,
    Tile,
    Weapon,
)

KNOWN_SECTIONS = ("general", "tiles", "sounds", "soundsets", "weapons", "pieces")
KEPT_SECTIONS = ("spells", "spellsets", "armor", "elements")
_VERSION = re.compile(r"^\d+(\.\d+)?$")
_MAP_SECTION = re.compile(r"^map(\d+)$")


@dataclass(frozen=True)
class Field:
    """One comma-separated field: its label in messages, the record attribute, its kind
    (text, int, movement, bmp, wav) and the default when missing or malformed."""

    label: str
    attr: str
    kind: str = "int"
    default: int | str = 0


@dataclass(frozen=True)
class EntrySpec:
    """A list section: the key prefix (`tile`), its fields, how many are required, and the
    record class (built with `id`/`index`, `line` and the field attributes)."""

    section: str
    prefix: str
    fields: tuple[Field, ...]
    required: int
    build: Callable[..., Any]
    id_attr: str = "id"


TILE_SPEC = EntrySpec(
    "Tiles",
    "tile",
    (
        Field("name", "name", "text", ""),
        Field("bitmap", "bitmap", "bmp", ""),
        Field("movement", "movement", "movement", 0),
        Field("flags", "flags"),
    ),
    required=3,
    build=Tile,
    id_attr="index",
)
SOUND_SPEC = EntrySpec(
    "Sounds",
    "sound",
    (Field("label", "label", "text", ""), Field("wav", "wav", "wav", "")),
    required=2,
    build=Sound,
)
WEAPON_SPEC = EntrySpec(
    "Weapons",
    "weapon",
    (
        Field("name", "name", "text", ""),
        Field("class", "weapon_class", "text", ""),
        Field("dominates", "dominates", "text", ""),
        Field("damage", "damage", "int", 1),
        Field("movement", "movement", "movement", 255),
        Field("setHit", "set_hit"),
        Field("setMiss", "set_miss"),
        Field("setCrit", "set_crit"),
        Field("flags", "flags"),
    ),
    required=4,
    build=Weapon,
)
PIECE_SPEC = EntrySpec(
    "Pieces",
    "piece",
    (
        Field("name", "name", "text", ""),
        Field("bitmap", "bitmap", "bmp", ""),
        Field("max#", "max_count", "int", 0),
        Field("hp", "hp", "int", 1),
        Field("mp", "mp"),
        Field("str", "strength", "int", 1),
        Field("def", "defense", "int", 1),
        Field("agi", "agility", "int", 1),
        Field("el", "element"),
        Field("mov", "movement", "movement", 1),
        Field("mob", "mobility", "int", 1),
        Field("range", "range", "int", 1),
        Field("minRange", "min_range"),
        Field("setRdy", "set_ready"),
        Field("setGo", "set_go"),
        Field("setAtt", "set_attack"),
        Field("setPain", "set_pain"),
        Field("setDeath", "set_death"),
        Field("wpn", "weapon"),
        Field("armor", "armor"),
        Field("spellSet", "spell_set"),
        Field("req", "requirements", "text", ""),
        Field("flags", "flags"),
    ),
    required=12,
    build=Piece,
)


class Reporter:
    """Collects problems for one file."""

    def __init__(self, filename: str, problems: list[Problem]) -> None:
        self.filename = filename
        self.problems = problems

    def warn(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.filename, line, message, Severity.WARNING))

    def error(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.filename, line, message, Severity.ERROR))


def parse_movement(text: str) -> int | None:
    """Movement bits from a number (`9`) or letters (`EW`); None when malformed."""
    number = parse_int(text)
    if number is not None:
        return number if 0 <= number <= 255 else None
    letters = text.strip().upper()
    if letters and all(letter in MOVE_LETTERS for letter in letters):
        bits = 0
        for letter in letters:
            bits |= MOVE_LETTERS[letter]
        return bits
    return None


def _entry_id(key: str, prefix: str) -> int | None:
    """N of a key `prefixN` (case-blind), or None when the key has another shape."""
    tail = key[len(prefix) :] if key.lower().startswith(prefix) else ""
    return int(tail) if tail.isascii() and tail.isdigit() else None


def read_number(raw: str, default: int, where: str, line: int, report: Reporter) -> int:
    """T13: an integer field; `5s` reads 5 and a field without leading digits takes
    `default`, each with a warning naming `where`."""
    value = parse_int(raw)
    if value is not None:
        return value
    lead = leading_int(raw)
    if lead is not None:
        report.warn(line, f"{where}: {quoted(raw.strip())} read as {lead} (its leading digits)")
        return lead
    report.warn(line, f"{where}: {quoted(raw.strip())} is not a number; using default {default}")
    return default


def safe_asset(raw: str, extension: str, where: str, line: int, report: Reporter) -> str:
    """The pack-relative asset name of `raw` ("" when none is given or the name would leave
    the pack, which is an error)."""
    if not raw.strip():
        return ""
    name = asset_name(raw, extension)
    try:
        return check_safe(name)
    except UnsafePath as exc:
        report.error(line, f"{where}: {exc}; ignored")
        return ""


def _convert(item: Field, raw: str, where: str, line: int, report: Reporter) -> Any:
    if item.kind == "text":
        return raw.strip()
    label = f"{where} field {quoted(item.label)}"
    if item.kind == "wav" and raw.strip().endswith(("\\", "/")):
        report.warn(line, f"{label}: {quoted(raw.strip())} names a folder, not a sound; no sound")
        return ""
    if item.kind in ("bmp", "wav"):
        return safe_asset(raw, "." + item.kind, label, line, report)
    if item.kind == "movement":
        bits = parse_movement(raw)
        if bits is not None:
            return bits
    default = item.default if isinstance(item.default, int) else 0
    return read_number(raw, default, label, line, report)


def read_entries(ini: IniFile, spec: EntrySpec, pack: Pack, report: Reporter) -> dict[int, Any]:
    """All records of a list section, by id."""
    section = ini.section(spec.section)
    records: dict[int, Any] = {}
    if section is None:
        return records
    for item in section.entries.values():
        where = item.key
        entry = _entry(item, spec.prefix, section.name, pack, report)
        if entry is None:
            continue
        number, values = entry
        if len(values) < spec.required:
            names = ", ".join(f.label for f in spec.fields[: spec.required])
            report.error(
                item.line,
                f"{where}: {len(values)} fields, needs at least {spec.required} ({names}); skipped",
            )
            continue
        if len(values) > len(spec.fields):
            report.warn(
                item.line,
                f"{where}: {len(values) - len(spec.fields)} extra field(s) ignored",
            )
        attrs: dict[str, Any] = {spec.id_attr: number, "line": item.line}
        for index, fld in enumerate(spec.fields):
            if index < len(values):
                attrs[fld.attr] = _convert(fld, values[index], where, item.line, report)
            else:
                attrs[fld.attr] = fld.default
        records[number] = spec.build(**attrs)
    return records


def _entry(
    item: IniValue, prefix: str, section: str, pack: Pack, report: Reporter
) -> tuple[int, list[str]] | None:
    """(N, fields) of a `prefixN = ...` line; None (reported, or noted as a placeholder when
    the name field is empty) when the entry is to be skipped."""
    number = _entry_id(item.key, prefix)
    if number is None or number <= 0:
        report.warn(
            item.line, f"[{section}] key {quoted(item.key)} is not {prefix}N with N >= 1; skipped"
        )
        return None
    values = _fields(item, report)
    if not values or not values[0].strip():
        pack.placeholders.append((item.key, item.line))
        return None
    return number, values


def _fields(item: IniValue, report: Reporter) -> list[str]:
    values, notes = split_fields(item.value)
    for note in notes:
        report.warn(item.line, f"{item.key}: {note}")
    return values


def _sound_sets(ini: IniFile, pack: Pack, report: Reporter) -> dict[int, SoundSet]:
    section = ini.section("SoundSets")
    sets: dict[int, SoundSet] = {}
    if section is None:
        return sets
    for item in section.entries.values():
        entry = _entry(item, "soundset", section.name, pack, report)
        if entry is None:
            continue
        number, values = entry
        ids: list[int] = []
        for raw in values[1:]:
            if not raw.strip():
                continue
            value = leading_int(raw)
            if value is None:
                shown = quoted(raw.strip())
                report.warn(item.line, f"{item.key}: sound id {shown} is not a number; dropped")
                continue
            if parse_int(raw) is None:
                shown = quoted(raw.strip())
                report.warn(item.line, f"{item.key}: sound id {shown} read as {value}")
            ids.append(value)
        if not ids:
            shown = quoted(values[0].strip())
            report.warn(item.line, f"{item.key} {shown}: an empty sound set plays nothing")
        if len(ids) > MAX_SOUNDS_PER_SET:
            report.warn(
                item.line,
                f"{item.key}: {len(ids)} sounds, at most {MAX_SOUNDS_PER_SET}; extra ones dropped",
            )
            ids = ids[:MAX_SOUNDS_PER_SET]
        sets[number] = SoundSet(number, values[0].strip(), tuple(ids), item.line)
    return sets


def _cap_piece(piece: Piece, report: Reporter) -> Piece:
    changes: dict[str, Any] = {}
    if piece.max_count <= 0:
        changes["max_count"] = MAX_PIECE_COUNT
    elif piece.max_count > MAX_PIECE_COUNT:
        report.warn(piece.line, f"{piece.name}: max# {piece.max_count} capped at 9")
        changes["max_count"] = MAX_PIECE_COUNT
    for attr, cap in (("mobility", MAX_MOBILITY), ("range", MAX_RANGE)):
        value = getattr(piece, attr)
        if value > cap:
            report.warn(piece.line, f"{piece.name}: {attr} {value} capped at {cap}")
            changes[attr] = cap
    if piece.hp <= 0:
        report.error(piece.line, f"{piece.name}: hp must be at least 1, got {piece.hp}")
    rng = changes.get("range", piece.range)
    if piece.min_range >= rng:
        report.warn(
            piece.line,
            f"{piece.name}: minRange {piece.min_range} >= range {rng}: it can never attack",
        )
    if not changes:
        return piece
    return replace(piece, **changes)


def _general(ini: IniFile, pack: Pack, report: Reporter) -> None:
    version = ini.get("general", "version")
    if version is not None:
        text = version.value.strip()
        if not _VERSION.match(text):
            report.warn(
                version.line, f"version {quoted(text)} is not a number like 1.2345; ignored"
            )
        else:
            decimals = len(text.partition(".")[2])
            if decimals > VERSION_DECIMALS:
                report.warn(
                    version.line,
                    f"version {text} has more than {VERSION_DECIMALS} decimals; rounded",
                )
            pack.version = round(float(text), VERSION_DECIMALS)
    num = ini.get("general", "numMaps")
    if num is not None:
        value = read_number(num.value, 0, "numMaps", num.line, report)
        most = limits().ini.max_maps
        if value < 0:
            report.warn(num.line, f"numMaps {quoted(num.value)} is below 0; using 0")
        elif value > most:
            report.error(
                num.line, f"numMaps {value} is past the limit of {most} maps; no map is read"
            )
        else:
            pack.num_maps = value
    colors = ini.get("general", "teamColors")
    if colors is not None:
        values = [parse_int(v) for v in split_fields(colors.value)[0]]
        if values and all(v is not None and 0 <= v <= 255 for v in values):
            pack.team_colors = tuple(sorted({v for v in values if v is not None}))
        else:
            report.warn(
                colors.line,
                f"teamColors {quoted(colors.value)} is not a list of palette indices 0-255; "
                "default used",
            )


def _maps(ini: IniFile, pack: Pack, report: Reporter) -> None:
    for lowered, section in ini.sections.items():
        match = _MAP_SECTION.match(lowered)
        if not match:
            continue
        digits = match.group(1)
        number = int(digits)
        if digits != str(number):
            report.warn(
                section.line,
                f"[{section.name}]: map sections are not zero-padded (use [map{number}]); ignored",
            )
            continue
        if number < 1 or number > pack.num_maps:
            report.warn(
                section.line,
                f"[{section.name}] ignored: numMaps is {pack.num_maps}",
            )
            continue
        info = _map_info(number, section.name, section.line, ini, pack, report)
        if info is not None:
            pack.maps[number] = info
    for number in range(1, pack.num_maps + 1):
        if number not in pack.maps and ini.section(f"map{number}") is None:
            line = ini.get("general", "numMaps")
            report.warn(
                line.line if line else 0,
                f"numMaps is {pack.num_maps} but there is no [map{number}] section",
            )


def _map_info(
    number: int, title: str, line: int, ini: IniFile, pack: Pack, report: Reporter
) -> MapInfo | None:
    section = f"map{number}"

    def text(key: str) -> str:
        item = ini.get(section, key)
        if item is None:
            return ""
        values, _notes = split_fields(item.value)
        return values[0] if values else ""

    name = text("name")
    if not name:
        pack.placeholders.append((f"[{title}]", line))
        return None
    bitmap = text("bitmap")
    if not bitmap:
        report.error(line, f"[{title}] {quoted(name)} has no bitmap; skipped")
        return None
    seed: int | None = None
    seed_item = ini.get(section, "seed")
    if seed_item is not None and seed_item.value.strip():
        seed = read_number(seed_item.value, 0, f"[{title}] seed", seed_item.line, report)
    roughness: int | None = None
    rough_item = ini.get(section, "roughness")
    if rough_item is not None and rough_item.value.strip():
        where = f"[{title}] roughness"
        value = read_number(rough_item.value, 0, where, rough_item.line, report)
        if not 0 <= value <= 255:
            report.warn(rough_item.line, f"{where} {value} is not 0-255; clamped")
        roughness = max(0, min(255, value))
    elevation = text("elevationBitmap")
    bitmap_item = ini.get(section, "bitmap")
    where_line = bitmap_item.line if bitmap_item else line
    safe_bitmap = safe_asset(bitmap, ".bmp", f"[{title}] bitmap", where_line, report)
    if not safe_bitmap:
        return None
    safe_elevation = safe_asset(elevation, ".bmp", f"[{title}] elevationBitmap", where_line, report)
    return MapInfo(
        id=number,
        name=name,
        bitmap=safe_bitmap,
        author=text("author"),
        elevation_bitmap=safe_elevation or None,
        seed=seed,
        roughness=roughness,
        requirements=text("requirements"),
        line=bitmap_item.line if bitmap_item else line,
    )


def check_references(pack: Pack, report: Reporter) -> None:
    """Errors for ids that point nowhere: sounds in sets, sets in weapons and pieces,
    weapons in pieces; a warning for a weapon class nobody has."""
    for sound_set in pack.sound_sets.values():
        for sound in sound_set.sounds:
            if sound and sound not in pack.sounds:
                report.error(sound_set.line, f"soundSet{sound_set.id}: unknown sound id {sound}")
    sets = pack.sound_sets
    for weapon in pack.weapons.values():
        for label, value in (
            ("setHit", weapon.set_hit),
            ("setMiss", weapon.set_miss),
            ("setCrit", weapon.set_crit),
        ):
            if value and value not in sets:
                report.error(
                    weapon.line,
                    f"weapon{weapon.id} {weapon.name}: {label} is unknown sound-set id {value}",
                )
    classes = {w.weapon_class.lower() for w in pack.weapons.values()}
    for weapon in pack.weapons.values():
        if weapon.dominates and weapon.dominates.lower() not in classes:
            report.warn(
                weapon.line,
                f"weapon{weapon.id} {weapon.name}: dominates class {quoted(weapon.dominates)} "
                "that no weapon has",
            )
    for piece in pack.pieces.values():
        for label, value in piece.sound_sets.items():
            if value and value not in sets:
                report.error(
                    piece.line,
                    f"piece{piece.id} {piece.name}: {label} sound set is unknown "
                    f"sound-set id {value}",
                )
        if piece.weapon not in pack.weapons:
            report.error(
                piece.line, f"piece{piece.id} {piece.name}: unknown weapon id {piece.weapon}"
            )


def read_records(ini: IniFile, pack: Pack) -> None:
    """Fill `pack` from `ini`: general settings, every list section, maps, kept sections,
    then the cross-reference checks. Problems go to `pack.problems`."""
    report = Reporter(ini.filename, pack.problems)
    pack.problems.extend(ini.problems)
    _general(ini, pack, report)
    pack.tiles = read_entries(ini, TILE_SPEC, pack, report)
    for index in list(pack.tiles):
        if index > 255:
            tile = pack.tiles.pop(index)
            report.warn(tile.line, f"tile{index}: palette indices are 1-255; skipped")
    pack.sounds = read_entries(ini, SOUND_SPEC, pack, report)
    pack.sound_sets = _sound_sets(ini, pack, report)
    pack.weapons = read_entries(ini, WEAPON_SPEC, pack, report)
    pieces = read_entries(ini, PIECE_SPEC, pack, report)
    pack.pieces = {number: _cap_piece(piece, report) for number, piece in pieces.items()}
    _maps(ini, pack, report)
    for lowered, section in ini.sections.items():
        if lowered in KNOWN_SECTIONS or _MAP_SECTION.match(lowered):
            continue
        if lowered not in KEPT_SECTIONS:
            report.warn(section.line, f"unknown section [{section.name}] kept, unused")
        pack.extra_sections[lowered] = {k: v.value for k, v in section.entries.items()}
