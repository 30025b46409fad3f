"""Domination maps with their artwork (issue 15.13): the `pic` image is drawn and the
territories' shapes and clicks come from the colour-indexed `map` image; without usable
images the map falls back to the importer's cells. The map and its images are made here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest

from suite.core.board import Board
from suite.ui.harness import Harness
from suite.worldwar.rules.domination import load_domination
from suite.worldwar.screens.artwork import artwork_files, load_artwork
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.mapview import MARGIN, MapView
from suite.worldwar.screens.match import Match, SeatInfo

SIZE = (200, 120)
MAP_TEXT = """; a crafted Domination map with artwork
name Art Test
[files]
pic art_pic.png
map art_map.gif
crd art.cards

[continents]
North 2 red
South 3 blue

[countries]
1 North-West 1 50 35
2 North-East 1 150 35
3 South-West 2 50 90
4 South-East 2 150 90

[borders]
1 2 3
2 1 4
3 1 4
4 2 3
"""
BAND = (150, 190, 8, 16)
"""A strip (x0, x1, y0, y1) drawn as country 1 inside the north-east quadrant: only the
index image can say it is country 1 (the importer's cells give it to country 2)."""


@pytest.fixture(scope="module")
def display() -> None:
    pygame.display.init()
    pygame.font.init()


def index_values() -> np.ndarray:
    """Per pixel (x, y): the country number (255: sea), quadrants plus the band."""
    w, h = SIZE
    values = np.full((w, h), 255, dtype=np.uint8)
    values[4:100, 4:60] = 1
    values[100:196, 4:60] = 2
    values[4:100, 60:116] = 3
    values[100:196, 60:116] = 4
    x0, x1, y0, y1 = BAND
    values[x0:x1, y0:y1] = 1
    return values


def make_map(folder: Path, *, pic: bool = True, index: bool = True) -> Path:
    path = folder / "art.map"
    path.write_text(MAP_TEXT, encoding="utf-8")
    if pic:
        picture = pygame.Surface(SIZE)
        picture.fill((0, 200, 0))
        pygame.image.save(picture, str(folder / "art_pic.png"))
    if index:
        values = index_values()
        grey = pygame.Surface(SIZE, depth=24)
        pygame.surfarray.blit_array(grey, np.stack([values] * 3, axis=-1))
        # Domination's index images are GIFs; SDL_image may not write those, and the
        # loader only reads what pygame.image.load gives: a PNG under the .gif name.
        pygame.image.save(grey, str(folder / "art_map.png"))
        (folder / "art_map.png").rename(folder / "art_map.gif")
    return path


def screen_of(view: MapView, x: float, y: float) -> tuple[int, int]:
    return view.to_screen((x, y))


def test_the_files_section_names_the_images(tmp_path: Path) -> None:
    path = make_map(tmp_path)
    assert artwork_files(path) == (tmp_path / "art_pic.png", tmp_path / "art_map.gif")
    (tmp_path / "plain.map").write_text(MAP_TEXT.replace("[files]", "[other]"), "utf-8")
    assert artwork_files(tmp_path / "plain.map") is None
    assert artwork_files(tmp_path / "missing.map") is None


def test_shapes_and_clicks_come_from_the_index_image(tmp_path: Path, display: None) -> None:
    board = load_domination(make_map(tmp_path))
    view = MapView(board, pygame.Rect(0, 0, 2 * SIZE[0] + 2 * MARGIN, 2 * SIZE[1] + 2 * MARGIN))
    assert view.art is not None and view.art.size == SIZE
    index = view.tables.index
    # the band belongs to country 1 although it lies in country 2's quadrant
    x0, x1, y0, y1 = BAND
    band = screen_of(view, (x0 + x1) / 2, (y0 + y1) / 2)
    assert view.territory_at(band) == index["1"]
    assert view.territory_at(screen_of(view, 150, 40)) == index["2"]
    assert view.territory_at(screen_of(view, 50, 100)) == index["3"]
    assert view.territory_at(screen_of(view, 198, 118)) is None  # the sea frame
    # the picture shows through the owners' colours
    view.set_colours([(255, 0, 0)] * 4)
    surface = pygame.Surface(view.rect.size)
    view.draw(surface, [1, 2, 3, 4], [0, 0, 1, 1], selected=index["1"], hover=index["4"])
    inside = screen_of(view, 30, 90)
    r, g, _ = surface.get_at(inside)[:3]
    assert r > 100 and g > 50  # owner red mixed with the picture's green
    # the selection outline follows the index image: the band's edge is outlined too
    edge = screen_of(view, x1 - 0.25, (y0 + y1) / 2)
    assert surface.get_at(edge)[:3] != surface.get_at(band)[:3]


@pytest.mark.parametrize("missing", ["pic", "index"])
def test_a_missing_image_falls_back_to_the_drawn_map(
    tmp_path: Path, display: None, missing: str
) -> None:
    board = load_domination(make_map(tmp_path, pic=missing != "pic", index=missing != "index"))
    view = MapView(board, pygame.Rect(0, 0, 500, 300))
    assert view.drawn and view.art is not None and view.art.picture is None
    for t in range(4):
        assert view.territory_at(view.label_screen(t)) == t


def test_broken_or_mismatched_images_fall_back(tmp_path: Path, display: None) -> None:
    path = make_map(tmp_path)
    (tmp_path / "art_map.gif").write_bytes(b"GIF89a not really")
    assert load_artwork(load_domination(path)) is None
    make_map(tmp_path)
    small = pygame.Surface((50, 50))
    pygame.image.save(small, str(tmp_path / "art_pic.png"))
    assert load_artwork(load_domination(path)) is None
    make_map(tmp_path, index=False)
    blank = pygame.Surface(SIZE, depth=24)
    blank.fill((255, 255, 255))  # no country anywhere
    pygame.image.save(blank, str(tmp_path / "art_map.png"))
    (tmp_path / "art_map.png").rename(tmp_path / "art_map.gif")
    assert load_artwork(load_domination(path)) is None
    assert load_artwork(Board.from_json({"nodes": [], "regions": []})) is None


def test_a_game_on_the_artwork_map(tmp_path: Path, artifacts: Path) -> None:
    path = make_map(tmp_path)
    with Harness(size=(800, 560)) as h:
        seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")]
        match = Match({"map": str(path), "cards": "none"}, 2, seats)
        g = GameScene(h.app, match, speed=3)
        h.push(g)
        assert g.map.art is not None
        for _ in range(600):
            if g.human_turn() is not None and g.v.phase == "setup":
                break
            h.frames(1)
        seat = g.human_turn()
        assert seat is not None
        mine = next(t for t, o in enumerate(g.v.owner) if o == seat)
        before = g.v.setup_left[seat]
        point = g.map.point_in(mine)
        assert point is not None
        for _ in range(g.v.step_left):
            h.click(point)
        assert g.match.view(seat).setup_left[seat] < before
        h.move(point, frames=40)
        h.screenshot(artifacts / "ww_artwork_map.png")
