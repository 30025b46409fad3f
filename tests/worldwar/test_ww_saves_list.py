"""Saves say what they hold (map, players, turn) and keep the bots' speed (issue 15.4)."""

from __future__ import annotations

from pathlib import Path

from suite.ui.dialogs import MenuScene
from suite.ui.harness import Harness
from suite.worldwar.screens import open_setup
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.match import Match, SeatInfo, save_summary, saves_dir
from suite.worldwar.screens.setup import SetupScene


def test_a_save_lists_its_map_players_and_turn_and_resumes_at_its_bot_speed(
    artifacts: Path,
) -> None:
    seats = [SeatInfo("Ann", 0, "human"), SeatInfo("Bo", 1, "hard")]
    match = Match({"map": "classic", "cards": "none", "auto_place": True}, 8, seats)
    match.speed = 3
    path = saves_dir() / "game.json"
    match.save(path)
    assert save_summary(path) == "Classic world: Ann, Bo, turn 1"
    back = Match.load(path)
    assert back.speed == 3 and back.summary() == match.summary()
    (saves_dir() / "broken.json").write_text("{", encoding="utf-8")
    assert save_summary(saves_dir() / "broken.json") is None
    with Harness(size=(800, 560)) as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene) and setup.speed.index != 3
        h.click(setup.resume_button)
        menu = h.scene
        assert isinstance(menu, MenuScene)
        labels = [b.label for b in menu.buttons]
        assert any(label.startswith("Classic world: Ann, Bo, turn 1") for label in labels)
        h.screenshot(artifacts / "ww_resume_list.png")
        h.click(next(b for b in menu.buttons if b.label.startswith("Classic world")))
        game = h.scene
        assert isinstance(game, GameScene) and game.speed.index == 3
