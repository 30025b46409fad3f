"""Map files mutated at random either load or raise `BoardError` naming the file (issue
15.7): no other exception escapes a map loader, whatever the bytes.

Each format (.tmx, .map, .json) gets a few hundred cases made from a real map: numbers
swapped for extreme or broken values (1e308, nan, -1, huge ids), lines dropped, doubled or
swapped, bytes flipped, text cut short, odd encodings. Everything is seeded, so a failure
names a case that comes back the same way.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import msgspec
import pytest

from suite.core.board import BoardError
from suite.paths import asset
from suite.worldwar.rules.maps import classic_map, load_map_file

CASES = 250
DATA = Path(__file__).parent / "data"
SOURCES = {
    "tmx": lambda: asset("worldwar", "maps", "classic.tmx").read_bytes(),
    "map": lambda: (DATA / "archipelago.map").read_bytes(),
    "json": lambda: msgspec.json.format(msgspec.json.encode(classic_map().to_json())),
}
"""The shipped classic map (Tiled), a Domination map and the classic map as board JSON."""
NUMBERS = ["1e308", "-1e308", "nan", "inf", "-1", "0", "99999999999999999999", "1.5", "", "x"]
NUMBER = re.compile(rb"-?\d+(?:\.\d+)?")


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One random change (sometimes two) of `data`."""
    for _ in range(rng.choice((1, 1, 2))):
        lines = data.split(b"\n")
        kind = rng.randrange(8)
        if kind == 0:  # a number becomes something else
            spots = list(NUMBER.finditer(data))
            if spots:
                m = rng.choice(spots)
                data = data[: m.start()] + rng.choice(NUMBERS).encode() + data[m.end() :]
        elif kind == 1 and len(lines) > 1:  # drop a line
            del lines[rng.randrange(len(lines))]
            data = b"\n".join(lines)
        elif kind == 2:  # double a line
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            data = b"\n".join(lines)
        elif kind == 3 and len(lines) > 1:  # swap two lines
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif kind == 4 and data:  # flip some bytes
            raw = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                raw[rng.randrange(len(raw))] = rng.randrange(256)
            data = bytes(raw)
        elif kind == 5:  # cut short
            data = data[: rng.randrange(len(data) + 1)]
        elif kind == 6:  # an odd encoding or byte order mark
            data = rng.choice([b"\xff\xfe", b"\xef\xbb\xbf", b"\xfe\xff"]) + data
            if rng.random() < 0.5:
                data = data.replace(b'encoding="UTF-8"', b'encoding="klingon"')
        else:  # odd characters into a name
            data = data.replace(b"a", rng.choice([b"\x00", "\u00e9".encode(), b"<", b"&"]), 1)
    return data


@pytest.mark.parametrize("kind", sorted(SOURCES))
def test_mutated_maps_load_or_raise_board_error(kind: str, tmp_path: Path) -> None:
    original = SOURCES[kind]()
    rng = random.Random(f"fuzz-{kind}")
    target = tmp_path / f"mutant.{kind}"
    loaded = refused = 0
    for case in range(CASES):
        target.write_bytes(mutate(original, rng))
        try:
            load_map_file(target)
        except BoardError as exc:
            assert str(target) in str(exc), f"case {case}: the error does not name the file"
            refused += 1
        except Exception as exc:  # noqa: BLE001 - exactly what this test looks for
            raise AssertionError(f"{kind} case {case}: {type(exc).__name__}: {exc}") from exc
        else:
            loaded += 1
    assert loaded and refused  # the mutations do both: neither all harmless nor all fatal
