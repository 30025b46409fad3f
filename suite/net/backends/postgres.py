"""The PostgreSQL store (`suite serve --store postgresql://...`): psycopg 3, async, pooled.

Same tables as the SQLite store, plus `rooms.epoch`: the epoch of the process that may
write the room. `claim` raises it by one (the new owner's epoch, after its lease in the
presence); every later write of the room runs in a transaction that first locks the
room's row (`FOR SHARE`) and checks the epoch is still this process's, so a process
that lost the room (its lease ran out while it was paused or cut off) can never extend
the match: its write is refused with `StaleEpoch`, and the claim, which takes the row's
exclusive lock, waits for any write in flight to end before the new owner reads the log.

Writes are queued and committed in order by one task: the writes of every room that
queue up while a commit is in flight go in the next transaction together (a group commit
across rooms: a transaction's cost is shared by all the actions in it). Each write
returns a future resolved once it is committed. A room whose write failed has every later
write refused (the room hears of it through its future and is let go).

Every call is asynchronous, reads and pruning included: nothing waits for PostgreSQL on
the server's event loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, NamedTuple

import msgspec
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from suite.net.backends.store import Commit, RoomRow, SeatRow, StaleEpoch

log = logging.getLogger("suite.net")
_json = msgspec.json.Encoder()

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    phase TEXT NOT NULL,
    pack TEXT,
    result TEXT,
    clock TEXT,
    public BOOLEAN NOT NULL DEFAULT FALSE,
    epoch BIGINT NOT NULL DEFAULT 1
);
ALTER TABLE rooms ADD COLUMN IF NOT EXISTS clock TEXT;
ALTER TABLE rooms ADD COLUMN IF NOT EXISTS public BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX IF NOT EXISTS rooms_phase ON rooms (phase, created);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    bot TEXT,
    token TEXT,
    ready BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (code, seat)
);
CREATE INDEX IF NOT EXISTS seats_token ON seats (token);
CREATE TABLE IF NOT EXISTS log (
    code TEXT NOT NULL,
    idx INTEGER NOT NULL,
    entry TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    PRIMARY KEY (code, idx)
);
"""
SCHEMA_LOCK = 7_424_211
"""Advisory lock id that serialises the schema set-up of processes starting together."""
POOL_SIZE = 8
CONNECT_TIMEOUT = 10
"""Seconds the committer waits to connect (a lost database fails its batch, not hangs)."""


class Write(NamedTuple):
    """One queued write: its room, SQL and parameters (`sql` None for a log entry, whose
    `params` are `EntryRow`'s fields), whether the room's epoch must be checked first,
    and the future its caller holds."""

    code: str
    sql: str | None
    params: tuple[Any, ...]
    fenced: bool
    future: asyncio.Future[None]


ENTRIES = "json_to_recordset(%s::json) AS entry(code text, idx int, entry text, epoch bigint)"
"""A batch's log entries as one JSON parameter (`_entries`): each entry's JSON object
is embedded as it is, and a `text` column of `json_to_recordset` reproduces it exactly."""

APPEND_ROWS = f"INSERT INTO log (code, idx, entry, epoch) SELECT * FROM {ENTRIES}"
"""A batch's log entries as one statement."""

FENCED_APPEND_ROWS = f"""
WITH mine AS (
    SELECT * FROM json_to_recordset(%s::json) AS mine(code text, epoch bigint)
), fence AS (
    SELECT code, epoch FROM rooms WHERE code IN (SELECT code FROM mine) FOR SHARE
), current AS (
    SELECT fence.code FROM fence
    JOIN mine ON mine.code = fence.code AND mine.epoch = fence.epoch
), appended AS (
    INSERT INTO log (code, idx, entry, epoch)
    SELECT * FROM {ENTRIES} WHERE entry.code IN (SELECT code FROM current)
)
SELECT code, epoch FROM fence
"""
"""A batch of nothing but log entries in one statement: the rooms' rows locked (`FOR
SHARE`) and their epochs read, and the entries of the rooms whose epoch is still this
process's (`mine`, as JSON) appended; it returns the epochs read, so the caller refuses
the rest. Its parameters are two JSON texts, which psycopg passes without adapting
a value at a time."""


class EntryRow(msgspec.Struct):
    """One log entry as `ENTRIES` reads it (`entry`: the op's JSON object, embedded)."""

    code: str
    idx: int
    entry: msgspec.Raw
    epoch: int


class Epoch(msgspec.Struct):
    """A room's epoch as this process holds it (None: not a room it writes)."""

    code: str
    epoch: int | None


class PgStore:
    """A `MatchStore` on PostgreSQL; `await open()` before use, `await aclose()` after."""

    def __init__(self, dsn: str, *, pool_size: int = POOL_SIZE) -> None:
        self.dsn = dsn
        self.pool = AsyncConnectionPool(
            dsn, min_size=2, max_size=pool_size, open=False, kwargs={"autocommit": False}
        )
        self.epochs: dict[str, int] = {}
        """The epoch this process writes each room it claimed (or created) with."""
        self._pending: list[Write] = []
        self._drainer: asyncio.Task[None] | None = None
        self._db: AsyncConnection[Any] | None = None
        """The committer's own connection (autocommit, outside the pool), kept between
        batches (None while a batch holds it, or after a failed batch closed it)."""

    async def open(self) -> None:
        await self.pool.open(wait=True, timeout=30)
        async with self.pool.connection() as db:
            await db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            await db.execute(SCHEMA)

    async def aclose(self) -> None:
        if self._drainer is not None:
            await asyncio.wait([self._drainer], timeout=5)
        if self._db is not None:
            await self._db.close()
            self._db = None
        await self.pool.close()

    async def ping(self) -> bool:
        try:
            async with asyncio.timeout(2):
                async with self.pool.connection() as db:
                    await db.execute("SELECT 1")
        except Exception:
            return False
        return True

    # -- writes ----------------------------------------------------------------------------

    def _write(
        self, code: str, sql: str | None, params: tuple[Any, ...], fenced: bool = True
    ) -> Commit:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(Write(code, sql, params, fenced, future))
        if self._drainer is None:
            self._drainer = asyncio.ensure_future(self._drain())
        return future

    async def _drain(self) -> None:
        """Commit what is queued, in batches, until nothing is left: each batch is one
        transaction over every room that wrote meanwhile (a group commit), so a write
        waits for at most the commit in flight and the next one."""
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    stale = await self._commit(batch)
                except BaseException as exc:  # noqa: BLE001 - every waiter must hear of it
                    failed = exc if isinstance(exc, Exception) else RuntimeError("cancelled")
                    stale = {write.code: failed for write in batch}
                    if not isinstance(exc, Exception):
                        self._settle(batch, stale)
                        raise
                self._settle(batch, stale)
        finally:
            self._drainer = None

    def _settle(self, batch: list[Write], failed: dict[str, Exception]) -> None:
        """Resolve each write's future: committed, or failed with its room's reason (a
        room that failed once writes nothing more here: its epoch is forgotten)."""
        for code in failed:
            self.epochs.pop(code, None)
        for write in batch:
            if write.future.done():
                continue
            error = failed.get(write.code)
            if error is None:
                write.future.set_result(None)
            else:
                write.future.set_exception(error)
                write.future.exception()  # the room's callback reports it

    async def _commit(self, batch: list[Write]) -> dict[str, Exception]:
        """One transaction on the committer's own connection (autocommit). The rows of the
        rooms with fenced writes are locked first (`FOR SHARE`, so no claim overtakes them
        until the commit) and their epochs read: a room whose epoch is not this process's
        has its writes left out and refused (`StaleEpoch`); the others commit. A room whose
        row this batch creates needs no check. The log entries go as one statement; a
        batch of nothing else (an ordinary turn of actions) is that one statement, its own
        transaction: one round trip."""
        created = {w.code for w in batch if not w.fenced}
        fenced = sorted({w.code for w in batch if w.fenced} - created)
        mine = [self.epochs.get(code) for code in fenced]
        entries = [w for w in batch if w.sql is None]
        others = [(w.code, w.sql, w.params) for w in batch if w.sql is not None]
        db = self._db or await AsyncConnection.connect(
            self.dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT
        )
        self._db = None
        try:
            if others:
                async with db.transaction():
                    cur = await db.execute(
                        "SELECT code, epoch FROM rooms WHERE code = ANY(%s) FOR SHARE", (fenced,)
                    )
                    stale = _stale(fenced, mine, await cur.fetchall())
                    entries = [w for w in entries if w.code not in stale]
                    async with db.pipeline():
                        for code, sql, params in others:
                            if code not in stale:
                                await db.execute(sql, params)
                        if entries:
                            await db.execute(APPEND_ROWS, (_entries(entries),))
            else:
                held = [Epoch(code, epoch) for code, epoch in zip(fenced, mine, strict=True)]
                cur = await db.execute(
                    FENCED_APPEND_ROWS, (_json.encode(held).decode(), _entries(entries))
                )
                stale = _stale(fenced, mine, await cur.fetchall())
        except BaseException:
            await db.close()  # whatever state it was left in, the next batch connects anew
            raise
        self._db = db
        return stale

    def add_room(
        self,
        code: str,
        game: str,
        config: dict[str, Any],
        seed: int,
        created: float,
        pack: str | None,
        public: bool = False,
    ) -> Commit:
        self.epochs[code] = 1
        return self._write(
            code,
            "INSERT INTO rooms (code, game, config, seed, created, phase, pack, public, epoch) "
            "VALUES (%s, %s, %s, %s, %s, 'lobby', %s, %s, 1)",
            (code, game, json.dumps(config), str(seed), created, pack, public),
            fenced=False,
        )

    def set_phase(self, code: str, phase: str, result: dict[str, Any] | None = None) -> Commit:
        return self._write(
            code,
            "UPDATE rooms SET phase = %s, result = %s WHERE code = %s",
            (phase, None if result is None else json.dumps(result), code),
        )

    def set_seat(self, code: str, row: SeatRow) -> Commit:
        return self._write(
            code,
            "INSERT INTO seats (code, seat, kind, name, bot, token, ready) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (code, seat) DO UPDATE SET "
            "kind = EXCLUDED.kind, name = EXCLUDED.name, bot = EXCLUDED.bot, "
            "token = EXCLUDED.token, ready = EXCLUDED.ready",
            (code, row.seat, row.kind, row.name, row.bot, row.token, row.ready),
        )

    def set_clock(self, code: str, clock: str | None) -> Commit:
        return self._write(code, "UPDATE rooms SET clock = %s WHERE code = %s", (clock, code))

    def set_public(self, code: str, public: bool) -> Commit:
        return self._write(code, "UPDATE rooms SET public = %s WHERE code = %s", (public, code))

    def flush(self) -> list[str]:
        """Nothing to commit here: every write returned its own `Commit` future."""
        return []

    def append(self, code: str, idx: int, entry: bytes) -> Commit:
        """Log entry `idx` of room `code`; the future resolves once it is committed (and
        fails with StaleEpoch when another process claimed the room since)."""
        return self._write(code, None, (code, idx, msgspec.Raw(entry), self.epochs.get(code, 0)))

    # -- ownership and reads -------------------------------------------------------------------

    async def claim(self, code: str) -> int | None:
        """Raise the room's epoch: from now on only this process writes it. None when the
        room is not stored or is over."""
        async with self.pool.connection() as db, db.transaction():
            cur = await db.execute(
                "UPDATE rooms SET epoch = epoch + 1 WHERE code = %s AND phase <> 'over' "
                "RETURNING epoch",
                (code,),
            )
            row = await cur.fetchone()
        if row is None:
            return None
        self.epochs[code] = int(row[0])
        return int(row[0])

    def forget(self, code: str) -> None:
        """This process no longer writes `code` (it handed the room over)."""
        self.epochs.pop(code, None)

    async def load(self, code: str) -> RoomRow | None:
        async with self.pool.connection() as db:
            cur = await db.execute(
                "SELECT code, game, config, seed, created, phase, pack, clock, public FROM rooms "
                "WHERE code = %s",
                (code,),
            )
            found = await cur.fetchone()
            if found is None:
                return None
            cur = await db.execute(
                "SELECT seat, kind, name, bot, token, ready FROM seats WHERE code = %s "
                "ORDER BY seat",
                (code,),
            )
            seats = await cur.fetchall()
            cur = await db.execute("SELECT entry FROM log WHERE code = %s ORDER BY idx", (code,))
            entries = await cur.fetchall()
            await db.rollback()
        return _row(found, seats, entries)

    async def room_of_token(self, token: str) -> str | None:
        """The code of the unfinished room a seat token belongs to, or None."""
        async with self.pool.connection() as db:
            cur = await db.execute(
                "SELECT s.code FROM seats s JOIN rooms r ON r.code = s.code "
                "WHERE s.token = %s AND r.phase <> 'over'",
                (token,),
            )
            row = await cur.fetchone()
            await db.rollback()
        return None if row is None else str(row[0])

    async def unfinished_codes(self) -> list[str]:
        async with self.pool.connection() as db:
            cur = await db.execute("SELECT code FROM rooms WHERE phase <> 'over' ORDER BY created")
            codes = [str(code) for (code,) in await cur.fetchall()]
            await db.rollback()
        return codes

    async def log_length(self, code: str) -> int:
        async with self.pool.connection() as db:
            cur = await db.execute("SELECT COUNT(*) FROM log WHERE code = %s", (code,))
            row = await cur.fetchone()
            await db.rollback()
        return int(row[0]) if row else 0

    async def prune(self, before: float, keep: set[str] | frozenset[str] = frozenset()) -> int:
        """Delete finished rooms created before `before` (but those in `keep`), one
        transaction a room."""
        async with self.pool.connection() as db:
            cur = await db.execute(
                "SELECT code FROM rooms WHERE phase = 'over' AND created < %s", (before,)
            )
            codes = [code for (code,) in await cur.fetchall() if code not in keep]
            await db.rollback()
            for code in codes:
                async with db.transaction():
                    for table in ("log", "seats", "rooms"):
                        await db.execute(f"DELETE FROM {table} WHERE code = %s", (code,))  # noqa: S608
        return len(codes)


def _entries(entries: list[Write]) -> str:
    """Log entries' rows as the JSON that `ENTRIES` reads."""
    return _json.encode([EntryRow(*w.params) for w in entries]).decode()


def _stale(fenced: list[str], mine: list[int | None], stored: list[Any]) -> dict[str, Exception]:
    """The fenced rooms whose epoch in the store (`stored`: rows of code and epoch) is
    not this process's (`mine`, in the order of `fenced`; None: not a room it writes)."""
    epochs = {str(code): int(epoch) for code, epoch in stored}
    return {
        code: StaleEpoch(
            f"room {code}: epoch {ours} is not the store's {epochs.get(code)} "
            "(another process owns it)"
        )
        for code, ours in zip(fenced, mine, strict=True)
        if ours is None or epochs.get(code) != ours
    }


def _row(found: Any, seats: list[Any], entries: list[Any]) -> RoomRow:
    code, game, config, seed, created, phase, pack, clock, public = found
    return RoomRow(
        code=code,
        game=game,
        config=json.loads(config),
        seed=int(seed),
        created=float(created),
        phase=phase,
        pack=pack,
        seats=[
            SeatRow(seat=s, kind=k, name=n, bot=b, token=t, ready=bool(r))
            for s, k, n, b, t, r in seats
        ],
        log=[json.loads(entry) for (entry,) in entries],
        clock=clock,
        public=bool(public),
    )
