"""The server side of Tactics pack sync: which pack folder a room may name, and serving
its files in chunks (see `suite.net.packsync` for the shared rules)."""

from __future__ import annotations

import base64
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from suite.net import protocol as P
from suite.net.packsync import (
    PackSyncError,
    SyncLimits,
    _Described,
    _full,
    check_list,
    describe,
)
from suite.net.server.errors import Refused
from suite.tactics.assets.files import UnsafePath, check_safe
from suite.tactics.rules.packs import default_pack_dir


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
            data = fh.read(P.CHUNK)
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
        raise Refused("no_pack", "the room's pack is gone from the server")
