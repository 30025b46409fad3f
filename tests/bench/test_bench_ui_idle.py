"""Idle screens cost nothing: frames drawn and CPU used by the real app loop while nobody
touches it (printed with `make bench`; nothing asserts on time). Target: under 2 frames a
second and under 5 % of one core."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from suite.ui.app import SETTLE_SECONDS, App, Scene
from suite.ui.harness import Harness
from suite.ui.launcher import LauncherScene
from suite.worldwar.screens import open_setup

MEASURE_SECONDS = 3.0


def idle_figures(root: Callable[[App], Scene], settings_file: Path) -> tuple[float, float]:
    """Frames per second and share of one core while `root` sits idle in `App.run`."""
    harness = Harness((1280, 800), settings_file=settings_file, root=root)
    app = harness.app
    marks: list[tuple[int, float, float]] = []

    def watch() -> None:
        time.sleep(SETTLE_SECONDS + 0.5)
        marks.append((app.draws, time.process_time(), time.perf_counter()))
        time.sleep(MEASURE_SECONDS)
        marks.append((app.draws, time.process_time(), time.perf_counter()))
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    app.run()
    watcher.join()
    harness.close()
    (d0, c0, t0), (d1, c1, t1) = marks
    return (d1 - d0) / (t1 - t0), (c1 - c0) / (t1 - t0)


def _worldwar_game(app: App) -> Scene:
    """A World War map with a human to place armies (no clock): nothing moves."""
    from suite.worldwar.screens.game import GameScene
    from suite.worldwar.screens.match import Match, SeatInfo

    seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")]
    match = Match({"map": "classic", "auto_place": True}, 3, seats)
    while match.actor in match.bot_seats:
        match.run_bot()
    return GameScene(app, match)


def _worldwar_over(app: App) -> Scene:
    """World War's game-over screen of a finished bots' match."""
    from suite.worldwar.screens.gameover import GameOverScene
    from suite.worldwar.screens.match import Match, SeatInfo

    match = Match({"map": "random:18:4"}, 3, [SeatInfo("A", 0, "hard"), SeatInfo("B", 1, "easy")])
    while match.run_bot() is not None:
        pass
    return GameOverScene(app, match, None)


def _wok_game(app: App) -> Scene:
    """A WoK map (Kaomaris, 60 provinces) with a human entering orders against bots."""
    from suite.wok.screens.game import GameScene
    from suite.wok.screens.match import SeatPlan, WokMatch

    seats = [SeatPlan("Han"), *(SeatPlan(n, "general") for n in ("Kor", "Mir"))]
    match = WokMatch.new({"map": "kaomaris"}, 3, seats)
    scene = GameScene(app, match, bot_delay=0.0)
    scene.seen_report = {0: 0}  # straight to the map, not the turn-0 report
    return scene


def _tactics_setup(app: App) -> Scene:
    """The Book of Tactics (the Tactics set-up screen)."""
    from suite.tactics.screens import open_setup as open_tactics

    return open_tactics(app)


def _tactics_battle(app: App) -> Scene:
    """A Tactics battle on the bumpy map, the human's turn against a bot."""
    from suite.tactics.screens.drivers import LiveDriver
    from suite.tactics.screens.game import BattleScene
    from suite.tactics.screens.match import SeatInfo, battle_config, start_battle
    from suite.tactics.screens.profile import TacticsProfile

    seats = [SeatInfo("Commander", "human"), SeatInfo("Bot Ada", "normal")]
    config = battle_config(seats, pack=None, map_id=2, pieces_per_turn=0, army_size=6)
    session = start_battle(config, seats, 5)
    for _ in range(500):
        if 0 in session.awaiting() or session.run_bot() is None:  # type: ignore[attr-defined]
            break
    return BattleScene(app, LiveDriver(session), seats, TacticsProfile(bot_speed=3))


@pytest.mark.parametrize(
    ("name", "root"),
    [
        ("launcher", LauncherScene),
        ("worldwar setup", open_setup),
        ("worldwar game", _worldwar_game),
        ("worldwar game over", _worldwar_over),
        ("wok game", _wok_game),
        ("tactics book", _tactics_setup),
        ("tactics battle", _tactics_battle),
    ],
)
def test_idle_screens(name: str, root: Callable[[App], Scene], tmp_path: Path) -> None:
    fps, core = idle_figures(root, tmp_path / "settings.json")
    print(f"idle {name}: {fps:.2f} frames per second, {100 * core:.1f}% of one core")
