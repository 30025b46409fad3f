"""Clocks run on the server, driven here by a manual clock: R7, W12 and the waiting timer."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec

from suite.net import protocol as P
from suite.net.server.clock import ManualClock

from .fakes import make_server, open_room


def _events(conn: object) -> list[str]:
    view = conn.last(P.ViewMsg)  # type: ignore[attr-defined]
    return [e["kind"] for e in msgspec.json.decode(view.events)]


def test_world_war_turn_clock_plays_time_up(tmp_path: Path) -> None:
    clock = ManualClock()
    server = make_server(tmp_path, clock)
    config = {"players": 2, "map": "classic", "clock": 60}
    room, conns = open_room(server, "worldwar", config, 2)
    first = conns[0].last(P.ClockMsg)
    assert first.deadline == clock.now() + 60
    actor, sid = min(room.state.awaiting()), room.state_id
    clock.advance(59)
    server.tick()
    assert room.state_id == sid
    clock.advance(2)
    server.tick()
    assert room.state_id > sid
    assert "time_ran_out" in _events(conns[0])
    assert conns[0].last(P.ViewMsg).actor == actor
    assert min(room.state.awaiting()) != actor or room.state.turn > 0
    assert conns[1].last(P.ClockMsg).deadline == clock.now() + 60


def test_pause_stops_the_clock(tmp_path: Path) -> None:
    clock = ManualClock()
    server = make_server(tmp_path, clock)
    room, (host, other) = open_room(
        server, "worldwar", {"players": 2, "map": "classic", "clock": 60}, 2
    )
    sid = room.state_id
    clock.advance(30)
    host.say(P.Pause(token=host.token))
    assert other.last(P.Room).phase == "paused" and other.last(P.ClockMsg).paused
    clock.advance(600)
    server.tick()
    actor = conns_actor = [host, other][min(room.state.awaiting())]
    (err,) = conns_actor.say(P.Act(token=actor.token, state_id=sid, action={"kind": "end_turn"}))
    assert isinstance(err, P.Error) and err.code == "paused"
    assert room.state_id == sid
    host.say(P.Resume(token=host.token))
    clock.advance(29)
    server.tick()
    assert room.state_id == sid
    clock.advance(2)
    server.tick()
    assert room.state_id > sid


def test_wok_deadline_poke_run_now_and_missed_turns(tmp_path: Path) -> None:
    clock = ManualClock()
    server = make_server(tmp_path, clock)
    config = {"players": 3, "variant": "skirmish", "clock": "live"}
    room, conns = open_room(server, "wok", config, 3)
    rules = room.state.rules.clock["live"]
    tick = conns[0].last(P.ClockMsg)
    assert tick.deadline == clock.now() + rules.deadline and not tick.can_poke
    (err,) = conns[1].say(P.Poke(token=conns[1].token))
    assert isinstance(err, P.Error) and err.code == "illegal"
    # seat 0 is ready (W12 ready flag through the protocol's ready message)
    conns[0].say(P.Ready(token=conns[0].token))
    assert 0 in room.state.ready
    conns[0].say(P.Unready(token=conns[0].token))
    assert 0 not in room.state.ready
    conns[0].say(P.Ready(token=conns[0].token))
    for turn in range(3):
        clock.advance(rules.deadline + 1)
        server.tick()
        assert conns[2].last(P.ClockMsg).can_poke
        conns[2].say(P.Poke(token=conns[2].token))
        assert "poked" in _events(conns[1])
        (err,) = conns[2].say(P.RunNow(token=conns[2].token))
        assert isinstance(err, P.Error) and err.code == "illegal"
        clock.advance(rules.run_now_after_poke)
        server.tick()
        assert conns[2].last(P.ClockMsg).can_run_now
        turn_before = room.state.turn
        conns[2].say(P.RunNow(token=conns[2].token))
        assert room.state.turn == turn_before + 1, turn
        if turn < 2:
            conns[0].say(P.Ready(token=conns[0].token))
    # seats 1 and 2 entered nothing three turns in a row: they quit (W12)
    assert room.state.seat_quit[1] and room.state.seat_quit[2]
    assert not room.state.seat_quit[0]


def test_restart_rebuilds_wok_clock_operations_exactly(tmp_path: Path) -> None:
    clock = ManualClock()
    server = make_server(tmp_path, clock)
    room, conns = open_room(server, "wok", {"players": 2, "variant": "duel", "clock": "live"}, 2)
    rules = room.state.rules.clock["live"]
    clock.advance(rules.deadline + 5)
    conns[0].say(P.Poke(token=conns[0].token))
    clock.advance(rules.run_now_after_poke + 1)
    conns[0].say(P.RunNow(token=conns[0].token))
    clock.advance(7)
    conns[1].say(P.Ready(token=conns[1].token))
    before = msgspec.json.encode(room.state.to_dict())
    code, sid = room.code, room.state_id
    asyncio.run(server.store.aclose())
    server.lock.release()  # as the operating system does when a server process dies
    clock.advance(1000)
    again = make_server(tmp_path, clock)
    asyncio.run(again.ownership.start())  # as `start` does: every unfinished room
    assert len(again.rooms) == 1
    rebuilt = again.rooms[code]
    assert rebuilt.state_id == sid
    assert msgspec.json.encode(rebuilt.state.to_dict()) == before


def test_tactics_waiting_timer(tmp_path: Path) -> None:
    clock = ManualClock()
    server = make_server(tmp_path, clock)
    room, conns = open_room(server, "tactics", {"players": 2}, 2)
    msg = conns[1].last(P.ClockMsg)
    start = clock.now()
    assert msg.waiting == tuple(sorted(room.state.awaiting()))
    assert msg.waiting_since == start and msg.show_after == 10.0 and msg.deadline is None
    clock.advance(22)
    seat = min(room.state.awaiting())
    conn = conns[seat]
    legal = msgspec.json.decode(conn.last(P.ViewMsg).legal)
    conn.say(P.Act(token=conn.token, state_id=room.state_id, action=legal[-1]))
    after = conns[1].last(P.ClockMsg)
    if after.waiting != msg.waiting:
        assert after.waiting_since == start + 22


def test_a_rebuilt_room_resumes_the_turn_with_the_time_left(tmp_path: Path) -> None:
    """The process that rebuilds a room (a restart, or another process adopting it) gives
    the player the time the turn had left, not a fresh turn."""
    clock = ManualClock()
    server = make_server(tmp_path, clock)
    room, _ = open_room(server, "worldwar", {"players": 2, "map": "classic", "clock": 60}, 2)
    deadline = room.clock.info(room.state, clock.now()).deadline
    assert deadline == clock.now() + 60
    clock.advance(40)
    asyncio.run(server.store.aclose())
    server.lock.release()
    again = make_server(tmp_path, clock)
    asyncio.run(again.ownership.start())  # as `start` does: every unfinished room
    assert len(again.rooms) == 1
    rebuilt = again.rooms[room.code]
    assert rebuilt.clock.info(rebuilt.state, clock.now()).deadline == deadline
    sid = rebuilt.state_id
    clock.advance(21)
    again.tick()
    assert rebuilt.state_id > sid  # time ran out 20 s after the rebuild, as it would have
