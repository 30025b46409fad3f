"""The server's bots: when a room awaits a bot seat, the bot acts after `bot_delay`.

A bot that searches (`suite.core.thinking.thinks_long`, the experts) decides in a pool of
worker processes (`bot_workers` of them, started on first use), so a search never holds up
the event loop; its room plays the decision only if the match has not moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable, Coroutine
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from suite.core.thinking import Decision, decide
from suite.net.server.room import BotJob, Room

log = logging.getLogger("suite.net")


class BotRunner:
    """Paces the rooms' bots (see the module docstring). `runs_here(room)` says whether
    the room still runs on this process when a search ends (not handed over meanwhile)."""

    def __init__(
        self,
        delay: float,
        workers: int,
        runs_here: Callable[[Room], bool],
        spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]],
    ) -> None:
        self.delay = delay
        self.workers = workers
        self._runs_here = runs_here
        self._spawn = spawn
        self._pending: set[str] = set()
        self._pool: ProcessPoolExecutor | None = None

    def due(self, room: Room) -> None:
        """A bot seat of `room` is awaited: step the room's bots after the delay."""
        if room.code in self._pending:
            return
        self._pending.add(room.code)
        asyncio.get_running_loop().call_later(self.delay, self._step, room)

    def _step(self, room: Room) -> None:
        self._pending.discard(room.code)
        try:
            job = room.bot_step()
        except Exception:
            log.exception("a bot could not act", extra={"room": room.code})
            return
        if job is not None:  # a search: made in a worker process, the room pending meanwhile
            self._pending.add(room.code)
            self._spawn(self._think(room, job))

    async def _think(self, room: Room, job: BotJob) -> None:
        """Have a searching bot decide in the workers, then let its room play it."""
        decision: Decision | None = None
        try:
            loop = asyncio.get_running_loop()
            decision = await loop.run_in_executor(
                self._workers(), decide, job.bot, job.view, job.legal, job.rng
            )
        except Exception:
            log.exception("a bot's worker failed", extra={"room": room.code})
        finally:
            self._pending.discard(room.code)
        if self._runs_here(room):
            try:
                room.bot_decided(job, decision)
            except Exception:
                log.exception("a bot could not act", extra={"room": room.code})

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    def shutdown(self) -> None:
        """Stop the workers (a search in progress is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
