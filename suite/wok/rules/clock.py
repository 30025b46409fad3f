"""The W12 turn clock as data: deadline, poke and "run the turn now", driven by passed-in time.

The engine never reads a clock: a server or screen passes `now` (seconds, any epoch) to
these functions. A turn's clock starts the first time any of them sees that turn. Once
the deadline has passed and a living seat is not ready, any seat may poke; the
preset's `run_now_after_poke` seconds after the first poke anyone may run the turn,
which counts a missed turn for every seat that entered nothing (three in a row quit).
The clock lives in `WokState.clock` (preset name, turn, deadline_at, poked_at).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from suite.core.match import Event, IllegalAction
from suite.wok.rules import events as ev
from suite.wok.rules.ruleset import Clock

if TYPE_CHECKING:
    from suite.wok.rules.state import WokState


def preset(state: WokState) -> Clock:
    """The clock figures of the game's preset ("standard" 72 h, "live" 5 min)."""
    name = str(state.clock["preset"])
    if name not in state.rules.clock:
        known = ", ".join(sorted(state.rules.clock))
        raise ValueError(f"unknown clock preset {name!r} (have {known})")
    return state.rules.clock[name]


def start(state: WokState, now: float) -> None:
    """Start the current turn's clock at `now` unless it is already running."""
    if state.clock["turn"] != state.turn:
        state.clock.update(turn=state.turn, deadline_at=now + preset(state).deadline, poked_at=None)


def status(state: WokState, now: float) -> dict[str, Any]:
    """The clock as a screen shows it: deadline, poke and run-now availability, who waits."""
    start(state, now)
    deadline = float(state.clock["deadline_at"])
    poked = state.clock["poked_at"]
    waiting = sorted(state.awaiting())
    run_at = None if poked is None else float(poked) + preset(state).run_now_after_poke
    return {
        "turn": state.turn,
        "deadline_at": deadline,
        "seconds_left": max(0.0, deadline - now),
        "deadline_passed": now >= deadline,
        "waiting": waiting,
        "poked_at": poked,
        "can_poke": now >= deadline and bool(waiting) and state.outcome() is None,
        "run_now_at": run_at,
        "can_run_now": run_at is not None and now >= run_at and state.outcome() is None,
    }


def poke(state: WokState, seat: int, now: float) -> list[Event]:
    """Remind the seats not ready; IllegalAction before the deadline or with nobody late."""
    st = status(state, now)
    if not st["can_poke"]:
        raise IllegalAction("nobody can be poked before the deadline or when all are ready")
    if state.clock["poked_at"] is None:
        state.clock["poked_at"] = now
    return [ev.Poked(seat, tuple(st["waiting"]))]


def run_now(state: WokState, now: float) -> list[Event]:
    """Run the turn without the late seats; IllegalAction until the run-now time has come."""
    if not status(state, now)["can_run_now"]:
        raise IllegalAction("the turn can only be run once the poke has waited long enough")
    return state.run()
