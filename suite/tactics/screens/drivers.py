"""Who acts when no local human does: the battle screen asks its driver, at its own pace,
to let the next non-human seat act.

- `LiveDriver`: a live match; on a `LocalSession` the bots run here (`run_bot`), on a
  remote session they act on the server and the driver does nothing.
- `ReplayDriver`: a saved battle played back action by action into a fresh local match
  (every seat "played here"), so the battle screen shows it exactly as it was fought.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from suite.core.match import Replay, Seat, decode_action
from suite.core.session import LocalSession, Session


class Driver(Protocol):
    @property
    def session(self) -> Session:
        """The match this driver plays."""

    def local_humans(self) -> frozenset[Seat]:
        """Seats a person commands on this screen."""

    def step(self) -> bool:
        """Let the next non-human actor act once; False when there was none."""

    @property
    def drives(self) -> bool:
        """True when this screen makes someone act (local bots, a replay not over)."""


class LiveDriver:
    """A live battle (see the module docstring)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._run: Callable[[], object] | None = getattr(session, "run_bot", None)

    def local_humans(self) -> frozenset[Seat]:
        return frozenset(self.session.seats)

    @property
    def drives(self) -> bool:
        return self._run is not None

    def step(self) -> bool:
        if self._run is None:
            return False
        return self._run() is not None


class ReplayDriver:
    """A replay played back: `step` applies the next recorded action."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        players = int(replay.config.get("players", 2))
        self.session: LocalSession = LocalSession.start(
            replay.game, replay.config, replay.seed, humans=frozenset(range(players))
        )
        self.next = 0

    def local_humans(self) -> frozenset[Seat]:
        return frozenset()

    @property
    def finished(self) -> bool:
        return self.next >= len(self.replay.actions)

    @property
    def drives(self) -> bool:
        return not self.finished

    def step(self) -> bool:
        if self.finished:
            return False
        record = self.replay.actions[self.next]
        self.next += 1
        self.session.act(record.seat, decode_action(self.replay.game, record.action))
        return True
