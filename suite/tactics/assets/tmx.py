"""Tiled (`.tmx`) maps for a pack, read through pytmx, so modders can use the Tiled editor.

The map must be square (isometric is the intended orientation; orthogonal is read the
same way). Tile properties of each used tile:
- `movement`: movement bits (a number); when absent the pack tile's movement is used;
- `elevation`: 0-255 (default 0);
- `tile`: the `[Tiles]` palette index whose bitmap draws the cell (optional).
Only the first visible tile layer is read; an empty cell is border.
Starts are objects whose name, class/type or `team` property is red, green, yellow or
blue (or 1-4). In isometric maps Tiled stores object positions with both axes in units of
the tile height, so the cell is (x // tileheight, y // tileheight).

pytmx is imported only when a `.tmx` map is loaded (it pulls in pygame when available).
Before pytmx sees the file, its size and the width and height that its `<map>` and every
`<layer>` claim are checked against the map limits (pytmx would allocate them at once).
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np

from suite.tactics.assets.files import quoted
from suite.tactics.assets.limits import PackLimitError, check_dimensions, limits, read_limited
from suite.tactics.assets.model import TEAM_NAMES, MapGrid, MapInfo, Pack
from suite.tactics.assets.records import Reporter

_TEAM_WORDS = {name: i for i, name in enumerate(TEAM_NAMES)} | {
    str(i + 1): i for i in range(len(TEAM_NAMES))
}


def _int_property(props: dict[str, Any], key: str) -> int | None:
    for name, value in props.items():
        if name.lower() == key:
            try:
                return int(value) if len(str(value)) <= limits().ini.max_digits + 1 else None
            except (TypeError, ValueError):
                return None
    return None


def check_tmx_header(path: Path) -> None:
    """PackLimitError when the file, or the size its map or a layer claims, is past the
    map limits; ValueError when it is not XML. Only the start tags are looked at."""
    data = read_limited(path, limits().map.max_bytes, "a .tmx map")
    longest = limits().ini.max_digits
    found = re.search(rb"\d{%d,}" % (longest + 1), data)
    if found is not None:
        line = data.count(b"\n", 0, found.start()) + 1
        raise PackLimitError(
            f"{path.name}:{line}: a number of {found.end() - found.start()} digits is past "
            f"the limit of {longest}"
        )
    try:
        for _event, element in ET.iterparse(io.BytesIO(data), events=("start",)):
            if element.tag in ("map", "layer"):
                width = int(element.get("width", "0") or 0)
                height = int(element.get("height", "0") or 0)
                check_dimensions(path.name, width, height, "map")
    except ET.ParseError as exc:
        raise ValueError(f"{path.name}: not XML ({exc})") from exc


def load_tmx_grid(pack: Pack, info: MapInfo, report: Reporter) -> MapGrid | None:
    """The grid of a `.tmx` map, or None (with an error) when it cannot be used."""
    path = pack.path(info.bitmap)
    label = f"map {info.id} {quoted(info.name)}: {info.bitmap}"
    try:
        check_tmx_header(path)
    except PackLimitError as exc:
        report.error(info.line, str(exc))
        return None
    except (OSError, ValueError) as exc:
        report.error(info.line, f"{label}: not a readable Tiled map ({exc})")
        return None
    import pytmx

    try:
        tiled = pytmx.TiledMap(str(path))
    except Exception as exc:  # pytmx raises many kinds (XML, value, key errors)
        report.error(info.line, f"{label}: not a readable Tiled map ({exc})")
        return None
    width, height = int(tiled.width), int(tiled.height)
    if width != height:
        report.error(info.line, f"{label} is {width}x{height}, a map must be square")
        return None
    layers = [layer for layer in tiled.visible_layers if isinstance(layer, pytmx.TiledTileLayer)]
    if not layers:
        report.error(info.line, f"{label}: no tile layer")
        return None
    tiles = np.zeros((height, width), dtype=np.uint8)
    movement = np.zeros((height, width), dtype=np.uint8)
    heights = np.zeros((height, width), dtype=np.uint8)
    bad: set[int] = set()
    for x, y, gid in layers[0].iter_data():
        if not gid:
            continue
        props = tiled.get_tile_properties_by_gid(gid) or {}
        index = _int_property(props, "tile")
        bits = _int_property(props, "movement")
        if bits is None and index is not None and index in pack.tiles:
            bits = pack.tiles[index].movement
        if bits is None or not 0 <= bits <= 255:
            bad.add(gid)
            continue
        tiles[y, x] = index if index is not None and 0 < index < 256 else 0
        movement[y, x] = bits
        level = _int_property(props, "elevation") or 0
        heights[y, x] = min(255, max(0, level))
    # pytmx renumbers gids internally; report the gid the modder sees in Tiled
    original = getattr(tiled, "tiledgidmap", {})
    for gid in sorted(original.get(gid, gid) for gid in bad):
        report.error(info.line, f"{label}: Tiled tile gid {gid} has no usable 'movement' property")
    starts = _starts(tiled, width, report, info, label)
    return MapGrid(info.id, info.name, tiles, movement, heights, starts)


def _starts(
    tiled: Any, size: int, report: Reporter, info: MapInfo, label: str
) -> tuple[tuple[int, int] | None, ...]:
    found: list[tuple[int, int] | None] = [None] * len(TEAM_NAMES)
    unit = int(tiled.tileheight) if tiled.orientation == "isometric" else None
    for obj in tiled.objects:
        props = dict(obj.properties or {})
        words = [str(obj.name or ""), str(getattr(obj, "type", "") or "")]
        words += [str(v) for k, v in props.items() if k.lower() == "team"]
        team = next((_TEAM_WORDS[w.lower()] for w in words if w.lower() in _TEAM_WORDS), None)
        if team is None:
            continue
        cx = float(obj.x) + float(obj.width or 0) / 2
        cy = float(obj.y) + float(obj.height or 0) / 2
        x = int(cx // (unit or tiled.tilewidth))
        y = int(cy // (unit or tiled.tileheight))
        if not (0 <= x < size and 0 <= y < size):
            report.error(info.line, f"{label}: {TEAM_NAMES[team]} start is outside the map")
            continue
        if found[team] is None:
            found[team] = (x, y)
    for team, start in enumerate(found):
        if start is None:
            report.error(info.line, f"{label}: no {TEAM_NAMES[team]} start object")
    return tuple(found)
