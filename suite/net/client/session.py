"""`RemoteSession`: the core `Session` over a connection to `suite serve`.

A game's screens talk to a `Session` (`suite.core.session`); this one runs a `Client` on
its own asyncio loop in a background thread, so a pygame loop calls it without blocking:
`view`, `legal`, `awaiting` and `outcome` read what the server last sent, `act` queues the
action, and `poll` hands over, in order, an `Update` for every change the server
broadcast (the action itself is None when this client may not know it, e.g. another
seat's WoK orders) and a `Refusal` for each of this client's actions the server refused.

Lobby calls (`create`, `join`, `rejoin`, `spectate`, `ready`, `chat`, host commands)
block until the server answered (`ServerError` on a refusal). When the connection drops,
the session reconnects and rejoins with its seat token on its own; `status` is
"reconnecting" meanwhile (for the screens' banner).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Literal, TypeVar

import msgspec

from suite.core.board import Board
from suite.core.match import (
    Action,
    IllegalAction,
    Legal,
    Outcome,
    Replay,
    Seat,
    View,
    decode_action,
)
from suite.core.session import Notice, Refusal, Session, Update
from suite.net import protocol as P
from suite.net.client.client import (
    Client,
    ServerError,
    fetch_board,
    fetch_replay,
    sync_pack,
    typed_events,
    typed_view,
)
from suite.net.client.packs import PackCache
from suite.net.packsync import PackSyncError, Progress

log = logging.getLogger("suite.net.session")
T = TypeVar("T")
Status = Literal["connected", "reconnecting", "closed"]
PACK_TIMEOUT = 300.0
"""Seconds a blocking `sync_pack` waits for the whole pack."""


class RemoteSession:
    """A match on a server, as a `Session`. Build with `RemoteSession.connect(url, name)`."""

    def __init__(
        self,
        url: str,
        name: str,
        *,
        ssl_context: ssl.SSLContext | None = None,
        tactics_pack: P.PackRef | None = None,
        timeout: float = 10.0,
        reconnect_for: float = 120.0,
    ) -> None:
        self.url, self.name, self.ssl_context = url, name, ssl_context
        self.tactics_pack = tactics_pack
        self.timeout = timeout
        self.reconnect_for = reconnect_for
        self.status: Status = "connected"
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._lock = threading.Lock()
        self._notices: list[Notice] = []
        self._pending: deque[tuple[Seat, Action]] = deque()
        self._typed: tuple[int, Any] | None = None
        self._seen = 0
        self._clock_at = 0.0
        """When (this machine's monotonic time) the latest clock message came."""
        """The state id of the latest view noted (with `_pending`, under `_lock`)."""
        self._closing = False
        self._background: set[Future[Any]] = set()
        self.game = ""
        """The room's game (set when the server first describes the room)."""
        self.seats: frozenset[Seat] = frozenset()
        self.revision = 0
        """Counts the messages received: a screen redraws when it moved."""
        self.on_news: Callable[[], None] | None = None
        """Called (on the session's thread) after each message; a screen may post a pygame
        event here to wake its loop."""
        """This connection's seat (empty before a seat is taken, for spectators, or after a
        kick)."""
        self.client: Client = self._call(self._connect())
        self._watch()

    @classmethod
    def connect(cls, url: str, name: str, **options: Any) -> RemoteSession:
        """Connect and say hello (ServerError / OSError when that fails)."""
        return cls(url, name, **options)

    # -- plumbing ------------------------------------------------------------------------------

    def _call(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coro, self._loop)
        return future.result(timeout if timeout is not None else self.timeout + 5)

    async def _connect(self) -> Client:
        client = await Client.connect(
            self.url,
            self.name,
            ssl_context=self.ssl_context,
            tactics_pack=self.tactics_pack,
            timeout=self.timeout,
        )
        client.listeners.append(self._on_message)
        return client

    def _watch(self) -> None:
        asyncio.run_coroutine_threadsafe(self._keep_alive(), self._loop)

    async def _keep_alive(self) -> None:
        """Wait for the connection to drop, then reconnect and rejoin with the seat token."""
        client = self.client
        with contextlib.suppress(TimeoutError, ConnectionError):
            await client.wait(lambda c: False, timeout=float("inf"))
        if self._closing:
            return
        token = client.token
        if token is None or client.game_over is not None:
            self.status = "closed"
            return
        self.status = "reconnecting"
        delay, waited = 0.25, 0.0
        while waited < self.reconnect_for and not self._closing:
            await asyncio.sleep(delay)
            waited += delay
            delay = retry_delay(delay, waited)
            since = client.view.state_id if client.view is not None else None
            try:
                fresh = await self._connect()
                fresh.room = client.room
                await fresh.rejoin(token, since)
            except (OSError, ServerError, TimeoutError, ConnectionError) as exc:
                log.info("rejoin failed (%s); retrying", exc)
                continue
            self.client = fresh
            with self._lock:
                for seat, action in self._pending:
                    self._notices.append(Refusal(seat, action, "the connection dropped"))
                self._pending.clear()
            self.status = "connected"
            self._watch()
            return
        self.status = "closed"

    def _on_message(self, m: P.ServerMessage) -> None:
        """Runs on the session's loop: turn broadcasts and refusals into notices."""
        self._note(m)
        self.revision += 1
        if self.on_news is not None:
            self.on_news()

    def _note(self, m: P.ServerMessage) -> None:
        if isinstance(m, P.ClockMsg):
            self._clock_at = time.monotonic()
        if isinstance(m, P.Room):
            self.game = m.game
        elif isinstance(m, P.Seated):
            self.seats = frozenset({m.seat})
        elif isinstance(m, P.Error) and m.code in ("kicked", "replaced"):
            self.seats = frozenset()
        if isinstance(m, P.ViewMsg) and m.actor is not None and self.client.room is not None:
            game = self.client.room.game
            action = _action(game, m.action)
            events = tuple(typed_events(game, m.events))
            if m.seat is None:
                self.seats = frozenset()
            with self._lock:
                self._seen = m.state_id
                if self._pending and m.actor == self._pending[0][0]:
                    self._pending.popleft()
                self._notices.append(Update(m.actor, action, events))
        elif isinstance(m, P.ViewMsg):
            with self._lock:
                self._seen = m.state_id
        elif isinstance(m, P.Events) and self.client.room is not None:
            game = self.client.room.game
            with self._lock:
                for missed in m.updates:
                    if missed.actor is None:
                        continue
                    action = _action(game, missed.action)
                    events = tuple(typed_events(game, missed.events))
                    if self._pending and missed.actor == self._pending[0][0]:
                        self._pending.popleft()  # accepted before the drop
                    self._notices.append(Update(missed.actor, action, events))
        elif isinstance(m, P.Error) and m.ref == "action":
            with self._lock:
                if self._pending:
                    seat, sent = self._pending.popleft()
                    if self.client.game_over is None:  # after the end a refusal is no news
                        self._notices.append(Refusal(seat, sent, f"{m.code}: {m.message}"))

    # -- lobby -----------------------------------------------------------------------------------

    def create(self, game: str, config: dict[str, Any], *, public: bool = False) -> None:
        self._call(self.client.create(game, config, public=public))

    def list_rooms(self, game: str | None = None) -> tuple[P.PublicRoom, ...]:
        """The server's public lobbies with a free seat (see `Client.list_rooms`)."""
        return self._call(self.client.list_rooms(game))

    def join(self, code: str, seat: int | None = None) -> None:
        self._call(self.client.join(code, seat))

    def rejoin(self, token: str) -> None:
        self._call(self.client.rejoin(token))

    def spectate(self, code: str) -> None:
        self._call(self.client.spectate(code))

    def ready(self, ready: bool = True) -> None:
        self._call(self.client.ready(ready))

    def chat(self, text: str) -> None:
        self._call(self.client.send(P.Chat(text=text, token=self.client.token)))

    def seat_bot(self, seat: int, bot: str) -> None:
        self._call(self.client.seat_bot(seat, bot))

    def host(self, message: P.Message) -> None:
        """Send a host command (`P.Kick`, `P.Pause`, `P.Resume`, `P.End`) as built."""
        self._call(self.client.send(message))

    def poke(self) -> None:
        self._call(self.client.send(P.Poke(token=self._token())))

    def run_now(self) -> None:
        self._call(self.client.send(P.RunNow(token=self._token())))

    def sync_pack(self, cache_dir: Path, own: Path | None = None) -> Path | None:
        """The room's Tactics pack: `own` when it is the same, else the copy in the
        content-addressed cache `cache_dir` (downloaded from the server when missing);
        None when the room has no pack. PackSyncError saying why on any failure."""
        future = self.sync_pack_later(cache_dir, own)
        try:
            return future.result(PACK_TIMEOUT)
        except TimeoutError:
            future.cancel()  # the download stops and its staging folder goes
            raise PackSyncError(f"the pack did not arrive in {PACK_TIMEOUT:.0f} s") from None

    def sync_pack_later(
        self, cache_dir: Path, own: Path | None = None, progress: Progress | None = None
    ) -> Future[Path | None]:
        """Start `sync_pack` on the session's thread without waiting (a screen polls the
        future; its exception is a PackSyncError). `progress(done, total)` is called on
        the session's thread as bytes arrive. Closing the session cancels it."""
        coro = sync_pack(self.client, PackCache(cache_dir), own, progress)
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        self._background.add(future)
        future.add_done_callback(self._background.discard)
        return future

    def board(self) -> Board:
        """This World War room's board as the server has it (its `board` messages), so
        a room on a host's own or generated map is drawn without a copy of its files
        (ValueError naming why not: the server's refusal, or pages that make no board)."""
        code = self.code
        if code is None:
            raise IllegalAction("this connection is in no room")
        try:
            return self._call(fetch_board(self.client, code), timeout=60)
        except ServerError as exc:
            raise ValueError(f"the server has no board for this room: {exc}") from exc

    def fetch_replay(self) -> Replay:
        """This room's replay from the server's log, once the match is over (ServerError
        naming why not; ValueError when the answer is malformed)."""
        code = self.code
        if code is None:
            raise IllegalAction("this connection is in no room")
        return self._call(fetch_replay(self.client, code), timeout=60)

    def close(self) -> None:
        """Leave the connection (the seat stays held on the server) and stop the thread;
        closing again does nothing."""
        if self._closing:
            return
        self._closing = True
        self.status = "closed"
        for future in list(self._background):
            future.cancel()  # ends its download before the loop stops
        with contextlib.suppress(Exception):
            self._call(self.client.close(), timeout=5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    def _token(self) -> str:
        if self.client.token is None:
            raise IllegalAction("this connection holds no seat")
        return self.client.token

    # -- what the lobby shows --------------------------------------------------------------------

    @property
    def room(self) -> P.Room | None:
        return self.client.room

    @property
    def code(self) -> str | None:
        return self.client.code

    @property
    def seat(self) -> int | None:
        return self.client.seat

    @property
    def token(self) -> str | None:
        return self.client.token

    @property
    def clock(self) -> P.ClockMsg | None:
        return self.client.clock

    def time_left(self) -> float | None:
        """Seconds until the server's turn deadline (World War R7, WoK W12), counted here
        since its clock message came (frozen while the room is paused); None when no
        deadline runs."""
        clock = self.client.clock
        if clock is None or clock.deadline is None:
            return None
        left = clock.deadline - clock.now
        if not clock.paused:
            left -= time.monotonic() - self._clock_at
        return max(0.0, left)

    @property
    def chat_lines(self) -> list[P.ChatLine]:
        return list(self.client.chat)

    @property
    def errors(self) -> list[P.Error]:
        return list(self.client.errors)

    # -- the Session protocol --------------------------------------------------------------------

    def _last(self) -> P.ViewMsg:
        view = self.client.view
        if view is None:
            raise RuntimeError("no view from the server yet")
        return view

    def view(self, seat: Seat | None) -> View:
        """The view the server last sent: this client's seat's (a seated client asking for
        the public view, `seat` None, gets it too: it holds everything public), or the
        spectator view for a spectator. Another seat's view is refused."""
        last = self._last()
        if seat is not None and seat != last.seat:
            raise IllegalAction(f"this client sees seat {last.seat}'s view, not seat {seat}'s")
        cached = self._typed
        if cached is None or cached[0] != last.state_id:
            cached = (last.state_id, typed_view(self.game, last.view, self.client.static))
            self._typed = cached
        view: View = cached[1]
        return view

    def legal(self, seat: Seat) -> Legal:
        last = self._last()
        if seat != last.seat or seat not in last.awaiting:
            return []
        return self._call(self.client.legal(last))

    def awaiting(self) -> frozenset[Seat]:
        last = self.client.view
        return frozenset(last.awaiting) if last is not None else frozenset()

    def outcome(self) -> Outcome | None:
        over = self.client.game_over
        if over is None or over.outcome is None:
            return None
        return msgspec.convert(over.outcome, type=Outcome)

    @property
    def ended(self) -> P.GameOverMsg | None:
        """The game-over message (also when the host ended the match without an outcome)."""
        return self.client.game_over

    def act(self, seat: Seat, action: Action) -> None:
        """Send `action` for this client's seat; refusals come back through `poll`.

        Actions sent before the server answered the earlier ones (a screen placing armies
        on several territories at once) name the state those earlier ones lead to: the
        last state seen plus one for each action still on its way."""
        if seat not in self.seats:
            raise IllegalAction(f"seat {seat} is not played on this connection")
        if self.status != "connected":
            raise IllegalAction("the connection is down; reconnecting")
        self._last()  # a view came: there is a match to act in
        with self._lock:
            state_id = self._seen + len(self._pending)
            self._pending.append((seat, action))
        self._call(self.client.act(action, state_id))

    def poll(self) -> list[Notice]:
        with self._lock:
            out, self._notices = self._notices, []
        return out


def retry_delay(last: float, waited: float) -> float:
    """The wait before the next rejoin: doubling from a quarter second, at most 1 s for
    the first 10 s (a room whose process died is adopted by another within a few
    seconds), then up to 5 s (the server may be down for longer)."""
    return min(last * 2, 1.0 if waited < 10.0 else 5.0)


def _action(game: str, raw: msgspec.Raw) -> Action | None:
    """The action a broadcast carries, or None (hidden from this client, or unreadable)."""
    if not P.present(raw):
        return None
    try:
        return decode_action(game, msgspec.json.decode(raw))
    except ValueError:
        return None


def as_session(remote: RemoteSession) -> Session:
    """A `RemoteSession` is a core `Session` (mypy checks this function)."""
    return remote
