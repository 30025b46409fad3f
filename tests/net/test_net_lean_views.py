"""Issue 33.2: a room's unchanging view fields (a WoK map and rules, a World War map's
tables) go once to a client that takes them so (`room_data`), and its views leave them
out; put back, they make each view whole again, byte for byte."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from suite.core.match import game_spec
from suite.net import protocol as P
from suite.net.client.client import typed_view

from .fakes import FakeConn, make_server, open_room

CONFIGS = {
    "wok": {"players": 2, "variant": "duel"},
    "worldwar": {"players": 2, "map": "classic", "cards": "none"},
}


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_a_lean_view_with_the_room_data_is_the_whole_view(game: str, tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, (host, guest) = open_room(server, game, CONFIGS[game], 2)
    lean = FakeConn(server, "watcher", lean=True)
    whole = FakeConn(server, "old", lean=False)
    for conn in (lean, whole):
        conn.say(P.Hello(name=conn.name))
        conn.say(P.Spectate(code=room.code))
    (data,) = [m for m in lean.out if isinstance(m, P.RoomData)]
    assert not [m for m in whole.out if isinstance(m, P.RoomData)]
    static = msgspec.json.decode(data.data)
    assert sorted(static) == sorted(game_spec(game).static_view)
    lean_view, whole_view = lean.last(P.ViewMsg), whole.last(P.ViewMsg)
    trimmed = msgspec.json.decode(lean_view.view)
    assert not set(static) & set(trimmed)  # left out of the view
    rebuilt = typed_view(game, lean_view.view, static)
    assert not isinstance(rebuilt, dict)  # the game's typed view, read exactly
    assert msgspec.json.encode(rebuilt) == bytes(whole_view.view)
    assert len(bytes(lean_view.view)) < len(bytes(whole_view.view))


def test_a_rejoining_lean_seat_gets_the_room_data_before_its_view(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, (host, guest) = open_room(server, "wok", CONFIGS["wok"], 2)
    again = FakeConn(server, "guest again", lean=True)
    again.say(P.Hello(name=again.name))
    answer = again.say(P.Rejoin(token=guest.token))
    kinds = [type(m).__name__ for m in answer]
    assert kinds.index("RoomData") < kinds.index("ViewMsg")


def test_a_view_of_a_game_without_unchanging_fields_is_sent_whole(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, _ = open_room(server, "tactics", {"players": 2}, 2)
    lean = FakeConn(server, "watcher", lean=True)
    lean.say(P.Hello(name=lean.name))
    lean.say(P.Spectate(code=room.code))
    assert not [m for m in lean.out if isinstance(m, P.RoomData)]
    assert bytes(lean.last(P.ViewMsg).view) == msgspec.json.encode(room.state.view(None))
