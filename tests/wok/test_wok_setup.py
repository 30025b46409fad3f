"""The WoK set-up screen by posted events: headhunting turns and typed player names reach
the started game's view; bad names are refused with the reason; screenshots at two sizes."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.ui.harness import Harness
from suite.wok.screens import open_setup
from suite.wok.screens.game import GameScene
from suite.wok.screens.kit import Stepper
from suite.wok.screens.setup import SetupScene

SIZES = ((800, 560), (1920, 1080))


def choose(h: Harness, stepper: Stepper, value: str, *, arrow: str = "right") -> None:
    """Click one arrow of the stepper until it shows `value` (fails if it never does)."""
    for _ in range(len(stepper.choices)):
        if stepper.value == value:
            return
        h.click(getattr(stepper, arrow))
    assert stepper.value == value, f"{value!r} is not among {stepper.choices}"


def started_game(h: Harness, setup: SetupScene) -> GameScene:
    h.click(setup.start_button)
    game = next(s for s in h.app.stack if isinstance(s, GameScene))
    return game


def back_to(h: Harness, setup: SetupScene) -> None:
    while h.app.scene is not setup:
        h.app.pop()


def test_headhunting_turns_set_on_the_setup_reach_the_game() -> None:
    with Harness(size=(800, 560), root=open_setup) as h:
        setup = h.scene
        assert isinstance(setup, SetupScene)
        assert setup.headhunting.value == "1"  # Skirmish's figure (rules data)
        h.click(setup.headhunting.right)
        h.click(setup.headhunting.right)
        assert setup.headhunting.value == "3"
        game = started_game(h, setup)
        assert game.view.variant.protect_home_until == 3
        back_to(h, setup)
        choose(h, setup.variant, "duel")
        assert setup.headhunting.value == "3"  # the duel's own figure
        choose(h, setup.variant, "skirmish")
        assert setup.headhunting.value == "1"
        h.click(setup.headhunting.left)
        assert setup.headhunting.value == "0"
        game = started_game(h, setup)
        assert game.view.variant.protect_home_until == 0
        assert not any("*" in mark for mark in game.mapview.marks)  # no home shows as safe
        back_to(h, setup)
        choose(h, setup.headhunting, "99", arrow="left")  # 0 steps back round to the top
        game = started_game(h, setup)
        assert game.view.variant.protect_home_until == 99


def test_player_names_are_typed_into_their_boxes() -> None:
    with Harness(size=(1280, 800), root=open_setup) as h:
        setup = h.scene
        assert isinstance(setup, SetupScene)
        seed = setup.seed
        first, second = setup.names[0], setup.names[1]
        h.click(first)
        assert first.typing
        for _ in range(len(first.text)):
            h.key(pygame.K_BACKSPACE)
        h.type_text("Ann 2")  # digits go to the name, not the seed
        h.key(pygame.K_RETURN)  # ends typing; does not start the game
        assert not first.typing and isinstance(h.scene, SetupScene)
        assert first.text == "Ann 2" and setup.seed == seed
        h.click(second)
        for _ in range(len(second.text)):
            h.key(pygame.K_BACKSPACE)
        h.key(pygame.K_ESCAPE)  # ends typing; the set-up stays
        assert h.scene is setup and not second.typing
        h.click(setup.start_button)
        assert h.scene is setup and "name 2 is empty" in setup.message
        h.click(second)
        h.type_text("ann 2")
        h.click(setup.start_button)  # the click ends typing, then starts
        assert h.scene is setup and "two players are named 'ann 2'" in setup.message
        h.key(pygame.K_BACKSPACE)  # not typing any more: Backspace edits the seed
        assert setup.seed == seed // 10
        h.click(second)
        h.key(pygame.K_BACKSPACE)
        h.type_text("B" * 40)  # the box takes the most a name may have
        assert second.text == "ann " + "B" * 12
        h.click(setup.start_button)
        game = next(s for s in h.app.stack if isinstance(s, GameScene))
        names = [p.name for p in game.view.players]
        assert names == ["Ann 2", "ann " + "B" * 12]
        assert [s.name for s in game.match.seats] == names


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_setup_screenshots(size: tuple[int, int], artifacts: Path) -> None:
    with Harness(size=size, root=open_setup) as h:
        setup = h.scene
        assert isinstance(setup, SetupScene)
        choose(h, setup.map, "star-islands")
        choose(h, setup.players, "5")
        h.click(setup.headhunting.right)
        h.click(setup.names[2])
        for _ in range(3):
            h.key(pygame.K_BACKSPACE)
        h.type_text("Miriam")
        h.screenshot(artifacts / f"wok_setup_names_{size[0]}x{size[1]}.png")
        assert setup.names[2].text == "Miriam" and setup.headhunting.value == "2"
