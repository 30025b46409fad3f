"""What a room logs and replays (`Op`), and the turn clocks the server runs for each game.

A room's log is a list of ops: a seat's action (`ActOp`) or a clock operation of the WoK
turn clock (W12: the clock starting, a poke, a run-now), each carrying the server time it
happened at, so a replay after a restart rebuilds the very same state.

Turn clocks (`TurnClock`) read the state and the time and say which ops are due:
- World War (R7): each player turn has `state.clock` seconds (0: off); when they run out
  the server plays the engine's `TimeUp` for the awaited seat.
- WoK (W12): deadline, poke and run-now come from `suite.wok.rules.clock`; the server
  starts each turn's clock, and any seat may poke or run the turn when it is allowed.
- Tactics (and any other game): the waiting timer, shown to everyone once the awaited seat
  has waited `show_after` seconds (the host may then seat a bot in its place).
"""

from __future__ import annotations

from typing import Any

import msgspec

from suite.core.match import Event, IllegalAction, State, decode_action


class ActOp(msgspec.Struct, frozen=True, tag_field="op", tag="act"):
    seat: int
    action: dict[str, Any]


class ClockStartOp(msgspec.Struct, frozen=True, tag_field="op", tag="clock_start"):
    now: float


class PokeOp(msgspec.Struct, frozen=True, tag_field="op", tag="poke"):
    seat: int
    now: float


class RunNowOp(msgspec.Struct, frozen=True, tag_field="op", tag="run_now"):
    now: float


Op = ActOp | ClockStartOp | PokeOp | RunNowOp
_op_decoder = msgspec.json.Decoder(Op)
_encoder = msgspec.json.Encoder()


def encode_op(op: Op) -> bytes:
    return _encoder.encode(op)


def decode_op(data: bytes | str | dict[str, Any]) -> Op:
    """An op from its JSON (bytes/str) or its builtins (dict); ValueError when malformed."""
    try:
        if isinstance(data, dict):
            op: Op = msgspec.convert(data, type=Op)
        else:
            op = _op_decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ValueError(f"bad log entry: {exc}") from exc
    return op


def apply_op(state: State, op: Op) -> list[Event]:
    """Perform `op` on `state`; IllegalAction (state unchanged) or ValueError when refused."""
    if isinstance(op, ActOp):
        return state.apply(op.seat, decode_action(state.game, op.action))
    from suite.wok.rules import clock as wok_clock

    if state.game != "wok":
        raise IllegalAction(f"{state.game} has no turn clock operation {type(op).__name__}")
    wok: Any = state
    if isinstance(op, ClockStartOp):
        wok_clock.start(wok, op.now)
        return []
    if isinstance(op, PokeOp):
        return wok_clock.poke(wok, op.seat, op.now)
    return wok_clock.run_now(wok, op.now)


class ClockInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A clock as the protocol's `clock` message carries it (see `protocol.ClockMsg`)."""

    waiting: tuple[int, ...] = ()
    waiting_since: float | None = None
    show_after: float | None = None
    deadline: float | None = None
    poked_at: float | None = None
    can_poke: bool = False
    run_now_at: float | None = None
    can_run_now: bool = False


class TurnClock:
    """The waiting timer every game has; subclasses add a game's own turn clock.

    `observe` is called after every change of the state (and at start); `due` at every
    tick gives the ops the clock wants committed now; `info` is what clients are shown.
    `shift` moves the clock's own deadlines (a pause).
    """

    server_only: frozenset[str] = frozenset()
    """Action kinds only the server may play (refused from clients)."""

    def __init__(self, show_after: float) -> None:
        self.show_after = show_after
        self.waiting: frozenset[int] = frozenset()
        self.since: float | None = None

    def observe(self, state: State, now: float) -> list[Op]:
        waiting = state.awaiting() if state.outcome() is None else frozenset()
        if waiting != self.waiting:
            self.waiting = waiting
            self.since = now if waiting else None
        return []

    def due(self, state: State, now: float) -> list[Op]:
        return []

    def shift(self, seconds: float) -> None:
        if self.since is not None:
            self.since += seconds

    def info(self, state: State, now: float) -> ClockInfo:
        return ClockInfo(
            waiting=tuple(sorted(self.waiting)),
            waiting_since=self.since,
            show_after=self.show_after,
        )

    def ready_action(self, ready: bool) -> dict[str, Any] | None:
        """The game's own ready flag as an action, when it has one (WoK)."""
        return None

    def saved(self) -> dict[str, Any] | None:
        """What the store keeps of the clock so a rebuilt room resumes it (None: nothing;
        the log alone rebuilds it)."""
        return None

    def load(self, saved: dict[str, Any]) -> None:
        """Resume from `saved()` of the room's previous process."""

    def fences(self, events: list[Event]) -> bool:
        """Whether an op with these events makes actions decided before it stale. In turn
        games every op does; with simultaneous orders only a turn running does."""
        return True


class WorldWarClock(TurnClock):
    """R7: the current player's turn runs out `state.clock` seconds after it began."""

    server_only = frozenset({"time_up"})

    def __init__(self, show_after: float) -> None:
        super().__init__(show_after)
        self.turn_key: tuple[int, int] | None = None
        self.deadline: float | None = None

    def _seconds(self, state: State) -> float:
        return float(getattr(state, "clock", 0) or 0)

    def observe(self, state: State, now: float) -> list[Op]:
        super().observe(state, now)
        if state.outcome() is not None or not self._seconds(state):
            self.deadline = None
            return []
        key = (int(getattr(state, "turn", 0)), int(getattr(state, "current", 0)))
        if key != self.turn_key:
            self.turn_key = key
            self.deadline = now + self._seconds(state)
        return []

    def saved(self) -> dict[str, Any] | None:
        if self.deadline is None or self.turn_key is None:
            return None
        return {"turn": list(self.turn_key), "deadline": self.deadline}

    def load(self, saved: dict[str, Any]) -> None:
        """The turn's deadline as it was: a rebuilt room's player has the time left."""
        turn, deadline = saved.get("turn"), saved.get("deadline")
        if isinstance(turn, list) and len(turn) == 2 and isinstance(deadline, int | float):
            self.turn_key = (int(turn[0]), int(turn[1]))
            self.deadline = float(deadline)

    def due(self, state: State, now: float) -> list[Op]:
        if self.deadline is None or now < self.deadline or state.outcome() is not None:
            return []
        awaited = sorted(state.awaiting())
        if not awaited:
            return []
        self.deadline = None
        return [ActOp(seat=awaited[0], action={"kind": "time_up"})]

    def shift(self, seconds: float) -> None:
        super().shift(seconds)
        if self.deadline is not None:
            self.deadline += seconds

    def info(self, state: State, now: float) -> ClockInfo:
        base = super().info(state, now)
        return msgspec.structs.replace(base, deadline=self.deadline)


class WokClock(TurnClock):
    """W12, with the figures of the game's clock preset (`suite.wok.rules.clock`)."""

    def observe(self, state: State, now: float) -> list[Op]:
        super().observe(state, now)
        wok: Any = state
        if state.outcome() is None and wok.clock.get("turn") != wok.turn:
            return [ClockStartOp(now=now)]
        return []

    def info(self, state: State, now: float) -> ClockInfo:
        from suite.wok.rules import clock as wok_clock

        base = super().info(state, now)
        wok: Any = state
        if state.outcome() is not None or wok.clock.get("turn") != wok.turn:
            return base
        st = wok_clock.status(wok, now)
        return msgspec.structs.replace(
            base,
            deadline=st["deadline_at"],
            poked_at=st["poked_at"],
            can_poke=st["can_poke"],
            run_now_at=st["run_now_at"],
            can_run_now=st["can_run_now"],
        )

    def ready_action(self, ready: bool) -> dict[str, Any] | None:
        return {"kind": "ready", "ready": ready}

    def fences(self, events: list[Event]) -> bool:
        """Orders entered while others enter theirs stay good until the turn runs."""
        return any(_tag(e) in ("turn_ran", "game_over") for e in events)


def _tag(event: Event) -> str:
    return str(event.__struct_config__.tag)


def turn_clock(game: str, show_after: float) -> TurnClock:
    """The clock the server runs for `game`."""
    if game == "worldwar":
        return WorldWarClock(show_after)
    if game == "wok":
        return WokClock(show_after)
    return TurnClock(show_after)
