"""The server's end of a websocket (`suite.net.server.websocket`): frames it writes itself
are websockets' own bytes, and every data message reaches the server whole and in order,
however it came (fragments, binary, before the handler was ready); invalid UTF-8 closes
the connection with 1007, as websockets does."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.frames import TEXT, Frame

from suite.net import protocol as P
from suite.net.server.websocket import MAX_EARLY, ServerSocket, text_frame

from .helpers import connect, run, serving, until, url


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 1000, 65535, 65536, 70000])
def test_a_text_frame_is_the_frame_websockets_writes(size: int) -> None:
    data = bytes(range(48, 58)) * (size // 10) + b"x" * (size % 10)
    assert text_frame(data) == Frame(TEXT, data).serialize(mask=False, extensions=[])


def test_fragmented_and_binary_messages_are_answered_as_whole_text(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server, ws_connect(url(server)) as ws:
            hello = P.encode(P.Hello(name="in parts"))
            await ws.send([hello[:5].decode(), hello[5:9].decode(), hello[9:].decode()])
            assert isinstance(P.decode_server(await ws.recv()), P.Welcome)
            await ws.send(P.encode(P.ListRooms()))  # bytes: a binary frame
            assert isinstance(P.decode_server(await ws.recv()), P.RoomList)
            await ws.send([P.encode(P.ListRooms())[:4], P.encode(P.ListRooms())[4:]])
            assert isinstance(P.decode_server(await ws.recv()), P.RoomList)

    run(main())


def test_invalid_utf8_in_a_text_frame_closes_the_connection_with_1007(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            async with ws_connect(url(server)) as ws:
                ws.protocol.send_frame(Frame(TEXT, b'{"type":"hello","name":"\xff"}'))
                ws.send_data()
                await asyncio.wait_for(ws.wait_closed(), 5)
            assert ws.close_code == 1007
            after = await connect(server, "after")  # the server goes on
            assert after.welcome is not None
            await after.close()

    run(main())


def test_messages_that_came_before_the_handler_wait_for_it_in_order(
    caplog: pytest.LogCaptureFixture,
) -> None:
    got: list[str | bytes] = []

    def take(message: str | bytes) -> None:
        if message == "boom":
            raise ValueError("a handler that fails")
        got.append(message)

    async def handler(ws: ServerConnection) -> None:
        assert isinstance(ws, ServerSocket)
        await asyncio.sleep(0.3)  # the client's messages arrive meanwhile
        ws.deliver_to(take)
        await ws.wait_closed()

    async def main() -> None:
        async with serve(handler, "127.0.0.1", 0, create_connection=ServerSocket) as server:
            port = server.sockets[0].getsockname()[1]
            async with ws_connect(f"ws://127.0.0.1:{port}") as ws:
                for i in range(3):
                    await ws.send(f"early {i}")
                await ws.send(b"early bytes")
                await until(lambda: len(got) == 4)
                await ws.send("boom")
                await ws.send(["late ", "in parts"])
                await until(lambda: len(got) == 5)
                await ws.ping()  # pings and pongs stay websockets'

    with caplog.at_level(logging.ERROR, logger="suite.net"):
        run(main())
    assert got == ["early 0", "early 1", "early 2", b"early bytes", "late in parts"]
    assert "a message's handler failed" in caplog.text


def test_a_flood_before_the_handler_is_ready_closes_the_connection_with_1008() -> None:
    got: list[str | bytes] = []

    async def handler(ws: ServerConnection) -> None:
        assert isinstance(ws, ServerSocket)
        await asyncio.sleep(0.5)
        ws.deliver_to(got.append)
        await ws.wait_closed()

    async def main() -> int | None:
        async with serve(handler, "127.0.0.1", 0, create_connection=ServerSocket) as server:
            port = server.sockets[0].getsockname()[1]
            async with ws_connect(f"ws://127.0.0.1:{port}") as ws:
                for i in range(MAX_EARLY + 5):
                    await ws.send(f"m{i}")
                await asyncio.wait_for(ws.wait_closed(), 5)
                return ws.close_code

    assert run(main()) == 1008
    assert got == [f"m{i}" for i in range(MAX_EARLY)]  # the ones before the flood, in order
