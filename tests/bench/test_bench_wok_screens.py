"""WoK map screen frame time and idle redraws (printed with `make bench`; never asserts time).

Kaomaris (60 provinces) at 1280x800 with the dummy video driver, turn 1: the attack panel
with a source picked (target overlay, a planned attack arrow), the mouse moving over the
provinces so every frame draws the map, hover, info box, legend and the order form.
Then the screen is left alone: an idle screen should draw nothing.
"""

from __future__ import annotations

import statistics
import time

import pygame

from suite.ui.app import SETTLE_SECONDS
from suite.ui.harness import Harness
from suite.wok.screens.game import GameScene
from suite.wok.screens.match import SeatPlan, WokMatch
from suite.wok.screens.report import ReportScene

FRAMES = 240
IDLE_FRAMES = 300


def test_bench_wok_map_frame_time_and_idle() -> None:
    seats = [SeatPlan("Han"), *(SeatPlan(n, "robot") for n in ("Kor", "Mir", "Tal", "Vey"))]
    match = WokMatch.new({"map": "kaomaris"}, 5, seats)
    with Harness(size=(1280, 800)) as h:
        scene = GameScene(h.app, match, bot_delay=0.0)
        h.push(scene)
        h.frames(10)
        while isinstance(h.scene, ReportScene):
            h.key(pygame.K_RETURN, frames=2)
        h.frames(10)
        home = scene.view.colours[0].homes[0]
        h.key(pygame.K_2)
        h.click(scene.mapview.centre(home))
        first = scene.mapview.board.provinces[home].neighbours[0]
        h.click(scene.mapview.centre(first))
        h.key(pygame.K_RETURN)
        h.click(scene.mapview.centre(home))
        points = [scene.mapview.centre(p) for p in range(len(scene.view.provinces))]
        times = []
        before = h.app.draws
        for i in range(FRAMES):
            x, y = points[i % len(points)]
            h.post(pygame.MOUSEMOTION, pos=(x, y), rel=(1, 0), buttons=(0, 0, 0), touch=False)
            start = time.perf_counter()
            h.app.frame(1 / 60)
            times.append((time.perf_counter() - start) * 1000)
        median = statistics.median(times)
        assert h.app.draws - before == FRAMES, "every measured frame was drawn"
        h.frames(round(SETTLE_SECONDS * 60) + 10)
        drawn = h.app.draws
        h.frames(IDLE_FRAMES)
        idle = h.app.draws - drawn
        print(
            f"\nwok map screen, Kaomaris 60 provinces 1280x800 (dummy driver): median frame "
            f"{median:.2f} ms, p90 {sorted(times)[int(FRAMES * 0.9)]:.2f} ms over {FRAMES} "
            f"frames; idle: {idle} redraws in {IDLE_FRAMES} frames; "
            f"map layer built {scene.mapview.layers_built} times"
        )
        assert idle == 0, f"an idle WoK screen drew {idle} frames"
        pygame.event.clear()
