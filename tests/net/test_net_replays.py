"""A finished match's replay from the server's log (`replay_request` / `replay_chunk`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec
import pytest

from suite.core.match import Replay
from suite.net import protocol as P
from suite.net.backends.store import RoomRow
from suite.net.client.client import ServerError, fetch_replay, play_bot
from suite.net.server import replays
from suite.net.server.errors import Refused

from .helpers import close_all, connect, run, seated_room, serving


def test_the_replay_of_a_finished_match_rebuilds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(P, "CHUNK", 1024)  # many chunks, as a long match has

    async def main() -> None:
        async with serving(tmp_path) as server:
            config = {"players": 2, "cards": "none", "auto_place": True, "max_turns": 3}
            clients = await seated_room(server, "worldwar", config, humans=1, bots={1: "easy"})
            (host,) = clients
            assert host.code is not None
            with pytest.raises(ServerError, match="not_over"):  # the seed is still secret
                await fetch_replay(host, host.code)
            await play_bot(host)
            room = server.rooms[host.code]
            assert room.state.outcome() is not None
            watcher = await connect(server, "watcher")  # anyone with the code
            replay = await fetch_replay(watcher, host.code.lower())
            assert isinstance(replay, Replay) and replay.seed == room.seed
            assert len(replay.actions) == room.state_id
            assert len(msgspec_json(replay)) > 3 * 1024
            assert replay.play().to_dict() == room.state.to_dict()
            del server.rooms[host.code]  # forgotten after a while: the store still has it
            again = await fetch_replay(watcher, host.code)
            assert again == replay
            with pytest.raises(ServerError, match="no_room"):
                await fetch_replay(watcher, "ZZZZZZ")
            await close_all([host, watcher])

    run(main())


def msgspec_json(replay: Replay) -> bytes:
    return msgspec.json.encode(replay)


def test_a_log_where_the_turn_clock_ran_a_turn_has_no_replay() -> None:
    row = RoomRow(
        code="ABCDEF",
        game="wok",
        config={"players": 2},
        seed=1,
        created=0.0,
        phase="over",
        pack=None,
        seats=[],
        log=[{"op": "clock_start", "now": 1.0}, {"op": "run_now", "now": 9.0}],
    )
    with pytest.raises(Refused, match="turn clock ran a turn") as refused:
        replays.replay_of(row)
    assert refused.value.code == "no_replay"
    acted = msgspec.structs.replace(row, log=[{"op": "act", "seat": 1, "action": {"kind": "x"}}])
    assert replays.replay_of(acted).actions[0].seat == 1
    with pytest.raises(Refused, match="once the match is over"):
        replays.replay_of(msgspec.structs.replace(acted, phase="playing"))


def test_a_bad_offset_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            clients = await seated_room(
                server, "tactics", {"players": 2, "max_turns": 1}, humans=1, bots={1: "random"}
            )
            (host,) = clients
            assert host.code is not None
            await asyncio.wait_for(play_bot(host), 60)
            before = server.rooms[host.code].state_id
            await host.send(P.ReplayRequest(code=host.code, offset=10**9))
            await host.wait(lambda c: bool(c.errors) and c.errors[-1].code == "bad_offset")
            assert server.rooms[host.code].state_id == before
            replay = await fetch_replay(host, host.code)
            assert replay.play().outcome() == server.rooms[host.code].state.outcome()
            await close_all(clients)

    run(main())


def test_a_finished_match_steps_as_a_spectator_saw_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`replay_step`: any step, forward or back, is the spectator's view of that state,
    with that step's events; the board of a forgotten room still comes (from its store)."""
    monkeypatch.setattr(replays, "SNAPSHOT_EVERY", 4)  # steps from snapshots and the cursor

    async def main() -> None:
        async with serving(tmp_path) as server:
            config = {"players": 2, "cards": "none", "auto_place": True, "max_turns": 2}
            clients = await seated_room(server, "worldwar", config, humans=1, bots={1: "easy"})
            (host,) = clients
            assert host.code is not None
            code = host.code
            watcher = await connect(server, "watcher")
            views: list[P.ReplayView] = []
            watcher.listeners.append(
                lambda m: views.append(m) if isinstance(m, P.ReplayView) else None
            )

            async def step(n: int) -> P.ReplayView:
                seen, errors = len(views), len(watcher.errors)
                await watcher.send(P.ReplayStepRequest(code=code, step=n))
                await watcher.wait(lambda c: len(views) > seen or len(c.errors) > errors)
                if len(views) == seen:
                    raise ServerError(watcher.errors[errors])
                return views[-1]

            with pytest.raises(ServerError, match="not_over"):
                await step(0)
            await play_bot(host)
            room = server.rooms[code]
            replay = await fetch_replay(watcher, code)
            steps = room.state_id
            first = await step(0)
            assert (first.steps, first.game, first.names) == (
                steps,
                "worldwar",
                ("host", "easy bot"),
            )
            assert msgspec.json.decode(first.events) == []
            for n in (1, 2, 3, 9, 5, steps, steps - 1, 0, 6):
                answer = await step(n)
                expected = replay.play(n)
                assert bytes(answer.view) == msgspec.json.encode(expected.view(None))
                assert answer.actor == (None if n == 0 else replay.actions[n - 1].seat)
                if n:
                    before = replay.play(n - 1)
                    made = before.apply(replay.actions[n - 1].seat, _action(replay, n - 1))
                    assert bytes(answer.events) == msgspec.json.encode(made)
            last = await step(steps)
            assert last.outcome is not None and last.awaiting == ()
            with pytest.raises(ServerError, match="bad_step"):
                await step(steps + 1)
            code = "ZZZZZZ"
            with pytest.raises(ServerError, match="no_room"):
                await step(0)
            code = host.code
            del server.rooms[code]  # forgotten: the board comes from the stored match
            server._boards.clear()
            pages: list[P.Board] = []
            watcher.listeners.append(lambda m: pages.append(m) if isinstance(m, P.Board) else None)
            await watcher.send(P.BoardRequest(code=code, page=0))
            await watcher.wait(lambda c: bool(pages))
            assert pages[0].name == room.state.board.name  # type: ignore[attr-defined]
            assert pages[0].territories[0].id == room.state.board.ids()[0]  # type: ignore[attr-defined]
            await close_all([host, watcher])

    run(main())


def _action(replay: Replay, i: int) -> object:
    from suite.core.match import decode_action

    return decode_action(replay.game, replay.actions[i].action)
