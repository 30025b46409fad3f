"""A fake (possibly malicious) match server that only seats a client in a Tactics lobby
and answers pack requests as a test tells it to; it runs on its own thread, so both
asyncio clients and a `RemoteSession` reach it over a real websocket."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import threading
from collections.abc import Callable
from pathlib import Path

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from suite.net import protocol as P
from suite.net.packsync import digest_of
from suite.net.server.packs import PackServer

CODE = "PACK01"
Answer = Callable[[P.PackRequest], list[P.Message] | None]
"""The messages answering a pack request; None closes the connection."""


def entry(path: str, data: bytes) -> P.FileEntry:
    return P.FileEntry(path=path, size=len(data), sha256=hashlib.sha256(data).hexdigest())


def ref_of(files: list[P.FileEntry] | tuple[P.FileEntry, ...]) -> P.PackRef:
    return P.PackRef(version=1.0, digest=digest_of(files))


def listing(files: tuple[P.FileEntry, ...], **extra: int) -> P.PackFiles:
    """One page holding `files` (the pack's reference made from them)."""
    return P.PackFiles(code=CODE, pack=ref_of(files), files=files, **extra)


def chunk(path: str, offset: int, data: bytes, eof: bool = True) -> P.PackChunk:
    text = base64.b64encode(data).decode("ascii")
    return P.PackChunk(code=CODE, path=path, offset=offset, data=text, eof=eof)


def serving_folder(folder: Path, packs: Path) -> tuple[P.PackRef, Answer]:
    """The reference of a real pack folder and answers from the real `PackServer`."""
    server = PackServer(packs)
    ref, _ = server.host_pack({"pack": folder.name})

    def answer(request: P.PackRequest) -> list[P.Message]:
        return [server.answer(CODE, ref, request.path, request.offset)]

    return ref, answer


class FakePackHost:
    """Seats a joining client in room `CODE` whose pack is `ref`; `answer` answers its pack
    requests (recorded in `requests`; `sent` counts the pack messages' sizes)."""

    def __init__(
        self,
        ref: P.PackRef,
        answer: Answer,
        other: Callable[[P.ClientMessage], list[P.Message]] | None = None,
    ) -> None:
        """`other` answers any other message (nothing when None)."""
        self.ref = ref
        self.answer = answer
        self.other = other
        self.requests: list[P.PackRequest] = []
        self.largest = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)
        self.port: int = self._server.sockets[0].getsockname()[1]

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    async def _start(self) -> Server:
        return await serve(self._handle, "127.0.0.1", 0, max_size=None, compression=None)

    def room(self, phase: str = "lobby") -> P.Room:
        seats = (
            P.SeatInfo(seat=0, kind="human", name="host", connected=True, ready=True),
            P.SeatInfo(seat=1, kind="human", name="you", connected=True),
        )
        return P.Room(
            code=CODE,
            game="tactics",
            title="WoS Tactics",
            phase=phase,  # type: ignore[arg-type]
            seats=seats,
            config={"players": 2},
            host_seat=0,
            spectators=0,
            pack=self.ref,
        )

    async def _handle(self, ws: ServerConnection) -> None:
        try:
            async for data in ws:
                message = P.decode_client(data)
                out: list[P.Message] | None = []
                if isinstance(message, P.Hello):
                    out = [P.Welcome(protocol=P.PROTOCOL_VERSION, server="fake", games=())]
                elif isinstance(message, P.Join):
                    out = [
                        P.Seated(code=CODE, seat=1, token="token-1", host=False),
                        self.room(),
                    ]
                elif isinstance(message, P.PackRequest):
                    self.requests.append(message)
                    out = self.answer(message)
                elif self.other is not None:
                    out = self.other(message)
                if out is None:
                    await ws.close()
                    return
                for m in out:
                    encoded = P.encode(m)
                    self.largest = max(self.largest, len(encoded))
                    await ws.send(encoded.decode("utf-8"))
        except ConnectionClosed:
            pass

    def close(self) -> None:
        async def stop() -> None:
            self._server.close()
            await self._server.wait_closed()

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
