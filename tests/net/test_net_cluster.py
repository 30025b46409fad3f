"""Several server processes on one PostgreSQL and one Redis (real servers, in this test
process for speed; tests/net/test_net_soak.py runs real processes): forwarding to a
room's owner, the shared room list and caps, hand-over and adoption, /healthz and
/metrics."""

from __future__ import annotations

import asyncio
import contextlib
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from suite.core.match import game_spec
from suite.net.client.client import Client, ServerError, play_bot
from suite.net.server.app import MatchServer
from suite.net.server.settings import SettingsError, settings_of

from .helpers import close_all, run, serving, until, url
from .servers import pg_url, postgres, redis_server, redis_url  # noqa: F401

EASY = game_spec("worldwar").bots["easy"]


@contextlib.asynccontextmanager
async def cluster(
    tmp_path: Path, pg: str, rd: str, n: int = 2, **overrides: Any
) -> AsyncIterator[list[MatchServer]]:
    options = {"store": pg, "presence": rd, "lease_seconds": 1.0, **overrides}
    async with contextlib.AsyncExitStack() as stack:
        servers = [
            await stack.enter_async_context(serving(tmp_path / f"s{i}", **options))
            for i in range(n)
        ]
        yield servers


def test_a_client_of_another_process_plays_in_the_owners_room(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
) -> None:
    async def main() -> None:
        async with cluster(tmp_path, pg_url, redis_url) as (a, b):
            host = await Client.connect(url(a), "host")
            await host.create("worldwar", {"players": 2}, public=True)
            code = host.code or ""
            assert code in a.rooms and code not in b.rooms
            guest = await Client.connect(url(b), "guest")
            await until(lambda: bool(b.ownership.remote_public()), timeout=5)
            listed = await guest.list_rooms("worldwar")
            assert [r.code for r in listed] == [code]  # a's lobby, listed by b
            await guest.join(code, 1)
            assert guest.seat == 1 and guest.room is not None
            await host.ready()
            await guest.ready()
            await guest.wait(lambda c: c.room is not None and c.room.phase == "playing")
            await asyncio.gather(play_bot(host, EASY(), seed=1), play_bot(guest, EASY(), seed=2))
            assert host.game_over is not None and guest.game_over == host.game_over
            room = a.rooms[code]
            assert await a.store.log_length(code) == room.state_id > 0
            # the result comes before the last views: wait for the last one
            await until(lambda: guest.view is not None and guest.view.state_id == room.state_id)
            assert code not in b.rooms  # b only forwarded
            await close_all([host, guest])

    run(main())


def test_a_client_that_follows_is_sent_to_the_owner_and_an_old_one_is_forwarded(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
) -> None:
    """With `advertise`, a join reaching a process that does not run the room is answered
    `moved` with the owner's address, and the client library follows it (issue 31.3); a
    client whose hello leaves `follows` out (today's clients) is forwarded as before."""
    from websockets.asyncio.client import connect

    from suite.net import protocol as P

    async def main() -> None:
        reach = {"advertise": "ws://127.0.0.1:{port}"}
        async with cluster(tmp_path, pg_url, redis_url, **reach) as (a, b):
            host = await Client.connect(url(a), "host")
            await host.create("worldwar", {"players": 3})
            code = host.code or ""
            await until(lambda: b.ownership.url_of(a.ownership.process) == url(a), timeout=5)
            guest = await Client.connect(url(b), "guest")
            await guest.join(code, 1)
            assert guest.seat == 1 and guest.url == url(a)  # it moved to the owner
            assert not b.routing.forwarded  # type: ignore[attr-defined]
            async with connect(url(b), proxy=None) as old:
                await old.send(P.encode(P.Hello(name="old")))
                await old.send(P.encode(P.Join(code=code, seat=2)))
                kinds = []
                while "seated" not in kinds:
                    kinds.append(P.decode_server(await old.recv()).__struct_config__.tag)
                assert "moved" not in kinds  # forwarded through b
                assert len(b.routing.forwarded) == 1  # type: ignore[attr-defined]
            await close_all([host, guest])

    run(main())


def test_a_dead_processs_rooms_are_adopted_before_its_leases_run_out(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
) -> None:
    """Issue 31.4: a process gone from the presence (killed: its connection closed) holds
    its leases no more; the next sweep of another adopts its rooms at once, and a write of
    the dead owner is refused by the epoch."""
    from suite.net.backends.store import StaleEpoch

    async def main() -> None:
        async with cluster(tmp_path, pg_url, redis_url, lease_seconds=60.0) as (a, b):
            host = await Client.connect(url(a), "host")
            await host.create("worldwar", {"players": 2})
            code = host.code or ""
            room = a.rooms[code]
            await a.ownership.presence.aclose()  # as a killed process: its leases stay
            assert code not in b.rooms
            await b.ownership.sweep()  # long before the 60 s lease runs out
            assert code in b.rooms
            owners = await b.ownership.presence.owners([code])
            assert owners[code] == b.ownership.process
            with pytest.raises(StaleEpoch):
                commit = a.store.append(code, room.state_id, b'{"op":"poke","seat":0,"now":0}')
                assert commit is not None
                await commit
            await close_all([host])

    run(main())


def test_a_failure_is_logged_with_its_kind_even_without_a_message() -> None:
    from suite.net.cluster.ownership import reason

    assert reason(TimeoutError()) == "TimeoutError"
    assert reason(OSError("refused")) == "OSError: refused"


def test_caps_count_every_process(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
) -> None:
    async def main() -> None:
        async with cluster(tmp_path, pg_url, redis_url, max_lobbies_per_address=2) as (a, b):
            one = await Client.connect(url(a), "one")
            await one.create("worldwar", {"players": 2})
            two = await Client.connect(url(a), "two")
            await two.create("worldwar", {"players": 2})
            await until(lambda: b.ownership.remote_lobbies("127.0.0.1") == 2)
            three = await Client.connect(url(b), "three")
            try:
                await three.create("worldwar", {"players": 2})
                raise AssertionError("a third lobby from one address was opened")
            except ServerError as exc:
                assert exc.error.code == "too_many_lobbies"
            await close_all([one, two, three])

    run(main())


def test_sigterm_hands_rooms_over_and_play_goes_on(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
) -> None:
    """The owner stops (SIGTERM's path): the other process adopts the room at once; the
    clients rejoin with their tokens and finish; a server bot and the clock carry on."""

    async def main() -> None:
        options = {"store": pg_url, "presence": redis_url, "lease_seconds": 30.0}
        async with serving(tmp_path / "b", **options) as b:
            a = await _start(tmp_path / "a", **options)
            host = await Client.connect(url(a), "host")
            await host.create("worldwar", {"players": 3})
            code = host.code or ""
            guest = await Client.connect(url(b), "guest")
            await guest.join(code, 1)
            await host.seat_bot(2, "easy")
            await host.ready()
            await guest.ready()
            await guest.wait(lambda c: c.room is not None and c.room.phase == "playing")
            tasks = [asyncio.ensure_future(play_bot(c, EASY())) for c in (host, guest)]
            await until(lambda: host.view is not None and host.view.state_id >= 20, timeout=30)
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            before = a.rooms[code].state_id
            await a.stop()  # hands over: releases the lease, tells b
            await until(lambda: code in b.rooms, timeout=5)  # well within the 30 s lease
            assert b.metrics.takeovers._value.get() == 1
            await guest.wait(lambda c: c.closed, timeout=5)  # b closed the forwarded client
            tokens = [host.token or "", guest.token or ""]
            await close_all([host, guest])
            again = [await Client.connect(url(b), n) for n in ("host", "guest")]
            for c, token in zip(again, tokens, strict=True):
                await c.rejoin(token)
                assert c.view is not None and c.view.state_id >= before
            await asyncio.gather(*(play_bot(c, EASY()) for c in again))
            assert again[0].game_over is not None and again[0].game_over.outcome is not None
            assert await b.store.log_length(code) == b.rooms[code].state_id
            await close_all(again)

    run(main())


async def _start(data: Path, **options: Any) -> MatchServer:
    from .helpers import settings

    server = MatchServer(settings(data, **options))
    await server.start()
    return server


def test_healthz_and_metrics_of_a_cluster_process(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
) -> None:
    async def main() -> None:
        async with cluster(tmp_path, pg_url, redis_url, n=1) as (a,):
            host = await Client.connect(url(a), "host")
            await host.create("worldwar", {"players": 2})
            await asyncio.sleep(0.5)
            base = f"http://127.0.0.1:{a.port}"

            def get(path: str) -> tuple[int, str]:
                try:
                    with urllib.request.urlopen(base + path, timeout=10) as page:
                        return page.status, page.read().decode()
                except urllib.error.HTTPError as exc:
                    return exc.code, exc.read().decode()

            status, body = await asyncio.to_thread(get, "/healthz")
            assert status == 200 and "store=ok presence=ok" in body, body
            _, metrics = await asyncio.to_thread(get, "/metrics")
            assert "suite_rooms_owned 1.0" in metrics
            assert (
                "suite_lease_renewals_total" in metrics and "suite_takeovers_total 0.0" in metrics
            )

            a.ownership.healthy["presence"] = False  # type: ignore[index]  # as the health loop finds a dead Redis
            status, body = await asyncio.to_thread(get, "/healthz")
            assert status == 503 and "presence=down" in body
            await host.close()

    run(main())


def test_cluster_settings_are_checked() -> None:
    for values, expected in (
        ({"store": "mysql://x"}, "postgresql"),
        ({"presence": "redis://x"}, "needs"),
        ({"store": "postgresql://x", "presence": "http://x"}, "redis"),
        ({"lease_seconds": 0.1}, "lease_seconds"),
    ):
        try:
            settings_of(values)
            raise AssertionError(f"{values} accepted")
        except SettingsError as exc:
            assert expected in str(exc), exc


def test_a_room_plays_on_while_redis_is_down(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
) -> None:
    """Redis stops mid-match: leases cannot be renewed, but nobody else can take them
    either and the store's epoch guards the log, so the room plays on where it is;
    /healthz says presence=down meanwhile."""
    from .servers import Redis

    own = Redis(tmp_path / "redis")
    try:

        async def main() -> None:
            async with cluster(tmp_path, pg_url, own.url, n=1) as (a,):
                host = await Client.connect(url(a), "host")
                await host.create("worldwar", {"players": 2})
                guest = await Client.connect(url(a), "guest")
                await guest.join(host.code or "", 1)
                await host.ready()
                await guest.ready()
                await guest.wait(lambda c: c.room is not None and c.room.phase == "playing")
                own.stop()
                await until(lambda: not a.ownership.healthy["presence"])
                await asyncio.gather(play_bot(host, EASY(), seed=3), play_bot(guest, EASY()))
                assert host.game_over is not None and host.game_over.outcome is not None
                code = host.code or ""
                assert await a.store.log_length(code) == a.rooms[code].state_id > 0
                await close_all([host, guest])

        run(main())
    finally:
        if own.proc.poll() is None:
            own.stop()
