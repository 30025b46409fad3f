"""The server's ordered checks, chat, spectators, hidden information, and fuzzing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from suite.core.match import encode, game_spec
from suite.core.rng import Rng
from suite.net import protocol as P

from .fakes import FakeConn, legal_of, make_server, open_room

WW = {"players": 3, "map": "classic", "cards": "increasing"}


def _snapshot(room: Any) -> bytes:
    return msgspec.json.encode(room.state.to_dict())


def test_checks_come_in_order(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "worldwar", WW, 3)
    actor = min(room.state.awaiting())
    other = next(c for c in conns if c.seat != actor)
    me = next(c for c in conns if c.seat == actor)
    sid = room.state_id
    good = encode(legal_of(me, room)[0])
    before = _snapshot(room)

    # 1. token: a wrong token, and a real token used from another connection
    (err,) = other.say(P.Act(token="nope", state_id=sid, action=good))
    assert isinstance(err, P.Error) and err.code == "bad_token"
    (err,) = other.say(P.Act(token=me.token, state_id=sid, action=good))
    assert isinstance(err, P.Error) and err.code == "bad_token"
    # 2. the seat must be awaited (even with a stale id and a bad action)
    (err,) = other.say(P.Act(token=other.token, state_id=sid - 1, action={"kind": "x"}))
    assert isinstance(err, P.Error) and err.code == "not_your_turn"
    # 3. stale state id (even with a bad action)
    (err,) = me.say(P.Act(token=me.token, state_id=sid + 1, action={"kind": "x"}))
    assert isinstance(err, P.Error) and err.code == "stale"
    # 4. legality, with the engine's reason
    (err,) = me.say(P.Act(token=me.token, state_id=sid, action={"kind": "x"}))
    assert isinstance(err, P.Error) and err.code == "bad_action"
    (err,) = me.say(P.Act(token=me.token, state_id=sid, action={"kind": "fortify"}))
    assert isinstance(err, P.Error) and err.code in ("bad_action", "illegal")
    (err,) = me.say(P.Act(token=me.token, state_id=sid, action={"kind": "time_up"}))
    assert isinstance(err, P.Error) and err.code == "illegal" and "server" in err.message
    assert _snapshot(room) == before and room.state_id == sid
    # and a legal action goes through, reaching every seat with its own view
    answer = me.say(P.Act(token=me.token, state_id=sid, action=good))
    assert any(isinstance(m, P.ViewMsg) and m.state_id == sid + 1 for m in answer)
    for c in conns:
        view = c.last(P.ViewMsg)
        assert view.state_id == sid + 1 and view.seat == c.seat and view.actor == actor
        assert view.view == msgspec.Raw(msgspec.json.encode(room.state.view(c.seat)))


def test_illegal_action_names_the_engines_reason(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "tactics", {"players": 2}, 2)
    me = conns[min(room.state.awaiting())]
    (err,) = me.say(
        P.Act(token=me.token, state_id=room.state_id, action={"kind": "select", "piece": 999})
    )
    assert isinstance(err, P.Error) and err.code == "illegal" and err.message


def test_lobby_refuses_actions_and_spectators_see_the_spectator_view(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    host = FakeConn(server, "h")
    host.say(P.Hello(name="h"))
    (err,) = FakeConn(server, "x").say(P.Join(code="AAAAAA"))
    assert isinstance(err, P.Error) and err.code == "no_hello"
    host.say(P.Create(game="worldwar", config={"players": 2}))
    code = host.last(P.Room).code
    (err,) = host.say(P.Act(token=host.token, state_id=0, action={"kind": "end_turn"}))
    assert isinstance(err, P.Error) and err.code == "not_started"
    watcher = FakeConn(server, "w")
    watcher.say(P.Hello(name="w"))
    watcher.say(P.Spectate(code=code))
    room = server.rooms[code]
    view = watcher.last(P.ViewMsg)
    assert view.seat is None
    assert view.view == msgspec.Raw(msgspec.json.encode(room.state.view(None)))
    assert not any(isinstance(m, P.Seated) for m in watcher.out)
    assert host.last(P.Room).spectators == 1


def test_chat_has_a_length_limit(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, (a, b) = open_room(server, "tactics", {"players": 2}, 2)
    a.say(P.Chat(token=a.token, text="  good luck  "))
    line = b.last(P.ChatLine)
    assert (line.seat, line.name, line.text) == (0, "host", "good luck")
    (err,) = a.say(P.Chat(token=a.token, text="x" * (P.MAX_CHAT + 1)))
    assert isinstance(err, P.Error) and err.code == "chat_too_long"
    (err,) = a.say(P.Chat(token=a.token, text="   "))
    assert isinstance(err, P.Error) and err.code == "empty_chat"
    (err,) = a.say(P.Chat(token=b.token, text="impostor"))
    assert isinstance(err, P.Error) and err.code == "bad_token"
    assert [m.text for m in b.out if isinstance(m, P.ChatLine)] == ["good luck"]


def _play(room: Any, conns: list[FakeConn], steps: int, bot: str, check: Any) -> None:
    """Play `steps` actions chosen by the game's bot from each seat's own view."""
    rng = Rng(11)
    brains = {c.seat: game_spec(room.game).bots[bot]() for c in conns}
    from suite.net.client.client import RemoteSpace, typed_view

    for _ in range(steps):
        if room.state.outcome() is not None:
            return
        seat = min(room.state.awaiting())
        conn = conns[seat]
        view = conn.last(P.ViewMsg)
        legal: Any = legal_of(conn, room)
        if view.choices is not None or not legal:
            legal = RemoteSpace(room.game, view.choices or {})
        action = brains[seat].choose(typed_view(room.game, view.view), legal, rng)
        answer = conn.say(P.Act(token=conn.token, state_id=room.state_id, action=encode(action)))
        assert not [m for m in answer if isinstance(m, P.Error)], answer
        check(room, conns)


def test_a_seat_never_receives_another_seats_cards(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "worldwar", WW, 3)

    def check(room: Any, conns: list[FakeConn]) -> None:
        hands = room.state.hands
        for c in conns:
            view = json.loads(bytes(c.last(P.ViewMsg).view))
            assert sorted(view["hand"]) == sorted(hands[c.seat])
            others = [card for s, h in enumerate(hands) if s != c.seat for card in h]
            assert view["hand_sizes"] == [len(h) for h in hands]
            if others and set(others) - set(hands[c.seat]):
                blob = json.dumps({k: v for k, v in view.items() if k not in ("hand",)})
                assert "hands" not in blob

    _play(room, conns, 400, "easy", check)
    assert any(room.state.hands)


def test_wok_seats_never_receive_fogged_provinces(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "wok", {"players": 3, "variant": "skirmish"}, 3)
    seen_detail = 0

    def check(room: Any, conns: list[FakeConn]) -> None:
        nonlocal seen_detail
        state = room.state
        for c in conns:
            msg = c.last(P.ViewMsg)
            if msg.state_id != room.state_id:
                continue
            view = json.loads(bytes(msg.view))
            assert view == json.loads(msgspec.json.encode(state.view(c.seat)))
            mine = set(state.seat_colours[c.seat])
            spied = {p for col in mine for p in state.province_intel.get(col, {})}
            for prov in view["provinces"]:
                if prov["figures"] is not None and prov["owner"] not in mine:
                    # only what its own spies saw, dated the turn they saw it
                    assert prov["id"] in spied, f"seat {c.seat} sees figures of {prov['id']}"
                    assert prov["seen"] is not None
                seen_detail += prov["figures"] is not None and prov["owner"] in mine
            action = msg.action
            if msg.actor is not None and msg.actor != c.seat and P.present(action):
                assert json.loads(bytes(action))["kind"] != "orders"

    _play(room, conns, 30, "general", check)
    assert seen_detail > 0


# -- fuzzing ---------------------------------------------------------------------------------

junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
TYPES = [
    "hello",
    "create",
    "join",
    "rejoin",
    "spectate",
    "ready",
    "unready",
    "action",
    "legal",
    "chat",
    "leave",
    "poke",
    "run_now",
    "seat_bot",
    "kick",
    "pause",
    "resume",
    "end",
    "pack_request",
    "zap",
]
FIELDS = [
    "name",
    "code",
    "seat",
    "token",
    "state_id",
    "action",
    "text",
    "page",
    "bot",
    "game",
    "config",
    "path",
    "offset",
    "protocol",
]


@pytest.fixture(scope="module")
def fuzz_room(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, list[FakeConn]]:
    server = make_server(tmp_path_factory.mktemp("fuzz"), max_rooms=1)
    room, conns = open_room(server, "worldwar", WW, 3)
    return room, conns


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    who=st.integers(0, 2),
    data=st.one_of(
        st.binary(max_size=100),
        st.text(max_size=100),
        junk.map(json.dumps),
        st.builds(
            lambda t, d: json.dumps({**d, "type": t}),
            st.sampled_from(TYPES),
            st.dictionaries(st.sampled_from(FIELDS), junk, max_size=5),
        ),
        st.builds(
            lambda kind, extra: {"kind": kind, **extra},
            st.sampled_from(["place", "attack", "occupy", "fortify", "end_turn", "turn_in", "zz"]),
            st.dictionaries(st.text(max_size=5), st.lists(junk, min_size=1, max_size=2)),
        ).map(
            lambda a: json.dumps({"type": "action", "token": "forged", "state_id": 0, "action": a})
        ),
        st.builds(
            lambda extra, shift: json.dumps(
                {
                    "type": "action",
                    "token": "$TOKEN",
                    "state_id": shift,
                    "action": {"kind": "zz", **extra},
                }
            ),
            st.dictionaries(st.text(max_size=5), junk, max_size=3),
            st.sampled_from([-1, 0, 1]),
        ),
    ),
)
def test_garbage_never_crashes_nor_changes_the_match(
    fuzz_room: tuple[Any, list[FakeConn]], who: int, data: str | bytes
) -> None:
    room, conns = fuzz_room
    before, sid = _snapshot(room), room.state_id
    conn = conns[who]
    if isinstance(data, str) and "$TOKEN" in data:
        shifted = json.loads(data)
        shifted["token"], shifted["state_id"] = conn.token, sid + shifted["state_id"]
        data = json.dumps(shifted)
    answer = conn.say(data)
    # an answer to every message: an error (or a welcome to a well-formed hello)
    assert any(isinstance(m, P.Error | P.Welcome) for m in answer), answer
    assert _snapshot(room) == before and room.state_id == sid
    assert room.phase == "playing"
    # the connection is kept and still works
    answer = conn.say(P.Chat(token=conn.token, text="still here"))
    assert any(isinstance(m, P.ChatLine) for m in answer), answer


def test_wok_orders_stay_good_until_the_turn_runs(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "wok", {"players": 3, "variant": "skirmish"}, 3)
    seen = room.state_id
    empty = {"kind": "orders", "sets": [], "ready": False}
    for c in conns[:2]:  # both decided on the same state: simultaneous, both accepted
        answer = c.say(P.Act(token=c.token, state_id=seen, action=empty))
        assert not [m for m in answer if isinstance(m, P.Error)], answer
    assert room.state_id == seen + 2
    turn = room.state.turn
    for c in conns:
        c.say(P.Ready(token=c.token))
    assert room.state.turn == turn + 1  # the turn ran: what was decided before is stale
    (err,) = conns[0].say(P.Act(token=conns[0].token, state_id=seen + 2, action=empty))
    assert isinstance(err, P.Error) and err.code == "stale"


def test_long_legal_lists_come_in_pages(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "worldwar", WW, 3)
    rng = Rng(5)
    bot = game_spec("worldwar").bots["easy"]()
    for _ in range(300):
        seat = min(room.state.awaiting())
        conn = conns[seat]
        view = conn.last(P.ViewMsg)
        expected = [encode(a) for a in room.state.legal(seat)]
        if view.legal_pages:
            assert not P.present(view.legal)
            got = [encode(a) for a in legal_of(conn, room)]
            assert got == expected and len(got) > 200
            (err,) = conn.say(
                P.LegalRequest(token=conn.token, state_id=room.state_id, page=view.legal_pages)
            )
            assert isinstance(err, P.Error) and err.code == "no_page"
            return
        assert [encode(a) for a in legal_of(conn, room)] == expected
        action = bot.choose(room.state.view(seat), room.state.legal(seat), rng)
        conn.say(P.Act(token=conn.token, state_id=room.state_id, action=encode(action)))
    raise AssertionError("no long legal list in 300 actions")
