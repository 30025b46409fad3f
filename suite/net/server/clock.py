"""Time for the server: every clock rule reads `Clock.now()`, so tests drive time by hand."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
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


class OffsetClock:
    """For tests of a real server process only (the `test_clock_file` setting): the real
    time plus the seconds written in `path` (no file, or not a number: 0), read again at
    most every `every` seconds. A browser test moves a whole server's time on (a WoK
    turn's deadline, its poke's wait) without waiting and without changing any rule."""

    def __init__(self, path: Path, every: float = 0.1) -> None:
        self.path, self.every = path, every
        self._offset = 0.0
        self._read_at = float("-inf")

    def now(self) -> float:
        here = time.monotonic()
        if here - self._read_at >= self.every:
            self._read_at = here
            with contextlib.suppress(OSError, ValueError):
                self._offset = max(self._offset, float(self.path.read_text().strip() or 0))
        return time.time() + self._offset
