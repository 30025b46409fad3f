"""Load a pack folder: the ini, every file it names, and every map as a `MapGrid`.

`load_pack(root)` never raises for bad content: what is sound is loaded, the rest is listed
in `Pack.problems` (with the ini file and the line that names the asset) and missing files
in `Pack.missing_files`, so the game can draw placeholders and show the problems.

Start cells (palette 249-252) are standing ground: unless `[Tiles]` defines that index, a
start cell takes the tile most common among its four neighbours (ties: lowest index).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import numpy.typing as npt

from suite.tactics.assets import elevation
from suite.tactics.assets.bmp import Bitmap, BmpError
from suite.tactics.assets.files import UnsafePath, quoted, resolve
from suite.tactics.assets.ini import read_ini
from suite.tactics.assets.limits import PackLimitError, limits, read_limited
from suite.tactics.assets.model import (
    BORDER_INDEX,
    INI_NAME,
    MOVE_EARTH,
    SKIN_FRAMES,
    START_INDICES,
    TEAM_NAMES,
    TILE_SIZE,
    TRANSPARENT_INDEX,
    MapGrid,
    MapInfo,
    Pack,
)
from suite.tactics.assets.records import Reporter, check_references, read_records
from suite.tactics.assets.wav import NotWav, WavError, check_wav


def load_pack(root: Path) -> Pack:
    """Read `root/tactics_ini.txt` and everything it names (see the module docstring)."""
    pack = Pack(root=root)
    ini_path = root / INI_NAME
    report = Reporter(str(ini_path), pack.problems)
    try:
        ini_path = resolve(root, INI_NAME)
    except UnsafePath as exc:
        report.error(0, str(exc))
        return pack
    report = Reporter(str(ini_path), pack.problems)
    try:
        data = read_limited(ini_path, limits().ini.max_bytes, INI_NAME)
    except PackLimitError as exc:
        report.error(0, str(exc))
        return pack
    except OSError as exc:
        report.error(0, f"cannot read the pack's {INI_NAME}: {exc.strerror or exc}")
        return pack
    ini = read_ini(data, str(ini_path))
    read_records(ini, pack)
    if not pack.maps:
        report.error(0, f"{INI_NAME}: no maps (numMaps and [mapN] sections name none)")
    check_references(pack, report)
    if not pack.playable_pieces():
        report.error(
            0,
            f"{INI_NAME}: no playable piece (a piece needs at least 1 HP and a weapon the "
            "pack defines): no battle can start",
        )
    if not _within_pack_limits(pack, report):
        return pack
    _check_files(pack, report)
    cells, most = 0, limits().pack.max_map_cells
    for info in pack.maps.values():
        if cells >= most:
            report.error(
                info.line,
                f"map {info.id}: the maps before it hold {cells} cells, "
                f"the limit of {most}; not loaded",
            )
            continue
        grid = load_map(pack, info, report)
        if grid is not None:
            pack.grids[info.id] = grid
            cells += grid.size * grid.size
    return pack


def load_bitmap(pack: Pack, relative: str, kind: str) -> Bitmap | None:
    """The bitmap of `kind` an asset name refers to, or None when missing, unreadable,
    outside the pack or past its limits (draw a placeholder)."""
    try:
        return pack.decoded.bitmap(pack.path(relative), kind)
    except (OSError, ValueError):
        return None


def _within_pack_limits(pack: Pack, report: Reporter) -> bool:
    """False (with an error) when the files the ini names are more, or larger together,
    than a whole pack may be; sizes are looked up, nothing is read."""
    whole = limits().pack
    counts = limits().ini
    for what, entries, most in (
        ("pieces", pack.pieces, counts.max_pieces),
        ("sounds", pack.sounds, counts.max_sounds),
        ("sound sets", pack.sound_sets, counts.max_sound_sets),
        ("weapons", pack.weapons, counts.max_weapons),
    ):
        if len(entries) > most:
            report.error(0, f"{INI_NAME} holds {len(entries)} {what}, past the limit of {most}")
            return False
    names = pack.referenced_files()
    if len(names) > whole.max_files:
        report.error(0, f"{INI_NAME} names {len(names)} files, past the limit of {whole.max_files}")
        return False
    total = 0
    for name in names:
        try:
            path = pack.path(name)
            if path.is_file():
                total += path.stat().st_size
        except (OSError, ValueError):
            continue
    if total > whole.max_bytes:
        report.error(0, f"the pack's files hold {total} bytes, past the limit of {whole.max_bytes}")
        return False
    return True


def _exists(
    pack: Pack, relative: str, line: int, what: str, report: Reporter, needed: bool = True
) -> bool:
    """True when the file is there; else a problem (an error when `needed`, a warning and
    a placeholder otherwise)."""
    complain = report.error if needed else report.warn
    if not relative:
        complain(line, f"no {what} named")
        return False
    try:
        path = pack.path(relative)
        if path.is_file():
            return True
    except UnsafePath as exc:
        report.error(line, str(exc))
        return False
    if path.exists():
        report.error(line, f"{relative}: not a regular file; not read")
        return False
    pack.missing_files.add(relative)
    complain(line, f"missing {what} {relative}" + ("" if needed else "; a placeholder is used"))
    return False


def _read(pack: Pack, relative: str, line: int, kind: str, report: Reporter) -> Bitmap | None:
    try:
        return pack.decoded.bitmap(pack.path(relative), kind)
    except PackLimitError as exc:
        report.error(line, str(exc))
    except BmpError as exc:
        report.error(line, f"{relative}: {exc}")
    except OSError as exc:
        report.error(line, f"{relative}: cannot read ({exc.strerror or exc})")
    return None


def _named_bitmap(
    pack: Pack, relative: str, line: int, what: str, kind: str, report: Reporter
) -> Bitmap | None:
    """The bitmap of `kind` an ini line names, or None after reporting why it cannot be
    used."""
    if not _exists(pack, relative, line, what, report):
        return None
    return _read(pack, relative, line, kind, report)


def _check_files(pack: Pack, report: Reporter) -> None:
    for tile in pack.tiles.values():
        image = _named_bitmap(pack, tile.bitmap, tile.line, "tile bitmap", "tile", report)
        if image is None:
            continue
        if (image.width, image.height) != (TILE_SIZE, TILE_SIZE):
            report.error(
                tile.line,
                f"{tile.bitmap}: a tile is {TILE_SIZE}x{TILE_SIZE}, "
                f"this is {image.width}x{image.height}",
            )
        elif int(image.indices[0, 0]) != TRANSPARENT_INDEX:
            report.warn(
                tile.line,
                f"{tile.bitmap}: the corners should be palette index {TRANSPARENT_INDEX} "
                "(transparent)",
            )
    for sound in pack.sounds.values():
        # T19: a missing sound is a warning (the game plays a placeholder); a sound naming
        # a folder was warned about when read
        if sound.wav and _exists(pack, sound.wav, sound.line, "sound", report, needed=False):
            _check_wav(pack, sound.wav, sound.line, report)
    for piece in pack.pieces.values():
        image = _named_bitmap(pack, piece.bitmap, piece.line, "piece skin", "skin", report)
        if image is None:
            continue
        if image.width < SKIN_FRAMES * image.height:
            report.error(
                piece.line,
                f"{piece.bitmap}: a skin is a filmstrip of {SKIN_FRAMES} square frames "
                f"(width = {SKIN_FRAMES} x height); this is {image.width}x{image.height}",
            )


def _check_wav(pack: Pack, relative: str, line: int, report: Reporter) -> None:
    """Decode the whole sound (`suite.tactics.assets.wav`): an error when it is no WAV file
    or past the size limit, a warning (the sound is silent) when it cannot be played."""
    try:
        check_wav(pack.path(relative), relative)
    except NotWav as exc:
        report.error(line, str(exc))
    except PackLimitError as exc:
        report.error(line, str(exc))
    except WavError as exc:
        report.warn(line, f"{exc}; the sound stays silent")
    except OSError as exc:
        report.error(line, f"{relative}: cannot read ({exc.strerror or exc})")


def load_map(pack: Pack, info: MapInfo, report: Reporter) -> MapGrid | None:
    """The grid of one map (bitmap or `.tmx`), or None when it cannot be played."""
    if info.bitmap.lower().endswith(".tmx"):
        if not _exists(pack, info.bitmap, info.line, "map bitmap", report):
            return None
        from suite.tactics.assets.tmx import load_tmx_grid

        return load_tmx_grid(pack, info, report)
    image = _named_bitmap(pack, info.bitmap, info.line, "map bitmap", "map", report)
    if image is None:
        return None
    if image.width != image.height:
        report.error(
            info.line,
            f"map {info.id} {quoted(info.name)}: {info.bitmap} is {image.width}x{image.height}, "
            "a map must be square",
        )
        return None
    tiles = image.indices.copy()
    starts = _find_starts(pack, info, tiles, report)
    _fill_start_cells(pack, tiles)
    movement = tile_movement(pack, info, tiles, report)
    heights = _elevation(pack, info, image.width, report)
    if not info.elevation_bitmap:
        heights = connect_generated(heights, movement, starts)
    return MapGrid(info.id, info.name, tiles, movement, heights, starts)


def _find_starts(
    pack: Pack, info: MapInfo, tiles: npt.NDArray[np.uint8], report: Reporter
) -> tuple[tuple[int, int] | None, ...]:
    starts: list[tuple[int, int] | None] = []
    for team, index in zip(TEAM_NAMES, START_INDICES, strict=True):
        ys, xs = np.nonzero(tiles == index)
        if len(xs) == 0:
            report.error(
                info.line,
                f"map {info.id} {quoted(info.name)}: no {team} start (palette index {index})",
            )
            starts.append(None)
            continue
        if len(xs) > 1:
            report.warn(
                info.line,
                f"map {info.id} {quoted(info.name)}: {len(xs)} {team} start pixels; "
                f"the first (row by row) at ({xs[0]}, {ys[0]}) is used",
            )
        starts.append((int(xs[0]), int(ys[0])))
    return tuple(starts)


def _fill_start_cells(pack: Pack, tiles: npt.NDArray[np.uint8]) -> None:
    size = tiles.shape[0]
    for index in START_INDICES:
        if index in pack.tiles:
            continue
        for y, x in zip(*np.nonzero(tiles == index), strict=True):
            around: Counter[int] = Counter()
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nx, ny = int(x) + dx, int(y) + dy
                if 0 <= nx < size and 0 <= ny < size:
                    value = int(tiles[ny, nx])
                    if value in pack.tiles:
                        around[value] += 1
            if around:
                best = max(around.items(), key=lambda kv: (kv[1], -kv[0]))[0]
                tiles[y, x] = best


def tile_movement(
    pack: Pack, info: MapInfo, tiles: npt.NDArray[np.uint8], report: Reporter
) -> npt.NDArray[np.uint8]:
    """Movement bits of every cell; reports palette indices that no `[Tiles]` line defines
    (those cells, like the border, let nothing in)."""
    lookup = np.zeros(256, dtype=np.uint8)
    for index, tile in pack.tiles.items():
        lookup[index] = tile.movement & 0xFF
    lookup[BORDER_INDEX] = 0
    used = np.unique(tiles)
    for value in used:
        index = int(value)
        if index == BORDER_INDEX or index in pack.tiles:
            continue
        ys, xs = np.nonzero(tiles == index)
        what = (
            "start cell without a tile around it" if index in START_INDICES else "no [Tiles] line"
        )
        report.error(
            info.line,
            f"map {info.id} {quoted(info.name)}: palette index {index} ({len(xs)} cells, first at "
            f"({xs[0]}, {ys[0]})) has {what}",
        )
    result: npt.NDArray[np.uint8] = lookup[tiles]
    return result


def connect_generated(
    heights: npt.NDArray[np.uint8],
    movement: npt.NDArray[np.uint8],
    starts: tuple[tuple[int, int] | None, ...],
) -> npt.NDArray[np.uint8]:
    """T16: generated heights with cliffs lowered until earth walkers from every start
    reach every other start (the walking step is the rules' `move_elevation_step`)."""
    if not heights.any():
        return heights
    from suite.tactics.rules.data import load_rules  # the rules package imports this one

    step = load_rules().movement.move_elevation_step
    return elevation.connect_starts(heights, (movement & MOVE_EARTH) != 0, starts, step)


def _elevation(pack: Pack, info: MapInfo, size: int, report: Reporter) -> npt.NDArray[np.uint8]:
    if info.elevation_bitmap:
        image = _named_bitmap(
            pack, info.elevation_bitmap, info.line, "elevation bitmap", "elevation", report
        )
        if image is None:
            return elevation.flat(size)
        if (image.width, image.height) != (size, size):
            report.error(
                info.line,
                f"map {info.id} {quoted(info.name)}: {info.elevation_bitmap} is "
                f"{image.width}x{image.height}, the map is {size}x{size}; map is flat",
            )
            return elevation.flat(size)
        return elevation.from_bitmap(image)
    return elevation.generate(size, info.seed, info.roughness)
