"""A reader for `tactics_ini.txt` that behaves like the Windows INI functions it was made for.

Behaviour (what real packs rely on):
- section and key names are case-insensitive; a section that appears twice is one section;
- the first occurrence of a key wins (later ones are reported as warnings);
- a line whose first non-blank character is `;` is a comment; blank lines are fine;
- a junk line (starting with a stray `:` or `.`, or text without `=`) is skipped with a
  warning; so are keys before the first section;
- a line holding a number longer than `[ini] max_digits` of limits.toml (a key, a section
  name or a value) is an error naming the file and line and is dropped, so no reader ever
  converts such a number (Python refuses 4300+ digits with its own error);
- values keep their text; `split_fields` cuts them into comma-separated fields, where a
  field may be quoted ("..." or '...') and hold commas, a trailing comma is allowed and a
  missing comma between two quoted fields is tolerated.

Bytes are decoded as UTF-8 when valid, else as Windows-1252 (what old packs use).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from suite.tactics.assets.files import quoted
from suite.tactics.assets.limits import limits
from suite.tactics.assets.model import Problem, Severity

_INT = re.compile(r"^[+-]?\d+$")
_LEADING = re.compile(r"^[+-]?\d+")
_FLOAT = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class IniValue:
    """One `key = value` line: the key as spelled, the raw value (stripped) and its line."""

    key: str
    value: str
    line: int


@dataclass
class IniSection:
    """A section: its first spelling, the line of its first header, and its keys by
    lower-case name in file order."""

    name: str
    line: int
    entries: dict[str, IniValue] = field(default_factory=dict)


@dataclass
class IniFile:
    """A parsed ini file. `problems` holds the warnings found while reading."""

    filename: str
    sections: dict[str, IniSection] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def section(self, name: str) -> IniSection | None:
        return self.sections.get(name.lower())

    def get(self, section: str, key: str) -> IniValue | None:
        """The value of `key` in `section` (both case-insensitive), or None."""
        found = self.section(section)
        return None if found is None else found.entries.get(key.lower())

    def warn(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.filename, line, message, Severity.WARNING))

    def error(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.filename, line, message, Severity.ERROR))


def longest_number(text: str) -> int:
    """The length of the longest run of digits in `text` (0 when none)."""
    return max((len(run) for run in _DIGITS.findall(text)), default=0)


def too_long(text: str) -> bool:
    """True when `text` holds a number longer than `[ini] max_digits` (never convert it)."""
    return longest_number(text) > limits().ini.max_digits


def decode(data: bytes) -> str:
    """Text of an ini file: UTF-8 (BOM dropped) when valid, else Windows-1252."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_ini(data: bytes | str, filename: str) -> IniFile:
    """Parse ini text (bytes or str); never raises, reports oddities as warnings (and
    over-long numbers as errors)."""
    text = decode(data) if isinstance(data, bytes) else data
    ini = IniFile(filename)
    current: IniSection | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if too_long(line):
            what = line.partition("=")[0].strip()
            what = what if len(what) <= 32 else what[:29] + "..."
            ini.error(
                number,
                f"{what}: a number of {longest_number(line)} digits is past the limit of "
                f"{limits().ini.max_digits}; the line is ignored",
            )
            if line.startswith("["):
                current = None
            continue
        if line.startswith("["):
            end = line.find("]")
            name = line[1:end].strip() if end > 0 else ""
            if not name:
                ini.warn(number, f"junk line skipped: {quoted(line)} (not a section header)")
                current = None
                continue
            current = ini.sections.setdefault(name.lower(), IniSection(name, number))
            continue
        if line[0] in ":." or "=" not in line:
            ini.warn(number, f"junk line skipped: {quoted(line)}")
            continue
        key, _, value = line.partition("=")
        key = key.strip()
        if not key:
            ini.warn(number, f"junk line skipped: {quoted(line)} (no key before '=')")
            continue
        if current is None:
            ini.warn(number, f"key {quoted(key)} before any [section] ignored")
            continue
        lowered = key.lower()
        first = current.entries.get(lowered)
        if first is not None:
            ini.warn(
                number,
                f"duplicate key {quoted(key)} in [{current.name}] ignored "
                f"(the first one, line {first.line}, wins)",
            )
            continue
        current.entries[lowered] = IniValue(key, value.strip(), number)
    return ini


def split_fields(value: str) -> tuple[list[str], list[str]]:
    """Cut a value into fields; returns (fields, notes) where notes describe tolerated
    oddities (an unterminated quote). Quotes are removed, unquoted fields stripped; a
    trailing comma adds no field; `"a" "b"` is two fields."""
    fields: list[str] = []
    notes: list[str] = []
    i, n = 0, len(value)
    while i < n:
        while i < n and value[i] in " \t":
            i += 1
        if i >= n:
            break
        char = value[i]
        if char in "\"'":
            close = value.find(char, i + 1)
            if close < 0:
                notes.append(f"unterminated quote in {quoted(value)}")
                fields.append(value[i + 1 :])
                break
            text = value[i + 1 : close]
            i = close + 1
            # text glued after a closing quote belongs to the same field
            glued = ""
            while i < n and value[i] not in ",\"'":
                glued += value[i]
                i += 1
            fields.append(text + glued.rstrip())
            if i < n and value[i] == ",":
                i += 1
            continue
        end = value.find(",", i)
        if end < 0:
            fields.append(value[i:].strip())
            break
        fields.append(value[i:end].strip())
        i = end + 1
    return fields, notes


def parse_int(text: str) -> int | None:
    """An integer field (`+5`, `-3`, ` 7 `), or None when malformed (`5s`, `2.5`, ``)."""
    stripped = text.strip()
    return int(stripped) if _INT.match(stripped) else None


def leading_int(text: str) -> int | None:
    """RULINGS T13: the leading digits of a field, as the original's C reader took them
    (`5s` is 5, ` -3x` is -3); None when it does not start with digits."""
    found = _LEADING.match(text.strip())
    return int(found.group()) if found else None


def parse_float(text: str) -> float | None:
    """A decimal field (`1.25`, `3`, `.5`), or None when malformed."""
    stripped = text.strip()
    return float(stripped) if _FLOAT.match(stripped) else None
