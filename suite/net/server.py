"""`suite serve`: the authoritative match server on websockets (asyncio API).

`MatchServer` owns the rooms, the store and the clock; `Connection` is one client. Each
connection has a token-bucket rate limit and a bounded send queue drained by its own
writer task: a client whose queue fills up is dropped (its seat is held; it may rejoin),
so a slow client never stalls the others. Websocket pings keep connections alive.
``GET /healthz`` answers ``ok`` without a websocket. SIGTERM (or `stop()`) closes every
connection and the store cleanly. On start, every unfinished room in the store is rebuilt
by replaying its log, and its players rejoin with their seat tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import signal
import ssl
from collections.abc import Callable, Coroutine
from http import HTTPStatus
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from suite.core.match import registered_games
from suite.net import protocol as P
from suite.net.clock import Clock, SystemClock
from suite.net.packs import PackServer
from suite.net.replays import Replays
from suite.net.room import Refused, Room
from suite.net.store import Store

log = logging.getLogger("suite.net")

SERVER_NAME = "warsuite-serve/1"
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class Settings(msgspec.Struct, kw_only=True):
    """Server settings (each has a `suite serve` flag).

    `rate`/`burst`: messages per second a connection may send on average / at once (each
    message over the limit is refused with `rate_limited`; a connection that keeps
    sending past twice the burst in refusals is closed with 1008);
    `send_queue`: messages queued for a client before it counts as too slow;
    `show_after`: seconds before the waiting timer shows (the Tactics manual's 10 s);
    `bot_delay`: seconds a server bot waits before acting (0 in tests and benchmarks);
    `tick`: seconds between clock checks; `keep_over`: seconds a finished room stays
    (for its last messages and spectators) before the server forgets it, and that a lobby
    may stay with nobody connected before it is closed.
    """

    host: str = "127.0.0.1"
    port: int = 8765
    data: Path | None = None
    max_rooms: int = 200
    rate: float = 40.0
    burst: float = 80.0
    send_queue: int = 512
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    bot_delay: float = 0.4
    tick: float = 0.5
    show_after: float = 10.0
    keep_over: float = 600.0
    cert: Path | None = None
    key: Path | None = None


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
        self.name = "guest"
        self.greeted = False
        self.pack: P.PackRef | None = None
        self.room: Room | None = None
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(server.settings.send_queue)
        self.limit = RateLimit(
            server.settings.rate, server.settings.burst, asyncio.get_running_loop().time
        )
        self.dropped = False
        self.strikes = 0

    def send(self, data: bytes) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            self.dropped = True
            log.info("client %r dropped: too slow (send queue full)", self.name)
            self.server.forget(self)
            asyncio.ensure_future(self.ws.close(1013, "too slow: rejoin with your token"))

    def left_room(self, room: Room) -> None:
        if self.room is room:
            self.room = None

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        self.send(P.encode(P.Error(code=code, message=message, ref=ref)))

    async def writer(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                data = await self.queue.get()
                if data is None:
                    return
                await self.ws.send(data, text=True)


class MatchServer:
    """The rooms, the store and the handlers. `start()` listens; `stop()` shuts down."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        data = settings.data
        if data is None:
            from suite.paths import user_data_dir

            data = user_data_dir() / "server"
        self.data = Path(data)
        self.store = Store(self.data / "matches.sqlite3")
        self.packs = PackServer(self.data / "packs")
        self.replays = Replays(self.store)
        self.bot_delay = settings.bot_delay
        self.rooms: dict[str, Room] = {}
        self.tokens: dict[str, Room] = {}
        self.connections: set[Connection] = set()
        self._server: Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._bot_pending: set[str] = set()
        self._stopped = asyncio.Event()

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
            room.bot_step()
        except Exception:
            log.exception("room %s: a bot could not act", room.code)

    # -- life cycle ------------------------------------------------------------------------

    def restore(self) -> int:
        """Rebuild every unfinished stored room; returns how many."""
        for row in self.store.unfinished():
            try:
                room = Room.restore(self, row, show_after=self.settings.show_after)
            except Exception:
                log.exception("room %s could not be rebuilt; left in the store", row.code)
                continue
            self.rooms[room.code] = room
            room.event(f"rebuilt from {room.state_id} logged ops")
        return len(self.rooms)

    async def start(self) -> None:
        """Listen (port 0 picks a free port, see `port`) and run the clock."""
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
            compression=None,
            ssl=ssl_context,
            server_header=SERVER_NAME,
        )
        self._spawn(self._ticker())
        log.info("serving on %s:%d (data in %s)", self.settings.host, self.port, self.data)

    @property
    def port(self) -> int:
        assert self._server is not None
        sockets = list(self._server.sockets)
        return int(sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Close every connection (1001), stop the clock and close the store."""
        if self._server is not None:
            self._server.close(close_connections=True)
            await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()
        self.store.close()
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
        rooms over for `keep_over` seconds are forgotten (their record stays stored)."""
        now = self.clock.now()
        for room in list(self.rooms.values()):
            if room.over_at is not None and now - room.over_at >= self.settings.keep_over:
                del self.rooms[room.code]
                room.event("forgotten")
                continue
            try:
                room.expire(self.settings.keep_over)
                room.tick()
            except Exception:
                log.exception("room %s: clock failed", room.code)

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        if request.path == "/healthz":
            body = f"ok rooms={len(self.rooms)} connections={len(self.connections)}\n"
            return connection.respond(HTTPStatus.OK, body)
        if request.headers.get("Upgrade", "").lower() != "websocket":
            return Response(
                HTTPStatus.NOT_FOUND, "Not Found", Headers(), b"not found: try /healthz\n"
            )
        return None

    # -- connections ------------------------------------------------------------------------

    def forget(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.discard(conn)
            if conn.room is not None:
                conn.room.disconnected(conn)
                conn.room = None

    async def _handle(self, ws: ServerConnection) -> None:
        conn = Connection(self, ws)
        self.connections.add(conn)
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

    def receive(self, conn: Connection, data: str | bytes) -> None:
        """Handle one incoming frame; refusals become `error` messages, nothing raises."""
        if not conn.limit.allow():
            conn.strikes += 1
            if conn.strikes > 2 * self.settings.burst:
                log.info("client %r dropped: flooding", conn.name)
                self.forget(conn)
                conn.dropped = True
                asyncio.ensure_future(conn.ws.close(1008, "too many messages"))
                return
            conn.error("rate_limited", f"at most {self.settings.rate:g} messages a second")
            return
        conn.strikes = 0
        try:
            message = P.decode_client(data)
        except P.ProtocolError as exc:
            conn.send(P.encode(exc.error))
            return
        try:
            self._dispatch(conn, message)
        except Refused as exc:
            conn.error(exc.code, exc.message, str(message.__struct_config__.tag))
        except Exception:
            log.exception("internal error on %r", message)
            conn.error("server_error", "the server failed on that message")

    def _dispatch(self, conn: Connection, m: P.ClientMessage) -> None:
        if isinstance(m, P.Hello):
            self._hello(conn, m)
            return
        if not conn.greeted:
            raise Refused("no_hello", "say hello first")
        if isinstance(m, P.Create):
            self._create(conn, m)
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

    def _create(self, conn: Connection, m: P.Create) -> None:
        live = sum(1 for r in self.rooms.values() if r.phase != "over")
        if live >= self.settings.max_rooms:
            raise Refused("too_many_rooms", f"this server holds at most {self.settings.max_rooms}")
        code = self._new_code()
        seed = m.seed if m.seed is not None else secrets.randbits(31)
        pack = None
        config = dict(m.config)
        if m.game == "tactics":
            pack, config = self.packs.host_pack(config)
        room = Room.create(
            self,
            code,
            m.game,
            config,
            seed,
            show_after=self.settings.show_after,
            pack=pack,
        )
        self.rooms[code] = room
        room.event(f"created by {conn.name!r}")
        self._leave_other(conn, room)
        room.join(conn, 0)
        conn.room = room

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            if code not in self.rooms:
                return code

    def _room_by_code(self, code: str) -> Room:
        room = self.rooms.get(code.strip().upper())
        if room is None:
            raise Refused("no_room", f"no room {code!r} on this server")
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


def run(settings: Settings) -> int:
    """Run a server until SIGTERM (the `suite serve` command)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    asyncio.run(MatchServer(settings).serve_forever())
    return 0
