"""The continent legend never covers a territory (issue 22 item 2): it goes where no
territory, name or army badge lies, or folds, at every window size and after every
resize, on the classic map and on a Domination map drawn without its picture."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest

from suite.ui.harness import Harness
from suite.worldwar.rules.maps import classic_map
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.hud import legend_box, legend_header
from suite.worldwar.screens.match import Match, SeatInfo
from tests.worldwar.test_ww_drawn_maps import domination_text

SIZES = [(1280, 800), (800, 560), (1920, 1080), (1024, 640)]


def covered(g: GameScene, box: pygame.Rect) -> int:
    """Land pixels, badges and names of the map under `box`."""
    m = g.map
    assert m._ids is not None
    ox, oy = round(m.pan[0]) - m.rect.x, round(m.pan[1]) - m.rect.y
    x0, y0 = max(0, box.x + ox), max(0, box.y + oy)
    land = int(
        np.count_nonzero(m._ids[x0 : max(x0, box.right + ox), y0 : max(y0, box.bottom + oy)])
    )
    r = m.badge_radius()
    badges = sum(
        1 for t in range(len(m.labels)) if box.inflate(2 * r, 2 * r).collidepoint(m.label_screen(t))
    )
    names = sum(1 for _, rect, *_ in m.names if box.colliderect(rect.move(-ox, -oy)))
    return land + badges + names


def check(g: GameScene) -> None:
    box = legend_box(g)
    assert g.map.rect.contains(box)
    if covered(g, box):
        # No free spot for the open legend: it is folded (its title row alone may still
        # cover the least land there is).
        assert g.legend_collapsed, f"the open legend covers the map at {g.app.size}"


@pytest.mark.parametrize("kind", ["classic", "drawn"])
def test_the_legend_covers_no_territory_at_any_size(
    kind: str, tmp_path: Path, artifacts: Path
) -> None:
    spec = "classic"
    if kind == "drawn":
        board = classic_map()
        path = tmp_path / "drawn.map"
        path.write_text(domination_text(board, [board[t].label or (0, 0) for t in board.ids()]))
        spec = str(path)
    with Harness(size=SIZES[0]) as h:
        seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")]
        g = GameScene(h.app, Match({"map": spec, "cards": "none"}, 3, seats), speed=3)
        h.push(g)
        h.frames(2)
        for size in SIZES:
            h.resize(size, frames=2)
            check(g)
            h.screenshot(artifacts / f"ww_legend_{kind}_{size[0]}.png")
            # The player opens it anyway; the next resize places (or folds) it anew.
            if g.legend_collapsed:
                h.click(legend_header(g))
                assert not g.legend_collapsed
        h.resize((800, 560), frames=2)
        check(g)
        h.screenshot(artifacts / f"ww_legend_{kind}_resized_800.png")
