"""What a hostile client may try, item by item: seeds, configs, server files, raising
messages, caps, chat, one server per folder (issue 20, items 1 and 3-9)."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

from suite.net import protocol as P
from suite.net.server.app import SEED_BITS, MatchServer
from suite.net.server.clock import ManualClock
from suite.net.server.configs import MapBook, OnlineConfigError, check_online_config
from suite.net.server.datalock import DataFolderBusy
from suite.net.server.room import chat_text
from suite.worldwar.rules.domination import load_domination

from .fakes import FakeConn, make_server, open_room

DATA = Path(__file__).parents[1] / "worldwar" / "data"


def _greeted(server: MatchServer, name: str = "x", address: str = "10.0.0.1") -> FakeConn:
    conn = FakeConn(server, name, address)
    conn.say(P.Hello(name=name))
    return conn


def _error(answer: list[P.ServerMessage]) -> P.Error:
    errors = [m for m in answer if isinstance(m, P.Error)]
    assert errors, answer
    return errors[0]


# -- 1. the host must not know the dice ------------------------------------------------------


def test_a_client_cannot_choose_the_seed(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    host = _greeted(server)
    raw = b'{"type":"create","game":"worldwar","config":{"players":2},"seed":7}'
    err = _error(host.say(raw))
    assert err.code == "bad_message" and "seed" in err.message
    assert not server.rooms


def test_seeds_are_drawn_on_the_server_with_128_bits(tmp_path: Path) -> None:
    server = make_server(tmp_path, max_lobbies_per_connection=50, max_lobbies_per_address=50)
    host = _greeted(server)
    for _ in range(24):
        host.say(P.Create(game="wok", config={"players": 2}))
    seeds = [room.seed for room in server.rooms.values()]
    assert len(set(seeds)) == 24
    assert all(0 <= s < 2**SEED_BITS for s in seeds)
    assert max(s.bit_length() for s in seeds) > 120  # 31-bit seeds would fail this
    stored = asyncio.run(server.store.load(next(iter(server.rooms))))
    assert stored is not None and stored.seed == server.rooms[stored.code].seed


def test_the_seed_is_told_only_in_the_finished_matchs_replay(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "worldwar", {"players": 2, "max_turns": 2}, 2, seed=2**100 + 3)
    watcher = _greeted(server, "w")
    watcher.say(P.Spectate(code=room.code))
    secret = str(room.seed).encode()
    conns[0].say(P.SeatBot(token=conns[0].token, seat=1, bot="easy"))
    while room.phase == "playing":  # seat 0 plays random legal actions
        legal = room.state.legal(0)
        if 0 in room.state.awaiting() and legal:
            action = msgspec.to_builtins(legal[0])
            conns[0].say(P.Act(token=conns[0].token, state_id=room.state_id, action=action))
        else:
            room.bot_step()
    for conn in (*conns, watcher):
        assert not any(secret in data for data in conn.raw)
    answer = watcher.say_and_wait(P.ReplayRequest(code=room.code))  # read off the loop
    (chunk,) = [m for m in answer if isinstance(m, P.ReplayChunk)]
    assert chunk.eof
    import base64

    assert msgspec.json.decode(base64.b64decode(chunk.data))["seed"] == room.seed


# -- 3. configs are bounded ------------------------------------------------------------------

LARGEST: dict[str, dict[str, Any]] = {
    "worldwar": {
        "players": 6,
        "map": "random:42:8",
        "cards": "increasing",
        "clock": 180,
        "max_turns": 1000,
        "rules": {"cards": {"increasing": {"copies": 100}}},
    },
    "wok": {
        "players": 10,
        "map": 36,
        "max_turns": 999,
        "names": [f"Player name {i:02d}.." for i in range(10)],
    },
    "tactics": {
        "players": 4,
        "max_rounds": 150,
        "army_size": 9,
        "armies": ["random", "value", "random", "random"],
    },
}


@pytest.mark.parametrize("game", sorted(LARGEST))
def test_the_largest_allowed_config_makes_views_that_fit_a_message(
    game: str, tmp_path: Path
) -> None:
    server = make_server(tmp_path)
    players = LARGEST[game]["players"]
    check_online_config(game, LARGEST[game], (2, players), server.maps)
    host = _greeted(server)
    host.say(P.Create(game=game, config=LARGEST[game]))
    room = server.rooms[host.last(P.Room).code]
    for seat in range(1, players):
        room.seat_bot(host, host.token, seat, "random")
    host.say(P.Ready(token=host.token))
    assert room.phase == "playing"
    for _ in range(40):  # views along the first actions too
        for seat in [None, *range(players)]:
            view = msgspec.json.encode(room.state.view(seat))
            assert len(view) < P.MAX_MESSAGE - 16 * 1024, (game, seat, len(view))
        if room.phase != "playing":
            break
        room.bot_step() if room.state.awaiting() - {0} else _act_first_legal(room, host)
    assert not host.errors()


def _act_first_legal(room: Any, conn: FakeConn) -> None:
    legal = room.state.legal(0)
    action = legal[0] if isinstance(legal, list) else legal.sample(room.bot_rng)
    conn.say(P.Act(token=conn.token, state_id=room.state_id, action=msgspec.to_builtins(action)))


@pytest.mark.parametrize(
    ("game", "config", "words"),
    [
        ("wok", {"players": 2, "map": 1000}, "map must be 8 to 36"),
        ("wok", {"players": 2, "map": "999999"}, "map must be 8 to 36"),
        ("wok", {"players": 2, "max_turns": 10**9}, "max_turns must be 0 to 999"),
        ("wok", {"players": 3, "robots": 1}, "robots must be 0 online"),
        ("worldwar", {"players": 2, "map": "random:500:8"}, "map territories must be 12 to 42"),
        (
            "worldwar",
            {"players": 2, "rules": {"cards": {"increasing": {"copies": 1_000_000}}}},
            "rules.cards.increasing.copies must be 0 to 100",
        ),
        ("worldwar", {"players": 2, "map_seed": 2**64}, "map_seed must be"),
        ("worldwar", {"players": 2, "map": {"random": {"territories": 900}}}, "map's name"),
        ("tactics", {"players": 2, "max_rounds": 10**6}, "max_rounds must be 1 to 150"),
        ("tactics", {"players": 9}, "players must be 2 to 4"),
        ("wok", {"players": 2, "names": ["x" * 40] * 200}, "at most 4096 bytes"),
    ],
)
def test_configs_out_of_range_are_refused_before_the_engine_runs(
    game: str, config: dict[str, Any], words: str, tmp_path: Path
) -> None:
    server = make_server(tmp_path)
    host = _greeted(server)
    err = _error(host.say(P.Create(game=game, config=config)))
    assert err.code == "bad_config" and words in err.message, err.message
    assert not server.rooms


def test_a_view_over_the_message_limit_is_never_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "tactics", {"players": 2}, 2)
    big = {"kind": "huge", "blob": "x" * (P.MAX_MESSAGE + 10)}
    monkeypatch.setattr(room.state, "view", lambda seat: big)
    before = len(conns[1].raw)
    room._broadcast_room()
    conns[1].say(P.Rejoin(token=conns[1].token))
    sent = conns[1].raw[before:]
    assert all(len(data) <= P.MAX_MESSAGE for data in sent)
    assert any(isinstance(m, P.Error) and m.code == "too_large" for m in conns[1].out[-6:])


# -- 4. clients never name server files ------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        str(DATA / "archipelago.map"),
        "../../worldwar/data/archipelago.map",
        "archipelago.map",
        "/etc/passwd.map",
        "/nonexistent/nothing.map",
        {"path": str(DATA / "archipelago.map")},
    ],
)
def test_a_map_path_is_refused_alike_whether_the_file_exists_or_not(
    value: Any, tmp_path: Path
) -> None:
    server = make_server(tmp_path)
    host = _greeted(server)
    err = _error(host.say(P.Create(game="worldwar", config={"players": 2, "map": value})))
    assert err.code == "bad_config"
    assert "exist" not in err.message and "archipelago" not in err.message
    assert "passwd" not in err.message and "nothing" not in err.message


def test_the_hosts_own_maps_are_named_by_file_name(tmp_path: Path) -> None:
    (tmp_path / "maps" / "worldwar").mkdir(parents=True)
    shutil.copy(DATA / "archipelago.map", tmp_path / "maps" / "worldwar" / "islands.map")
    server = make_server(tmp_path)
    host = _greeted(server)
    host.say(P.Create(game="worldwar", config={"players": 2, "map": "islands"}))
    room = server.rooms[host.last(P.Room).code]
    assert host.last(P.Room).config["map"] == "islands"  # the public config names it
    assert len(room.state.view(0).owner) == len(load_domination(DATA / "archipelago.map"))
    assert "islands" in MapBook(tmp_path / "maps").names("worldwar")


# -- 5. nothing a client sends raises --------------------------------------------------------


def test_a_deeply_nested_config_is_a_typed_error_and_the_connection_stays(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    host = _greeted(server)
    for depth in (1000, 30):
        nested = "[" * depth + "]" * depth
        data = '{"type":"create","game":"wok","config":{"map":' + nested + "}}"
        err = _error(host.say(data))
        assert err.code in ("bad_message", "bad_config"), err
    room, conns = open_room(server, "tactics", {"players": 2}, 2)
    seat = min(room.state.awaiting())
    deep = "[" * 900 + "]" * 900
    action = f'{{"type":"action","token":"{conns[seat].token}","state_id":{room.state_id},'
    before = msgspec.json.encode(room.state.to_dict())
    err = _error(conns[seat].say(action + '"action":{"kind":' + deep + "}}"))
    assert err.code in ("bad_message", "bad_action"), err
    assert msgspec.json.encode(room.state.to_dict()) == before
    assert host.say(P.ListRooms())  # still served
    with pytest.raises(OnlineConfigError):
        check_online_config("wok", {"map": [[[[[[[]]]]]]]}, (2, 10), server.maps)


def test_a_legal_page_out_of_range_is_refused(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "worldwar", {"players": 2}, 2)
    seat = min(room.state.awaiting())
    for page in (-1, -400, 10**6):
        err = _error(
            conns[seat].say(
                P.LegalRequest(token=conns[seat].token, state_id=room.state_id, page=page)
            )
        )
        assert err.code == "no_page"


def test_huge_numbers_are_typed_errors(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    host = _greeted(server)
    for data in (
        '{"type":"create","game":"worldwar","config":{"players":2,"map_seed":' + "9" * 30 + "}}",
        '{"type":"legal","token":"x","state_id":' + "9" * 40 + ',"page":0}',
        '{"type":"join","code":"ABCDEF","seat":' + "9" * 4000 + "}",
    ):
        assert _error(host.say(data)).code in ("bad_config", "bad_message", "bad_token", "no_room")
    assert not server.rooms


# -- 6. caps per client and per address ------------------------------------------------------


def test_lobbies_are_capped_per_connection_and_per_address(tmp_path: Path) -> None:
    server = make_server(tmp_path, max_lobbies_per_connection=2, max_lobbies_per_address=3)
    first = _greeted(server, "a", "10.0.0.1")
    for _ in range(2):
        first.say(P.Create(game="wok", config={"players": 2}))
    assert _error(first.say(P.Create(game="wok", config={"players": 2}))).code == "too_many_lobbies"
    second = _greeted(server, "b", "10.0.0.1")
    second.say(P.Create(game="wok", config={"players": 2}))
    assert (
        _error(second.say(P.Create(game="wok", config={"players": 2}))).code == "too_many_lobbies"
    )
    elsewhere = _greeted(server, "c", "10.0.0.2")
    elsewhere.say(P.Create(game="wok", config={"players": 2}))
    assert len(server.rooms) == 4 and not elsewhere.errors()


def test_an_unstarted_lobby_expires(tmp_path: Path) -> None:
    clock = ManualClock()
    server = make_server(tmp_path, clock, lobby_expiry=600.0)
    host = _greeted(server)
    host.say(P.Create(game="wok", config={"players": 2}))
    room = server.rooms[host.last(P.Room).code]
    clock.advance(599)
    server.tick()
    assert room.phase == "lobby"
    clock.advance(2)
    server.tick()
    assert room.phase == "over"
    assert "expired" in host.last(P.GameOverMsg).reason
    host.say(P.Create(game="wok", config={"players": 2}))  # the cap is free again
    assert len([r for r in server.rooms.values() if r.phase == "lobby"]) == 1


# -- 7. chat is text -------------------------------------------------------------------------


def test_chat_drops_control_characters() -> None:
    assert chat_text("\x1b[31mred\x07\r\nline\u202eevil\u200b ") == "[31mredlineevil"
    assert chat_text("\x00\x1b\x07") == ""


def test_seats_of_a_finished_room_may_still_chat(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "tactics", {"players": 2}, 2)
    conns[0].say(P.End(token=conns[0].token))
    assert room.phase == "over"
    assert not [
        m
        for m in conns[1].say(P.Chat(token=conns[1].token, text="gg\x07"))
        if isinstance(m, P.Error)
    ]
    line = conns[0].last(P.ChatLine)
    assert line.text == "gg" and line.seat == 1
    err = _error(
        conns[1].say(
            P.Act(token=conns[1].token, state_id=room.state_id, action={"kind": "end_turn"})
        )
    )
    assert err.code == "over"
    assert _error(conns[1].say(P.Chat(token=conns[1].token, text="\x1b\x07"))).code == "empty_chat"


# -- 9. one data folder, one server ----------------------------------------------------------


def test_a_second_server_on_the_same_folder_is_refused(tmp_path: Path) -> None:
    first = make_server(tmp_path)
    with pytest.raises(DataFolderBusy, match=str(tmp_path)):
        make_server(tmp_path)
    first.store.close()
    first.lock.release()
    make_server(tmp_path).store.close()  # free once the first one is gone
