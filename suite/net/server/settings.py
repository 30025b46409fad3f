"""The server's settings: every limit `suite serve` enforces, typed, with its range.

`Settings` holds them all with their defaults. A host may write any of them in a TOML file
(`suite serve --config serve.toml`, keys as the field names below); `load_settings` reads
it, refusing an unknown key or a value out of range with the file and the key named. The
command's flags override the file. docs/hosting.md lists every setting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import msgspec

from suite.net.protocol import MAX_MESSAGE

Positive = Annotated[float, msgspec.Meta(gt=0)]
Seconds = Annotated[float, msgspec.Meta(ge=0, le=7 * 24 * 3600)]
Count = Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]


class Settings(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Server settings (see docs/hosting.md; most have a `suite serve` flag too).

    Listening: `host`, `port`, `cert`/`key` (TLS), `data` (the store's folder; one server
    per folder), `log` (a log file; stderr when None), `log_level`.
    Limits per connection: `rate`/`burst` (messages per second on average / at once; a
    message over the limit is refused with `rate_limited`, and a connection that goes on
    past twice the burst in refusals is closed with 1008), `send_queue` (messages queued
    for a client before it counts as too slow and is dropped), `max_message` (bytes of one
    message, at most the protocol's 64 KiB), `ping_interval`/`ping_timeout`.
    Caps: `max_rooms` (rooms not over, on the whole server), `max_lobbies_per_connection`
    and `max_lobbies_per_address` (unstarted rooms one client may have opened),
    `max_connections_per_address`, `lobby_expiry` (seconds an unstarted room may wait
    before it closes), `keep_over` (seconds a finished room stays in memory, and that a
    lobby may stay with nobody connected), `keep_days` (finished matches older than this
    are pruned from the store; 0 keeps them forever).
    Play: `bot_delay` (seconds a server bot waits before acting; 0 in tests),
    `bot_workers` (processes in which searching bots, the experts, think), `tick`
    (seconds between clock checks), `show_after` (seconds before the waiting timer shows:
    the Tactics manual's 10 s), `close_timeout` (seconds a closing connection may take on
    shutdown before it is cut).
    Tests only: `test_clock_file` (the server's time is the real time plus the seconds
    written in this file, read again every 0.1 s and never going back: a browser test
    passes a WoK deadline without waiting; never set it on a real server).
    Cluster: `store` (a postgresql:// URL: matches in PostgreSQL instead of the data
    folder's SQLite), `presence` (a redis:// URL: room leases, the room list and the caps
    shared by several processes; needs a PostgreSQL store), `lease_seconds` (how long a
    room's lease lasts unless renewed: the time before another process adopts the rooms
    of a dead one), `advertise` (the address clients can reach this very process at, e.g.
    `wss://play3.example.org:8765`; `{port}` stands for the port it listens on: clients
    that can follow are sent to their room's owner there instead of being forwarded
    through the process they reached; leave it unset behind one load-balanced address).
    """

    host: str = "127.0.0.1"
    port: Annotated[int, msgspec.Meta(ge=0, le=65535)] = 8765
    data: Path | None = None
    log: Path | None = None
    log_level: str = "INFO"
    cert: Path | None = None
    key: Path | None = None
    rate: Positive = 40.0
    burst: Positive = 80.0
    send_queue: Count = 512
    max_message: Annotated[int, msgspec.Meta(ge=1024, le=MAX_MESSAGE)] = MAX_MESSAGE
    ping_interval: Positive | None = 20.0
    ping_timeout: Positive | None = 20.0
    max_rooms: Count = 200
    max_lobbies_per_connection: Count = 3
    max_lobbies_per_address: Count = 10
    max_connections_per_address: Count = 64
    lobby_expiry: Positive = 1800.0
    keep_over: Seconds = 600.0
    keep_days: Annotated[float, msgspec.Meta(ge=0)] = 30.0
    bot_delay: Seconds = 0.4
    bot_workers: Annotated[int, msgspec.Meta(ge=1, le=64)] = 1
    tick: Positive = 0.5
    show_after: Seconds = 10.0
    close_timeout: Annotated[float, msgspec.Meta(gt=0, le=60)] = 1.0
    store: str | None = None
    presence: str | None = None
    lease_seconds: Annotated[float, msgspec.Meta(ge=0.5, le=300)] = 3.0
    advertise: Annotated[str, msgspec.Meta(pattern=r"^wss?://\S+$", max_length=200)] | None = None
    test_clock_file: Path | None = None


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class SettingsError(ValueError):
    """A settings file or flag that cannot be used; the message names the file and key."""


def check(settings: Settings, where: str = "settings") -> Settings:
    """`settings` once the rules between fields hold (SettingsError naming the field)."""
    dash = "--" if where == "flags" else ""
    if (settings.cert is None) != (settings.key is None):
        raise SettingsError(f"{where}: {dash}cert and {dash}key go together")
    for name in ("cert", "key"):
        value = getattr(settings, name)
        if value is not None and not Path(value).is_file():
            raise SettingsError(f"{where}: {dash}{name}: no file {value}")
    if settings.burst < 1:
        raise SettingsError(f"{where}: burst must be at least 1 message")
    if settings.store is not None and not settings.store.startswith(
        ("postgresql://", "postgres://")
    ):
        raise SettingsError(f"{where}: {dash}store must be a postgresql:// URL")
    if settings.presence is not None:
        if not settings.presence.startswith(("redis://", "rediss://", "unix://")):
            raise SettingsError(f"{where}: {dash}presence must be a redis:// URL")
        if settings.store is None:
            raise SettingsError(
                f"{where}: {dash}presence needs {dash}store (processes share a PostgreSQL store)"
            )
    if settings.log_level.upper() not in LOG_LEVELS:
        raise SettingsError(f"{where}: log_level must be one of {', '.join(LOG_LEVELS)}")
    return settings


def _paths(kind: type, value: Any) -> Any:
    """A `Path` setting from a flag's path or from TOML's string (anything else is
    refused: msgspec reports the ValueError as the setting's validation error)."""
    if kind is Path and isinstance(value, str | Path):
        return Path(value)
    raise ValueError(f"Expected a path (a string), got {type(value).__name__}")


def settings_of(values: dict[str, Any], where: str = "settings") -> Settings:
    """Settings from plain values (as a TOML file or the flags give them), checked."""
    try:
        settings = msgspec.convert(values, type=Settings, strict=False, dec_hook=_paths)
    except msgspec.ValidationError as exc:
        text, _, at = str(exc).partition(" - at `$.")
        key = at.rstrip("`").split("[")[0].split(".")[0]
        shown = ("--" + key.replace("_", "-")) if where == "flags" else key
        value = values.get(key, "?")
        raise SettingsError(f"{where}: {shown}: {text.lower()}, not {value!r}") from None
    return check(settings, where)


MAX_CONFIG_FILE = 256 * 1024


def read_settings_file(path: Path) -> dict[str, Any]:
    """The values of a `serve.toml` (SettingsError naming the file when it is unreadable,
    not TOML, too large, or holds a key `Settings` does not have)."""
    try:
        if not path.is_file():
            raise SettingsError(f"{path}: no such file")
        if path.stat().st_size > MAX_CONFIG_FILE:
            raise SettingsError(f"{path}: larger than {MAX_CONFIG_FILE} bytes")
        values = msgspec.toml.decode(path.read_bytes())
    except OSError as exc:
        raise SettingsError(f"{path}: {exc.strerror or exc}") from None
    except msgspec.DecodeError as exc:
        raise SettingsError(f"{path}: not TOML: {exc}") from None
    if not isinstance(values, dict):
        raise SettingsError(f"{path}: a table of settings was expected")
    known = set(Settings.__struct_fields__)
    for key in values:
        if key not in known:
            raise SettingsError(
                f"{path}: unknown setting {key!r} (known: {', '.join(sorted(known))})"
            )
    return values


def load_settings(path: Path | None, overrides: dict[str, Any]) -> Settings:
    """The file's settings (when given) with `overrides` (the flags given) on top."""
    values = read_settings_file(path) if path is not None else {}
    where = str(path) if path is not None else "flags"
    merged = {**values, **{k: v for k, v in overrides.items() if v is not None}}
    return settings_of(merged, where)
