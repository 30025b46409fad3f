"""Every map loader refuses coordinates that are not finite or absurdly far (issue 22
item 4): a Tiled map with a `nan` point, a board JSON with `1e400` (an infinity once
read), a NaN, or a label a googol away; the error names the file and the territory."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from suite.core.board import Board, BoardError, Node, Region
from suite.core.tiled import write_tmx
from suite.worldwar.rules.maps import classic_map, load_map_file, resolve_map


def tmx_text(tmp_path: Path) -> str:
    path = tmp_path / "classic.tmx"
    write_tmx(classic_map(), path, 1000, 600)
    return path.read_text(encoding="utf-8")


def json_data() -> dict[str, object]:
    return classic_map().to_json()


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400"])
def test_a_tiled_polygon_point_that_is_not_finite_is_refused(tmp_path: Path, value: str) -> None:
    text = re.sub(r'points="[-0-9.]+,', f'points="{value},', tmx_text(tmp_path), count=1)
    path = tmp_path / "bad.tmx"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardError, match="not finite") as caught:
        load_map_file(path)
    assert str(path) in str(caught.value) and "alaska" in str(caught.value)


def test_a_tiled_label_that_is_not_finite_is_refused(tmp_path: Path) -> None:
    text = re.sub(
        r'(name="label_x" type="float" value=")[^"]*', r"\g<1>nan", tmx_text(tmp_path), count=1
    )
    path = tmp_path / "bad.tmx"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardError, match="label .* not finite"):
        load_map_file(path)


@pytest.mark.parametrize("literal", ["1e400", "-1e400", "NaN", "Infinity"])
@pytest.mark.parametrize("where", ["polygon", "label"])
def test_a_board_json_coordinate_that_is_not_finite_is_refused(
    tmp_path: Path, literal: str, where: str
) -> None:
    data = json_data()
    nodes = data["nodes"]
    assert isinstance(nodes, list)
    marker = 98765.25
    if where == "polygon":
        nodes[3]["polygon"][2][0] = marker
    else:
        nodes[3]["label"] = [marker, 5]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data).replace(str(marker), literal), encoding="utf-8")
    with pytest.raises(BoardError, match="not finite") as caught:
        load_map_file(path)
    assert str(path) in str(caught.value) and repr(nodes[3]["id"]) in str(caught.value)


def test_a_coordinate_absurdly_far_is_refused(tmp_path: Path) -> None:
    data = json_data()
    nodes = data["nodes"]
    assert isinstance(nodes, list)
    nodes[0]["label"] = [1e100, 3]
    path = tmp_path / "far.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BoardError, match="lies past"):
        resolve_map(str(path))


def test_boards_built_in_code_are_checked_too() -> None:
    with pytest.raises(BoardError, match="not finite"):
        Board(
            [Node("a", "A", "r", polygon=((0.0, 0.0), (float("nan"), 1.0), (1.0, 1.0)))],
            [Region("r", "R")],
        )
    Board([Node("a", "A", "r", label=(3.0, 4.0))], [Region("r", "R")])  # fine
