"""Download a pack from a web folder, as the original "Download Tactics" button does.

Order: `tactics_ini.txt` first, then every file it names (tile and piece bitmaps, map and
elevation bitmaps, sounds). Safety rules:
- only http(s) URLs;
- a named file must be a relative path inside the pack (no `..`, no absolute path, no
  drive letter); unsafe names are never requested and are reported;
- each file is limited to `max_bytes` (the download stops as soon as it is exceeded);
- files go to a temporary folder beside DIR and are moved into DIR only when every file
  arrived, the ini last; any failed download leaves DIR untouched;
- when the remote `[general] version` equals the local one the download is skipped,
  unless `force`;
- `locked = 1` in DIR's `wosTacticsSettings.ini` refuses the download (it protects a
  modder's work).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path, PurePosixPath

from suite.tactics.assets.files import UnsafePath, check_safe
from suite.tactics.assets.ini import parse_int, read_ini
from suite.tactics.assets.model import INI_NAME, SETTINGS_NAME, Pack, version_key
from suite.tactics.assets.records import read_records

DEFAULT_MAX_BYTES = 8 * 1024 * 1024
_CHUNK = 64 * 1024

Progress = Callable[[int, int, str], None]


class FetchStatus(Enum):
    FETCHED = "fetched"
    UP_TO_DATE = "up to date"
    LOCKED = "locked"
    FAILED = "failed"


class FetchError(Exception):
    """One download failed (HTTP error, too big, bad URL); the pack was not changed."""


@dataclass
class FetchResult:
    """What happened: the status, the files written (relative names), the remote and
    local versions, and messages about skipped names or the failure."""

    status: FetchStatus
    files: list[str] = field(default_factory=list)
    remote_version: float | None = None
    local_version: float | None = None
    messages: list[str] = field(default_factory=list)


def is_locked(folder: Path) -> bool:
    """True when `folder/wosTacticsSettings.ini` says `locked = 1` (any section)."""
    path = folder / SETTINGS_NAME
    if not path.is_file():
        return False
    ini = read_ini(path.read_bytes(), str(path))
    for section in ini.sections.values():
        item = section.entries.get("locked")
        if item is not None and parse_int(item.value) == 1:
            return True
    return False


def pack_from_ini(data: bytes, name: str) -> Pack:
    """The records of an ini (no files read): enough for its version and file list."""
    pack = Pack(root=Path("."))
    read_records(read_ini(data, name), pack)
    return pack


def local_version(folder: Path) -> float | None:
    """The version of the pack already in `folder`, or None."""
    path = folder / INI_NAME
    if not path.is_file():
        return None
    return pack_from_ini(path.read_bytes(), str(path)).version


def download(url: str, max_bytes: int, timeout: float = 30.0) -> bytes:
    """The body at `url`, at most `max_bytes` long, else `FetchError`."""
    scheme = urllib.parse.urlsplit(url).scheme.lower()
    if scheme not in ("http", "https"):
        raise FetchError(f"{url}: only http and https URLs are fetched")
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310
            length = response.headers.get("Content-Length")
            if length and length.isdigit() and int(length) > max_bytes:
                raise FetchError(f"{url}: {int(length)} bytes, over the limit of {max_bytes}")
            body = bytearray()
            while chunk := response.read(_CHUNK):
                body.extend(chunk)
                if len(body) > max_bytes:
                    raise FetchError(f"{url}: over the limit of {max_bytes} bytes")
            return bytes(body)
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{url}: HTTP {exc.code} {exc.reason}") from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise FetchError(f"{url}: {reason}") from exc


def _file_url(base: str, name: str) -> str:
    return base + "/".join(urllib.parse.quote(part) for part in PurePosixPath(name).parts)


def fetch_pack(
    url: str,
    folder: Path,
    force: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    progress: Progress | None = None,
) -> FetchResult:
    """Fetch the pack at web folder `url` into `folder` (see the module docstring)."""
    base = url if url.endswith("/") else url + "/"
    result = FetchResult(FetchStatus.FAILED, local_version=local_version(folder))
    if is_locked(folder):
        result.status = FetchStatus.LOCKED
        result.messages.append(f"{folder / SETTINGS_NAME}: locked = 1; nothing downloaded")
        return result
    try:
        ini_bytes = download(base + INI_NAME, max_bytes)
    except FetchError as exc:
        result.messages.append(str(exc))
        return result
    remote = pack_from_ini(ini_bytes, base + INI_NAME)
    result.remote_version = remote.version
    same = (
        remote.version is not None
        and result.local_version is not None
        and version_key(remote.version) == version_key(result.local_version)
    )
    if same and not force:
        result.status = FetchStatus.UP_TO_DATE
        return result
    names: list[str] = []
    for name in remote.referenced_files():
        try:
            names.append(check_safe(name))
        except UnsafePath as exc:
            result.messages.append(f"{INI_NAME}: skipped unsafe file name: {exc}")
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".tactics-fetch-", dir=folder.parent))
    try:
        total = len(names) + 1
        if progress:
            progress(1, total, INI_NAME)
        for done, name in enumerate(names, start=2):
            data = download(_file_url(base, name), max_bytes)
            target = staging.joinpath(*PurePosixPath(name).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            if progress:
                progress(done, total, name)
        (staging / INI_NAME).write_bytes(ini_bytes)
        _move_into_place(staging, folder, [*names, INI_NAME])
    except FetchError as exc:
        result.messages.append(f"{exc}; {folder} was not changed")
        return result
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    result.status = FetchStatus.FETCHED
    result.files = [*names, INI_NAME]
    return result


def _move_into_place(staging: Path, folder: Path, names: list[str]) -> None:
    """Move the staged files into `folder` in order (the ini is last in `names`)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        parts = PurePosixPath(name).parts
        target = folder.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging.joinpath(*parts), target)
