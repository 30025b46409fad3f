"""One room of the match server: its seats, its match, its log, its clock and its bots.

A room knows nothing of websockets: it talks to `Peer` objects (a connection as the room
sees it) and reports refusals by raising `Refused(code, message)`, which the server turns
into an `error` message. Every change of the match goes through `_commit`: the op is
applied to the engine (an IllegalAction leaves everything as it was), appended to the
store, and only then broadcast, each seat getting its own view and spectators the
spectator view.

Acting follows boardgame.io's order of checks: the token, then the seat being awaited,
then the state id the client saw, then the action's legality (decoding included).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import unicodedata
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import msgspec

from suite.core.action_json import ActionPieces
from suite.core.bots import RandomBot, make_bot
from suite.core.match import (
    Action,
    Event,
    GameSpec,
    IllegalAction,
    Legal,
    State,
    game_spec,
    new_game,
    unavailable_games,
)
from suite.core.rng import Rng
from suite.core.thinking import Decision, thinks_long
from suite.net import protocol as P
from suite.net.backends.store import Commit, MatchStore, RoomRow, SeatRow
from suite.net.server.clock import Clock
from suite.net.server.configs import MapBook
from suite.net.server.drafts import Drafts
from suite.net.server.drafts import check as check_draft
from suite.net.server.errors import Refused
from suite.net.server.outbox import Outbox
from suite.net.server.turns import (
    ActOp,
    ClockInfo,
    Op,
    PokeOp,
    RunNowOp,
    TurnClock,
    apply_op,
    decode_op,
    encode_op,
    turn_clock,
)

log = logging.getLogger("suite.net")

Phase = Literal["lobby", "playing", "paused", "over"]
LEGAL_INLINE = 16 * 1024
LEGAL_INLINE_ACTIONS = 200
"""Legal actions ride inside the view message when there are at most LEGAL_INLINE_ACTIONS
of them and their JSON is at most LEGAL_INLINE bytes (else the client asks for pages)."""
KEEP_RECENT = 128
"""Updates a room keeps for clients that rejoin after a drop."""
LEGAL_PAGE_ACTIONS = 300
"""Actions per `legal_page` message (game actions are small records, well under 200
bytes each, so a page stays under the message limit)."""

_json = msgspec.json.Encoder()
ClockTold = tuple[ClockInfo | None, bool]
"""A clock message's content but the time: (the clock's info while playing, paused)."""
_PIECES = ActionPieces(_json.encode)
"""The process's encoded actions, for the games' `legal_json`."""


class Peer(Protocol):
    """A client as a room sees it: connected to this process (`server.connection.
    Connection`) or to another one and forwarded here (`cluster.routing.RemotePeer`)."""

    name: str
    address: str
    """The client's IP address (for the logs and the per-address caps)."""
    lean: bool
    """It takes the game's unchanging view fields once (`room_data`), views without them."""

    def send(self, data: bytes) -> None:
        """Queue `data` (one encoded message) for the peer; never blocks."""

    def hold(self, commit: asyncio.Future[None]) -> None:
        """What is sent to the peer from now on waits until `commit` is durable."""

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        """Send an `error` message (a refusal)."""

    def left_room(self, room: Room) -> None:
        """The room no longer counts this peer in (kicked, replaced, or it left)."""

    def close_later(self, code: int, reason: str) -> None:
        """Close the peer's connection with websocket close `code`; it may reconnect."""


class Hub(Protocol):
    """What a room needs from its server."""

    clock: Clock
    store: MatchStore
    maps: MapBook
    outbox: Outbox

    def accepted(self, game: str) -> None:
        """An action of `game` was committed (for the server's counters)."""

    def bind(self, token: str, room: Room) -> None: ...

    def unbind(self, token: str) -> None: ...

    def bots_due(self, room: Room) -> None:
        """A bot seat is awaited: call `room.bot_step()` soon (after the bot delay)."""

    def finished(self, room: Room, outcome: dict[str, Any] | None) -> None:
        """The room's match ended (`outcome` None: the host ended it)."""

    def lost(self, room: Room, reason: str) -> None:
        """A write of the room failed (the store refused the epoch or is down): the room's
        memory is ahead of the store and must go (it is rebuilt from the store by whichever
        process adopts it next, this one included)."""


class RoomWrites:
    """A room's writes to the store: each write that is not durable yet (a `Commit`
    future) holds back every message the room sends after it until it is committed; one
    committed by the store's next `flush` has the outbox commit at the end of the turn."""

    def __init__(self, store: MatchStore, room: Room, outbox: Outbox) -> None:
        self.store, self.room, self.outbox = store, room, outbox

    def _held(self, commit: Commit) -> None:
        if commit is not None:
            self.room.hold_until(commit)
        else:
            self.outbox.commit_due()

    def add_room(
        self,
        code: str,
        game: str,
        config: dict[str, Any],
        seed: int,
        created: float,
        pack: str | None,
        public: bool = False,
    ) -> None:
        self._held(self.store.add_room(code, game, config, seed, created, pack, public))

    def set_phase(self, code: str, phase: str, result: dict[str, Any] | None = None) -> None:
        self._held(self.store.set_phase(code, phase, result))

    def set_seat(self, code: str, row: SeatRow) -> None:
        self._held(self.store.set_seat(code, row))

    def append(self, code: str, idx: int, entry: bytes) -> None:
        self._held(self.store.append(code, idx, entry))

    def set_clock(self, code: str, clock: str | None) -> None:
        self._held(self.store.set_clock(code, clock))

    def set_public(self, code: str, public: bool) -> None:
        self._held(self.store.set_public(code, public))


@dataclass
class Seat:
    index: int
    kind: Literal["open", "human", "bot"] = "open"
    name: str = ""
    bot: str | None = None
    token: str | None = None
    ready: bool = False
    peer: Peer | None = None
    brain: Any = None

    def row(self) -> SeatRow:
        return SeatRow(
            seat=self.index,
            kind=self.kind,
            name=self.name,
            bot=self.bot,
            token=self.token,
            ready=self.ready,
        )

    def info(self) -> P.SeatInfo:
        return P.SeatInfo(
            seat=self.index,
            kind=self.kind,
            name=self.name,
            bot=self.bot,
            connected=self.kind == "bot" or self.peer is not None,
            ready=self.ready or self.kind == "bot",
        )


@dataclass(frozen=True)
class BotJob:
    """A searching bot's decision to be made off the event loop (`Room.bot_step`): the
    bot, what it decides on, and the room's state id it was asked at."""

    seat: int
    bot: Any
    view: Any
    legal: Legal
    rng: Rng
    state_id: int


@dataclass
class _LegalCache:
    state_id: int = -1
    legal: dict[int, Legal] = field(default_factory=dict)


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Room:
    """A room: see the module docstring. Build with `Room.create` or `Room.restore`."""

    def __init__(
        self,
        hub: Hub,
        code: str,
        game: str,
        config: dict[str, Any],
        seed: int,
        state: State,
        *,
        show_after: float,
        pack: P.PackRef | None = None,
    ) -> None:
        self.hub = hub
        self.code = code
        self.game = game
        self.spec: GameSpec = game_spec(game)
        self.config = config
        self.seed = seed
        self.state = state
        self.state_id = 0
        self.fence = 0
        """Actions decided on a state id below this are stale (see `TurnClock.fences`)."""
        self.phase: Phase = "lobby"
        self.seats = [Seat(i) for i in range(int(config["players"]))]
        self.host_seat = 0
        self.spectators: list[Peer] = []
        self.clock: TurnClock = turn_clock(game, show_after)
        self.pack = pack
        self.paused_at: float | None = None
        self.over_at: float | None = None
        self.recent: deque[tuple[int, int | None, msgspec.Raw, msgspec.Raw, msgspec.Raw]] = deque(
            maxlen=KEEP_RECENT
        )
        """The latest updates (state id, actor, action, public action, events) for rejoins."""
        self.empty_since: float | None = None
        self.created_at = hub.clock.now()
        self.opened_by: object | None = None
        """The connection that opened the room (its lobbies count against its cap)."""
        self.opened_from = ""
        """The address that opened the room."""
        self.public = False
        """Whether `rooms` requests list the room while it is a lobby."""
        self.public_kinds: frozenset[str] | None = self.spec.public_actions
        self.bot_rng = Rng(secrets.randbits(128))
        self._legal = _LegalCache()
        self._last_clock: ClockTold | None = None
        self.writes = RoomWrites(hub.store, self, hub.outbox)
        self._clock_saved: dict[str, Any] | None = None
        self.pending: asyncio.Future[None] | None = None
        """The latest write not committed yet: messages sent meanwhile wait for it."""
        self._static: bytes | None = None
        """The `room_data` message (built once: what it holds never changes)."""
        self._unset_static = dict.fromkeys(self.spec.static_view, msgspec.UNSET)
        """What a lean view replaces its unchanging fields with (left out of its JSON)."""
        self.drafts = Drafts()
        """Each seat's last checked draft of the turn, sent back to that seat only."""
        self.owned = True
        """False once this process let the room go (lost or handed over): nothing acts in
        it here any more, whatever its phase (the store keeps that)."""

    # -- building --------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        hub: Hub,
        code: str,
        game: str,
        config: dict[str, Any],
        seed: int,
        *,
        show_after: float,
        pack: P.PackRef | None = None,
        public: bool = False,
    ) -> Room:
        """A new room from a config the server checked (`configs.check_online_config`:
        the game exists, the players are in its range); `Refused("bad_config")` names what
        the engine finds wrong with the rest. `public` lists it (stored with it)."""
        broken = unavailable_games()
        if game in broken:
            raise Refused("unavailable", f"{game} cannot be played here now: {broken[game]}")
        spec = game_spec(game)
        players = int(config.get("players", spec.players[0]))
        full = _public_map_seed(
            spec, {**spec.default_config(players), **config, "players": players}
        )
        try:
            state = new_game(game, hub.maps.engine_config(game, full), seed)
        except Exception as exc:  # a game's config errors are ValueErrors, but be safe
            raise Refused("bad_config", f"{type(exc).__name__}: {exc}") from None
        room = cls(hub, code, game, full, seed, state, show_after=show_after, pack=pack)
        room.public = public
        room.writes.add_room(code, game, full, seed, hub.clock.now(), _pack_json(pack), public)
        for seat in room.seats:
            room.writes.set_seat(code, seat.row())
        return room

    @classmethod
    def restore(cls, hub: Hub, row: RoomRow, *, show_after: float) -> Room:
        """Rebuild a stored room by replaying its log; every seat starts disconnected."""
        state = new_game(row.game, hub.maps.engine_config(row.game, row.config), row.seed)
        pack = msgspec.json.decode(row.pack, type=P.PackRef) if row.pack else None
        room = cls(
            hub, row.code, row.game, row.config, row.seed, state, show_after=show_after, pack=pack
        )
        for entry in row.log:
            events = apply_op(state, decode_op(entry))
            room.state_id += 1
            if room.clock.fences(events):
                room.fence = room.state_id
        for s in row.seats:
            seat = room.seats[s.seat]
            seat.kind = s.kind  # type: ignore[assignment]
            seat.name, seat.bot, seat.token, seat.ready = s.name, s.bot, s.token, s.ready
            if seat.kind == "bot" and seat.bot:
                seat.brain = room._make_bot(seat.bot)
            if seat.token:
                hub.bind(seat.token, room)
        room.phase = row.phase  # type: ignore[assignment]
        room.created_at = row.created
        room.public = row.public
        if row.clock:
            saved = msgspec.json.decode(row.clock)
            if isinstance(saved, dict):
                room.clock.load(saved)
                room._clock_saved = room.clock.saved()
        if room.phase == "paused":
            room.paused_at = hub.clock.now()
        if room.phase == "playing":
            room._observe()
            room._maybe_bots()
        return room

    # -- seats ----------------------------------------------------------------------------------

    def _seat_of(self, token: str | None, peer: Peer | None = None) -> Seat:
        """The seat `token` holds (and `peer` is connected to, when given)."""
        for seat in self.seats:
            if token is not None and seat.token == token:
                if peer is not None and seat.peer is not peer:
                    raise Refused("bad_token", "that seat token is not this connection's")
                return seat
        raise Refused("bad_token", "no seat holds that token in this room")

    def viewer(self, peer: Peer, token: str | None) -> int | None:
        """Whose eyes `peer` asks with: the seat `token` holds (connected to `peer`), or
        None for a spectator of this room; Refused when `peer` is neither."""
        if token:
            return self._seat_of(token, peer).index
        if peer in self.spectators:
            return None
        raise Refused("not_watching", "neither a seat nor a spectator of this room")

    def _host(self, token: str, peer: Peer) -> Seat:
        seat = self._seat_of(token, peer)
        if seat.index != self.host_seat:
            raise Refused("not_host", "only the host of the room may do that")
        return seat

    def join(self, peer: Peer, seat_index: int | None) -> Seat:
        """Take an open seat (the first one when None); sends seated, room, view, clock."""
        if self.phase == "over":
            raise Refused("over", "this match is over")
        if seat_index is None:
            free = [s for s in self.seats if s.kind == "open"]
            if not free:
                raise Refused("room_full", "every seat is taken (you may spectate)")
            seat = free[0]
        else:
            if not 0 <= seat_index < len(self.seats):
                raise Refused("no_seat", f"seats are 0 to {len(self.seats) - 1}")
            seat = self.seats[seat_index]
            if seat.kind != "open":
                raise Refused("seat_taken", f"seat {seat_index} is taken")
        self._detach_peer_elsewhere(peer)
        seat.kind, seat.name, seat.token, seat.ready, seat.peer = (
            "human",
            peer.name,
            new_token(),
            False,
            peer,
        )
        assert seat.token is not None
        self.hub.bind(seat.token, self)
        self.writes.set_seat(self.code, seat.row())
        self.event(f"{peer.name!r} joined seat {seat.index}")
        self._greet(peer, seat)
        self._broadcast_room(but=peer)
        return seat

    def rejoin(self, peer: Peer, token: str, since: int | None = None) -> Seat:
        """Take a held seat back; a live older connection of that seat is let go. With
        `since`, the updates after that state id that the room still keeps come first."""
        seat = self._seat_of(token)
        old = seat.peer
        if old is not None and old is not peer:
            self._out(
                old, P.encode(P.Error(code="replaced", message="this seat rejoined elsewhere"))
            )
            old.left_room(self)
        self._detach_peer_elsewhere(peer)
        seat.peer = peer
        self.event(f"seat {seat.index} ({seat.name!r}) reconnected")
        self._greet(peer, seat, since)
        self._broadcast_room(but=peer)
        return seat

    def spectate(self, peer: Peer) -> None:
        self._detach_peer_elsewhere(peer)
        self.spectators.append(peer)
        self._out(peer, self._room_msg())
        self._room_data(peer)
        self._out(peer, self._view_bytes(None, lean=peer.lean))
        self._out(peer, P.encode(self._clock_msg()))
        self.event(f"{peer.name!r} is watching")
        self._broadcast_room(but=peer)

    def _detach_peer_elsewhere(self, peer: Peer) -> None:
        """A connection sits in one place: drop it from any seat or the spectators here."""
        for seat in self.seats:
            if seat.peer is peer:
                seat.peer = None
        if peer in self.spectators:
            self.spectators.remove(peer)

    def disconnected(self, peer: Peer) -> None:
        """The connection dropped: its seat is held (shown disconnected)."""
        changed = False
        for seat in self.seats:
            if seat.peer is peer:
                seat.peer = None
                changed = True
                self.event(f"seat {seat.index} ({seat.name!r}) disconnected")
        if peer in self.spectators:
            self.spectators.remove(peer)
            changed = True
        if changed:
            self._broadcast_room()

    def leave(self, peer: Peer, token: str | None) -> None:
        """Leave: a lobby seat is freed; a seat in play is held for a rejoin."""
        if token is None:
            if peer not in self.spectators:
                raise Refused("bad_token", "leaving a seat needs its token")
            self.spectators.remove(peer)
            peer.left_room(self)
            self._broadcast_room()
            return
        seat = self._seat_of(token, peer)
        if self.phase == "lobby":
            self._free(seat)
            self.event(f"{seat.name!r} left seat {seat.index}")
        else:
            seat.peer = None
            self.event(f"seat {seat.index} ({seat.name!r}) left (seat held)")
        peer.left_room(self)
        self._broadcast_room()

    def _free(self, seat: Seat) -> None:
        if seat.token:
            self.hub.unbind(seat.token)
        seat.kind, seat.name, seat.bot, seat.token, seat.ready, seat.peer, seat.brain = (
            "open",
            "",
            None,
            None,
            False,
            None,
            None,
        )
        self.writes.set_seat(self.code, seat.row())

    # -- host ---------------------------------------------------------------------------------

    def seat_bot(self, peer: Peer, token: str, index: int, bot: str) -> None:
        self._host(token, peer)
        if self.phase == "over":
            raise Refused("over", "this match is over")
        if not 0 <= index < len(self.seats):
            raise Refused("no_seat", f"seats are 0 to {len(self.seats) - 1}")
        if index == self.host_seat:
            raise Refused("host_seat", "the host's own seat cannot be given to a bot")
        if bot not in self.bot_names():
            known = ", ".join(self.bot_names())
            raise Refused("unknown_bot", f"{self.spec.title} has no bot {bot!r} (has {known})")
        seat = self.seats[index]
        if seat.kind == "human":
            self._let_go(seat, "the host gave your seat to a bot")
        seat.kind, seat.name, seat.bot, seat.ready = "bot", f"{bot} bot", bot, True
        seat.brain = self._make_bot(bot)
        self.writes.set_seat(self.code, seat.row())
        self.event(f"host seated bot {bot!r} at seat {index}")
        self._broadcast_room()
        self._maybe_start()
        self._maybe_bots()

    def kick(self, peer: Peer, token: str, index: int) -> None:
        self._host(token, peer)
        if not 0 <= index < len(self.seats):
            raise Refused("no_seat", f"seats are 0 to {len(self.seats) - 1}")
        if index == self.host_seat:
            raise Refused("host_seat", "the host cannot kick itself")
        seat = self.seats[index]
        if seat.kind == "open":
            raise Refused("no_seat", f"seat {index} is open")
        if seat.kind == "human":
            self._let_go(seat, "the host kicked you")
        self._free(seat)
        self.event(f"host kicked seat {index}")
        self._broadcast_room()

    def _let_go(self, seat: Seat, why: str) -> None:
        self.drafts.drop(seat.index)
        if seat.peer is not None:
            self._out(seat.peer, P.encode(P.Error(code="kicked", message=why)))
            seat.peer.left_room(self)
            seat.peer = None
        if seat.token:
            self.hub.unbind(seat.token)
            seat.token = None

    def pause(self, peer: Peer, token: str) -> None:
        self._host(token, peer)
        if self.phase != "playing":
            raise Refused("not_playing", f"only a match in play can be paused (it is {self.phase})")
        self.phase = "paused"
        self.paused_at = self.hub.clock.now()
        self.writes.set_phase(self.code, "paused")
        self.event("paused by the host")
        self._broadcast_room()
        self._broadcast_clock()

    def resume(self, peer: Peer, token: str) -> None:
        self._host(token, peer)
        if self.phase != "paused":
            raise Refused("not_paused", "the match is not paused")
        now = self.hub.clock.now()
        self.clock.shift(now - (self.paused_at or now))
        self._save_clock()
        self.paused_at = None
        self.phase = "playing"
        self.writes.set_phase(self.code, "playing")
        self.event("resumed by the host")
        self._broadcast_room()
        self._broadcast_clock()
        self._maybe_bots()

    def set_public(self, peer: Peer, token: str, public: bool) -> None:
        """Host: list the room in `rooms` answers while it is a lobby, or stop listing it
        (stored, like the `public` of `create`: a rebuilt room is listed as it was)."""
        self._host(token, peer)
        if self.public != public:
            self.public = public
            self.writes.set_public(self.code, public)
            self.event("listed by the host" if public else "unlisted by the host")
        self._broadcast_room()

    def end(self, peer: Peer, token: str) -> None:
        self._host(token, peer)
        if self.phase == "over":
            raise Refused("over", "this match is over")
        self._finish(None, "ended by the host")

    # -- lobby -------------------------------------------------------------------------------

    def set_ready(self, peer: Peer, token: str, ready: bool) -> None:
        seat = self._seat_of(token, peer)
        if self.phase == "lobby":
            seat.ready = ready
            self.writes.set_seat(self.code, seat.row())
            self._broadcast_room()
            self._maybe_start()
            return
        action = self.clock.ready_action(ready)
        if action is None:
            raise Refused("no_ready", f"{self.spec.title} has no ready flag once it has begun")
        self.act(peer, token, self.state_id, action)

    def _maybe_start(self) -> None:
        if self.phase != "lobby":
            return
        if any(s.kind == "open" or (s.kind == "human" and not s.ready) for s in self.seats):
            return
        self.phase = "playing"
        self.writes.set_phase(self.code, "playing")
        self.event(f"{self.spec.title} began")
        self._broadcast_room()
        self._observe()
        for seat in self.seats:
            if seat.peer is not None:
                self._out(seat.peer, self._view_bytes(seat.index, lean=seat.peer.lean))
        for peer in list(self.spectators):
            self._out(peer, self._view_bytes(None, lean=peer.lean))
        self._maybe_bots()

    # -- playing -----------------------------------------------------------------------------

    def _check_playing(self) -> None:
        if self.phase == "lobby":
            raise Refused("not_started", "the match has not begun")
        if self.phase == "paused":
            raise Refused("paused", "the host paused the match")
        if self.phase == "over":
            raise Refused("over", "this match is over")

    def act(self, peer: Peer, token: str, state_id: int, action: dict[str, Any]) -> None:
        """A seat's action, checked in order: token, awaited, state id, legality."""
        seat = self._seat_of(token, peer)
        self._check_playing()
        if not isinstance(action.get("kind"), str):
            raise Refused("bad_action", "an action is an object with a `kind` name")
        ready_kinds = [self.clock.ready_action(True), self.clock.ready_action(False)]
        if seat.index not in self.state.awaiting() and action not in ready_kinds:
            raise Refused("not_your_turn", f"the game is not waiting for seat {seat.index}")
        if not self.fence <= state_id <= self.state_id:
            raise Refused(
                "stale", f"you acted on state {state_id}; the state is now {self.state_id}"
            )
        if action.get("kind") in self.clock.server_only:
            raise Refused("illegal", f"{action.get('kind')!r} is played by the server only")
        self._commit(ActOp(seat=seat.index, action=action))

    def poke(self, peer: Peer, token: str) -> None:
        seat = self._seat_of(token, peer)
        self._check_playing()
        self._commit(PokeOp(seat=seat.index, now=self.hub.clock.now()))
        self.event(f"seat {seat.index} poked the late seats")

    def run_now(self, peer: Peer, token: str) -> None:
        seat = self._seat_of(token, peer)
        self._check_playing()
        self._commit(RunNowOp(now=self.hub.clock.now()))
        self.event(f"seat {seat.index} ran the turn now")

    def draft_check(
        self,
        peer: Peer,
        token: str,
        state_id: int,
        draft: dict[str, Any],
        probe: dict[str, Any] | None,
        ref: int = 0,
    ) -> None:
        """A seat asks about its own draft: the answer goes to `peer` alone, and the
        draft is kept (for this turn) to be sent back when the seat rejoins."""
        seat = self._seat_of(token, peer)
        if self.phase not in ("playing", "paused"):  # planning goes on while paused
            self._check_playing()
        if not self.fence <= state_id <= self.state_id:
            raise Refused(
                "stale", f"you asked on state {state_id}; the state is now {self.state_id}"
            )
        answer = check_draft(self.game, self.state.view(seat.index), draft, probe)
        self.drafts.keep(seat.index, answer.turn, msgspec.json.decode(answer.draft))
        self._out(peer, self._draft_message(answer.draft, answer.report, ref))

    def _draft_message(self, draft: bytes, report: bytes, ref: int = 0) -> bytes:
        return P.encode(
            P.DraftReportMsg(
                code=self.code,
                state_id=self.state_id,
                draft=msgspec.Raw(draft),
                report=msgspec.Raw(report),
                ref=ref,
            )
        )

    def _send_draft(self, peer: Peer, seat: Seat) -> None:
        """The seat's kept draft of this turn, checked again, to its own `peer`."""
        if self.phase not in ("playing", "paused"):
            return
        view = self.state.view(seat.index)
        kept = self.drafts.of(seat.index, getattr(view, "turn", -1))
        if kept is None:
            return
        try:
            answer = check_draft(self.game, view, kept, None)
        except Refused:  # no longer valid (a colour fell): the seat starts afresh
            self.drafts.drop(seat.index)
            return
        self._out(peer, self._draft_message(answer.draft, answer.report))

    def legal_page(self, peer: Peer, token: str, state_id: int, page: int) -> None:
        seat = self._seat_of(token, peer)
        if state_id != self.state_id:
            raise Refused(
                "stale", f"you asked about state {state_id}; the state is now {self.state_id}"
            )
        pages = self._legal_pages(seat.index)
        if not 0 <= page < max(1, pages):
            raise Refused("no_page", f"there are {pages} pages of legal actions")
        chunk = self._legal_page(seat.index, page)
        self._out(
            peer,
            P.encode(
                P.LegalPage(
                    state_id=self.state_id,
                    page=page,
                    pages=pages,
                    actions=msgspec.Raw(chunk),
                )
            ),
        )

    def chat(self, peer: Peer, token: str | None, text: str) -> None:
        """A chat line to the whole room: text only (control characters are removed); the
        seats of a finished room may still talk."""
        if len(text) > 4 * P.MAX_CHAT:
            raise Refused("chat_too_long", f"chat lines are at most {P.MAX_CHAT} characters")
        text = chat_text(text)
        if not text:
            raise Refused("empty_chat", "nothing to say")
        if len(text) > P.MAX_CHAT:
            raise Refused("chat_too_long", f"chat lines are at most {P.MAX_CHAT} characters")
        if token is None:
            if peer not in self.spectators:
                raise Refused("bad_token", "seated players chat with their token")
            index, name = None, peer.name
        else:
            seat = self._seat_of(token, peer)
            index, name = seat.index, seat.name
        line = P.encode(
            P.ChatLine(code=self.code, seat=index, name=name, text=text, at=self.hub.clock.now())
        )
        self._send_all(line)

    @property
    def acting(self) -> bool:
        """Whether the match runs here now: in play and owned by this process."""
        return self.owned and self.phase == "playing"

    def let_go(self) -> None:
        """This process stops running the room (lost, or handed over): nothing acts in it
        here any more, and its clients are closed with `CLOSE_MOVED` to rejoin its next
        owner."""
        self.owned = False
        for peer in self.connected_peers():
            peer.close_later(P.CLOSE_MOVED, "the room moved: rejoin with your token")

    def tick(self) -> None:
        """Run the clock: commit whatever it says is due (time-ups), and tell the room when
        the clock's state changed (a deadline passed, run-now became possible)."""
        if not self.acting:
            return
        now = self.hub.clock.now()
        for op in self.clock.due(self.state, now):
            try:
                self._commit(op)
            except Refused as exc:
                log.warning("room %s: clock op %r refused: %s", self.code, op, exc.message)
        if self.acting:
            self._broadcast_clock()  # only when something but the time changed

    def expire(self, after: float, lobby_expiry: float = float("inf")) -> None:
        """Close a lobby nobody has been connected to for `after` seconds, or that has not
        started `lobby_expiry` seconds after it opened."""
        if self.phase != "lobby" or not self.owned:
            return
        now = self.hub.clock.now()
        if now - self.created_at >= lobby_expiry:
            self._finish(None, "the lobby expired before the match began")
            return
        if self.connected_peers():
            self.empty_since = None
        elif self.empty_since is None:
            self.empty_since = now
        elif now - self.empty_since >= after:
            self._finish(None, "nobody came back to the lobby")

    def bot_step(self) -> BotJob | None:
        """Let one awaited bot seat act (the server calls this when `bots_due` asked).

        A bot that searches (`thinks_long`) does not decide here: the job is returned for
        the server to have it made in a worker process, then handed to `bot_decided`."""
        if not self.acting:
            return None
        for index in sorted(self.state.awaiting()):
            seat = self.seats[index]
            if seat.kind != "bot":
                continue
            legal = self.state.legal(index)
            view = self.state.view(index)
            if thinks_long(seat.brain):
                return BotJob(index, seat.brain, view, legal, self.bot_rng, self.state_id)
            try:
                action = seat.brain.choose(view, legal, self.bot_rng)
                self._commit(ActOp(seat=index, action=_builtins(action)))
            except Exception as exc:
                self._bot_failed(index, legal, exc)
            break
        self._maybe_bots()
        return None

    def bot_decided(self, job: BotJob, decision: Decision | None) -> None:
        """A decision made in a worker for `job` (None: the worker failed). It is played
        unless the match moved on meanwhile (then the bot is asked again)."""
        seat = self.seats[job.seat]
        if self.acting and self.state_id == job.state_id and seat.brain is job.bot:
            try:
                if decision is None:
                    raise RuntimeError("its worker failed")
                action, brain, rng = decision
                self._commit(ActOp(seat=job.seat, action=_builtins(action)))
                seat.brain, self.bot_rng = brain, rng
            except Exception as exc:
                self._bot_failed(job.seat, job.legal, exc)
        self._maybe_bots()

    def _bot_failed(self, index: int, legal: Legal, exc: Exception) -> None:
        log.warning("room %s: bot at seat %d failed (%s); playing random", self.code, index, exc)
        action = RandomBot().choose(self.state.view(index), legal, self.bot_rng)
        self._commit(ActOp(seat=index, action=_builtins(action)))

    def _maybe_bots(self) -> None:
        if self.acting and any(self.seats[s].kind == "bot" for s in self.state.awaiting()):
            self.hub.bots_due(self)

    def _commit(self, op: Op) -> None:
        """Apply, persist, then broadcast `op` (Refused("illegal") changes nothing)."""
        if not self.owned:
            raise Refused("moved", "the room moved: rejoin with your token")
        try:
            events = apply_op(self.state, op)
        except IllegalAction as exc:
            raise Refused("illegal", exc.reason) from None
        except ValueError as exc:
            raise Refused("bad_action", str(exc)) from None
        try:
            self.writes.append(self.code, self.state_id, encode_op(op))
        except Exception as exc:
            log.exception("room %s: the log could not be written", self.code)
            self.hub.lost(self, f"a write failed: {exc}")
            raise Refused("server_error", "the server could not record that; try again") from None
        self.state_id += 1
        if self.clock.fences(events):
            self.fence = self.state_id
        self.hub.accepted(self.game)
        self._after(op, events)

    def _after(self, op: Op, events: list[Event]) -> None:
        events_raw = msgspec.Raw(_json.encode(events))
        actor: int | None = None
        public = P.NULL
        private = P.NULL
        if isinstance(op, ActOp):
            actor = op.seat
            private = msgspec.Raw(_json.encode(op.action))
            if self.public_kinds is None or op.action.get("kind") in self.public_kinds:
                public = private
        elif isinstance(op, PokeOp):
            actor = op.seat
        self.recent.append((self.state_id, actor, private, public, events_raw))
        outcome = self.state.outcome()
        if outcome is not None:  # the result first: a client reading the last view knows it
            self._finish(msgspec.to_builtins(outcome), outcome.reason)
        for seat in self.seats:
            if seat.peer is not None:
                shown = private if seat.index == actor else public
                view = self._view_bytes(seat.index, events_raw, actor, shown, lean=seat.peer.lean)
                self._out(seat.peer, view)
        watching: dict[bool, bytes] = {}
        for peer in list(self.spectators):
            if peer.lean not in watching:
                watching[peer.lean] = self._view_bytes(
                    None, events_raw, actor, public, lean=peer.lean
                )
            self._out(peer, watching[peer.lean])
        if outcome is not None:
            return
        self._observe()
        self._maybe_bots()

    def _observe(self) -> None:
        """Let the clock see the new state (it may start a turn clock) and tell everyone."""
        for op in self.clock.observe(self.state, self.hub.clock.now()):
            self._commit(op)
            return
        self._save_clock()
        self._broadcast_clock()

    def _save_clock(self) -> None:
        """Store the turn clock when it changed (a rebuilt room resumes it)."""
        saved = self.clock.saved()
        if saved != self._clock_saved:
            self._clock_saved = saved
            self.writes.set_clock(
                self.code, None if saved is None else _json.encode(saved).decode()
            )

    def _finish(self, outcome: dict[str, Any] | None, reason: str) -> None:
        self.phase = "over"
        self.over_at = self.hub.clock.now()
        self.writes.set_phase(self.code, "over", {"outcome": outcome, "reason": reason})
        self.event(f"over: {reason}")
        self._broadcast_room()
        self._send_all(P.encode(P.GameOverMsg(code=self.code, outcome=outcome, reason=reason)))
        self.hub.finished(self, outcome)

    # -- messages ----------------------------------------------------------------------------

    def hold_until(self, commit: asyncio.Future[None]) -> None:
        """Messages the room sends from now on wait until `commit` is durable (the store
        commits a room's writes in order, so the latest write covers the earlier ones).
        A failed commit loses the room (`Hub.lost`)."""
        self.pending = commit

        def settled(done: asyncio.Future[None]) -> None:
            if self.pending is done:
                self.pending = None
            if not done.cancelled() and done.exception() is not None:
                self.hub.lost(self, f"a write failed: {done.exception()}")

        commit.add_done_callback(settled)

    def _out(self, peer: Peer, data: bytes) -> None:
        """Send `data` to `peer`, after the pending write when there is one."""
        if self.pending is not None:
            peer.hold(self.pending)
        peer.send(data)

    def _greet(self, peer: Peer, seat: Seat, since: int | None = None) -> None:
        """Seated, room, missed updates (after `since`), view and clock for a (re)joining
        seat; the caller then tells the others (`_broadcast_room(but=peer)`)."""
        assert seat.token is not None
        self._out(
            peer,
            P.encode(
                P.Seated(
                    code=self.code,
                    seat=seat.index,
                    token=seat.token,
                    host=seat.index == self.host_seat,
                )
            ),
        )
        self._out(peer, self._room_msg())
        self._room_data(peer)
        if since is not None and since < self.state_id:
            missed = self._missed(seat.index, since)
            if missed is not None:
                self._out(peer, missed)
        self._out(peer, self._view_bytes(seat.index, lean=peer.lean))
        self._out(peer, P.encode(self._clock_msg()))
        self._send_draft(peer, seat)

    def _room_data(self, peer: Peer) -> None:
        """The game's unchanging view fields, once, to a peer that takes them so."""
        if peer.lean and self.spec.static_view:
            if self._static is None:
                view = msgspec.structs.asdict(self.state.view(None))
                static = {name: view[name] for name in self.spec.static_view}
                self._static = P.encode(P.RoomData(code=self.code, data=_raw(static)))
            self._out(peer, self._static)

    def _missed(self, seat: int, since: int) -> bytes | None:
        """The kept updates after `since` as seen by `seat`, as many of the latest as fit."""
        updates = [
            P.Missed(
                state_id=sid,
                actor=actor,
                action=private if actor == seat else public,
                events=events,
            )
            for sid, actor, private, public, events in self.recent
            if sid > since
        ]
        while updates:
            data = P.encode(
                P.Events(
                    code=self.code,
                    state_id=self.state_id,
                    first=updates[0].state_id,
                    updates=tuple(updates),
                )
            )
            if len(data) <= P.MAX_MESSAGE:
                return data
            updates = updates[len(updates) // 4 + 1 :]
        return None

    def _room_msg(self) -> bytes:
        return P.encode(
            P.Room(
                code=self.code,
                game=self.game,
                title=self.spec.title,
                phase=self.phase,
                seats=tuple(s.info() for s in self.seats),
                config=self.config,
                host_seat=self.host_seat,
                spectators=len(self.spectators),
                pack=self.pack,
                public=self.public,
            )
        )

    def _view_bytes(
        self,
        seat: int | None,
        events: msgspec.Raw | None = None,
        actor: int | None = None,
        action: msgspec.Raw = P.NULL,
        *,
        lean: bool = False,
    ) -> bytes:
        """The `view` message of `seat` (None: a spectator); `lean` leaves the game's
        unchanging fields out (the peer had them in `room_data`)."""
        awaiting = tuple(sorted(self.state.awaiting())) if self.phase != "lobby" else ()
        legal = P.NULL
        pages = 0
        choices = None
        if seat is not None and seat in awaiting and self.phase == "playing":
            raw = self._legal_of(seat)
            if isinstance(raw, Sequence):
                count = len(raw)
                encoded = self._legal_json(raw) if count <= LEGAL_INLINE_ACTIONS else b""
                if encoded and len(encoded) <= LEGAL_INLINE:
                    legal = msgspec.Raw(encoded)
                else:
                    pages = -(-count // LEGAL_PAGE_ACTIONS)
            else:
                describe: Callable[[], dict[str, Any]] | None = getattr(raw, "describe", None)
                choices = describe() if describe is not None else None
        message = P.ViewMsg(
            code=self.code,
            seat=seat,
            state_id=self.state_id,
            view=self._view_json(seat, lean),
            awaiting=awaiting,
            events=events if events is not None else msgspec.Raw(b"[]"),
            actor=actor,
            action=action,
            legal=legal,
            legal_pages=pages,
            choices=choices,
        )
        data = P.encode(message)
        if len(data) > P.MAX_MESSAGE:  # never sent: the configs' bounds should prevent it
            log.error("a view of %d bytes is over the limit", len(data), extra={"room": self.code})
            return P.encode(
                P.Error(code="too_large", message="your view is too large to send", ref="view")
            )
        return data

    def _view_json(self, seat: int | None, lean: bool) -> msgspec.Raw:
        """The seat's view as JSON; `lean` leaves the game's unchanging fields out (they
        are set to UNSET, which msgspec leaves out of the encoding, tag kept)."""
        view = self.state.view(seat)
        if lean and self.spec.static_view:
            view = msgspec.structs.replace(view, **self._unset_static)
        return msgspec.Raw(_json.encode(view))

    def _legal_of(self, seat: int) -> Legal:
        """The seat's legal actions now (asked of the engine once per state)."""
        if self._legal.state_id != self.state_id:
            self._legal = _LegalCache(self.state_id)
        if seat not in self._legal.legal:
            awaited = seat in self.state.awaiting()
            self._legal.legal[seat] = self.state.legal(seat) if awaited else []
        return self._legal.legal[seat]

    def _legal_json(
        self, actions: Sequence[Action], start: int = 0, stop: int | None = None
    ) -> bytes:
        """Actions `start` to `stop` of a legal list as JSON: by the game's own
        `legal_json` when it has one."""
        if self.spec.legal_json is not None:
            return self.spec.legal_json(actions, _PIECES, start, stop)
        return _json.encode(list(actions[start:stop]))

    def _legal_pages(self, seat: int) -> int:
        """How many pages the seat's legal actions take (0 for none, or an action space)."""
        raw = self._legal_of(seat)
        if not isinstance(raw, Sequence):
            return 0
        return -(-len(raw) // LEGAL_PAGE_ACTIONS)

    def _legal_page(self, seat: int, page: int) -> bytes:
        """Page `page` (0 <= page < `_legal_pages`) of the seat's legal actions, as JSON."""
        raw = self._legal_of(seat)
        if not isinstance(raw, Sequence) or not raw:
            return b"[]"
        start = page * LEGAL_PAGE_ACTIONS
        return self._legal_json(raw, start, start + LEGAL_PAGE_ACTIONS)

    def _clock_msg(self, told: ClockTold | None = None) -> P.ClockMsg:
        """The room's `clock` message now (from `told`, when already worked out)."""
        now, (info, paused) = self.hub.clock.now(), told or self._clock_told()
        fields = msgspec.structs.asdict(info) if info is not None else {}
        return P.ClockMsg(code=self.code, now=now, paused=paused, **fields)

    def _clock_told(self) -> ClockTold:
        """What a `clock` message tells besides the time now."""
        playing = self.phase in ("playing", "paused")
        info = self.clock.info(self.state, self.hub.clock.now()) if playing else None
        return info, self.phase == "paused"

    def _broadcast_clock(self) -> None:
        """Tell everyone the clock when it tells something new (not only a later time)."""
        told = self._clock_told()
        if told == self._last_clock:
            return
        self._last_clock = told
        self._send_all(P.encode(self._clock_msg(told)))

    def _broadcast_room(self, but: Peer | None = None) -> None:
        self._send_all(self._room_msg(), but)

    def _send_all(self, data: bytes, but: Peer | None = None) -> None:
        """Send to every seat and spectator (a peer dropped meanwhile is skipped)."""
        for seat in self.seats:
            if seat.peer is not None and seat.peer is not but:
                self._out(seat.peer, data)
        for peer in list(self.spectators):
            if peer is not but:
                self._out(peer, data)

    def bot_names(self) -> list[str]:
        return sorted({"random", *self.spec.bots})

    def _make_bot(self, name: str) -> Any:
        return make_bot(self.spec, name)

    def event(self, text: str) -> None:
        """One log line per room event."""
        log.info("[%s] %s", self.game, text, extra={"room": self.code})

    def public_entry(self, free: int) -> P.PublicRoom:
        """The room as a `rooms` answer lists it."""
        host = self.seats[self.host_seat]
        return P.PublicRoom(
            code=self.code,
            game=self.game,
            title=self.spec.title,
            seats_free=free,
            players=len(self.seats),
            host=host.name,
            config=self.config,
        )

    def connected_peers(self) -> list[Peer]:
        return [s.peer for s in self.seats if s.peer is not None] + list(self.spectators)


DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
"""Characters a chat line drops: controls (ESC, BEL, CR, LF...), format characters (bidi
overrides, zero-width), surrogates, private-use and unassigned code points."""


def chat_text(text: str) -> str:
    """`text` as a chat line shows it: one line of printable text, trimmed."""
    kept = (c for c in text if unicodedata.category(c) not in DROPPED_CATEGORIES)
    return "".join(kept).strip()


def _raw(value: Any) -> msgspec.Raw:
    return msgspec.Raw(_json.encode(value))


def _builtins(action: Any) -> dict[str, Any]:
    out = msgspec.to_builtins(action, str_keys=True)
    if not isinstance(out, dict):
        raise ValueError(f"a bot answered {action!r}, not an action")
    return out


def _pack_json(pack: P.PackRef | None) -> str | None:
    return None if pack is None else _json.encode(pack).decode()


def _public_map_seed(spec: Any, config: dict[str, Any]) -> dict[str, Any]:
    """`config` with a `map_seed` of its own when the game's config has one and it is unset.

    Such a game (World War) draws a random map from the match's seed otherwise, and the
    seed must stay secret on the server; a map seed of its own, in the room's public
    config, lets every client draw the same board (the game's own screens need it)."""
    fields = getattr(spec.config_type, "__struct_fields__", ())
    if "map_seed" in fields and config.get("map_seed") is None:
        return {**config, "map_seed": secrets.randbelow(2**31)}
    return config
