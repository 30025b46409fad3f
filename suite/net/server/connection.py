"""One websocket client of the server (`Connection`), its rate limit and its writer.

Each connection has a token-bucket rate limit and a bounded send queue drained by its own
writer task: a client whose queue fills up is dropped (its seat is held; it may rejoin),
so a slow client never stalls the others. What is sent after a write that is not yet
durable waits for it (`hold`): nobody hears of an action before the store has it.

A message to a client that keeps up (nothing queued or held, nothing unsent in the
socket's buffer) is framed (`websocket.text_frame`) and written by the connection itself
when the server's `Outbox` says (at the end of the loop's turn, or sooner in a long one),
with the others of that turn in one write: the writer task's wake-up and websockets'
`send` cost three times the write itself, and most messages go this way. Whichever way a
message goes, the outbox's `before_write` runs before it leaves (the store's writes are
committed there).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from suite.net import protocol as P
from suite.net.server.outbox import Outbox
from suite.net.server.websocket import text_frame

if TYPE_CHECKING:
    from suite.net.server.room import Room

log = logging.getLogger("suite.net")


class RateLimit:
    """A token bucket: `rate` per second, holding at most `burst`."""

    def __init__(self, rate: float, burst: float, now: Callable[[], float]) -> None:
        self.rate, self.burst, self._now = rate, burst, now
        self.tokens = burst
        self.at = now()

    def allow(self) -> bool:
        now = self._now()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Connection:
    """One websocket client: a `Peer` for rooms, with its send queue and rate limit.

    `on_drop` is called once when the server lets the client go for being too slow (the
    server forgets it); `on_refusal` counts each refusal sent (the server's metrics)."""

    def __init__(
        self,
        ws: ServerConnection,
        *,
        queue_size: int,
        rate: float,
        burst: float,
        on_drop: Callable[[Connection], None],
        on_refusal: Callable[[str], None],
        outbox: Outbox | None = None,
    ) -> None:
        self.ws = ws
        self.outbox = outbox or Outbox()
        self.address = peer_address(ws)
        self.name = "guest"
        self.greeted = False
        self.follows = False
        """Its hello said it follows `moved` to its room's process."""
        self.lean = False
        """Its hello said it takes a room's unchanging view fields once (`room_data`)."""
        self.room: Room | None = None
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(queue_size)
        self.limit = RateLimit(rate, burst, asyncio.get_running_loop().time)
        self.strikes = 0
        """Messages refused in a row for the rate limit (a flood past twice the burst is
        dropped)."""
        self.dropped = False
        self.cid = 0
        """Its id in frames to other processes (0 until it is forwarded)."""
        self.remote: tuple[str, str] | None = None
        """(owner process, room code) when its room runs on another process."""
        self.backlog: list[str | bytes] | None = None
        """Messages that came while its room was being looked up (handled after, in order)."""
        self._held: asyncio.Future[None] | None = None
        """The latest commit the messages sent since wait for (`hold`)."""
        self._waiting: list[bytes] = []
        """What was sent while `_held` (at most the queue's size, else too slow)."""
        self._writing = False
        """The writer holds a message or a commit it has not finished with."""
        self._batch: list[bytes] | None = None
        """Messages to write when the outbox says (`_flush`)."""
        self._on_drop = on_drop
        self._on_refusal = on_refusal

    def hold(self, commit: asyncio.Future[None]) -> None:
        """What is sent from now on waits until `commit` is durable, then goes as any
        message (a failed commit closes the connection: the client rejoins and sees only
        what was committed). A room's commits settle in order, so a later commit covers
        the messages an earlier one held."""
        if commit is self._held or commit.done() or self.dropped:
            return
        self._held = commit
        commit.add_done_callback(self._released)

    def _released(self, commit: asyncio.Future[None]) -> None:
        if commit is not self._held:
            return  # a later commit holds what waits
        self._held = None
        waiting, self._waiting = self._waiting, []
        if commit.cancelled() or commit.exception() is not None:
            if not self.dropped:
                self.close_later(P.CLOSE_MOVED, "the room moved: rejoin with your token")
            return
        for data in waiting:
            self.send(data)

    def send(self, data: bytes) -> None:
        if self.dropped:
            return
        if self._held is not None:
            if len(self._waiting) >= self.queue.maxsize:
                self._too_slow()
            else:
                self._waiting.append(data)
        elif self._batch is not None:
            self._batch.append(data)
        elif self._may_write_at_once():
            self._batch = [data]
            self.outbox.due(self._flush)
        else:
            self._enqueue(data)

    def _enqueue(self, item: bytes) -> None:
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            self._too_slow()

    def _may_write_at_once(self) -> bool:
        """Nothing waits in the queue or in the writer (nor for a commit: `send`)."""
        return not self._writing and self.queue.empty()

    def _flush(self) -> None:
        """Write this turn's messages in one write while the client keeps up (see the
        module docstring), or else hand them to the queue."""
        batch, self._batch = self._batch, None
        if not batch or self.dropped:
            return
        if not self._may_write_at_once() or not self._sent_at_once(batch):
            for data in batch:
                self._enqueue(data)

    def _sent_at_once(self, batch: list[bytes]) -> bool:
        """Frame `batch` and write it now when the websocket is open and the socket's
        buffer is empty (else the queue and its back-pressure take it)."""
        ws = self.ws
        transport = ws.transport
        if ws.protocol.state is not State.OPEN or transport.get_write_buffer_size():
            return False
        frames = ws.protocol.data_to_send()  # what websockets has not written: none, normally
        frames.extend(map(text_frame, batch))
        transport.write(frames[0] if len(frames) == 1 else b"".join(frames))
        return True

    def _too_slow(self) -> None:
        self.dropped = True
        log.info("client %r dropped: too slow (send queue full)", self.name)
        self._on_drop(self)
        self.close_later(1013, "too slow: rejoin with your token")

    def close_later(self, code: int, reason: str) -> None:
        """Close the websocket with `code` (the client may reconnect)."""
        self.dropped = True
        asyncio.ensure_future(self.ws.close(code, reason))

    def left_room(self, room: Room) -> None:
        if self.room is room:
            self.room = None

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        self._on_refusal(code)
        self.send(P.encode(P.Error(code=code, message=message, ref=ref)))

    def finish(self) -> None:
        """Let the writer end once what is queued is sent (or at once when it is full)."""
        self.dropped = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    async def writer(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                self._writing = False
                data = await self.queue.get()
                self._writing = True
                if data is None:
                    return
                self.outbox.before_write()
                if self.dropped:  # the commit failed: the room was lost, say nothing of it
                    return
                await self.ws.send(data, text=True)


def peer_address(ws: Any) -> str:
    """The client's IP address as the socket gives it ("?" when it cannot be known)."""
    remote = getattr(ws, "remote_address", None)
    if isinstance(remote, tuple) and remote:
        return str(remote[0])
    return "?"
