"""World War maps: the classic world, Domination imports, random maps and map specs."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.core.board import Board, BoardError, save_json
from suite.core.geometry import point_in_polygon, polygon_area, shared_edges
from suite.core.tiled import write_tmx
from suite.worldwar.rules.domination import load_domination, parse_domination
from suite.worldwar.rules.mapgen import generate_map
from suite.worldwar.rules.mapgen import settings as gen_settings
from suite.worldwar.rules.maps import list_maps, resolve_map

DATA = Path(__file__).resolve().parent / "data"


def _edges(board: Board) -> int:
    return sum(len(board.neighbours(n)) for n in board.ids()) // 2


# -- the classic map -----------------------------------------------------------


@pytest.fixture(scope="module")
def classic() -> Board:
    return resolve_map("classic")


def test_classic_has_42_territories_in_the_six_continents(classic: Board) -> None:
    assert len(classic) == 42
    bonuses = {r.name: r.bonus for r in classic.regions.values()}
    assert bonuses == {
        "Australia": 2,
        "South America": 3,
        "Africa": 4,
        "North America": 5,
        "Europe": 6,
        "Asia": 9,
    }
    sizes = {classic.regions[r].name: len(classic.members(r)) for r in classic.regions}
    assert sizes == {
        "North America": 9,
        "South America": 4,
        "Africa": 6,
        "Europe": 7,
        "Asia": 12,
        "Australia": 4,
    }


def test_classic_adjacency_is_the_classic_boards(classic: Board) -> None:
    assert _edges(classic) == 83
    sea = [
        ("alaska", "kamchatka"),
        ("greenland", "iceland"),
        ("greenland", "quebec"),
        ("greenland", "ontario"),
        ("greenland", "northwest_territory"),
        ("brazil", "north_africa"),
        ("east_africa", "middle_east"),
        ("siam", "indonesia"),
        ("southern_europe", "north_africa"),
        ("southern_europe", "egypt"),
        ("western_europe", "north_africa"),
        ("great_britain", "iceland"),
        ("great_britain", "scandinavia"),
        ("great_britain", "northern_europe"),
        ("great_britain", "western_europe"),
        ("indonesia", "new_guinea"),
        ("indonesia", "western_australia"),
        ("new_guinea", "eastern_australia"),
        ("japan", "kamchatka"),
        ("madagascar", "south_africa"),
    ]
    for a, b in sea:
        assert b in classic.neighbours(a, land=False, sea=True), (a, b)
        assert b not in classic.neighbours(a, land=True, sea=False), (a, b)
    land = [
        ("alaska", "alberta"),
        ("ontario", "quebec"),
        ("central_america", "venezuela"),
        ("egypt", "middle_east"),
        ("ukraine", "afghanistan"),
        ("ural", "china"),
        ("kamchatka", "mongolia"),
        ("india", "siam"),
        ("western_australia", "eastern_australia"),
    ]
    for a, b in land:
        assert b in classic.neighbours(a, land=True, sea=False), (a, b)
    for a, b in [("alaska", "greenland"), ("brazil", "egypt"), ("japan", "china")]:
        assert not classic.adjacent(a, b)
    degrees = {n: len(classic.neighbours(n)) for n in classic.ids()}
    assert degrees["ukraine"] == 6 and degrees["china"] == 6 and degrees["argentina"] == 2


def test_classic_is_symmetric_and_connected(classic: Board) -> None:
    for nid in classic.ids():
        for other in classic.neighbours(nid):
            assert nid in classic.neighbours(other)
    assert len(classic.components(classic.ids())) == 1
    for region in classic.regions:
        assert len(classic.components(classic.members(region))) == 1


def test_classic_shapes_can_be_drawn_and_clicked(classic: Board) -> None:
    nodes = list(classic.nodes.values())
    for node in nodes:
        assert len(node.polygon) >= 4 and node.label is not None
        assert polygon_area(node.polygon) > 100
        assert point_in_polygon(node.label, node.polygon), node.id
        others = [m for m in nodes if m.id != node.id and point_in_polygon(node.label, m.polygon)]
        assert not others, (node.id, [m.id for m in others])
        assert all(0 <= x <= 1600 and 0 <= y <= 900 for x, y in node.polygon)
    # Land borders that are drawn as touching shapes (a sample the eye checks first).
    index = {n.id: i for i, n in enumerate(nodes)}
    touching = shared_edges([n.polygon for n in nodes], tol=1.0)
    for a, b in [
        ("alaska", "northwest_territory"),
        ("egypt", "east_africa"),
        ("india", "china"),
        ("brazil", "argentina"),
        ("ukraine", "ural"),
    ]:
        assert tuple(sorted((index[a], index[b]))) in touching, (a, b)


def test_classic_is_loaded_once(classic: Board) -> None:
    assert resolve_map("classic") is classic


# -- Domination .map files -------------------------------------------------------


def test_domination_import_of_a_realistic_map() -> None:
    board = resolve_map(str(DATA / "archipelago.map"))
    assert board.name == "Archipelago Test Map"
    assert len(board) == 14
    assert [(r.name, r.bonus) for r in board.regions.values()] == [
        ("Northern Isles", 3),
        ("Central Reach", 4),
        ("Southern Cape", 2),
    ]
    assert board.regions["1"].colour == "#ff0000"
    assert board.regions["3"].colour == "#3f6fb0"
    assert board["2"].name == "Ice Fjord" and board["2"].region == "1"
    assert set(board["7"].neighbours) == {"5", "6", "8", "9", "10"}
    assert _edges(board) == 22
    for node in board.nodes.values():
        assert node.label is not None and point_in_polygon(node.label, node.polygon)
    # Cells of countries that border each other within a continent touch.
    nodes = list(board.nodes.values())
    touching = shared_edges([n.polygon for n in nodes])
    for i, a in enumerate(nodes):
        for j, b in enumerate(nodes):
            if i < j and a.region == b.region and b.id in a.neighbours:
                assert (i, j) in touching, (a.name, b.name)


BROKEN = [
    ("one_way.map", 10, "border 2 -> 3 is one-way"),
    ("bad_continent.map", 6, "unknown continent 3"),
    ("bad_number.map", 2, "bonus 'one' is not a whole number"),
    ("unknown_neighbour.map", 8, "borders unknown country 7"),
    ("short_country.map", 4, "needs 'id Name continentId x y'"),
    ("out_of_order.map", 5, "country id 3 out of order"),
    ("missing_borders.map", 5, "country 2 'Two' has no line in [borders]"),
    ("no_countries.map", 3, "no [countries] section"),
]


@pytest.mark.parametrize(("name", "line", "problem"), BROKEN)
def test_broken_domination_files_name_the_line(name: str, line: int, problem: str) -> None:
    path = DATA / "broken" / name
    with pytest.raises(BoardError) as info:
        resolve_map(str(path))
    message = str(info.value)
    assert message.startswith(str(path))
    assert f"line {line}: " in message
    assert problem in message


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "[continents]\nA 1 red\n[countries]\n1 One 1 5 5\n[borders]\n1 1\n",
            "line 6: country 1 borders itself",
        ),
        (
            "[continents]\nA 1 red\n[countries]\n1 One 1 5 5\n2 Two 1 9 9\n[borders]\n1 2 2\n",
            "line 7: country 1 lists neighbour 2 twice",
        ),
        ("[continents]\nA 1\n[continents]\n", "line 3: section [continents] appears twice"),
        ("[continents\n", "line 1: section header"),
        (
            "[continents]\nA 1 red\nB 2 red\n[countries]\n1 One 1 5 5\n[borders]\n1\n",
            "line 3: continent 2 'B' has no countries",
        ),
        (
            "[continents]\nA 1 red\n[countries]\n1 One 1 -5 5\n[borders]\n1\n",
            "line 4: country 1 has coordinates \\(-5, 5\\) outside",
        ),
        (
            "[continents]\nA 1 red\n[countries]\n1 One 1 5 1e308\n[borders]\n1\n",
            "line 4: country 1 has coordinates \\(5, 1e\\+308\\) outside",
        ),
    ],
)
def test_domination_text_errors(text: str, problem: str) -> None:
    with pytest.raises(BoardError, match=r"^inline\.map: " + problem.replace("[", r"\[")):
        parse_domination(text, "inline.map")


def test_domination_comments_unknown_sections_and_latin1(tmp_path: Path) -> None:
    text = (
        "; a comment\nname Caf\xe9 Map ; trailing\nver 1\n[files]\npic x.png\n[newsection]\n"
        "anything goes\n[continents]\nOnly 2 purple\n[countries]\n1 Caf\xe9 1 10 10\n"
        "2 Bar 1 10 10\n[borders]\n1 2\n2 1\n"
    )
    path = tmp_path / "cafe.map"
    path.write_bytes(text.encode("latin-1"))
    board = load_domination(path)
    assert board.name == "Caf\xe9 Map"
    assert board["1"].name == "Caf\xe9"
    # Two countries on one spot still get two separate cells.
    assert polygon_area(board["1"].polygon) > 0 and polygon_area(board["2"].polygon) > 0


# -- the random generator ------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 40), st.integers(1, 6), st.integers(0, 2**31))
def test_random_maps_are_valid(n: int, k: int, seed: int) -> None:
    k = min(k, n)
    board = generate_map(n, k, seed)
    cfg = gen_settings()
    assert len(board) == n and len(board.regions) == k
    assert len(board.components(board.ids())) == 1
    total = 0.0
    for region in board.regions.values():
        members = board.members(region.id)
        assert members, region
        assert len(board.components(members)) == 1, region
        assert region.bonus >= cfg.minimum_bonus
    for node in board.nodes.values():
        assert node.label is not None and point_in_polygon(node.label, node.polygon)
        total += polygon_area(node.polygon)
    # Territories are Voronoi cells of one canvas (the rest is sea): they cannot overlap.
    assert total <= cfg.width * cfg.height * (1 + 1e-9)
    for node in board.nodes.values():
        for other in board.neighbours(node.id, land=False, sea=True):
            assert board[other].region != node.region or other not in node.neighbours


def test_random_maps_are_deterministic_per_seed() -> None:
    a = resolve_map("random:30:4", seed=7)
    assert a == resolve_map({"random": {"territories": 30, "continents": 4}}, seed=7)
    assert a != resolve_map("random:30:4", seed=8)
    default = resolve_map("random", seed=1)
    assert len(default) == gen_settings().default_territories


def test_bigger_continents_with_more_borders_get_bigger_bonuses() -> None:
    board = generate_map(60, 5, seed=3)
    by_size = sorted(board.regions.values(), key=lambda r: len(board.members(r.id)))
    assert by_size[0].bonus <= by_size[-1].bonus


# -- specs and listing ---------------------------------------------------------


def test_files_of_every_kind_resolve(tmp_path: Path, classic: Board) -> None:
    save_json(classic, tmp_path / "world.json")
    assert resolve_map(str(tmp_path / "world.json")) == classic
    write_tmx(classic, tmp_path / "world.tmx", 1600, 900)
    assert resolve_map(str(tmp_path / "world.tmx")) == classic
    assert resolve_map({"path": str(DATA / "archipelago.map")}).name == "Archipelago Test Map"


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("atlantis", "unknown map 'atlantis'"),
        ("random:x:3", "N and K must be whole numbers"),
        ("random:10", "write random:N:K"),
        ("random:1000:3", "territories must be"),
        ("random:10:11", "continents must be"),
        ({"random": {"territories": 10, "sizes": 3}}, "unknown random map options"),
        ({"bogus": 1}, "unknown map spec"),
        ("missing.map", "no such map file"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: object, problem: str) -> None:
    with pytest.raises(BoardError, match=problem):
        resolve_map(spec)  # type: ignore[arg-type]


def test_list_maps(tmp_path: Path) -> None:
    (tmp_path / "b_world.map").write_text((DATA / "archipelago.map").read_text())
    (tmp_path / "a_notes.txt").write_text("not a map")
    (tmp_path / "c_board.tmx").write_text("<map/>")
    choices = list_maps(tmp_path)
    assert [c.kind for c in choices] == ["classic", "domination", "tiled", "random"]
    assert choices[1].title == "Archipelago Test Map"
    assert choices[0].spec == "classic" and choices[-1].spec == "random"
    assert [c.kind for c in list_maps(tmp_path / "none")] == ["classic", "random"]
