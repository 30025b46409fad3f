"""Issue 23 item 7: the players list never covers the map, at any window size (it takes
its own column or strip; L hides it and the map takes the room)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.ui.harness import Harness
from suite.wok.screens.game import GameScene
from suite.wok.screens.match import SeatPlan, WokMatch

from .test_wok_screen_parts import close_reports  # noqa: TID252

NAMES = ("Han", "Kor", "Mir", "Tal", "Vey", "Sol", "Ura", "Bex", "Dov", "Fen")
SIZES = ((800, 560), (1024, 640), (1280, 800), (1366, 768), (1920, 1080), (2560, 1440))


def _match(config: dict[str, object], seats: int) -> WokMatch:
    plans = [SeatPlan("Han"), *(SeatPlan(n, "general") for n in NAMES[1:seats])]
    return WokMatch.new(config, 5, plans)


def _assert_clear(scene: GameScene) -> None:
    legend = scene.legend
    assert legend is not None
    assert scene.map_rect.contains(legend.rect)
    assert not legend.rect.colliderect(scene.mapview.rect), "the map's area starts past it"
    for p in range(len(scene.view.provinces)):
        assert not legend.rect.colliderect(scene.mapview.bounds(p)), f"province {p} covered"
    dots = {dot for row in legend.rows for dot, *_ in row if dot is not None}
    assert dots == {p.colour for p in scene.view.players}, "every colour is listed"


@pytest.mark.parametrize(
    ("config", "seats"),
    [
        ({"players": 10, "map": "kaomaris"}, 10),
        ({"variant": "trinity", "map": "kaomaris"}, 3),
        ({"variant": "duel", "map": "kaomaris"}, 2),
    ],
    ids=("ten", "trinity", "duel"),
)
def test_the_players_list_never_covers_the_map(
    config: dict[str, object], seats: int, artifacts: Path
) -> None:
    match = _match(config, seats)
    with Harness(size=SIZES[0]) as h:
        scene = GameScene(h.app, match, bot_delay=1e9)
        h.push(scene)
        close_reports(h)
        for size in SIZES:
            h.resize(size)
            _assert_clear(scene)
            if size in ((800, 560), (1920, 1080)):
                tag = f"{size[0]}x{size[1]}"
                h.screenshot(
                    artifacts / f"wok_players_{config.get('variant', 'skirmish')}_{seats}_{tag}.png"
                )
        area = pygame.Rect(scene.mapview.rect)
        scene.bot_delay = 0.0  # the bots get ready: "(ready)" marks, the map stays put
        h.frames(30)
        assert scene.view.ready and scene.mapview.rect == area
        h.key(pygame.K_l)  # hidden: the map takes the whole area
        assert scene.legend is None and scene.mapview.rect == scene.map_rect
        assert scene.mapview.rect.contains(area)
        h.key(pygame.K_l)
        _assert_clear(scene)
