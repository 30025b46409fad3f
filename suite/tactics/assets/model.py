"""Typed records of a WoS Tactics asset pack (what `tactics_ini.txt` and its bitmaps define).

Everything here is plain data: no file access, no pygame. `suite.tactics.assets.pack.load_pack`
builds a `Pack` from a folder; `load_map` turns one `MapInfo` into a `MapGrid`.

Conventions
- Paths of assets are POSIX paths relative to the pack folder, with their extension
  (`tiles\\tileLava` in the ini becomes `tiles/tileLava.bmp`).
- Ids are the numbers in the ini keys: `tile50` is palette index 50, `sound3` is sound 3,
  `soundSet7`, `weapon2`, `piece12`, `[map4]`. Id 0 in a reference means "none".
- Grid arrays are indexed `[y, x]` (row, column); positions are `(x, y)` tuples.
- Every record keeps `line`, the ini line it came from, so later checks can point at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

import numpy as np
import numpy.typing as npt

from suite.tactics.assets.decoded import Decoded
from suite.tactics.assets.files import check_safe, resolve

# Movement bits shared by tiles, pieces and weapons: a piece may stand on a tile when the
# two share a bit.
MOVE_EARTH = 1
MOVE_AIR = 2
MOVE_FIRE = 4
MOVE_WATER = 8
MOVE_ALL = 255
MOVE_LETTERS = {"E": MOVE_EARTH, "A": MOVE_AIR, "F": MOVE_FIRE, "W": MOVE_WATER}

# Reserved palette indices of map and skin bitmaps.
BORDER_INDEX = 0
TRANSPARENT_INDEX = 6
START_INDICES = (249, 250, 251, 252)
TEAM_NAMES = ("red", "green", "yellow", "blue")
# RULINGS T14: the palette indices a skin recolours per army, the dark (43) and light (83)
# orange of the team flag every real skin carries; a pack may name others with
# `[general] teamColors = a, b, ...`.
DEFAULT_TEAM_COLORS: tuple[int, ...] = (43, 83)

# Limits of the format (from the pack format, not game balance).
MAX_MOBILITY = 6
MAX_RANGE = 6
MAX_PIECE_COUNT = 9
MAX_SOUNDS_PER_SET = 10
VERSION_DECIMALS = 4
TILE_SIZE = 128
SKIN_FRAMES = 5  # credits, stand, attack, pain, alt stand
FRAME_CREDITS, FRAME_STAND, FRAME_ATTACK, FRAME_PAIN, FRAME_ALT_STAND = range(SKIN_FRAMES)

INI_NAME = "tactics_ini.txt"
SETTINGS_NAME = "wosTacticsSettings.ini"


def movement_letters(bits: int) -> str:
    """`bits` as the letters a player sees (`EW` for earth and water, `-` for none)."""
    text = "".join(letter for letter, bit in MOVE_LETTERS.items() if bits & bit)
    return text or "-"


def can_cross(piece_movement: int, tile_movement: int) -> bool:
    """True when a piece with `piece_movement` bits may enter a tile with `tile_movement`."""
    return bool(piece_movement & tile_movement)


def version_key(version: float) -> int:
    """A version as an integer of ten-thousandths, so `1.2` and `1.2000` compare equal."""
    return int(round(version * 10**VERSION_DECIMALS))


class Severity(Enum):
    """How bad a problem is: errors fail `suite tactics check`, warnings do not."""

    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Problem:
    """One finding about a pack: `file:line: message` (line 0 when no line applies)."""

    file: str
    line: int
    message: str
    severity: Severity = Severity.WARNING

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.severity.value}: {self.message}"


@dataclass(frozen=True)
class Tile:
    """`tileN = Name, bitmap, movement, flags`: the tile drawn where a map pixel has index N."""

    index: int
    name: str
    bitmap: str
    movement: int
    flags: int = 0
    line: int = 0


@dataclass(frozen=True)
class Sound:
    """`soundN = label, wav`."""

    id: int
    label: str
    wav: str
    line: int = 0


@dataclass(frozen=True)
class SoundSet:
    """`soundSetN = name, id, id, ...`: play any one of these sounds (may be empty)."""

    id: int
    name: str
    sounds: tuple[int, ...]
    line: int = 0


@dataclass(frozen=True)
class Weapon:
    """`weaponN = Name, Class, Dominates, Damage, Movement, setHit, setMiss, setCrit, flags`.

    A weapon whose `dominates` equals the target weapon's `weapon_class` halves the target's
    defence. `movement` are the bits a shot may cross.
    """

    id: int
    name: str
    weapon_class: str
    dominates: str
    damage: int
    movement: int
    set_hit: int = 0
    set_miss: int = 0
    set_crit: int = 0
    flags: int = 0
    line: int = 0

    def dominates_weapon(self, other: Weapon) -> bool:
        """True when this weapon's class dominates `other`'s (class names are case-blind)."""
        return bool(self.dominates) and self.dominates.lower() == other.weapon_class.lower()


@dataclass(frozen=True)
class Piece:
    """One `pieceN = ...` line: an army piece kind.

    `max_count` is how many one army may hold (0 in the file means 9); `mobility` and
    `range` are capped at 6 on load. `min_range` 0 means adjacent targets are allowed.
    `movement` are the tile bits it may cross; `weapon` a `Weapon` id; the `set_*` fields
    are `SoundSet` ids (0 = silent). `armor`, `spell_set` and `element` are kept, unused.
    `requirements` is a RULINGS T12 string ("" = anyone).
    """

    id: int
    name: str
    bitmap: str
    max_count: int
    hp: int
    mp: int
    strength: int
    defense: int
    agility: int
    element: int
    movement: int
    mobility: int
    range: int
    min_range: int
    set_ready: int = 0
    set_go: int = 0
    set_attack: int = 0
    set_pain: int = 0
    set_death: int = 0
    weapon: int = 0
    armor: int = 0
    spell_set: int = 0
    requirements: str = ""
    flags: int = 0
    line: int = 0

    @property
    def sound_sets(self) -> dict[str, int]:
        """The piece's sound-set ids by event name."""
        return {
            "ready": self.set_ready,
            "go": self.set_go,
            "attack": self.set_attack,
            "pain": self.set_pain,
            "death": self.set_death,
        }


@dataclass(frozen=True)
class MapInfo:
    """A `[mapN]` section. `bitmap` is a `.bmp` (palette indices = tile ids) or a `.tmx`.

    Elevation (RULINGS T16) comes from `elevation_bitmap` when given, else from `seed`
    and `roughness`, the height span 0-255: flat without a seed, with seed 0 or with
    roughness 0; a nonzero seed without a roughness (`roughness` None) uses 32.
    """

    id: int
    name: str
    bitmap: str
    author: str = ""
    elevation_bitmap: str | None = None
    seed: int | None = None
    roughness: int | None = None
    requirements: str = ""
    line: int = 0


@dataclass(frozen=True)
class MapGrid:
    """A loaded map: what the rules engine needs, no drawing.

    - `tiles[y, x]`: tile id (palette index; 0 = border, never passable).
    - `movement[y, x]`: movement bits of the cell (0 = nothing may enter).
    - `elevation[y, x]`: 0-255.
    - `starts`: (x, y) of red, green, yellow, blue; None when the map lacks that start.
    """

    map_id: int
    name: str
    tiles: npt.NDArray[np.uint8]
    movement: npt.NDArray[np.uint8]
    elevation: npt.NDArray[np.uint8]
    starts: tuple[tuple[int, int] | None, ...]

    @property
    def size(self) -> int:
        """Width (= height) in cells."""
        return int(self.tiles.shape[0])

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def passable(self, x: int, y: int, movement: int) -> bool:
        """True when a piece with `movement` bits may stand on (x, y)."""
        return self.inside(x, y) and can_cross(movement, int(self.movement[y, x]))


@dataclass
class Pack:
    """A whole asset pack as loaded from `root`, with every problem found on the way.

    A pack with problems still holds everything that was sound; `problems` lists the rest
    (errors first make `suite tactics check` fail). `placeholders` are the ini keys whose
    entry had an empty name (skipped on purpose, not problems). `extra_sections` keeps
    `[Spells]`, `[SpellSets]`, `[Armor]`, `[Elements]` and any unknown section verbatim
    (lower-case keys).
    """

    root: Path
    version: float | None = None
    num_maps: int = 0
    team_colors: tuple[int, ...] = DEFAULT_TEAM_COLORS
    tiles: dict[int, Tile] = field(default_factory=dict)
    sounds: dict[int, Sound] = field(default_factory=dict)
    sound_sets: dict[int, SoundSet] = field(default_factory=dict)
    weapons: dict[int, Weapon] = field(default_factory=dict)
    pieces: dict[int, Piece] = field(default_factory=dict)
    maps: dict[int, MapInfo] = field(default_factory=dict)
    # the maps that loaded, by map id (a map with errors may be absent)
    grids: dict[int, MapGrid] = field(default_factory=dict)
    extra_sections: dict[str, dict[str, str]] = field(default_factory=dict)
    placeholders: list[tuple[str, int]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # asset paths (relative, as named) that were not found on disk: drawn as placeholders
    missing_files: set[str] = field(default_factory=set)
    # every file's bitmap, decoded once (bounded by the pack's pixel budget)
    decoded: Decoded = field(default_factory=Decoded, compare=False, repr=False)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]

    def path(self, relative: str) -> Path:
        """The file an asset name refers to (case-insensitive lookup, as on Windows);
        `UnsafePath` (a ValueError) for a name that would leave the pack."""
        return resolve(self.root, check_safe(relative))

    def referenced_files(self) -> list[str]:
        """Every file the ini names (bitmaps, elevation bitmaps, wavs), sorted, no repeats."""
        names: set[str] = set()
        names.update(t.bitmap for t in self.tiles.values())
        names.update(s.wav for s in self.sounds.values())
        names.update(p.bitmap for p in self.pieces.values())
        for info in self.maps.values():
            names.add(info.bitmap)
            if info.elevation_bitmap:
                names.add(info.elevation_bitmap)
        names.discard("")
        return sorted(names)

    def playable_pieces(self) -> dict[int, Piece]:
        """Pieces an army may hold, by id: at least 1 HP and a weapon the pack defines."""
        return {
            pid: piece
            for pid, piece in sorted(self.pieces.items())
            if piece.hp >= 1 and piece.weapon in self.weapons
        }

    def team_color_indices(self) -> tuple[int, ...]:
        """The palette indices a skin recolours per army (RULINGS T14)."""
        return self.team_colors
