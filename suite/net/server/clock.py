"""Time for the server: every clock rule reads `Clock.now()`, so tests drive time by hand."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """A source of wall time in seconds (any epoch, never going backwards in a test)."""

    def now(self) -> float: ...


class SystemClock:
    """The real time (`time.time`)."""

    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that only moves when told to (`advance`)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a manual clock does not go backwards")
        self._now += seconds
