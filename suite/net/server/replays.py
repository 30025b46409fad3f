"""A finished match's replay, as the server gives it (`replay_request` / `replay_chunk`).

The room's stored log is the match: once it is over, its game, config, seed and the
seats' actions in order make a `suite.core.match.Replay` that any client plays back with
its own replay screens. The seed is told only then (while a match runs it would reveal
what is hidden). A log in which the WoK turn clock ran a turn (`run_now`) cannot be
rebuilt from actions alone, so its replay is refused with that reason. The document is
sent in base64 chunks (`CHUNK` bytes of JSON each) to stay under the message size limit.
"""

from __future__ import annotations

import base64
from collections import OrderedDict

import msgspec

from suite.core.match import Replay, ReplayStep
from suite.net import protocol as P
from suite.net.backends.store import MatchStore, RoomRow
from suite.net.server.errors import Refused
from suite.net.server.turns import ActOp, RunNowOp, decode_op

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
