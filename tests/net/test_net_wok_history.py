"""WoK's `wok_history` (issue 33): any past turn's report, as the asking seat's view held it
at that turn's end (a spectator: the public part only), from the stored match."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest

from suite.net import protocol as P
from suite.net.server.errors import Refused
from suite.net.server.wok_history import report_turn

from .fakes import FakeConn, make_server, open_room, spectator

CONFIG = {"players": 3, "variant": "skirmish", "map": "star-islands", "max_turns": 5}


def _play_turn(room: Any, conns: list[FakeConn]) -> None:
    """Each seat attacks a neighbour of its home with 3 armies (sent orders make a seat
    ready: the last one runs the turn)."""
    for seat, conn in enumerate(conns):
        view = room.state.view(seat)
        colour = view.colours[0]
        home = colour.homes[0]
        target = view.map.provinces[home].neighbours[0]
        sets = [
            {"colour": colour.colour, "attacks": [{"source": home, "target": target, "armies": 3}]}
        ]
        action = {"kind": "orders", "sets": sets}
        conn.say(P.Act(token=conn.token, state_id=room.state_id, action=action))


def _ask(conn: FakeConn, turn: int, token: str | None) -> Any:
    (answer,) = conn.say_and_wait(P.WokHistoryRequest(turn=turn, token=token))
    return answer


def test_each_seat_gets_its_own_past_reports_and_nothing_else(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "wok", CONFIG, humans=3)
    watcher = spectator(server, room)
    enc = msgspec.json.Encoder()
    live: dict[int, dict[int, bytes]] = {}  # turn -> seat -> the view's reports, as sent
    for _ in range(3):
        turn = report_turn(room.state)
        live[turn] = {s: enc.encode(room.state.view(s).reports) for s in range(3)}
        _play_turn(room, conns)
        assert report_turn(room.state) == turn + 1
    newest = report_turn(room.state)
    assert newest == 3
    for turn, seen in live.items():
        for seat, conn in enumerate(conns):
            answer = _ask(conn, turn, conn.token)
            assert isinstance(answer, P.WokHistoryTurn), answer
            assert (answer.turn, answer.newest, answer.seat) == (turn, newest, seat)
            # Exactly the reports the seat's view held: its own colours' and no one else's.
            assert bytes(answer.reports) == seen[seat]
            colours = set(room.state.seat_colours[seat])
            assert {r["colour"] for r in msgspec.json.decode(answer.reports)} <= colours
            assert answer.series_from == 0 and len(answer.provinces) == turn + 1
        public = _ask(watcher, turn, None)
        assert isinstance(public, P.WokHistoryTurn) and public.seat is None
        assert bytes(public.reports) == b"[]"  # a spectator's view holds no report
        assert len(public.scores) == turn + 1 and len(public.scores[0]) == len(
            room.state.world.colours
        )
        assert msgspec.json.decode(public.top_ten)
    # The newest turn's answer is what the live view shows now.
    now = _ask(conns[1], newest, conns[1].token)
    assert bytes(now.reports) == enc.encode(room.state.view(1).reports)
    # A turn that has not run, another seat's token, no seat at all: clear refusals.
    (err,) = conns[0].say_and_wait(P.WokHistoryRequest(turn=newest + 1, token=conns[0].token))
    assert isinstance(err, P.Error) and err.code == "bad_turn" and err.ref == "wok_history"
    (err,) = conns[0].say(P.WokHistoryRequest(turn=0, token=conns[1].token))
    assert isinstance(err, P.Error) and err.code == "bad_token"
    (err,) = conns[0].say('{"type":"wok_history","turn":-1}')
    assert isinstance(err, P.Error) and err.code == "bad_message"
    stranger = FakeConn(server, "s")
    stranger.say(P.Hello(name="s"))
    (err,) = stranger.say(P.WokHistoryRequest(turn=0))
    assert isinstance(err, P.Error) and err.code == "no_room"


def test_a_rebuilt_server_answers_from_the_store_and_asks_are_bounded(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "wok", CONFIG, humans=3)
    _play_turn(room, conns)
    seen = msgspec.json.encode(room.state.view(2).reports)
    _play_turn(room, conns)
    history = server.wok_history
    history.forget(room.code)  # as a restarted process: nothing kept, all from the log

    async def both() -> list[Any]:
        asker = object()
        first = history.answer(asker, room.code, 2, 1, newest=2)
        second = history.answer(asker, room.code, 2, 0, newest=2)
        return list(await asyncio.gather(first, second, return_exceptions=True))

    first, second = asyncio.run(both())
    assert isinstance(first, P.WokHistoryTurn) and bytes(first.reports) == seen
    # One question in flight per connection: the second waits for nobody, it is refused.
    assert isinstance(second, Refused) and second.code == "busy"
    with pytest.raises(Refused, match="turns 0 to 2 have reports"):
        asyncio.run(history.answer(object(), room.code, 0, 3, newest=2))
