"""A whole WoS Tactics battle, human against a bot, played through the screens with
posted mouse and key events, to game over and the replay watched again.

The test reads the seat's view only to decide where a player would click (as a person
looks at the screen); every command of the human is a real pygame event: proxy buttons
(which select a piece and centre the view), clicks on purple tiles and orange enemies,
the Skip buttons, End Turn with its confirmation. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.tactics.rules.view import TacticsView
from suite.tactics.screens import open_setup
from suite.tactics.screens import setup as setup_screen
from suite.tactics.screens.drivers import ReplayDriver
from suite.tactics.screens.game import SPEEDS, BattleScene
from suite.tactics.screens.gameover import GameOverScene
from suite.tactics.screens.setup import SetupScene
from suite.ui.dialogs import ConfirmScene, MenuScene
from suite.ui.harness import Harness

MAX_STEPS = 6000


def configure(h: Harness, setup: SetupScene) -> None:
    """Two pieces an army, one normal bot playing instantly, by clicks."""
    while setup.army_size != 2:
        h.click(setup.size_button)
    while setup.profile.bot_speed != 3:
        h.click(setup.speed_button)
    h.click(setup.add_bot_button)
    assert [s.kind for s in setup.seats] == ["human", "normal"]


def distance(view: TacticsView, a: tuple[int, int], seat: int) -> int:
    enemies = [(p.x, p.y) for p in view.pieces if p.alive and p.owner != seat]
    return min(abs(a[0] - x) + abs(a[1] - y) for x, y in enemies)


def command(h: Harness, battle: BattleScene) -> None:
    """One click of the human, chosen from what the screen shows."""
    view = battle.view
    seat = battle.viewer
    assert seat is not None
    if view.phase == "select":
        ready = [p for p in view.pieces if p.uid in view.commandable]
        if not ready:
            h.click(battle.tools[3])  # End Turn
            return
        proxy = next(p for p in battle.proxies if p.uid == ready[0].uid and p.rect is not None)
        h.click(proxy.rect)
        assert battle.view.selected == ready[0].uid
    elif view.phase == "move":
        selected = next(p for p in view.pieces if p.uid == view.selected)
        if not view.reach:
            h.click(battle.tools[1])  # Skip Move
            return
        best = min(view.reach, key=lambda r: (not r.targets, distance(view, (r.x, r.y), seat)))
        here = distance(view, (selected.x, selected.y), seat)
        if not best.targets and distance(view, (best.x, best.y), seat) >= here:
            h.key(pygame.K_m)  # Skip Move by key
            return
        battle.field.look_at((best.x, best.y))
        h.move(battle.screen_point((best.x, best.y)))
        h.frames(12)
        assert battle.hover_cell == (best.x, best.y)
        h.click(battle.screen_point((best.x, best.y)))
        assert battle.view.phase != "move" or battle.view.selected != selected.uid
    elif view.phase == "attack":
        if not view.targets:
            h.click(battle.tools[2])  # Skip Attack
            return
        target = next(p for p in view.pieces if p.uid == view.targets[0])
        battle.field.look_at((target.x, target.y))
        h.move(battle.screen_point((target.x, target.y)))
        h.frames(12)  # the popup with the forecast opens
        assert battle.hover_uid == target.uid
        h.click(battle.screen_point((target.x, target.y)))


@pytest.mark.parametrize("seed", [7, 12])
def test_human_beats_or_loses_to_a_bot_by_clicks(
    artifacts: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(setup_screen.secrets, "randbelow", lambda _n: seed)
    with Harness(size=(1280, 800)) as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        configure(h, setup)
        h.click(setup.launch_button)
        battle = h.scene
        assert isinstance(battle, BattleScene)
        h.key(pygame.K_MINUS)
        steps = 0
        shots = 0
        while not isinstance(h.scene, GameOverScene) and steps < MAX_STEPS:
            steps += 1
            scene = h.scene
            if isinstance(scene, ConfirmScene):
                h.click(scene.confirm_button)
            elif isinstance(scene, BattleScene) and scene.my_turn() and not scene.show.busy:
                command(h, scene)
                if shots == 0 and scene.view.phase == "attack" and scene.view.targets:
                    h.screenshot(artifacts / "tx_battle_attack.png")
                    shots += 1
            else:
                h.frames(1)
        over = h.scene
        assert isinstance(over, GameOverScene), f"no game over after {steps} steps"
        outcome = over.view.outcome
        assert outcome is not None and len(outcome.places) == 2
        assert over.replay_path is not None and over.replay_path.exists()
        assert over.record is not None  # recorded: bots count for wins, never for rating
        assert set(over.record.elo) == {setup.name}
        h.screenshot(artifacts / "tx_game_over.png")
        for size in ((800, 560), (1920, 1080)):
            h.resize(size)
            h.screenshot(artifacts / f"tx_game_over_{size[0]}x{size[1]}.png")
        h.resize((1280, 800))
        # the replay is watchable (slowly, pausing, then fast): it plays to the same end
        setup.profile.bot_speed = 0
        h.click(over.watch_button)
        watch = h.scene
        assert isinstance(watch, BattleScene) and watch.watching
        h.key(pygame.K_SPACE)
        assert watch.paused
        assert isinstance(watch.driver, ReplayDriver)
        step = watch.driver.next
        h.frames(90)
        assert watch.driver.next == step  # a paused replay stands still
        h.key(pygame.K_SPACE)
        h.frames(90)
        assert watch.driver.next > step
        for _ in range(3):  # the battle menu's speed entry: slow, normal, fast, instant
            h.key(pygame.K_ESCAPE)
            menu = h.scene
            assert isinstance(menu, MenuScene)
            h.click(menu.buttons[2])
        assert SPEEDS[watch.speed][1] == "instant"
        for _ in range(4000):
            if isinstance(h.scene, GameOverScene):
                break
            h.frames(1)
        again = h.scene
        assert isinstance(again, GameOverScene) and again.watched
        assert again.view.outcome == outcome
        h.click(again.book_button)
        assert h.scene is setup
