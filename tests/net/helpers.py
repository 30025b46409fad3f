"""Shared helpers of the net tests: an in-process server on a free loopback port."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from suite.net.client.client import Client
from suite.net.server.app import MatchServer, Settings
from suite.net.server.clock import Clock

T = TypeVar("T")


def run(coro: Awaitable[T], timeout: float = 120.0) -> T:
    """Run a coroutine in a fresh event loop with an overall time limit."""

    async def guarded() -> T:
        async with asyncio.timeout(timeout):
            return await coro

    return asyncio.run(guarded())


def settings(data: Path, **overrides: Any) -> Settings:
    base: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "data": data,
        "bot_delay": 0.0,
        "tick": 3600.0,
        "ping_interval": None,
        "rate": 1000.0,
        "burst": 1000.0,
    }
    base.update(overrides)
    return Settings(**base)


@contextlib.asynccontextmanager
async def serving(
    data: Path, *, clock: Clock | None = None, **overrides: Any
) -> AsyncIterator[MatchServer]:
    server = MatchServer(settings(data, **overrides), clock=clock)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def url(server: MatchServer) -> str:
    return f"ws://127.0.0.1:{server.port}"


async def connect(server: MatchServer, name: str) -> Client:
    return await Client.connect(url(server), name)


async def seated_room(
    server: MatchServer,
    game: str,
    config: dict[str, Any],
    *,
    humans: int,
    bots: dict[int, str] | None = None,
    seed: int = 5,
) -> list[Client]:
    """A room with `humans` connected seats (host at seat 0) and server bots, started."""
    host = await connect(server, "host")
    server.draw_seed = lambda: seed  # the server draws seeds; a test may fix them
    await host.create(game, config)
    assert host.code is not None
    clients = [host]
    for i in range(1, humans):
        c = await connect(server, f"p{i}")
        await c.join(host.code, i)
        clients.append(c)
    for seat, bot in (bots or {}).items():
        await host.seat_bot(seat, bot)
    for c in clients:
        await c.ready()
    for c in clients:
        await c.wait(lambda c: c.room is not None and c.room.phase == "playing")
    return clients


async def close_all(clients: list[Client]) -> None:
    for c in clients:
        await c.close()


async def until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.005)
