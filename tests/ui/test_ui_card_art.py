"""Every game's launcher picture (drawn by its own screens package) renders at any size."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pytest

from suite.core.match import registered_games
from suite.ui import card_art
from suite.ui.game_cards import load_ui

Art = Callable[[tuple[int, int]], pygame.Surface]


def _arts() -> list[object]:
    arts: list[object] = [pytest.param(card_art.placeholder_art("New Game"), id="placeholder")]
    for name, spec in sorted(registered_games().items()):
        ui, problem = load_ui(spec)
        assert problem is None, f"{name}: {problem}"
        if ui is not None:
            arts.append(pytest.param(ui.art, id=name))
    return arts


@pytest.fixture(autouse=True)
def _display() -> None:
    pygame.display.init()


@pytest.mark.parametrize("draw", _arts())
@pytest.mark.parametrize("size", [(120, 80), (420, 300), (700, 380)])
def test_art_fills_the_requested_size_with_a_picture(draw: Art, size: tuple[int, int]) -> None:
    art = draw(size)
    assert art.get_size() == size
    colours = {art.get_at((x, y))[:3] for x in range(0, size[0], 7) for y in range(0, size[1], 7)}
    assert len(colours) > 12
    grey = card_art.greyed(art)
    assert grey.get_size() == size
    r, g, b, _ = pygame.transform.average_color(grey)
    assert max(r, g, b) - min(r, g, b) < 40  # washed out, no strong hue left


@pytest.mark.parametrize("draw", _arts())
def test_art_is_the_same_every_time(draw: Art) -> None:
    first = pygame.image.tobytes(draw((200, 120)), "RGB")
    assert pygame.image.tobytes(draw((200, 120)), "RGB") == first
