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


class SaveError(Exception):
    """A save could not be read or written; names the file and the problem."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def atomic_write_bytes(path: str | Path, payload: bytes) -> None:
    """Write `payload` to `path` atomically (temp file, fsync, rename)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
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


def load_document(path: str | Path, kind: str) -> Any:
    """Load a document of `kind`; SaveError names the file and what is wrong."""
    source = Path(path)
    try:
        raw = source.read_bytes()
    except FileNotFoundError as exc:
        raise SaveError(source, "no such file") from exc
    except OSError as exc:
        raise SaveError(source, f"cannot read: {exc.strerror}") from exc
    try:
        doc = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise SaveError(source, f"broken JSON: {exc}") from exc
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
