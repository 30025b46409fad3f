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

import base64
import binascii
import functools
import hashlib
import os
import shutil
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

import msgspec

from suite.net import protocol as P
from suite.tactics.assets.fetch import local_version
from suite.tactics.assets.files import UnsafePath, check_safe
from suite.tactics.assets.limits import limits
from suite.tactics.rules.packs import default_pack_dir

CHUNK = 36 * 1024
"""Raw bytes per pack chunk (base64 makes it 48 KiB, under the message limit)."""
LIST_PAGE = 48 * 1024
"""Bytes of file entries (as JSON) per page of the file list, under the message limit."""
STAGING_PREFIX = ".staging-"
STALE_STAGING = 3600.0
"""Seconds after which a staging folder left by a killed client is removed."""
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


class PackServer:
    """The server side: which folder a room's config may name, and serving its files."""

    RECHECK = 1.0
    """Seconds a pack folder's description is trusted before its files are looked at again
    (a download asks for hundreds of chunks)."""

    def __init__(self, packs_dir: Path, clock: Callable[[], float] = time.monotonic) -> None:
        self.packs_dir = packs_dir
        self._clock = clock
        self._recent: dict[str, tuple[float, Path, _Described]] = {}

    def folder(self, choice: Any) -> Path:
        """The pack folder a config's "pack" names: None (the shipped pack) or the name of
        a folder in the server's packs folder; anything else is refused."""
        if choice is None or choice == "":
            return default_pack_dir()
        if not isinstance(choice, str):
            raise PackSyncError(f"pack must be a pack name, not {choice!r}")
        try:
            name = check_safe(choice)
        except UnsafePath as exc:
            raise PackSyncError(str(exc)) from None
        if "/" in name:
            raise PackSyncError(f"pack {choice!r} must be a folder name, not a path")
        folder = self.packs_dir / name
        if not folder.is_dir():
            have = sorted(p.name for p in self.packs_dir.glob("*") if p.is_dir())
            raise PackSyncError(f"no pack {choice!r} on this server (has {have or 'none'})")
        return folder

    def host_pack(self, config: dict[str, Any]) -> tuple[P.PackRef, dict[str, Any]]:
        """The room's pack reference, and the config with the pack as a server folder (a
        pack that clients would refuse, `check_list`, is refused)."""
        from suite.net.room import Refused

        try:
            folder = self.folder(config.get("pack"))
            ref, files = describe(folder)
            check_list(files, SyncLimits.shipped())  # what every client checks
        except PackSyncError as exc:
            raise Refused("bad_config", str(exc)) from None
        out = dict(config)
        out["pack"] = None if folder == default_pack_dir() else str(folder)
        return ref, out

    def answer(self, code: str, ref: P.PackRef, path: str | None, offset: int) -> P.Message:
        """Page `offset` of the file list (path None) or the chunk of one file of the
        room's pack that starts at `offset`."""
        from suite.net.room import Refused

        folder, described = self._described(ref)
        if path is None:
            pages = len(described.pages)
            if not 0 <= offset < pages:
                raise Refused("bad_offset", f"the file list has {pages} pages")
            return P.PackFiles(
                code=code,
                pack=ref,
                files=described.pages[offset],
                page=offset,
                pages=pages,
                total_files=len(described.files),
                total_bytes=described.total,
            )
        entry = described.by_path.get(path)
        if entry is None:
            raise Refused("no_file", f"the pack has no file {path!r}")
        if not 0 <= offset <= entry.size:
            raise Refused("bad_offset", f"{path} has {entry.size} bytes")
        with (folder / entry.path).open("rb") as fh:
            fh.seek(offset)
            data = fh.read(CHUNK)
        return P.PackChunk(
            code=code,
            path=path,
            offset=offset,
            data=base64.b64encode(data).decode("ascii"),
            eof=offset + len(data) >= entry.size,
        )

    def _described(self, ref: P.PackRef) -> tuple[Path, _Described]:
        """The folder holding the room's pack and its description (Refused when the pack
        changed or is gone)."""
        from suite.net.room import Refused

        now = self._clock()
        recent = self._recent.get(ref.digest)
        if recent is not None and now - recent[0] < self.RECHECK:
            return recent[1], recent[2]
        folder = self._folder_of(ref)
        try:
            described = _full(folder)
        except (OSError, PackSyncError) as exc:
            raise Refused("pack_changed", f"the room's pack cannot be served: {exc}") from None
        if described.ref.digest != ref.digest:
            raise Refused("pack_changed", "the room's pack changed on the server")
        self._recent[ref.digest] = (now, folder, described)
        return folder, described

    def _folder_of(self, ref: P.PackRef) -> Path:
        candidates = [default_pack_dir()]
        if self.packs_dir.is_dir():
            candidates += sorted(p for p in self.packs_dir.iterdir() if p.is_dir())
        for folder in candidates:
            try:
                if describe(folder)[0].digest == ref.digest:
                    return folder
            except (OSError, PackSyncError):
                continue
        from suite.net.room import Refused

        raise Refused("no_pack", "the room's pack is gone from the server")


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


class PackCache:
    """The client side: packs stored by digest under `root` (`root/<digest>/...`)."""

    def __init__(self, root: Path, bounds: SyncLimits | None = None) -> None:
        self.root = root
        self.bounds = bounds or SyncLimits.shipped()

    def folder(self, ref: P.PackRef) -> Path:
        if not ref.digest.isalnum() or len(ref.digest) != 64:
            raise PackSyncError(f"bad pack digest {ref.digest!r}")
        return self.root / ref.digest

    def has(self, ref: P.PackRef) -> bool:
        folder = self.folder(ref)
        try:
            return folder.is_dir() and describe(folder)[0].digest == ref.digest
        except (OSError, PackSyncError):
            return False

    def check_announced(self, files: int | None, size: int | None) -> None:
        """PackSyncError when a server announces more files or bytes than a pack may hold
        (before the list is fetched page by page)."""
        if files is not None and not 0 <= files <= self.bounds.files:
            raise PackSyncError(
                f"the server announces {files} files; a pack holds at most {self.bounds.files}"
            )
        if size is not None and not 0 <= size <= self.bounds.pack_bytes:
            raise PackSyncError(
                f"the server announces {size} bytes; a pack holds at most {self.bounds.pack_bytes}"
            )

    def check(self, ref: P.PackRef, files: tuple[P.FileEntry, ...]) -> int:
        """Check a whole file list before anything is downloaded (`check_list`, and that
        it matches the pack's digest); returns its total size."""
        self.folder(ref)
        total = check_list(files, self.bounds)
        if digest_of(files) != ref.digest:
            raise PackSyncError("the file list does not match the pack's digest")
        return total

    def staging(self, ref: P.PackRef) -> _Staging:
        """A staging folder for `ref` (a context manager: removed on leaving, whatever
        happened; `commit` moves it into the cache first)."""
        return _Staging(self, ref)

    def store(
        self, ref: P.PackRef, files: tuple[P.FileEntry, ...], read: Callable[[str, int], bytes]
    ) -> Path:
        """Check the list (`check`), download every file with `read(path, offset)`, check
        hashes, and keep the pack (PackSyncError on any problem; nothing is left behind)."""
        self.check(ref, files)
        with self.staging(ref) as stage:
            for entry in files:
                buffer = FileBuffer(entry)
                while not buffer.complete:
                    buffer.take(read(entry.path, buffer.offset))
                stage.add(entry, buffer.data())
            return stage.commit()


class FileBuffer:
    """One file's bytes as its chunks come, never more than the size its entry announced."""

    def __init__(self, entry: P.FileEntry) -> None:
        self.entry = entry
        self._data = bytearray()

    @property
    def offset(self) -> int:
        return len(self._data)

    @property
    def complete(self) -> bool:
        return len(self._data) >= self.entry.size

    def take(self, chunk: bytes) -> None:
        """Append a chunk; PackSyncError for an empty one before the end (the file is
        shorter than announced) or one that runs past the announced size."""
        if not chunk:
            raise PackSyncError(
                f"{self.entry.path}: shorter than the {self.entry.size} bytes announced"
            )
        if len(self._data) + len(chunk) > self.entry.size:
            raise PackSyncError(f"{self.entry.path}: more bytes than announced")
        self._data += chunk

    def take_base64(self, text: str) -> None:
        try:
            chunk = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise PackSyncError(f"{self.entry.path}: a chunk is not base64") from None
        self.take(chunk)

    def data(self) -> bytes:
        return bytes(self._data)


class _Staging:
    """Files of a pack on their way into the cache: a fresh folder beside the cached packs
    (staging folders older than `STALE_STAGING` that a killed client left are removed
    first). Leaving the `with` block removes the folder, whatever happened."""

    def __init__(self, cache: PackCache, ref: P.PackRef) -> None:
        self.cache = cache
        self.ref = ref
        self.final = cache.folder(ref)
        try:
            cache.root.mkdir(parents=True, exist_ok=True)
            _remove_stale(cache.root)
            self.path = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=cache.root))
        except OSError as exc:
            raise PackSyncError(f"cannot write to the pack cache {cache.root}: {exc}") from None

    def __enter__(self) -> _Staging:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    def add(self, entry: P.FileEntry, data: bytes) -> None:
        """Write one downloaded file (PackSyncError when it does not match its hash or
        cannot be written)."""
        if len(data) != entry.size or hashlib.sha256(data).hexdigest() != entry.sha256:
            raise PackSyncError(f"{entry.path}: content does not match its hash")
        target = self.path.joinpath(*entry.path.split("/"))
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("xb") as fh:
                fh.write(data)
        except OSError as exc:
            raise PackSyncError(f"{entry.path}: cannot be written ({exc})") from None

    def commit(self) -> Path:
        """Move the staged pack to its cache folder (replacing a damaged copy)."""
        try:
            if self.final.exists():
                shutil.rmtree(self.final)
            self.path.rename(self.final)
        except OSError as exc:
            if self.cache.has(self.ref):  # another client stored it meanwhile
                return self.final
            raise PackSyncError(f"cannot store the pack in {self.final}: {exc}") from None
        return self.final


def _remove_stale(root: Path) -> None:
    now = time.time()
    for leftover in root.glob(STAGING_PREFIX + "*"):
        try:
            if now - leftover.stat().st_mtime > STALE_STAGING:
                shutil.rmtree(leftover, ignore_errors=True)
        except OSError:
            continue


def client_cache_dir() -> Path:
    """Where this machine keeps packs downloaded from servers (by digest)."""
    from suite.paths import user_data_dir

    return user_data_dir() / "net" / "packs"
