"""The Host/Join screen and the lobby, driven by posted events against a live server."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.net.client.session import RemoteSession
from suite.net.screens.hosting import HostOnlineScene
from suite.net.screens.lobby import LobbyScene, OnlineScene
from suite.net.server.app import MatchServer
from suite.ui.app import Scene
from suite.ui.harness import Harness

from .screen_helpers import frames_until, host_through_setup, ready_against_a_bot
from .test_net_session import server  # noqa: F401 - the threaded server fixture


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_host_seat_a_bot_ready_and_chat(
    server: MatchServer,  # noqa: F811
    artifacts: Path,
    size: tuple[int, int],
) -> None:
    from suite.worldwar.screens.game import GameScene

    url = f"ws://127.0.0.1:{server.port}"
    with Harness(size=size) as h:
        online = OnlineScene(h.app, address=url)
        h.push(online)
        h.screenshot(artifacts / f"net_online_{size[0]}x{size[1]}.png")

        def human_second_seat(setup: Scene) -> None:
            kind = setup.rows[1].kind  # type: ignore[attr-defined]
            while kind.value != "human":  # the second seat waits for a player online
                h.click(kind)

        lobby = host_through_setup(h, online, "worldwar", prepare=human_second_seat)
        session = lobby.session
        room = server.rooms[session.code or ""]
        assert room.game == "worldwar" and session.seat == 0
        frames_until(h, lambda: len(lobby.seat_buttons) == 2)
        h.click(lobby.seat_buttons[1])
        frames_until(h, lambda: room.seats[1].kind == "bot")
        h.click(lobby.chat_entry)  # type: ignore[arg-type]
        h.type_text("good luck")
        h.key(pygame.K_RETURN)
        frames_until(h, lambda: any(line.text == "good luck" for line in session.chat_lines))
        h.screenshot(artifacts / f"net_lobby_{size[0]}x{size[1]}.png")
        h.click(lobby.ready_button)
        frames_until(h, lambda: room.phase == "playing")
        frames_until(h, lambda: 0 in session.awaiting() or room.state_id > 0)
        h.frames(2)
        assert isinstance(h.scene, GameScene)  # World War's own screen plays the room
        h.screenshot(artifacts / f"net_worldwar_playing_{size[0]}x{size[1]}.png")
        h.app.pop()  # back to the lobby (the game screen's menu does it by "Leave game")
        assert h.scene is lobby
        h.key(pygame.K_ESCAPE)  # leave: the session closes, the seat stays held
        frames_until(h, lambda: room.seats[0].peer is None)


def test_join_by_code_and_the_reconnecting_banner(
    server: MatchServer,  # noqa: F811
    artifacts: Path,
) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    host = RemoteSession.connect(url, "host")
    try:
        host.create("tactics", {"players": 2})
        with Harness(size=(1280, 800)) as h:
            online = OnlineScene(h.app, address=url)
            h.push(online)
            h.click(online.code_entry)  # type: ignore[arg-type]
            h.type_text((host.code or "").lower())
            h.click(online.join_button)
            assert isinstance(h.scene, LobbyScene)
            lobby = h.scene
            assert lobby.session.seat == 1
            frames_until(h, lambda: host.room is not None and host.room.seats[1].connected)
            lobby.session.status = "reconnecting"  # as while the session rejoins
            h.frames(1)
            h.screenshot(artifacts / "net_lobby_reconnecting.png")
            lobby.session.status = "connected"
            online_unknown = OnlineScene(h.app, address=url)
            h.push(online_unknown)
            h.click(online_unknown.code_entry)  # type: ignore[arg-type]
            h.type_text("ZZZZZZ")
            h.click(online_unknown.join_button)
            assert h.scene is online_unknown
            assert any("no room" in n for n in h.notices)
    finally:
        host.close()


def test_an_online_wok_game_through_the_real_screens(
    server: MatchServer,  # noqa: F811
    artifacts: Path,
) -> None:
    from suite.net.screens import games as online
    from suite.wok.screens.game import GameScene

    online.register()
    with Harness(size=(1280, 800)) as h:
        session, lobby = ready_against_a_bot(
            h,
            server,
            "wok",
            {"players": 2, "variant": "skirmish", "max_turns": 3},
            4,
            "general",
        )
        frames_until(h, lambda: any(isinstance(s, GameScene) for s in h.app.stack))
        room = server.rooms[session.code or ""]
        (game,) = [s for s in h.app.stack if isinstance(s, GameScene)]
        turns = 0
        while room.state.outcome() is None and turns < 10:
            turn = room.state.turn

            def on_screen(t: int = turn) -> bool:
                """The game screen is on top (the turn report closed) with the new turn's
                view, which came over the connection."""
                if h.scene is not game:
                    h.key(pygame.K_ESCAPE)
                return h.scene is game and game.view.turn == t and game.view.may_submit

            frames_until(h, on_screen)
            h.frames(2)
            if turns == 0:
                h.screenshot(artifacts / "net_wok_online.png")
            h.click(game.form.ready_button)  # send the (empty) orders, ready
            frames_until(h, lambda t=turn: room.state.turn > t or room.state.outcome() is not None)
            turns += 1
            h.frames(2)
        assert room.state.outcome() is not None and turns >= 1

        def over_shown() -> bool:
            if type(h.scene).__name__ == "OnlineGameOver":
                return True
            if h.scene is not game:
                h.key(pygame.K_ESCAPE)  # a last turn report first
            return False

        try:
            frames_until(h, over_shown)
        except TimeoutError:
            raise AssertionError(
                [type(x).__name__ for x in h.app.stack],
                session.status,
                session.ended,
                room.seats[0].peer,
                session.errors[-3:],
                game.over_shown,
            ) from None
        h.screenshot(artifacts / "net_wok_online_over.png")
        over = h.scene
        h.click(over.save_button)  # type: ignore[attr-defined]
        assert any(n.startswith("Replay saved as") for n in h.notices), h.notices
        h.click(over.watch_button)  # type: ignore[attr-defined]
        from suite.wok.screens.replay import ReplayScene

        watching = h.scene
        assert isinstance(watching, ReplayScene), h.notices
        assert len(watching.frames) >= 2  # turn 0 and every turn that ran
        assert session.fetch_replay().play().outcome() == room.state.outcome()
        h.frames(2)
        h.screenshot(artifacts / "net_wok_online_replay.png")
        session.close()


def test_an_online_tactics_battle_opens_on_the_battle_screen(
    server: MatchServer,  # noqa: F811
    artifacts: Path,
) -> None:
    from suite.tactics.screens.game import BattleScene

    url = f"ws://127.0.0.1:{server.port}"
    with Harness(size=(1280, 800)) as h:
        online = OnlineScene(h.app, address=url)  # registers the games' online screens
        h.push(online)
        lobby = host_through_setup(
            h,
            online,
            "tactics",
            prepare=lambda book: h.click(book.add_human_button),  # type: ignore[attr-defined]
        )
        session = lobby.session
        frames_until(h, lambda: len(lobby.seat_buttons) == 2)
        h.click(lobby.seat_buttons[1])  # the open seat gets the lobby's bot
        room = server.rooms[session.code or ""]
        frames_until(h, lambda: room.seats[1].kind == "bot")
        h.click(lobby.ready_button)
        frames_until(h, lambda: any(isinstance(s, BattleScene) for s in h.app.stack))
        (battle,) = [s for s in h.app.stack if isinstance(s, BattleScene)]
        assert battle.humans == frozenset({0}) and battle.session.remote is session  # type: ignore[attr-defined]
        frames_until(h, lambda: room.state_id > 0 or 0 in room.state.awaiting())
        h.frames(3)
        h.screenshot(artifacts / "net_tactics_online.png")


def test_host_on_this_computer_starts_a_server_in_the_background() -> None:
    with Harness(size=(1280, 800)) as h:
        online = OnlineScene(h.app)
        h.push(online)
        lobby = host_through_setup(h, online, "worldwar", here=True)
        hosting = h.app.stack[-2]
        assert isinstance(hosting, HostOnlineScene) and hosting.local is not None
        local = hosting.local.server
        assert lobby.session.code in local.rooms and lobby.session.seat == 0
        h.key(pygame.K_ESCAPE)  # leave the lobby: its session closes
        frames_until(
            h,
            lambda: (
                h.scene is hosting and local.rooms[lobby.session.code or ""].seats[0].peer is None
            ),
        )
        h.key(pygame.K_ESCAPE)  # leave the host screen: the background server stops
        assert hosting.local is None


def test_an_online_battle_lands_in_this_machines_ratings(
    server: MatchServer,  # noqa: F811
    artifacts: Path,
) -> None:
    """T10 as in a local battle: the person is rated, the server's bot never is."""
    from suite.net.screens import games as online
    from suite.tactics.ratings import RatingsDB
    from suite.tactics.screens.game import BattleScene
    from suite.tactics.screens.gameover import GameOverScene
    from suite.tactics.screens.profile import ratings_path
    from suite.ui.dialogs import ConfirmScene

    online.register()
    with Harness(size=(1280, 800)) as h:
        session, lobby = ready_against_a_bot(
            h, server, "tactics", {"players": 2, "max_turns": 2}, 3, "random"
        )
        frames_until(h, lambda: any(isinstance(s, BattleScene) for s in h.app.stack))
        room = server.rooms[session.code or ""]

        def over_or_mine() -> bool:
            scene = h.scene
            if isinstance(scene, ConfirmScene):
                h.key(pygame.K_RETURN)  # yes, end the turn
            elif isinstance(scene, BattleScene) and scene.my_turn() and scene.choices.end_turn:
                h.key(pygame.K_e)
            return isinstance(h.scene, GameOverScene)

        frames_until(h, over_or_mine, timeout=60)
        assert room.state.outcome() is not None
        h.frames(2)
        h.screenshot(artifacts / "net_tactics_online_over.png")
        over = h.scene
        assert isinstance(over, GameOverScene) and over.problem is None, over.problem
        with RatingsDB(ratings_path()) as db:
            ann, bot = db.player("Ann"), db.player("Bot Ada")
            assert ann is not None and ann.human and ann.battles == 1
            assert bot is not None and not bot.human
            assert bot.elo == float(db.rules.rating.elo_start)  # never rated
            assert ann.wins + ann.losses == 1
        # Its replay came from the server's log, saved with the local battles' replays.
        assert over.replay_path is not None and over.watch_button.enabled
        h.click(over.watch_button)
        frames_until(h, lambda: isinstance(h.scene, BattleScene))
        watching = h.scene
        assert isinstance(watching, BattleScene) and watching is not over
        assert not watching.humans  # a replay: nobody commands
        h.frames(3)
        h.screenshot(artifacts / "net_tactics_online_replay.png")
        session.close()
