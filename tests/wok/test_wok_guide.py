"""Issue 23 item 1: the guided first turn, offered on a profile's first WoK game (and
remembered), walks through each phase, asks for one order where one can be given now,
explains Ready, and can be skipped."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.ui.harness import Harness
from suite.wok.rules.draft import TITLES
from suite.wok.screens import open_setup
from suite.wok.screens.game import GameScene
from suite.wok.screens.guide import guide_file, guide_offered, remember_offered
from suite.wok.screens.report import ReportScene
from suite.wok.screens.setup import SetupScene
from suite.wok.screens.timer import TimedConfirm

from .test_wok_screen_play import assert_idle  # noqa: TID252

SIZES = ((800, 560), (1920, 1080))


def start_from_setup(h: Harness, seed: int = 5) -> GameScene:
    setup = h.scene
    assert isinstance(setup, SetupScene)
    setup.seed = seed
    h.key(pygame.K_RETURN, frames=2)  # Start
    game = next(s for s in h.app.stack if isinstance(s, GameScene))
    game.bot_delay = 0.0
    for _ in range(4):
        if isinstance(h.scene, ReportScene):
            h.key(pygame.K_RETURN, frames=2)
    return game


@pytest.mark.parametrize("seed", [5, 11, 23, 42])
def test_the_first_game_of_a_profile_offers_a_guided_turn_once(seed: int, artifacts: Path) -> None:
    profile = "Newcomer"
    assert not guide_offered(profile)
    with Harness(size=SIZES[0], root=open_setup) as h:
        h.app.settings.name = profile
        game = start_from_setup(h, seed)
        assert isinstance(h.scene, TimedConfirm) and h.scene.question == "Your first game of WoK"
        assert guide_offered(profile)  # remembered whatever the answer
        h.screenshot(artifacts / "wok_guide_offer_800x560.png")
        h.key(pygame.K_RETURN, frames=2)  # Show me
        assert h.scene is game and game.guide is not None
        guide = game.guide
        titles = [s.title for s in guide.steps]
        assert titles[0] == "Your first turn" and titles[-2:] == ["Ready", "What next"]
        assert [t.split(". ", 1)[1] for t in titles[2:-2]] == [TITLES[p] for p in game.form.phases]
        for size in SIZES:
            h.resize(size)
            h.screenshot(artifacts / f"wok_guide_1_{size[0]}x{size[1]}.png")
        h.resize(SIZES[0])
        assert_idle(h)  # the guide's box is still: nothing redraws until input
        h.click(guide.next_button)
        assert guide.step.title == "Your home" and guide.step.target() is not None
        home = game.view.colours[0].homes[0]
        assert guide.step.target() == game.mapview.bounds(home)
        h.click(guide.next_button)
        tried = 0
        while guide.step.title != "Ready":
            step = guide.step
            assert step.phase is not None and game.form.phase == step.phase  # its tab opens
            assert step.target() == game.form.tabs[step.phase].rect
            if step.done is None:
                h.click(guide.next_button)
                continue
            assert "Try it:" in step.text
            before = guide.index
            assert not guide.rect.collidepoint(game.mapview.centre(home)), "the box hides home"
            h.click(game.mapview.centre(home))
            if step.phase == "attacks":
                free = [
                    n
                    for n in game.view.map.provinces[home].neighbours
                    if not guide.rect.collidepoint(game.mapview.centre(n))
                ]
                assert free, "the box hides every neighbour"
                h.click(game.mapview.centre(free[0]))
                h.click(next(b for b in game.form.steps if b.label == "+1"))
            if step.phase == "transforms":
                for size in SIZES:
                    h.resize(size)
                    h.screenshot(artifacts / f"wok_guide_try_{seed}_{size[0]}x{size[1]}.png")
                h.resize(SIZES[0])
            h.key(pygame.K_m)
            h.key(pygame.K_RETURN)  # Add order: the step moves on by itself
            assert guide.index == before + 1, f"{step.title}: no order added"
            tried += 1
        assert tried >= 2  # at least an attack and an aim can be given on turn 1
        assert guide.step.target() == game.form.ready_button.rect
        h.screenshot(artifacts / "wok_guide_ready_800x560.png")
        h.key(pygame.K_r, frames=2)
        if isinstance(h.scene, TimedConfirm):  # risky orders: Ready anyway
            h.key(pygame.K_RETURN, frames=3)
        h.frames(3)
        for _ in range(3):  # the turn ran: its report opens first
            if isinstance(h.scene, ReportScene):
                h.key(pygame.K_RETURN, frames=2)
        assert h.scene is game and guide.step.title == "What next"
        h.screenshot(artifacts / "wok_guide_next_800x560.png")
        h.click(guide.next_button)  # Finish
        assert game.guide is None
    with Harness(size=SIZES[0], root=open_setup) as h:  # the same profile: no offer again
        h.app.settings.name = profile
        game = start_from_setup(h)
        assert h.scene is game and game.guide is None


def test_the_tour_can_be_skipped_and_a_broken_file_offers_it_again() -> None:
    guide_file().parent.mkdir(parents=True, exist_ok=True)
    guide_file().write_text("{broken")
    assert not guide_offered("Someone")
    remember_offered("Someone")
    remember_offered("Other")
    assert guide_offered("Someone") and guide_offered("Other")
    with Harness(size=SIZES[0], root=open_setup) as h:
        h.app.settings.name = "Third"
        game = start_from_setup(h)
        h.key(pygame.K_RETURN, frames=2)  # Show me
        assert game.guide is not None
        h.click(game.guide.skip_button)
        assert game.guide is None
        game.start_guide()  # again from the menu's "Guided turn"
        assert game.guide is not None
        h.key(pygame.K_ESCAPE)  # Esc ends it (the menu does not open)
        assert game.guide is None and h.scene is game
