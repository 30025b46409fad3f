"""Atomic, versioned saves.

Every file is a JSON document ``{"schema": SCHEMA_VERSION, "kind": ..., "data": ...}``.
Writes go to a temporary file in the same folder, are fsynced, then renamed over the
target, so a crash or a refused document never replaces a good file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

import msgspec

SCHEMA_VERSION = 1
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
"""Saves, replays and settings past this size are refused before they are read."""
_TEMP_SUFFIX = ".tmp"


class SaveError(Exception):
    """A save could not be read or written; names the file and the problem."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def _temp_prefix(target: Path) -> str:
    return f".{target.name}."


def remove_stale_temps(target: str | Path) -> int:
    """Delete the temp files an interrupted write of `target` left behind; returns how many.

    Writes of one file are serialised by their caller, so any temp file of `target` that
    exists before a new write starts belongs to a write that was killed.
    """
    path = Path(target)
    removed = 0
    with contextlib.suppress(OSError):
        for leftover in path.parent.glob(f"{glob_escape(_temp_prefix(path))}*{_TEMP_SUFFIX}"):
            with contextlib.suppress(OSError):
                leftover.unlink()
                removed += 1
    return removed


def glob_escape(text: str) -> str:
    """`text` with glob's special characters escaped."""
    return "".join(f"[{c}]" if c in "*?[]" else c for c in text)


def atomic_write_bytes(path: str | Path, payload: bytes) -> None:
    """Write `payload` to `path` atomically (temp file, fsync, rename).

    Temp files left by earlier interrupted writes of the same file are removed first.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(target)
    fd, tmp_name = tempfile.mkstemp(
        prefix=_temp_prefix(target), suffix=_TEMP_SUFFIX, dir=target.parent
    )
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def save_document(path: str | Path, kind: str, data: Any) -> None:
    """Save `data` (JSON-safe) as a document of `kind`; the old file survives any failure."""
    try:
        payload = msgspec.json.encode({"schema": SCHEMA_VERSION, "kind": kind, "data": data})
    except (TypeError, msgspec.EncodeError) as exc:
        raise SaveError(Path(path), f"cannot encode {kind}: {exc}") from exc
    try:
        atomic_write_bytes(path, msgspec.json.format(payload, indent=1))
    except OSError as exc:
        raise SaveError(Path(path), f"cannot write: {exc.strerror or exc}") from exc


def read_limited(path: str | Path, limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """The bytes of `path`, refusing (SaveError) a missing, unreadable or too large file."""
    source = Path(path)
    try:
        with source.open("rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > limit:
                raise SaveError(source, f"is {size} bytes, more than the {limit} allowed")
            raw = fh.read(limit + 1)
    except FileNotFoundError as exc:
        raise SaveError(source, "no such file") from exc
    except IsADirectoryError as exc:
        raise SaveError(source, "is a folder, not a file") from exc
    except OSError as exc:
        raise SaveError(source, f"cannot read: {exc.strerror or exc}") from exc
    if len(raw) > limit:
        raise SaveError(source, f"is more than the {limit} bytes allowed")
    return raw


def decode_json(raw: bytes, source: Path) -> Any:
    """Parse JSON text; every failure (bad bytes, bad UTF-8, too deep) is a SaveError."""
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise SaveError(source, f"broken JSON: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise SaveError(source, f"broken JSON: invalid UTF-8 text ({exc.reason})") from exc
    except (RecursionError, ValueError, MemoryError) as exc:
        raise SaveError(source, f"broken JSON: {exc}") from exc


def load_document(path: str | Path, kind: str) -> Any:
    """Load a document of `kind`; SaveError names the file and what is wrong.

    Never raises anything else for a bad file: too large (MAX_DOCUMENT_BYTES, refused
    before reading), unreadable, not JSON, invalid UTF-8, nested too deep, wrong schema
    version or kind.
    """
    source = Path(path)
    doc = decode_json(read_limited(source), source)
    if not isinstance(doc, dict) or "schema" not in doc:
        raise SaveError(source, "not a suite save (no schema version)")
    if doc["schema"] != SCHEMA_VERSION or isinstance(doc["schema"], bool):
        raise SaveError(
            source, f"schema version {doc['schema']!r}, this suite reads {SCHEMA_VERSION}"
        )
    if doc.get("kind") != kind:
        raise SaveError(source, f"holds a {doc.get('kind')!r}, expected a {kind!r}")
    if "data" not in doc:
        raise SaveError(source, "has no data")
    return doc["data"]
