"""The default store: one embedded SQLite file (WAL)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any

from suite.net.backends.store import Commit, RoomRow, SeatRow

log = logging.getLogger("suite.net")

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed TEXT NOT NULL,
    created REAL NOT NULL,
    phase TEXT NOT NULL,
    pack TEXT,
    result TEXT,
    clock TEXT,
    public INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    bot TEXT,
    token TEXT,
    ready INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS log (
    code TEXT NOT NULL,
    idx INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (code, idx)
);
"""


class SqliteStore:
    """One SQLite file. Not shared between processes.

    `grouped` (the server's store): the writes of one turn of the event loop go into one
    transaction, committed by `flush`, which the server calls before any message leaves
    it and at the end of each turn it wrote in (`suite.net.server.outbox`): one commit
    for every action of the turn, and still nobody hears of an action before it is
    committed. Else every write commits at once.

    Writers never wait for a WAL checkpoint (the one step that syncs the disk): a
    background thread with its own connection checkpoints every `checkpoint_every`
    seconds instead.
    """

    def __init__(
        self, path: Path | str, checkpoint_every: float = 2.0, *, grouped: bool = False
    ) -> None:
        self.path = Path(path)
        self.grouped = grouped
        self._written: set[str] = set()
        """The rooms written in the open transaction (grouped; empty when none is open)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.executescript(SCHEMA)
        _migrate(self.db)
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop, args=(checkpoint_every,), daemon=True
        )
        self._checkpointer.start()

    def _checkpoint_loop(self, every: float) -> None:
        db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        try:
            while not self._stop.wait(every):
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    async def open(self) -> None:
        """Nothing to do: the file is open from the constructor on."""

    async def aclose(self) -> None:
        self.close()

    def forget(self, code: str) -> None:
        """Nothing to forget: one process per file writes every room (epoch 1)."""

    async def claim(self, code: str) -> int | None:
        """One process per SQLite file (`DataLock`): the epoch is always 1."""
        row = self.db.execute("SELECT phase FROM rooms WHERE code = ?", (code,)).fetchone()
        return None if row is None or row[0] == "over" else 1

    async def load(self, code: str) -> RoomRow | None:
        """The stored room `code` in any phase (a finished one too), or None."""
        rows = self.db.execute(
            "SELECT code, game, config, seed, created, phase, pack, clock, public FROM rooms "
            "WHERE code = ?",
            (code,),
        ).fetchall()
        found = self._rows(rows)
        return found[0] if found else None

    async def room_of_token(self, token: str) -> str | None:
        row = self.db.execute(
            "SELECT s.code FROM seats s JOIN rooms r ON r.code = s.code "
            "WHERE s.token = ? AND r.phase != 'over'",
            (token,),
        ).fetchone()
        return None if row is None else str(row[0])

    async def unfinished_codes(self) -> list[str]:
        return [
            code
            for (code,) in self.db.execute(
                "SELECT code FROM rooms WHERE phase != 'over' ORDER BY created"
            )
        ]

    async def ping(self) -> bool:
        try:
            self.db.execute("SELECT 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def close(self) -> None:
        self.flush()
        self._stop.set()
        self._checkpointer.join(timeout=10)
        with contextlib.suppress(sqlite3.Error):
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()

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
        return self._write(
            code,
            "INSERT INTO rooms (code, game, config, seed, created, phase, pack, public) "
            "VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?)",
            (code, game, json.dumps(config), str(seed), created, pack, int(public)),
        )

    def set_phase(self, code: str, phase: str, result: dict[str, Any] | None = None) -> Commit:
        return self._write(
            code,
            "UPDATE rooms SET phase = ?, result = ? WHERE code = ?",
            (phase, None if result is None else json.dumps(result), code),
        )

    def set_seat(self, code: str, row: SeatRow) -> Commit:
        return self._write(
            code,
            "INSERT OR REPLACE INTO seats (code, seat, kind, name, bot, token, ready) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (code, row.seat, row.kind, row.name, row.bot, row.token, int(row.ready)),
        )

    def set_clock(self, code: str, clock: str | None) -> Commit:
        return self._write(code, "UPDATE rooms SET clock = ? WHERE code = ?", (clock, code))

    def set_public(self, code: str, public: bool) -> Commit:
        return self._write(code, "UPDATE rooms SET public = ? WHERE code = ?", (int(public), code))

    def append(self, code: str, idx: int, entry: bytes) -> Commit:
        """Log entry `idx` of room `code` (JSON bytes), committed before anyone hears of it."""
        return self._write(
            code,
            "INSERT INTO log (code, idx, entry) VALUES (?, ?, ?)",
            (code, idx, entry.decode("utf-8")),
        )

    def _write(self, code: str, sql: str, params: tuple[Any, ...]) -> Commit:
        """Run one write of room `code`: at once, or in the turn's transaction (grouped).
        A write the database refuses raises here (the transaction stays open for the
        turn's other writes: SQLite undoes the failed statement alone)."""
        if self.grouped:
            if not self._written:
                self.db.execute("BEGIN")
            self._written.add(code)
        self.db.execute(sql, params)
        return None

    def flush(self) -> list[str]:
        """Commit the open transaction (grouped); the codes of the rooms whose writes
        were lost because the commit failed (it is rolled back and logged)."""
        written, self._written = self._written, set()
        if not written:
            return []
        try:
            self.db.execute("COMMIT")
        except sqlite3.Error:
            log.exception("the store could not commit the writes of %d rooms", len(written))
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            return sorted(written)
        return []

    def _rows(self, rows: list[Any]) -> list[RoomRow]:
        out = []
        for code, game, config, seed, created, phase, pack, clock, public in rows:
            seats = [
                SeatRow(seat=s, kind=k, name=n, bot=b, token=t, ready=bool(r))
                for s, k, n, b, t, r in self.db.execute(
                    "SELECT seat, kind, name, bot, token, ready FROM seats WHERE code = ? "
                    "ORDER BY seat",
                    (code,),
                )
            ]
            log = [
                json.loads(entry)
                for (entry,) in self.db.execute(
                    "SELECT entry FROM log WHERE code = ? ORDER BY idx", (code,)
                )
            ]
            out.append(
                RoomRow(
                    code=code,
                    game=game,
                    config=json.loads(config),
                    seed=int(seed),
                    created=created,
                    phase=phase,
                    pack=pack,
                    seats=seats,
                    log=log,
                    clock=clock,
                    public=bool(public),
                )
            )
        return out

    async def prune(self, before: float, keep: set[str] | frozenset[str] = frozenset()) -> int:
        """Delete the finished rooms created before `before` (but those in `keep`), with
        their seats and logs, one transaction a room (grouped: with the turn's writes,
        committed by the next `flush`), letting the event loop run between them; returns
        how many."""
        codes = [
            code
            for (code,) in self.db.execute(
                "SELECT code FROM rooms WHERE phase = 'over' AND created < ?", (before,)
            )
            if code not in keep
        ]
        for code in codes:
            if not self.grouped:
                self.db.execute("BEGIN")
            for table in ("log", "seats", "rooms"):
                self._write(code, f"DELETE FROM {table} WHERE code = ?", (code,))  # noqa: S608
            if not self.grouped:
                self.db.execute("COMMIT")
            await asyncio.sleep(0)
        return len(codes)

    async def log_length(self, code: str) -> int:
        (n,) = self.db.execute("SELECT COUNT(*) FROM log WHERE code = ?", (code,)).fetchone()
        return int(n)


def _migrate(db: sqlite3.Connection) -> None:
    """Bring a store written by an older server up to date: seeds were 31-bit INTEGERs,
    and are now decimal TEXT (128-bit seeds do not fit SQLite's 64-bit integers); the
    clock and public columns came later (an older room is unlisted)."""
    columns = {name: kind for _, name, kind, *_ in db.execute("PRAGMA table_info(rooms)")}
    if "clock" not in columns:
        db.execute("ALTER TABLE rooms ADD COLUMN clock TEXT")
    if "public" not in columns:
        db.execute("ALTER TABLE rooms ADD COLUMN public INTEGER NOT NULL DEFAULT 0")
    if columns.get("seed", "TEXT").upper() == "TEXT":
        return
    db.executescript(
        """
        BEGIN;
        ALTER TABLE rooms RENAME TO rooms_old;
        """
        + SCHEMA.split("CREATE TABLE IF NOT EXISTS seats")[0]
        + """;
        INSERT INTO rooms (code, game, config, seed, created, phase, pack, result, clock, public)
            SELECT code, game, config, CAST(seed AS TEXT), created, phase, pack, result, clock,
                public
            FROM rooms_old;
        DROP TABLE rooms_old;
        COMMIT;
        """
    )
