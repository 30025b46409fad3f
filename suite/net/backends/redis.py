"""Presence in Redis (`suite serve --presence redis://...`), for several processes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import msgspec

from suite.net.backends.presence import Summary, _ignore, new_process_id

log = logging.getLogger("suite.net")

RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    kept[#kept + 1] = i
  elseif not holder then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    kept[#kept + 1] = i
  end
end
return kept
"""
RELEASE = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0
"""
PREFIX = "warsuite:"
TIMEOUT = 2.0
"""Seconds a Redis command may take before it counts as failed."""
_summary = msgspec.json.Decoder(Summary)


class RedisPresence:
    """Presence in Redis: `lease:CODE` keys, `proc:ID` summaries (with a set of the
    process ids), and one pub/sub channel per process (`to:ID`) and one for all."""

    def __init__(self, url: str, process: str | None = None) -> None:
        import redis.asyncio as redis

        self.url = url
        self.process = process or new_process_id()
        self.on_frame: Callable[[bytes], None] = _ignore
        self.redis = redis.Redis.from_url(
            url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT, health_check_interval=5
        )
        self._renew = self.redis.register_script(RENEW)
        self._release = self.redis.register_script(RELEASE)
        self._reader: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()

    def _lease(self, code: str) -> str:
        return f"{PREFIX}lease:{code}"

    async def open(self) -> None:
        await self.redis.ping()
        self._reader = asyncio.ensure_future(self._read())
        async with asyncio.timeout(10):
            await self._subscribed.wait()

    async def _read(self) -> None:
        """Hand every frame sent to this process (or to all) to `on_frame`, resubscribing
        after a lost connection."""
        channels = (f"{PREFIX}to:{self.process}", f"{PREFIX}all")
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(*channels)
                self._subscribed.set()
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    data = message.get("data")
                    if isinstance(data, bytes):
                        try:
                            self.on_frame(data)
                        except Exception:
                            log.exception("a frame from another process failed")
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                raise
            except Exception as exc:
                log.warning("presence: pub/sub connection lost (%s); resubscribing", exc)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                await asyncio.sleep(0.5)

    async def aclose(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        with contextlib.suppress(Exception):
            await self.redis.delete(f"{PREFIX}proc:{self.process}")
            await self.redis.srem(f"{PREFIX}procs", self.process)
        await self.redis.aclose()

    async def ping(self) -> bool:
        try:
            async with asyncio.timeout(TIMEOUT):
                return bool(await self.redis.ping())
        except Exception:
            return False

    async def acquire(self, code: str, seconds: float) -> bool:
        return bool(
            await self.redis.set(self._lease(code), self.process, nx=True, px=int(seconds * 1000))
        )

    async def renew(self, codes: list[str], seconds: float) -> set[str]:
        if not codes:
            return set()
        kept = await self._renew(
            keys=[self._lease(c) for c in codes], args=[self.process, int(seconds * 1000)]
        )
        return {codes[int(i) - 1] for i in kept}

    async def release(self, codes: list[str]) -> None:
        await self.expire(self.process, codes)

    async def alive(self, processes: list[str]) -> set[str]:
        """A process is alive while it listens on its channel (PUBSUB NUMSUB)."""
        if not processes:
            return set()
        counts = await self.redis.pubsub_numsub(*[f"{PREFIX}to:{p}" for p in processes])
        listening = {_text(channel) for channel, count in counts if int(count) > 0}
        return {p for p in processes if f"{PREFIX}to:{p}" in listening}

    async def expire(self, process: str, codes: list[str]) -> None:
        if codes:
            await self._release(keys=[self._lease(c) for c in codes], args=[process])

    async def owners(self, codes: list[str]) -> dict[str, str | None]:
        if not codes:
            return {}
        values = await self.redis.mget([self._lease(c) for c in codes])
        return {
            code: None if value is None else _text(value)
            for code, value in zip(codes, values, strict=True)
        }

    async def publish(self, summary: Summary, seconds: float) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(
                f"{PREFIX}proc:{self.process}",
                msgspec.json.encode(summary),
                px=int(seconds * 1000),
            )
            pipe.sadd(f"{PREFIX}procs", self.process)
            await pipe.execute()

    async def others(self) -> dict[str, Summary]:
        members = [_text(m) for m in await self.redis.smembers(f"{PREFIX}procs")]
        members = [m for m in members if m != self.process]
        if not members:
            return {}
        values = await self.redis.mget([f"{PREFIX}proc:{m}" for m in members])
        out: dict[str, Summary] = {}
        gone = []
        for member, value in zip(members, values, strict=True):
            if value is None:
                gone.append(member)
                continue
            with contextlib.suppress(msgspec.DecodeError, msgspec.ValidationError):
                out[member] = _summary.decode(value)
        if gone:
            await self.redis.srem(f"{PREFIX}procs", *gone)
        return out

    async def send(self, process: str, frame: bytes) -> None:
        await self.redis.publish(f"{PREFIX}to:{process}", frame)

    async def announce(self, frame: bytes) -> None:
        await self.redis.publish(f"{PREFIX}all", frame)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
