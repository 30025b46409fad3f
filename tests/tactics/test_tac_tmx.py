"""Tiled isometric maps in a pack: tile properties movement/elevation/tile and start objects."""

from __future__ import annotations

from pathlib import Path

from suite.tactics.assets.pack import load_pack

from .conftest import GOOD_INI

TSX_TILES = """
  <tile id="0"><properties><property name="movement" type="int" value="1"/>
    <property name="elevation" type="int" value="40"/><property name="tile" type="int" value="20"/>
  </properties><image width="128" height="128" source="grass.png"/></tile>
  <tile id="1"><properties><property name="movement" type="int" value="8"/></properties>
    <image width="128" height="128" source="water.png"/></tile>
  <tile id="2"><properties><property name="tile" type="int" value="20"/></properties>
    <image width="128" height="128" source="grass2.png"/></tile>
  <tile id="3"><image width="128" height="128" source="nothing.png"/></tile>
"""


def tmx(width: int, height: int, rows: list[str], objects: str) -> str:
    data = ",\n".join(rows)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="isometric" renderorder="right-down" width="{width}"
 height="{height}" tilewidth="128" tileheight="64" infinite="0" nextlayerid="3"
 nextobjectid="9">
 <tileset firstgid="1" name="terrain" tilewidth="128" tileheight="128" tilecount="4"
  columns="0">
  <grid orientation="orthogonal" width="1" height="1"/>{TSX_TILES}
 </tileset>
 <layer id="1" name="ground" width="{width}" height="{height}">
  <data encoding="csv">
{data}
</data>
 </layer>
 <objectgroup id="2" name="starts">{objects}
 </objectgroup>
</map>
"""


STARTS = """
  <object id="1" name="red" x="32" y="32"><point/></object>
  <object id="2" name="green" x="224" y="32"><point/></object>
  <object id="3" type="start" x="224" y="224"><properties>
   <property name="team" value="yellow"/></properties><point/></object>
  <object id="4" name="4" x="32" y="224"><point/></object>
"""


def write(root: Path, text: str) -> None:
    (root / "maps").mkdir(parents=True, exist_ok=True)
    (root / "maps" / "field.tmx").write_text(text, encoding="utf-8")


def test_tmx_map_loads(make_pack) -> None:
    root = make_pack(GOOD_INI.replace("maps\\field", "maps\\field.tmx"), name="tmx")
    write(root, tmx(4, 4, ["1,1,1,1", "1,2,2,3", "1,2,2,1", "0,1,1,1"], STARTS))
    pack = load_pack(root)
    assert pack.problems == []
    grid = pack.grids[1]
    assert grid.starts == ((0, 0), (3, 0), (3, 3), (0, 3))
    assert grid.movement.tolist() == [[1, 1, 1, 1], [1, 8, 8, 3], [1, 8, 8, 1], [0, 1, 1, 1]]
    assert int(grid.elevation[0, 0]) == 40 and int(grid.elevation[1, 1]) == 0
    assert int(grid.tiles[0, 0]) == 20 and int(grid.tiles[1, 1]) == 0


def test_tmx_problems(make_pack) -> None:
    root = make_pack(GOOD_INI.replace("maps\\field", "maps\\field.tmx"), name="tmxbad")
    objects = STARTS.replace('name="green" x="224"', 'name="green" x="900"')
    write(root, tmx(4, 4, ["1,1,1,1", "1,4,1,1", "1,1,1,1", "1,1,1,1"], objects))
    found = [p.message for p in load_pack(root).errors]
    assert "map 1 'Field': maps/field.tmx: green start is outside the map" in found
    assert "map 1 'Field': maps/field.tmx: no green start object" in found
    assert "map 1 'Field': maps/field.tmx: Tiled tile gid 4 has no usable 'movement' property" in (
        found
    )
    write(root, tmx(4, 3, ["1,1,1,1", "1,1,1,1", "1,1,1,1"], STARTS))
    found = [p.message for p in load_pack(root).errors]
    assert "map 1 'Field': maps/field.tmx is 4x3, a map must be square" in found
    write(root, "<map><broken")
    found = [p.message for p in load_pack(root).errors]
    assert found[0].startswith("map 1 'Field': maps/field.tmx: not a readable Tiled map")
