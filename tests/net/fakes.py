"""A server driven without sockets: fake connections call `MatchServer.receive` directly."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec

from suite.core.match import decode_action
from suite.net import protocol as P
from suite.net.server.app import MatchServer
from suite.net.server.clock import Clock, ManualClock
from suite.net.server.connection import RateLimit
from suite.net.server.room import Room

from .helpers import settings


class FakeConn:
    """Stands for `server.Connection`: records what the server sends, decoded."""

    def __init__(
        self, server: MatchServer, name: str, address: str = "127.0.0.1", lean: bool = False
    ) -> None:
        self.server = server
        self.name = name
        self.address = address
        self.lean = lean
        self.greeted = False
        self.room: Room | None = None
        self.limit = RateLimit(1e9, 1e9, lambda: 0.0)
        self.dropped = False
        self.strikes = 0
        self.out: list[P.ServerMessage] = []
        self.raw: list[bytes] = []

    def send(self, data: bytes) -> None:
        self.raw.append(data)
        self.out.append(P.decode_server(data))

    def left_room(self, room: Room) -> None:
        if self.room is room:
            self.room = None

    def hold(self, commit: Any) -> None:
        """SQLite commits at once: nothing waits."""

    def close_later(self, code: int, reason: str) -> None:
        self.dropped = True

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        self.server.metrics.refusals.labels(code).inc()
        self.send(P.encode(P.Error(code=code, message=message, ref=ref)))

    def say(self, message: P.Message | str | bytes) -> list[P.ServerMessage]:
        """Send one message; returns what the server answered this connection."""
        before = len(self.out)
        data = message if isinstance(message, str | bytes) else P.encode(message)
        self.server.receive(self, data)  # type: ignore[arg-type]
        return self.out[before:]

    def say_and_wait(self, message: P.Message) -> list[P.ServerMessage]:
        """Send one message whose answer the server reads from its store in a task (a
        replay), on an event loop run until the server's tasks are done."""

        async def go() -> None:
            self.say(message)
            await asyncio.gather(*self.server._tasks)

        before = len(self.out)
        asyncio.run(go())
        return self.out[before:]

    def last(self, kind: type[Any]) -> Any:
        for m in reversed(self.out):
            if isinstance(m, kind):
                return m
        raise AssertionError(f"no {kind.__name__} received")

    def errors(self) -> list[P.Error]:
        return [m for m in self.out if isinstance(m, P.Error)]

    @property
    def token(self) -> str:
        return str(self.last(P.Seated).token)

    @property
    def seat(self) -> int:
        return int(self.last(P.Seated).seat)


def make_server(tmp: Path, clock: Clock | None = None, **overrides: Any) -> MatchServer:
    """A server without sockets or event loop: server bots act when a test calls
    `room.bot_step()`."""
    server = MatchServer(settings(tmp, **overrides), clock=clock or ManualClock())
    server.bots_due = lambda room: None  # type: ignore[method-assign]
    return server


def open_room(
    server: MatchServer, game: str, config: dict[str, Any], humans: int, seed: int = 3
) -> tuple[Room, list[FakeConn]]:
    """A started room with `humans` fake connections at seats 0..humans-1."""
    conns = []
    host = FakeConn(server, "host")
    host.say(P.Hello(name="host"))
    server.draw_seed = lambda: seed  # the server draws seeds; a test may fix them
    host.say(P.Create(game=game, config=config))
    code = host.last(P.Room).code
    conns.append(host)
    for i in range(1, humans):
        c = FakeConn(server, f"p{i}")
        c.say(P.Hello(name=f"p{i}"))
        c.say(P.Join(code=code, seat=i))
        conns.append(c)
    for c in conns:
        c.say(P.Ready(token=c.token))
    room = server.rooms[code]
    assert room.phase == "playing", [c.errors() for c in conns]
    return room, conns


def spectator(server: MatchServer, room: Room, name: str = "w") -> FakeConn:
    """A fake connection that said hello and watches `room`."""
    watcher = FakeConn(server, name)
    watcher.say(P.Hello(name=name))
    watcher.say(P.Spectate(code=room.code))
    return watcher


def legal_of(conn: FakeConn, room: Room) -> list[Any]:
    """The legal actions the seat's last view carried (or pages it fetched)."""
    view = conn.last(P.ViewMsg)
    if P.present(view.legal):
        return [decode_action(room.game, a) for a in msgspec.json.decode(view.legal)]
    out = []
    for page in range(view.legal_pages):
        answer = conn.say(P.LegalRequest(token=conn.token, state_id=view.state_id, page=page))
        (msg,) = [m for m in answer if isinstance(m, P.LegalPage)]
        out += [decode_action(room.game, a) for a in msgspec.json.decode(msg.actions)]
    return out
