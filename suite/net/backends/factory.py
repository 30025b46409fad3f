"""Open the store and the presence that the settings name (see the package docstring)."""

from __future__ import annotations

from pathlib import Path

from suite.net.backends.presence import LocalPresence, Presence
from suite.net.backends.store import MatchStore


def open_store(url: str | None, data: Path) -> MatchStore:
    """PostgreSQL for a postgresql:// `url`, else the SQLite file in the data folder (its
    writes grouped a turn of the server's loop at a time: the server flushes it)."""
    if url is None:
        from suite.net.backends.sqlite import SqliteStore

        return SqliteStore(data / "matches.sqlite3", grouped=True)
    from suite.net.backends.postgres import PgStore

    return PgStore(url)


def open_presence(url: str | None) -> Presence:
    """Redis for a redis:// `url`, else the in-process presence."""
    if url is None:
        return LocalPresence()
    from suite.net.backends.redis import RedisPresence

    return RedisPresence(url)
