"""The server's `Collector`: what has lived a moment is frozen out of the automatic
collections (they walk only the young), and a full collection still comes, frozen
objects included, so a cycle among them is freed."""

from __future__ import annotations

import asyncio
import gc
import weakref

from suite.net.server.collector import Collector

from .helpers import run


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_survivors_are_frozen_and_a_full_collection_frees_their_cycles() -> None:
    async def main() -> None:
        thresholds = gc.get_threshold()
        collector = Collector(settle=0.02, full=0.2)
        task = asyncio.ensure_future(collector.run())
        try:
            a, b = Node(), Node()
            a.other, b.other = b, a  # a cycle, garbage once dropped
            gone = weakref.ref(a)
            await asyncio.sleep(0.06)
            assert gc.get_freeze_count() > 0
            del a, b
            gc.collect()  # the automatic collections skip the frozen: the cycle stays
            assert gone() is not None
            for _ in range(100):
                if gone() is None:
                    break
                await asyncio.sleep(0.02)
            assert gone() is None and collector.full_collections >= 1
        finally:
            task.cancel()
            gc.unfreeze()
            gc.set_threshold(*thresholds)

    run(main())
