"""Which rooms this process runs: leases in the presence, epochs in the store.

Each room runs on one process, its owner, which holds the room's lease in the presence
and writes the store with the epoch it claimed (`MatchStore.claim`); the processes share
one PostgreSQL store and one Redis presence (the tests also run several on one
in-memory `LocalBoard`).

It implements `suite.net.server.seams.Ownership`.

- Adoption: every `lease / 4` seconds a process lists the unfinished rooms of the store
  and the owners of their leases; it adopts each room nobody holds (takes the lease,
  claims the epoch, rebuilds the room from its log: clocks and server bots carry on).
  A lease held by a process that is no longer alive (its presence connection closed: it
  was killed) is dropped first, so its rooms are adopted within a sweep of its death, not
  when its leases run out. A room whose lease is another's, or lost, is let go at once
  (its clients reconnect to the new owner).
- Renewal: every `lease / 3` seconds the process renews its leases and publishes its
  summary (public lobbies, rooms not over, lobbies per address) for the others.
- Hand-over (SIGTERM): the process stops taking messages, lets its writes commit,
  releases every lease and tells the others to adopt at once.
- Presence writes that may wait (releases, frames to other processes) go through one
  ordered queue of chores, off the message path.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import msgspec

from suite.net import protocol as P
from suite.net.backends.presence import Presence, Summary
from suite.net.backends.store import MatchStore
from suite.net.cluster.frames import Frame, encode_frame
from suite.net.server.metrics import Metrics
from suite.net.server.room import Room
from suite.net.server.seams import Host

log = logging.getLogger("suite.net")


class RoomHost(Host, Protocol):
    """What leased ownership needs of its server besides its rooms."""

    metrics: Metrics

    def lost(self, room: Room, reason: str) -> None:
        """Let `room` go (its lease or its epoch is another's)."""

    def local_public_rooms(self, game: str | None) -> P.RoomList: ...


def reason(exc: BaseException) -> str:
    """An exception as a log line can show it: its type, and its message when it has one
    (a timeout's message is empty)."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class LeasedOwnership:
    """An `Ownership` for several processes (see the module docstring). `start` before
    serving, `handover` then `close` at the end."""

    def __init__(self, host: RoomHost, store: MatchStore, presence: Presence, lease: float) -> None:
        self.host, self.store, self.presence = host, store, presence
        self.process = presence.process
        self.lease = lease
        self.adopting: dict[str, asyncio.Future[bool]] = {}
        self.others: dict[str, Summary] = {}
        """The other processes' summaries (what they list and count)."""
        self.healthy = {"store": True, "presence": True}
        self.url = ""
        """Where clients reach this process directly (published to the others; "" when
        they cannot)."""
        self.closing = False
        self._chores: asyncio.Queue[Callable[[], Coroutine[Any, Any, Any]]] = asyncio.Queue()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._owning: list[asyncio.Task[Any]] = []

    # -- life cycle ----------------------------------------------------------------------

    async def start(self) -> None:
        """Open the backends, publish this process and adopt every unowned room."""
        await self.store.open()
        await self.presence.open()
        await self.publish()
        await self.sweep()
        self._spawn(self._chore_loop())
        self._spawn(self._health_loop())
        self._owning = [self._spawn(self._renew_loop()), self._spawn(self._sweep_loop())]

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def handover(self) -> None:
        """SIGTERM: let pending writes commit, release every lease, tell the others."""
        self.closing = True
        for task in self._owning:  # no lease is renewed or taken from now on
            task.cancel()
        rooms = list(self.host.rooms.values())
        for room in rooms:
            room.owned = False  # this process acts no more in it (the store keeps its phase)
        pending = [r.pending for r in rooms if r.pending is not None]
        if pending:
            await asyncio.wait(pending, timeout=5)
        await self.drain()
        with contextlib.suppress(Exception):
            await self.presence.release([room.code for room in rooms])
            await self.presence.announce(encode_frame(Frame(k="adopt", p=self.process)))
        log.info("handed %d rooms over", len(rooms))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.presence.aclose()
        await self.store.aclose()

    # -- chores: presence writes in order, off the message path ------------------------------

    def chore(self, make: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        self._chores.put_nowait(make)

    async def _chore_loop(self) -> None:
        while True:
            make = await self._chores.get()
            try:
                await make()
            except Exception as exc:
                log.warning("presence: %s", reason(exc))
            finally:
                self._chores.task_done()

    async def drain(self) -> None:
        """Wait (5 s at most) until every queued chore ran."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._chores.join(), 5)

    # -- ownership ---------------------------------------------------------------------------

    async def new_lease(self, draw: Callable[[], str]) -> str | None:
        """A code for a new room, its lease taken before the room is stored (so no other
        process sees it unowned and adopts it); None when the presence cannot give one."""
        try:
            for _ in range(5):
                candidate = draw()
                if await self.presence.acquire(candidate, self.lease):
                    return candidate
        except Exception as exc:
            log.warning("presence: no lease for a new room (%s)", reason(exc))
        return None

    def released(self, code: str) -> None:
        """A room this process no longer runs (forgotten once over, lost, or never opened)."""
        self.store.forget(code)
        self.chore(lambda: self.presence.release([code]))

    def lost(self, code: str) -> None:
        """Released: the next sweep of any process adopts it from the store."""
        self.released(code)

    async def adopt(self, code: str) -> bool:
        """Take an unowned room over: lease, epoch, rebuild from the log. True when it runs
        here afterwards."""
        if code in self.host.rooms:
            return True
        running = self.adopting.get(code)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.adopting[code] = future
        try:
            adopted = await self._adopt(code)
        except Exception as exc:
            log.warning("could not adopt room %s: %s", code, reason(exc))
            adopted = False
        finally:
            self.adopting.pop(code, None)
        future.set_result(adopted)
        return adopted

    async def _adopt(self, code: str) -> bool:
        if self.closing or not await self.presence.acquire(code, self.lease):
            return False
        epoch = await self.store.claim(code)
        row = await self.store.load(code) if epoch is not None else None
        if row is None or row.phase == "over":
            await self.presence.release([code])
            return False
        try:
            room = self.host.restore(row, f"adopted (epoch {epoch})")
        except Exception:
            log.exception("could not be rebuilt; left in the store", extra={"room": code})
            return False  # the lease stays: no process tries again until it runs out
        self.host.metrics.takeovers.inc()
        return room.owned

    async def sweep(self) -> None:
        """Adopt the unowned rooms (those of a process no longer alive included); let go
        of those whose lease is another's."""
        codes = await self.store.unfinished_codes()
        owners = await self.presence.owners(codes)
        for dead in await self.dead(set(owners.values())):
            held = [code for code, owner in owners.items() if owner == dead]
            log.warning("process %s is gone: its %d rooms are adopted now", dead, len(held))
            await self.presence.expire(dead, held)
            owners.update(dict.fromkeys(held))
        free = [code for code, owner in owners.items() if owner is None]
        for code, owner in owners.items():
            room = self.host.rooms.get(code)
            if room is not None and owner is not None and owner != self.process:
                self.host.lost(room, f"its lease is held by {owner}")
        random.shuffle(free)
        for code in free:
            if self.closing:
                return
            await self.adopt(code)

    async def dead(self, processes: set[str | None]) -> set[str]:
        """Which of `processes` (other than this one) are not alive: killed, or cut off
        from the presence."""
        others = sorted(p for p in processes if p is not None and p != self.process)
        return set(others) - await self.presence.alive(others) if others else set()

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 4)
            try:
                await self.sweep()
            except Exception as exc:
                log.warning("adoption sweep failed: %s", reason(exc))

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            codes = [c for c in self.host.rooms if c not in self.adopting]
            try:
                kept = await self.presence.renew(codes, self.lease)
                await self.publish()
            except Exception as exc:
                # Nobody can take a lease while the presence is away; the store's epoch
                # still refuses a stale owner, so the rooms play on here meanwhile.
                log.warning("presence: leases not renewed (%s)", reason(exc))
                continue
            self.host.metrics.lease_renewals.inc(len(kept))
            for code in codes:
                room = self.host.rooms.get(code)
                if code not in kept and room is not None:
                    self.host.lost(room, "its lease was lost")

    async def publish(self) -> None:
        """Tell the others what this process lists and counts; read theirs."""
        rooms = self.host.rooms.values()
        lobbies = Counter(r.opened_from for r in rooms if r.phase == "lobby")
        listed = [msgspec.to_builtins(entry) for entry in self.host.local_public_rooms(None).rooms]
        summary = Summary(
            rooms=listed,
            live=sum(1 for r in rooms if r.phase != "over"),
            lobbies=dict(lobbies),
            url=self.url,
        )
        await self.presence.publish(summary, self.lease)
        self.others = await self.presence.others()

    async def _health_loop(self) -> None:
        while True:
            self.healthy["store"] = await self.store.ping()
            self.healthy["presence"] = await self.presence.ping()
            await asyncio.sleep(1.0)

    # -- what the others publish ---------------------------------------------------------------

    def reachable_at(self, url: str) -> None:
        """Published at once: the others then send clients here."""
        self.url = url
        self.chore(self.publish)

    async def learn(self, process: str) -> None:
        """Read the others' summaries now when `process` is not among them yet (a process
        that started since the last renewal)."""
        if process != self.process and process not in self.others:
            self.others = await self.presence.others()

    def url_of(self, process: str) -> str:
        """Where clients reach `process` directly ("" when unknown or not reachable)."""
        summary = self.others.get(process)
        return summary.url if summary is not None else ""

    def remote_live(self) -> int:
        """Rooms not over on the other processes."""
        return sum(s.live for s in self.others.values())

    def remote_lobbies(self, address: str) -> int:
        """Unstarted rooms the address opened on the other processes."""
        return sum(s.lobbies.get(address, 0) for s in self.others.values())

    def remote_public(self) -> list[P.PublicRoom]:
        """The other processes' public lobbies with a free seat."""
        out = []
        for summary in self.others.values():
            for entry in summary.rooms:
                with contextlib.suppress(msgspec.ValidationError):
                    out.append(msgspec.convert(entry, type=P.PublicRoom))
        return out
