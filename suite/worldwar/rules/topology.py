"""A Board turned into integer-indexed lookup tables for the engine and the bots.

Territory i is `ids[i]` (board order); `adj[i]` lists its neighbours by land and sea
lane (sorted indices); continent c is `continents[c]` with `members[c]` and `bonus[c]`.
"""

from __future__ import annotations

from dataclasses import dataclass

from suite.core.board import Board


@dataclass(frozen=True, eq=False)
class Topology:
    """Immutable integer tables of one board (safe to share between states)."""

    board: Board
    ids: tuple[str, ...]
    index: dict[str, int]
    names: tuple[str, ...]
    adj: tuple[tuple[int, ...], ...]
    continents: tuple[str, ...]
    continent_names: tuple[str, ...]
    continent_of: tuple[int, ...]
    members: tuple[tuple[int, ...], ...]
    bonus: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.ids)


_CACHE: dict[int, Topology] = {}


def topology(board: Board) -> Topology:
    """The tables of `board` (built once per Board object)."""
    cached = _CACHE.get(id(board))
    if cached is not None and cached.board is board:
        return cached
    ids = tuple(board.ids())
    index = {t: i for i, t in enumerate(ids)}
    continents = tuple(board.regions)
    cindex = {c: i for i, c in enumerate(continents)}
    topo = Topology(
        board=board,
        ids=ids,
        index=index,
        names=tuple(board[t].name for t in ids),
        adj=tuple(tuple(sorted(index[n] for n in board.neighbours(t))) for t in ids),
        continents=continents,
        continent_names=tuple(board.regions[c].name for c in continents),
        continent_of=tuple(cindex[board[t].region] for t in ids),
        members=tuple(tuple(index[t] for t in board.members(c)) for c in continents),
        bonus=tuple(board.regions[c].bonus for c in continents),
    )
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(board)] = topo
    return topo
