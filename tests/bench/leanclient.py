"""A websocket client for load generators: picows (framing and parsing in Cython), with no
task, queue or future per message.

The net bench's 400 load clients share the server's two cores; on websockets' asyncio
client they cost about 0.33 ms of CPU per action (a reader task, an assembler, a wake-up
and a frame parser in Python per message), and that CPU was taken from the server under
test. What goes over the wire is the same websocket protocol. Messages go to `on_message`
once it is set, and queue for `recv` until then (the handshake and a room's set-up are
written as coroutines).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable

from picows import WSFrame, WSListener, WSMsgType, WSTransport, ws_connect


class LeanSocket(WSListener):  # type: ignore[misc]
    """One client connection; see the module docstring. `send` writes at once."""

    def __init__(self) -> None:
        self.on_message: Callable[[bytes], None] | None = None
        """Takes every message from when it is set (else they wait for `recv`)."""
        self.transport: WSTransport | None = None
        self._inbox: deque[bytes] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self._parts: list[bytes] = []
        self._closed = False

    # -- picows' listener ----------------------------------------------------------------

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        kind = frame.msg_type
        if kind == WSMsgType.CLOSE:
            transport.send_close(frame.get_close_code())
            transport.disconnect()
            return
        if kind not in (WSMsgType.TEXT, WSMsgType.BINARY, WSMsgType.CONTINUATION):
            return  # picows answers pings itself
        data = frame.get_payload_as_bytes()
        if not frame.fin:
            self._parts.append(data)
            return
        if self._parts:
            data, self._parts = b"".join([*self._parts, data]), []
        if self.on_message is not None:
            self.on_message(data)
        else:
            self._inbox.append(data)
            self._wake()

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        self._closed = True
        self._wake()

    # -- messages ------------------------------------------------------------------------

    def send(self, data: bytes) -> None:
        """Send `data` (UTF-8 JSON) as one text frame."""
        if self._closed or self.transport is None:
            raise ConnectionError("the connection is not open")
        self.transport.send(WSMsgType.TEXT, data)

    async def recv(self) -> bytes:
        """The next message not taken by `on_message` (ConnectionError once closed)."""
        while not self._inbox:
            if self._closed:
                raise ConnectionError("the connection closed")
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return self._inbox.popleft()

    def close(self) -> None:
        """Send a close frame and let the connection go."""
        if self.transport is not None and not self._closed:
            self.transport.send_close()
            self.transport.disconnect()

    def _wake(self) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


async def lean_connect(url: str, max_size: int) -> LeanSocket:
    """A `LeanSocket` to `url` (ws://host:port), once its handshake is done."""
    _, socket = await ws_connect(LeanSocket, url, max_frame_size=max_size)
    assert isinstance(socket, LeanSocket)
    return socket
