"""The turn clock redraws only when what it shows changes (issue 22 item 9): a person
thinking against a running clock costs a few frames a second, not sixty; the clock still
counts down and shows every second. (CPU figures: tests/bench/test_bench_worldwar_ui.py.)"""

from __future__ import annotations

from pathlib import Path

from suite.ui.app import SETTLE_SECONDS
from suite.ui.harness import Harness
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.hud import clock_face
from suite.worldwar.screens.match import Match, SeatInfo


def clock_game(h: Harness) -> GameScene:
    seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")]
    match = Match({"map": "classic", "auto_place": True, "clock": 60}, 3, seats)
    while match.actor in match.bot_seats:
        match.run_bot()
    g = GameScene(h.app, match)
    h.push(g)
    return g


def test_a_running_clock_redraws_only_when_its_face_changes(artifacts: Path) -> None:
    with Harness(size=(1280, 800)) as h:
        g = clock_game(h)
        h.frames(round(60 * (SETTLE_SECONDS + 0.5)))  # past the wake-up after input
        assert g.clock_running and g.ticking() and not g.animating()
        before, left = h.app.draws, g.clock_left
        faces = set()
        for _ in range(180):  # three seconds
            h.frames(1)
            faces.add(clock_face(g)[0])
        drawn = h.app.draws - before
        assert abs((left - g.clock_left) - 3.0) < 0.05, "the clock counts on"
        assert len(faces) >= 3, "every second is shown"
        # One draw per second shown plus one per pixel of the bar (90 px for 60 s).
        assert 3 <= drawn <= 3 + 3 * 90 // 60 + 2, drawn
        assert g.clock_face == clock_face(g), "what is on screen is what the clock says"
        h.screenshot(artifacts / "ww_clock_idle.png")


def test_no_clock_no_ticking() -> None:
    with Harness(size=(800, 560)) as h:
        seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")]
        match = Match({"map": "classic", "auto_place": True}, 3, seats)
        while match.actor in match.bot_seats:
            match.run_bot()
        g = GameScene(h.app, match)
        h.push(g)
        h.frames(round(60 * (SETTLE_SECONDS + 0.5)))
        before = h.app.draws
        h.frames(120)
        assert not g.ticking() and h.app.draws == before
