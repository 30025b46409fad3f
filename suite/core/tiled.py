"""Boards in Tiled `.tmx` files: `load_tmx` (through pytmx) and `write_tmx`.

The convention (orthogonal map; no tile layers are needed):

- Map properties: `name` (the board's name; the file stem when absent) and optionally
  `derive_neighbours` (bool): when true, every node's land neighbours are derived from
  shared polygon edges, whatever it lists.
- An object layer named `regions`: one object per region (its shape is ignored; a point
  is fine). Properties: `id` (required), `bonus` (int, default 0), `colour` ("#rrggbb",
  default grey). The region's name is the object's name (or a `name` property).
- Every other object layer holds nodes: one object per node, normally a polygon (its
  points are the node's shape), else a point or rectangle. Properties: `id` and `region`
  (required); `neighbours` and `sea_lanes` (comma-separated node ids); `label_x`/`label_y`
  (the label point; absent means none). The node's name is the object's name (or a `name`
  property). A node WITHOUT a `neighbours` property gets its land neighbours from the
  polygons it shares a border segment with (an empty `neighbours` value means "none",
  e.g. an island reached only by sea lanes). Any other property goes to `Node.props`
  with its Tiled type (string, int, float, bool).

`write_tmx` writes exactly this layout (objects at the origin with absolute points so that
coordinates round-trip bit for bit), and `load_tmx(write_tmx(board))` equals `board`.
Every problem raises `BoardError` naming the file and the item.
"""

from __future__ import annotations

import math
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from suite.core.board import Board, BoardError, Node, Point, Region, check_coords
from suite.core.geometry import shared_edges

REGIONS_LAYER = "regions"
NODES_LAYER = "territories"
_NODE_KEYS = {"id", "name", "region", "neighbours", "sea_lanes", "label_x", "label_y"}
_REGION_KEYS = {"id", "name", "bonus", "colour"}
_XML_ILLEGAL = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
EDGE_TOLERANCE = 0.5
"""Pixels: how close two polygon edges must run to count as a shared border."""


def _pytmx() -> ModuleType:
    """Import pytmx without letting it pull in pygame (it imports pygame when it can).

    Rules engines load maps headless and must not start pygame; pytmx only needs pygame
    for images. If pygame is already loaded (the UI), pytmx is imported normally.
    """
    loaded = sys.modules.get("pytmx")
    if loaded is not None:
        return loaded
    # A None entry makes `import X` raise ImportError, which pytmx catches.
    blocked = [m for m in ("pygame", "pytmx.util_pygame") if m not in sys.modules]
    for name in blocked:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        import pytmx
    finally:
        for name in blocked:
            del sys.modules[name]
    module: ModuleType = pytmx
    return module


def load_tmx(path: str | Path) -> Board:
    """Load a board from a Tiled map following the module's convention."""
    p = Path(path)
    src = str(p)
    if not p.is_file():
        raise BoardError("no such file", src)
    pytmx = _pytmx()
    try:
        tmap = pytmx.TiledMap(str(p), allow_duplicate_names=True)
    except ET.ParseError as exc:
        raise BoardError(f"broken XML: {exc}", src) from exc
    except (ValueError, KeyError, TypeError, AttributeError, OSError, LookupError) as exc:
        # LookupError: an XML declaration naming an unknown encoding (UnicodeError is a
        # ValueError); IndexError and KeyError are LookupErrors too.
        raise BoardError(f"unreadable Tiled map: {exc}", src) from exc

    map_props = dict(tmap.properties)
    regions: list[Region] = []
    raw_nodes: list[tuple[dict[str, Any], Any]] = []
    for layer in tmap.layers:
        if not isinstance(layer, pytmx.TiledObjectGroup):
            continue
        for obj in layer:
            if layer.name == REGIONS_LAYER:
                regions.append(_region_from(obj, src))
            else:
                raw_nodes.append((_props(obj), obj))
    if not regions:
        raise BoardError(f"no regions: add an object layer named {REGIONS_LAYER!r}", src)
    if not raw_nodes:
        raise BoardError("no nodes: add an object layer of polygon objects", src)

    derive_all = _as_bool(map_props.get("derive_neighbours", False), "derive_neighbours", src)
    built = [_node_from(props, obj, src) for props, obj in raw_nodes]
    nodes = [n for n, _ in built]
    derive = [derive_all or not has_list for _, has_list in built]
    if any(derive):
        nodes = _derive_neighbours(nodes, derive, src)
    name = str(map_props.get("name", p.stem))
    return Board(nodes, regions, name=name, source=src)


def _describe_obj(obj: Any) -> str:
    name = getattr(obj, "name", None)
    return f"object {obj.id}" + (f" {name!r}" if name else "")


def _props(obj: Any) -> dict[str, Any]:
    # pytmx reads an empty string property as None; in Tiled it is an empty string.
    return {str(k): ("" if v is None else v) for k, v in obj.properties.items()}


def _region_from(obj: Any, src: str) -> Region:
    props = _props(obj)
    where = f"region {_describe_obj(obj)}"
    if "id" not in props:
        raise BoardError(f"{where} has no 'id' property", src)
    rid = str(props["id"])
    try:
        bonus = int(props.get("bonus", 0))
    except (TypeError, ValueError) as exc:
        raise BoardError(
            f"{where}: bonus {props.get('bonus')!r} is not a whole number", src
        ) from exc
    return Region(
        id=rid,
        name=str(props.get("name") or obj.name or rid),
        bonus=bonus,
        colour=str(props.get("colour", "#808080")),
    )


def _node_from(props: dict[str, Any], obj: Any, src: str) -> tuple[Node, bool]:
    where = f"node {_describe_obj(obj)}"
    for key in ("id", "region"):
        if key not in props or str(props[key]).strip() == "":
            raise BoardError(f"{where} has no {key!r} property", src)
    nid = str(props["id"])
    polygon: tuple[Point, ...] = ()
    points = getattr(obj, "points", None)
    if points:
        polygon = tuple((float(pt.x), float(pt.y)) for pt in points)
    elif float(getattr(obj, "width", 0) or 0) > 0 and float(getattr(obj, "height", 0) or 0) > 0:
        x, y, w, h = float(obj.x), float(obj.y), float(obj.width), float(obj.height)
        polygon = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    label: Point | None = None
    if "label_x" in props or "label_y" in props:
        try:
            label = (float(props["label_x"]), float(props["label_y"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise BoardError(f"{where} ({nid!r}) needs numeric label_x and label_y", src) from exc
    extra = {k: v for k, v in props.items() if k not in _NODE_KEYS}
    # Checked before anything derives borders from the shape (the Board checks again).
    check_coords(Node(f"{nid} ({_describe_obj(obj)})", "", "", polygon=polygon, label=label), src)
    node = Node(
        id=nid,
        name=str(props.get("name") or obj.name or nid),
        region=str(props["region"]),
        neighbours=_id_list(props.get("neighbours", "")),
        sea_lanes=_id_list(props.get("sea_lanes", "")),
        polygon=polygon,
        label=label,
        props=extra,
    )
    return node, "neighbours" in props


def _id_list(value: Any) -> tuple[str, ...]:
    return tuple(s.strip() for s in str(value).split(",") if s.strip())


def _as_bool(value: Any, key: str, src: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no", ""):
        return False
    raise BoardError(f"map property {key!r} must be true or false, not {value!r}", src)


def _derive_neighbours(nodes: list[Node], derive: list[bool], src: str) -> list[Node]:
    for node, d in zip(nodes, derive, strict=True):
        if d and len(node.polygon) < 3:
            raise BoardError(
                f"node {node.id!r} lists no neighbours and has no polygon to derive them from",
                src,
            )
    pairs = shared_edges([n.polygon for n in nodes], EDGE_TOLERANCE)
    touching: dict[int, set[int]] = {i: set() for i in range(len(nodes))}
    for i, j in pairs:
        touching[i].add(j)
        touching[j].add(i)
    out = []
    for i, (node, d) in enumerate(zip(nodes, derive, strict=True)):
        if d:
            ids = tuple(nodes[j].id for j in sorted(touching[i]))
            node = Node(
                id=node.id,
                name=node.name,
                region=node.region,
                neighbours=ids,
                sea_lanes=node.sea_lanes,
                polygon=node.polygon,
                label=node.label,
                props=node.props,
            )
        out.append(node)
    return out


# -- writing ---------------------------------------------------------------


def write_tmx(board: Board, path: str | Path, width: int, height: int) -> None:
    """Write `board` as a Tiled map of `width` x `height` pixels (1-pixel tiles).

    Node props must be str, int, float or bool (Tiled's property types); anything else
    raises BoardError. The file is written atomically.
    """
    from suite.core.store import atomic_write_bytes

    if width <= 0 or height <= 0:
        raise BoardError(f"map size must be positive, not {width}x{height}", str(path))
    root = ET.Element(
        "map",
        {
            "version": "1.10",
            "tiledversion": "1.10.2",
            "orientation": "orthogonal",
            "renderorder": "right-down",
            "width": str(int(width)),
            "height": str(int(height)),
            "tilewidth": "1",
            "tileheight": "1",
            "infinite": "0",
            "nextlayerid": "3",
            "nextobjectid": str(len(board.regions) + len(board.nodes) + 1),
        },
    )
    _properties(root, {"name": board.name}, str(path))
    next_id = 1
    regions_layer = ET.SubElement(root, "objectgroup", {"id": "1", "name": REGIONS_LAYER})
    for region in board.regions.values():
        # The region's point sits amid its members' labels so it is easy to find in Tiled;
        # its position carries no meaning.
        labels = [board[n].label for n in board.members(region.id)]
        spots = [p for p in labels if p is not None]
        x = round(sum(p[0] for p in spots) / len(spots), 1) if spots else 0.0
        y = round(sum(p[1] for p in spots) / len(spots), 1) if spots else 0.0
        obj = ET.SubElement(
            regions_layer,
            "object",
            {
                "id": str(next_id),
                "name": _xml_text(region.name, f"region {region.id!r} name", str(path)),
                "x": _num(x),
                "y": _num(y),
            },
        )
        next_id += 1
        _properties(
            obj, {"id": region.id, "bonus": region.bonus, "colour": region.colour}, str(path)
        )
        ET.SubElement(obj, "point")
    nodes_layer = ET.SubElement(root, "objectgroup", {"id": "2", "name": NODES_LAYER})
    for node in board.nodes.values():
        if "," in node.id or node.id != node.id.strip():
            raise BoardError(
                f"node id {node.id!r} cannot be listed in Tiled (commas or outer spaces)",
                str(path),
            )
        obj = ET.SubElement(
            nodes_layer,
            "object",
            {
                "id": str(next_id),
                "name": _xml_text(node.name, f"node {node.id!r} name", str(path)),
                "type": "node",
                "x": "0",
                "y": "0",
            },
        )
        next_id += 1
        props: dict[str, Any] = {
            "id": node.id,
            "region": node.region,
            "neighbours": ",".join(node.neighbours),
            "sea_lanes": ",".join(node.sea_lanes),
        }
        if node.label is not None:
            props["label_x"], props["label_y"] = float(node.label[0]), float(node.label[1])
        for key, value in node.props.items():
            if key in _NODE_KEYS:
                raise BoardError(f"node {node.id!r}: prop {key!r} clashes with a field", str(path))
            props[key] = value
        _properties(obj, props, str(path), f"node {node.id!r}")
        if len(node.polygon) >= 3:
            pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in node.polygon)
            ET.SubElement(obj, "polygon", {"points": pts})
        elif node.label is not None:
            obj.set("x", _num(node.label[0]))
            obj.set("y", _num(node.label[1]))
            ET.SubElement(obj, "point")
    ET.indent(root, space=" ")
    data = b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8")
    atomic_write_bytes(path, data + b"\n")


def _xml_text(text: str, what: str, src: str) -> str:
    """`text` if XML can hold it; BoardError otherwise (control characters, lone surrogates)."""
    bad = _XML_ILLEGAL.search(text)
    if bad:
        raise BoardError(f"{what} holds {bad.group()!r}, which XML cannot store", src)
    return text


def _num(value: float) -> str:
    """Shortest exact text for a coordinate (an int when whole)."""
    f = float(value)
    if not math.isfinite(f):
        raise BoardError(f"coordinate {value!r} is not finite")
    return str(int(f)) if f.is_integer() and abs(f) < 2**53 else repr(f)


def _properties(parent: ET.Element, props: Mapping[str, Any], src: str, item: str = "map") -> None:
    if not props:
        return
    holder = ET.SubElement(parent, "properties")
    for key, value in props.items():
        attrs = {"name": str(key)}
        if isinstance(value, bool):
            attrs["type"], attrs["value"] = "bool", "true" if value else "false"
        elif isinstance(value, int):
            attrs["type"], attrs["value"] = "int", str(value)
        elif isinstance(value, float):
            attrs["type"], attrs["value"] = "float", repr(value)
        elif isinstance(value, str):
            attrs["value"] = _xml_text(value, f"{item}: property {key!r}", src)
        else:
            raise BoardError(
                f"{item}: property {key!r} has type {type(value).__name__}; "
                "Tiled properties are str, int, float or bool",
                src,
            )
        ET.SubElement(holder, "property", attrs)
