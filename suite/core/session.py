"""The seam between a game's screens and a match: `Session`.

A screen talks to nothing else. It reads `view(seat)` and `legal(seat)`, sends actions with
`act`, and learns what happened (its own actions, other players', bots') from `poll()`.
`LocalSession` runs the engine in this process, with the bots on the local side holding the
full state; a connection to `suite serve` (`suite.net`) offers the same methods, so the same
screens play hot-seat, against bots and online.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from suite.core.bots import Bot, RandomBot, make_bot
from suite.core.match import (
    Action,
    ActionSpace,
    Event,
    IllegalAction,
    Legal,
    Outcome,
    Recorder,
    Replay,
    Seat,
    State,
    View,
    decode_action,
    game_spec,
)
from suite.core.rng import Rng
from suite.core.thinking import Thinker, ThinkingFailed

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Update:
    """One accepted action as this client learns of it.

    `action` is None when the acting seat's action is hidden from this client (a WoK order
    set); `events` are what the client may know of its effects, in order.
    """

    seat: Seat
    action: Action | None
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Refusal:
    """An action of this client's that the match refused, with the reason."""

    seat: Seat
    action: Action
    reason: str


Notice = Update | Refusal


class Session(Protocol):
    """What a screen may do with a match (the only thing it talks to).

    `seats` are the seats this client plays (several in hot-seat); `act` raises
    IllegalAction when it can tell at once that an action is refused (a remote session
    reports later refusals as `Refusal` notices); everything accepted, from any seat,
    arrives in order through `poll`.
    """

    seats: frozenset[Seat]

    @property
    def game(self) -> str:
        """The name of the game played."""

    def view(self, seat: Seat | None) -> View:
        """The typed view of `seat` (None: a spectator's)."""

    def legal(self, seat: Seat) -> Legal:
        """What `seat` may do now (empty when it is not awaited)."""

    def awaiting(self) -> frozenset[Seat]:
        """Seats the match waits for."""

    def outcome(self) -> Outcome | None:
        """The result once the match is over."""

    def act(self, seat: Seat, action: Action) -> None:
        """Send `action` for one of this client's seats."""

    def poll(self) -> list[Notice]:
        """Everything that happened since the last poll, oldest first."""


def is_legal(legal: Legal, action: Action) -> bool:
    """Whether `action` is among `legal` (a list, or an action space's `contains`)."""
    if isinstance(legal, ActionSpace):
        return legal.contains(action)
    return action in legal


@dataclass
class LocalSession:
    """A match run in this process: the engine, a replay of every accepted action, and the
    bots of the seats that are not played here.

    Bots do not act by themselves: `run_bot()` lets the next awaited bot act at once, so a
    test or a simulation can step them; a screen calls `step_bot()` instead, which never
    blocks: with a `thinker` the bot decides in its worker process while the window goes
    on drawing (`thinking` says so), and `stop_thinking()` drops a decision when the
    player leaves. Both ways give the same match from the same seed and actions.
    `listeners` are called with every update as it is made (statistics, logs, autosaves).
    """

    recorder: Recorder
    seats: frozenset[Seat]
    bots: dict[Seat, Bot] = field(default_factory=dict)
    bot_rng: Rng = field(default_factory=lambda: Rng(0))
    listeners: list[Callable[[Update], None]] = field(default_factory=list)
    thinker: Thinker | None = None
    bot_failures: list[str] = field(default_factory=list)
    """Why a bot thinking in the worker could not decide, each time (a random action
    stood in for it)."""
    _pending: list[Notice] = field(default_factory=list)
    _thought: tuple[int, Seat, View] | None = None

    @classmethod
    def start(
        cls,
        game: str,
        config: Mapping[str, Any],
        seed: int,
        *,
        humans: frozenset[Seat],
        bots: Mapping[Seat, str] | None = None,
        thinker: Thinker | None = None,
    ) -> LocalSession:
        """A new match of `game`: `humans` play here, `bots` maps the other seats to bot
        names of the game's spec; `thinker` is where `step_bot` has them think."""
        spec = game_spec(game)
        chosen = {seat: make_bot(spec, name) for seat, name in (bots or {}).items()}
        seeded = Rng(seed).spawn()
        return cls(Recorder(game, config, seed), humans, chosen, seeded, thinker=thinker)

    @classmethod
    def resume(
        cls,
        replay: Replay,
        *,
        humans: frozenset[Seat],
        bots: Mapping[Seat, str] | None = None,
        thinker: Thinker | None = None,
    ) -> LocalSession:
        """The match `replay` recorded, replayed to its last action."""
        session = cls.start(
            replay.game, replay.config, replay.seed, humans=humans, bots=bots, thinker=thinker
        )
        session.recorder.replay = Replay(replay.game, dict(replay.config), replay.seed)
        session.recorder.state = replay.start()
        for step in replay.actions:
            session.recorder.apply(step.seat, decode_action(replay.game, step.action))
        return session

    @property
    def game(self) -> str:
        return self.recorder.replay.game

    @property
    def state(self) -> State:
        """The engine itself: for bots, saves and tests on the local side, never screens."""
        return self.recorder.state

    @property
    def replay(self) -> Replay:
        return self.recorder.replay

    def view(self, seat: Seat | None) -> View:
        return self.state.view(seat)

    def legal(self, seat: Seat) -> Legal:
        return self.state.legal(seat)

    def awaiting(self) -> frozenset[Seat]:
        return self.state.awaiting()

    def outcome(self) -> Outcome | None:
        return self.state.outcome()

    def act(self, seat: Seat, action: Action) -> None:
        """Apply `action` for a seat played here; IllegalAction leaves everything as it was."""
        if seat not in self.seats:
            raise IllegalAction(f"seat {seat} is not played on this machine")
        self._apply(seat, action)

    def run_bot(self) -> Update | None:
        """Let the lowest awaited bot seat act once, deciding here and now; None when no
        bot is awaited."""
        self.stop_thinking()
        seat = self._bot_seat()
        if seat is None:
            return None
        choice = self.bots[seat].choose(self.view(seat), self.legal(seat), self.bot_rng)
        return self._apply(seat, choice)

    def step_bot(self, wait: float = 0.0) -> Update | None:
        """Let the lowest awaited bot seat act once without blocking (more than `wait`
        seconds): with a `thinker`, its decision is started in the worker the first time
        and applied by the call that finds it made. None while the bot thinks or when no
        bot is awaited. A decision made on a view the match has since changed (another
        seat acted meanwhile) is dropped and made again. Without a thinker this is
        `run_bot`. When the bot raises or its worker dies, a random legal action stands
        in for that decision (`bot_failures` says why) and the worker is started again."""
        thinker = self.thinker
        if thinker is None:
            return self.run_bot()
        thought = self.think_ahead()
        if thought is None:
            return None
        ticket, seat, view = thought
        if not thinker.ready(ticket, wait):
            return None
        self._thought = None
        try:
            action, bot, rng = thinker.result(ticket)
        except ThinkingFailed as exc:
            return self._stand_in(seat, view, str(exc))
        if seat != self._bot_seat() or self.view(seat) != view:
            return None
        self.bots[seat], self.bot_rng = bot, rng
        return self._apply(seat, action)

    def _stand_in(self, seat: Seat, view: View, why: str) -> Update | None:
        """A bot could not decide (it raised, or its worker died): a random legal action
        stands in for this one decision, as on the server, and the failure is logged."""
        log.warning("bot at seat %d could not decide; playing a random action: %s", seat, why)
        if seat != self._bot_seat() or self.view(seat) != view:
            return None
        self.bot_failures.append(why)
        return self._apply(seat, RandomBot().choose(view, self.legal(seat), self.bot_rng))

    def think_ahead(self) -> tuple[int, Seat, View] | None:
        """Start the awaited bot's decision in the worker unless it is under way, so it
        can think while the screen paces it (`step_bot` applies it): (ticket, seat, the
        view it decides on), or None without a thinker or an awaited bot."""
        thinker = self.thinker
        if thinker is None:
            return None
        thought = self._thought
        if thought is None or not thinker.holds(thought[0]):
            seat = self._bot_seat()
            if seat is None:
                self._thought = None
                return None
            view = self.view(seat)
            ticket = thinker.start(self.bots[seat], view, self.legal(seat), self.bot_rng)
            thought = self._thought = (ticket, seat, view)
        return thought

    @property
    def thinking(self) -> bool:
        """Whether a bot's decision is being made in the worker."""
        thought, thinker = self._thought, self.thinker
        return thought is not None and thinker is not None and thinker.holds(thought[0])

    def stop_thinking(self) -> None:
        """Drop the decision in the worker, if any (its search stops at once)."""
        if self._thought is not None and self.thinker is not None:
            self.thinker.cancel(self._thought[0])
        self._thought = None

    def _bot_seat(self) -> Seat | None:
        """The lowest awaited bot seat while the match goes on."""
        if self.outcome() is not None:
            return None
        return next((s for s in sorted(self.awaiting()) if s in self.bots), None)

    def poll(self) -> list[Notice]:
        out, self._pending = self._pending, []
        return out

    def _apply(self, seat: Seat, action: Action) -> Update:
        events = self.recorder.apply(seat, action)
        update = Update(seat, action, tuple(events))
        self._pending.append(update)
        for listener in self.listeners:
            listener(update)
        return update
