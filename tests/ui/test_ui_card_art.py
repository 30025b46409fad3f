"""The launcher's drawn artwork renders at any card size."""

from __future__ import annotations

import pygame
import pytest

from suite.ui import card_art

ARTS = [card_art.worldwar_art, card_art.wok_art, card_art.tactics_art]


@pytest.fixture(autouse=True)
def _display() -> None:
    pygame.display.init()


@pytest.mark.parametrize("draw", ARTS)
@pytest.mark.parametrize("size", [(120, 80), (420, 300), (700, 380)])
def test_art_fills_the_requested_size_with_a_picture(draw, size: tuple[int, int]) -> None:
    art = draw(size)
    assert art.get_size() == size
    colours = {art.get_at((x, y))[:3] for x in range(0, size[0], 7) for y in range(0, size[1], 7)}
    assert len(colours) > 12
    grey = card_art.greyed(art)
    assert grey.get_size() == size
    r, g, b, _ = pygame.transform.average_color(grey)
    assert max(r, g, b) - min(r, g, b) < 40  # washed out, no strong hue left


def test_art_is_the_same_every_time() -> None:
    first = pygame.image.tobytes(card_art.wok_art((200, 120)), "RGB")
    assert pygame.image.tobytes(card_art.wok_art((200, 120)), "RGB") == first
