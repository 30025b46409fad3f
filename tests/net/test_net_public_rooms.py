"""Public rooms from the client's side: `list_rooms`, the host's Public toggle and the
Join side's list of public rooms (clicked through with posted mouse events)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygame
import pytest

from suite.net import protocol as P
from suite.net.client.session import RemoteSession
from suite.net.screens.hosting import HostOnlineScene
from suite.net.screens.lobby import LobbyScene, OnlineScene
from suite.net.screens.public import PublicRoomsScene, settings_summary
from suite.net.server.app import MatchServer
from suite.ui.harness import Harness

from .fake_pack_host import FakePackHost, ref_of
from .helpers import connect, run, serving
from .screen_helpers import frames_until, host_through_setup
from .test_net_session import server  # noqa: F401 - the threaded server fixture


def test_list_rooms_gives_the_public_lobbies_with_a_free_seat(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as srv:
            public = await connect(srv, "ann")
            await public.create("tactics", {"players": 2}, public=True)
            private = await connect(srv, "bob")
            await private.create("worldwar", {"players": 2})
            war = await connect(srv, "cyd")
            await war.create("worldwar", {"players": 3}, public=True)
            looker = await connect(srv, "dan")
            listed = await looker.list_rooms()
            assert {r.code for r in listed} == {public.code, war.code}
            (only,) = await looker.list_rooms("worldwar")
            assert (only.code, only.host, only.seats_free, only.players) == (war.code, "cyd", 2, 3)
            assert only.config["players"] == 3
            filler = await connect(srv, "eve")
            await filler.join(public.code or "")  # full now: no longer listed
            assert [r.code for r in await looker.list_rooms()] == [war.code]
            for c in (public, private, war, looker, filler):
                await c.close()

    run(main())


def test_settings_summary_is_short_whatever_the_server_sends() -> None:
    summary = settings_summary(
        {"pack": None, "map": "", "players": 2, "clock": 90, "armies": ["random", "red"]}
    )
    assert summary == "players 2 \u00b7 clock 90 \u00b7 armies random, red"
    hostile = settings_summary({f"k{i}": "x" * 10_000 for i in range(1000)})
    assert len(hostile) < 1000 and hostile.count("\u00b7") == 7
    assert settings_summary({}) == "default settings"
    assert settings_summary({"fog": True, "nested": {"a": 1}}) == "fog yes"


@contextmanager
def _public_hosts(url: str, count: int) -> Iterator[list[RemoteSession]]:
    """`count` people each hosting a public 2-player room (WoS Tactics)."""
    hosts: list[RemoteSession] = []
    try:
        for i in range(count):
            host = RemoteSession.connect(url, f"host{i}")
            hosts.append(host)
            host.create("tactics", {"players": 2}, public=True)
        yield hosts
    finally:
        for host in hosts:
            host.close()


def test_the_host_marks_a_room_public(server: MatchServer) -> None:  # noqa: F811
    url = f"ws://127.0.0.1:{server.port}"
    with Harness(size=(800, 560)) as h:
        online = OnlineScene(h.app, address=url)
        h.push(online)
        add_bot = lambda book: h.click(book.add_bot_button)  # noqa: E731
        lobby = host_through_setup(h, online, "tactics", prepare=add_bot)  # Public: no
        private = server.rooms[lobby.session.code or ""]
        h.key(pygame.K_ESCAPE)  # back to the host screen
        hosting = h.scene
        assert isinstance(hosting, HostOnlineScene)
        h.click(hosting.public)
        assert hosting.public.value is True
        h.click(hosting.host_there)
        assert isinstance(h.scene, LobbyScene)
        public = server.rooms[h.scene.session.code or ""]
        assert public.public and not private.public
        h.key(pygame.K_ESCAPE)


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_the_join_side_lists_public_rooms_and_a_click_joins_one(
    server: MatchServer,  # noqa: F811
    artifacts: Path,
    size: tuple[int, int],
) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    tag = f"{size[0]}x{size[1]}"
    with _public_hosts(url, 6) as hosts, Harness(size=size) as h:
        hosts[0].seat_bot(1, "random")  # full: not listed
        frames_until(h, lambda: server.rooms[hosts[0].code or ""].seats[1].kind == "bot")
        online = OnlineScene(h.app, address=url)
        h.push(online)
        h.screenshot(artifacts / f"net_online_public_{tag}.png")
        h.click(online.browse_button)
        rooms = h.scene
        assert isinstance(rooms, PublicRoomsScene)
        assert {r.code for r in rooms.rooms} == {host.code for host in hosts[1:]}
        assert rooms.problem is None and rooms.row_buttons
        h.screenshot(artifacts / f"net_public_rooms_{tag}.png")
        if len(rooms.rooms) > rooms.per_page:  # the small window pages the list
            h.click(rooms.next_button)
            assert rooms.first == len(rooms.rooms) - rooms.per_page
            h.screenshot(artifacts / f"net_public_rooms_next_{tag}.png")
            h.wheel(rooms.list_panel.center, 3)  # the wheel scrolls back up
            assert rooms.first == 0
        shown = rooms.rooms[rooms.first]
        h.click(rooms.row_buttons[0])
        lobby = h.scene
        assert isinstance(lobby, LobbyScene)
        assert lobby.session.code == shown.code and lobby.session.seat == 1
        h.key(pygame.K_ESCAPE)  # back to the list, asked for again: that room is full now
        assert h.scene is rooms
        assert shown.code not in {r.code for r in rooms.rooms}


def test_a_room_filled_meanwhile_and_an_unreachable_server_show_messages(
    server: MatchServer,  # noqa: F811
    artifacts: Path,
) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    with _public_hosts(url, 1) as (host,), Harness(size=(800, 560)) as h:
        online = OnlineScene(h.app, address=url)
        h.push(online)
        h.click(online.browse_button)
        rooms = h.scene
        assert isinstance(rooms, PublicRoomsScene)
        assert [r.code for r in rooms.rooms] == [host.code]
        host.seat_bot(1, "random")  # someone else was quicker
        frames_until(h, lambda: server.rooms[host.code or ""].seats[1].kind == "bot")
        h.click(rooms.row_buttons[0])
        assert h.scene is rooms and not rooms.rooms  # refreshed: the room is gone
        assert any("seat" in n for n in h.notices), h.notices
        h.frames(2)
        h.screenshot(artifacts / "net_public_rooms_empty.png")
        war = RemoteSession.connect(url, "wes")
        try:
            war.create("worldwar", {"players": 2}, public=True)
            h.click(rooms.refresh_button)
            assert [r.code for r in rooms.rooms] == [war.code]
            while rooms.game.value != "tactics":  # the game filter asks the server again
                h.click(rooms.game)
            assert not rooms.rooms and rooms.problem is None
            h.click(rooms.game)  # World War
            assert [r.code for r in rooms.rooms] == [war.code]
        finally:
            war.close()
        h.key(pygame.K_ESCAPE)
        assert h.app.stack[-1] is online
        h.click(online.address_entry)  # type: ignore[arg-type]
        h.key(pygame.K_a, mod=pygame.KMOD_CTRL)
        h.type_text("ws://127.0.0.1:9")  # nothing listens there
        h.click(online.browse_button)
        rooms = h.scene
        assert isinstance(rooms, PublicRoomsScene)
        assert rooms.problem is not None and "ws://127.0.0.1:9" in rooms.problem
        assert any("Could not reach" in n for n in h.notices)
        h.frames(2)
        h.screenshot(artifacts / "net_public_rooms_unreachable.png")


def _fake_listing(answer: list[P.Message]) -> FakePackHost:
    """A server answering a `rooms` request with `answer` (and nothing else of interest)."""

    def other(m: P.ClientMessage) -> list[P.Message]:
        return answer if isinstance(m, P.ListRooms) else []

    return FakePackHost(ref_of(()), lambda request: [], other)


def test_a_server_refusing_the_list_shows_its_reason(artifacts: Path) -> None:
    fake = _fake_listing([P.Error(code="rate_limited", message="slow down", ref="rooms")])
    try:
        with Harness(size=(800, 560)) as h:
            online = OnlineScene(h.app, address=fake.url)
            h.push(online)
            h.click(online.browse_button)
            rooms = h.scene
            assert isinstance(rooms, PublicRoomsScene) and rooms.rooms == ()
            assert rooms.problem == "The server did not list its rooms: slow down"
            h.screenshot(artifacts / "net_public_rooms_refused.png")
    finally:
        fake.close()


def test_a_hostile_list_is_cut_to_the_limit(artifacts: Path) -> None:
    many = tuple(
        P.PublicRoom(
            code=f"R{i:05}",
            game="tactics",
            title="T" * 90,
            seats_free=1,
            players=2,
            host="H" * 40,
            config={"k": "v" * 20},
        )
        for i in range(150)
    )
    fake = _fake_listing([P.RoomList(rooms=many)])
    try:
        with Harness(size=(1920, 1080)) as h:
            online = OnlineScene(h.app, address=fake.url)
            h.push(online)
            h.click(online.browse_button)
            rooms = h.scene
            assert isinstance(rooms, PublicRoomsScene)
            assert len(rooms.rooms) == P.MAX_PUBLIC_ROOMS
            for _ in range(30):
                h.click(rooms.next_button)
            assert rooms.first == P.MAX_PUBLIC_ROOMS - rooms.per_page
            h.screenshot(artifacts / "net_public_rooms_hostile.png")
    finally:
        fake.close()
