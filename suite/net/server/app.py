"""`suite serve`: the authoritative match server on websockets (asyncio API).

`MatchServer` owns the rooms and the connections and checks every message. It is built
from its seams, each an interface with a local default passed in at construction:

- the store (`backends.store.MatchStore`): SQLite in the data folder, or PostgreSQL;
- the presence (`backends.presence.Presence`): in memory, or Redis;
- on those, the same ownership (`cluster.ownership`: which rooms run here, adopted from
  the store under a lease) and routing (`cluster.routing`: messages for a room owned by
  another process are forwarded to it). A process alone owns every room, so it adopts
  every unfinished room at start and forwards nothing; several processes on PostgreSQL
  and Redis share the rooms, with no other difference in this module.

Nothing a client sends is trusted: the server draws every seed itself (`draw_seed`, 128
bits), bounds each config before an engine sees it (`configs`), caps unstarted rooms per
connection and per address and connections per address, and answers every bad message
with an `error` (nothing raises out of `receive`). Websocket pings keep connections
alive; the plain HTTP side is `http.HttpFront`. One server holds a data folder at a time
(`datalock`). SIGTERM (or `stop()`) hands the rooms over and closes every connection
within `close_timeout`. On start, old finished matches are pruned and every unfinished
room nobody runs is rebuilt by replaying its log; its players rejoin with their tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import signal
import ssl
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from suite.core.match import game_spec, registered_games
from suite.net import protocol as P
from suite.net.backends.factory import open_presence, open_store
from suite.net.backends.presence import Presence
from suite.net.backends.store import MatchStore, RoomRow
from suite.net.cluster.routing import RemotePeer
from suite.net.cluster.seams import seams_for
from suite.net.server import logs
from suite.net.server.boards import artwork_of, board_pages, map_list, odds
from suite.net.server.bots import BotRunner
from suite.net.server.clock import Clock, OffsetClock, SystemClock
from suite.net.server.collector import Collector
from suite.net.server.configs import MapBook, OnlineConfigError, check_online_config
from suite.net.server.connection import Connection
from suite.net.server.datalock import DataLock
from suite.net.server.errors import Refused
from suite.net.server.http import HttpFront
from suite.net.server.ladder import Ladder
from suite.net.server.loopwatch import LoopWatch
from suite.net.server.metrics import Metrics
from suite.net.server.outbox import Outbox
from suite.net.server.packs import PackServer
from suite.net.server.replays import Replays, ReplaySteps
from suite.net.server.room import Room
from suite.net.server.settings import Settings
from suite.net.server.tactics_art import ArtBook, battle_of, server_packs, setup_choices
from suite.net.server.websocket import ServerSocket
from suite.net.server.wok_history import WokHistory, report_turn

log = logging.getLogger("suite.net")

SERVER_NAME = "warsuite-serve/1"
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
SEED_BITS = 128
"""Bits of every match's seed, drawn from `secrets`: too many to search."""
RESULTS_KEPT = 256
"""Finished Tactics battles whose ladder result is kept for a `tactics_result_request`."""
KEEP_STORED_BOARDS = 16
"""Boards of finished rooms no longer run here kept made (for `replay_step` pages)."""
PRUNE_EVERY = 86400.0
"""Seconds between prunings of old finished matches."""

Sender = Connection | RemotePeer
"""Who sent a message: a client connected here, or one forwarded from another process."""

__all__ = ["MatchServer", "Settings", "run"]


class MatchServer:
    """The rooms, the connections and the handlers. `start()` listens; `stop()` shuts down.

    `store` and `presence` default to what `settings` names (SQLite in the data folder
    unless a `store` URL is set; no shared presence unless a `presence` URL is set, in
    which case the cluster's seams run on it: `suite.net.cluster.seams.seams_for`). `draw_seed`
    draws each new match's seed (128 bits from `secrets`); no client message can set it.
    Tests that need a known match replace it on the server object itself.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        store: MatchStore | None = None,
        presence: Presence | None = None,
    ) -> None:
        self.settings = settings
        if clock is None and settings.test_clock_file is not None:
            clock = OffsetClock(settings.test_clock_file)
        self.clock: Clock = clock or SystemClock()
        data = settings.data
        if data is None:
            from suite.paths import user_data_dir

            data = user_data_dir() / "server"
        self.data = Path(data)
        self.lock = DataLock(self.data)
        self.lock.acquire()
        try:
            self.store: MatchStore = store or open_store(settings.store, self.data)
        except Exception:
            self.lock.release()
            raise
        self.packs = PackServer(self.data / "packs")
        self.maps = MapBook(self.data / "maps")
        self.replays = Replays(self.store)
        self.replay_steps = ReplaySteps(self.store, self.maps)
        self.wok_history = WokHistory(self.store, self.maps)
        self.art = ArtBook()
        self.ladder = Ladder(self.data)
        self._results: OrderedDict[str, P.TacticsResult] = OrderedDict()
        """The latest Tactics battles' ladder results, by room code (`RESULTS_KEPT`)."""
        self.draw_seed: Callable[[], int] = lambda: secrets.randbits(SEED_BITS)
        self.rooms: dict[str, Room] = {}
        self._boards: dict[str, tuple[object, tuple[P.Board, ...]]] = {}
        """Per room code: the board its `board` pages were made from, and the pages (of
        the rooms run here, and of the finished ones stepped through: `_board`)."""
        self.tokens: dict[str, Room] = {}
        self.connections: set[Connection] = set()
        self.outbox = Outbox(before_write=self._commit_writes)
        """When the connections write, the store's writes committed first (`outbox`)."""
        self.per_address: Counter[str] = Counter()
        self.loop_watch = LoopWatch()
        self.metrics = Metrics(
            self._rooms_by_phase,
            lambda: len(self.connections),
            lambda: len(self.rooms),
            self.loop_watch.longest,
        )
        if presence is None and settings.presence is not None:
            presence = open_presence(settings.presence)
        self.ownership, self.routing = seams_for(self, self.store, presence, settings.lease_seconds)
        self.bots = BotRunner(
            settings.bot_delay,
            settings.bot_workers,
            lambda room: self.rooms.get(room.code) is room,
            self.spawn,
        )
        self.http = HttpFront(
            metrics=self.metrics,
            counts=lambda: (len(self.rooms), len(self.connections)),
            health=self.ownership.healthy,
            admits=lambda address: self.per_address[address] < settings.max_connections_per_address,
        )
        self.http.web.pack_files = self.art.file
        self._server: Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopped = asyncio.Event()
        self._pruned_at = float("-inf")

    def _rooms_by_phase(self) -> Counter[str]:
        return Counter(room.phase for room in self.rooms.values())

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run `coro` as a task of the server (cancelled when it stops)."""
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- hub for rooms, ownership and routing ----------------------------------------------

    @property
    def bot_delay(self) -> float:
        return self.bots.delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self.bots.delay = seconds

    def bind(self, token: str, room: Room) -> None:
        self.tokens[token] = room

    def unbind(self, token: str) -> None:
        self.tokens.pop(token, None)

    def bots_due(self, room: Room) -> None:
        self.bots.due(room)

    def accepted(self, game: str) -> None:
        """A room committed an action (counted in /metrics)."""
        self.metrics.accepted(game)

    def refused(self, code: str) -> None:
        self.metrics.refusals.labels(code).inc()

    def _commit_writes(self) -> None:
        """Commit the store's writes (before any message leaves: `outbox`); the rooms
        whose writes the commit lost go (`lost`), and nothing is said of them."""
        for code in self.store.flush():
            room = self.rooms.get(code)
            if room is not None:
                self.lost(room, "a write failed: the store could not commit it")

    def lost(self, room: Room, reason: str) -> None:
        """The room cannot go on here (its write failed, its lease is another's): let it
        go and forget it; its clients reconnect to its next owner, which rebuilds it from
        the store (this process too, at its next sweep, when nobody else holds it)."""
        if self.rooms.get(room.code) is not room:
            return
        log.warning("room lost: %s", reason, extra={"room": room.code})
        room.let_go()
        self._forget_room(room, lost=True)

    def finished(self, room: Room, outcome: dict[str, Any] | None) -> None:
        """A room's match ended: a Tactics battle with a result goes on the server's
        ladder (off the event loop), then its seats and watchers are told what changed."""
        if room.game != "tactics" or outcome is None:
            return
        names = [s.name or (f"{s.bot} bot" if s.bot else f"Seat {s.index + 1}") for s in room.seats]
        humans = [s.kind == "human" for s in room.seats]
        units = getattr(room.state, "units", [])
        lost = [sum(1 for u in units if u.seat == s.index and u.hp <= 0) for s in room.seats]
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # driven without a running loop (tests): record it now
            self._recorded(room, self.ladder.record(room.code, names, humans, lost, outcome))
            return
        self.spawn(self._record(room, names, humans, lost, outcome))

    async def _record(
        self,
        room: Room,
        names: list[str],
        humans: list[bool],
        lost: list[int],
        outcome: dict[str, Any],
    ) -> None:
        try:
            result = await asyncio.to_thread(
                self.ladder.record, room.code, names, humans, lost, outcome
            )
        except Exception:
            log.exception("the ladder could not record the battle", extra={"room": room.code})
            return
        self._recorded(room, result)

    def _recorded(self, room: Room, result: P.TacticsResult) -> None:
        """Keep a battle's ladder result and tell its room."""
        self._results[room.code] = result
        while len(self._results) > RESULTS_KEPT:
            self._results.popitem(last=False)
        data = P.encode(result)
        for peer in room.connected_peers():
            peer.send(data)

    def restore(self, row: RoomRow, why: str) -> Room:
        """Rebuild the stored room `row` by replaying its log, and run it here."""
        room = Room.restore(self, row, show_after=self.settings.show_after)
        self.rooms[room.code] = room
        room.event(f"{why}: rebuilt from {room.state_id} logged ops")
        return room

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
        """A room code no room of this process has."""
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            if code not in self.rooms:
                return code

    # -- life cycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Adopt the unfinished rooms nobody runs, prune old matches, listen (port 0 picks
        a free port, see `port`) and run the clock."""
        await self.ownership.start()
        self.spawn(self.routing.run())
        await self.prune()
        ssl_context = None
        if self.settings.cert is not None:
            ssl_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ssl_context.load_cert_chain(self.settings.cert, self.settings.key)
        self._server = await serve(
            self._serve,
            self.settings.host,
            self.settings.port,
            process_request=self.http.process_request,
            max_size=2 * P.MAX_MESSAGE,
            ping_interval=self.settings.ping_interval,
            ping_timeout=self.settings.ping_timeout,
            close_timeout=self.settings.close_timeout,
            compression=None,
            create_connection=ServerSocket,
            ssl=ssl_context,
            server_header=SERVER_NAME,
        )
        self.spawn(self._ticker())
        self.spawn(self.loop_watch.run())
        if self.settings.advertise is not None:
            self.ownership.reachable_at(self.settings.advertise.replace("{port}", str(self.port)))
        log.info(
            "serving on %s:%d (data in %s, process %s)",
            self.settings.host,
            self.port,
            self.data,
            self.ownership.process,
        )

    @property
    def port(self) -> int:
        assert self._server is not None
        sockets = list(self._server.sockets)
        return int(sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Hand the rooms over, close every connection (1001) and the backends.

        Prompt even when a client never reads: each closing handshake may take
        `close_timeout`, then the remaining connections are cut."""
        if self._server is not None:
            self._server.close(close_connections=False)
            await self.routing.handover()
            await self.ownership.handover()
            for conn in list(self.connections):
                conn.finish()
            closing = [
                asyncio.ensure_future(conn.ws.close(1001, "server shutting down"))
                for conn in list(self.connections)
            ]
            if closing:
                await asyncio.wait(closing, timeout=self.settings.close_timeout)
            for conn in list(self.connections):
                if conn.ws.transport is not None:
                    conn.ws.transport.abort()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), self.settings.close_timeout)
        for task in list(self._tasks):
            task.cancel()
        self.bots.shutdown()
        await self.ownership.close()
        self.lock.release()
        self._stopped.set()
        log.info("server stopped")

    async def serve_forever(self) -> None:
        """Run until SIGTERM/SIGINT, then shut down gracefully (the `suite serve` process).

        The process's garbage is collected by a `Collector` (short pauses: the tail of
        the broadcast latency stays short).
        """
        await self.start()
        self.spawn(Collector().run())
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        log.info("shutting down")
        await self.stop()

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick)
            self.tick()
            if self.prune_due():
                await self.prune()

    def prune_due(self) -> bool:
        """Whether a day passed since the store was last pruned."""
        return self.clock.now() - self._pruned_at >= PRUNE_EVERY

    def tick(self) -> None:
        """Check every room's clock now (tests call this after moving a manual clock);
        rooms over for `keep_over` seconds are forgotten (their record stays stored), and
        an unstarted lobby closes after `lobby_expiry`. (The ticker also prunes the
        store once a day: `prune_due`, `prune`.)"""
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

    def _forget_room(self, room: Room, lost: bool = False) -> None:
        del self.rooms[room.code]
        self.wok_history.forget(room.code)
        self._boards.pop(room.code, None)
        if lost:
            self.ownership.lost(room.code)
        else:
            self.ownership.released(room.code)
        for seat in room.seats:
            if seat.token and self.tokens.get(seat.token) is room:
                del self.tokens[seat.token]
        room.event("forgotten")

    async def prune(self) -> int:
        """Delete finished matches older than `keep_days` from the store; how many."""
        self._pruned_at = self.clock.now()
        if self.settings.keep_days <= 0:
            return 0
        cutoff = self.clock.now() - self.settings.keep_days * 86400
        try:
            gone = await self.store.prune(cutoff, keep=set(self.rooms))
            self.outbox.commit_due()
        except Exception:
            log.exception("old matches could not be pruned")
            return 0
        if gone:
            self.metrics.pruned.inc(gone)
            log.info("pruned %d finished matches older than %g days", gone, self.settings.keep_days)
        return gone

    # -- connections ------------------------------------------------------------------------

    def forget(self, conn: Connection) -> None:
        """The connection is gone (closed, or dropped for being slow or flooding)."""
        if conn in self.connections:
            self.connections.discard(conn)
            self.per_address[conn.address] -= 1
            if self.per_address[conn.address] <= 0:
                del self.per_address[conn.address]
            self.enter(conn, None)
            self.routing.gone(conn)

    def enter(self, peer: Sender, room: Room | None) -> None:
        """The one way a client changes rooms: it leaves its room here (a seat is held,
        shown disconnected) unless that is `room`, and is in `room` from now on."""
        if peer.room is not None and peer.room is not room:
            peer.room.disconnected(peer)
        peer.room = room

    async def _serve(self, ws: ServerConnection) -> None:
        """One websocket connection, from its handshake to its close."""
        conn = Connection(
            ws,
            queue_size=self.settings.send_queue,
            rate=self.settings.rate,
            burst=self.settings.burst,
            on_drop=self.forget,
            on_refusal=self.refused,
            outbox=self.outbox,
        )
        self.connections.add(conn)
        self.per_address[conn.address] += 1
        writer = asyncio.ensure_future(conn.writer())

        def message(data: str | bytes) -> None:
            if not conn.dropped:  # else it is read and let go until the closing handshake ends
                self.receive(conn, data)

        assert isinstance(ws, ServerSocket), "serve makes ServerSockets (create_connection)"
        try:
            ws.deliver_to(message)
            await ws.wait_closed()
        finally:
            self.forget(conn)
            conn.queue.put_nowait(None) if not conn.queue.full() else writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await writer

    def receive(self, conn: Connection, data: str | bytes, *, limited: bool = True) -> None:
        """A client's frame as it came: rate limited (unless `limited` is False: a frame
        held while its room was looked up), decoded, routed to the room's owner when that
        is another process, else handled here. Refusals become `error` messages; nothing
        raises."""
        token = logs.client_address.set(conn.address)
        try:
            if limited and not self._within_rate(conn):
                return
            message = self._decode(conn, data)
            if message is not None and not self.routing.intercept(conn, message, data):
                self._run(conn, message)
        finally:
            logs.client_address.reset(token)

    def handle(self, peer: Sender, data: str | bytes) -> None:
        """A frame for a room of this process, from a client whose room was looked up or
        forwarded from another process (no rate limit: counted where it came in)."""
        token = logs.client_address.set(peer.address)
        try:
            message = self._decode(peer, data)
            if message is not None and not self.routing.misrouted(peer, message):
                self._run(peer, message)
        finally:
            logs.client_address.reset(token)

    def create_here(self, conn: Connection, message: P.Create, code: str) -> bool:
        """Open the room `message` asks for with the code `code` (its lease is taken);
        whether it was opened (a refusal was sent otherwise)."""
        self._run(conn, message, lambda: self._create(conn, message, code))
        return code in self.rooms

    def _within_rate(self, conn: Connection) -> bool:
        if conn.limit.allow():
            conn.strikes = 0
            return True
        conn.strikes += 1
        if conn.strikes > 2 * self.settings.burst:
            log.info("client %r dropped: flooding", conn.name)
            self.forget(conn)
            conn.close_later(1008, "too many messages")
        else:
            conn.error("rate_limited", f"at most {self.settings.rate:g} messages a second")
        return False

    def _decode(self, peer: Sender, data: str | bytes) -> P.ClientMessage | None:
        try:
            return P.decode_client(data, self.settings.max_message)
        except P.ProtocolError as exc:
            peer.error(exc.error.code, exc.error.message, exc.error.ref)
            return None

    def _run(
        self, peer: Sender, m: P.ClientMessage, work: Callable[[], None] | None = None
    ) -> None:
        """Do what `m` asks (`work`, or its dispatch); a refusal or a failure becomes an
        `error` message naming the message kind."""
        started = time.perf_counter()
        try:
            if work is not None:
                work()
            else:
                self._dispatch(peer, m)
        except Refused as exc:
            peer.error(exc.code, exc.message, str(m.__struct_config__.tag))
            return
        except RecursionError:
            peer.error("bad_message", "that message nests too deeply")
            return
        except Exception:
            log.exception("internal error on a %s message", m.__struct_config__.tag)
            peer.error("server_error", "the server failed on that message")
            return
        if isinstance(m, P.Act):
            self.metrics.latency.observe(time.perf_counter() - started)

    def _dispatch(self, conn: Sender, m: P.ClientMessage) -> None:
        if isinstance(m, P.Hello):
            self._hello(conn, m)
            return
        if not conn.greeted:
            raise Refused("no_hello", "say hello first")
        if isinstance(m, P.Create):
            if isinstance(conn, RemotePeer):
                raise Refused("misrouted", "a room opens on the process its client reached")
            self._create(conn, m, self.new_code())
        elif isinstance(m, P.ListRooms):
            conn.send(P.encode(self._public_rooms(m.game)))
        elif isinstance(m, P.Join):
            room = self._room_by_code(m.code)
            self.enter(conn, room)
            room.join(conn, m.seat)
        elif isinstance(m, P.Rejoin):
            room = self._room_by_token(m.token)
            self.enter(conn, room)
            room.rejoin(conn, m.token, m.since)
        elif isinstance(m, P.Spectate):
            room = self._room_by_code(m.code)
            self.enter(conn, room)
            room.spectate(conn)
        elif isinstance(m, P.PackRequest):
            self._pack(conn, m)
        elif isinstance(m, P.ReplayRequest):
            self.spawn(self._replay(conn, m))
        elif isinstance(m, P.ReplayStepRequest):
            self.spawn(self._replay_step(conn, m))
        elif isinstance(m, P.TacticsSetupRequest):
            folder = self._pack_folder(m.pack)
            work = asyncio.to_thread(self._tactics_setup, m.pack or None, folder)
            self.spawn(self._later(conn, "tactics_setup_request", work))
        elif isinstance(m, P.TacticsArtRequest):
            self._tactics_art(conn, m.code)
        elif isinstance(m, P.TacticsResultRequest):
            code = m.code.strip().upper()
            result = self._results.get(code) or P.TacticsResult(code=code, lines=())
            conn.send(P.encode(result))
        elif isinstance(m, P.BoardRequest):
            self.spawn(self._board(conn, m))
        elif isinstance(m, P.MapsRequest):
            conn.send(P.encode(map_list(self.maps, m.game)))
        elif isinstance(m, P.OddsRequest):
            room = self._worldwar_room(m.code)
            dice = room.state.view(None).rules.dice()  # type: ignore[attr-defined]
            conn.send(P.encode(odds(room.code, dice, m.attackers, m.defenders)))
        elif isinstance(m, P.Chat):
            self._current(conn, m.token).chat(conn, m.token, m.text)
        elif isinstance(m, P.Leave):
            self._current(conn, m.token).leave(conn, m.token)
        else:
            self._seat_message(conn, m)

    def _seat_message(self, conn: Sender, m: P.ClientMessage) -> None:
        token = P.token_of(m) or ""
        room = self._current(conn, token)
        if isinstance(m, P.Act):
            room.act(conn, token, m.state_id, m.action)
        elif isinstance(m, P.Ready | P.Unready):
            room.set_ready(conn, token, isinstance(m, P.Ready))
        elif isinstance(m, P.LegalRequest):
            room.legal_page(conn, token, m.state_id, m.page)
        elif isinstance(m, P.DraftCheck):
            room.draft_check(conn, token, m.state_id, m.draft, m.probe, m.ref)
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
        elif isinstance(m, P.SetPublic):
            room.set_public(conn, token, m.public)
        elif isinstance(m, P.WokHistoryRequest):
            self._wok_history(conn, room, m)

    def _hello(self, conn: Sender, m: P.Hello) -> None:
        if m.protocol != P.PROTOCOL_VERSION:
            raise Refused(
                "protocol",
                f"this server speaks protocol {P.PROTOCOL_VERSION}, not {m.protocol}",
            )
        name = m.name.strip()
        if not name or len(name) > P.MAX_NAME or not name.isprintable():
            raise Refused("bad_name", f"a name is 1 to {P.MAX_NAME} printable characters")
        conn.name, conn.greeted = name, True
        if isinstance(conn, Connection):
            conn.follows, conn.lean = m.follows, m.lean
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
        """Refused when the server, this connection or its address has too many lobbies
        (counting what the other processes run)."""
        live = sum(1 for r in self.rooms.values() if r.phase != "over")
        live += self.ownership.remote_live()
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
        ours += self.ownership.remote_lobbies(conn.address)
        if ours >= self.settings.max_lobbies_per_address:
            raise Refused(
                "too_many_lobbies",
                f"your address may have at most {self.settings.max_lobbies_per_address} "
                "unstarted rooms open",
            )

    def _create(self, conn: Connection, m: P.Create, code: str) -> None:
        if not conn.greeted:
            raise Refused("no_hello", "say hello first")
        self._check_caps(conn)
        config = dict(m.config)
        try:
            check_online_config(m.game, config, game_players(m.game), self.maps)
        except OnlineConfigError as exc:
            raise Refused("bad_config", str(exc)) from None
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
            public=m.public,
        )
        room.opened_by, room.opened_from = conn, conn.address
        self.rooms[code] = room
        self.metrics.rooms_created.inc()
        room.event(f"created by {conn.name!r}" + (" (public)" if m.public else ""))
        self.enter(conn, room)
        room.join(conn, 0)

    def _public_rooms(self, game: str | None) -> P.RoomList:
        """The public lobbies with a free seat, newest first (of every process)."""
        local = self.local_public_rooms(game)
        others = [r for r in self.ownership.remote_public() if game is None or r.game == game]
        listed = (list(local.rooms) + others)[: P.MAX_PUBLIC_ROOMS]
        return P.RoomList(rooms=tuple(listed))

    def _room_by_code(self, code: str) -> Room:
        room = self.rooms.get(code.strip().upper())
        if room is None:
            raise Refused("no_room", f"no room {code[:16]!r} on this server")
        return room

    def _worldwar_room(self, code: str) -> Room:
        room = self._room_by_code(code)
        if room.game != "worldwar":
            raise Refused("not_worldwar", f"room {room.code} plays {room.game}, not World War")
        return room

    async def _page_of(self, code: str, board: Any, page: int) -> P.Board:
        """Page `page` of the board `board` of room `code`. Its pages are made once, in a
        worker thread: the links and a Domination map's index image take a map's outlines
        or pixels (a fifth of a second for the classic map), which the loop must not wait
        on."""
        cached = self._boards.get(code)
        if cached is None or cached[0] is not board:
            web = self.http.web

            def make() -> tuple[P.Board, ...]:
                return board_pages(code, board, *artwork_of(board, web.publish, web.publish_bytes))

            cached = (board, await asyncio.to_thread(make))
            self._boards[code] = cached
        pages = cached[1]
        if not 0 <= page < len(pages):
            raise Refused("bad_page", f"the board has pages 0 to {len(pages) - 1}, not {page}")
        return pages[page]

    def _room_by_token(self, token: str) -> Room:
        room = self.tokens.get(token)
        if room is None:
            raise Refused("bad_token", "no seat holds that token")
        return room

    def _current(self, conn: Sender, token: str | None) -> Room:
        if token:
            return self._room_by_token(token)
        if conn.room is None:
            raise Refused("no_room", "you are not in a room")
        return conn.room

    def _pack(self, conn: Sender, m: P.PackRequest) -> None:
        room = self._room_by_code(m.code)
        if room.pack is None:
            raise Refused("no_pack", "this room has no Tactics pack")
        conn.send(P.encode(self.packs.answer(room.code, room.pack, m.path, m.offset)))

    async def _board(self, conn: Sender, m: P.BoardRequest) -> None:
        """A page of a World War room's board: a room run here, or a finished room no longer
        run here (from its stored match, as `replay_step` rebuilds it: a replay is drawn on
        its own map)."""
        code = m.code.strip().upper()
        try:
            if code in self.rooms:
                board = self._worldwar_room(code).state.board  # type: ignore[attr-defined]
            else:
                state = await self.replay_steps.initial(code)
                if state.game != "worldwar":
                    raise Refused("not_worldwar", f"room {code} plays {state.game}, not World War")
                board = state.board  # type: ignore[attr-defined]
                if len(self._boards) > len(self.rooms) + KEEP_STORED_BOARDS:
                    for stale in [c for c in self._boards if c not in self.rooms]:
                        del self._boards[stale]
            page = await self._page_of(code, board, m.page)
        except Refused as exc:
            conn.error(exc.code, exc.message, "board_request")
        except Exception:
            log.exception("internal error on a board_request message")
            conn.error("server_error", "the server failed on that message")
        else:
            conn.send(P.encode(page))

    async def _replay_step(self, conn: Sender, m: P.ReplayStepRequest) -> None:
        """A step of a finished match, as a spectator saw it (`ReplaySteps`)."""
        try:
            view = await self.replay_steps.answer(m.code.strip().upper(), m.step)
        except Refused as exc:
            conn.error(exc.code, exc.message, "replay_step")
        except Exception:
            log.exception("internal error on a replay_step message")
            conn.error("server_error", "the server failed on that message")
        else:
            conn.send(P.encode(view))

    def _wok_history(self, conn: Sender, room: Room, m: P.WokHistoryRequest) -> None:
        """A past turn's report of a WoK room run here, as the asker saw it (`WokHistory`:
        from the stored match, once the room's latest write is in the store)."""
        if room.game != "wok":
            raise Refused("not_wok", f"room {room.code} plays {room.game}, not WoK")
        seat = room.viewer(conn, m.token)
        newest = report_turn(room.state)
        pending = room.pending

        async def answer() -> P.Message:
            if pending is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(pending)
            return await self.wok_history.answer(conn, room.code, seat, m.turn, newest)

        self.spawn(self._later(conn, "wok_history", answer()))

    async def _replay(self, conn: Sender, m: P.ReplayRequest) -> None:
        """A chunk of a finished match's replay (read from the store off the message path)."""
        await self._later(
            conn, "replay_request", self.replays.answer(m.code.strip().upper(), m.offset)
        )

    async def _later(self, conn: Sender, ref: str, work: Coroutine[Any, Any, P.Message]) -> None:
        """Send what `work` answers to a `ref` message, done off the message path (a
        store read, a pack's choices or art); a refusal or a failure becomes an `error`."""
        try:
            answer = await work
        except Refused as exc:
            conn.error(exc.code, exc.message, ref)
        except Exception:
            log.exception("internal error on a %s message", ref)
            conn.error("server_error", "the server failed on that message")
        else:
            conn.send(P.encode(answer))

    def _pack_folder(self, choice: str | None) -> Path:
        """The pack folder a set-up names (the packs folder's own checks: no path)."""
        from suite.net.packsync import PackSyncError

        try:
            return self.packs.folder(choice)
        except PackSyncError as exc:
            raise Refused("no_pack", str(exc)) from None

    def _tactics_setup(self, name: str | None, folder: Path) -> P.TacticsSetup:
        """The Book of Tactics' choices with the pack in `folder` (in a worker thread)."""
        from suite.tactics.rules.packs import PackError, get_pack

        try:
            pack = get_pack(folder)
        except PackError as exc:
            raise Refused("no_pack", str(exc)) from None
        pictures = self.art.portraits(pack)
        return setup_choices(pack, name, server_packs(self.packs.packs_dir), pictures)

    def _tactics_art(self, conn: Sender, code: str) -> None:
        """Answer a `tactics_art_request`: at once when the battle's art is built, else
        once a worker thread has built it; a finished room no longer run here is drawn
        from its stored match (its opening, as `replay_step` rebuilds it)."""
        code = code.strip().upper()

        async def answer() -> P.Message:
            room = self.rooms.get(code)
            state = room.state if room is not None else await self.replay_steps.initial(code)
            if state.game != "tactics":
                raise Refused("not_tactics", f"room {code} plays {state.game}, not WoS Tactics")
            battle = await asyncio.to_thread(battle_of, state.view(None))  # type: ignore[arg-type]
            built = self.art.cached(battle)
            if built is None:
                built = await asyncio.to_thread(self.art.build_for, battle)
            return P.TacticsArtMsg(code=code, url=built.url, problems=built.problems)

        self.spawn(self._later(conn, "tactics_art_request", answer()))


def game_players(game: str) -> tuple[int, int]:
    """The seat range of `game` (Refused when the server has no such game)."""
    try:
        return game_spec(game).players
    except KeyError:
        known = ", ".join(sorted(registered_games()))
        raise Refused("unknown_game", f"no game {game[:32]!r} here (games: {known})") from None


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (Linux and macOS: its transports write
    and read in C, which halves the server's CPU per message), else asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def run(settings: Settings) -> int:
    """Run a server until SIGTERM (the `suite serve` command); its log handler goes with it
    (a server run inside another program leaves no handler on a stream it closed)."""
    handler = logs.configure(settings.log_level, settings.log)
    try:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            runner.run(MatchServer(settings).serve_forever())
    finally:
        logging.getLogger("suite.net").removeHandler(handler)
        handler.close()
    return 0
