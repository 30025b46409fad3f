"""Several server processes on one PostgreSQL store and one Redis presence.

Each room runs on one process, its owner, which holds the room's lease in the presence
and writes the store with the epoch it claimed (`MatchStore.claim`). The pieces:

- Adoption: every `lease_seconds / 4` a process lists the unfinished rooms of the store
  and the owners of their leases; it adopts each room nobody holds (takes the lease,
  claims the epoch, rebuilds the room from its log: clocks and server bots carry on).
  A room whose lease is another's, or lost, is dropped at once (its clients reconnect).
- Forwarding: any process serves any client (a plain load balancer in front). A message
  for a room owned elsewhere goes to the owner as a frame over the presence (Redis
  pub/sub) and the owner's answers come back the same way to the client's process,
  which sends them on. Redirecting the client instead would need every process to be
  reachable from the clients by its own address, which a host behind one load-balanced
  address does not have; forwarding keeps the one address. The client's process does
  the rate limiting; the owner runs the room exactly as for its own connections.
- Failure: the client's process checks the owners of the rooms it forwards to every
  tick; when one changed (its process died and the lease ran out, or it handed over),
  it closes those clients with 1012, and they reconnect with their seat tokens
  (`RemoteSession` does so by itself) and reach the new owner. A process whose summary
  expired is gone: its forwarded seats are let go as disconnected.
- Hand-over (SIGTERM): the process stops taking messages, lets its writes commit,
  releases every lease and tells the others to adopt at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import msgspec

from suite.net import protocol as P
from suite.net.presence import Presence, Summary
from suite.net.room import Room
from suite.net.store import MatchStore

if TYPE_CHECKING:
    from suite.net.server import Connection, MatchServer

log = logging.getLogger("suite.net")

MOVED = 1012
"""Close code telling a client its room moved (service restart): reconnect and rejoin."""


class Frame(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One message between processes. Kinds: `open` (a client's process attaches a
    connection to the owner), `in` (a client message for the owner), `bye` (the client
    left or dropped), `out` (a server message for the client), `close` (the owner let
    the client go: close it so it reconnects), `adopt` (a process handed its rooms over:
    adopt now)."""

    k: str
    p: str
    c: int = 0
    d: str = ""
    n: str = ""
    a: str = ""


_frames = msgspec.json.Decoder(Frame)
_encode = msgspec.json.Encoder().encode


class RemotePeer:
    """On the owner: a client connected to another process, as the rooms see it."""

    def __init__(self, cluster: Cluster, origin: str, cid: int, name: str, address: str):
        from suite.net.server import RateLimit

        self.cluster, self.origin, self.cid = cluster, origin, cid
        self.name, self.address = name, address
        self.greeted = True
        self.pack: P.PackRef | None = None
        self.room: Room | None = None
        self.limit = RateLimit(1e12, 1e12, time.monotonic)  # limited where it connected
        self.dropped = False
        self.strikes = 0
        self._held: asyncio.Future[None] | None = None
        self._queue: asyncio.Queue[tuple[bytes, asyncio.Future[None] | None]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    def hold(self, commit: asyncio.Future[None]) -> None:
        """Frames after this wait until `commit` is durable (sent in order)."""
        self._held = commit

    def send(self, data: bytes) -> None:
        if self.dropped:
            return
        frame = Frame(k="out", p=self.cluster.process, c=self.cid, d=data.decode("utf-8"))
        self._put(_encode(frame), self._held)

    def _put(self, data: bytes, after: asyncio.Future[None] | None) -> None:
        """Frames of one peer go out in order, each after the commit it waits for; one
        peer waiting never holds up another's."""
        if after is not None and after.done():
            after = None
        self._queue.put_nowait((data, after))
        if self._writer is None:
            self._writer = self.cluster.server.spawn(self._write())

    async def _write(self) -> None:
        while True:
            data, after = await self._queue.get()
            if after is not None:
                try:
                    await asyncio.shield(after)
                except Exception:
                    continue  # the room is lost: its clients are closed instead
            try:
                await self.cluster.presence.send(self.origin, data)
            except Exception as exc:
                log.warning("presence: a frame was not sent (%s)", exc)

    def left_room(self, room: Room) -> None:
        if self.room is room:
            self.room = None

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        self.cluster.server.metrics.refusals.labels(code).inc()
        self.send(P.encode(P.Error(code=code, message=message, ref=ref)))

    def close_later(self, code: int, reason: str) -> None:
        if not self.dropped:
            self.dropped = True
            frame = Frame(k="close", p=self.cluster.process, c=self.cid, d=reason)
            self._put(_encode(frame), None)

    def stop(self) -> None:
        """Drop the peer; its writer ends once what it queued is sent."""
        self.dropped = True
        if self._writer is not None:
            writer = self._writer
            self.cluster.server.spawn(_after_drained(self._queue, writer))


class Cluster:
    """The cluster side of a `MatchServer` (see the module docstring)."""

    def __init__(self, server: MatchServer, store: MatchStore, presence: Presence) -> None:
        self.server, self.store, self.presence = server, store, presence
        self.process = presence.process
        self.lease = server.settings.lease_seconds
        self.remotes: dict[tuple[str, int], RemotePeer] = {}
        """Owner side: peers of clients connected elsewhere."""
        self.forwarded: dict[int, Connection] = {}
        """Client side: connections attached to a room owned elsewhere, by id."""
        self.adopting: dict[str, asyncio.Future[bool]] = {}
        self.others: dict[str, Summary] = {}
        self.healthy = {"store": True, "presence": True}
        self._ids = itertools.count(1)
        self._chores: asyncio.Queue[Callable[[], Coroutine[Any, Any, Any]]] = asyncio.Queue()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        self._owning: list[asyncio.Task[Any]] = []
        presence.on_frame = self.frame

    # -- life cycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        await self.store.open()
        await self.presence.open()
        await self._publish()
        await self.sweep()
        self._spawn(self._chore_loop())
        self._spawn(self._health_loop())
        self._owning = [self._spawn(self._renew_loop()), self._spawn(self._sweep_loop())]

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def handover(self) -> None:
        """SIGTERM: let pending writes commit, release every lease, tell the others."""
        self._closing = True
        for task in self._owning:  # no lease is renewed or taken from now on
            task.cancel()
        for peer in list(self.remotes.values()):
            peer.close_later(MOVED, "the server is shutting down: reconnect")
        codes = list(self.server.rooms)
        for room in self.server.rooms.values():
            room.phase = "over"  # this process acts no more in it (the store keeps its phase)
        pending = [r.pending for r in self.server.rooms.values() if r.pending is not None]
        if pending:
            await asyncio.wait(pending, timeout=5)
        await self._drain_chores()
        for _ in range(40):  # the close frames to the clients' processes go out first
            if all(p._queue.empty() for p in self.remotes.values()):
                break
            await asyncio.sleep(0.05)
        with contextlib.suppress(Exception):
            await self.presence.release(codes)
            await self.presence.announce(_encode(Frame(k="adopt", p=self.process)))
        log.info("handed %d rooms over", len(codes))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.presence.aclose()
        await self.store.aclose()

    # -- chores: presence writes in order, off the message path ------------------------------

    def chore(self, make: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        self._chores.put_nowait(make)

    async def _chore_loop(self) -> None:
        while True:
            make = await self._chores.get()
            try:
                await make()
            except Exception as exc:
                log.warning("presence: %s", exc)
            finally:
                self._chores.task_done()

    async def _drain_chores(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._chores.join(), 5)

    def to(self, process: str, frame: Frame, after: asyncio.Future[None] | None = None) -> None:
        """Send `frame` to `process`, after `after` commits (frames keep their order)."""
        data = _encode(frame)

        async def go() -> None:
            if after is not None and not after.done():
                try:
                    await asyncio.shield(after)
                except Exception:
                    return  # the room is lost: its clients are closed instead
            await self.presence.send(process, data)

        self.chore(go)

    # -- ownership --------------------------------------------------------------------------

    def released(self, code: str) -> None:
        """A room this process no longer runs (forgotten once over, or lost)."""
        forget = getattr(self.store, "forget", None)
        if forget is not None:
            forget(code)
        self.chore(lambda: self.presence.release([code]))

    async def adopt(self, code: str) -> bool:
        """Take an unowned room over: lease, epoch, rebuild from the log. True when it runs
        here afterwards."""
        if code in self.server.rooms:
            return True
        running = self.adopting.get(code)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.adopting[code] = future
        try:
            adopted = await self._adopt(code)
        except Exception as exc:
            log.warning("could not adopt room %s: %s", code, exc)
            adopted = False
        finally:
            self.adopting.pop(code, None)
        future.set_result(adopted)
        return adopted

    async def _adopt(self, code: str) -> bool:
        if self._closing or not await self.presence.acquire(code, self.lease):
            return False
        epoch = await self.store.claim(code)
        row = await self.store.load(code) if epoch is not None else None
        if row is None or row.phase == "over":
            await self.presence.release([code])
            return False
        room = Room.restore(self.server, row, show_after=self.server.settings.show_after)
        self.server.rooms[code] = room
        self.server.metrics.takeovers.inc()
        room.event(f"adopted (epoch {epoch}, {room.state_id} logged ops)")
        return True

    async def sweep(self) -> None:
        """Adopt the unowned rooms; drop those whose lease is another's."""
        codes = await self.store.unfinished_codes()
        owners = await self.presence.owners(codes)
        free = [code for code, owner in owners.items() if owner is None]
        for code, owner in owners.items():
            room = self.server.rooms.get(code)
            if room is not None and owner is not None and owner != self.process:
                self.server.lost(room, f"its lease is held by {owner}")
        random.shuffle(free)
        for code in free:
            if self._closing:
                return
            await self.adopt(code)

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 4)
            try:
                await self.sweep()
                await self._check_forwarded()
            except Exception as exc:
                log.warning("adoption sweep failed: %s", exc)

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            codes = [c for c, r in self.server.rooms.items() if c not in self.adopting]
            try:
                kept = await self.presence.renew(codes, self.lease)
                await self._publish()
            except Exception as exc:
                # Nobody can take a lease while Redis is away; the store's epoch still
                # refuses a stale owner, so the rooms play on here meanwhile.
                log.warning("presence: leases not renewed (%s)", exc)
                continue
            self.server.metrics.lease_renewals.inc(len(kept))
            for code in codes:
                room = self.server.rooms.get(code)
                if code not in kept and room is not None:
                    self.server.lost(room, "its lease was lost")

    async def _publish(self) -> None:
        rooms = self.server.rooms.values()
        lobbies = Counter(r.opened_from for r in rooms if r.phase == "lobby")
        listed = [
            msgspec.to_builtins(entry) for entry in self.server.local_public_rooms(None).rooms
        ]
        summary = Summary(
            rooms=listed,
            live=sum(1 for r in rooms if r.phase != "over"),
            lobbies=dict(lobbies),
        )
        await self.presence.publish(summary, self.lease)
        self.others = await self.presence.others()
        alive = set(self.others) | {self.process}
        for key, peer in list(self.remotes.items()):
            if key[0] not in alive:
                self._drop_remote(peer)

    async def _health_loop(self) -> None:
        while True:
            self.healthy["store"] = await self.store.ping()
            self.healthy["presence"] = await self.presence.ping()
            await asyncio.sleep(1.0)

    # -- the client's side -----------------------------------------------------------------------

    def intercept(self, conn: Connection, m: P.ClientMessage, data: str | bytes) -> bool:
        """True when the message is not for a room of this process: forwarded, or queued
        while its room is looked up (the connection's messages keep their order)."""
        if conn.backlog is not None:
            conn.backlog.append(data)
            return True
        if isinstance(m, P.Create):
            self._detach(conn)
            conn.backlog = []
            self.server.spawn(self._create(conn, data))
            return True
        if isinstance(m, P.Hello | P.ListRooms | P.ReplayRequest):
            return False
        rooms = self.server.rooms
        if isinstance(m, P.Join | P.Spectate | P.PackRequest):
            code = m.code.strip().upper()
            if code in rooms:
                if not isinstance(m, P.PackRequest):
                    self._detach(conn)
                return False
            self._route(conn, data, code=code)
            return True
        token: str | None = getattr(m, "token", None)
        if token and token in self.server.tokens:
            if isinstance(m, P.Rejoin):
                self._detach(conn)
            return False
        if isinstance(m, P.Rejoin):
            self._route(conn, data, token=m.token)
            return True
        if conn.remote is not None:
            self._forward(conn, data)
            return True
        if token:
            self._route(conn, data, token=token)
            return True
        return False

    async def _create(self, conn: Connection, data: str | bytes) -> None:
        """A new room takes its lease before it is stored, so no other process can see
        it unowned and adopt it."""
        code = None
        try:
            for _ in range(5):
                candidate = self.server.new_code()
                if await self.presence.acquire(candidate, self.lease):
                    code = candidate
                    break
        except Exception as exc:
            log.warning("presence: no lease for a new room (%s)", exc)
        backlog, conn.backlog = conn.backlog or [], None
        if conn.dropped:
            if code is not None:
                self.chore(lambda: self.presence.release([code]))
            return
        if code is None:
            conn.error("server_error", "the server cannot open a room now; try again")
        else:
            self.server.reserved_code = code
            self.server.handle(conn, data)
            self.server.reserved_code = None
            if code not in self.server.rooms:  # refused (caps, config): no room, no lease
                self.chore(lambda: self.presence.release([code]))
        for later in backlog:
            self.server.receive(conn, later, limited=False)

    def misrouted(self, peer: Any, m: P.ClientMessage) -> bool:
        """A message forwarded here for a room this process does not run (it lost or
        handed the room over after the client's process looked the owner up): the
        client is closed to reconnect and find the owner, instead of being refused."""
        if not isinstance(peer, RemotePeer):
            return False
        if isinstance(m, P.Join | P.Spectate):
            missing = m.code.strip().upper() not in self.server.rooms
        elif isinstance(m, P.Rejoin):
            missing = m.token not in self.server.tokens
        else:
            return False
        if missing:
            peer.close_later(MOVED, "the room is not here: reconnect")
        return missing

    def _route(self, conn: Connection, data: str | bytes, **where: str) -> None:
        conn.backlog = []
        self.server.spawn(self._routed(conn, data, **where))

    async def _routed(
        self, conn: Connection, data: str | bytes, code: str | None = None, token: str | None = None
    ) -> None:
        owner: str | None = None
        try:
            if code is None and token is not None:
                code = await self.store.room_of_token(token)
            if code is not None and code not in self.server.rooms:
                owner = await self._owner(code)
        except Exception as exc:
            log.warning("could not find the owner of a room: %s", exc)
            owner = None
        backlog, conn.backlog = conn.backlog or [], None
        if conn.dropped:
            return
        if owner is not None and owner != self.process and code is not None:
            if conn.remote != (owner, code):
                self._detach(conn)
                self._attach(conn, owner, code)
            self._forward(conn, data)
        else:
            if code is not None and code in self.server.rooms:
                self._detach(conn)
            self.server.handle(conn, data)
        for later in backlog:
            self.server.receive(conn, later, limited=False)

    async def _owner(self, code: str) -> str | None:
        """The room's owner, adopting it first when nobody holds it."""
        for _ in range(3):
            owner = (await self.presence.owners([code]))[code]
            if owner is not None and (owner != self.process or code in self.server.rooms):
                return owner
            if await self.adopt(code):
                return self.process
        return None

    def _attach(self, conn: Connection, owner: str, code: str) -> None:
        if conn.cid == 0:
            conn.cid = next(self._ids)
        if conn.room is not None:
            self.server.leave_local(conn)
        conn.remote = (owner, code)
        self.forwarded[conn.cid] = conn
        opened = Frame(k="open", p=self.process, c=conn.cid, n=conn.name, a=conn.address)
        self.to(owner, opened)

    def _forward(self, conn: Connection, data: str | bytes) -> None:
        assert conn.remote is not None
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        self.to(conn.remote[0], Frame(k="in", p=self.process, c=conn.cid, d=text))

    def _detach(self, conn: Connection) -> None:
        """The connection leaves the room it was forwarded to (it goes elsewhere, or is gone)."""
        if conn.remote is None:
            return
        owner, _ = conn.remote
        conn.remote = None
        self.forwarded.pop(conn.cid, None)
        self.to(owner, Frame(k="bye", p=self.process, c=conn.cid))

    def gone(self, conn: Connection) -> None:
        """The client's connection closed."""
        self._detach(conn)

    async def _check_forwarded(self) -> None:
        """Close the clients whose room's owner changed (they reconnect and follow it)."""
        conns = [c for c in self.forwarded.values() if c.remote is not None]
        if not conns:
            return
        owners = await self.presence.owners(sorted({c.remote[1] for c in conns if c.remote}))
        for conn in conns:
            assert conn.remote is not None
            owner, code = conn.remote
            if owners.get(code) != owner:
                self._moved(conn, f"room {code} moved")

    def _moved(self, conn: Connection, why: str) -> None:
        conn.remote = None
        self.forwarded.pop(conn.cid, None)
        conn.close_later(MOVED, why + ": reconnect")

    # -- frames --------------------------------------------------------------------------------

    def frame(self, data: bytes) -> None:
        try:
            f = _frames.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            log.warning("a malformed frame from another process was dropped")
            return
        if f.p == self.process and f.k != "out":
            return
        if f.k == "adopt":
            if not self._closing:
                self.server.spawn(self.sweep())
        elif f.k == "open":
            old = self.remotes.pop((f.p, f.c), None)
            if old is not None:
                self._drop_remote(old)
            self.remotes[(f.p, f.c)] = RemotePeer(self, f.p, f.c, f.n, f.a)
        elif f.k == "in":
            peer = self.remotes.get((f.p, f.c))
            if peer is None:
                self.to(f.p, Frame(k="close", p=self.process, c=f.c, d="not attached"))
                return
            if self._closing:
                return
            self.server.handle(peer, f.d)
        elif f.k == "bye":
            peer = self.remotes.pop((f.p, f.c), None)
            if peer is not None:
                self._drop_remote(peer)
        elif f.k == "out":
            conn = self.forwarded.get(f.c)
            if conn is not None:
                conn.send(f.d.encode("utf-8"))
        elif f.k == "close":
            conn = self.forwarded.get(f.c)
            if conn is not None:
                self._moved(conn, f.d or "the room moved")

    def _drop_remote(self, peer: RemotePeer) -> None:
        self.remotes.pop((peer.origin, peer.cid), None)
        peer.stop()
        if peer.room is not None:
            peer.room.disconnected(peer)
            peer.room = None

    # -- what the others publish ------------------------------------------------------------------

    def remote_live(self) -> int:
        return sum(s.live for s in self.others.values())

    def remote_lobbies(self, address: str) -> int:
        return sum(s.lobbies.get(address, 0) for s in self.others.values())

    def remote_public(self) -> list[P.PublicRoom]:
        out = []
        for summary in self.others.values():
            for entry in summary.rooms:
                with contextlib.suppress(msgspec.ValidationError):
                    out.append(msgspec.convert(entry, type=P.PublicRoom))
        return out


async def _after_drained(queue: asyncio.Queue[Any], writer: asyncio.Task[None]) -> None:
    """Cancel `writer` once its queue is empty (or after 5 s)."""
    for _ in range(100):
        if queue.empty():
            break
        await asyncio.sleep(0.05)
    writer.cancel()
