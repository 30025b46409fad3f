"""Bots thinking in a worker process (`suite.core.thinking`, `LocalSession.step_bot`):
the same match as deciding in-process, never blocking, interrupted on leaving, failures
reported rather than hanging."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from suite.core.session import LocalSession
from suite.core.thinking import Thinker, ThinkingFailed


@pytest.fixture
def thinker(monkeypatch: pytest.MonkeyPatch) -> Iterator[Thinker]:
    """A Thinker whose worker can import tests/core/thinking_bots.py."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    made = Thinker()
    yield made
    made.close()


def play(session: LocalSession, steps: int, threaded: bool) -> None:
    """`steps` bot actions, decided in the worker (`step_bot`) or here (`run_bot`)."""
    for _ in range(steps):
        if threaded:
            deadline = time.monotonic() + 60
            while session.step_bot(wait=0.05) is None:
                assert session.outcome() is None and time.monotonic() < deadline
        elif session.run_bot() is None:
            break


@pytest.mark.parametrize(
    ("game", "config", "bots", "steps"),
    [
        ("tactics", {"players": 2}, {0: "hard", 1: "expert"}, 40),
        ("wok", {"players": 3}, {0: "general", 1: "robot", 2: "general"}, 30),
        ("worldwar", {"players": 3}, {0: "hard", 1: "expert", 2: "aggressive"}, 120),
    ],
)
def test_a_bot_in_its_worker_plays_the_same_match_as_in_process(
    thinker: Thinker, game: str, config: dict[str, int], bots: dict[int, str], steps: int
) -> None:
    here = LocalSession.start(game, config, 11, humans=frozenset(), bots=bots)
    away = LocalSession.start(game, config, 11, humans=frozenset(), bots=bots)
    away.thinker = thinker
    play(here, steps, threaded=False)
    play(away, steps, threaded=True)
    assert away.replay.actions == here.replay.actions
    assert away.state.to_dict() == here.state.to_dict()
    assert away.bot_rng == here.bot_rng


def test_step_bot_never_blocks_and_the_bot_keeps_its_memory(thinker: Thinker) -> None:
    import thinking_bots

    session = LocalSession.start("tactics", {"players": 2}, 3, humans=frozenset())
    session.bots = {0: thinking_bots.CountingBot(), 1: thinking_bots.CountingBot()}
    session.thinker = thinker
    began = time.perf_counter()
    assert session.step_bot() is None and session.thinking  # started, not waited for
    assert time.perf_counter() - began < 5.0  # the worker's start-up is not waited for
    play(session, 6, threaded=True)
    counts = [bot.decisions for bot in session.bots.values()]  # type: ignore[attr-defined]
    assert sum(counts) == len(session.replay.actions) >= 6


def test_leaving_interrupts_a_long_search(thinker: Thinker) -> None:
    import thinking_bots

    session = LocalSession.start("tactics", {"players": 2}, 3, humans=frozenset())
    session.bots = {0: thinking_bots.SleepyBot(60.0), 1: thinking_bots.SleepyBot(60.0)}
    session.thinker = thinker
    assert session.step_bot(wait=0.5) is None and session.thinking
    worker = thinker._process
    assert worker is not None and worker.is_alive()
    began = time.perf_counter()
    session.stop_thinking()
    assert not session.thinking and not worker.is_alive()
    assert time.perf_counter() - began < 5.0
    assert session.replay.actions == []
    session.bots = {0: thinking_bots.CountingBot(), 1: thinking_bots.CountingBot()}
    play(session, 2, threaded=True)  # a new worker takes the next decision
    assert len(session.replay.actions) == 2


def test_a_bot_that_raises_is_reported_and_a_random_action_stands_in(thinker: Thinker) -> None:
    import thinking_bots

    session = LocalSession.start("tactics", {"players": 2}, 3, humans=frozenset())
    session.bots = {0: thinking_bots.BrokenBot(), 1: thinking_bots.BrokenBot()}
    session.thinker = thinker
    view = session.view(0)
    ticket = thinker.start(session.bots[0], view, session.legal(0), session.bot_rng)
    while not thinker.ready(ticket, 0.1):
        pass
    with pytest.raises(ThinkingFailed, match="this bot cannot decide"):
        thinker.result(ticket)
    play(session, 2, threaded=True)  # the session plays on: random stand-ins
    assert len(session.replay.actions) == 2 and len(session.bot_failures) == 2
    assert "this bot cannot decide" in session.bot_failures[0]


def test_a_worker_that_dies_is_reported_and_replaced(thinker: Thinker) -> None:
    import thinking_bots

    session = LocalSession.start("tactics", {"players": 2}, 3, humans=frozenset())
    session.bots = {0: thinking_bots.SleepyBot(60.0), 1: thinking_bots.SleepyBot(60.0)}
    session.thinker = thinker
    session.step_bot(wait=0.5)
    worker = thinker._process
    assert worker is not None and worker.pid is not None
    os.kill(worker.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while session.step_bot(wait=0.1) is None:  # a random action stands in
        assert time.monotonic() < deadline
    assert len(session.replay.actions) == 1 and "died" in session.bot_failures[0]
    session.bots = {0: thinking_bots.CountingBot(), 1: thinking_bots.CountingBot()}
    play(session, 1, threaded=True)  # a new worker
    assert len(session.replay.actions) == 2 and thinker._process is not worker


def test_a_bot_that_cannot_be_sent_to_its_worker_is_stood_in_for(thinker: Thinker) -> None:
    session = LocalSession.start("tactics", {"players": 2}, 3, humans=frozenset())
    unpicklable = thinking_bots_module().CountingBot()
    unpicklable.hook = lambda: None  # type: ignore[attr-defined]  # lambdas do not pickle
    session.bots = {0: unpicklable, 1: unpicklable}
    session.thinker = thinker
    play(session, 1, threaded=True)
    assert len(session.replay.actions) == 1 and "could not be sent" in session.bot_failures[0]


def thinking_bots_module() -> Any:
    import thinking_bots

    return thinking_bots
