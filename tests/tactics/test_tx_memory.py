"""Memory stays bounded over launch-and-leave battles (issue 24, item 9): left battles are
freed (their art and sounds with them), and the caches that outlive a battle (a terrain's
shot lines and distance fields, kept with its pack) are bounded. The bench prints the
memory after 20 cycles."""

from __future__ import annotations

import gc

from suite.tactics.rules.packs import get_terrain
from suite.tactics.rules.terrain import FIELD_CACHE_CELLS, SHOT_CACHE
from suite.tactics.screens import open_setup
from suite.tactics.screens.game import BattleScene
from suite.tactics.screens.setup import SetupScene
from suite.ui.harness import Harness


def launch_and_leave(h: Harness, setup: SetupScene, cycle: int) -> None:
    setup.map_index = cycle % 2  # the first maps need no level
    setup.launch()
    h.frames(20)
    battle = h.scene
    assert isinstance(battle, BattleScene)
    battle.leave()
    h.frames(2)
    while h.app.stack and h.scene is not setup:
        h.app.pop()
        h.frames(1)


def battles_alive() -> int:
    gc.collect()
    return sum(isinstance(o, BattleScene) for o in gc.get_objects())


def test_left_battles_are_freed() -> None:
    with Harness() as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        h.click(setup.add_bot_button)
        for cycle in range(6):
            launch_and_leave(h, setup, cycle)
            assert battles_alive() <= 1  # the last one may wait for Resume


def test_a_terrains_caches_are_bounded() -> None:
    terrain = get_terrain(None, 4)
    cells = len(terrain.movement)
    asked = 0
    for origin in range(cells):
        for bits in (1, 2, 8):
            for low, high in ((0, 1), (0, 3), (1, 4), (0, 6)):
                terrain.shot_cells(origin, bits, low, high)
                asked += 1
                assert len(terrain._shots) <= SHOT_CACHE
    assert asked > SHOT_CACHE  # more than the cache holds were asked
    for origin in range(0, cells, 3):
        terrain.distances([origin], 1)
        assert len(terrain._fields) * cells <= max(FIELD_CACHE_CELLS, cells)
    assert terrain.shot_cells(5, 1, 0, 3) == terrain.shot_cells(5, 1, 0, 3)
