"""Tiled boards: write_tmx/load_tmx round trips, derived neighbours, named errors."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.core.board import Board, BoardError, Node, Region
from suite.core.geometry import label_point, shared_edges, voronoi_cells
from suite.core.tiled import load_tmx, write_tmx


def _board() -> Board:
    pts = [(100.0, 100.0), (300.0, 120.0), (200.0, 300.0), (420.0, 380.0)]
    cells = voronoi_cells(pts, 500, 500)
    return Board(
        [
            Node(
                "a",
                "Alpha Land",
                "north",
                ("b", "c"),
                (),
                tuple(cells[0]),
                label_point(cells[0]),
                {"pop": 3, "rich": True, "tax": 1.25, "motto": "", "kind": "plains"},
            ),
            Node("b", "Beta", "north", ("a", "c"), (), tuple(cells[1]), label_point(cells[1])),
            Node("c", "Gamma", "south", ("a", "b"), ("d",), tuple(cells[2]), (200.5, 300.25)),
            # An island reached only by sea: an empty neighbours list, kept as such.
            Node("d", "Delta Isle", "south", (), ("c",), tuple(cells[3]), None),
        ],
        [Region("north", "The North", 3, "#ff0000"), Region("south", "The South", 2)],
        name="Test board",
    )


def test_round_trip_gives_an_equal_board(tmp_path: Path) -> None:
    board = _board()
    path = tmp_path / "b.tmx"
    write_tmx(board, path, 500, 500)
    back = load_tmx(path)
    assert back == board
    assert back.source == str(path)
    assert back["a"].props == {"pop": 3, "rich": True, "tax": 1.25, "motto": "", "kind": "plains"}
    assert back["d"].neighbours == () and back["d"].sea_lanes == ("c",)


def test_written_file_is_plain_tiled_xml(tmp_path: Path) -> None:
    path = tmp_path / "b.tmx"
    write_tmx(_board(), path, 640, 480)
    root = ET.parse(path).getroot()
    assert root.tag == "map" and root.get("orientation") == "orthogonal"
    assert (int(root.get("width", 0)) * int(root.get("tilewidth", 0))) == 640
    layers = [g.get("name") for g in root.findall("objectgroup")]
    assert layers == ["regions", "territories"]
    ids = [int(o.get("id", 0)) for o in root.iter("object")]
    assert len(ids) == len(set(ids)) and int(root.get("nextobjectid", 0)) > max(ids)
    polygons = root.findall("./objectgroup[@name='territories']/object/polygon")
    assert len(polygons) == 4


def test_loading_does_not_start_pygame(tmp_path: Path) -> None:
    path = tmp_path / "b.tmx"
    write_tmx(_board(), path, 500, 500)
    code = (
        "import sys; from suite.core.tiled import load_tmx; "
        f"load_tmx({str(path)!r}); print('pygame' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


SQUARES = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="20" height="20"
     tilewidth="10" tileheight="10" infinite="0" nextlayerid="3" nextobjectid="9">
 {map_props}
 <objectgroup id="1" name="regions">
  <object id="1" name="Everything"><properties>
   <property name="id" value="all"/><property name="bonus" type="int" value="4"/>
  </properties><point/></object>
 </objectgroup>
 <objectgroup id="2" name="land">
  <object id="2" name="NW" x="0" y="0"><properties>
   <property name="id" value="nw"/><property name="region" value="all"/>{nw_extra}
  </properties><polygon points="0,0 100,0 100,100 0,100"/></object>
  <object id="3" name="NE" x="100" y="0"><properties>
   <property name="id" value="ne"/><property name="region" value="all"/>
  </properties><polygon points="0,0 100,0 100,100 0,100"/></object>
  <object id="4" name="SW" x="0" y="100"><properties>
   <property name="id" value="sw"/><property name="region" value="all"/>
  </properties><polygon points="0,0 100,0 100,100 0,100"/></object>
  <object id="5" name="SE" x="100" y="100"><properties>
   <property name="id" value="se"/><property name="region" value="{se_region}"/>
  </properties><polygon points="0,0 100,0 100,100 0,100"/></object>
 </objectgroup>
</map>
"""


def _squares(
    tmp_path: Path, map_props: str = "", nw_extra: str = "", se_region: str = "all"
) -> Path:
    path = tmp_path / "squares.tmx"
    path.write_text(
        SQUARES.format(map_props=map_props, nw_extra=nw_extra, se_region=se_region),
        encoding="utf-8",
    )
    return path


def test_missing_neighbours_are_derived_from_shared_edges(tmp_path: Path) -> None:
    board = load_tmx(_squares(tmp_path))
    assert board.name == "squares"
    assert board.regions["all"].bonus == 4 and board.regions["all"].name == "Everything"
    assert set(board["nw"].neighbours) == {"ne", "sw"}
    assert set(board["se"].neighbours) == {"ne", "sw"}
    assert not board.adjacent("nw", "se")  # corners only
    assert board["ne"].polygon[0] == (100.0, 0.0)  # object offsets applied


def test_one_way_sea_lane_in_a_tiled_file_is_named(tmp_path: Path) -> None:
    listed = '<property name="neighbours" value="ne,sw"/><property name="sea_lanes" value="se"/>'
    with pytest.raises(BoardError, match=r"squares\.tmx.*one-way sea lane 'nw' -> 'se'"):
        load_tmx(_squares(tmp_path, nw_extra=listed))


def test_map_property_forces_derived_neighbours(tmp_path: Path) -> None:
    props = (
        '<properties><property name="name" value="Four squares"/>'
        '<property name="derive_neighbours" type="bool" value="true"/></properties>'
    )
    board = load_tmx(
        _squares(tmp_path, map_props=props, nw_extra='<property name="neighbours" value=""/>')
    )
    assert board.name == "Four squares"
    assert set(board["nw"].neighbours) == {"ne", "sw"}


def test_unknown_region_is_named(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match=r"squares\.tmx.*'se'.*unknown region 'atlantis'"):
        load_tmx(_squares(tmp_path, se_region="atlantis"))


def test_missing_region_property_names_the_object(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match=r"squares\.tmx.*object 5 'SE' has no 'region'"):
        load_tmx(_squares(tmp_path, se_region=""))


def test_one_way_neighbour_is_named(tmp_path: Path) -> None:
    extra = '<property name="neighbours" value="ne,sw,se"/>'
    with pytest.raises(BoardError, match=r"one-way neighbour 'nw' -> 'se'"):
        load_tmx(_squares(tmp_path, nw_extra=extra))


def test_bad_label_is_named(tmp_path: Path) -> None:
    extra = '<property name="label_x" value="east"/><property name="label_y" value="2"/>'
    with pytest.raises(BoardError, match=r"object 2 'NW'.*label_x"):
        load_tmx(_squares(tmp_path, nw_extra=extra))


def test_broken_xml_is_named(tmp_path: Path) -> None:
    path = tmp_path / "broken.tmx"
    path.write_text(SQUARES[:400], encoding="utf-8")
    with pytest.raises(BoardError, match=r"broken\.tmx: broken XML"):
        load_tmx(path)


def test_missing_id_and_missing_layers_are_named(tmp_path: Path) -> None:
    path = tmp_path / "noid.tmx"
    path.write_text(
        SQUARES.format(map_props="", nw_extra="", se_region="all").replace(
            '<property name="id" value="ne"/>', ""
        ),
        encoding="utf-8",
    )
    with pytest.raises(BoardError, match=r"noid\.tmx.*object 3 'NE' has no 'id'"):
        load_tmx(path)
    bare = tmp_path / "bare.tmx"
    bare.write_text(
        '<?xml version="1.0"?><map version="1.10" orientation="orthogonal" width="1" '
        'height="1" tilewidth="1" tileheight="1"></map>',
        encoding="utf-8",
    )
    with pytest.raises(BoardError, match=r"bare\.tmx: no regions"):
        load_tmx(bare)
    with pytest.raises(BoardError, match=r"nowhere\.tmx: no such file"):
        load_tmx(tmp_path / "nowhere.tmx")


def test_write_refuses_props_tiled_cannot_hold(tmp_path: Path) -> None:
    node = Node("a", "A", "r", props={"list": [1, 2]})
    board = Board([node], [Region("r", "R")])
    with pytest.raises(BoardError, match="'list' has type list"):
        write_tmx(board, tmp_path / "x.tmx", 10, 10)
    assert not (tmp_path / "x.tmx").exists()
    control = Board([Node("a", "A", "r", props={"m": "bell\x07"})], [Region("r", "R")])
    with pytest.raises(BoardError, match=r"node 'a': property 'm' holds '\\x07'"):
        write_tmx(control, tmp_path / "x.tmx", 10, 10)
    comma = Board([Node("a,b", "A", "r")], [Region("r", "R")])
    with pytest.raises(BoardError, match="node id 'a,b' cannot be listed"):
        write_tmx(comma, tmp_path / "x.tmx", 10, 10)
    assert not (tmp_path / "x.tmx").exists()


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 499), st.integers(1, 499)), min_size=2, max_size=25, unique=True
    ),
    st.integers(1, 4),
    st.dictionaries(
        st.sampled_from(["pop", "tax", "rich", "motto"]),
        st.one_of(
            st.integers(-1000, 1000),
            st.floats(-1e6, 1e6),
            st.booleans(),
            st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=8),
        ),
        max_size=3,
    ),
)
def test_random_boards_round_trip(
    tmp_path_factory: pytest.TempPathFactory,
    raw: list[tuple[int, int]],
    regions: int,
    props: dict[str, object],
) -> None:
    pts = [(float(x), float(y)) for x, y in raw]
    cells = voronoi_cells(pts, 500, 500)
    touching: dict[int, list[str]] = {i: [] for i in range(len(pts))}
    for i, j in shared_edges(cells):
        touching[i].append(f"n{j}")
        touching[j].append(f"n{i}")
    nodes = [
        Node(
            f"n{i}",
            f"Node <{i}> & co",
            f"r{i % regions}",
            tuple(touching[i]),
            polygon=tuple(cells[i]),
            label=label_point(cells[i]),
            props=props if i == 0 else {},
        )
        for i in range(len(pts))
    ]
    board = Board(nodes, [Region(f"r{k}", f"Region {k}", k) for k in range(regions)], name="rt")
    path = tmp_path_factory.mktemp("rt") / "rt.tmx"
    write_tmx(board, path, 500, 500)
    assert load_tmx(path) == board


def test_an_unknown_xml_encoding_is_a_board_error(tmp_path: Path) -> None:
    path = tmp_path / "odd.tmx"
    path.write_bytes(b'<?xml version="1.0" encoding="no-such-encoding"?>\n<map></map>\n')
    with pytest.raises(BoardError, match="odd.tmx"):
        load_tmx(path)
