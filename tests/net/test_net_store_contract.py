"""One contract for both stores (SQLite and PostgreSQL) and both presences (in memory and
Redis), against real servers (tests/net/servers.py), plus PostgreSQL's epoch fencing."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from suite.net.backends.postgres import PgStore
from suite.net.backends.presence import LocalBoard, LocalPresence, Presence, Summary
from suite.net.backends.redis import RedisPresence
from suite.net.backends.sqlite import SqliteStore as Store
from suite.net.backends.store import Commit, MatchStore, SeatRow, StaleEpoch

from .helpers import run
from .servers import pg_url, postgres, redis_server, redis_url  # noqa: F401

CONFIG = {"players": 2, "map": "classic"}


async def done(commit: Commit) -> None:
    if commit is not None:
        await commit


def seat(index: int, token: str | None = None) -> SeatRow:
    kind = "human" if token else "open"
    return SeatRow(seat=index, kind=kind, name=f"p{index}", bot=None, token=token, ready=False)


@pytest.fixture(params=["sqlite", "sqlite-grouped", "postgresql"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], MatchStore]:
    """Makes stores on one backing (SQLite: one file, its writes committed at once or a
    turn at a time as the server's; PostgreSQL: one database)."""
    if request.param.startswith("sqlite"):
        grouped = request.param == "sqlite-grouped"
        return lambda: Store(tmp_path / "m.sqlite3", grouped=grouped)
    url = request.getfixturevalue("pg_url")
    return lambda: PgStore(url)


def with_store(make: Callable[[], MatchStore], body: Callable[[MatchStore], Awaitable[Any]]) -> Any:
    async def go() -> Any:
        store = make()
        await store.open()
        try:
            return await body(store)
        finally:
            await store.aclose()

    return run(go(), timeout=60)


def test_a_room_is_stored_whole_and_in_order(make_store: Callable[[], MatchStore]) -> None:
    async def body(store: MatchStore) -> None:
        await done(store.add_room("ABC", "worldwar", CONFIG, 2**100 + 7, 12.5, None))
        await done(store.set_seat("ABC", seat(0, "tok0")))
        await done(store.set_seat("ABC", seat(1)))
        commits = [
            store.append("ABC", i, b'{"op":"act","seat":0,"action":{"i":%d}}' % i)
            for i in range(50)
        ]
        for commit in commits:
            await done(commit)
        await done(store.set_phase("ABC", "playing"))
        row = await store.load("ABC")
        assert row is not None
        assert (row.game, row.seed, row.config, row.phase) == (
            "worldwar",
            2**100 + 7,
            CONFIG,
            "playing",
        )
        assert [e["action"]["i"] for e in row.log] == list(range(50))
        assert [(s.seat, s.token) for s in row.seats] == [(0, "tok0"), (1, None)]
        assert await store.unfinished_codes() == ["ABC"]
        assert await store.room_of_token("tok0") == "ABC"
        assert await store.room_of_token("nope") is None
        assert await store.log_length("ABC") == 50
        assert await store.load("ABC") == row
        assert await store.ping()

    with_store(make_store, body)


def test_whether_a_room_is_listed_is_stored(make_store: Callable[[], MatchStore]) -> None:
    async def body(store: MatchStore) -> None:
        await done(store.add_room("PUB", "worldwar", CONFIG, 1, 1.0, None, True))
        await done(store.add_room("PRI", "worldwar", CONFIG, 1, 1.0, None))
        listed, unlisted = await store.load("PUB"), await store.load("PRI")
        assert listed is not None and listed.public
        assert unlisted is not None and not unlisted.public
        await done(store.set_public("PUB", False))
        await done(store.set_public("PRI", True))
        listed, unlisted = await store.load("PUB"), await store.load("PRI")
        assert listed is not None and not listed.public
        assert unlisted is not None and unlisted.public

    with_store(make_store, body)


def test_an_older_sqlite_store_is_brought_up_to_date(tmp_path: Path) -> None:
    """A store written before rooms kept their clock and their public flag: its rooms
    load unlisted, and the flag is stored from then on."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(str(path))
    db.executescript(
        "CREATE TABLE rooms (code TEXT PRIMARY KEY, game TEXT NOT NULL, config TEXT NOT NULL,"
        " seed TEXT NOT NULL, created REAL NOT NULL, phase TEXT NOT NULL, pack TEXT,"
        " result TEXT);"
        "INSERT INTO rooms VALUES ('OLD', 'worldwar', '{\"players\": 2}', '7', 1.0,"
        " 'lobby', NULL, NULL);"
    )
    db.commit()
    db.close()

    async def body(store: MatchStore) -> None:
        row = await store.load("OLD")
        assert row is not None and not row.public and row.clock is None
        await done(store.set_public("OLD", True))
        again = await store.load("OLD")
        assert again is not None and again.public

    with_store(lambda: Store(path), body)


def test_grouped_sqlite_writes_reach_the_file_at_flush(tmp_path: Path) -> None:
    """The server's SQLite store: a turn's writes are one transaction, which another
    reader of the file sees only once `flush` committed it; nothing is lost."""
    store = Store(tmp_path / "m.sqlite3", grouped=True)
    other = Store(tmp_path / "m.sqlite3")
    try:
        store.add_room("ABC", "worldwar", CONFIG, 7, 1.0, None)
        for idx in range(3):
            store.append("ABC", idx, b'{"op":"act"}')

        async def seen() -> tuple[Any, Any]:
            return await other.load("ABC"), await store.load("ABC")

        theirs, ours = run(seen())
        assert theirs is None and ours is not None and len(ours.log) == 3
        assert store.flush() == [] and store.flush() == []
        theirs, _ = run(seen())
        assert theirs is not None and len(theirs.log) == 3
    finally:
        store.close()
        other.close()


class CommitFails:
    """A SQLite connection whose COMMIT fails (a full disk), all else passed through."""

    def __init__(self, db: Any) -> None:
        self.db = db

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def close(self) -> None:
        self.db.close()


def test_a_failed_group_commit_names_the_rooms_it_lost(tmp_path: Path) -> None:
    store = Store(tmp_path / "m.sqlite3", grouped=True)
    real = store.db
    store.add_room("ABC", "worldwar", CONFIG, 7, 1.0, None)
    store.add_room("XYZ", "worldwar", CONFIG, 8, 1.0, None)
    assert store.flush() == []
    store.append("ABC", 0, b'{"op":"act"}')
    store.append("XYZ", 0, b'{"op":"act"}')
    store.db = CommitFails(real)  # type: ignore[assignment]
    assert store.flush() == ["ABC", "XYZ"]
    store.db = real
    stored = run(store.load("ABC"))
    assert stored is not None and stored.log == []  # rolled back: the room goes on as stored
    store.append("ABC", 0, b'{"op":"act"}')  # a new transaction opens
    assert store.flush() == []
    store.close()


def test_an_over_room_is_not_claimed_or_listed(make_store: Callable[[], MatchStore]) -> None:
    async def body(store: MatchStore) -> None:
        await done(store.add_room("R1", "wok", CONFIG, 1, 1.0, None))
        await done(store.set_seat("R1", seat(0, "t1")))
        assert await store.claim("R1") is not None
        await done(store.set_phase("R1", "over", {"outcome": None, "reason": "test"}))
        assert await store.unfinished_codes() == []
        assert await store.claim("R1") is None
        assert await store.claim("NOPE") is None
        assert await store.room_of_token("t1") is None
        assert await store.prune(2.0) == 1
        assert await store.load("R1") is None

    with_store(make_store, body)


def test_the_committer_connects_anew_after_its_connection_is_cut(pg_url: str) -> None:  # noqa: F811
    """The PostgreSQL committer keeps its own connection between batches: when the
    database drops it, the batch on it fails (its room is refused from then on, as any
    room whose write failed) and the next batch commits on a new connection."""
    import psycopg

    entry = b'{"op":"act","seat":0,"action":{}}'

    async def go() -> None:
        store = PgStore(pg_url)
        await store.open()
        try:
            await done(store.add_room("CUT", "worldwar", CONFIG, 1, 1.0, None))
            await done(store.append("CUT", 0, entry))
            assert store._db is not None
            pid = store._db.info.backend_pid
            async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as admin:
                await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            with pytest.raises(psycopg.OperationalError):
                await done(store.append("CUT", 1, entry))
            with pytest.raises(StaleEpoch):
                await done(store.append("CUT", 1, entry))
            await done(store.add_room("NEW", "worldwar", CONFIG, 1, 1.0, None))
            await done(store.append("NEW", 0, entry))
            cut, new = await store.load("CUT"), await store.load("NEW")
            assert cut is not None and len(cut.log) == 1
            assert new is not None and len(new.log) == 1
        finally:
            await store.aclose()

    run(go(), timeout=60)


def test_a_stale_owner_cannot_extend_a_match(pg_url: str) -> None:  # noqa: F811
    """Two processes' stores on one database: once B claimed the room, every write of A
    is refused, and B reads every write A had committed and none it had not."""

    async def go() -> None:
        a, b = PgStore(pg_url), PgStore(pg_url)
        await a.open()
        await b.open()
        try:
            await done(a.add_room("FEN", "worldwar", CONFIG, 1, 1.0, None))
            results: list[bool] = []

            async def one(i: int) -> None:
                try:
                    await done(a.append("FEN", i, b'{"op":"act","seat":0,"action":{}}'))
                    results.append(True)
                except StaleEpoch:
                    results.append(False)

            writers = [asyncio.ensure_future(one(i)) for i in range(200)]
            await asyncio.sleep(0.01)
            epoch = await b.claim("FEN")
            assert epoch == 2
            await asyncio.gather(*writers)
            row = await b.load("FEN")
            assert row is not None
            committed = results.count(True)
            assert len(row.log) == committed  # nothing refused was kept, nothing kept lost
            assert results == sorted(results, reverse=True)  # refused from some point on
            with pytest.raises(StaleEpoch):
                await done(a.append("FEN", committed, b'{"op":"act","seat":0,"action":{}}'))
            await done(b.append("FEN", committed, b'{"op":"act","seat":0,"action":{}}'))
            assert await b.log_length("FEN") == committed + 1
        finally:
            await a.aclose()
            await b.aclose()

    run(go(), timeout=60)


# -- presence -------------------------------------------------------------------------------


@pytest.fixture(params=["memory", "redis"])
def make_presence(request: pytest.FixtureRequest) -> Callable[[], Presence]:
    """Makes presences that share one backing (a board in memory, or one Redis)."""
    if request.param == "memory":
        board = LocalBoard()
        return lambda: LocalPresence(board)
    url = request.getfixturevalue("redis_url")
    return lambda: RedisPresence(url)


def with_two(
    make: Callable[[], Presence], body: Callable[[Presence, Presence], Awaitable[Any]]
) -> Any:
    async def go() -> Any:
        a, b = make(), make()
        await a.open()
        await b.open()
        try:
            return await body(a, b)
        finally:
            await a.aclose()
            await b.aclose()

    return run(go(), timeout=60)


def test_one_lease_holder_at_a_time(make_presence: Callable[[], Presence]) -> None:
    async def body(a: Presence, b: Presence) -> None:
        assert await a.acquire("R", 5)
        assert not await b.acquire("R", 5)
        assert await a.owners(["R", "S"]) == {"R": a.process, "S": None}
        assert await b.renew(["R"], 5) == set()
        assert await a.renew(["R"], 5) == {"R"}
        await b.release(["R"])  # not b's: nothing happens
        assert (await b.owners(["R"]))["R"] == a.process
        await a.release(["R"])
        assert await b.acquire("R", 0.3)
        await asyncio.sleep(0.5)  # b "died": its lease runs out by itself
        assert (await a.owners(["R"]))["R"] is None
        assert await a.acquire("R", 0.3)
        assert await b.renew(["R"], 5) == set()
        await asyncio.sleep(0.5)  # a's lease ran out (a was cut off) and nobody took it
        assert await a.renew(["R"], 5) == {"R"}
        assert (await b.owners(["R"]))["R"] == a.process
        assert await a.ping()

    with_two(make_presence, body)


def test_summaries_and_frames_between_processes(make_presence: Callable[[], Presence]) -> None:
    async def body(a: Presence, b: Presence) -> None:
        got_a: list[bytes] = []
        got_b: list[bytes] = []
        a.on_frame, b.on_frame = got_a.append, got_b.append
        await a.publish(Summary(live=3, lobbies={"1.2.3.4": 2}), 0.4)
        others = await b.others()
        assert list(others) == [a.process] and others[a.process].live == 3
        assert await a.others() == {}
        for i in range(20):
            await b.send(a.process, b"m%d" % i)
        await a.announce(b"all")
        for _ in range(100):
            if len(got_a) >= 20 and b"all" in got_b:
                break
            await asyncio.sleep(0.02)
        assert [f for f in got_a if f != b"all"] == [b"m%d" % i for i in range(20)]
        assert b"all" in got_b
        await asyncio.sleep(0.5)
        assert await b.others() == {}  # a's summary ran out: a counts as gone

    with_two(make_presence, body)
