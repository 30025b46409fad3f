"""How long the server's event loop is held up: `LoopWatch` sleeps `every` seconds at a
time and notes how much later than asked it woke. The longest delay of the last `window`
seconds is the loop's longest stall (`/metrics`: `suite_loop_stall_seconds`): anything
that runs on the loop without yielding (a database call, a large view) shows up there.
"""

from __future__ import annotations

import asyncio
from collections import deque


class LoopWatch:
    """See the module docstring; `run` until cancelled, `longest` at any time."""

    def __init__(self, every: float = 0.02, window: float = 5.0) -> None:
        self.every = every
        self.window = window
        self._late: deque[tuple[float, float]] = deque()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(self.every)
            now = loop.time()
            self._late.append((now, max(0.0, now - asked - self.every)))
            while self._late and self._late[0][0] < now - self.window:
                self._late.popleft()

    def longest(self) -> float:
        """The longest delay in the last `window` seconds (0.0 before any)."""
        return max((late for _, late in self._late), default=0.0)
