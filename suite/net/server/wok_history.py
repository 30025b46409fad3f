"""A WoK room's past turn reports, on request (`wok_history` / `wok_history_turn`).

The WoK engine keeps only each colour's latest turn report, so a page that opens at turn 5
cannot show turns 0-4 from its views. The server answers for any past turn from the
stored match: the room's log is replayed (as a restarted server rebuilds a room) in a
worker thread, and at the end of every turn that ran the replay keeps a `_Frame`: for
each seat, the `reports` its own view held then (`state.view(seat).reports`, so a seat's
history never holds what its view did not), and the public figures every view held (the
Top Ten, provinces per colour). A spectator gets the public part only.

Costs are bounded before they are paid: the turn asked must be one that ran (checked
against the live state first, `bad_turn`); a connection has one question in flight at a
time (`busy`); replays run one at a time; a room's replay goes on from where it stopped
(each op is replayed once per kept room) and `KEEP_ROOMS` rooms are kept, least recently
asked out, their frames' reports zlib-compressed; the charts' series cover at most the
last `SERIES` turns; an answer over the message size limit is refused (`too_large`).
"""

from __future__ import annotations

import asyncio
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import msgspec

from suite.core.match import State, new_game
from suite.net import protocol as P
from suite.net.backends.store import MatchStore, RoomRow
from suite.net.server.configs import MapBook
from suite.net.server.errors import Refused
from suite.net.server.turns import apply_op, decode_op

KEEP_ROOMS = 8
"""Rooms whose replay (state and frames) is kept, least recently asked out."""
SERIES = 100
"""Turns of the charts' series an answer carries at most (those up to the turn asked)."""
_json = msgspec.json.Encoder()


@dataclass(frozen=True)
class _Frame:
    """The end of one turn: each seat's reports (zlib JSON), the public figures."""

    turn: int
    reports: dict[int, bytes]
    top_ten: bytes
    provinces: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass
class _Match:
    """One room's replay so far: the state after `done` ops and the frames it made."""

    state: State
    done: int = 0
    frames: dict[int, _Frame] = field(default_factory=dict)


def report_turn(state: State) -> int:
    """The turn of the newest reports a WoK state holds (-1 when none: not WoK)."""
    reports: Any = getattr(state, "reports", None)
    if not reports:
        return -1
    return int(next(iter(reports.values()))["turn"])


def _frame(state: State) -> _Frame:
    """What every view of `state` held of its newest turn report."""
    wok: Any = state
    public: Any = state.view(None)
    reports = {
        seat: zlib.compress(_json.encode(getattr(state.view(seat), "reports", ())))
        for seat in range(len(wok.seat_colours))
    }
    scores = {t.colour: t.score for t in public.top_ten}
    return _Frame(
        turn=report_turn(state),
        reports=reports,
        top_ten=_json.encode(public.top_ten),
        provinces=tuple(p.provinces for p in public.players),
        scores=tuple(scores.get(p.colour, 0) for p in public.players),
    )


def _start(row: RoomRow, maps: MapBook) -> _Match:
    config = maps.engine_config(row.game, row.config)
    state = new_game(row.game, config, row.seed)
    return _Match(state, 0, {0: _frame(state)})


def _catch_up(match: _Match, log: list[dict[str, Any]]) -> None:
    """Replay the ops of `log` past those done, keeping a frame at each turn's end."""
    for entry in log[match.done :]:
        apply_op(match.state, decode_op(entry))
        match.done += 1
        turn = report_turn(match.state)
        if turn not in match.frames:
            match.frames[turn] = _frame(match.state)


class WokHistory:
    """Answers `wok_history` for the WoK rooms this process runs (see the module)."""

    def __init__(self, store: MatchStore, maps: MapBook) -> None:
        self.store, self.maps = store, maps
        self._kept: OrderedDict[str, _Match] = OrderedDict()
        self._lock = asyncio.Lock()
        self._asking: set[int] = set()

    async def answer(
        self, asker: object, code: str, seat: int | None, turn: int, newest: int
    ) -> P.WokHistoryTurn:
        """Turn `turn`'s report as `seat` (None: a spectator) saw it in room `code`, whose
        live state's newest report is of turn `newest`. Refused `bad_turn` (not a turn
        that ran), `busy` (`asker` already waits for an answer), `no_room`, `too_large`."""
        if not 0 <= turn <= newest:
            raise Refused("bad_turn", f"turns 0 to {newest} have reports; not turn {turn}")
        if id(asker) in self._asking:
            raise Refused("busy", "one turn of the history at a time: wait for the answer")
        self._asking.add(id(asker))
        try:
            async with self._lock:
                match = await self._caught_up(code, turn)
                return _answer(code, match.frames[turn], seat, newest, match.frames)
        finally:
            self._asking.discard(id(asker))

    def forget(self, code: str) -> None:
        """Drop room `code`'s kept replay (the room is gone)."""
        self._kept.pop(code, None)

    async def _caught_up(self, code: str, turn: int) -> _Match:
        """Room `code`'s replay, gone on at least to the end of turn `turn`."""
        match = self._kept.get(code)
        if match is None or turn not in match.frames:
            row = await self.store.load(code)
            if row is None:
                raise Refused("no_room", f"there is no room {code[:16]!r}")
            if row.game != "wok":
                raise Refused("not_wok", f"room {code} plays {row.game}, not WoK")
            if match is None:
                match = await asyncio.to_thread(_start, row, self.maps)
                self._kept[code] = match
                while len(self._kept) > KEEP_ROOMS:
                    self._kept.popitem(last=False)
            await asyncio.to_thread(_catch_up, match, row.log)
        if code in self._kept:
            self._kept.move_to_end(code)
        if turn not in match.frames:
            raise Refused("bad_turn", f"turn {turn} has not run yet")
        return match


def _answer(
    code: str, frame: _Frame, seat: int | None, newest: int, frames: dict[int, _Frame]
) -> P.WokHistoryTurn:
    kept = None if seat is None else frame.reports.get(seat)
    reports = b"[]" if kept is None else zlib.decompress(kept)
    series = [frame]
    while len(series) < SERIES and series[-1].turn - 1 in frames:
        series.append(frames[series[-1].turn - 1])
    series.reverse()
    answer = P.WokHistoryTurn(
        code=code,
        turn=frame.turn,
        newest=newest,
        seat=seat,
        reports=msgspec.Raw(reports),
        top_ten=msgspec.Raw(frame.top_ten),
        series_from=series[0].turn,
        provinces=tuple(f.provinces for f in series),
        scores=tuple(f.scores for f in series),
    )
    if len(P.encode(answer)) > P.MAX_MESSAGE:
        raise Refused("too_large", f"turn {frame.turn}'s report is too large to send")
    return answer
