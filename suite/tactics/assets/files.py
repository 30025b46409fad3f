"""Asset names from `tactics_ini.txt` as safe relative paths, found case-insensitively."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

_DRIVE = re.compile(r"^[A-Za-z]:")


def quoted(text: str) -> str:
    """`text` in single quotes as the file wrote it: backslashes stay single (Python's
    `!r` would show `sfx\\\\`); only characters that do not print are escaped."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return f"'{shown}'"


class UnsafePath(ValueError):
    """An asset name that would leave the pack folder (absolute, `..`, drive letter)."""


def asset_name(raw: str, extension: str) -> str:
    """The relative POSIX path of an ini asset name: backslashes become `/`, and
    `extension` (".bmp", ".wav") is added unless the name already has a file extension."""
    text = raw.strip().replace("\\", "/")
    while "//" in text:
        text = text.replace("//", "/")
    if not PurePosixPath(text).suffix:
        text += extension
    return text


def check_safe(name: str) -> str:
    """`name` itself when it stays inside the pack folder, else raise `UnsafePath`."""
    text = name.replace("\\", "/")
    if not text or text.startswith("/") or _DRIVE.match(text):
        raise UnsafePath(f"{quoted(name)} is not a relative path inside the pack")
    parts = PurePosixPath(text).parts
    if any(part in ("..", "") for part in parts) or ":" in text:
        raise UnsafePath(f"{quoted(name)} is not a relative path inside the pack")
    return text


def resolve(root: Path, relative: str) -> Path:
    """The file `relative` names under `root`; when the exact spelling does not exist, each
    part is matched case-insensitively (packs are written on Windows). A path that is not
    found is returned as spelled. `UnsafePath` when the file found is a link (or lies in a
    linked folder) that leads outside `root`."""
    return _inside(root, _find(root, relative), relative)


def _inside(root: Path, path: Path, relative: str) -> Path:
    if path.exists() or path.is_symlink():
        try:
            real = path.resolve(strict=False)
            home = root.resolve(strict=False)
        except (OSError, RuntimeError) as exc:  # a link loop
            raise UnsafePath(f"{quoted(relative)} cannot be followed ({exc})") from exc
        if real != home and home not in real.parents:
            raise UnsafePath(f"{quoted(relative)} is a link leading outside the pack")
    return path


def _find(root: Path, relative: str) -> Path:
    exact = root.joinpath(*PurePosixPath(relative).parts)
    if exact.exists():
        return exact
    current = root
    for part in PurePosixPath(relative).parts:
        candidate = current / part
        if not candidate.exists() and current.is_dir():
            lowered = part.lower()
            for entry in current.iterdir():
                if entry.name.lower() == lowered:
                    candidate = entry
                    break
        current = candidate
    return current
