"""W12 turn clock: deadline, poke, run-now, missed turns and quitting, with time passed in."""

from __future__ import annotations

import pytest

from suite.core.match import ConfigError, IllegalAction
from suite.wok.rules import clock, create
from suite.wok.rules.orders import OrderSet, SubmitOrders


def test_deadline_poke_and_run_now_standard_preset():
    state = create({"players": 2}, 1)
    st = clock.status(state, 1000.0)
    assert st["deadline_at"] == 1000.0 + 72 * 3600 and not st["can_poke"]
    state.apply(0, SubmitOrders((OrderSet(0),)))
    with pytest.raises(IllegalAction):
        clock.poke(state, 0, 2000.0)
    late = 1000.0 + 72 * 3600
    events = clock.poke(state, 0, late)
    assert events[0].waiting == (1,)
    with pytest.raises(IllegalAction):
        clock.run_now(state, late + 3600)
    clock.run_now(state, late + 24 * 3600)
    assert state.turn == 2 and state.missed == [0, 1]
    assert clock.status(state, late + 24 * 3600 + 5)["poked_at"] is None


def test_live_preset_and_three_missed_turns_quit():
    state = create({"players": 3, "clock": "live", "map": "star-islands"}, 2)
    now = 0.0
    for turn in range(3):
        state.apply(0, SubmitOrders((OrderSet(0),)))
        state.apply(1, SubmitOrders((OrderSet(1),)))
        clock.status(state, now)
        clock.poke(state, 0, now + 300)
        clock.run_now(state, now + 360)
        now += 400
        assert state.turn == turn + 2
    assert state.seat_quit == [False, False, True]
    assert state.world.colours[2].quit and state.world.owned(2)
    assert state.awaiting() == frozenset({0, 1})


def test_unknown_clock_preset_is_refused():
    with pytest.raises(ConfigError, match="unknown clock preset 'hourly' \\(key `clock`"):
        create({"players": 2, "clock": "hourly"}, 1)
