"""The live turn clock of a local WoK match, in real time, whichever WoK scene is on top.

`TurnTimer` reads a time source (`time.monotonic` unless a test passes a fake) and never
counts frames, so the time a player spends on the pass screen, the report, the help or a
menu counts like time on the map. The game scene owns the timer and hands its `tick` to
every scene it pushes (`KeepsTime.ticker`); those scenes call `keep_time()` on every
update, so the clock acts (sends the drafts when time is up) even while it is covered.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from suite.ui.dialogs import ConfirmScene

Now = Callable[[], float]


class TurnTimer:
    """`deadline` seconds a turn, counted from the last `restart()` by `now()`."""

    def __init__(self, deadline: float, now: Now = time.monotonic) -> None:
        self.deadline = deadline
        self.now = now
        self.started = now()

    def restart(self) -> None:
        """A new turn: the full deadline again."""
        self.started = self.now()

    def left(self) -> int:
        """Whole seconds left (rounded up, never below 0)."""
        return max(0, math.ceil(self.started + self.deadline - self.now()))


class KeepsTime:
    """A scene pushed over the WoK game that keeps the game's live clock running: its
    update runs `ticker` (set by the game scene; None: no clock)."""

    ticker: Callable[[], None] | None = None

    def keep_time(self) -> None:
        if self.ticker is not None:
            self.ticker()


class TimedConfirm(KeepsTime, ConfirmScene):
    """The suite's confirm dialog, keeping the WoK clock running while it is open."""

    def update(self, dt: float) -> None:
        super().update(dt)
        self.keep_time()
