"""Hosting: bots seated by the host play on the server; kick, pause, end; persistence."""

from __future__ import annotations

import asyncio
from pathlib import Path

from suite.core.match import game_spec
from suite.net import protocol as P
from suite.net.client.client import ServerError, play_bot

from .helpers import close_all, connect, run, seated_room, serving, until


def test_host_bots_play_on_the_server(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            (host,) = await seated_room(
                server, "worldwar", {"players": 3}, humans=1, bots={1: "hard", 2: "easy"}
            )
            assert host.room is not None
            assert [s.kind for s in host.room.seats] == ["human", "bot", "bot"]
            await play_bot(host, game_spec("worldwar").bots["hard"]())
            room = server.rooms[host.code or ""]
            assert room.phase == "over" and host.game_over is not None
            await host.close()

    run(main())


def test_kick_pause_resume_end(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            host, guest = await seated_room(server, "tactics", {"players": 2}, humans=2)
            room = server.rooms[host.code or ""]
            # only the host hosts
            await guest.send(P.Pause(token=guest.token or ""))
            await guest.wait(lambda c: bool(c.errors))
            assert guest.errors[-1].code == "not_host"
            await host.send(P.Pause(token=host.token or ""))
            await guest.wait(lambda c: c.room is not None and c.room.phase == "paused")
            actor = [host, guest][min(room.state.awaiting())]
            await actor.act({"kind": "end_turn"})
            await actor.wait(lambda c: any(e.code == "paused" for e in c.errors))
            await host.send(P.Resume(token=host.token or ""))
            await guest.wait(lambda c: c.room is not None and c.room.phase == "playing")
            # kick: the guest's token stops working, the seat opens, a bot may take it
            token = guest.token or ""
            await host.send(P.Kick(token=host.token or "", seat=1))
            await guest.wait(lambda c: any(e.code == "kicked" for e in c.errors))
            await host.wait(lambda c: c.room is not None and c.room.seats[1].kind == "open")
            again = await connect(server, "again")
            try:
                await again.rejoin(token)
            except ServerError as exc:
                assert exc.error.code == "bad_token"
            else:
                raise AssertionError("a kicked token rejoined")
            await again.join(host.code or "", 1)
            assert again.seat == 1
            await host.send(P.End(token=host.token or ""))
            await again.wait(lambda c: c.game_over is not None)
            assert again.game_over is not None
            assert again.game_over.outcome is None and "host" in again.game_over.reason
            assert room.phase == "over"
            assert not await server.store.unfinished_codes()
            await close_all([host, guest, again])

    run(main())


def test_restart_in_process_keeps_every_action(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            a, b = await seated_room(server, "worldwar", {"players": 2}, humans=2, seed=4)
            room = server.rooms[a.code or ""]
            easy = game_spec("worldwar").bots["easy"]
            players = [asyncio.ensure_future(play_bot(c, easy())) for c in (a, b)]
            await until(lambda: room.state_id >= 25)
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            code, tokens = room.code, (a.token, b.token)
            await close_all([a, b])
            sid = room.state_id
            snapshot = room.state.to_dict()
        async with serving(tmp_path) as server:
            rebuilt = server.rooms[code]
            assert rebuilt.state_id == sid and rebuilt.state.to_dict() == snapshot
            a2, b2 = await connect(server, "a"), await connect(server, "b")
            await a2.rejoin(tokens[0] or "")
            await b2.rejoin(tokens[1] or "")
            assert a2.view is not None and a2.view.state_id == sid
            await asyncio.gather(play_bot(a2, easy()), play_bot(b2, easy()))
            assert rebuilt.phase == "over"
            await close_all([a2, b2])

    run(main())


def test_an_empty_lobby_is_closed_and_forgotten(tmp_path: Path) -> None:
    from suite.net.server.clock import ManualClock

    from .fakes import FakeConn, make_server

    clock = ManualClock()
    server = make_server(tmp_path, clock, keep_over=60.0, max_rooms=1)
    host = FakeConn(server, "h")
    host.say(P.Hello(name="h"))
    host.say(P.Create(game="tactics", config={"players": 2}))
    room = server.rooms[host.last(P.Room).code]
    room.disconnected(host)  # the host's connection dropped
    server.tick()
    clock.advance(61)
    server.tick()
    assert room.phase == "over" and asyncio.run(server.store.unfinished_codes()) == []
    clock.advance(61)
    server.tick()
    assert room.code not in server.rooms  # room for a new one (max_rooms is 1)
    other = FakeConn(server, "o")
    other.say(P.Hello(name="o"))
    other.say(P.Create(game="tactics", config={"players": 2}))
    assert not other.errors()


def test_a_searching_bot_thinks_in_a_worker_and_the_server_answers_meanwhile(
    tmp_path: Path,
) -> None:
    """The expert's decisions are made in the bot workers (`bot_workers`), never on the
    event loop: while it thinks, the host still gets answers."""

    async def main() -> None:
        async with serving(tmp_path) as server:
            config = {"players": 2, "map": "random:12:3"}
            (host,) = await seated_room(server, "worldwar", config, humans=1, bots={1: "expert"})
            room = server.rooms[host.code or ""]
            watcher = await connect(server, "watcher")
            answered_while_thinking = 0

            async def probe() -> None:
                nonlocal answered_while_thinking
                while room.phase == "playing":
                    if room.code in server.bots._pending and server.bots._pool is not None:
                        await watcher.list_rooms()
                        answered_while_thinking += 1
                    await asyncio.sleep(0.05)

            prober = asyncio.ensure_future(probe())
            await play_bot(host, game_spec("worldwar").bots["hard"]())
            await prober
            assert room.phase == "over" and host.game_over is not None
            assert server.bots._pool is not None and answered_while_thinking > 0
            await close_all([host, watcher])

    run(main())
