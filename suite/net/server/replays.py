"""A finished match's replay, as the server gives it: whole (`replay_request` /
`replay_chunk`, for clients with the game's rules) or step by step (`replay_step` /
`replay_view`, `ReplaySteps`: for clients without them, the browser; any game).

The room's stored log is the match: once it is over, its game, config, seed and the
seats' actions in order make a `suite.core.match.Replay` that any client plays back with
its own replay screens. The seed is told only then (while a match runs it would reveal
what is hidden). A log in which the WoK turn clock ran a turn (`run_now`) cannot be
rebuilt from actions alone, so its replay is refused with that reason. The document is
sent in base64 chunks (`CHUNK` bytes of JSON each) to stay under the message size limit.
"""

from __future__ import annotations

import asyncio
import base64
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import msgspec

from suite.core.match import Event, Replay, ReplayStep, State, game_spec, load_state, new_game
from suite.net import protocol as P
from suite.net.backends.store import MatchStore, RoomRow
from suite.net.server.configs import MapBook
from suite.net.server.errors import Refused
from suite.net.server.turns import ActOp, Op, PokeOp, RunNowOp, apply_op, decode_op

KEEP = 16
"""Replay documents kept encoded, so the chunks of one do not re-read its log."""


def replay_of(row: RoomRow) -> Replay:
    """The replay of the finished room `row` (Refused when there is none to give)."""
    if row.phase != "over":
        raise Refused("not_over", "a match's replay is given once the match is over")
    replay = Replay(row.game, dict(row.config), row.seed)
    for entry in row.log:
        op = decode_op(entry)
        if isinstance(op, RunNowOp):
            raise Refused(
                "no_replay", "the turn clock ran a turn of this match: no replay of actions"
            )
        if isinstance(op, ActOp):
            replay.actions.append(ReplayStep(op.seat, op.action))
    return replay


class Replays:
    """Answers `replay_request`s from the store (finished rooms stay stored)."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store
        self._docs: OrderedDict[str, bytes] = OrderedDict()

    async def answer(self, code: str, offset: int) -> P.ReplayChunk:
        """The chunk at `offset` of room `code`'s replay; Refused (`no_room`, `not_over`,
        `no_replay`, `bad_offset`) when there is none."""
        doc = await self._document(code)
        if not 0 <= offset <= len(doc):
            raise Refused("bad_offset", f"the replay has {len(doc)} bytes")
        data = doc[offset : offset + P.CHUNK]
        return P.ReplayChunk(
            code=code,
            offset=offset,
            size=len(doc),
            data=base64.b64encode(data).decode("ascii"),
            eof=offset + len(data) >= len(doc),
        )

    async def _document(self, code: str) -> bytes:
        doc = self._docs.get(code)
        if doc is None:
            row = await self.store.load(code)
            if row is None:
                raise Refused("no_room", f"there is no room {code}")
            doc = msgspec.json.encode(replay_of(row))
            self._docs[code] = doc
            while len(self._docs) > KEEP:
                self._docs.popitem(last=False)
        self._docs.move_to_end(code)
        return doc


SNAPSHOT_EVERY = 32
"""Ops between two kept snapshots of a stepped replay: any step costs at most this many
ops from the nearest snapshot (one, stepping forward)."""
KEEP_STEPPED = 8
"""Finished matches kept ready for stepping (their snapshots), least recently used out."""
_json = msgspec.json.Encoder()


@dataclass
class _Stepped:
    """One finished match ready for stepping: its ops, snapshots of the state every
    `SNAPSHOT_EVERY` ops (`to_dict` JSON), the state at the last step asked (`cursor`)."""

    code: str
    game: str
    names: tuple[str, ...]
    ops: list[Op]
    snapshots: list[bytes]
    initial: State
    cursor: tuple[int, State] | None = None


class ReplaySteps:
    """Answers `replay_step`s: any game's finished match, step by step, from the store.

    A match is rebuilt once (its log replayed, as a restarted server rebuilds a room) in a
    worker thread, one at a time, and kept (`KEEP_STEPPED`) with snapshots, so a step
    costs at most `SNAPSHOT_EVERY` ops. Only the spectator's view, the events and the
    actions every seat may see are told: nothing a spectator of the live match did not
    see (the seed stays unsaid)."""

    def __init__(self, store: MatchStore, maps: MapBook) -> None:
        self.store, self.maps = store, maps
        self._kept: OrderedDict[str, _Stepped] = OrderedDict()
        self._lock = asyncio.Lock()

    async def answer(self, code: str, step: int) -> P.ReplayView:
        """Step `step` of room `code`; Refused (`no_room`, `not_over`, `bad_step`)."""
        async with self._lock:
            match = await self._match(code)
            if not 0 <= step <= len(match.ops):
                raise Refused("bad_step", f"the replay has steps 0 to {len(match.ops)}")
            return await asyncio.to_thread(_view_at, match, step)

    async def initial(self, code: str) -> State:
        """The state finished room `code`'s match began with (its board, for one)."""
        async with self._lock:
            return (await self._match(code)).initial

    async def _match(self, code: str) -> _Stepped:
        match = self._kept.get(code)
        if match is None:
            row = await self.store.load(code)
            if row is None:
                raise Refused("no_room", f"there is no room {code[:16]!r}")
            if row.phase != "over":
                raise Refused("not_over", "a match's replay is given once the match is over")
            match = await asyncio.to_thread(_rebuild, row, self.maps)
            self._kept[code] = match
            while len(self._kept) > KEEP_STEPPED:
                self._kept.popitem(last=False)
        self._kept.move_to_end(code)
        return match


def _snapshot(state: State) -> bytes:
    return _json.encode(state.to_dict())


def _rebuild(row: RoomRow, maps: MapBook) -> _Stepped:
    """The stored finished room `row` replayed once, keeping its snapshots."""
    config = maps.engine_config(row.game, row.config)
    state = new_game(row.game, config, row.seed)
    initial = new_game(row.game, config, row.seed)
    ops = [decode_op(entry) for entry in row.log]
    snapshots = [_snapshot(state)]
    for done, op in enumerate(ops, start=1):
        apply_op(state, op)
        if done % SNAPSHOT_EVERY == 0:
            snapshots.append(_snapshot(state))
    names = [""] * len(row.seats)
    for seat in row.seats:
        if 0 <= seat.seat < len(names):
            names[seat.seat] = seat.name
    return _Stepped(row.code, row.game, tuple(names), ops, snapshots, initial)


def _state_at(match: _Stepped, step: int) -> State:
    """The state after `step` ops (from the cursor when it is there, else a snapshot)."""
    cursor = match.cursor
    if cursor is not None and cursor[0] == step:
        return cursor[1]
    match.cursor = None  # moved on below: not the state of its step meanwhile
    if cursor is not None and cursor[0] < step and step - cursor[0] <= SNAPSHOT_EVERY:
        at, state = cursor
    else:
        at = step // SNAPSHOT_EVERY * SNAPSHOT_EVERY
        state = load_state(msgspec.json.decode(match.snapshots[at // SNAPSHOT_EVERY]))
    for op in match.ops[at:step]:
        apply_op(state, op)
    return state


def _view_at(match: _Stepped, step: int) -> P.ReplayView:
    """The answer for `step` (the cursor moves there)."""
    events: list[Event] = []
    actor: int | None = None
    action = P.NULL
    if step == 0:
        state = _state_at(match, 0)
    else:
        state = _state_at(match, step - 1)
        op = match.ops[step - 1]
        events = apply_op(state, op)
        if isinstance(op, ActOp | PokeOp):
            actor = op.seat
        public = game_spec(match.game).public_actions
        if isinstance(op, ActOp) and (public is None or op.action.get("kind") in public):
            action = msgspec.Raw(_json.encode(op.action))
    match.cursor = (step, state)
    outcome = state.outcome()
    answer = P.ReplayView(
        code=match.code,
        game=match.game,
        step=step,
        steps=len(match.ops),
        names=match.names,
        view=msgspec.Raw(_json.encode(state.view(None))),
        awaiting=tuple(sorted(state.awaiting())) if outcome is None else (),
        events=msgspec.Raw(_json.encode(events)),
        actor=actor,
        action=action,
        outcome=None if outcome is None else _builtins(outcome),
    )
    if len(P.encode(answer)) > P.MAX_MESSAGE:  # a step's events too many to tell
        answer = msgspec.structs.replace(answer, events=msgspec.Raw(b"[]"))
    if len(P.encode(answer)) > P.MAX_MESSAGE:
        raise Refused("too_large", "that step's view is too large to send")
    return answer


def _builtins(record: Any) -> dict[str, Any]:
    out = msgspec.to_builtins(record, str_keys=True)
    assert isinstance(out, dict)
    return out
