"""When the server writes what its clients are due: `Outbox`.

Each connection that keeps up gathers the messages of a turn of the event loop and hands
its write to the server's one `Outbox`, which runs the writes together at the end of the
turn: the messages of several actions to one client go out in one write, and a client is
woken once, after the work that made them. A turn that runs long (a burst of actions after
the process waited for a core) does not hold every message to its end: once the first
write waiting is `flush_after` seconds old, what is due is written at once.

Before any write, `before_write` runs (the store's writes of the turn are committed
there, `MatchStore.flush`): no client hears of an action before the store has it. A turn
in which the store wrote but nothing is sent commits at its end too (`commit_due`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

FLUSH_AFTER = 0.002
"""Seconds a write may wait for the end of the loop's turn (see the module docstring)."""


class Outbox:
    """The server's writes waiting for the end of the loop's turn (module docstring)."""

    def __init__(
        self,
        *,
        flush_after: float = FLUSH_AFTER,
        before_write: Callable[[], None] = lambda: None,
    ) -> None:
        self.flush_after = flush_after
        self.before_write = before_write
        """Commits the store's writes: runs before anything is written to a client, and
        at the end of a turn the store wrote in (`commit_due`)."""
        self._due: list[Callable[[], None]] = []
        self._since = 0.0
        self._scheduled = False
        self._commit = False

    def due(self, write: Callable[[], None]) -> None:
        """Run `write` at the end of this turn of the loop, or sooner (module docstring)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        if not self._due:
            self._since = now
        self._due.append(write)
        self._schedule(loop)
        if now - self._since >= self.flush_after:
            self.flush()

    def commit_due(self) -> None:
        """The store wrote: have it commit at the end of this turn even when no message
        follows (at once when no event loop runs)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.before_write()
            return
        self._commit = True
        self._schedule(loop)

    def _schedule(self, loop: asyncio.AbstractEventLoop) -> None:
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._end_of_turn)

    def _end_of_turn(self) -> None:
        self._scheduled = False
        self.flush()

    def flush(self) -> None:
        """Commit, then run every write due now in the order they became due."""
        due, self._due = self._due, []
        if due or self._commit:
            self._commit = False
            self.before_write()
        for write in due:
            write()
