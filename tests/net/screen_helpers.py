"""Helpers of the net screen tests: frames until something shows, and a seat readied in
a lobby against one server bot."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from suite.net.client.session import RemoteSession
from suite.net.screens.hosting import HostOnlineScene
from suite.net.screens.lobby import LobbyScene, OnlineScene
from suite.net.server.app import MatchServer
from suite.ui.app import Scene
from suite.ui.harness import Harness


def frames_until(h: Harness, predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    """Run frames until `predicate` holds; TimeoutError after `timeout` seconds."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise TimeoutError
        h.frames(1)
        time.sleep(0.005)


def ready_against_a_bot(
    h: Harness, server: MatchServer, game: str, config: dict[str, Any], seed: int, bot: str
) -> tuple[RemoteSession, LobbyScene]:
    """Create a room of `game` as "Ann" (the server drawing `seed` for it), seat the server
    bot `bot` in seat 1, open the lobby and click Ready: the match starts on the server."""
    server.draw_seed = lambda: seed
    session = RemoteSession.connect(f"ws://127.0.0.1:{server.port}", "Ann")
    session.create(game, config)
    session.seat_bot(1, bot)
    lobby = LobbyScene(h.app, session)
    h.push(lobby)
    h.click(lobby.ready_button)
    return session, lobby


def host_through_setup(
    h: Harness,
    online: OnlineScene,
    game: str,
    *,
    here: bool = False,
    public: bool = False,
    prepare: Callable[[Scene], None] | None = None,
) -> LobbyScene:
    """As a host does: pick `game` on the Online screen, open its set-up ("Set up and
    host..."), let `prepare` change settings there by clicks, click its "Host online",
    then (Public on when `public`) "Host on this computer" (`here`) or "Host on that
    server": the lobby of the new room."""
    while online.game.value != game:
        h.click(online.game)
    h.click(online.set_up)
    setup = h.scene
    if prepare is not None:
        prepare(setup)
    h.click(setup.host_button)  # type: ignore[attr-defined]
    hosting = h.scene
    assert isinstance(hosting, HostOnlineScene), h.notices
    if public:
        h.click(hosting.public)
    h.click(hosting.host_here if here else hosting.host_there)
    lobby = h.scene
    assert isinstance(lobby, LobbyScene), h.notices
    return lobby
