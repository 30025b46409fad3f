"""Tactics pack sync: the host's pack is in control.

The server describes a room's pack by `PackRef` (version from its `tactics_ini.txt` and a
content digest over every file's path and sha256). A client whose own pack differs asks
for the file list, in pages under the message limit (`list_pages`), and the files (base64
chunks), and stores the pack in a content-addressed cache folder named by its digest
(`PackCache`).

The client trusts nothing it is told: before it downloads a byte of any file it checks
the whole list (`PackCache.check`) against the Tactics pack limits of
`assets/tactics/rules/limits.toml` (`SyncLimits`: no file larger than the largest kind of
pack file, the pack's total size and file count), every path (relative, no `..`, no
backslash, no duplicate, never both `x` and `x/y`) and the digest. Files are then
written to a staging folder, each checked against its hash, and the folder becomes the
cached pack only when every file arrived; after any failure it is removed
(`_Staging`). Rooms may only use the shipped pack or a pack folder inside the server's
packs folder, so a client cannot make the server read any other file.
"""

from __future__ import annotations

import functools
import hashlib
import os
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import msgspec

from suite.net import protocol as P
from suite.tactics.assets.fetch import local_version
from suite.tactics.assets.files import UnsafePath, check_safe
from suite.tactics.assets.limits import limits

LIST_PAGE = 48 * 1024
"""Bytes of file entries (as JSON) per page of the file list, under the message limit."""
MAX_PATH = 1024
MAX_PART = 255
_HEX = frozenset("0123456789abcdef")
_DEVICES = frozenset(
    ["CON", "PRN", "AUX", "NUL"] + [f"{kind}{n}" for kind in ("COM", "LPT") for n in range(1, 10)]
)
"""Names Windows keeps for devices (with any extension)."""

Progress = Callable[[int, int], None]
"""Called with (bytes downloaded, bytes of the whole pack) as a download goes on."""


class PackSyncError(ValueError):
    """A pack that cannot be served or stored (message says which file and why)."""


@dataclass(frozen=True)
class SyncLimits:
    """What a pack sync accepts, from the Tactics pack limits (`limits.toml`): no file
    larger than the largest kind of pack file, `pack_bytes` and `files` for the whole."""

    file_bytes: int
    pack_bytes: int
    files: int

    @classmethod
    def shipped(cls) -> SyncLimits:
        table = limits()
        kinds = [getattr(table, name) for name in table.__struct_fields__ if name != "pack"]
        return cls(
            file_bytes=max(int(getattr(kind, "max_bytes", 0)) for kind in kinds),
            pack_bytes=table.pack.max_bytes,
            files=table.pack.max_files,
        )


def pack_files(folder: Path, bounds: SyncLimits | None = None) -> list[P.FileEntry]:
    """Every regular file of a pack folder (no symlinks), sorted by path, with hashes.

    PackSyncError when the folder holds more files, a larger file or more bytes than a
    client accepts (checked on the sizes, before a file is read)."""
    bounds = bounds or SyncLimits.shipped()
    out: list[P.FileEntry] = []
    total = 0
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if path.is_symlink() or not path.is_file():
                continue
            rel = path.relative_to(folder).as_posix()
            size = path.stat().st_size
            total += size
            if len(out) >= bounds.files:
                raise PackSyncError(f"{folder}: more than {bounds.files} files")
            if size > bounds.file_bytes:
                raise PackSyncError(f"{rel}: {size} bytes, past the limit of {bounds.file_bytes}")
            if total > bounds.pack_bytes:
                raise PackSyncError(f"{folder}: past the limit of {bounds.pack_bytes} bytes")
            data = path.read_bytes()
            out.append(
                P.FileEntry(path=rel, size=len(data), sha256=hashlib.sha256(data).hexdigest())
            )
    out.sort(key=lambda e: e.path)
    return out


def digest_of(files: Iterable[P.FileEntry]) -> str:
    """The content digest of a pack: sha256 over each file's path and hash."""
    h = hashlib.sha256()
    for entry in files:
        h.update(entry.path.encode("utf-8") + b"\0" + entry.sha256.encode("ascii") + b"\n")
    return h.hexdigest()


def list_pages(
    files: Iterable[P.FileEntry], budget: int = LIST_PAGE
) -> tuple[tuple[P.FileEntry, ...], ...]:
    """The file list cut into pages of at most `budget` bytes of JSON each (in order; one
    empty page for an empty pack)."""
    pages: list[tuple[P.FileEntry, ...]] = []
    page: list[P.FileEntry] = []
    used = 0
    for entry in files:
        size = len(msgspec.json.encode(entry)) + 1
        if page and used + size > budget:
            pages.append(tuple(page))
            page, used = [], 0
        page.append(entry)
        used += size
    pages.append(tuple(page))
    return tuple(pages)


class _Described(NamedTuple):
    ref: P.PackRef
    files: tuple[P.FileEntry, ...]
    by_path: dict[str, P.FileEntry]
    pages: tuple[tuple[P.FileEntry, ...], ...]
    total: int


@functools.lru_cache(maxsize=32)
def _describe(folder: str, stamp: float) -> _Described:
    files = tuple(pack_files(Path(folder)))
    version = local_version(Path(folder)) or 0.0
    return _Described(
        ref=P.PackRef(version=version, digest=digest_of(files)),
        files=files,
        by_path={f.path: f for f in files},
        pages=list_pages(files),
        total=sum(f.size for f in files),
    )


def _full(folder: Path) -> _Described:
    resolved = folder.resolve()
    stamp = max((p.stat().st_mtime for p in resolved.rglob("*") if p.is_file()), default=0.0)
    return _describe(str(resolved), stamp)


def describe(folder: Path) -> tuple[P.PackRef, tuple[P.FileEntry, ...]]:
    """A pack folder's reference and file list (cached until the folder changes;
    PackSyncError past the limits)."""
    described = _full(folder)
    return described.ref, described.files


def _check_path(path: str) -> str:
    """The key of a file path from a pack's list (normalised and case-folded: two paths
    with one key are the same file on some systems); PackSyncError unless it is a plain
    relative path (no backslash, `.`, `..`, empty part, drive, control character) that
    every system can store (no device name such as `CON`, no part ending in a dot or a
    space)."""
    shown = repr(path[:80])
    if "\\" in path:
        raise PackSyncError(f"{shown}: backslashes are not allowed in pack paths")
    if len(path) > MAX_PATH or any(not ch.isprintable() for ch in path):
        raise PackSyncError(f"{shown}: not a usable file name")
    try:
        check_safe(path)
    except UnsafePath as exc:
        raise PackSyncError(str(exc)) from None
    parts = path.split("/")
    if any(part in ("", ".", "..") or len(part.encode("utf-8")) > MAX_PART for part in parts):
        raise PackSyncError(f"{shown} is not a plain relative path inside the pack")
    for part in parts:
        if part[-1] in ". " or part.split(".")[0].upper() in _DEVICES:
            raise PackSyncError(f"{shown}: {part!r} cannot be stored on every system")
    return unicodedata.normalize("NFC", path).casefold()


def check_list(files: tuple[P.FileEntry, ...], bounds: SyncLimits) -> int:
    """The total size of a pack's file list; PackSyncError naming the first problem: too
    many files, a file or the whole past `bounds`, a path that is not plain and relative
    (`_check_path`), a duplicate (also one that differs only in case), a file that is also
    a folder (`x` and `x/y`), or a malformed hash."""
    if len(files) > bounds.files:
        raise PackSyncError(f"{len(files)} files; a pack holds at most {bounds.files}")
    taken: set[str] = set()
    folders: set[str] = set()
    total = 0
    for entry in files:
        key = _check_path(entry.path)
        if key in taken or key in folders:
            raise PackSyncError(f"{entry.path!r} is listed twice, or as a file and a folder")
        parts = key.split("/")
        above = {"/".join(parts[:i]) for i in range(1, len(parts))}
        if above & taken:
            raise PackSyncError(f"{entry.path!r} is inside a path that is listed as a file")
        taken.add(key)
        folders |= above
        if not 0 <= entry.size <= bounds.file_bytes:
            raise PackSyncError(
                f"{entry.path}: {entry.size} bytes, past the limit of {bounds.file_bytes}"
            )
        total += entry.size
        if total > bounds.pack_bytes:
            raise PackSyncError(f"the pack is past the limit of {bounds.pack_bytes} bytes")
        if len(entry.sha256) != 64 or not set(entry.sha256) <= _HEX:
            raise PackSyncError(f"{entry.path}: malformed sha256 {entry.sha256[:80]!r}")
    return total
