"""Reading rules-data files: one place that turns a TOML file into a typed record or a
clear `DataError` naming the file, and the line or key that is wrong."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")


class DataError(ValueError):
    """A rules-data file is broken; the message names the file and the line or key."""


def read_toml(path: str | Path, error: type[Exception] = DataError) -> dict[str, Any]:
    """The TOML document at `path` as a dict.

    Raises `error` (DataError unless a caller names a subclass) naming the file and, for a
    syntax error, the line and column that tomllib reports.
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


def convert_rules(data: Any, type_: type[T], source: str | Path) -> T:
    """`data` converted in one call to the record `type_`; DataError names source and key.

    Records should be declared with ``forbid_unknown_fields=True`` so that a misspelt key
    is refused rather than ignored.
    """
    try:
        return msgspec.convert(data, type=type_, strict=True)
    except msgspec.ValidationError as exc:
        message, sep, path = str(exc).rpartition(" - at `$")
        if not sep:
            raise DataError(f"{source}: {exc}") from exc
        key = path.rstrip("`").lstrip(".")
        raise DataError(f"{source}: at `{key}`: {message}") from exc


def read_rules(path: str | Path, type_: type[T]) -> T:
    """The TOML rules file at `path` as the typed record `type_` (see `convert_rules`)."""
    return convert_rules(read_toml(path), type_, path)
