"""WoS Tactics battle screen frame time (printed with `make bench`; never asserts on time).

The shipped pack's Great Field (48x48, elevation bitmap: the bumpy one) at 1280x800 with
the dummy video driver, full armies of two, the human's move phase with its reach in
purple and the mouse over a reachable tile. Figures printed (median of the whole
`App.frame`, events to flip):
- idle: nothing changes, the last frame is shown again (targets 6 ms);
- static redraw: the same picture composed every frame (the map pre-rendered);
- animating: pieces hop and strike one after another, floating numbers (targets 12 ms);
- the static map's pre-render per zoom and rotation, once.
"""

from __future__ import annotations

import statistics
import time

from suite.tactics.screens.anim import Hop, Strike
from suite.tactics.screens.drivers import LiveDriver
from suite.tactics.screens.game import BattleScene
from suite.tactics.screens.iso import Projection
from suite.tactics.screens.match import SeatInfo, battle_config, start_battle
from suite.tactics.screens.profile import TacticsProfile
from suite.ui.harness import Harness

FRAMES = 240
GREAT_FIELD = 7
SEATS = [SeatInfo("You", "human"), SeatInfo("Bot", "normal")]


def _median(h: Harness, frames: int, before: object = None) -> tuple[float, float]:
    times = []
    for _ in range(frames):
        if callable(before):
            before()
        start = time.perf_counter()
        h.app.frame(1 / 60)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), sorted(times)[int(frames * 0.9)]


def test_bench_tactics_battle_frame_time() -> None:
    config = battle_config(SEATS, pack=None, map_id=GREAT_FIELD, pieces_per_turn=0)
    session = start_battle(config, SEATS, 11)
    with Harness(size=(1280, 800)) as h:
        scene = BattleScene(h.app, LiveDriver(session), SEATS, TacticsProfile(bot_speed=3))
        h.push(scene)
        for _ in range(300):
            if scene.my_turn() and not scene.show.busy:
                break
            h.frames(1)
        mine = next(p for p in scene.proxies if p.rect is not None)
        h.click(mine.rect)
        assert scene.view.phase == "move" and scene.view.reach
        spot = scene.view.reach[-1]
        h.move(scene.screen_point((spot.x, spot.y)))
        h.frames(30)
        for figure in scene.figures.values():
            figure.idle_left = 1e9  # measure idle without idle-frame swaps
        idle = _median(h, FRAMES)

        def force() -> None:
            scene.dirty = True

        static = _median(h, FRAMES, force)

        pieces = [f for f in scene.figures.values() if f.alive]

        def keep_animating() -> None:
            if scene.show.busy:
                return
            for a, b in zip(pieces, pieces[1:], strict=False):
                scene.show.add(Hop(a.uid, [(int(a.x), int(a.y)), (int(a.x), int(a.y))]))
                scene.show.add(Strike(a.uid, b.uid, "hit", 1, b.hp))

        animating = _median(h, FRAMES, keep_animating)
        projection = Projection(scene.art.grid.elevation, 1.0, 1)
        start = time.perf_counter()
        scene.art.static_map(projection, scene.field.rect)
        render = (time.perf_counter() - start) * 1000
        print(
            f"\ntactics battle screen, Great Field 48x48 bumpy, 1280x800 (dummy driver), "
            f"median (p90) over {FRAMES} frames: idle {idle[0]:.2f} ms ({idle[1]:.2f}), "
            f"static redraw {static[0]:.2f} ms ({static[1]:.2f}), animating "
            f"{animating[0]:.2f} ms ({animating[1]:.2f}); map pre-render at 100 % "
            f"{render:.0f} ms once per zoom and rotation"
        )


def test_bench_memory_after_20_battles() -> None:
    """Issue 24, item 9: resident and Python memory after 20 launch-and-leave battles from
    the Book of Tactics (printed after 1, 10 and 20 cycles; should stay flat)."""
    import gc
    import importlib.util
    import sys
    import tracemalloc
    from pathlib import Path

    from suite.tactics.screens import open_setup
    from suite.tactics.screens.setup import SetupScene
    from suite.ui.harness import Harness

    spec = importlib.util.spec_from_file_location(
        "tx_memory", Path(__file__).parents[1] / "tactics" / "test_tx_memory.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)

    def resident_mb() -> float:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * 4096 / 1e6

    tracemalloc.start()
    with Harness() as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        h.click(setup.add_bot_button)
        for cycle in range(1, 21):
            module.launch_and_leave(h, setup, cycle)
            if cycle in (1, 10, 20):
                gc.collect()
                traced = tracemalloc.get_traced_memory()[0] / 1e6
                print(
                    f"\nafter {cycle} battles: resident {resident_mb():.0f} MB, "
                    f"Python {traced:.1f} MB, battles alive {module.battles_alive()}"
                )
    tracemalloc.stop()
