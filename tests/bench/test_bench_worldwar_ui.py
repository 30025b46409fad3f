"""World War map screen frame time (printed with `make bench`; never asserts on time).

The classic map at 1280x800 with the dummy video driver, mid-game: the human's attack
phase with a source selected and the mouse over a territory, so the frame draws the map,
hover and selection outlines, badges, panels, log and tooltips like a real one.
"""

from __future__ import annotations

import statistics
import time

import pygame

from suite.ui.harness import Harness
from suite.worldwar.rules.actions import Place
from suite.worldwar.rules.engine import WorldWarState
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.match import Match, SeatInfo

FRAMES = 240


def test_bench_classic_map_frame_time() -> None:
    seats = [SeatInfo("You", 0, "human"), SeatInfo("Bot", 1, "easy"), SeatInfo("Bot 2", 2, "hard")]
    session = Match({"map": "classic", "cards": "increasing"}, 3, seats)
    with Harness(size=(1280, 800)) as h:
        scene = GameScene(h.app, session, speed=3)
        h.push(scene)
        for _ in range(2000):  # deploy and reinforce until the human attacks
            seat = scene.human_turn()
            st = session.local.state
            if seat is not None and st.phase == "attack":
                break
            if seat is not None:
                mine = next(t for t in range(len(st.owner)) if st.owner[t] == seat)
                session.act(seat, st.legal(seat)[0] if st.phase == "cards" else _place(st, mine))
            h.frames(1)
        st = session.local.state
        seat = scene.human_turn()
        assert seat is not None and st.phase == "attack"
        source = max(
            (t for t in range(len(st.owner)) if st.owner[t] == seat), key=lambda t: st.armies[t]
        )
        scene.selected = source
        h.move(scene.map.label_screen(st.topo.adj[source][0]))
        h.frames(60)
        times = []
        for _ in range(FRAMES):
            start = time.perf_counter()
            h.app.frame(1 / 60)
            times.append((time.perf_counter() - start) * 1000)
        median = statistics.median(times)
        print(
            f"\nworldwar map screen, classic 1280x800 (dummy driver): median frame "
            f"{median:.2f} ms, p90 {sorted(times)[int(FRAMES * 0.9)]:.2f} ms over {FRAMES} frames"
        )
        pygame.event.clear()


def _place(st: WorldWarState, t: int) -> Place:
    return Place(st.topo.ids[t], st.step_left if st.phase == "setup" else st.pool)
