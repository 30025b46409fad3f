"""`ActionList`: the legal actions of one seat, listed lazily.

Placing and moving armies offer one action per (territory, count), which can be
thousands; an `ActionList` stores them as blocks and builds an action only when it is
indexed. It is a real `Sequence` (len, indexing, iteration) and also answers `contains`
(through the check it is given) and `sample` (uniformly). `seat_legal.ViewActions` fills
one from a seat's view.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from suite.core.action_json import ActionPieces
from suite.core.match import Action
from suite.core.rng import Rng


@dataclass(frozen=True, slots=True)
class CountBlock:
    """Actions `make(key, n)` for each key and n in 1..counts[i]."""

    keys: Sequence[Any]
    counts: Sequence[int]
    make: Callable[[Any, int], Action]
    kind: str


class ActionList(Sequence[Action]):
    """A lazily built list of legal actions (see the module docstring)."""

    __slots__ = ("_blocks", "_ends", "_check")

    def __init__(self, check: Callable[[Action], bool] | None = None) -> None:
        """`check(action)` answers `contains` (a subclass may override `contains`
        instead); a subclass may fill itself on first use (`_ready`)."""
        self._blocks: list[tuple[str, Sequence[Action] | CountBlock, list[int]]] = []
        self._ends: list[int] = []
        self._check = check

    def _ready(self) -> None:
        """Fill the list before its first read (nothing to do for a list filled at once)."""

    def add(self, kind: str, actions: Sequence[Action]) -> None:
        """Append explicit actions of one kind."""
        if actions:
            self._push(kind, actions, [])

    def add_counts(self, block: CountBlock) -> None:
        """Append a (key, count) grid of actions."""
        cum: list[int] = []
        total = 0
        for c in block.counts:
            total += c
            cum.append(total)
        if total:
            self._push(block.kind, block, cum)

    def _push(self, kind: str, body: Sequence[Action] | CountBlock, cum: list[int]) -> None:
        size = cum[-1] if cum else len(body)  # type: ignore[arg-type]
        start = self._ends[-1] if self._ends else 0
        self._blocks.append((kind, body, cum))
        self._ends.append(start + size)

    def __len__(self) -> int:
        self._ready()
        return self._ends[-1] if self._ends else 0

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        self._ready()
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("action index out of range")
        b = bisect.bisect_right(self._ends, i)
        _kind, body, cum = self._blocks[b]
        j = i - (self._ends[b - 1] if b else 0)
        if isinstance(body, CountBlock):
            k = bisect.bisect_right(cum, j)
            before = cum[k - 1] if k else 0
            return body.make(body.keys[k], j - before + 1)
        return body[j]

    def __iter__(self) -> Iterator[Action]:
        """The actions in listing order, block by block (no search per action)."""
        self._ready()
        for _kind, body, _cum in self._blocks:
            if isinstance(body, CountBlock):
                make = body.make
                for key, count in zip(body.keys, body.counts, strict=True):
                    for n in range(1, count + 1):
                        yield make(key, n)
            else:
                yield from body

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self.contains(action)

    def contains(self, action: Action) -> bool:
        """True when `action` is legal now (the state's own check)."""
        check = self._check
        return check is not None and check(action)

    def sample(self, rng: Rng) -> Action:
        """A uniformly drawn legal action."""
        return self[rng.randbelow(len(self))]

    def kinds(self) -> list[str]:
        """The action kinds on offer, in listing order, without repeats."""
        self._ready()
        seen: list[str] = []
        for kind, _body, _cum in self._blocks:
            if kind not in seen:
                seen.append(kind)
        return seen

    def json(self, pieces: ActionPieces, start: int = 0, stop: int | None = None) -> bytes:
        """Actions `start` to `stop` (the end: None) as a JSON array, exactly
        `pieces.encode(list(self)[start:stop])` for 0 <= start: a counted block's actions
        are joined from the pieces' row of (make, key), so an action met in an earlier
        list is neither built nor encoded again."""
        self._ready()
        total = self._ends[-1] if self._ends else 0
        end = total if stop is None else min(stop, total)
        encode = pieces.encode
        rows = pieces.rows
        parts: list[bytes] = []
        first = 0
        for b, (_kind, body, _cum) in enumerate(self._blocks):
            after = self._ends[b]
            if first < end and start < after:
                if isinstance(body, CountBlock):
                    make = body.make
                    at = first
                    for key, count in zip(body.keys, body.counts, strict=True):
                        lo, hi = max(start - at, 0), min(end - at, count)
                        if lo < hi:
                            row = rows.get((make, key))
                            if row is None:
                                row = pieces.row((make, key))
                            have = len(row)
                            if have < hi:
                                row.extend(encode(make(key, n)) for n in range(have + 1, hi + 1))
                                pieces.grown(hi - have)
                            parts.extend(row if lo == 0 and hi == len(row) else row[lo:hi])
                        at += count
                else:
                    lo, hi = max(start - first, 0), min(end - first, after - first)
                    parts.extend(encode(body[i]) for i in range(lo, hi))
            first = after
        return b"[" + b",".join(parts) + b"]"

    def sample_kind(self, kind: str, rng: Rng) -> Action:
        """A uniformly drawn legal action of one `kind` (which must be on offer)."""
        self._ready()
        spans = [
            (self._ends[b - 1] if b else 0, end)
            for b, (k, _body, _cum) in enumerate(self._blocks)
            if k == kind
            for end in (self._ends[b],)
        ]
        total = sum(e - s for s, e in spans)
        r = rng.randbelow(total) if total else 0
        for s, e in spans:
            if r < e - s:
                return self[s + r]
            r -= e - s
        raise ValueError(f"no {kind} action on offer")


def list_json(
    actions: Sequence[Action], pieces: ActionPieces, start: int = 0, stop: int | None = None
) -> bytes:
    """World War's `GameSpec.legal_json`: `ActionList.json`, or the slice encoded whole."""
    if isinstance(actions, ActionList):
        return actions.json(pieces, start, stop)
    return pieces.encode(list(actions[start:stop]))
