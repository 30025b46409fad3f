"""Limits on what a pack may hold (`assets/tactics/rules/limits.toml`), read into typed
records through core `read_rules`, and the checks every reader makes BEFORE allocating.

A pack is untrusted input: a 1 KiB RLE8 bitmap may claim to be 100000x100000 pixels, a
`.tmx` header the same, `numMaps` a hundred billion. `PackLimitError` (a ValueError) names
the file and the limit it passes.
"""

from __future__ import annotations

import functools
import os
import stat
from pathlib import Path
from typing import BinaryIO

import msgspec

from suite.core.datafile import read_rules
from suite.paths import asset

LIMITS_FILE = ("tactics", "rules", "limits.toml")


class PackLimitError(ValueError):
    """A pack file past one of the limits (the message names the file and the limit)."""


class NotRegularFile(PackLimitError):
    """A pack "file" that is a FIFO, a device or a folder: never opened for reading (a
    FIFO would block the reader forever)."""


class _Table(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class SideLimit(_Table, frozen=True):
    """A square image (map, elevation map, tile): cells or pixels across, bytes on disk."""

    max_side: int
    max_bytes: int


class SkinLimit(_Table, frozen=True):
    max_height: int
    max_width: int
    max_bytes: int


class ButtonLimit(_Table, frozen=True):
    """A battle button strip (four states side by side or stacked)."""

    max_width: int
    max_height: int
    max_bytes: int


class SoundLimit(_Table, frozen=True):
    max_bytes: int
    max_channels: int
    sample_bits: list[int]
    min_rate: int
    max_rate: int
    max_seconds: int
    max_chunks: int


class IniLimit(_Table, frozen=True):
    max_bytes: int
    max_maps: int
    max_digits: int
    max_pieces: int
    max_sounds: int
    max_sound_sets: int
    max_weapons: int


class WholeLimit(_Table, frozen=True):
    max_bytes: int
    max_files: int
    max_pixels: int
    max_map_cells: int


class Limits(_Table, frozen=True):
    """Every limit by kind of file."""

    map: SideLimit
    elevation: SideLimit
    tile: SideLimit
    skin: SkinLimit
    button: ButtonLimit
    sound: SoundLimit
    ini: IniLimit
    pack: WholeLimit

    def image(self, kind: str) -> tuple[int, int, int]:
        """(max width, max height, max bytes) of an image of `kind` ("map", "elevation",
        "tile", "skin", "button")."""
        if kind == "skin":
            return self.skin.max_width, self.skin.max_height, self.skin.max_bytes
        if kind == "button":
            return self.button.max_width, self.button.max_height, self.button.max_bytes
        side: SideLimit = getattr(self, kind)
        return side.max_side, side.max_side, side.max_bytes


@functools.cache
def limits() -> Limits:
    """The shipped limits (read once)."""
    return read_rules(asset(*LIMITS_FILE), Limits)


def check_size(path: Path, max_bytes: int, what: str) -> int:
    """The size of the file at `path` (without reading it); PackLimitError past
    `max_bytes`, OSError when it cannot be looked at."""
    status = path.stat()
    if not stat.S_ISREG(status.st_mode):
        raise NotRegularFile(f"{path.name}: not a regular file ({_kind(status.st_mode)})")
    size = status.st_size
    if size > max_bytes:
        raise PackLimitError(
            f"{path.name}: {what} of {size} bytes is past the limit of {max_bytes}"
        )
    return size


def check_dimensions(name: str, width: int, height: int, kind: str) -> None:
    """PackLimitError when an image of `kind` claims more than its limit (checked on the
    header, before any pixel is allocated)."""
    max_width, max_height, _ = limits().image(kind)
    if width > max_width or height > max_height:
        raise PackLimitError(
            f"{name}: a {kind} of {width}x{height} is past the limit of {max_width}x{max_height}"
        )


def read_limited(path: Path, max_bytes: int, what: str) -> bytes:
    """The bytes of `path`, refused (PackLimitError) when larger than `max_bytes`; reads at
    most `max_bytes + 1` bytes even when the file grows meanwhile."""
    check_size(path, max_bytes, what)
    with open_regular(path) as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise PackLimitError(f"{path.name}: {what} is past the limit of {max_bytes} bytes")
    return data


def open_regular(path: Path) -> BinaryIO:
    """`path` opened for reading, refused (`NotRegularFile`) unless it is a regular file;
    opened without blocking, so a FIFO put in its place after a check cannot hang us."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(f"{path.name}: not a regular file ({_kind(mode)})")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"
