"""The game's own client (`RemoteSession`, as the screens use it) behind a plain TCP load
balancer over two `suite serve` processes on PostgreSQL and Redis: the owner of its room
is killed with SIGKILL, the other process adopts the room, and the session reconnects
by itself, rejoins with its seat token and plays the match to its end (a server bot and
World War's turn clock carry on)."""

from __future__ import annotations

import contextlib
import signal
import time
from pathlib import Path

import redis

from suite.core.match import IllegalAction, game_spec
from suite.core.rng import Rng
from suite.net.client.client import ServerError
from suite.net.client.session import RemoteSession

from .balancer import Balancer
from .processes import ServerProcess, stop_started
from .servers import pg_url, postgres, redis_server, redis_url  # noqa: F401


def _until(predicate: object, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.01)


def _process_id(server: ServerProcess) -> str:
    line = next(line for line in server.log if "serving on" in line)
    return line.split("process ")[1].split(")")[0]


def test_a_session_behind_a_load_balancer_survives_its_rooms_process(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
) -> None:
    flags = ("--store", pg_url, "--presence", redis_url, "--lease-seconds", "1.5")
    servers = [ServerProcess(tmp_path / f"s{i}", *flags, "--bot-delay", "0.05") for i in (0, 1)]
    balancer = Balancer(lambda: [s.port for s in servers if s.proc.poll() is None])
    session = None
    try:
        session = RemoteSession.connect(balancer.url, "ann", timeout=5)
        session.create("worldwar", {"players": 2, "map": "classic", "clock": 180})
        session.seat_bot(1, "easy")
        session.ready()
        _until(lambda: session.room is not None and session.room.phase == "playing")
        code = session.code or ""
        bot, rng = game_spec("worldwar").bots["easy"](), Rng(5)

        def play(until: object) -> None:
            end = time.monotonic() + 120
            while not until() and session.outcome() is None:  # type: ignore[operator]
                assert time.monotonic() < end, "the match stalled"
                if session.status == "connected" and 0 in session.awaiting():
                    # the connection may drop meanwhile: it comes back
                    with contextlib.suppress(
                        IllegalAction, ServerError, TimeoutError, ConnectionError
                    ):
                        session.act(0, bot.choose(session.view(0), session.legal(0), rng))
                session.poll()
                time.sleep(0.01)

        def state_id() -> int:
            view = session.client.view
            return -1 if view is None else view.state_id

        play(lambda: state_id() >= 15)
        deadline_before = session.clock.deadline if session.clock else None
        owner = redis.Redis.from_url(redis_url).get(f"warsuite:lease:{code}")
        assert owner is not None
        (dead,) = [s for s in servers if _process_id(s) == owner.decode()]
        reached = state_id()
        dead.proc.send_signal(signal.SIGKILL)  # the room's process dies
        dead.proc.wait(timeout=10)
        _until(lambda: session.status == "reconnecting" or session.client.closed)
        _until(lambda: session.status == "connected" and not session.client.closed, 30)
        assert session.token is not None and session.seat == 0
        assert state_id() >= reached  # nothing acknowledged was lost
        if deadline_before is not None and session.clock and session.clock.deadline:
            assert abs(session.clock.deadline - deadline_before) < 5  # the time left, kept
        play(lambda: False)
        outcome = session.outcome()
        assert outcome is not None and outcome.reason
    finally:
        if session is not None:
            session.close()
        balancer.close()
        stop_started()
