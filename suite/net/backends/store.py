"""The server's store: the `MatchStore` interface and the rows it keeps.

Two implementations keep rooms, seats and each room's append-only log:
`suite.net.backends.sqlite.SqliteStore` (one embedded SQLite file, the default) and
`suite.net.backends.postgres.PgStore` (PostgreSQL, for several server processes). Writes
return a `Commit`: None when the write is committed before any message leaves the server
(SQLite: the server's `flush` before it writes to a client commits the turn's writes in
one transaction), or a future that resolves once PostgreSQL committed it (the room holds
every message it sends after the write behind that future). Either way nobody hears of
an action before it is committed. A store
fences its writes with the room's epoch (`claim`): a process whose claim was overtaken
by another's has every later write of that room refused (`StaleEpoch`).

A room's log holds every accepted operation (a seat's action or a clock operation) in
order; `append` commits it before the caller broadcasts anything, so a crash never loses
an accepted action (WAL with synchronous=NORMAL survives a killed process; only a power
cut may lose the last commits). `unfinished_codes` and `load` give what a restarted
server replays.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

import msgspec


class SeatRow(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    kind: str
    name: str
    bot: str | None
    token: str | None
    ready: bool


class RoomRow(msgspec.Struct, frozen=True, kw_only=True):
    """A stored room with its seats and its whole log (for a replay after a restart)."""

    code: str
    game: str
    config: dict[str, Any]
    seed: int
    created: float
    phase: str
    pack: str | None
    seats: list[SeatRow]
    log: list[dict[str, Any]]
    clock: str | None = None
    """The turn clock as its last process saved it (JSON; `TurnClock.saved`)."""
    public: bool = False
    """Whether the host listed the room (`create`'s `public`, or `set_public` since)."""


Commit = asyncio.Future[None] | None
"""What a write returns: None once durable, or a future resolved when it is."""


class StaleEpoch(RuntimeError):
    """A write from a process that no longer owns the room (another claimed it since)."""


class MatchStore(Protocol):
    """What a server needs of its store (tests/net/test_net_store_contract.py: both pass).

    Writes are ordered per room: a later write of a room is never committed before an
    earlier one. `claim` makes this process the room's writer (a new, higher epoch);
    `load` and `unfinished_codes` read what another process may have written. Every
    read is asynchronous; a write returns at once with a `Commit` (SQLite's, already
    committed without waiting for the disk to sync; PostgreSQL's, a future)."""

    def add_room(
        self,
        code: str,
        game: str,
        config: dict[str, Any],
        seed: int,
        created: float,
        pack: str | None,
        public: bool = False,
    ) -> Commit: ...

    def set_phase(self, code: str, phase: str, result: dict[str, Any] | None = None) -> Commit: ...

    def set_seat(self, code: str, row: SeatRow) -> Commit: ...

    def append(self, code: str, idx: int, entry: bytes) -> Commit:
        """Keep log entry `idx` of room `code`: `entry` is one JSON object (an op)."""

    def set_clock(self, code: str, clock: str | None) -> Commit:
        """Keep the room's turn clock (JSON) for the process that rebuilds it."""

    def set_public(self, code: str, public: bool) -> Commit:
        """Keep whether the room is listed (a rebuilt room is listed as it was)."""

    def flush(self) -> list[str]:
        """Commit the writes that returned None and are not committed yet (the server
        calls it before any message leaves it, and at the end of each turn of its loop
        that wrote); the codes of the rooms whose writes the failed commit lost."""

    async def open(self) -> None: ...

    async def aclose(self) -> None: ...

    async def claim(self, code: str) -> int | None:
        """Take the room's writes over: its new epoch, or None when it is not stored or over."""

    def forget(self, code: str) -> None:
        """This process no longer writes `code` (it let the room go)."""

    async def load(self, code: str) -> RoomRow | None:
        """The stored room `code` in any phase (a finished one too), or None."""

    async def unfinished_codes(self) -> list[str]:
        """The codes of the rooms not over, oldest first."""

    async def room_of_token(self, token: str) -> str | None:
        """The code of the unfinished room whose seat holds `token`, or None."""

    async def log_length(self, code: str) -> int: ...

    async def prune(self, before: float, keep: set[str] | frozenset[str] = frozenset()) -> int:
        """Delete the finished rooms created before `before` (but those in `keep`), with
        their seats and logs; returns how many."""

    async def ping(self) -> bool:
        """Whether the store answers now."""
