"""World War map screen frame time (printed with `make bench`; never asserts on time).

The classic map at 1280x800 with the dummy video driver, mid-game: the human's attack
phase with a source selected and the mouse over a territory, so the frame draws the map,
hover and selection outlines, badges, panels, log and tooltips like a real one.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pygame

from suite.core.thinking import shared_thinker
from suite.ui.app import App, Scene
from suite.ui.harness import Harness
from suite.worldwar.rules.actions import Place
from suite.worldwar.rules.engine import WorldWarState
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.match import Match, SeatInfo
from tests.bench.test_bench_ui_idle import idle_figures

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


def _clock_game(app: App) -> Scene:
    """A World War map where a human thinks while a 90 s turn clock runs down."""
    seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")]
    match = Match({"map": "classic", "auto_place": True, "clock": 90}, 3, seats)
    while match.actor in match.bot_seats:
        match.run_bot()
    return GameScene(app, match)


def test_bench_idle_game_with_the_turn_clock_running(tmp_path: Path) -> None:
    """The idle-screens bench (test_bench_ui_idle) on the game screen while the turn clock
    counts: it redraws when the clock's face changes, not at 60 frames a second."""
    fps, core = idle_figures(_clock_game, tmp_path / "settings.json")
    print(f"\nidle worldwar game, clock running: {fps:.2f} frames per second, ", end="")
    print(f"{100 * core:.1f}% of one core")


def test_bench_drawn_map_layout() -> None:
    """How long laying out a picture-less Domination map takes (once per map: the set-up
    preview and the game share it), for the classic 42 and a generated 150."""
    from suite.worldwar.rules.domination import parse_domination
    from suite.worldwar.rules.maps import classic_map, resolve_map
    from suite.worldwar.screens import drawn
    from tests.worldwar.test_ww_drawn_maps import domination_text

    for board in (classic_map(), resolve_map("random:150:12", 1)):
        points = [board[t].label or (0.0, 0.0) for t in board.ids()]
        text = domination_text(board, points)
        start = time.perf_counter()
        layout = drawn._layout(parse_domination(text, "bench.map"))
        took = time.perf_counter() - start
        shared = len(drawn.graph_pairs(board)) - len(layout.lines)
        print(
            f"\ndrawn map of {len(board)} territories: {took * 1000:.0f} ms, grid {layout.size}, "
            f"{shared} shared borders, {len(layout.lines)} lines"
        )


THINKING_SECONDS = 20.0
"""How long the thinking bench plays (wall-clock), the mouse moving all the while."""


def test_bench_frames_while_the_expert_thinks(artifacts: Path) -> None:
    """Issue 25: the window keeps drawing while the expert searches in its worker process.
    Three experts and a hard bot play the classic map at "fast" on a real clock while the
    mouse sweeps the map; every frame is timed: those during which an expert thought and
    no move landed, and those in which a move landed (the map repaints). Had the expert
    thought on the window's thread, its frame would have taken its whole decision time
    (the strength bench prints those)."""
    shared_thinker().patience = 0.0  # the window does not wait (conftest: 60 s)
    seats = [SeatInfo(f"Bot {i}", i, "expert" if i else "hard") for i in range(4)]
    match = Match({"map": "classic", "cards": "increasing"}, 5, seats)
    thinking: list[float] = []
    landed: list[float] = []
    with Harness(size=(1280, 800)) as h:
        scene = GameScene(h.app, match, speed=2)
        h.push(scene)
        area = scene.map.rect
        began = last = time.perf_counter()
        step = 0
        while time.perf_counter() - began < THINKING_SECONDS and not match.over:
            step += 1
            x = area.left + (step * 7) % max(1, area.width)
            y = area.top + (step * 3) % max(1, area.height)
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(1, 1)))
            was_thinking, moves = match.thinking, match.moves
            start = time.perf_counter()
            h.app.frame(min(start - last, 0.1))
            spent = (time.perf_counter() - start) * 1000
            last = start
            if match.moves != moves:
                landed.append(spent)
            elif was_thinking:
                thinking.append(spent)
            time.sleep(max(0.0, 1 / 60 - spent / 1000))
        h.screenshot(artifacts / "bench-expert-thinking.png")
        match.stop_thinking()
        pygame.event.clear()
    assert thinking and landed, "no frame was drawn while an expert thought"
    thinking.sort()
    print(
        f"\nworldwar frames while experts think (classic 1280x800, dummy driver, "
        f"{THINKING_SECONDS:.0f} s, {match.moves} moves): {len(thinking)} frames while one "
        f"thought: longest {thinking[-1]:.1f} ms, p99 {thinking[int(len(thinking) * 0.99)]:.1f} "
        f"ms, median {statistics.median(thinking):.2f} ms; frames in which a move landed: "
        f"longest {max(landed):.1f} ms, median {statistics.median(landed):.1f} ms"
    )
