"""Automatic deployment (RULINGS R13, issue 15.8) from the screens: the set-up option deals
and places everything at once, and the "Auto-place" button (or A) places the rest of a
human's armies during the deployment; hot-seat players face no pass screens for it."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.ui.harness import Harness
from suite.worldwar.screens import open_setup
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.match import Match, SeatInfo
from suite.worldwar.screens.setup import SetupScene


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_setup_option_places_every_army_before_the_first_turn(
    size: tuple[int, int], artifacts: Path
) -> None:
    with Harness(size=size) as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        h.click(setup.deployment)
        assert setup.deployment.value is True
        h.click(setup.rows[1].kind, button=3)  # easy -> random bot
        h.screenshot(artifacts / f"ww_setup_auto_{size[0]}x{size[1]}.png")
        h.click(setup.start_button)
        game = h.scene
        assert isinstance(game, GameScene)
        v = game.match.view(None)
        assert v.phase != "setup" and not any(v.setup_left)
        starting = game.match.local.state.rules.setup.starting(2)
        assert v.turn >= 1 and sum(v.armies) >= 2 * starting - sum(game.match.luck.actual)


def test_auto_place_button_and_key_deploy_a_humans_armies(artifacts: Path) -> None:
    seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1)]  # hot seat: two humans
    match = Match({"map": "classic", "cards": "none"}, 4, seats)
    with Harness(size=(1280, 800)) as h:
        g = GameScene(h.app, match, speed=3)
        h.push(g)
        first = match.view(None).current
        h.frames(2)
        if g.human_turn() is None:  # the pass screen for the first player
            h.key(pygame.K_RETURN)
            h.frames(2)
        assert g.human_turn() == first and g.auto_button in g.controls()
        h.screenshot(artifacts / "ww_auto_place_button.png")
        h.click(g.auto_button)
        v = match.view(None)
        assert v.setup_left[first] == 0 and v.current != first
        second = v.current
        h.frames(2)
        if g.human_turn() is None:
            h.key(pygame.K_RETURN)
            h.frames(2)
        assert g.human_turn() == second
        h.key(pygame.K_a)
        v = match.view(None)
        assert v.phase == "place" and not any(v.setup_left)
        match.local.state.check()
