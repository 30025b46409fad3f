"""`RemoteSession`: the core Session over a connection, as the screens use it."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from suite.core.match import GAME_OVER, IllegalAction, game_spec
from suite.core.rng import Rng
from suite.core.session import Refusal, Update
from suite.net.client.session import RemoteSession
from suite.net.server.app import MatchServer
from suite.worldwar.rules.actions import EndTurn, Fortify

from .helpers import settings


@pytest.fixture
def server(tmp_path: Path) -> Iterator[MatchServer]:
    """A server on its own thread and loop (a session blocks the test's thread)."""
    loop = asyncio.new_event_loop()
    srv = MatchServer(settings(tmp_path))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    asyncio.run_coroutine_threadsafe(srv.start(), loop).result(10)
    yield srv
    asyncio.run_coroutine_threadsafe(srv.stop(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)


def _until(predicate: object, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > end:
            raise TimeoutError
        time.sleep(0.005)


def test_a_screen_loop_plays_a_whole_game_over_a_session(server: MatchServer) -> None:
    session = RemoteSession.connect(f"ws://127.0.0.1:{server.port}", "screen")
    try:
        session.create("worldwar", {"players": 2})
        session.seat_bot(1, "easy")
        session.ready()
        _until(lambda: session.room is not None and session.room.phase == "playing")
        assert session.game == "worldwar" and session.seats == frozenset({0})
        with pytest.raises(IllegalAction):
            session.act(1, EndTurn())  # not this connection's seat
        bot, rng = game_spec("worldwar").bots["easy"](), Rng(3)
        updates: list[Update] = []
        refused: list[Refusal] = []
        tried_bad = False
        while session.outcome() is None:
            for notice in session.poll():
                (updates if isinstance(notice, Update) else refused).append(notice)
            if 0 in session.awaiting() and not session._pending:
                if not tried_bad:
                    session.act(0, Fortify("nowhere", "else", 1))
                    tried_bad = True
                    _until(lambda: bool(session._notices))
                    continue
                view = session.view(0)
                session.act(0, bot.choose(view, session.legal(0), rng))
            time.sleep(0.002)
        _until(lambda: session.ended is not None)
        for notice in session.poll():
            (updates if isinstance(notice, Update) else refused).append(notice)
        assert refused and "nowhere" in repr(refused[0].action)
        assert {u.seat for u in updates} == {0, 1}
        assert all(u.action is not None for u in updates)
        kinds = [
            getattr(e, "kind", None) or e.__struct_config__.tag for u in updates for e in u.events
        ]
        assert GAME_OVER in kinds
        outcome = session.outcome()
        assert outcome is not None and outcome.reason
    finally:
        session.close()


def test_the_session_reconnects_by_itself(server: MatchServer) -> None:
    session = RemoteSession.connect(f"ws://127.0.0.1:{server.port}", "flaky")
    try:
        session.create("tactics", {"players": 2})
        session.seat_bot(1, "normal")
        session.ready()
        _until(lambda: session.room is not None and session.room.phase == "playing")
        token, before = session.token, session.client
        # the connection drops under the session
        asyncio.run_coroutine_threadsafe(before.ws.close(), session._loop).result(5)
        _until(lambda: session.status == "reconnecting" or session.client is not before)
        _until(lambda: session.status == "connected" and session.client is not before)
        assert session.token == token and session.seat == 0
        assert session.view(0) is not None
        assert server.rooms[session.code or ""].seats[0].peer is not None
    finally:
        session.close()
