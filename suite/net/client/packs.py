"""The client side of Tactics pack sync: packs downloaded from servers, kept by digest,
checked before a byte is fetched and stored all or nothing (see `suite.net.packsync`)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from suite.net import protocol as P
from suite.net.packsync import PackSyncError, SyncLimits, check_list, describe, digest_of

STAGING_PREFIX = ".staging-"
STALE_STAGING = 3600.0
"""Seconds after which a staging folder left by a killed client is removed."""


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
