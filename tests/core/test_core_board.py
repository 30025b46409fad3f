"""Boards: JSON round trips, validation errors that name the file and the item, queries."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.core.board import Board, BoardError, Node, Region, load_json, save_json

#   a --- b          north: a b c (bonus 2)
#   |     |          south: d e f (bonus 3)
#   c --- d --- f    c ~~ e is a sea lane
#    ~~~~ e ---/


def sample() -> dict[str, Any]:
    return {
        "name": "sample",
        "regions": [
            {"id": "north", "name": "North", "bonus": 2, "colour": "#336699"},
            {"id": "south", "name": "South", "bonus": 3},
        ],
        "nodes": [
            {
                "id": "a",
                "name": "Alpha",
                "region": "north",
                "neighbours": ["b", "c"],
                "polygon": [[0, 0], [10, 0], [10, 10]],
                "label": [5, 4],
                "props": {"pop": 80},
            },
            {"id": "b", "name": "Bravo", "region": "north", "neighbours": ["a", "d"]},
            {
                "id": "c",
                "name": "Charlie",
                "region": "north",
                "neighbours": ["a", "d"],
                "sea_lanes": ["e"],
            },
            {"id": "d", "name": "Delta", "region": "south", "neighbours": ["b", "c", "f"]},
            {
                "id": "e",
                "name": "Echo",
                "region": "south",
                "neighbours": ["f"],
                "sea_lanes": ["c"],
            },
            {"id": "f", "name": "Foxtrot", "region": "south", "neighbours": ["d", "e"]},
        ],
    }


def node(data: dict[str, Any], node_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(n for n in data["nodes"] if n["id"] == node_id)
    return found


@pytest.fixture
def board() -> Board:
    return Board.from_json(sample())


# -- round trips ---------------------------------------------------------------


def test_json_round_trip(board: Board) -> None:
    again = Board.from_json(json.loads(json.dumps(board.to_json())))
    assert again == board
    assert again.to_json() == board.to_json()
    a = again["a"]
    assert a.polygon == ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0))
    assert a.label == (5.0, 4.0)
    assert a.props == {"pop": 80}
    assert again.regions["north"] == Region("north", "North", 2, "#336699")
    assert again.regions["south"].colour == "#808080"


def test_file_round_trip(board: Board, tmp_path: Path) -> None:
    path = tmp_path / "maps" / "sample.json"
    save_json(board, path)
    loaded = load_json(path)
    assert loaded == board
    assert loaded.source == str(path)
    assert [p.name for p in path.parent.iterdir()] == ["sample.json"]


def test_defaults_for_optional_fields() -> None:
    b = Board.from_json(
        {"regions": [{"id": "r"}], "nodes": [{"id": "x", "region": "r"}]}, source="tiny"
    )
    assert b.name == "board"
    assert b["x"] == Node("x", "x", "r")
    assert b.regions["r"] == Region("r", "r", 0, "#808080")


# -- validation: each broken file names the file and the item ------------------


def write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def broken(change: str) -> dict[str, Any]:
    data = copy.deepcopy(sample())
    if change == "one-way edge":
        node(data, "b")["neighbours"].remove("a")
    elif change == "one-way sea lane":
        node(data, "e")["sea_lanes"] = []
    elif change == "unknown neighbour":
        node(data, "d")["neighbours"].append("atlantis")
    elif change == "unknown sea lane":
        node(data, "f")["sea_lanes"] = ["lemuria"]
    elif change == "unknown region":
        node(data, "f")["region"] = "west"
    elif change == "duplicate id":
        data["nodes"].append({"id": "c", "region": "north", "neighbours": ["a"]})
    elif change == "duplicate region":
        data["regions"].append({"id": "south"})
    elif change == "disconnected":
        data["nodes"] += [
            {"id": "island", "region": "south", "neighbours": ["reef"]},
            {"id": "reef", "region": "south", "neighbours": ["island"]},
        ]
    elif change == "self-loop":
        node(data, "e")["neighbours"].append("e")
    return data


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        ("one-way edge", ["one-way neighbour", "'a' -> 'b'", "'b' does not list 'a'"]),
        ("one-way sea lane", ["one-way sea lane", "'c' -> 'e'"]),
        ("unknown neighbour", ["node 'd'", "unknown neighbour 'atlantis'"]),
        ("unknown sea lane", ["node 'f'", "unknown sea lane 'lemuria'"]),
        ("unknown region", ["node 'f'", "unknown region 'west'"]),
        ("duplicate id", ["duplicate node id 'c'"]),
        ("duplicate region", ["duplicate region id 'south'"]),
        ("disconnected", ["disconnected", "island, reef"]),
        ("self-loop", ["node 'e'", "lists itself as a neighbour"]),
    ],
)
def test_broken_board_file_names_file_and_item(
    tmp_path: Path, change: str, fragments: list[str]
) -> None:
    path = write(tmp_path, f"{change.replace(' ', '_')}.json", broken(change))
    with pytest.raises(BoardError) as info:
        load_json(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert path.name in message
    for fragment in fragments:
        assert fragment in message
    assert info.value.source == str(path)


@pytest.mark.parametrize(
    ("mutate", "fragments"),
    [
        (lambda d: node(d, "b").pop("region"), ["node 'b'", "missing key 'region'"]),
        (lambda d: node(d, "a").update(label=[3]), ["node 'a'", "two coordinates"]),
        (lambda d: node(d, "a").update(polygon=[[1, 2], [3]]), ["node 'a'", "two coordinates"]),
        (lambda d: node(d, "c").update(props=7), ["node 'c'"]),
        (lambda d: d["nodes"].append("zulu"), ["node #7", "not an object"]),
        (lambda d: d["nodes"].append({"region": "north"}), ["node #7", "missing key 'id'"]),
        (lambda d: d["regions"][1].update(bonus="lots"), ["region 'south'", "lots"]),
        (lambda d: d.pop("nodes"), ["'nodes' must be a list"]),
        (lambda d: d.update(regions={"id": "r"}), ["'regions' must be a list"]),
    ],
)
def test_malformed_entries_are_named(tmp_path: Path, mutate: Any, fragments: list[str]) -> None:
    data = copy.deepcopy(sample())
    mutate(data)
    path = write(tmp_path, "malformed.json", data)
    with pytest.raises(BoardError) as info:
        load_json(path)
    message = str(info.value)
    assert str(path) in message
    for fragment in fragments:
        assert fragment in message


def test_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"regions": [\n  {"id": "r"},\n  oops\n]}', encoding="utf-8")
    with pytest.raises(BoardError, match=r"broken\.json: broken JSON at line 3"):
        load_json(bad)
    listing = write(tmp_path, "list.json", [1, 2])
    with pytest.raises(BoardError, match=r"list\.json: a board file must hold a JSON object"):
        load_json(listing)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(BoardError, match=r"binary\.json: not UTF-8"):
        load_json(binary)
    with pytest.raises(BoardError, match=r"missing\.json: cannot read"):
        load_json(tmp_path / "missing.json")


def test_disconnected_allowed_when_asked() -> None:
    nodes = [Node("x", "X", "r"), Node("y", "Y", "r")]
    with pytest.raises(BoardError, match="disconnected"):
        Board(nodes, [Region("r", "R")])
    loose = Board(nodes, [Region("r", "R")], require_connected=False)
    assert loose.components(["x", "y"]) == [frozenset({"x"}), frozenset({"y"})]


def test_disconnected_message_is_shortened() -> None:
    nodes = [Node("hub", "Hub", "r")] + [Node(f"n{i}", "N", "r") for i in range(8)]
    with pytest.raises(BoardError, match=r"n0, n1, n2, n3, n4 \.\.\. cannot be reached"):
        Board(nodes, [Region("r", "R")], source="big.json")


# -- validation (hypothesis) ---------------------------------------------------


@st.composite
def connected_graphs(draw: st.DrawFn) -> tuple[list[str], set[tuple[str, str]], set[str]]:
    """Node ids, undirected edges (as sorted pairs) and which of them are sea lanes."""
    n = draw(st.integers(2, 24))
    ids = draw(st.permutations([f"t{i}" for i in range(n)]))
    edges: set[tuple[str, str]] = set()
    for i in range(1, n):  # a random spanning tree keeps it connected
        j = draw(st.integers(0, i - 1))
        edges.add(tuple(sorted((ids[i], ids[j]))))  # type: ignore[arg-type]
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=30))
    for i, j in extra:
        if i != j:
            edges.add(tuple(sorted((ids[i], ids[j]))))  # type: ignore[arg-type]
    ordered = sorted(edges)
    sea = set(draw(st.lists(st.sampled_from(ordered), max_size=5)))
    return ids, edges, {f"{a}|{b}" for a, b in sea}


def graph_json(ids: list[str], edges: set[tuple[str, str]], sea: set[str]) -> dict[str, Any]:
    land: dict[str, list[str]] = {i: [] for i in ids}
    lanes: dict[str, list[str]] = {i: [] for i in ids}
    for a, b in sorted(edges):
        kind = lanes if f"{a}|{b}" in sea else land
        kind[a].append(b)
        kind[b].append(a)
    return {
        "name": "random",
        "regions": [{"id": "even"}, {"id": "odd"}],
        "nodes": [
            {
                "id": i,
                "region": "even" if k % 2 == 0 else "odd",
                "neighbours": land[i],
                "sea_lanes": lanes[i],
            }
            for k, i in enumerate(ids)
        ],
    }


@settings(max_examples=50, deadline=None)
@given(graph=connected_graphs(), data=st.data())
def test_random_connected_graphs_validate_and_one_way_edges_do_not(
    graph: tuple[list[str], set[tuple[str, str]], set[str]], data: st.DataObject
) -> None:
    ids, edges, sea = graph
    doc = graph_json(ids, edges, sea)
    board = Board.from_json(doc, source="random.json")
    assert len(board) == len(ids)
    assert Board.from_json(board.to_json()) == board
    for a, b in edges:
        assert board.adjacent(a, b) and board.adjacent(b, a)
    assert board.components(ids) == [frozenset(ids)]

    a, b = data.draw(st.sampled_from(sorted(edges)))
    keep, drop = data.draw(st.permutations([a, b]))
    kind = "sea_lanes" if f"{a}|{b}" in sea else "neighbours"
    broken_doc = copy.deepcopy(doc)
    next(n for n in broken_doc["nodes"] if n["id"] == drop)[kind].remove(keep)
    with pytest.raises(BoardError) as info:
        Board.from_json(broken_doc, source="random.json")
    message = str(info.value)
    assert message.startswith("random.json: one-way")
    assert f"{keep!r} -> {drop!r}" in message


# -- queries -------------------------------------------------------------------


def test_container_protocol(board: Board) -> None:
    assert len(board) == 6
    assert "a" in board and "z" not in board
    assert board["d"].name == "Delta"
    assert board.ids() == ["a", "b", "c", "d", "e", "f"]
    assert repr(board) == "Board('sample', 6 nodes, 2 regions)"


def test_neighbours_by_edge_kind(board: Board) -> None:
    assert board.neighbours("c") == {"a", "d", "e"}
    assert board.neighbours("c", sea=False) == {"a", "d"}
    assert board.neighbours("c", land=False) == {"e"}
    assert board.neighbours("c", land=False, sea=False) == frozenset()
    assert board.neighbours("a", land=False) == frozenset()
    assert board.adjacent("c", "e") and board.adjacent("e", "c")
    assert not board.adjacent("a", "d")


def test_ring2(board: Board) -> None:
    assert board.ring2("a") == {"d", "e"}
    assert board.ring2("f") == {"b", "c"}
    assert board.ring2("c") == {"b", "f"}


def test_members(board: Board) -> None:
    assert board.members("north") == ("a", "b", "c")
    assert board.members("south") == ("d", "e", "f")


def test_components(board: Board) -> None:
    assert board.components(["a", "b", "e", "f"]) == [frozenset("ab"), frozenset("ef")]
    assert board.components(["a", "d", "e", "f"]) == [frozenset("def"), frozenset("a")]
    assert board.components([]) == []
    with pytest.raises(KeyError, match="zz"):
        board.components(["a", "zz"])


def test_shortest_path(board: Board) -> None:
    assert board.shortest_path("a", "f") == ["a", "b", "d", "f"]
    assert board.shortest_path("a", "a") == ["a"]
    assert board.shortest_path("a", "e") == ["a", "c", "e"]  # over the sea lane
    assert board.distance("a", "e") == 2
    assert board.distance("b", "e") == 3


def test_shortest_path_through(board: Board) -> None:
    # Intermediate nodes must be in `through`; start and goal need not be.
    assert board.shortest_path("a", "f", through={"c", "e"}) == ["a", "c", "e", "f"]
    assert board.shortest_path("a", "d", through=set()) is None
    assert board.shortest_path("a", "b", through=set()) == ["a", "b"]
    assert board.shortest_path("b", "e", through=["d", "f"]) == ["b", "d", "f", "e"]


def test_unknown_nodes_in_queries(board: Board) -> None:
    with pytest.raises(KeyError, match="nowhere"):
        board.shortest_path("a", "nowhere")
    with pytest.raises(KeyError, match="nowhere"):
        board.shortest_path("nowhere", "a")
    with pytest.raises(KeyError):
        board.neighbours("nowhere")


@settings(max_examples=30, deadline=None)
@given(graph=connected_graphs(), data=st.data())
def test_shortest_paths_are_walks_of_bfs_length(
    graph: tuple[list[str], set[tuple[str, str]], set[str]], data: st.DataObject
) -> None:
    ids, edges, sea = graph
    board = Board.from_json(graph_json(ids, edges, sea))
    start = data.draw(st.sampled_from(ids))
    goal = data.draw(st.sampled_from(ids))
    path = board.shortest_path(start, goal)
    assert path is not None and path[0] == start and path[-1] == goal
    assert all(board.adjacent(x, y) for x, y in zip(path, path[1:], strict=False))
    # Breadth-first layers from start give the true distance.
    layer, seen, dist = {start}, {start}, 0
    while goal not in layer:
        layer = {n for x in layer for n in board.neighbours(x)} - seen
        seen |= layer
        dist += 1
    assert len(path) - 1 == dist
    ring = board.ring2(start)
    for other in ids:
        assert (other in ring) == (board.distance(start, other) == 2)
