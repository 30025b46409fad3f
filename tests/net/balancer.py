"""A plain TCP load balancer for the cluster tests: round robin over the backends, no
stickiness, a backend that refuses the connection is skipped (as a load balancer's health
check would). It runs its own event loop on a thread, so synchronous tests and clients
with their own loops can use it."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from collections.abc import Callable


class Balancer:
    """`url` is the one address the clients know; `backends()` gives the ports now."""

    def __init__(self, backends: Callable[[], list[int]]) -> None:
        self.backends = backends
        self._turn = itertools.count()
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(self._listen(), self.loop).result(10)
        self.port = int(self._server.sockets[0].getsockname()[1])
        self.url = f"ws://127.0.0.1:{self.port}"

    async def _listen(self) -> asyncio.Server:
        return await asyncio.start_server(self._serve, "127.0.0.1", 0)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream = None
        ports = self.backends()
        for _ in range(len(ports)):
            port = ports[next(self._turn) % len(ports)]
            with contextlib.suppress(OSError):
                upstream = await asyncio.open_connection("127.0.0.1", port)
                break
        if upstream is None:
            writer.close()
            return
        up_reader, up_writer = upstream
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    def close(self) -> None:
        async def stop() -> None:
            self._server.close()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (OSError, asyncio.IncompleteReadError):
        pass
    finally:
        with contextlib.suppress(OSError, RuntimeError):
            writer.close()
