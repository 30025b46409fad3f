"""World War's own screens over a live server: one online game against a server bot,
driven by posted events, with its statistics kept as in a local game."""

from __future__ import annotations

import time
from pathlib import Path

import pygame

from suite.core.session import Refusal
from suite.net.client.session import RemoteSession
from suite.net.server.app import MatchServer
from suite.ui.harness import Harness
from suite.worldwar.rules.actions import EndTurn

from .screen_helpers import frames_until, ready_against_a_bot
from .test_net_session import server  # noqa: F401 - the threaded server fixture

CONFIG = {"players": 2, "map": "classic", "cards": "none", "auto_place": True, "max_turns": 2}


def test_an_online_world_war_game_through_the_real_screens(
    server: MatchServer,  # noqa: F811
    artifacts: Path,
) -> None:
    from suite.net.screens import games as online
    from suite.worldwar.screens.game import GameScene
    from suite.worldwar.screens.gameover import GameOverScene, ReplayScene

    online.register()
    with Harness(size=(1280, 800)) as h:
        session, lobby = ready_against_a_bot(h, server, "worldwar", CONFIG, 6, "easy")
        frames_until(h, lambda: isinstance(h.scene, GameScene))
        game = h.scene
        assert isinstance(game, GameScene)
        match = game.match
        room = server.rooms[session.code or ""]
        assert match.online and game.viewer == 0 and match.seats[1].label == "easy bot"
        assert game.speed not in game.top_buttons  # the server paces its bots

        def settled() -> bool:
            """The screen knows every action the server took (its own and the bot's)."""
            return match.moves == room.state_id and session.awaiting() == room.state.awaiting()

        attacked = False
        shots = 0
        while room.state.outcome() is None:
            frames_until(h, lambda: settled() and (game.human_turn() == 0 or match.over))
            if match.over:
                break
            v = match.view(0)
            before = room.state_id
            if shots == 0:
                h.frames(2)
                h.screenshot(artifacts / "net_worldwar_online.png")
                shots += 1
                session.status = "reconnecting"  # as while the session rejoins after a drop
                assert game.animating() and match.link_problem is not None
                for size in ((800, 560), (1920, 1080)):
                    h.resize(size, frames=2)
                    h.screenshot(artifacts / f"net_worldwar_reconnecting_{size[0]}x{size[1]}.png")
                h.resize((1280, 800), frames=2)
                session.status = "connected"
                assert match.link_problem is None
            if v.phase == "place":
                own = next(t for t in range(len(v.owner)) if v.owner[t] == 0)
                point = game.map.point_in(own)
                assert point is not None
                for _ in range(v.to_place()):
                    h.click(point)
            elif v.phase == "attack" and not attacked:
                pair = next(
                    (
                        (s, t)
                        for s in range(len(v.owner))
                        if v.owner[s] == 0 and v.armies[s] > 1
                        for t in v.map.neighbours[s]
                        if v.owner[t] != 0
                    ),
                    None,
                )
                attacked = True
                if pair is not None:
                    for t in pair:
                        point = game.map.point_in(t)
                        assert point is not None
                        h.click(point)
                    h.key(pygame.K_SPACE)  # one roll
            elif v.phase == "occupy":
                h.key(pygame.K_RETURN)
            else:
                h.key(pygame.K_e)
            try:
                frames_until(
                    h, lambda b=before: room.state_id > b or room.state.outcome() is not None
                )
            except TimeoutError:
                raise AssertionError((v.phase, h.notices, session.errors, attacked)) from None
        frames_until(h, lambda: match.over and match.moves == room.state_id)  # the last news
        assert not session.errors, session.errors
        assert attacked and match.view(None).turn >= 2
        # The statistics a local game keeps: a snapshot per turn, the dice luck, the log.
        assert [s.turn for s in match.history][-1] == match.view(None).turn
        assert sum(match.luck.expected) > 0 and sum(match.luck.actual) > 0
        assert any("won" in line.text for line in match.log)
        assert match.save_replay() is None
        saved = game.save_game()  # refused, saying why
        assert saved is None and any("kept by its server" in n for n in h.notices)
        frames_until(h, lambda: isinstance(h.scene, GameOverScene))
        over = h.scene
        assert isinstance(over, GameOverScene)
        h.frames(2)
        h.screenshot(artifacts / "net_worldwar_online_over.png")
        h.click(over.replay_button)  # fetched from the server's log, played back here
        watch = h.scene
        assert isinstance(watch, ReplayScene)
        assert len(watch.replay.actions) == room.state_id and watch.replay.seed == 6
        end = watch.replay.play()
        assert end.outcome() == room.state.outcome() and end.to_dict() == room.state.to_dict()
        h.frames(3)
        h.screenshot(artifacts / "net_worldwar_online_replay.png")
        h.key(pygame.K_ESCAPE)
        assert h.scene is over
        h.click(over.done_button)
        assert h.scene is lobby
        late = len(session.errors)  # an action racing the end: refused, but no news
        session.act(0, EndTurn())
        frames_until(h, lambda: len(session.errors) > late)
        assert not [n for n in session.poll() if isinstance(n, Refusal)]
        session.close()


def test_a_random_map_is_drawn_from_the_servers_board(
    server: MatchServer,  # noqa: F811
) -> None:
    import pytest

    from suite.worldwar.screens.match import ONLINE, Match, SeatInfo

    server.draw_seed = lambda: 77
    session = RemoteSession.connect(f"ws://127.0.0.1:{server.port}", "Ann")
    try:
        session.create("worldwar", {"players": 2, "map": "random:18:4"})
        room = session.room
        assert room is not None
        assert isinstance(room.config["map_seed"], int)  # public, and not the secret seed
        assert server.rooms[room.code].seed == 77
        seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1, ONLINE)]
        match = Match.over_session(session, seats, room.config)
        assert len(match.board) == 18 and match.online
        assert match.board.ids() == server.rooms[room.code].state.board.ids()  # type: ignore[attr-defined]
        # The board is the server's: the config's map is not read on this machine.
        moved = Match.over_session(session, seats, {**room.config, "map": "/nowhere/x.map"})
        assert moved.board == match.board
        other = RemoteSession.connect(f"ws://127.0.0.1:{server.port}", "Bo")
        other.create("worldwar", {"players": 2})  # the classic map: another board
        try:
            # a session whose board is not its view's map is refused
            class Mixed(RemoteSession):
                def board(self):  # type: ignore[no-untyped-def]
                    return other.board()

            session.__class__ = Mixed
            with pytest.raises(ValueError, match="differs from the server's"):
                Match.over_session(session, seats, room.config)
        finally:
            session.__class__ = RemoteSession
            other.close()
    finally:
        session.close()


def test_a_hosts_own_map_needs_no_copy_on_the_desktop(
    server: MatchServer,  # noqa: F811
) -> None:
    """docs/hosting.md: players need none of the host's files; the desktop client takes
    the board of a room on the host's Domination map from the server."""
    from suite.worldwar.screens.match import ONLINE, Match, SeatInfo

    from .test_net_web import DOMINATION

    folder = server.data / "maps" / "worldwar"
    folder.mkdir(parents=True)
    (folder / "hosts_own.map").write_text(DOMINATION)
    session = RemoteSession.connect(f"ws://127.0.0.1:{server.port}", "Ann")
    try:
        session.create("worldwar", {"players": 2, "map": "hosts_own"})
        room = session.room
        assert room is not None and room.config["map"] == "hosts_own"
        seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1, ONLINE)]
        match = Match.over_session(session, seats, room.config)
        assert match.board.ids() == ["1", "2", "3", "4"]
        assert match.board.nodes["1"].name == "North West"
    finally:
        session.close()


def test_the_turn_clock_on_the_screen_is_the_servers(
    server: MatchServer,  # noqa: F811
    artifacts: Path,
) -> None:
    from suite.net import protocol as P
    from suite.net.screens import games as online
    from suite.worldwar.screens.game import GameScene

    online.register()
    with Harness(size=(1280, 800)) as h:
        session, lobby = ready_against_a_bot(
            h, server, "worldwar", {**CONFIG, "clock": 60}, 6, "easy"
        )
        frames_until(h, lambda: isinstance(h.scene, GameScene))
        game = h.scene
        assert isinstance(game, GameScene)
        frames_until(h, lambda: game.human_turn() == 0 and session.time_left() is not None)
        h.frames(2)
        assert game.clock_running and game.ticking()  # woken to count, drawn on change
        assert 50 < game.clock_left <= 60
        h.screenshot(artifacts / "net_worldwar_online_clock.png")
        session.host(P.Pause(token=session.token or ""))
        frames_until(h, lambda: session.clock is not None and session.clock.paused)
        held = session.time_left()
        time.sleep(0.3)
        h.frames(2)
        assert session.time_left() == held and game.clock_left == held  # frozen meanwhile
        session.close()
