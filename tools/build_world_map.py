"""Build assets/worldwar/maps/classic.tmx, the classic 42-territory world map.

Shapes come from Natural Earth (public domain) as carried by the npm package world-atlas
(countries-110m.json, TopoJSON). Run once, by hand; the output is committed, and neither
the game nor its tests need this script or its dependencies:

    cd /tmp && npm pack world-atlas && mkdir -p wa && tar xzf world-atlas-*.tgz -C wa
    .venv/bin/pip install shapely          # for this tool only
    .venv/bin/python tools/build_world_map.py /tmp/wa/package/countries-110m.json

Steps: decode the TopoJSON arcs; give every country (or a longitude/latitude box of a big
country) to one of the 42 territories; merge each territory, fusing nearby islands by a
morphological closing and keeping one outline per territory; project with Miller's
cylindrical projection onto a 1600x900 canvas (Antarctica and the far south cropped);
simplify the shapes as a coverage so that neighbours keep a common border; write the
board with suite.core.tiled.write_tmx. The adjacency is the classic board's, written out
below: land borders as neighbours, crossings of water as sea lanes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import MultiPolygon, Polygon, box
from shapely.ops import unary_union

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from suite.core.board import Board, Node, Region  # noqa: E402
from suite.core.geometry import label_point  # noqa: E402
from suite.core.tiled import write_tmx  # noqa: E402

WIDTH, HEIGHT = 1600, 900
MARGIN_X = 20
LON_WEST = -170.0  # Chukotka east of 180 is shifted by 360 so Asia stays whole on the right
LAT_NORTH, LAT_SOUTH = 84.0, -56.0
SIMPLIFY_PX = 0.8

REGIONS = [
    # id, name, bonus (RULINGS R2), colour
    ("north_america", "North America", 5, "#d9b53f"),
    ("south_america", "South America", 3, "#c2553f"),
    ("africa", "Africa", 4, "#b9854a"),
    ("europe", "Europe", 6, "#4f78b8"),
    ("asia", "Asia", 9, "#5f9a4a"),
    ("australia", "Australia", 2, "#9460a8"),
]

Box = tuple[float, float, float, float]  # lon_min, lat_min, lon_max, lat_max
WORLD: Box = (-180.0, -90.0, 200.0, 90.0)

# Territory id -> (name, region, closing distance in degrees, [(country, box), ...]).
TERRITORIES: dict[str, tuple[str, str, float, list[tuple[str, Box]]]] = {}


def _t(tid: str, name: str, region: str, close: float, *parts: str | tuple[str, Box]) -> None:
    TERRITORIES[tid] = (
        name,
        region,
        close,
        [(p, WORLD) if isinstance(p, str) else p for p in parts],
    )


USA, CAN, RUS, CHN = "United States of America", "Canada", "Russia", "China"
_t("alaska", "Alaska", "north_america", 0.0, (USA, (-180, 51, -129, 72)))
_t("northwest_territory", "Northwest Territory", "north_america", 1.2, (CAN, (-142, 60, -60, 84)))
_t("greenland", "Greenland", "north_america", 0.0, "Greenland")
_t("alberta", "Alberta", "north_america", 0.3, (CAN, (-142, 40, -110, 60)))
_t("ontario", "Ontario", "north_america", 0.0, (CAN, (-110, 40, -80, 60)))
_t("quebec", "Quebec", "north_america", 0.6, (CAN, (-80, 40, -50, 60)))
_t(
    "western_united_states",
    "Western United States",
    "north_america",
    0.0,
    (USA, (-129, 24, -98, 50)),
)
_t(
    "eastern_united_states",
    "Eastern United States",
    "north_america",
    0.0,
    (USA, (-98, 24, -60, 50)),
)
_t(
    "central_america",
    "Central America",
    "north_america",
    0.0,
    "Mexico",
    "Guatemala",
    "Belize",
    "Honduras",
    "El Salvador",
    "Nicaragua",
    "Costa Rica",
    "Panama",
)

_t(
    "venezuela",
    "Venezuela",
    "south_america",
    0.0,
    "Venezuela",
    "Colombia",
    "Guyana",
    "Suriname",
    ("France", (-60, 0, -50, 10)),
)
_t("peru", "Peru", "south_america", 0.0, "Peru", "Ecuador", "Bolivia")
_t("brazil", "Brazil", "south_america", 0.0, "Brazil")
_t("argentina", "Argentina", "south_america", 0.0, "Argentina", "Chile", "Uruguay", "Paraguay")

_t(
    "north_africa",
    "North Africa",
    "africa",
    0.0,
    "Morocco",
    "W. Sahara",
    "Algeria",
    "Tunisia",
    "Mauritania",
    "Mali",
    "Niger",
    "Chad",
    "Senegal",
    "Gambia",
    "Guinea-Bissau",
    "Guinea",
    "Sierra Leone",
    "Liberia",
    "Côte d'Ivoire",
    "Burkina Faso",
    "Ghana",
    "Togo",
    "Benin",
    "Nigeria",
)
_t("egypt", "Egypt", "africa", 0.0, "Egypt", "Libya")
_t(
    "east_africa",
    "East Africa",
    "africa",
    0.0,
    "Sudan",
    "S. Sudan",
    "Eritrea",
    "Ethiopia",
    "Djibouti",
    "Somalia",
    "Somaliland",
    "Kenya",
    "Uganda",
    "Tanzania",
    "Rwanda",
    "Burundi",
)
_t(
    "congo",
    "Congo",
    "africa",
    0.0,
    "Cameroon",
    "Central African Rep.",
    "Gabon",
    "Eq. Guinea",
    "Congo",
    "Dem. Rep. Congo",
    "Angola",
)
_t(
    "south_africa",
    "South Africa",
    "africa",
    0.0,
    "South Africa",
    "Namibia",
    "Botswana",
    "Zimbabwe",
    "Mozambique",
    "Zambia",
    "Malawi",
    "Lesotho",
    "eSwatini",
)
_t("madagascar", "Madagascar", "africa", 0.0, "Madagascar")

_t("iceland", "Iceland", "europe", 0.0, "Iceland")
_t("great_britain", "Great Britain", "europe", 0.6, "United Kingdom", "Ireland")
_t("scandinavia", "Scandinavia", "europe", 0.0, "Norway", "Sweden", "Finland")
_t(
    "northern_europe",
    "Northern Europe",
    "europe",
    0.4,
    "Germany",
    "Denmark",
    "Netherlands",
    "Belgium",
    "Luxembourg",
    "Poland",
    "Czechia",
    "Austria",
    "Slovakia",
)
_t(
    "western_europe",
    "Western Europe",
    "europe",
    0.0,
    ("France", (-10, 40, 10, 52)),
    "Spain",
    "Portugal",
)
_t(
    "southern_europe",
    "Southern Europe",
    "europe",
    0.0,
    "Italy",
    "Switzerland",
    "Slovenia",
    "Croatia",
    "Bosnia and Herz.",
    "Serbia",
    "Montenegro",
    "Kosovo",
    "Albania",
    "Macedonia",
    "Greece",
    "Bulgaria",
    "Romania",
    "Hungary",
)
_t(
    "ukraine",
    "Ukraine",
    "europe",
    0.0,
    "Ukraine",
    "Belarus",
    "Estonia",
    "Latvia",
    "Lithuania",
    "Moldova",
    (RUS, (25, 40, 55, 84)),
)

_t("ural", "Ural", "asia", 0.0, (RUS, (55, 40, 75, 84)))
_t("siberia", "Siberia", "asia", 0.0, (RUS, (75, 40, 100, 84)))
_t("yakutsk", "Yakutsk", "asia", 0.0, (RUS, (100, 60, 140, 84)))
_t("kamchatka", "Kamchatka", "asia", 0.0, (RUS, (140, 40, 200, 84)), (RUS, (135, 40, 140, 60)))
_t("irkutsk", "Irkutsk", "asia", 0.0, (RUS, (100, 40, 135, 60)))
_t("mongolia", "Mongolia", "asia", 0.0, "Mongolia", (CHN, (111, 41, 140, 60)))
_t("japan", "Japan", "asia", 1.0, "Japan")
_t(
    "afghanistan",
    "Afghanistan",
    "asia",
    0.0,
    "Afghanistan",
    "Kazakhstan",
    "Turkmenistan",
    "Uzbekistan",
    "Kyrgyzstan",
    "Tajikistan",
)
_t(
    "china",
    "China",
    "asia",
    0.0,
    (CHN, (70, 15, 111, 60)),
    (CHN, (111, 15, 140, 41)),
    "North Korea",
    "South Korea",
)
_t(
    "middle_east",
    "Middle East",
    "asia",
    0.0,
    "Turkey",
    "Syria",
    "Lebanon",
    "Israel",
    "Palestine",
    "Jordan",
    "Iraq",
    "Iran",
    "Saudi Arabia",
    "Yemen",
    "Oman",
    "United Arab Emirates",
    "Qatar",
    "Kuwait",
    "Georgia",
    "Armenia",
    "Azerbaijan",
)
_t("india", "India", "asia", 0.0, "India", "Pakistan", "Nepal", "Bhutan", "Bangladesh")
_t(
    "siam",
    "Siam",
    "asia",
    0.0,
    "Myanmar",
    "Thailand",
    "Laos",
    "Cambodia",
    "Vietnam",
    ("Malaysia", (95, -5, 105, 10)),
)

_t(
    "indonesia",
    "Indonesia",
    "australia",
    2.6,
    ("Indonesia", (94, -12, 130.5, 8)),
    ("Malaysia", (105, -5, 125, 10)),
    "Brunei",
)
_t(
    "new_guinea",
    "New Guinea",
    "australia",
    0.0,
    ("Indonesia", (130.5, -12, 142, 2)),
    "Papua New Guinea",
)
_t("western_australia", "Western Australia", "australia", 0.0, ("Australia", (110, -40, 134, -10)))
_t("eastern_australia", "Eastern Australia", "australia", 1.5, ("Australia", (134, -45, 156, -9)))

LAND = [
    ("alaska", "northwest_territory"),
    ("alaska", "alberta"),
    ("northwest_territory", "alberta"),
    ("northwest_territory", "ontario"),
    ("alberta", "ontario"),
    ("alberta", "western_united_states"),
    ("ontario", "western_united_states"),
    ("ontario", "eastern_united_states"),
    ("ontario", "quebec"),
    ("quebec", "eastern_united_states"),
    ("western_united_states", "eastern_united_states"),
    ("western_united_states", "central_america"),
    ("eastern_united_states", "central_america"),
    ("central_america", "venezuela"),
    ("venezuela", "peru"),
    ("venezuela", "brazil"),
    ("peru", "brazil"),
    ("peru", "argentina"),
    ("brazil", "argentina"),
    ("north_africa", "egypt"),
    ("north_africa", "east_africa"),
    ("north_africa", "congo"),
    ("egypt", "east_africa"),
    ("east_africa", "congo"),
    ("east_africa", "south_africa"),
    ("congo", "south_africa"),
    ("egypt", "middle_east"),
    ("scandinavia", "ukraine"),
    ("northern_europe", "ukraine"),
    ("northern_europe", "southern_europe"),
    ("northern_europe", "western_europe"),
    ("western_europe", "southern_europe"),
    ("southern_europe", "ukraine"),
    ("southern_europe", "middle_east"),
    ("ukraine", "middle_east"),
    ("ukraine", "afghanistan"),
    ("ukraine", "ural"),
    ("ural", "siberia"),
    ("ural", "china"),
    ("ural", "afghanistan"),
    ("siberia", "yakutsk"),
    ("siberia", "irkutsk"),
    ("siberia", "mongolia"),
    ("siberia", "china"),
    ("yakutsk", "irkutsk"),
    ("yakutsk", "kamchatka"),
    ("kamchatka", "irkutsk"),
    ("kamchatka", "mongolia"),
    ("irkutsk", "mongolia"),
    ("mongolia", "china"),
    ("afghanistan", "china"),
    ("afghanistan", "india"),
    ("afghanistan", "middle_east"),
    ("china", "india"),
    ("china", "siam"),
    ("middle_east", "india"),
    ("india", "siam"),
    ("western_australia", "eastern_australia"),
]
SEA = [
    ("alaska", "kamchatka"),
    ("greenland", "northwest_territory"),
    ("greenland", "ontario"),
    ("greenland", "quebec"),
    ("greenland", "iceland"),
    ("brazil", "north_africa"),
    ("north_africa", "western_europe"),
    ("north_africa", "southern_europe"),
    ("egypt", "southern_europe"),
    ("east_africa", "middle_east"),
    ("east_africa", "madagascar"),
    ("south_africa", "madagascar"),
    ("iceland", "great_britain"),
    ("iceland", "scandinavia"),
    ("great_britain", "scandinavia"),
    ("great_britain", "northern_europe"),
    ("great_britain", "western_europe"),
    ("scandinavia", "northern_europe"),
    ("kamchatka", "japan"),
    ("mongolia", "japan"),
    ("siam", "indonesia"),
    ("indonesia", "new_guinea"),
    ("indonesia", "western_australia"),
    ("new_guinea", "eastern_australia"),
    ("new_guinea", "western_australia"),
]


# -- TopoJSON -----------------------------------------------------------------


def decode_arcs(topo: dict[str, Any]) -> list[list[tuple[float, float]]]:
    """Absolute lon/lat points of each arc (quantised, delta-encoded in the file)."""
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)
    return arcs


def ring(
    arcs: list[list[tuple[float, float]]], indices: Iterable[int]
) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for i in indices:
        seg = arcs[i] if i >= 0 else arcs[~i][::-1]
        pts.extend(seg[1:] if pts else seg)
    return pts


def countries(topo: dict[str, Any]) -> dict[str, Any]:
    """Country name -> shapely geometry (lon/lat), Chukotka shifted east of 180."""
    arcs = decode_arcs(topo)
    out: dict[str, Any] = {}
    for geom in topo["objects"]["countries"]["geometries"]:
        name = geom["properties"]["name"]
        if geom["type"] == "Polygon":
            polys = [geom["arcs"]]
        elif geom["type"] == "MultiPolygon":
            polys = geom["arcs"]
        else:
            continue
        shapes = []
        for rings in polys:
            shell = ring(arcs, rings[0])
            holes = [ring(arcs, r) for r in rings[1:]]
            if name == RUS:
                # Russia's rings cross the antimeridian: keep its east side east of 180.
                shell = [(x + 360.0 if x < 0 else x, y) for x, y in shell]
            shapes.append(Polygon(shell, holes).buffer(0))
        out[name] = unary_union(shapes)
    return out


# -- shapes -------------------------------------------------------------------


def territory_shape(geo: dict[str, Any], land: Any, tid: str) -> Polygon:
    name, _region, close, parts = TERRITORIES[tid]
    pieces = []
    for country, (x0, y0, x1, y1) in parts:
        if country not in geo:
            raise SystemExit(f"{tid}: no country {country!r} in the data")
        piece = geo[country].intersection(box(x0, y0, x1, y1))
        if piece.is_empty:
            raise SystemExit(f"{tid}: the box of {country!r} is empty")
        pieces.append(piece)
    shape = unary_union(pieces)
    if close > 0:
        # Fuse islands a strait apart into one outline (a closing: grow, then shrink),
        # adding only sea so that no neighbour loses land.
        closed = shape.buffer(close, join_style="round").buffer(-close, join_style="round")
        shape = unary_union([shape, closed.difference(land)])
    if isinstance(shape, MultiPolygon):
        shape = max(shape.geoms, key=lambda g: g.area)
    return Polygon(shape.exterior)


def miller_y(lat: float) -> float:
    phi = math.radians(max(min(lat, 89.0), -89.0))
    return 1.25 * math.log(math.tan(math.pi / 4 + 0.4 * phi))


SCALE = (WIDTH - 2 * MARGIN_X) / (2 * math.pi)
TOP = miller_y(LAT_NORTH)
MARGIN_Y = (HEIGHT - (TOP - miller_y(LAT_SOUTH)) * SCALE) / 2


def project(lon: float, lat: float) -> tuple[float, float]:
    x = MARGIN_X + math.radians(lon - LON_WEST) * SCALE
    y = MARGIN_Y + (TOP - miller_y(lat)) * SCALE
    return (x, y)


def to_pixels(poly: Polygon) -> Polygon:
    return Polygon([project(x, y) for x, y in poly.exterior.coords])


def build(topo_path: Path) -> Board:
    topo = json.loads(topo_path.read_text(encoding="utf-8"))
    geo = countries(topo)
    ids = list(TERRITORIES)
    land = unary_union(list(geo.values()))
    lonlat = [territory_shape(geo, land, tid) for tid in ids]
    # Territories may overlap where a closing reached into a neighbour; the earlier one
    # in the list keeps the land, so the shapes stay a coverage.
    taken = Polygon()
    clean = []
    for shape in lonlat:
        part = shape.difference(taken)
        if isinstance(part, MultiPolygon):
            part = max(part.geoms, key=lambda g: g.area)
        clean.append(Polygon(part.exterior))
        taken = unary_union([taken, part])
    pixels = [to_pixels(p) for p in clean]
    simple = shapely.coverage_simplify(pixels, SIMPLIFY_PX)
    land: dict[str, list[str]] = {t: [] for t in ids}
    sea: dict[str, list[str]] = {t: [] for t in ids}
    for table, pairs in ((land, LAND), (sea, SEA)):
        for a, b in pairs:
            table[a].append(b)
            table[b].append(a)
    nodes = []
    for tid, poly in zip(ids, simple, strict=True):
        poly = shapely.geometry.polygon.orient(poly, sign=-1.0)  # clockwise on screen
        pts = [(round(x, 1), round(y, 1)) for x, y in list(poly.exterior.coords)[:-1]]
        name, region, _close, _parts = TERRITORIES[tid]
        lx, ly = label_point(pts)
        nodes.append(
            Node(
                id=tid,
                name=name,
                region=region,
                neighbours=tuple(land[tid]),
                sea_lanes=tuple(sea[tid]),
                polygon=tuple(pts),
                label=(round(lx, 1), round(ly, 1)),
            )
        )
    regions = [Region(rid, rname, bonus, colour) for rid, rname, bonus, colour in REGIONS]
    return Board(nodes, regions, name="Classic world")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("topojson", type=Path, help="world-atlas countries-110m.json")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "assets" / "worldwar" / "maps" / "classic.tmx"
    )
    args = parser.parse_args(argv)
    board = build(args.topojson)
    write_tmx(board, args.out, WIDTH, HEIGHT)
    points = sum(len(n.polygon) for n in board.nodes.values())
    print(f"wrote {args.out}: {len(board)} territories, {points} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
