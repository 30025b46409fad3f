"""`suite serve`: the authoritative match server on websockets (asyncio API).

`MatchServer` owns the rooms, the store and the clock; `Connection` is one client. Each
connection has a token-bucket rate limit and a bounded send queue drained by its own
writer task: a client whose queue fills up is dropped (its seat is held; it may rejoin),
so a slow client never stalls the others. Websocket pings keep connections alive.

Nothing a client sends is trusted: the server draws every seed itself (`draw_seed`, 128
bits), bounds each config before an engine sees it (`suite.net.configs`), caps unstarted
rooms per connection and per address and connections per address, and answers every bad
message with an `error` (nothing raises out of `receive`). ``GET /healthz`` answers
``ok``, ``GET /metrics`` gives Prometheus metrics. One server holds a data folder at a
time (`suite.net.datalock`). SIGTERM (or `stop()`) closes every connection within
`close_timeout` and the store cleanly. On start, old finished matches are pruned and
every unfinished room is rebuilt by replaying its log; its players rejoin with their
seat tokens.

With `store` (PostgreSQL) and `presence` (Redis) settings, several processes share the
rooms (`suite.net.cluster`): each room runs on the process holding its lease, messages
for it reach that process from any other, and a dead process's rooms are adopted.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import secrets
import signal
import ssl
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from concurrent.futures import ProcessPoolExecutor
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from suite.core.match import game_spec, registered_games
from suite.core.thinking import Decision, decide
from suite.net import logs
from suite.net import protocol as P
from suite.net.clock import Clock, SystemClock
from suite.net.configs import MapBook, OnlineConfigError, check_online_config
from suite.net.datalock import DataLock
from suite.net.metrics import Metrics
from suite.net.packs import PackServer
from suite.net.presence import LocalPresence, Presence
from suite.net.replays import Replays
from suite.net.room import BotJob, Refused, Room
from suite.net.settings import Settings
from suite.net.store import MatchStore, Store

log = logging.getLogger("suite.net")

SERVER_NAME = "warsuite-serve/1"
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
SEED_BITS = 128
"""Bits of every match's seed, drawn from `secrets`: too many to search."""
PRUNE_EVERY = 86400.0
"""Seconds between prunings of old finished matches."""

if TYPE_CHECKING:
    from suite.net.cluster import Cluster

__all__ = ["MatchServer", "Settings", "run"]


class RateLimit:
    """A token bucket: `rate` per second, holding at most `burst`."""

    def __init__(self, rate: float, burst: float, now: Callable[[], float]) -> None:
        self.rate, self.burst, self._now = rate, burst, now
        self.tokens = burst
        self.at = now()

    def allow(self) -> bool:
        now = self._now()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Connection:
    """One websocket client: a `Peer` for rooms, with its send queue and rate limit."""

    def __init__(self, server: MatchServer, ws: ServerConnection) -> None:
        self.server = server
        self.ws = ws
        self.address = peer_address(ws)
        self.name = "guest"
        self.greeted = False
        self.pack: P.PackRef | None = None
        self.room: Room | None = None
        self.queue: asyncio.Queue[bytes | asyncio.Future[None] | None] = asyncio.Queue(
            server.settings.send_queue
        )
        self.limit = RateLimit(
            server.settings.rate, server.settings.burst, asyncio.get_running_loop().time
        )
        self.dropped = False
        self.strikes = 0
        self.cid = 0
        """Its id in frames to other processes (0 until it is forwarded)."""
        self.remote: tuple[str, str] | None = None
        """(owner process, room code) when its room runs on another process."""
        self.backlog: list[str | bytes] | None = None
        """Messages that came while its room was being looked up (sent after, in order)."""
        self._held: asyncio.Future[None] | None = None

    def hold(self, commit: asyncio.Future[None]) -> None:
        """What is sent from now on waits until `commit` is durable (a failed commit
        closes the connection: the client rejoins and sees only what was committed)."""
        if commit is not self._held and not commit.done() and not self.dropped:
            self._held = commit
            try:
                self.queue.put_nowait(commit)
            except asyncio.QueueFull:
                self._too_slow()

    def send(self, data: bytes) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            self._too_slow()

    def _too_slow(self) -> None:
        self.dropped = True
        log.info("client %r dropped: too slow (send queue full)", self.name)
        self.server.forget(self)
        self.close_later(1013, "too slow: rejoin with your token")

    def close_later(self, code: int, reason: str) -> None:
        """Close the websocket with `code` (the client may reconnect)."""
        self.dropped = True
        asyncio.ensure_future(self.ws.close(code, reason))

    def left_room(self, room: Room) -> None:
        if self.room is room:
            self.room = None

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        self.server.metrics.refusals.labels(code).inc()
        self.send(P.encode(P.Error(code=code, message=message, ref=ref)))

    async def writer(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                data = await self.queue.get()
                if data is None:
                    return
                if isinstance(data, asyncio.Future):
                    try:
                        await asyncio.shield(data)
                    except Exception:
                        self.close_later(1012, "the room moved: rejoin with your token")
                        return
                    continue
                await self.ws.send(data, text=True)


def peer_address(ws: Any) -> str:
    """The client's IP address as the socket gives it ("?" when it cannot be known)."""
    remote = getattr(ws, "remote_address", None)
    if isinstance(remote, tuple) and remote:
        return str(remote[0])
    return "?"


class MatchServer:
    """The rooms, the store and the handlers. `start()` listens; `stop()` shuts down.

    `draw_seed` draws each new match's seed (128 bits from `secrets`); no client message
    can set it. Tests that need a known match replace it on the server object itself.
    """

    def __init__(self, settings: Settings, *, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        data = settings.data
        if data is None:
            from suite.paths import user_data_dir

            data = user_data_dir() / "server"
        self.data = Path(data)
        self.lock = DataLock(self.data)
        self.lock.acquire()
        try:
            self.store: MatchStore = open_store(settings, self.data)
        except Exception:
            self.lock.release()
            raise
        self.packs = PackServer(self.data / "packs")
        self.maps = MapBook(self.data / "maps")
        self.replays = Replays(self.store)
        self.bot_delay = settings.bot_delay
        self.draw_seed: Callable[[], int] = lambda: secrets.randbits(SEED_BITS)
        self.rooms: dict[str, Room] = {}
        self.tokens: dict[str, Room] = {}
        self.connections: set[Connection] = set()
        self.per_address: Counter[str] = Counter()
        self.metrics = Metrics(
            self._rooms_by_phase, lambda: len(self.connections), lambda: len(self.rooms)
        )
        self._server: Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._bot_pending: set[str] = set()
        self._thinkers: ProcessPoolExecutor | None = None
        self._stopped = asyncio.Event()
        self._pruned_at = float("-inf")
        self.reserved_code: str | None = None
        self.cluster: Cluster | None = None
        if settings.store is not None or settings.presence is not None:
            from suite.net.cluster import Cluster

            self.cluster = Cluster(self, self.store, open_presence(settings))

    def lost(self, room: Room, reason: str) -> None:
        """The room cannot go on here (its write failed, its lease is another's): drop it
        from memory and close its clients, who reconnect to its next owner."""
        if self.rooms.get(room.code) is not room:
            return
        log.warning("room lost: %s", reason, extra={"room": room.code})
        room.phase = "over"  # no bot, clock or message acts in it here any more
        self._forget_room(room)
        for peer in room.connected_peers():
            close = getattr(peer, "close_later", None)
            if close is not None:
                close(1012, "the room moved: rejoin with your token")

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        return self._spawn(coro)

    def _rooms_by_phase(self) -> Counter[str]:
        return Counter(room.phase for room in self.rooms.values())

    # -- hub for rooms --------------------------------------------------------------------

    def bind(self, token: str, room: Room) -> None:
        self.tokens[token] = room

    def unbind(self, token: str) -> None:
        self.tokens.pop(token, None)

    def bots_due(self, room: Room) -> None:
        if room.code in self._bot_pending:
            return
        self._bot_pending.add(room.code)
        loop = asyncio.get_running_loop()
        loop.call_later(self.bot_delay, self._run_bot, room)

    def _run_bot(self, room: Room) -> None:
        self._bot_pending.discard(room.code)
        try:
            job = room.bot_step()
        except Exception:
            log.exception("a bot could not act", extra={"room": room.code})
            return
        if job is not None:  # a search: made in a worker process, the room pending meanwhile
            self._bot_pending.add(room.code)
            self._spawn(self._think(room, job))

    async def _think(self, room: Room, job: BotJob) -> None:
        """Have a searching bot decide in the bot workers, then let its room play it."""
        decision: Decision | None = None
        try:
            loop = asyncio.get_running_loop()
            decision = await loop.run_in_executor(
                self._bot_workers(), decide, job.bot, job.view, job.legal, job.rng
            )
        except Exception:
            log.exception("a bot's worker failed", extra={"room": room.code})
        finally:
            self._bot_pending.discard(room.code)
        if self.rooms.get(room.code) is room:  # not handed over or forgotten meanwhile
            try:
                room.bot_decided(job, decision)
            except Exception:
                log.exception("a bot could not act", extra={"room": room.code})

    def _bot_workers(self) -> ProcessPoolExecutor:
        """The processes searching bots think in (`bot_workers` of them, started on first
        use): a search never holds up the event loop."""
        if self._thinkers is None:
            self._thinkers = ProcessPoolExecutor(
                self.settings.bot_workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._thinkers

    def accepted(self, game: str) -> None:
        """A room committed an action (counted in /metrics)."""
        self.metrics.actions.labels(game).inc()

    # -- life cycle ------------------------------------------------------------------------

    def restore(self) -> int:
        """Rebuild every unfinished stored room; returns how many."""
        for row in self.store.unfinished():
            try:
                room = Room.restore(self, row, show_after=self.settings.show_after)
            except Exception:
                log.exception("could not be rebuilt; left in the store", extra={"room": row.code})
                continue
            self.rooms[room.code] = room
            room.event(f"rebuilt from {room.state_id} logged ops")
        return len(self.rooms)

    async def start(self) -> None:
        """Listen (port 0 picks a free port, see `port`) and run the clock. A cluster
        server adopts the unowned rooms instead of rebuilding every stored one."""
        if self.cluster is not None:
            await self.cluster.start()
            self.prune()
        else:
            self.prune()
            self.restore()
        ssl_context = None
        if self.settings.cert is not None:
            ssl_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ssl_context.load_cert_chain(self.settings.cert, self.settings.key)
        self._server = await serve(
            self._handle,
            self.settings.host,
            self.settings.port,
            process_request=self._http,
            max_size=2 * P.MAX_MESSAGE,
            ping_interval=self.settings.ping_interval,
            ping_timeout=self.settings.ping_timeout,
            close_timeout=self.settings.close_timeout,
            compression=None,
            ssl=ssl_context,
            server_header=SERVER_NAME,
        )
        self._spawn(self._ticker())
        where = (
            self.data if self.cluster is None else f"a shared store, process {self.cluster.process}"
        )
        log.info("serving on %s:%d (data in %s)", self.settings.host, self.port, where)

    @property
    def port(self) -> int:
        assert self._server is not None
        sockets = list(self._server.sockets)
        return int(sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Close every connection (1001), stop the clock and close the store.

        Prompt even when a client never reads: each closing handshake may take
        `close_timeout`, then the remaining connections are cut."""
        if self._server is not None:
            self._server.close(close_connections=False)
            if self.cluster is not None:
                await self.cluster.handover()
            for conn in list(self.connections):
                conn.dropped = True
                with contextlib.suppress(asyncio.QueueFull):
                    conn.queue.put_nowait(None)
            closing = [
                asyncio.ensure_future(conn.ws.close(1001, "server shutting down"))
                for conn in list(self.connections)
            ]
            if closing:
                await asyncio.wait(closing, timeout=self.settings.close_timeout)
            for conn in list(self.connections):
                transport = getattr(conn.ws, "transport", None)
                if transport is not None:
                    transport.abort()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), self.settings.close_timeout)
        for task in list(self._tasks):
            task.cancel()
        if self._thinkers is not None:
            self._thinkers.shutdown(wait=False, cancel_futures=True)
        if self.cluster is not None:
            await self.cluster.close()
        else:
            self.store.close()
        self.lock.release()
        self._stopped.set()
        log.info("server stopped")

    async def serve_forever(self) -> None:
        """Run until SIGTERM/SIGINT, then shut down gracefully (the `suite serve` process).

        A server process makes many short-lived messages: it collects the young generation
        less often and keeps what exists once it listens (code, rules data, rebuilt rooms)
        out of collections. Fewer pauses keep the tail of the broadcast latency short.
        """
        await self.start()
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        log.info("shutting down")
        await self.stop()

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick)
            self.tick()

    def tick(self) -> None:
        """Check every room's clock now (tests call this after moving a manual clock);
        rooms over for `keep_over` seconds are forgotten (their record stays stored), and
        an unstarted lobby closes after `lobby_expiry`. Once a day, old matches are
        pruned from the store."""
        now = self.clock.now()
        for room in list(self.rooms.values()):
            if room.over_at is not None and now - room.over_at >= self.settings.keep_over:
                self._forget_room(room)
                continue
            try:
                room.expire(self.settings.keep_over, self.settings.lobby_expiry)
                room.tick()
            except Exception:
                log.exception("clock failed", extra={"room": room.code})
        if now - self._pruned_at >= PRUNE_EVERY:
            self.prune()

    def _forget_room(self, room: Room) -> None:
        del self.rooms[room.code]
        if self.cluster is not None:
            self.cluster.released(room.code)
        for seat in room.seats:
            if seat.token and self.tokens.get(seat.token) is room:
                del self.tokens[seat.token]
        room.event("forgotten")

    def prune(self) -> int:
        """Delete finished matches older than `keep_days` from the store; how many."""
        self._pruned_at = self.clock.now()
        if self.settings.keep_days <= 0:
            return 0
        cutoff = self.clock.now() - self.settings.keep_days * 86400
        gone = self.store.prune(cutoff, keep=set(self.rooms))
        if gone:
            self.metrics.pruned.inc(gone)
            log.info("pruned %d finished matches older than %g days", gone, self.settings.keep_days)
        return gone

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        if request.path == "/healthz":
            body = f"ok rooms={len(self.rooms)} connections={len(self.connections)}"
            if self.cluster is None:
                return connection.respond(HTTPStatus.OK, body + "\n")
            health = self.cluster.healthy
            parts = " ".join(f"{k}={'ok' if v else 'down'}" for k, v in health.items())
            if all(health.values()):
                return connection.respond(HTTPStatus.OK, f"{body} {parts}\n")
            return connection.respond(
                HTTPStatus.SERVICE_UNAVAILABLE, f"degraded {body.removeprefix('ok ')} {parts}\n"
            )
        if request.path == "/metrics":
            headers = Headers([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")])
            return Response(HTTPStatus.OK, "OK", headers, self.metrics.render())
        if request.headers.get("Upgrade", "").lower() != "websocket":
            return Response(
                HTTPStatus.NOT_FOUND, "Not Found", Headers(), b"not found: try /healthz\n"
            )
        address = peer_address(connection)
        if self.per_address[address] >= self.settings.max_connections_per_address:
            log.info("refused a connection from %s: too many from that address", address)
            self.metrics.refusals.labels("too_many_connections").inc()
            return Response(
                HTTPStatus.TOO_MANY_REQUESTS,
                "Too Many Requests",
                Headers(),
                b"too many connections from your address\n",
            )
        return None

    # -- connections ------------------------------------------------------------------------

    def forget(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.discard(conn)
            self.per_address[conn.address] -= 1
            if self.per_address[conn.address] <= 0:
                del self.per_address[conn.address]
            if conn.room is not None:
                conn.room.disconnected(conn)
                conn.room = None
            if self.cluster is not None:
                self.cluster.gone(conn)

    def leave_local(self, conn: Connection) -> None:
        """The connection goes to a room of another process: it leaves its room here."""
        if conn.room is not None:
            conn.room.disconnected(conn)
            conn.room = None

    async def _handle(self, ws: ServerConnection) -> None:
        conn = Connection(self, ws)
        self.connections.add(conn)
        self.per_address[conn.address] += 1
        writer = asyncio.ensure_future(conn.writer())
        try:
            async for data in ws:
                if conn.dropped:
                    continue  # keep reading until the closing handshake ends
                self.receive(conn, data)
        except ConnectionClosed:
            pass
        finally:
            self.forget(conn)
            conn.queue.put_nowait(None) if not conn.queue.full() else writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await writer

    def receive(self, conn: Connection, data: str | bytes, *, limited: bool = True) -> None:
        """Handle one incoming frame; refusals become `error` messages, nothing raises.
        `limited`: counted against the connection's rate limit (not when replayed)."""
        token = logs.client_address.set(getattr(conn, "address", "?"))
        try:
            self._receive(conn, data, limited)
        finally:
            logs.client_address.reset(token)

    def handle(self, conn: Any, data: str | bytes) -> None:
        """Handle a frame for a room of this process (from the cluster: no rate limit,
        no forwarding)."""
        token = logs.client_address.set(getattr(conn, "address", "?"))
        try:
            self._handle_message(conn, data, routed=True)
        finally:
            logs.client_address.reset(token)

    def _receive(self, conn: Connection, data: str | bytes, limited: bool = True) -> None:
        if limited and not conn.limit.allow():
            conn.strikes += 1
            if conn.strikes > 2 * self.settings.burst:
                log.info("client %r dropped: flooding", conn.name)
                self.forget(conn)
                conn.close_later(1008, "too many messages")
                return
            conn.error("rate_limited", f"at most {self.settings.rate:g} messages a second")
            return
        conn.strikes = 0
        self._handle_message(conn, data)

    def _handle_message(self, conn: Connection, data: str | bytes, routed: bool = False) -> None:
        started = time.perf_counter()
        try:
            message = P.decode_client(data, self.settings.max_message)
        except P.ProtocolError as exc:
            conn.error(exc.error.code, exc.error.message, exc.error.ref)
            return
        if self.cluster is not None:
            if routed:
                if self.cluster.misrouted(conn, message):
                    return
            elif self.cluster.intercept(conn, message, data):
                return
        try:
            self._dispatch(conn, message)
        except Refused as exc:
            conn.error(exc.code, exc.message, str(message.__struct_config__.tag))
            return
        except RecursionError:
            conn.error("bad_message", "that message nests too deeply")
            return
        except Exception:
            log.exception("internal error on a %s message", message.__struct_config__.tag)
            conn.error("server_error", "the server failed on that message")
            return
        if isinstance(message, P.Act):
            self.metrics.latency.observe(time.perf_counter() - started)

    def _dispatch(self, conn: Connection, m: P.ClientMessage) -> None:
        if isinstance(m, P.Hello):
            self._hello(conn, m)
            return
        if not conn.greeted:
            raise Refused("no_hello", "say hello first")
        if isinstance(m, P.Create):
            self._create(conn, m)
        elif isinstance(m, P.ListRooms):
            conn.send(P.encode(self._public_rooms(m.game)))
        elif isinstance(m, P.Join):
            room = self._room_by_code(m.code)
            self._leave_other(conn, room)
            room.join(conn, m.seat)
            conn.room = room
        elif isinstance(m, P.Rejoin):
            room = self._room_by_token(m.token)
            self._leave_other(conn, room)
            room.rejoin(conn, m.token, m.since)
            conn.room = room
        elif isinstance(m, P.Spectate):
            room = self._room_by_code(m.code)
            self._leave_other(conn, room)
            room.spectate(conn)
            conn.room = room
        elif isinstance(m, P.PackRequest):
            self._pack(conn, m)
        elif isinstance(m, P.ReplayRequest):
            conn.send(P.encode(self.replays.answer(m.code.strip().upper(), m.offset)))
        elif isinstance(m, P.Chat):
            self._current(conn, m.token).chat(conn, m.token, m.text)
        elif isinstance(m, P.Leave):
            self._current(conn, m.token).leave(conn, m.token)
        else:
            self._seat_message(conn, m)

    def _seat_message(self, conn: Connection, m: P.ClientMessage) -> None:
        token: str = getattr(m, "token", "")
        room = self._current(conn, token)
        if isinstance(m, P.Act):
            room.act(conn, token, m.state_id, m.action)
        elif isinstance(m, P.Ready | P.Unready):
            room.set_ready(conn, token, isinstance(m, P.Ready))
        elif isinstance(m, P.LegalRequest):
            room.legal_page(conn, token, m.state_id, m.page)
        elif isinstance(m, P.Poke):
            room.poke(conn, token)
        elif isinstance(m, P.RunNow):
            room.run_now(conn, token)
        elif isinstance(m, P.SeatBot):
            room.seat_bot(conn, token, m.seat, m.bot)
        elif isinstance(m, P.Kick):
            room.kick(conn, token, m.seat)
        elif isinstance(m, P.Pause):
            room.pause(conn, token)
        elif isinstance(m, P.Resume):
            room.resume(conn, token)
        elif isinstance(m, P.End):
            room.end(conn, token)

    def _leave_other(self, conn: Connection, room: Room) -> None:
        """A connection is in one room at a time: entering `room` leaves the previous one."""
        if conn.room is not None and conn.room is not room:
            conn.room.disconnected(conn)
            conn.room = None

    def _hello(self, conn: Connection, m: P.Hello) -> None:
        if m.protocol != P.PROTOCOL_VERSION:
            raise Refused(
                "protocol",
                f"this server speaks protocol {P.PROTOCOL_VERSION}, not {m.protocol}",
            )
        name = m.name.strip()
        if not name or len(name) > P.MAX_NAME or not name.isprintable():
            raise Refused("bad_name", f"a name is 1 to {P.MAX_NAME} printable characters")
        conn.name, conn.greeted, conn.pack = name, True, m.tactics_pack
        games = tuple(
            P.GameInfo(
                name=spec.name,
                title=spec.title,
                players=spec.players,
                bots=tuple(sorted({"random", *spec.bots})),
            )
            for spec in sorted(registered_games().values(), key=lambda s: s.name)
        )
        conn.send(P.encode(P.Welcome(protocol=P.PROTOCOL_VERSION, server=SERVER_NAME, games=games)))

    def _check_caps(self, conn: Connection) -> None:
        """Refused when the server, this connection or its address has too many lobbies."""
        live = sum(1 for r in self.rooms.values() if r.phase != "over")
        if self.cluster is not None:
            live += self.cluster.remote_live()
        if live >= self.settings.max_rooms:
            raise Refused("too_many_rooms", f"this server holds at most {self.settings.max_rooms}")
        lobbies = [r for r in self.rooms.values() if r.phase == "lobby"]
        mine = sum(1 for r in lobbies if r.opened_by is conn)
        if mine >= self.settings.max_lobbies_per_connection:
            raise Refused(
                "too_many_lobbies",
                f"you may have at most {self.settings.max_lobbies_per_connection} unstarted "
                "rooms open: start or leave one first",
            )
        ours = sum(1 for r in lobbies if r.opened_from == conn.address)
        if self.cluster is not None:
            ours += self.cluster.remote_lobbies(conn.address)
        if ours >= self.settings.max_lobbies_per_address:
            raise Refused(
                "too_many_lobbies",
                f"your address may have at most {self.settings.max_lobbies_per_address} "
                "unstarted rooms open",
            )

    def _create(self, conn: Connection, m: P.Create) -> None:
        self._check_caps(conn)
        config = dict(m.config)
        spec_players = game_players(m.game)
        try:
            check_online_config(m.game, config, spec_players, self.maps)
        except OnlineConfigError as exc:
            raise Refused("bad_config", str(exc)) from None
        code = self.new_code()
        pack = None
        if m.game == "tactics":
            pack, config = self.packs.host_pack(config)
        room = Room.create(
            self,
            code,
            m.game,
            config,
            self.draw_seed(),
            show_after=self.settings.show_after,
            pack=pack,
        )
        room.opened_by, room.opened_from, room.public = conn, conn.address, m.public
        self.rooms[code] = room
        self.metrics.rooms_created.inc()
        room.event(f"created by {conn.name!r}" + (" (public)" if m.public else ""))
        self._leave_other(conn, room)
        room.join(conn, 0)
        conn.room = room

    def _public_rooms(self, game: str | None) -> P.RoomList:
        """The public lobbies with a free seat, newest first (of every process)."""
        local = self.local_public_rooms(game)
        if self.cluster is None:
            return local
        others = [r for r in self.cluster.remote_public() if game is None or r.game == game]
        listed = (list(local.rooms) + others)[: P.MAX_PUBLIC_ROOMS]
        return P.RoomList(rooms=tuple(listed))

    def local_public_rooms(self, game: str | None) -> P.RoomList:
        """This process's public lobbies with a free seat, newest first."""
        rooms = sorted(
            (
                r
                for r in self.rooms.values()
                if r.public and r.phase == "lobby" and (game is None or r.game == game)
            ),
            key=lambda r: r.created_at,
            reverse=True,
        )
        listed = []
        for room in rooms:
            free = sum(1 for s in room.seats if s.kind == "open")
            if free:
                listed.append(room.public_entry(free))
            if len(listed) >= P.MAX_PUBLIC_ROOMS:
                break
        return P.RoomList(rooms=tuple(listed))

    def new_code(self) -> str:
        """A room code no room of this process has (`reserved_code` when one is set: a
        cluster process takes a new room's lease before it opens the room)."""
        if self.reserved_code is not None:
            return self.reserved_code
        return self._new_code()

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            if code not in self.rooms:
                return code

    def _room_by_code(self, code: str) -> Room:
        room = self.rooms.get(code.strip().upper())
        if room is None:
            raise Refused("no_room", f"no room {code[:16]!r} on this server")
        return room

    def _room_by_token(self, token: str) -> Room:
        room = self.tokens.get(token)
        if room is None:
            raise Refused("bad_token", "no seat holds that token")
        return room

    def _current(self, conn: Connection, token: str | None) -> Room:
        if token:
            return self._room_by_token(token)
        if conn.room is None:
            raise Refused("no_room", "you are not in a room")
        return conn.room

    def _pack(self, conn: Connection, m: P.PackRequest) -> None:
        room = self._room_by_code(m.code)
        if room.pack is None:
            raise Refused("no_pack", "this room has no Tactics pack")
        conn.send(P.encode(self.packs.answer(room.code, room.pack, m.path, m.offset)))


def game_players(game: str) -> tuple[int, int]:
    """The seat range of `game` (Refused when the server has no such game)."""
    try:
        return game_spec(game).players
    except KeyError:
        known = ", ".join(sorted(registered_games()))
        raise Refused("unknown_game", f"no game {game[:32]!r} here (games: {known})") from None


def open_store(settings: Settings, data: Path) -> MatchStore:
    """The store `settings.store` names: PostgreSQL for a postgresql:// URL, else the
    SQLite file in the data folder."""
    if settings.store is None:
        return Store(data / "matches.sqlite3")
    from suite.net.pgstore import PgStore

    return PgStore(settings.store)


def open_presence(settings: Settings) -> Presence:
    """Redis for a redis:// URL, else the in-process presence."""
    if settings.presence is None:
        return LocalPresence()
    from suite.net.presence import RedisPresence

    return RedisPresence(settings.presence)


def run(settings: Settings) -> int:
    """Run a server until SIGTERM (the `suite serve` command)."""
    logs.configure(settings.log_level, settings.log)
    asyncio.run(MatchServer(settings).serve_forever())
    return 0
