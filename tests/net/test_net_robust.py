"""Robustness over real loopback sockets: limits, reconnects, slow clients, /healthz."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path

from suite.core.match import encode, game_spec
from suite.net import protocol as P
from suite.net.client.client import Client, play_bot

from .helpers import close_all, connect, run, seated_room, serving, until, url


def test_rate_limit_refuses_the_excess_and_keeps_the_connection(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path, rate=20.0, burst=30.0) as server:
            (host,) = await seated_room(
                server, "tactics", {"players": 2}, humans=1, bots={1: "random"}
            )
            for i in range(60):
                await host.send(P.Chat(token=host.token, text=f"spam {i}"))
            await host.wait(
                lambda c: len(c.chat) + sum(e.code == "rate_limited" for e in c.errors) == 60
            )
            got = len(host.chat)
            assert 20 <= got < 60  # the burst (less the set-up messages) and some refill
            await asyncio.sleep(0.6)  # the bucket refills
            await host.send(P.Chat(token=host.token, text="after the pause"))
            await host.wait(lambda c: c.chat[-1].text == "after the pause")
            limited = [e for e in host.errors if e.code == "rate_limited"]
            assert len(limited) + got == 60  # every message answered: a line or a refusal
            assert not host.closed
            await host.close()

    run(main())


def test_flooding_closes_the_connection(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path, rate=5.0, burst=5.0) as server:
            c = await connect(server, "flood")
            for _ in range(40):
                await c.send_raw('{"type":"chat","text":"x"}')
            await until(lambda: c.closed)
            assert c.ws.close_code == 1008

    run(main())


def test_size_limit_refuses_big_messages_and_drops_huge_ones(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            (host,) = await seated_room(
                server, "tactics", {"players": 2}, humans=1, bots={1: "random"}
            )
            big = json.dumps({"type": "chat", "token": host.token, "text": "x" * P.MAX_MESSAGE})
            await host.send_raw(big)
            await host.wait(lambda c: any(e.code == "too_large" for e in c.errors))
            await host.send(P.Chat(token=host.token, text="still connected"))
            await host.wait(lambda c: bool(c.chat) and c.chat[-1].text == "still connected")
            sid = server.rooms[host.code or ""].state_id
            await host.send_raw("y" * (3 * P.MAX_MESSAGE))  # over the websocket frame limit
            await until(lambda: host.closed)
            assert host.ws.close_code == 1009
            assert server.rooms[host.code or ""].state_id == sid

    run(main())


def test_malformed_messages_get_errors_and_change_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            clients = await seated_room(server, "worldwar", {"players": 2}, humans=2)
            room = server.rooms[clients[0].code or ""]
            before = room.state.to_dict()
            for junk in [
                "{",
                "[1,2]",
                '{"type":"warp"}',
                '{"type":"action","token":1}',
                b"\xff\x00binary?",
            ]:
                await clients[0].send_raw(junk)
            await clients[0].wait(lambda c: len(c.errors) >= 5)
            assert {e.code for e in clients[0].errors} <= {"bad_json", "bad_message"}
            assert room.state.to_dict() == before and not clients[0].closed
            await close_all(clients)

    run(main())


def test_reconnect_mid_game_holds_the_seat(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            a, b = await seated_room(server, "worldwar", {"players": 2}, humans=2, seed=9)
            room = server.rooms[a.code or ""]
            # play a few actions, then b drops
            for step in range(6):
                seat = min(room.state.awaiting())
                c = a if seat == 0 else b
                await c.wait(lambda c, n=step: c.view is not None and c.view.state_id == n)
                legal = await c.legal(c.view)  # type: ignore[arg-type]
                await c.act(legal[0])
                await until(lambda n=step: room.state_id == n + 1)
            token, sid = b.token, room.state_id
            assert token is not None
            await b.close()
            await a.wait(lambda c: c.room is not None and not c.room.seats[1].connected)
            assert room.seats[1].token == token  # the seat is held
            b2 = await connect(server, "b again")
            await b2.rejoin(token)
            assert b2.seat == 1 and b2.view is not None and b2.view.state_id == sid
            await a.wait(lambda c: c.room is not None and c.room.seats[1].connected)
            easy = game_spec("worldwar").bots["easy"]
            await asyncio.gather(play_bot(a, easy()), play_bot(b2, easy()))
            assert room.phase == "over"
            await close_all([a, b2])

    run(main())


def test_a_second_connection_replaces_the_first(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            (a,) = await seated_room(
                server, "tactics", {"players": 2}, humans=1, bots={1: "random"}
            )
            a2 = await connect(server, "again")
            await a2.rejoin(a.token or "")
            await a.wait(lambda c: any(e.code == "replaced" for e in c.errors))
            await close_all([a, a2])

    run(main())


def test_slow_client_is_dropped_and_may_rejoin(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path, send_queue=8) as server:
            a, b = await seated_room(server, "tactics", {"players": 2}, humans=2)
            conn = next(c for c in server.connections if c.name == "p1")
            # b stalled: its socket's buffer holds unsent bytes, so nothing is written at
            # once, and more comes than the queue holds before the writer gets a turn
            conn._sent_at_once = lambda data: False  # type: ignore[method-assign]
            for _ in range(20):
                conn.send(b'{"type":"error","code":"filler","message":""}')
            await until(lambda: conn.dropped)
            await a.wait(lambda c: c.room is not None and not c.room.seats[1].connected)
            await until(lambda: b.closed)
            assert b.ws.close_code == 1013
            b2 = await connect(server, "b2")
            await b2.rejoin(b.token or "")
            assert b2.seat == 1
            await close_all([a, b2])

    run(main())


def test_a_client_that_stops_reading_is_dropped(tmp_path: Path) -> None:
    """Messages are written at once while a client keeps up; once its socket backs up they
    queue behind websockets' back-pressure, and a full queue drops the client."""

    async def main() -> None:
        async with serving(tmp_path, send_queue=8) as server:
            a, b = await seated_room(server, "tactics", {"players": 2}, humans=2)
            conn = next(c for c in server.connections if c.name == "p1")
            b.ws.transport.pause_reading()
            filler = P.encode(P.Error(code="filler", message="x" * 60_000))
            for _ in range(2_000):  # at most 120 MB: far past any socket buffer
                if conn.dropped:
                    break
                conn.send(filler)
                await asyncio.sleep(0)
            assert conn.dropped
            await a.wait(lambda c: c.room is not None and not c.room.seats[1].connected)
            b.ws.transport.resume_reading()
            await close_all([a, b])

    run(main())


def test_healthz_and_plain_http(tmp_path: Path) -> None:
    async def get(port: int, path: str) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        await writer.drain()
        data = await reader.read(4096)
        writer.close()
        return data

    async def main() -> None:
        async with serving(tmp_path) as server:
            ok = await get(server.port, "/healthz")
            assert ok.startswith(b"HTTP/1.1 200") and b"ok rooms=0" in ok
            missing = await get(server.port, "/other")
            assert missing.startswith(b"HTTP/1.1 404")

    run(main())


def test_max_rooms(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path, max_rooms=1) as server:
            a = await connect(server, "a")
            await a.create("tactics", {"players": 2})
            b = await connect(server, "b")
            await b.send(P.Create(game="tactics", config={"players": 2}))
            await b.wait(lambda c: bool(c.errors))
            assert b.errors[0].code == "too_many_rooms"
            await close_all([a, b])

    run(main())


def test_bad_configs_and_names_are_refused_clearly(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            c = await connect(server, "c")
            for game, config, code in [
                ("chess", {}, "unknown_game"),
                ("worldwar", {"players": 9}, "bad_config"),
                ("worldwar", {"players": "two"}, "bad_config"),
                ("worldwar", {"players": 2, "cards": "bogus"}, "bad_config"),
                ("tactics", {"players": 2, "pack": "../../etc"}, "bad_config"),
            ]:
                before = len(c.errors)
                await c.send(P.Create(game=game, config=config))
                await c.wait(lambda c, n=before: len(c.errors) > n)
                assert c.errors[-1].code == code, c.errors[-1]
            assert not server.rooms
            try:
                await Client.connect(url(server), "x" * 80)
            except Exception as exc:
                assert "bad_name" in str(exc)
            else:
                raise AssertionError("a long name was accepted")
            await c.close()

    run(main())


def test_an_action_reaches_everyone_before_the_next(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            clients = await seated_room(server, "tactics", {"players": 2}, humans=2)
            watcher = await connect(server, "w")
            await watcher.spectate(clients[0].code or "")
            room = server.rooms[clients[0].code or ""]
            seat = min(room.state.awaiting())
            actor = clients[seat]
            legal = await actor.legal(actor.view)  # type: ignore[arg-type]
            await actor.act(encode(legal[0]))
            for c in [*clients, watcher]:
                await c.wait(lambda c: c.view is not None and c.view.state_id == 1)
                assert c.view is not None and c.view.actor == seat
            await close_all([*clients, watcher])

    run(main())


def test_a_rejoin_gets_the_updates_it_missed(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            clients = await seated_room(server, "tactics", {"players": 2}, humans=2, seed=3)
            room = server.rooms[clients[0].code or ""]
            actor = min(room.state.awaiting())
            a, b = clients[actor], clients[1 - actor]
            await b.wait(lambda c: c.view is not None and c.view.state_id == room.state_id)
            assert b.view is not None
            since, token = b.view.state_id, b.token or ""
            await b.close()
            await a.wait(lambda c: c.room is not None and not c.room.seats[b.seat or 0].connected)
            played = 0
            while played < 3 and actor in room.state.awaiting():
                sid = room.state_id
                await a.wait(lambda c, n=sid: c.view is not None and c.view.state_id == n)
                legal = await a.legal(a.view)  # type: ignore[arg-type]
                await a.act(legal[0])
                await until(lambda n=sid: room.state_id == n + 1)
                played += 1
            assert played and room.state_id == since + played
            b2 = await connect(server, "b again")
            await b2.rejoin(token, since=since)
            (missed,) = b2.missed
            assert missed.first == since + 1 and missed.state_id == room.state_id
            assert [u.state_id for u in missed.updates] == list(range(since + 1, room.state_id + 1))
            assert {u.actor for u in missed.updates} == {actor}
            assert all(json.loads(bytes(u.events)) for u in missed.updates)
            await close_all([a, b2])

    run(main())


def test_a_failed_commit_loses_the_room_and_nobody_hears_of_the_action(tmp_path: Path) -> None:
    """The store commits a turn's writes before any message leaves (`Outbox`): when that
    commit fails, the room goes (its clients are closed with 1012 to rejoin) and no client
    saw the action it lost; rejoined, the room is as the store has it."""
    from suite.net.backends.sqlite import SqliteStore

    from .test_net_store_contract import CommitFails

    async def main() -> None:
        async with serving(tmp_path) as server:
            a, b = await seated_room(server, "worldwar", {"players": 2}, humans=2)
            await a.wait(lambda c: c.view is not None)
            await b.wait(lambda c: c.view is not None)
            mover = a if a.view is not None and a.seat in a.view.awaiting else b
            assert mover.view is not None
            before = mover.view.state_id
            assert mover.code is not None
            room = server.rooms[mover.code]
            store = server.store
            assert isinstance(store, SqliteStore)
            real = store.db
            store.db = CommitFails(real)  # type: ignore[assignment]
            legal = await mover.legal(mover.view)
            assert isinstance(legal, Sequence)
            await mover.send(P.Act(token=mover._token(), state_id=before, action=encode(legal[0])))
            await until(lambda: a.closed and b.closed)
            assert a.ws.close_code == b.ws.close_code == P.CLOSE_MOVED
            for c in (a, b):
                assert c.view is not None and c.view.state_id == before
            store.db = real
            assert server.rooms.get(mover.code) is not room  # let go (maybe rebuilt since)
            again = await connect(server, "again")
            await again.rejoin(mover.token or "")
            await again.wait(lambda c: c.view is not None)
            assert again.view is not None and again.view.state_id == before
            await again.close()

    run(main())
