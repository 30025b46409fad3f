"""Download a pack from a web folder, as the original "Download Tactics" button does.

Order: `tactics_ini.txt` first, then every file it names, then the optional `buttons/` and
`misc/` folders. RULINGS T19: the ini, maps, elevation maps, tiles and skins are all
needed (all or nothing); a missing sound or button image is only a warning (the game uses
a placeholder). The source is a web folder URL, or a world's `config.ini` whose
`tacticsSourceUrl` names it (`source_url`).

Safety (a pack is untrusted input):
- only well-formed http(s) URLs; a malformed one is a `FetchError`, never a traceback;
- a named file must be a relative path inside the pack (no `..`, no absolute path, no
  drive letter); unsafe names are never requested and are reported; a file named
  `wosTacticsSettings.ini` is never fetched (it holds the user's lock);
- each file is limited to `max_bytes` and the whole download to the pack limits of
  `limits.toml`; the whole fetch to `deadline` seconds (a server dripping bytes is cut);
- files go to a staging folder beside DIR (left-overs of a killed fetch are removed on
  the next one) and are moved into DIR only when every needed file arrived, the ini
  last; before anything moves, every target is checked: no symbolic link on its way
  inside DIR, no folder where a file goes, no file where a folder goes; should a move
  still fail, the files moved so far are put back. Every OS error becomes a clean
  `FAILED` result with DIR as it was;
- when the remote `[general] version` equals the local one the download is skipped,
  unless `force`; `locked = 1` in DIR's `wosTacticsSettings.ini` refuses the download.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from http.client import HTTPException
from pathlib import Path, PurePosixPath

from suite.tactics.assets.files import UnsafePath, check_safe, quoted
from suite.tactics.assets.ini import parse_int, read_ini, too_long
from suite.tactics.assets.limits import PackLimitError, limits, read_limited
from suite.tactics.assets.model import INI_NAME, SETTINGS_NAME, Pack, version_key
from suite.tactics.assets.records import read_records

DEFAULT_MAX_BYTES = 8 * 1024 * 1024
DEFAULT_DEADLINE = 300.0
REQUEST_TIMEOUT = 30.0
STAGING_PREFIX = ".tactics-fetch-"
OPTIONAL_FOLDERS = ("buttons", "misc")
_OPTIONAL_EXTENSIONS = (".bmp", ".wav", ".png", ".txt")
_HREF = re.compile(r"""href\s*=\s*["']([^"'?#]+)["']""", re.IGNORECASE)
_CHUNK = 64 * 1024

Progress = Callable[[int, int, str], None]


class FetchStatus(Enum):
    FETCHED = "fetched"
    UP_TO_DATE = "up to date"
    LOCKED = "locked"
    FAILED = "failed"


class FetchError(Exception):
    """The fetch failed (HTTP error, too big, too slow, bad URL, an OS error); the pack
    folder was not changed."""


@dataclass
class FetchResult:
    """What happened: the status, the files written (relative names), the remote and
    local versions, and messages (warnings about optional files, skipped names, or the
    failure)."""

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
    ini = read_ini(read_limited(path, limits().ini.max_bytes, SETTINGS_NAME), str(path))
    for section in ini.sections.values():
        item = section.entries.get("locked")
        if item is not None and parse_int(item.value) == 1:
            return True
    return False


def source_url(config_ini: Path) -> str:
    """The `tacticsSourceUrl` of a world's `config.ini` (any section, case-blind);
    FetchError when the file cannot be read or names none."""
    try:
        data = read_limited(config_ini, limits().ini.max_bytes, "config.ini")
    except (OSError, PackLimitError) as exc:
        raise FetchError(f"{config_ini}: cannot read ({_reason(exc)})") from exc
    ini = read_ini(data, str(config_ini))
    for section in ini.sections.values():
        item = section.entries.get("tacticssourceurl")
        if item is not None and item.value.strip():
            return item.value.strip()
    raise FetchError(f"{config_ini}: no tacticsSourceUrl")


def pack_from_ini(data: bytes, name: str) -> Pack:
    """The records of an ini (no files read): enough for its version and file list."""
    pack = Pack(root=Path("."))
    read_records(read_ini(data, name), pack)
    return pack


def local_version(folder: Path) -> float | None:
    """The version of the pack already in `folder`, or None."""
    path = folder / INI_NAME
    try:
        data = read_limited(path, limits().ini.max_bytes, INI_NAME)
    except (OSError, PackLimitError):
        return None
    return pack_from_ini(data, str(path)).version


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}" + (f": {exc.filename}" if exc.filename else "")
    return str(getattr(exc, "reason", exc) or type(exc).__name__)


def check_url(url: str) -> str:
    """`url` as the base of a web folder (ending in "/"); FetchError when malformed."""
    try:
        parts = urllib.parse.urlsplit(url.strip())
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError as exc:
        raise FetchError(f"{quoted(url)} is not a URL ({exc})") from exc
    if parts.scheme.lower() not in ("http", "https"):
        raise FetchError(f"{url}: only http and https URLs are fetched")
    if not parts.hostname or any(c.isspace() or ord(c) < 32 for c in url.strip()):
        raise FetchError(f"{quoted(url)} is not a URL (no host, or spaces)")
    base = url.strip()
    return base if base.endswith("/") else base + "/"


class _Clock:
    """The overall deadline of one fetch."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self, url: str) -> float:
        remaining = self.end - time.monotonic()
        if remaining <= 0:
            raise FetchError(f"{url}: the fetch took longer than {self.seconds:g} s")
        return remaining


def download(url: str, max_bytes: int, clock: _Clock | None = None) -> bytes:
    """The body at `url`, at most `max_bytes` long, within the clock's deadline, else
    `FetchError`."""
    clock = clock or _Clock(DEFAULT_DEADLINE)
    try:
        timeout = min(REQUEST_TIMEOUT, clock.left(url))
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310
            length = response.headers.get("Content-Length")
            if length and length.isdigit() and (too_long(length) or int(length) > max_bytes):
                raise FetchError(f"{url}: {length[:24]} bytes, over the limit of {max_bytes}")
            body = bytearray()
            while True:
                remaining = clock.left(url)
                sock = getattr(getattr(response, "fp", None), "raw", None)
                sock = getattr(sock, "_sock", None)
                if sock is not None:
                    sock.settimeout(min(REQUEST_TIMEOUT, remaining))
                chunk = response.read1(_CHUNK)
                if not chunk:
                    break
                body.extend(chunk)
                if len(body) > max_bytes:
                    raise FetchError(f"{url}: over the limit of {max_bytes} bytes")
            return bytes(body)
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{url}: HTTP {exc.code} {exc.reason}") from exc
    except TimeoutError as exc:
        clock.left(url)
        raise FetchError(f"{url}: no answer within {REQUEST_TIMEOUT:g} s") from exc
    except (urllib.error.URLError, OSError, HTTPException, ValueError) as exc:
        raise FetchError(f"{url}: {_reason(exc)}") from exc


def _file_url(base: str, name: str) -> str:
    return base + "/".join(urllib.parse.quote(part) for part in PurePosixPath(name).parts)


def _is_settings(name: str) -> bool:
    return PurePosixPath(name).name.lower() == SETTINGS_NAME.lower()


def _listed(base: str, folder: str, clock: _Clock, max_bytes: int) -> list[str]:
    """File names a web server lists in `folder/` (an index page); [] when none."""
    try:
        page = download(base + folder + "/", min(max_bytes, 1 << 20), clock)
    except FetchError:
        return []
    names = []
    for href in _HREF.findall(page.decode("utf-8", "replace")):
        leaf = urllib.parse.unquote(href).rsplit("/", 1)[-1]
        if not leaf.lower().endswith(_OPTIONAL_EXTENSIONS) or _is_settings(leaf):
            continue
        try:
            names.append(check_safe(f"{folder}/{leaf}"))
        except UnsafePath:
            continue
    return sorted(set(names))


def clean_staging(parent: Path) -> None:
    """Remove staging folders that a killed fetch left in `parent` (their process is
    gone)."""
    try:
        entries = list(parent.glob(STAGING_PREFIX + "*"))
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(STAGING_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not too_long(pid) and int(pid) != os.getpid() and _alive(int(pid)):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def fetch_pack(
    url: str,
    folder: Path,
    force: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    progress: Progress | None = None,
    deadline: float = DEFAULT_DEADLINE,
) -> FetchResult:
    """Fetch the pack at web folder `url` into `folder` (see the module docstring)."""
    result = FetchResult(FetchStatus.FAILED)
    try:
        base = check_url(url)
        result.local_version = local_version(folder)
        if is_locked(folder):
            result.status = FetchStatus.LOCKED
            result.messages.append(f"{folder / SETTINGS_NAME}: locked = 1; nothing downloaded")
            return result
        _fetch(base, folder, force, max_bytes, progress, _Clock(deadline), result)
    except FetchError as exc:
        result.messages.append(f"{exc}; {folder} was not changed")
    except (OSError, PackLimitError) as exc:
        result.messages.append(f"{_reason(exc)}; {folder} was not changed")
    return result


def _fetch(
    base: str,
    folder: Path,
    force: bool,
    max_bytes: int,
    progress: Progress | None,
    clock: _Clock,
    result: FetchResult,
) -> None:
    whole = limits().pack
    ini_bytes = download(base + INI_NAME, min(max_bytes, limits().ini.max_bytes), clock)
    remote = pack_from_ini(ini_bytes, base + INI_NAME)
    result.remote_version = remote.version
    same = (
        remote.version is not None
        and result.local_version is not None
        and version_key(remote.version) == version_key(result.local_version)
    )
    if same and not force:
        result.status = FetchStatus.UP_TO_DATE
        return
    for problem in remote.problems:
        if problem.is_error and "not a relative path inside the pack" in problem.message:
            result.messages.append(f"{INI_NAME}: skipped unsafe file name: {problem.message}")
    sounds = {s.wav for s in remote.sounds.values()}
    needed: list[str] = []
    optional: list[str] = []
    for name in remote.referenced_files():
        try:
            safe = check_safe(name)
        except UnsafePath as exc:
            result.messages.append(f"{INI_NAME}: skipped unsafe file name: {exc}")
            continue
        if _is_settings(safe):
            result.messages.append(f"{INI_NAME}: {safe} is never fetched (the local lock)")
            continue
        (optional if name in sounds else needed).append(safe)
    for extra in OPTIONAL_FOLDERS:
        optional.extend(n for n in _listed(base, extra, clock, max_bytes) if n not in optional)
    if len(needed) + len(optional) + 1 > whole.max_files:
        raise FetchError(f"{INI_NAME} names more than {whole.max_files} files")
    folder.parent.mkdir(parents=True, exist_ok=True)
    clean_staging(folder.parent)
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=folder.parent))
    try:
        written = _download_all(base, staging, needed, optional, max_bytes, progress, clock, result)
        (staging / INI_NAME).write_bytes(ini_bytes)
        files = [*written, INI_NAME]
        _move_into_place(staging, folder, files)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    result.status = FetchStatus.FETCHED
    result.files = files


def _download_all(
    base: str,
    staging: Path,
    needed: list[str],
    optional: list[str],
    max_bytes: int,
    progress: Progress | None,
    clock: _Clock,
    result: FetchResult,
) -> list[str]:
    """Download into `staging`: a needed file that fails fails the fetch; an optional one
    (sounds, buttons, misc) is a warning. Returns the files written."""
    total_limit = limits().pack.max_bytes
    total = len(needed) + len(optional) + 1
    if progress:
        progress(1, total, INI_NAME)
    written: list[str] = []
    size = 0
    taken: dict[str, str] = {}
    for done, name in enumerate([*needed, *optional], start=2):
        is_needed = done - 2 < len(needed)
        key = name.lower()
        if key in taken:  # the same file spelt twice (packs are written on Windows)
            continue
        try:
            data = download(_file_url(base, name), max_bytes, clock)
        except FetchError as exc:
            if is_needed or "took longer" in str(exc):
                raise
            result.messages.append(f"warning: {exc}; a placeholder is used")
            continue
        size += len(data)
        if size > total_limit:
            raise FetchError(f"the pack is past the limit of {total_limit} bytes")
        target = staging.joinpath(*PurePosixPath(name).parts)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as exc:
            raise FetchError(f"{name}: cannot be written ({_reason(exc)})") from exc
        taken[key] = name
        written.append(name)
        if progress:
            progress(done, total, name)
    return written


def _check_target(folder: Path, name: str) -> None:
    """FetchError unless `name` can be written in `folder` without following a symbolic
    link and without a folder where a file goes or a file where a folder goes."""
    parts = PurePosixPath(name).parts
    current = folder
    for index, part in enumerate(parts):
        current = current / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise FetchError(f"{name}: cannot be written ({_reason(exc)})") from exc
        last = index == len(parts) - 1
        if stat.S_ISLNK(info.st_mode):
            raise FetchError(f"{name}: {current} is a symbolic link; it is never followed")
        if last and stat.S_ISDIR(info.st_mode):
            raise FetchError(f"{name}: a folder stands where the file goes")
        if not last and not stat.S_ISDIR(info.st_mode):
            raise FetchError(f"{name}: the file {current.name} stands where a folder goes")


def _move_into_place(staging: Path, folder: Path, names: list[str]) -> None:
    """Move the staged files into `folder` (the ini last in `names`), all or nothing."""
    if folder.is_symlink() and not folder.is_dir():
        raise FetchError(f"{folder}: a symbolic link to nothing")
    if folder.exists() and not folder.is_dir():
        raise FetchError(f"{folder}: a file stands where the pack folder goes")
    for name in names:
        _check_target(folder, name)
    backup = staging / ".replaced"
    moved: list[tuple[Path, Path | None]] = []
    created_folder = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in names:
            parts = PurePosixPath(name).parts
            target = folder.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            saved: Path | None = None
            if os.path.lexists(target):
                saved = backup.joinpath(*parts)
                saved.parent.mkdir(parents=True, exist_ok=True)
                os.replace(target, saved)
            moved.append((target, saved))
            os.replace(staging.joinpath(*parts), target)
    except OSError as exc:
        for target, saved in reversed(moved):
            try:
                if saved is not None:
                    os.replace(saved, target)
                elif os.path.lexists(target):
                    os.unlink(target)
            except OSError:
                continue
        if created_folder:
            shutil.rmtree(folder, ignore_errors=True)
        if exc.errno == errno.ENAMETOOLONG:
            raise FetchError(f"a file name is too long ({_reason(exc)})") from exc
        raise FetchError(f"cannot move the pack into place ({_reason(exc)})") from exc
