"""Issue 32.5: a desktop host hosts online with every setting of the game's own set-up
("Host online" beside "Start"), by clicks, and the room is made from the same config."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from suite.net.screens.hosting import HostOnlineScene
from suite.net.screens.lobby import LobbyScene, OnlineScene
from suite.net.server.app import MatchServer
from suite.ui.app import Scene
from suite.ui.harness import Harness

from .screen_helpers import frames_until, host_through_setup
from .test_net_session import server  # noqa: F401 - the threaded server fixture

WW_DATA = Path(__file__).parent.parent / "worldwar" / "data"


def _choose(h: Harness, cycler: object, value: object) -> None:
    for _ in range(20):
        if cycler.value == value:  # type: ignore[attr-defined]
            return
        h.click(cycler)  # type: ignore[arg-type]
    raise AssertionError(f"no choice {value!r}")


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_world_war_hosts_with_every_setting_and_its_bots(
    server: MatchServer,  # noqa: F811
    artifacts: Path,
    size: tuple[int, int],
) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    with Harness(size=size) as h:
        online = OnlineScene(h.app, address=url)
        h.push(online)

        def settings(setup: Scene) -> None:
            h.click(setup.add_button)  # type: ignore[attr-defined]  # a third seat: easy bot
            _choose(h, setup.rows[1].kind, "human")  # type: ignore[attr-defined]
            _choose(h, setup.rows[2].kind, "hard")  # type: ignore[attr-defined]
            _choose(h, setup.cards, "royalty")  # type: ignore[attr-defined]
            _choose(h, setup.clock, 60)  # type: ignore[attr-defined]
            _choose(h, setup.mode, "capital")  # type: ignore[attr-defined]
            _choose(h, setup.deployment, True)  # type: ignore[attr-defined]
            h.screenshot(artifacts / f"net_host_ww_setup_{size[0]}x{size[1]}.png")

        while online.game.value != "worldwar":
            h.click(online.game)
        h.click(online.set_up)
        setup = h.scene
        settings(setup)
        h.click(setup.host_button)  # type: ignore[attr-defined]
        hosting = h.scene
        assert isinstance(hosting, HostOnlineScene)
        assert any("seat 3: hard bot" in line for line in hosting.plan.summary)
        h.screenshot(artifacts / f"net_host_online_{size[0]}x{size[1]}.png")
        h.click(hosting.host_there)
        lobby = h.scene
        assert isinstance(lobby, LobbyScene), h.notices
        room = server.rooms[lobby.session.code or ""]
        assert room.game == "worldwar" and len(room.seats) == 3
        for key, value in {"cards": "royalty", "clock": 60, "mode": "capital"}.items():
            assert room.config[key] == value, key
        assert room.config["auto_place"] is True
        frames_until(h, lambda: room.seats[2].kind == "bot")
        assert room.seats[2].bot == "hard" and room.seats[1].kind == "open"
        h.frames(2)
        h.screenshot(artifacts / f"net_host_ww_lobby_{size[0]}x{size[1]}.png")


def test_a_domination_map_of_yours_goes_to_the_server_started_here() -> None:
    from suite.worldwar.screens.setup import user_maps_dir

    maps = user_maps_dir()
    maps.mkdir(parents=True, exist_ok=True)
    shutil.copy(WW_DATA / "archipelago.map", maps / "archipelago.map")
    with Harness(size=(1280, 800)) as h:
        online = OnlineScene(h.app)
        h.push(online)

        def pick_map(setup: Scene) -> None:
            choice = setup.map_choice  # type: ignore[attr-defined]
            _choose(h, choice, str(maps / "archipelago.map"))

        lobby = host_through_setup(h, online, "worldwar", here=True, prepare=pick_map)
        hosting = h.app.stack[-2]
        assert isinstance(hosting, HostOnlineScene) and hosting.local is not None
        local = hosting.local.server
        assert (local.data / "maps" / "worldwar" / "archipelago.map").is_file()
        room = local.rooms[lobby.session.code or ""]
        assert room.config["map"] == "archipelago"  # named, not a path of this machine
        assert len(room.state.view(None).map.territories) == 14  # type: ignore[attr-defined]
        h.key(27)  # Esc: leave the lobby
        h.key(27)  # Esc: leave the host screen, which stops its server


def test_wok_hosts_its_rule_set_variant_and_clock(
    server: MatchServer,  # noqa: F811
) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    with Harness(size=(1280, 800)) as h:
        online = OnlineScene(h.app, address=url)
        h.push(online)

        def settings(setup: Scene) -> None:
            for _ in range(10):
                if setup.ruleset.value == "intermediate":  # type: ignore[attr-defined]
                    break
                h.click(setup.ruleset.right)  # type: ignore[attr-defined]
            assert setup.ruleset.value == "intermediate"  # type: ignore[attr-defined]

        lobby = host_through_setup(h, online, "wok", prepare=settings)
        room = server.rooms[lobby.session.code or ""]
        assert room.config["ruleset"] == "intermediate"
        bots = {s.index: s.bot for s in room.seats if s.kind == "bot"}
        frames_until(h, lambda: all(s.kind != "open" for s in room.seats[1:]) or bool(bots))
        assert all(s.kind == "bot" for s in room.seats[1:])  # the set-up's generals


def test_a_one_army_battle_is_not_hosted(artifacts: Path) -> None:
    with Harness(size=(1280, 800)) as h:
        online = OnlineScene(h.app)
        h.push(online)
        while online.game.value != "tactics":
            h.click(online.game)
        h.click(online.set_up)
        book = h.scene
        h.click(book.host_button)  # type: ignore[attr-defined]
        assert h.scene is book
        assert any("second army" in n for n in h.notices)
