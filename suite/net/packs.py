"""Tactics pack sync: the host's pack is in control.

The server describes a room's pack by `PackRef` (version from its `tactics_ini.txt` and a
content digest over every file's path and sha256). A client whose own pack differs asks
for the file list and the files (base64 chunks under the message limit), checks each
file's hash and stores the pack in a content-addressed cache folder named by its digest
(`PackCache`); paths are checked to stay inside the folder. Rooms may only use the
shipped pack or a pack folder inside the server's packs folder, so a client cannot make
the server read any other file.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from suite.net import protocol as P
from suite.tactics.assets.fetch import local_version
from suite.tactics.assets.files import UnsafePath, check_safe
from suite.tactics.rules.packs import default_pack_dir

CHUNK = 36 * 1024
"""Raw bytes per pack chunk (base64 makes it 48 KiB, under the message limit)."""
MAX_PACK_FILE = 16 * 1024 * 1024
MAX_PACK_FILES = 4096


class PackSyncError(ValueError):
    """A pack that cannot be served or stored (message says which file and why)."""


def pack_files(folder: Path) -> list[P.FileEntry]:
    """Every regular file of a pack folder (no symlinks), sorted by path, with hashes."""
    out: list[P.FileEntry] = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if path.is_symlink() or not path.is_file():
                continue
            rel = path.relative_to(folder).as_posix()
            data = path.read_bytes()
            out.append(
                P.FileEntry(path=rel, size=len(data), sha256=hashlib.sha256(data).hexdigest())
            )
    out.sort(key=lambda e: e.path)
    if len(out) > MAX_PACK_FILES:
        raise PackSyncError(f"{folder}: more than {MAX_PACK_FILES} files")
    return out


def digest_of(files: list[P.FileEntry]) -> str:
    """The content digest of a pack: sha256 over each file's path and hash."""
    h = hashlib.sha256()
    for entry in files:
        h.update(entry.path.encode("utf-8") + b"\0" + entry.sha256.encode("ascii") + b"\n")
    return h.hexdigest()


@functools.lru_cache(maxsize=32)
def _describe(folder: str, stamp: float) -> tuple[P.PackRef, tuple[P.FileEntry, ...]]:
    files = pack_files(Path(folder))
    version = local_version(Path(folder)) or 0.0
    return P.PackRef(version=version, digest=digest_of(files)), tuple(files)


def describe(folder: Path) -> tuple[P.PackRef, tuple[P.FileEntry, ...]]:
    """A pack folder's reference and file list (cached until the folder changes)."""
    resolved = folder.resolve()
    stamp = max((p.stat().st_mtime for p in resolved.rglob("*") if p.is_file()), default=0.0)
    return _describe(str(resolved), stamp)


class PackServer:
    """The server side: which folder a room's config may name, and serving its files."""

    def __init__(self, packs_dir: Path) -> None:
        self.packs_dir = packs_dir

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
        """The room's pack reference, and the config with the pack as a server folder."""
        from suite.net.room import Refused

        try:
            folder = self.folder(config.get("pack"))
            ref, _ = describe(folder)
        except PackSyncError as exc:
            raise Refused("bad_config", str(exc)) from None
        out = dict(config)
        out["pack"] = None if folder == default_pack_dir() else str(folder)
        return ref, out

    def answer(self, code: str, ref: P.PackRef, path: str | None, offset: int) -> P.Message:
        """The file list (path None) or one chunk of one file of the room's pack."""
        from suite.net.room import Refused

        folder = self._folder_of(ref)
        current, files = describe(folder)
        if current.digest != ref.digest:
            raise Refused("pack_changed", "the room's pack changed on the server")
        if path is None:
            return P.PackFiles(code=code, pack=ref, files=files)
        entry = next((f for f in files if f.path == path), None)
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

    def _folder_of(self, ref: P.PackRef) -> Path:
        candidates = [default_pack_dir()]
        if self.packs_dir.is_dir():
            candidates += sorted(p for p in self.packs_dir.iterdir() if p.is_dir())
        for folder in candidates:
            if describe(folder)[0].digest == ref.digest:
                return folder
        from suite.net.room import Refused

        raise Refused("no_pack", "the room's pack is gone from the server")


class PackCache:
    """The client side: packs stored by digest under `root` (`root/<digest>/...`)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def folder(self, ref: P.PackRef) -> Path:
        if not ref.digest.isalnum() or len(ref.digest) != 64:
            raise PackSyncError(f"bad pack digest {ref.digest!r}")
        return self.root / ref.digest

    def has(self, ref: P.PackRef) -> bool:
        folder = self.folder(ref)
        return folder.is_dir() and describe(folder)[0].digest == ref.digest

    def store(
        self, ref: P.PackRef, files: tuple[P.FileEntry, ...], read: Callable[[str, int], bytes]
    ) -> Path:
        """Download every file with `read(path, offset)`, check hashes, and keep the pack.

        Files go to a staging folder first; the pack appears under its digest only when
        the whole content matches `ref.digest`. PackSyncError on any mismatch or bad path.
        """
        if digest_of(list(files)) != ref.digest:
            raise PackSyncError("the file list does not match the pack's digest")
        if len(files) > MAX_PACK_FILES:
            raise PackSyncError(f"more than {MAX_PACK_FILES} files")
        final = self.folder(ref)
        staging = self.root / f".staging-{ref.digest}-{os.getpid()}"
        for entry in files:
            try:
                rel = check_safe(entry.path)
            except UnsafePath as exc:
                raise PackSyncError(str(exc)) from None
            if entry.size > MAX_PACK_FILE:
                raise PackSyncError(f"{rel}: {entry.size} bytes is too big")
            target = staging / rel
            if staging.resolve() not in target.resolve().parents:
                raise PackSyncError(f"{rel!r} leaves the pack folder")
            data = bytearray()
            while len(data) < entry.size:
                chunk = read(entry.path, len(data))
                if not chunk:
                    break
                data += chunk
                if len(data) > entry.size:
                    raise PackSyncError(f"{rel}: more bytes than announced")
            if hashlib.sha256(bytes(data)).hexdigest() != entry.sha256:
                raise PackSyncError(f"{rel}: content does not match its hash")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(bytes(data))
        staging.mkdir(parents=True, exist_ok=True)
        if final.exists():
            import shutil

            shutil.rmtree(final)
        staging.rename(final)
        return final
