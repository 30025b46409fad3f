"""The occupation slider offers the whole range the view gives (issue 15.1, RULINGS R9):
from a territory of 10 after a 3-dice conquest the player may move 9 (the 3 already in
count), at 800x560 and 1920x1080, driven by clicks and keys."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.ui.harness import Harness
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.match import Match, SeatInfo


def human_attacks(h: Harness, g: GameScene) -> None:
    """Deploy and reinforce on the first own territory until the human may attack."""
    match = g.match
    for _ in range(3000):
        seat = g.human_turn()
        v = match.view(None)
        if seat is not None and v.phase == "attack":
            return
        if seat is not None:
            mine = v.owner.index(seat)
            g.place(mine, v.to_place())
        h.frames(1)
    raise AssertionError("the human never got to attack")


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_occupy_slider_reaches_all_but_the_army_left_behind(
    size: tuple[int, int], artifacts: Path
) -> None:
    seats = [SeatInfo("You", 0, "human"), SeatInfo("Bot", 1, "easy")]
    match = Match({"map": "classic", "cards": "none"}, 21, seats)
    with Harness(size=size) as h:
        g = GameScene(h.app, match, speed=3)
        h.push(g)
        human_attacks(h, g)
        st = match.local.state  # the test's own hand on the local engine: set the stage
        v = match.view(0)
        source, target = next(
            (s, t)
            for s in range(len(v.owner))
            if v.owner[s] == 0
            for t in v.map.neighbours[s]
            if v.owner[t] != 0
        )
        for _ in range(50):
            st.armies[source], st.armies[target] = 10, 1
            g.clear_selection()
            h.click(g.map.point_in(source))
            h.click(g.map.point_in(target))
            assert g.selected == source and g.target == target and g.dice == 3
            h.key(pygame.K_SPACE)
            if match.view(0).phase == "occupy":
                break
        h.frames(2)
        occupy = match.view(0).occupy
        assert occupy is not None and (occupy.min, occupy.max) == (3, 9)
        assert g.slider is not None and (g.slider.lo, g.slider.hi, g.slider.value) == (3, 9, 9)
        h.screenshot(artifacts / f"ww_occupy_{size[0]}x{size[1]}.png")
        h.key(pygame.K_LEFT)
        h.key(pygame.K_RETURN)
        after = match.view(0)
        assert after.phase == "attack"
        assert (after.armies[source], after.armies[target]) == (2, 8)
