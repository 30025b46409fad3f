"""`ActionList`: the legal actions of one seat, listed lazily.

Placing and moving armies offer one action per (territory, count), which can be
thousands; an `ActionList` stores them as blocks and builds an action only when it is
indexed. It is a real `Sequence` (len, indexing, iteration) and also an `ActionSpace`
(`contains` asks the state's own validator, `sample` draws uniformly). It describes the
state at the moment `legal()` was called.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, overload

from mypy_extensions import mypyc_attr

from suite.core.match import Action
from suite.core.rng import Rng


@dataclass(frozen=True, slots=True)
class CountBlock:
    """Actions `make(key, n)` for each key and n in 1..counts[i]."""

    keys: Sequence[Any]
    counts: Sequence[int]
    make: Callable[[Any, int], Action]
    kind: str


@mypyc_attr(native_class=False)  # compiled, a native class cannot extend RuntimeError
class StaleActions(RuntimeError):
    """A lazy ActionList was first read after its state had changed."""


class ActionList(Sequence[Action]):
    """A lazily built list of legal actions (see the module docstring)."""

    __slots__ = ("_blocks", "_ends", "_check", "_build", "_fresh")

    def __init__(
        self,
        check: Callable[[Action], bool],
        build: Callable[[ActionList], None] | None = None,
        fresh: Callable[[], bool] | None = None,
    ) -> None:
        """`build(self)` fills the list on first use; `fresh()` says whether the state is
        still the one the list describes (a stale list raises StaleActions)."""
        self._blocks: list[tuple[str, Sequence[Action] | CountBlock, list[int]]] = []
        self._ends: list[int] = []
        self._check = check
        self._build = build
        self._fresh = fresh

    def _ready(self) -> None:
        if self._build is not None:
            if self._fresh is not None and not self._fresh():
                raise StaleActions("the state changed since legal() was called")
            build, self._build = self._build, None
            build(self)

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
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self.contains(action)

    def contains(self, action: Action) -> bool:
        """True when `action` is legal now (the state's own check)."""
        return self._check(action)

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


class Lister(Protocol):
    """A state that lists its legal actions into an `ActionList` (see `StateActions`)."""

    version: int

    def allows(self, seat: int, action: Action) -> bool: ...

    def fill_legal(self, seat: int, out: ActionList) -> None: ...


class StateActions(ActionList):
    """The legal actions of `seat` in a `Lister` state, built on first use.

    The same contract as an `ActionList` built from callbacks, made without allocating
    any: `legal()` runs before every decision, and most bots never read the list.
    """

    __slots__ = ("_state", "_seat", "_version")

    def __init__(self, state: Lister, seat: int) -> None:  # no super(): blocks come later
        self._state = state
        self._seat = seat
        self._version = state.version

    def _ready(self) -> None:
        if self._version >= 0:
            if self._state.version != self._version:
                raise StaleActions("the state changed since legal() was called")
            self._version = -1
            self._blocks = []
            self._ends = []
            self._state.fill_legal(self._seat, self)

    def contains(self, action: Action) -> bool:
        """True when `action` is legal now (the state's own check)."""
        return self._state.allows(self._seat, action)
