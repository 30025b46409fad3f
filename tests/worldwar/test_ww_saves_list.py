"""Saves say what they hold (map, players, turn) and keep the bots' speed (issue 15.4)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.core.store import SaveError
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


def broken_saves(good: dict[str, object]) -> dict[str, dict[str, object]]:
    """Saves a hand or a bug could write: the good one with one part wrong."""
    seats = good["seats"]
    assert isinstance(seats, list)
    out: dict[str, dict[str, object]] = {
        "short seats": {**good, "seats": seats[:1]},
        "long seats": {**good, "seats": [*seats, seats[0]]},
        "seat kind": {**good, "seats": [seats[0], {**seats[1], "kind": "online"}]},
        "seat colour": {**good, "seats": [seats[0], {**seats[1], "colour": -1}]},
        "seat not an object": {**good, "seats": [seats[0], 7]},
        "log seat": {**good, "log": [{"text": "x", "seat": 5}]},
        "luck": {**good, "luck": {"actual": [0.0], "expected": [0.0]}},
        "history": {**good, "history": [{"turn": 1, "territories": [1], "armies": [1]}]},
        "seats not a list": {**good, "seats": {"a": 1}},
    }
    replay = good["replay"]
    assert isinstance(replay, dict)
    out["bad action"] = {
        **good,
        "replay": {**replay, "actions": [{"seat": 0, "action": {"kind": "place"}}]},
    }
    return out


def test_every_save_is_checked_before_it_is_listed(artifacts: Path) -> None:
    """A save whose seats list is shorter than its players (and every other broken save)
    is listed as one that cannot be resumed, and picking it says why: no crash."""
    from suite.core.store import load_document, save_document
    from suite.worldwar.rules import SAVE_KIND
    from suite.worldwar.screens.match import check_save

    seats = [SeatInfo("Ann", 0, "human"), SeatInfo("Bo", 1, "easy"), SeatInfo("Cy", 2, "easy")]
    match = Match({"map": "classic", "cards": "none", "auto_place": True}, 8, seats)
    good = saves_dir() / "good.json"
    match.save(good)
    data = load_document(good, SAVE_KIND)
    assert check_save(good) == (match.summary(), None)
    for name, broken in broken_saves(data).items():
        path = saves_dir() / f"{name.replace(' ', '-')}.json"
        save_document(path, SAVE_KIND, broken)
        label, problem = check_save(path)
        assert problem is not None and label.startswith("Cannot resume: "), name
        with pytest.raises(SaveError):
            Match.load(path)
        if name not in ("short seats", "seat kind"):
            path.unlink()  # the list shows the newest few
    with Harness(size=(800, 560)) as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        h.click(setup.resume_button)
        menu = h.scene
        assert isinstance(menu, MenuScene)
        h.screenshot(artifacts / "ww_resume_checked.png")
        assert menu.buttons[0].label.startswith("Classic world")  # the usable save first
        short = next(b for b in menu.buttons if "1 seat for 3 players" in b.label)
        assert short.label.startswith("Cannot resume")
        h.click(short)
        assert h.scene is setup
        assert any("1 seat for 3 players" in n for n in h.notices)


def test_every_match_keeps_its_own_autosave_listed_like_saves() -> None:
    """Leave a game, start another: the first one's autosave is still there and resumes;
    only the newest AUTOSAVES_KEPT autosaves are kept."""
    from suite.worldwar.screens.match import AUTOSAVES_KEPT, is_autosave, list_saves

    with Harness(size=(800, 560)) as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        first = setup.start()
        assert first is not None
        first_state = first.match.local.state.to_dict()
        first_file = first.match.autosave
        h.app.pop()
        for _ in range(AUTOSAVES_KEPT + 1):
            game = setup.start()
            assert game is not None and game.match.autosave != first_file
            h.app.pop()
        autosaves = [p for p in list_saves() if is_autosave(p)]
        assert len(autosaves) == AUTOSAVES_KEPT
        assert first_file not in autosaves  # the oldest went
        newest = autosaves[0]
        h.click(setup.resume_button)
        menu = h.scene
        assert isinstance(menu, MenuScene)
        assert sum(b.label.startswith("Autosave: ") for b in menu.buttons) == AUTOSAVES_KEPT
        h.key(pygame.K_ESCAPE)
        resumed = setup.load(newest)
        assert resumed is not None and resumed.match.autosave == newest
        assert first_state is not None
