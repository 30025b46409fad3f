"""Presence: which process owns which room, what the other processes list, and the
messages between processes. Two implementations of one interface (`Presence`):

- `LocalPresence`: in memory. One server process alone uses it; several instances made on
  one `LocalBoard` behave like processes sharing a Redis (the contract tests run both).
- `suite.net.backends.redis.RedisPresence` (`suite serve --presence redis://...`,
  redis-py's asyncio client).

Leases: a room's owner holds `lease:CODE` (value: its process id) for `seconds`, renews
it while it runs the room, and releases it when it hands the room over. A lease runs out
by itself when its process dies. A lease alone never lets a process write: the store's
epoch does (`MatchStore.claim`), so a lease that two processes both believe they hold
(a pause longer than the lease) costs one of them the room, never the match.

Each process publishes, every tick, a summary (`Summary`: its public lobbies, its rooms
not over, its lobbies per address) that expires unless renewed; the others read them for
the room list and the caps, and a process whose summary expired counts as gone.

Frames between processes are bytes sent to a process id (`send`); `frames` of the
receiving presence gets them in order.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

log = logging.getLogger("suite.net")


class Summary(msgspec.Struct, kw_only=True):
    """What one process tells the others each tick."""

    rooms: list[dict[str, Any]] = []
    """Its public lobbies with a free seat (`PublicRoom` as builtins)."""
    live: int = 0
    """Its rooms not over."""
    lobbies: dict[str, int] = {}
    """Its unstarted rooms by the address that opened them."""
    url: str = ""
    """Where clients reach it directly ("" when they cannot: forward to it instead)."""


class Presence(Protocol):
    """See the module docstring; `process` is this process's id (new at each start)."""

    process: str
    on_frame: Callable[[bytes], None]

    async def open(self) -> None: ...

    async def aclose(self) -> None: ...

    async def ping(self) -> bool: ...

    async def acquire(self, code: str, seconds: float) -> bool:
        """Take the room's lease when nobody holds it."""

    async def renew(self, codes: list[str], seconds: float) -> set[str]:
        """Extend the leases this process holds among `codes`, and take again those that
        ran out with nobody holding them (Redis was away: the store's epoch still says
        whether this process may write); the codes held now."""

    async def release(self, codes: list[str]) -> None:
        """Give up the leases this process holds among `codes`."""

    async def owners(self, codes: list[str]) -> dict[str, str | None]:
        """Each room's lease holder (None: unowned)."""

    async def alive(self, processes: list[str]) -> set[str]:
        """Which of `processes` are connected to the presence now (a process killed
        outright is not, from the moment its connection closed: long before its leases
        run out)."""

    async def expire(self, process: str, codes: list[str]) -> None:
        """Drop the leases among `codes` that `process` holds (it is not alive: its rooms
        may be adopted now; the store's epoch still fences it should it come back)."""

    async def publish(self, summary: Summary, seconds: float) -> None:
        """This process's summary, valid for `seconds` unless published again."""

    async def others(self) -> dict[str, Summary]:
        """The live summaries of the other processes, by process id."""

    async def send(self, process: str, frame: bytes) -> None:
        """Deliver `frame` to `process`'s `on_frame` (dropped when it is gone)."""

    async def announce(self, frame: bytes) -> None:
        """Deliver `frame` to every process (this one too, with Redis: frames name their
        sender, and a process skips its own)."""


def new_process_id() -> str:
    return secrets.token_hex(6)


def _ignore(frame: bytes) -> None:
    del frame


# -- in memory ------------------------------------------------------------------------------


@dataclass
class LocalBoard:
    """The shared memory of `LocalPresence` instances (one per process in real use)."""

    leases: dict[str, tuple[str, float]] = field(default_factory=dict)
    summaries: dict[str, tuple[Summary, float]] = field(default_factory=dict)
    members: dict[str, LocalPresence] = field(default_factory=dict)


class LocalPresence:
    """Presence in memory (time from `time.monotonic`)."""

    def __init__(self, board: LocalBoard | None = None, process: str | None = None) -> None:
        self.board = board or LocalBoard()
        self.process = process or new_process_id()
        self.on_frame: Callable[[bytes], None] = _ignore
        self.board.members[self.process] = self

    async def open(self) -> None:
        self.board.members[self.process] = self

    async def aclose(self) -> None:
        self.board.members.pop(self.process, None)
        self.board.summaries.pop(self.process, None)

    async def ping(self) -> bool:
        return True

    def _holder(self, code: str) -> str | None:
        held = self.board.leases.get(code)
        if held is None or held[1] <= time.monotonic():
            return None
        return held[0]

    async def acquire(self, code: str, seconds: float) -> bool:
        if self._holder(code) is not None:
            return False
        self.board.leases[code] = (self.process, time.monotonic() + seconds)
        return True

    async def renew(self, codes: list[str], seconds: float) -> set[str]:
        kept = set()
        for code in codes:
            if self._holder(code) in (self.process, None):
                self.board.leases[code] = (self.process, time.monotonic() + seconds)
                kept.add(code)
        return kept

    async def release(self, codes: list[str]) -> None:
        await self.expire(self.process, codes)

    async def alive(self, processes: list[str]) -> set[str]:
        return {p for p in processes if p in self.board.members}

    async def expire(self, process: str, codes: list[str]) -> None:
        for code in codes:
            if self._holder(code) == process:
                del self.board.leases[code]

    async def owners(self, codes: list[str]) -> dict[str, str | None]:
        return {code: self._holder(code) for code in codes}

    async def publish(self, summary: Summary, seconds: float) -> None:
        self.board.summaries[self.process] = (summary, time.monotonic() + seconds)

    async def others(self) -> dict[str, Summary]:
        now = time.monotonic()
        return {
            p: s
            for p, (s, until) in self.board.summaries.items()
            if p != self.process and until > now
        }

    async def send(self, process: str, frame: bytes) -> None:
        member = self.board.members.get(process)
        if member is not None:
            member.on_frame(frame)

    async def announce(self, frame: bytes) -> None:
        for process, member in list(self.board.members.items()):
            if process != self.process:
                member.on_frame(frame)
