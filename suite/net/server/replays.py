"""A finished match's replay, as the server gives it: whole (`replay_request` /
`replay_chunk`) or step by step as a spectator sees it (`replay_step_request` /
`replay_step`, `Stepper`).

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
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from suite.core.match import Replay, ReplayStep, State, decode_action, new_game
from suite.net import protocol as P
from suite.net.backends.store import MatchStore, RoomRow
from suite.net.server.errors import Refused
from suite.net.server.turns import ActOp, RunNowOp, decode_op

KEEP = 16
"""Replay documents kept encoded, so the chunks of one do not re-read its log."""
STATES_KEPT = 8
"""Matches whose last stepped state is kept, so stepping on does not replay from the start."""


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


class Stepper:
    """Answers `replay_step_request`s: the spectator's view of a finished match after its
    first `step` actions, of any game. The state last stepped to is kept per match
    (`STATES_KEPT`), so stepping forward applies one action; stepping back replays from
    the start. The work runs off the event loop (one step at a time)."""

    def __init__(
        self,
        store: MatchStore,
        engine_config: Callable[[str, Mapping[str, Any]], dict[str, Any]] = lambda g, c: dict(c),
    ) -> None:
        self.store = store
        self.engine_config = engine_config
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._states: OrderedDict[str, tuple[int, State]] = OrderedDict()
        self._lock = threading.Lock()

    async def answer(self, code: str, step: int) -> P.ReplayStep:
        """The view after `step` actions of room `code`'s match; Refused (`no_room`,
        `not_over`, `no_replay`, `bad_step`) when there is none."""
        replay = self._replays.get(code)
        if replay is None:
            row = await self.store.load(code)
            if row is None:
                raise Refused("no_room", f"there is no room {code}")
            replay = replay_of(row)
            self._replays[code] = replay
            while len(self._replays) > KEEP:
                self._replays.popitem(last=False)
        if not 0 <= step <= len(replay.actions):
            raise Refused("bad_step", f"the match has steps 0 to {len(replay.actions)}")
        return await asyncio.to_thread(self._step, code, replay, step)

    def _step(self, code: str, replay: Replay, step: int) -> P.ReplayStep:
        with self._lock:
            kept = self._states.pop(code, None)
            if kept is None or kept[0] > step:
                config = self.engine_config(replay.game, replay.config)
                kept = (0, new_game(replay.game, config, replay.seed))
            at, state = kept
            events: list[Any] = []
            while at < step:
                move = replay.actions[at]
                events = state.apply(move.seat, decode_action(replay.game, move.action))
                at += 1
            self._states[code] = (at, state)
            while len(self._states) > STATES_KEPT:
                self._states.popitem(last=False)
            actor = replay.actions[step - 1].seat if step > 0 else None
            return P.ReplayStep(
                code=code,
                game=replay.game,
                step=step,
                steps=len(replay.actions),
                view=msgspec.Raw(msgspec.json.encode(state.view(None))),
                events=msgspec.Raw(msgspec.json.encode(P.to_json(events))),
                actor=actor,
            )
