"""The server's seams across processes: what it asks of room ownership and of message
routing, and the defaults for a process alone.

`MatchServer` is built with one `Ownership` and one `Routing` and calls only these
interfaces: the defaults here (`SoleOwnership`, `DirectRouting`) serve a process that
runs every room itself; `suite.net.cluster` has the implementations for several
processes on PostgreSQL and Redis. Nothing else in the server knows which it has.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Mapping
from typing import Any, Protocol

from suite.net import protocol as P
from suite.net.backends.store import MatchStore, RoomRow
from suite.net.server.connection import Connection
from suite.net.server.room import Peer, Room

log = logging.getLogger("suite.net")


class Host(Protocol):
    """What ownership needs of its server: the rooms it runs and how one is rebuilt."""

    rooms: dict[str, Room]

    def restore(self, row: RoomRow, why: str) -> Room:
        """Rebuild the stored room `row` and run it here."""

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]: ...


class Ownership(Protocol):
    """Which rooms this process runs, and what the other processes run."""

    process: str
    """This process's id."""

    @property
    def healthy(self) -> Mapping[str, bool]:
        """Whether each shared backend answers now (shown by /healthz)."""

    async def start(self) -> None:
        """Open the backends and take over the unfinished rooms nobody runs."""

    async def handover(self) -> None:
        """Shutting down: stop acting in every room, let their writes commit and let
        another process (or the next start) take them."""

    async def close(self) -> None:
        """Close the backends."""

    def reachable_at(self, url: str) -> None:
        """Clients can reach this process directly at `url` (the others may send them
        here)."""

    def released(self, code: str) -> None:
        """This process no longer runs `code` (forgotten once over, or never opened)."""

    def lost(self, code: str) -> None:
        """The room `code` was let go after a failed write: it is rebuilt from the store
        by whichever process takes it next."""

    def remote_live(self) -> int:
        """Rooms not over on the other processes."""

    def remote_lobbies(self, address: str) -> int:
        """Unstarted rooms `address` opened on the other processes."""

    def remote_public(self) -> list[P.PublicRoom]:
        """The other processes' public lobbies with a free seat."""


class Routing(Protocol):
    """Where a client's message goes: handled here, or forwarded to the process that
    runs its room."""

    def intercept(self, conn: Connection, m: P.ClientMessage, data: str | bytes) -> bool:
        """True when the message is not to be handled here now (forwarded, or held while
        its room is looked up); False to handle it here."""

    def misrouted(self, peer: Peer, m: P.ClientMessage) -> bool:
        """True when a forwarded message reached a process that does not run its room
        (the client was told to reconnect)."""

    def gone(self, conn: Connection) -> None:
        """The connection closed."""

    async def run(self) -> None:
        """The routing's own checks, until cancelled."""

    async def handover(self) -> None:
        """Shutting down: tell the clients forwarded here to reconnect."""


class SoleOwnership:
    """One process runs every room of its store: at start it rebuilds every unfinished
    room; a room lost after a failed write is rebuilt from the store at once."""

    process = "local"

    def __init__(self, host: Host, store: MatchStore) -> None:
        self.host, self.store = host, store
        self.healthy: dict[str, bool] = {}

    async def start(self) -> None:
        await self.store.open()
        for code in await self.store.unfinished_codes():
            await self._rebuild(code, "restarted")

    async def _rebuild(self, code: str, why: str) -> None:
        epoch = await self.store.claim(code)
        row = await self.store.load(code) if epoch is not None else None
        if row is None or row.phase == "over" or code in self.host.rooms:
            return
        try:
            self.host.restore(row, why)
        except Exception:
            log.exception("could not be rebuilt; left in the store", extra={"room": code})

    async def handover(self) -> None:
        rooms = list(self.host.rooms.values())
        for room in rooms:
            room.owned = False
        pending = [r.pending for r in rooms if r.pending is not None]
        if pending:
            await asyncio.wait(pending, timeout=5)

    async def close(self) -> None:
        await self.store.aclose()

    def reachable_at(self, url: str) -> None:
        """No other process sends clients here."""

    def released(self, code: str) -> None:
        self.store.forget(code)

    def lost(self, code: str) -> None:
        self.host.spawn(self._rebuild(code, "rebuilt after a failed write"))

    def remote_live(self) -> int:
        return 0

    def remote_lobbies(self, address: str) -> int:
        return 0

    def remote_public(self) -> list[P.PublicRoom]:
        return []


class DirectRouting:
    """Every room runs here: every message is handled here."""

    def intercept(self, conn: Connection, m: P.ClientMessage, data: str | bytes) -> bool:
        return False

    def misrouted(self, peer: Peer, m: P.ClientMessage) -> bool:
        return False

    def gone(self, conn: Connection) -> None:
        """Nothing to tell anyone."""

    async def run(self) -> None:
        """No checks to make."""

    async def handover(self) -> None:
        """No client is forwarded here."""
