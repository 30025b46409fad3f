"""World War screen parts on their own: the map view's geometry, sounds, card faces and
the session's statistics."""

from __future__ import annotations

import wave

import pygame
import pytest

from suite.core.geometry import point_in_polygon
from suite.paths import asset
from suite.ui.audio import Audio
from suite.worldwar.rules.maps import resolve_map
from suite.worldwar.screens import sounds
from suite.worldwar.screens.cards import card_face
from suite.worldwar.screens.mapview import ZOOM_MAX, MapView
from suite.worldwar.screens.match import Match, SeatInfo


@pytest.fixture(scope="module")
def display() -> None:
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((320, 200))


def test_territory_under_each_label_is_that_territory(display: None) -> None:
    board = resolve_map("classic")
    view = MapView(board, pygame.Rect(0, 50, 960, 700))
    hits = 0
    for t in range(len(view.tables.ids)):
        pos = view.label_screen(t)
        found = view.territory_at(pos)
        if found is not None:
            # the raster agrees with the polygon geometry at the same point
            s = view.scale
            world = (
                (pos[0] - view.rect.x + view.pan[0] - 14) / s + view.world[0],
                (pos[1] - view.rect.y + view.pan[1] - 14) / s + view.world[1],
            )
            assert point_in_polygon(world, board[view.tables.ids[found]].polygon)
            hits += found == t
    assert hits >= len(view.tables.ids) - 2
    assert view.territory_at((5, 5)) is None  # above the map rect


def test_zoom_is_bounded_and_keeps_the_point_under_the_mouse(display: None) -> None:
    view = MapView(resolve_map("classic"), pygame.Rect(0, 0, 800, 500))
    target = view.label_screen(10)
    view.zoom_at(target, 2)
    assert abs(view.label_screen(10)[0] - target[0]) <= 2
    assert abs(view.label_screen(10)[1] - target[1]) <= 2
    view.zoom_at(target, 50)
    assert view.zoom == ZOOM_MAX
    view.zoom_at(target, -50)
    assert view.zoom == 1.0
    view.set_colours([(200, 10, 10)] * len(view.tables.ids))
    surface = pygame.Surface((800, 500))
    view.draw(surface, [1] * len(view.tables.ids), [0] * len(view.tables.ids))
    assert surface.get_at(view.label_screen(3)) != surface.get_at((1, 1))


def test_sound_files_are_short_wavs_and_play_quietly() -> None:
    for name in sounds.NAMES:
        with wave.open(str(asset("worldwar", "sounds", f"{name}.wav"))) as fh:
            seconds = fh.getnframes() / fh.getframerate()
        assert 0.1 < seconds < 1.5
    silent = Audio(0)
    assert sounds.play(silent, "dice") is False


@pytest.mark.parametrize(
    ("mode", "rank", "suit"),
    [("increasing", "3", ""), ("royalty", "K", "hearts"), ("poker", "7", "clubs")],
)
def test_card_faces_are_drawn(display: None, mode: str, rank: str, suit: str) -> None:
    face = card_face(rank, suit, (92, 132))
    assert face.get_size() == (92, 132)
    colours = {tuple(face.get_at((x, y))) for x in range(0, 92, 4) for y in range(0, 132, 4)}
    assert len(colours) > 4  # paper, edge, ink and the symbol


def test_session_counts_luck_and_history() -> None:
    seats = [SeatInfo("A", 0, "hard"), SeatInfo("B", 1, "easy")]
    session = Match({"map": "random:18:4"}, 3, seats)
    for _ in range(3000):
        if session.run_bot() is None:
            break
    assert session.over
    assert sum(session.luck.actual) > 0 and sum(session.luck.expected) > 0
    # every army lost in battle is counted once, on the side that lost it
    assert sum(session.luck.actual) == session.local.state.lost_total
    assert session.history[-1].territories[session.local.state.outcome().winners[0]] == 18
    assert any("conquered" in line.text for line in session.log)
    replayed = session.replay.play()
    assert replayed.to_dict() == session.local.state.to_dict()
