"""Reading rules-data files: one place that turns a TOML file into a dict or a clear error."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any


def read_toml(path: str | Path, error: type[Exception] = ValueError) -> dict[str, Any]:
    """The TOML document at `path` as a dict.

    Raises `error` (a game's own rules-data error type) naming the file and, for a syntax
    error, the line and column that tomllib reports.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{p}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise error(f"{p}: not UTF-8 text: {exc.reason}") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{p}: broken TOML: {exc}") from exc
