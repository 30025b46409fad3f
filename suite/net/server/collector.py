"""How the server process collects its garbage: `Collector`.

CPython's full collection walks every tracked object alive: with a hundred rooms and
four hundred connections it held the event loop for 50 ms every few seconds under load,
and every action then in flight waited that long. The collector instead freezes what has
lived `settle` seconds (`gc.freeze`, which only moves lists: it costs nothing), so the
automatic collections walk only what is younger. Cycles among the frozen objects (a
closed connection's, a forgotten room's) are found by one full collection every `full`
seconds, the only long pause left. Reference counting frees everything else at once, as
always.
"""

from __future__ import annotations

import asyncio
import gc

SETTLE = 1.0
"""Seconds after which what survived is frozen out of the automatic collections."""
FULL = 600.0
"""Seconds between two full collections (frozen objects included)."""
THRESHOLDS = (20_000, 20, 20)
"""The young generation is collected less often than CPython's 700 allocations: a
server makes many short-lived messages."""


class Collector:
    """See the module docstring: `run` until cancelled."""

    def __init__(self, settle: float = SETTLE, full: float = FULL) -> None:
        self.settle = settle
        self.full = full
        self.full_collections = 0

    async def run(self) -> None:
        gc.set_threshold(*THRESHOLDS)
        gc.freeze()
        loop = asyncio.get_running_loop()
        next_full = loop.time() + self.full
        while True:
            await asyncio.sleep(self.settle)
            if loop.time() >= next_full:
                gc.unfreeze()
                gc.collect()
                self.full_collections += 1
                next_full = loop.time() + self.full
            gc.freeze()
