"""A client's messages reach its room's owner from whichever process it connected to.

Any process serves any client (a plain load balancer in front). A message for a room
owned elsewhere goes to the owner as a frame over the presence, and the owner's answers
come back the same way to the client's process, which sends them on. Redirecting the
client instead would need every process to be reachable from the clients by its own
address, which a host behind one load-balanced address does not have; forwarding keeps
the one address. The client's process does the rate limiting; the owner runs the room
exactly as for its own connections (`RemotePeer`).

Failure: the client's process checks the owners of the rooms it forwards to every
`lease / 4` seconds; when one changed or is no longer alive (killed, or handed over),
it closes those clients with `CLOSE_MOVED` (1012), and they reconnect with their seat
tokens (`RemoteSession` does so by itself) and reach the new owner. A lookup that finds
a room leased by a process that is gone drops that lease and adopts the room at once. A
process whose summary expired is gone: its forwarded seats are let go as disconnected.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

import msgspec

from suite.net import protocol as P
from suite.net.backends.presence import Presence
from suite.net.cluster.frames import Frame, decode_frame, encode_frame
from suite.net.cluster.ownership import LeasedOwnership, reason
from suite.net.server.connection import Connection
from suite.net.server.room import Peer, Room

log = logging.getLogger("suite.net")


class MessageHost(Protocol):
    """What routing needs of its server."""

    rooms: dict[str, Room]
    tokens: dict[str, Room]

    def handle(self, peer: Connection | RemotePeer, data: str | bytes) -> None:
        """Handle a frame for a room of this process (no rate limit, no routing)."""

    def receive(self, conn: Connection, data: str | bytes, *, limited: bool = True) -> None:
        """Handle a client's frame as it came (routed again when it must be)."""

    def create_here(self, conn: Connection, message: P.Create, code: str) -> bool:
        """Open the room `message` asks for with the code `code` (its lease taken);
        whether it was opened."""

    def enter(self, conn: Connection, room: Room | None) -> None:
        """The connection is in `room` now (None: in no room of this process)."""

    def refused(self, code: str) -> None:
        """Count a refusal."""

    def new_code(self) -> str:
        """A new room code (no room of this process has it)."""

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]: ...


class RemotePeer:
    """On the owner: a client connected to another process, as the rooms see it."""

    greeted = True
    """It said hello to the process it is connected to."""

    def __init__(
        self,
        router: ForwardingRouting,
        origin: str,
        cid: int,
        name: str,
        address: str,
        lean: bool = False,
    ):
        self.router, self.origin, self.cid = router, origin, cid
        self.name, self.address, self.lean = name, address, lean
        self.room: Room | None = None
        self.dropped = False
        self._held: asyncio.Future[None] | None = None
        self._queue: asyncio.Queue[tuple[bytes, asyncio.Future[None] | None]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    def hold(self, commit: asyncio.Future[None]) -> None:
        """Frames after this wait until `commit` is durable (sent in order)."""
        self._held = commit

    def send(self, data: bytes) -> None:
        if self.dropped:
            return
        frame = Frame(k="out", p=self.router.process, c=self.cid, d=data)
        self._put(encode_frame(frame), self._held)

    def _put(self, data: bytes, after: asyncio.Future[None] | None) -> None:
        """Frames of one peer go out in order, each after the commit it waits for; one
        peer waiting never holds up another's."""
        if after is not None and after.done():
            after = None
        self._queue.put_nowait((data, after))
        if self._writer is None:
            self._writer = self.router.host.spawn(self._write())

    async def _write(self) -> None:
        while True:
            data, after = await self._queue.get()
            if after is not None:
                try:
                    await asyncio.shield(after)
                except Exception:
                    continue  # the room is lost: its clients are closed instead
            try:
                await self.router.presence.send(self.origin, data)
            except Exception as exc:
                log.warning("presence: a frame was not sent (%s)", reason(exc))

    def left_room(self, room: Room) -> None:
        if self.room is room:
            self.room = None

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        self.router.host.refused(code)
        self.send(P.encode(P.Error(code=code, message=message, ref=ref)))

    def close_later(self, code: int, reason: str) -> None:
        """Have the client's process close the client (it reconnects); `code` is always
        `CLOSE_MOVED` there."""
        if not self.dropped:
            self.dropped = True
            frame = Frame(k="close", p=self.router.process, c=self.cid, d=reason.encode())
            self._put(encode_frame(frame), None)

    @property
    def flushed(self) -> bool:
        """Whether every frame queued for the client's process was sent."""
        return self._queue.empty()

    def stop(self) -> None:
        """Drop the peer; its writer ends once what it queued is sent."""
        self.dropped = True
        if self._writer is not None:
            self.router.host.spawn(_after_drained(self._queue, self._writer))


class ForwardingRouting:
    """A `suite.net.server.seams.Routing` for several processes (module docstring):
    `intercept` on the client's side, `frame` for what the other processes send, `check`
    every `lease / 4` seconds (`run`)."""

    def __init__(self, host: MessageHost, ownership: LeasedOwnership, presence: Presence) -> None:
        self.host, self.ownership, self.presence = host, ownership, presence
        self.process = presence.process
        self.remotes: dict[tuple[str, int], RemotePeer] = {}
        """Owner side: peers of clients connected elsewhere."""
        self.forwarded: dict[int, Connection] = {}
        """Client side: connections attached to a room owned elsewhere, by id."""
        self._ids = itertools.count(1)
        presence.on_frame = self.frame

    async def run(self) -> None:
        """Check the forwarded connections every `lease / 4` seconds (until cancelled)."""
        while True:
            await asyncio.sleep(self.ownership.lease / 4)
            try:
                await self.check()
            except Exception as exc:
                log.warning("forwarded clients not checked: %s", reason(exc))

    async def handover(self) -> None:
        """SIGTERM: close the clients forwarded here (they reconnect to the next owner),
        then wait (2 s at most) until their process has the close frames."""
        for peer in list(self.remotes.values()):
            peer.close_later(P.CLOSE_MOVED, "the server is shutting down: reconnect")
        for _ in range(40):
            if all(peer.flushed for peer in self.remotes.values()):
                break
            await asyncio.sleep(0.05)

    # -- the client's side -----------------------------------------------------------------

    def intercept(self, conn: Connection, m: P.ClientMessage, data: str | bytes) -> bool:
        """True when the message is not for a room of this process: forwarded, or queued
        while its room is looked up (the connection's messages keep their order)."""
        if conn.backlog is not None:
            conn.backlog.append(data)
            return True
        if isinstance(m, P.Create):
            self._detach(conn)
            conn.backlog = []
            self.host.spawn(self._create(conn, m))
            return True
        if isinstance(
            m, P.Hello | P.ListRooms | P.ReplayRequest | P.ReplayStepRequest | P.MapsRequest
        ):
            return False
        rooms = self.host.rooms
        movable = conn.follows and isinstance(m, P.Join | P.Spectate | P.Rejoin)
        if isinstance(m, P.Join | P.Spectate | P.PackRequest | P.BoardRequest | P.OddsRequest):
            code = m.code.strip().upper()
            if code in rooms:
                if isinstance(m, P.Join | P.Spectate):
                    self._detach(conn)
                return False
            self._route(conn, data, movable, code=code)
            return True
        token = P.token_of(m)
        if token and token in self.host.tokens:
            if isinstance(m, P.Rejoin):
                self._detach(conn)
            return False
        if isinstance(m, P.Rejoin):
            self._route(conn, data, movable, token=m.token)
            return True
        if conn.remote is not None:
            self._forward(conn, data)
            return True
        if token:
            self._route(conn, data, False, token=token)
            return True
        return False

    async def _create(self, conn: Connection, m: P.Create) -> None:
        """A new room runs where its creator connected, under a lease taken first."""
        code = await self.ownership.new_lease(self.host.new_code)
        backlog, conn.backlog = conn.backlog or [], None
        if conn.dropped:
            if code is not None:
                self.ownership.released(code)
            return
        if code is None:
            conn.error("server_error", "the server cannot open a room now; try again")
        elif not self.host.create_here(conn, m, code):
            self.ownership.released(code)  # refused (caps, config): no room, no lease
        for later in backlog:
            self.host.receive(conn, later, limited=False)

    def misrouted(self, peer: Peer, m: P.ClientMessage) -> bool:
        """A message forwarded here for a room this process does not run (it lost or
        handed the room over after the client's process looked the owner up): the
        client is closed to reconnect and find the owner, instead of being refused."""
        if not isinstance(peer, RemotePeer):
            return False
        if isinstance(m, P.Join | P.Spectate):
            missing = m.code.strip().upper() not in self.host.rooms
        elif isinstance(m, P.Rejoin):
            missing = m.token not in self.host.tokens
        else:
            return False
        if missing:
            peer.close_later(P.CLOSE_MOVED, "the room is not here: reconnect")
        return missing

    def _route(self, conn: Connection, data: str | bytes, movable: bool, **where: str) -> None:
        conn.backlog = []
        self.host.spawn(self._routed(conn, data, movable, **where))

    async def _routed(
        self,
        conn: Connection,
        data: str | bytes,
        movable: bool,
        code: str | None = None,
        token: str | None = None,
    ) -> None:
        """Find the room's owner, then send the client there (`movable`: a join, rejoin
        or spectate of a client that follows, to an owner it can reach), forward the
        message to it, or handle it here; then what came meanwhile, in order."""
        owner: str | None = None
        try:
            if code is None and token is not None:
                code = await self.ownership.store.room_of_token(token)
            if code is not None and code not in self.host.rooms:
                owner = await self._owner(code)
            if owner is not None and movable:
                await self.ownership.learn(owner)
        except Exception as exc:
            log.warning("could not find the owner of a room: %s", reason(exc))
            owner = None
        backlog, conn.backlog = conn.backlog or [], None
        if conn.dropped:
            return
        url = self.ownership.url_of(owner) if owner is not None and movable else ""
        if url and owner != self.process and code is not None:
            self._detach(conn)
            conn.send(P.encode(P.Moved(code=code, url=url)))
        elif owner is not None and owner != self.process and code is not None:
            if conn.remote != (owner, code):
                self._detach(conn)
                self._attach(conn, owner, code)
            self._forward(conn, data)
        else:
            if code is not None and code in self.host.rooms:
                self._detach(conn)
            self.host.handle(conn, data)
        for later in backlog:
            self.host.receive(conn, later, limited=False)

    async def _owner(self, code: str) -> str | None:
        """The room's owner, adopting it first when nobody holds it (or a process that
        is gone does)."""
        for _ in range(3):
            owner = (await self.presence.owners([code]))[code]
            if owner is not None and await self.ownership.dead({owner}):
                await self.presence.expire(owner, [code])
                owner = None
            if owner is not None and (owner != self.process or code in self.host.rooms):
                return owner
            if await self.ownership.adopt(code):
                return self.process
        return None

    def _attach(self, conn: Connection, owner: str, code: str) -> None:
        if conn.cid == 0:
            conn.cid = next(self._ids)
        self.host.enter(conn, None)
        conn.remote = (owner, code)
        self.forwarded[conn.cid] = conn
        opened = Frame(
            k="open", p=self.process, c=conn.cid, n=conn.name, a=conn.address, lean=conn.lean
        )
        self._to(owner, opened)

    def _forward(self, conn: Connection, data: str | bytes) -> None:
        assert conn.remote is not None
        raw = data.encode("utf-8") if isinstance(data, str) else data
        self._to(conn.remote[0], Frame(k="in", p=self.process, c=conn.cid, d=raw))

    def _to(self, process: str, frame: Frame) -> None:
        """Send `frame` to `process` (frames keep their order)."""
        data = encode_frame(frame)
        self.ownership.chore(lambda: self.presence.send(process, data))

    def _detach(self, conn: Connection) -> None:
        """The connection leaves the room it was forwarded to (it goes elsewhere, or is gone)."""
        if conn.remote is None:
            return
        owner, _ = conn.remote
        conn.remote = None
        self.forwarded.pop(conn.cid, None)
        self._to(owner, Frame(k="bye", p=self.process, c=conn.cid))

    def gone(self, conn: Connection) -> None:
        """The client's connection closed."""
        self._detach(conn)

    async def check(self) -> None:
        """Close the clients whose room's owner changed (they reconnect and follow it);
        let go of the peers of processes that are gone."""
        alive = set(self.ownership.others) | {self.process}
        for key, peer in list(self.remotes.items()):
            if key[0] not in alive:
                self._drop_remote(peer)
        conns = [c for c in self.forwarded.values() if c.remote is not None]
        if not conns:
            return
        owners = await self.presence.owners(sorted({c.remote[1] for c in conns if c.remote}))
        dead = await self.ownership.dead({c.remote[0] for c in conns if c.remote})
        for conn in conns:
            assert conn.remote is not None
            owner, code = conn.remote
            if owners.get(code) != owner or owner in dead:
                self._moved(conn, f"room {code} moved")

    def _moved(self, conn: Connection, why: str) -> None:
        conn.remote = None
        self.forwarded.pop(conn.cid, None)
        conn.close_later(P.CLOSE_MOVED, why + ": reconnect")

    # -- frames --------------------------------------------------------------------------------

    def frame(self, data: bytes) -> None:
        try:
            f = decode_frame(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            log.warning("a malformed frame from another process was dropped")
            return
        if f.p == self.process and f.k != "out":
            return
        if f.k == "adopt":
            if not self.ownership.closing:
                self.host.spawn(self.ownership.sweep())
        elif f.k == "open":
            old = self.remotes.pop((f.p, f.c), None)
            if old is not None:
                self._drop_remote(old)
            self.remotes[(f.p, f.c)] = RemotePeer(self, f.p, f.c, f.n, f.a, f.lean)
        elif f.k == "in":
            peer = self.remotes.get((f.p, f.c))
            if peer is None:
                self._to(f.p, Frame(k="close", p=self.process, c=f.c, d=b"not attached"))
                return
            if self.ownership.closing:
                return
            self.host.handle(peer, f.d)
        elif f.k == "bye":
            peer = self.remotes.pop((f.p, f.c), None)
            if peer is not None:
                self._drop_remote(peer)
        elif f.k == "out":
            conn = self.forwarded.get(f.c)
            if conn is not None:
                conn.send(f.d)
        elif f.k == "close":
            conn = self.forwarded.get(f.c)
            if conn is not None:
                self._moved(conn, f.d.decode("utf-8", "replace") or "the room moved")

    def _drop_remote(self, peer: RemotePeer) -> None:
        self.remotes.pop((peer.origin, peer.cid), None)
        peer.stop()
        if peer.room is not None:
            peer.room.disconnected(peer)
            peer.room = None


async def _after_drained(queue: asyncio.Queue[Any], writer: asyncio.Task[None]) -> None:
    """Cancel `writer` once its queue is empty (or after 5 s)."""
    for _ in range(100):
        if queue.empty():
            break
        await asyncio.sleep(0.05)
    writer.cancel()
