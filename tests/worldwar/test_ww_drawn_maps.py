"""Maps drawn true (issue 22 item 1): what the map shows as neighbours (territories whose
pixels touch, plus the lines drawn between them) is exactly the board's graph, on every
shipped map, on generated maps, on Domination maps without their picture and on fuzzed
graphs; and every territory's name is on the map at 1280x800."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest

from suite.core.board import Board
from suite.paths import asset
from suite.ui.harness import Harness
from suite.worldwar.rules.domination import parse_domination
from suite.worldwar.rules.maps import classic_map, list_maps, resolve_map
from suite.worldwar.screens.drawn import drawn_adjacency, drawn_map, graph_pairs
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.mapview import MapView
from suite.worldwar.screens.match import Match, SeatInfo

DATA = Path(__file__).parent / "data"
MAP_RECTS = [(960, 742), (560, 502), (1560, 1022)]
"""The game screen's map area at 1280x800, 800x560 and 1920x1080."""


@pytest.fixture(scope="module")
def display() -> None:
    pygame.display.init()
    pygame.font.init()


def names(board: Board, pairs: set[tuple[int, int]]) -> list[tuple[str, str]]:
    ids = board.ids()
    return sorted((board[ids[a]].name, board[ids[b]].name) for a, b in pairs)


def check_drawn_true(board: Board) -> None:
    """At every game size the map shows exactly the board's neighbours."""
    graph = graph_pairs(board)
    for size in MAP_RECTS:
        view = MapView(board, pygame.Rect(0, 0, *size))
        shown = view.shown_adjacency()
        assert shown == graph, (
            f"{board.name} at {size}: not shown {names(board, graph - shown)}, "
            f"false contacts {names(board, shown - graph)}"
        )
        for t in range(len(board)):
            assert view.territory_at(view.label_screen(t)) == t


def domination_text(board: Board, points: list[tuple[float, float]]) -> str:
    """`board` written as a Domination .map (no [files]: no picture)."""
    ids = board.ids()
    regions = list(board.regions)
    lines = [f"name {board.name} drawn", "[continents]"]
    lines += [
        f"{board.regions[r].name.replace(' ', '-')} 3 {board.regions[r].colour}" for r in regions
    ]
    lines.append("[countries]")
    for k, t in enumerate(ids):
        x, y = points[k]
        lines.append(
            f"{k + 1} {board[t].name.replace(' ', '-')} {regions.index(board[t].region) + 1} "
            f"{x:.0f} {y:.0f}"
        )
    lines.append("[borders]")
    for k, t in enumerate(ids):
        near = " ".join(str(ids.index(o) + 1) for o in sorted(board.neighbours(t), key=ids.index))
        lines.append(f"{k + 1} {near}")
    return "\n".join(lines) + "\n"


def classic_as_domination() -> Board:
    """The classic world as a picture-less Domination map (42 countries, real names)."""
    board = classic_map()
    points = [board[t].label or (0.0, 0.0) for t in board.ids()]
    return parse_domination(domination_text(board, points), "classic-drawn.map")


def fuzzed(seed: int) -> Board:
    """A random connected Domination map: clustered and coincident points, borders to
    near points, a few long borders across the map and some missing ones."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 70))
    centres = rng.uniform(0, 800, (max(1, n // 8), 2))
    pts = centres[rng.integers(0, len(centres), n)] + rng.normal(0, 60, (n, 2))
    pts = np.clip(pts, 0, 900)
    if n > 3:
        pts[1] = pts[0]  # two countries on one spot
    edges: set[tuple[int, int]] = set()
    order = rng.permutation(n)
    for k in range(1, n):  # a spanning tree to the nearest earlier point: connected
        a = order[k]
        before = order[:k]
        b = before[np.argmin(np.hypot(*(pts[before] - pts[a]).T))]
        edges.add((min(a, b), max(a, b)))
    for a in range(n):
        d = np.hypot(*(pts - pts[a]).T)
        for b in np.argsort(d)[1 : 1 + int(rng.integers(0, 5))]:
            if int(b) != a:
                edges.add((min(a, int(b)), max(a, int(b))))
    for _ in range(int(rng.integers(0, 4))):
        a, b = (int(v) for v in rng.choice(n, 2, replace=False))
        edges.add((min(a, b), max(a, b)))
    k = int(rng.integers(1, 6))
    colours = ["red", "blue", "green", "yellow", "#3f6fb0", "orange"]
    conts = [f"C{c + 1} {int(rng.integers(0, 7))} {colours[c]}" for c in range(k)]
    cont_of = [1 + (c % k) for c in range(n)]
    out = [f"name Fuzz {seed}", "[continents]", *conts, "[countries]"]
    out += [f"{i + 1} Land-{i + 1} {cont_of[i]} {pts[i, 0]:.1f} {pts[i, 1]:.1f}" for i in range(n)]
    out.append("[borders]")
    near: dict[int, list[int]] = {i: [] for i in range(n)}
    for a, b in edges:
        near[a].append(b + 1)
        near[b].append(a + 1)
    out += [f"{i + 1} {' '.join(map(str, sorted(near[i])))}" for i in range(n)]
    return parse_domination("\n".join(out) + "\n", f"fuzz-{seed}.map")


def one_piece(mask: np.ndarray, start: tuple[int, int]) -> bool:
    """True when every pixel of `mask` is 4-connected to `start`."""
    seen = np.zeros_like(mask)
    seen[start] = True
    while True:
        grown = seen.copy()
        grown[1:, :] |= seen[:-1, :]
        grown[:-1, :] |= seen[1:, :]
        grown[:, 1:] |= seen[:, :-1]
        grown[:, :-1] |= seen[:, 1:]
        grown &= mask
        if (grown == seen).all():
            return bool((seen == mask).all())
        seen = grown


def shipped_maps() -> list[str]:
    specs = [c.spec for c in list_maps(asset("worldwar", "maps"))]
    assert "classic" in specs and "random" in specs
    return specs


@pytest.mark.parametrize("spec", shipped_maps())
def test_every_shipped_map_is_drawn_true(spec: str, display: None) -> None:
    check_drawn_true(resolve_map(spec, 7))


@pytest.mark.parametrize("spec", ["random:18:4", "random:80:10", "random:12:2", "random:150:12"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_maps_are_drawn_true(spec: str, seed: int, display: None) -> None:
    check_drawn_true(resolve_map(spec, seed))


@pytest.mark.parametrize("seed", range(12))
def test_fuzzed_domination_graphs_are_drawn_true(seed: int, display: None) -> None:
    board = fuzzed(seed)
    layout = drawn_map(board)
    assert drawn_adjacency(layout.index, layout.lines) == graph_pairs(board)
    for t, (x, y) in enumerate(layout.points):
        spot = (round(x), round(y))
        assert layout.index[spot] == t + 1, "a territory holds its point"
        assert one_piece(layout.index == t + 1, spot), "a territory is one piece"
    check_drawn_true(board)


def test_domination_maps_without_pictures(display: None) -> None:
    for board in (
        classic_as_domination(),
        parse_domination((DATA / "archipelago.map").read_text(), str(DATA / "archipelago.map")),
    ):
        view = MapView(board, pygame.Rect(0, 0, 960, 742))
        assert view.drawn and view.art is not None and view.art.picture is None
        check_drawn_true(board)
        # Most borders are shared borders, not lines.
        assert len(view.links) <= max(2, len(graph_pairs(board)) // 10)


def test_the_drawn_map_shows_no_false_contact_between_close_strangers(display: None) -> None:
    """Two countries close together that are not neighbours keep sea between them."""
    text = """name Strangers
[continents]
A 1 red
[countries]
1 West 1 100 100
2 East 1 112 100
3 North 1 106 60
[borders]
1 3
2 3
3 1 2
"""
    board = parse_domination(text, "strangers.map")
    check_drawn_true(board)
    assert (0, 1) not in MapView(board, pygame.Rect(0, 0, 960, 742)).shown_adjacency()


def test_every_name_is_on_the_drawn_map_at_1280x800(artifacts: Path, tmp_path: Path) -> None:
    path = tmp_path / "classic-drawn.map"
    board = classic_map()
    path.write_text(domination_text(board, [board[t].label or (0.0, 0.0) for t in board.ids()]))
    for size in [(1280, 800), (800, 560), (1920, 1080)]:
        with Harness(size=size) as h:
            seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy"), SeatInfo("Cy", 2, "easy")]
            g = GameScene(
                h.app, Match({"map": str(path), "cards": "increasing"}, 5, seats), speed=3
            )
            h.push(g)
            h.frames(3)
            assert g.map.drawn
            if size == (1280, 800):
                placed = {t for t, *_ in g.map.names}
                missing = [
                    g.map.board[g.map.tables.ids[t]].name for t in range(42) if t not in placed
                ]
                assert not missing, f"names left off: {missing}"
                rects = [r for _, r, *_ in g.map.names]
                for i, r in enumerate(rects):
                    assert r.collidelist(rects[i + 1 :]) < 0
            h.screenshot(artifacts / f"ww_drawn_map_{size[0]}.png")


def test_a_board_without_shapes_is_drawn_from_its_graph(display: None) -> None:
    """A board JSON of label points only (no polygons) is laid out like a Domination map."""
    data = classic_map().to_json()
    for node in data["nodes"]:
        node.pop("polygon", None)
    board = Board.from_json(data, source="labels.json")
    assert MapView(board, pygame.Rect(0, 0, 960, 742)).drawn
    check_drawn_true(board)
