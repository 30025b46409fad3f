"""Who acts when no local human does: the battle screen asks its driver, at its own pace,
to let the next non-human seat act.

- `LiveDriver`: a live match; on a `LocalSession` the bots are paced here (`step_bot`:
  they think in the session's worker process), on a remote session they act on the
  server and the driver does nothing.
- `ReplayDriver`: a saved battle played back action by action into a fresh local match
  (every seat "played here"), so the battle screen shows it exactly as it was fought.
"""

from __future__ import annotations

from typing import Protocol

from suite.core.match import Replay, Seat, decode_action
from suite.core.session import LocalSession, Session


class Driver(Protocol):
    @property
    def session(self) -> Session:
        """The match this driver plays."""

    def local_humans(self) -> frozenset[Seat]:
        """Seats a person commands on this screen."""

    def step(self, wait: float = 0.0) -> bool:
        """Let the next non-human actor act once, waiting at most `wait` seconds for a
        bot's decision; False when nobody acted (none to act, or a bot still thinking)."""

    def think_ahead(self) -> None:
        """Let the next bot start thinking while the screen paces it."""

    @property
    def thinking(self) -> bool:
        """Whether a bot is thinking now (`step` will act once it is done)."""

    def stop(self) -> None:
        """The screen is left: drop a bot's decision in progress."""

    @property
    def drives(self) -> bool:
        """True when this screen makes someone act (local bots, a replay not over)."""


class LiveDriver:
    """A live battle (see the module docstring)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._local = session if isinstance(session, LocalSession) else None

    def local_humans(self) -> frozenset[Seat]:
        return frozenset(self.session.seats)

    @property
    def drives(self) -> bool:
        return self._local is not None

    def step(self, wait: float = 0.0) -> bool:
        return self._local is not None and self._local.step_bot(wait) is not None

    def think_ahead(self) -> None:
        if self._local is not None:
            self._local.think_ahead()

    @property
    def thinking(self) -> bool:
        return self._local is not None and self._local.thinking

    def stop(self) -> None:
        if self._local is not None:
            self._local.stop_thinking()


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

    def think_ahead(self) -> None:
        """A replay has nothing to think over."""

    @property
    def thinking(self) -> bool:
        return False

    def stop(self) -> None:
        """Nothing runs in the background of a replay."""

    @property
    def finished(self) -> bool:
        return self.next >= len(self.replay.actions)

    @property
    def drives(self) -> bool:
        return not self.finished

    def step(self, wait: float = 0.0) -> bool:
        if self.finished:
            return False
        record = self.replay.actions[self.next]
        self.next += 1
        self.session.act(record.seat, decode_action(self.replay.game, record.action))
        return True
