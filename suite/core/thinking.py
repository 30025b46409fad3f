"""Bots think in a worker process, so a window keeps drawing while one searches.

A `Thinker` owns one worker process (started on first use with the "spawn" method, which
works the same on every platform and never copies the window's SDL state). `start` sends
a decision to make: the bot itself, its seat's view, the legal actions and the random
source it draws from. The worker calls `bot.choose` and sends back the action *with* the
bot and the random source as they are afterwards, so a bot that keeps memory between
decisions and the session's random stream go on exactly as if the bot had run in the
caller's process: the same seed and actions give the same match either way.

Only one decision is in flight at a time, named by the ticket `start` returns. `cancel`
(leaving a game) kills the worker when that decision is still being thought over, so a
search never goes on using a core for nothing; the next `start` starts a new worker. A
worker that dies (killed, out of memory) is noticed by `ready` and reported by `result`
as `ThinkingFailed`, as is an exception raised by the bot.

The pipe carries pickles between this process and its own child only: nothing from the
network or from a file passes through it.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import traceback
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from suite.core.bots import Bot
from suite.core.match import Action, Legal, View
from suite.core.rng import Rng

Decision = tuple[Action, Bot, Rng]
"""What a worker sends back: the action, the bot and its random source after choosing."""


class ThinkingFailed(RuntimeError):
    """The bot raised, or its worker died, while thinking (the message says which)."""


def decide(bot: Bot, view: View, legal: Legal, rng: Rng) -> Decision:
    """One decision as a worker makes it: the action with the bot and `rng` after it."""
    return bot.choose(view, legal, rng), bot, rng


def thinks_long(bot: Bot) -> bool:
    """Whether `bot` searches (its class sets `thinks_long = True`): a decision may take
    a good part of a second, so a server never makes one on its event loop."""
    return bool(getattr(bot, "thinks_long", False))


def _serve(conn: Connection) -> None:
    """The worker's loop: one (bot, view, legal, rng) in, one answer out, until None."""
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            answer: tuple[Any, ...] = ("ok", *decide(*job))
        except Exception:  # the bot's failure goes back to the caller, the worker lives on
            answer = ("error", traceback.format_exc(limit=8))
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return


class Thinker:
    """One worker process making bot decisions, one at a time (see the module docstring)."""

    def __init__(self) -> None:
        self.patience = 0.0
        """Seconds `ready` always waits for an answer at least. 0 for a window; tests
        that drive screens frame by frame in simulated time raise it, so that bots act
        within the frames they step, as if they thought in-process."""
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._ticket = 0
        self._busy = False
        self._answer: tuple[Any, ...] | None = None

    def start(self, bot: Bot, view: View, legal: Legal, rng: Rng) -> int:
        """Send one decision to the worker; its ticket. A decision still being thought
        over is abandoned (its worker killed) first; an answer not taken is dropped."""
        if self._busy and self._answer is None:
            self._kill()
        conn = self._ensure_worker()
        self._ticket += 1
        self._answer = None
        self._busy = True
        try:
            conn.send((bot, view, legal, rng))
        except (BrokenPipeError, OSError):
            self._kill()
            self._answer = ("error", "the bot's worker process could not be reached")
        except Exception as exc:  # a bot that cannot be pickled (a modder's, say)
            self._answer = ("error", f"the bot could not be sent to its worker: {exc!r}")
        return self._ticket

    def holds(self, ticket: int) -> bool:
        """Whether decision `ticket` is the one in flight (not taken, dropped or displaced
        by a later `start`)."""
        return ticket == self._ticket and self._busy

    def ready(self, ticket: int, wait: float = 0.0) -> bool:
        """Whether decision `ticket` is answered (or failed), waiting at most `wait` s."""
        if not self.holds(ticket):
            return False
        if self._answer is not None:
            return True
        conn = self._conn
        assert conn is not None
        try:
            if not conn.poll(max(0.0, wait, self.patience)):
                if self._process is not None and not self._process.is_alive():
                    self._fail("the bot's worker process died while thinking")
                    return True
                return False
            self._answer = conn.recv()
        except (EOFError, OSError):
            self._fail("the bot's worker process died while thinking")
        return True

    def result(self, ticket: int) -> Decision:
        """The answer of decision `ticket` once `ready`; ThinkingFailed when the bot raised
        or its worker died."""
        if not self.ready(ticket):
            raise RuntimeError(f"decision {ticket} is not ready")
        answer = self._answer
        assert answer is not None
        self._answer = None
        self._busy = False
        if answer[0] != "ok":
            raise ThinkingFailed(str(answer[1]))
        _ok, action, bot, rng = answer
        return action, bot, rng

    def cancel(self, ticket: int) -> None:
        """Drop decision `ticket`: its worker is killed if it is still thinking it over."""
        if not self.holds(ticket):
            return
        if self._answer is None:
            self._kill()
        self._busy = False
        self._answer = None

    def close(self) -> None:
        """Stop the worker (at once if it is thinking)."""
        thinking = self._busy and self._answer is None
        self._busy = False
        self._answer = None
        if not thinking and self._conn is not None:
            with contextlib.suppress(BrokenPipeError, OSError):
                self._conn.send(None)
        self._kill(grace=0.0 if thinking else 1.0)

    def _fail(self, why: str) -> None:
        self._answer = ("error", why)
        self._drop()

    def _ensure_worker(self) -> Connection:
        if self._process is not None and self._process.is_alive() and self._conn is not None:
            return self._conn
        self._drop()
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs,), name="bot-thinker", daemon=True)
        process.start()
        theirs.close()
        self._process, self._conn = process, mine
        return mine

    def _kill(self, grace: float = 0.0) -> None:
        process = self._process
        if process is not None:
            if grace:
                process.join(grace)
            if process.is_alive():
                process.kill()
                process.join(1.0)
        self._drop()

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._process, self._conn = None, None


_shared: Thinker | None = None


def shared_thinker() -> Thinker:
    """The process's one Thinker for local matches (stopped when the program exits)."""
    global _shared
    if _shared is None:
        _shared = Thinker()
        atexit.register(_shared.close)
    return _shared
