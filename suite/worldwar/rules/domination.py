"""Import Domination `.map` files (the community's Risk map format) as boards.

Format, line by line (`;` starts a comment, blank lines are skipped):
- before the first section: `name Some Map Name` (other header lines are ignored);
- `[files]`: pic/map/crd/prv lines: the board ignores them (so is any other unknown
  section); `artwork_files` names the pic/map images they point to;
- `[continents]`: `Name bonus colour`; line order gives ids 1..n;
- `[countries]`: `id Name continentId x y`; ids must run 1..n in order;
- `[borders]`: `id neighbour neighbour ...`; every border must be listed both ways.
Names use `-` or `_` for spaces. Node ids are the country ids ("1".."n"), region ids the
continent ids. Borders become land neighbours (the format has no sea lanes).

Shapes: each country gets its Voronoi cell around its (x, y) point, clipped to the points'
bounding box plus a margin and to a radius of a few typical neighbour spacings, so the
countries of one continent touch and the map can be drawn and clicked; the label point is
the file's (x, y). A bad file raises BoardError naming the file, the line and the problem.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from suite.core.board import Board, BoardError, Node, Region
from suite.core.geometry import voronoi_cells

# Domination's colour names (Java AWT colours) and a few common extras.
COLOURS = {
    "black": "#000000",
    "blue": "#0000ff",
    "cyan": "#00ffff",
    "darkgray": "#404040",
    "gray": "#808080",
    "grey": "#808080",
    "green": "#00ff00",
    "lightgray": "#c0c0c0",
    "magenta": "#ff00ff",
    "orange": "#ffc800",
    "pink": "#ffafaf",
    "red": "#ff0000",
    "white": "#ffffff",
    "yellow": "#ffff00",
    "brown": "#8b4513",
    "purple": "#800080",
}
MARGIN = 20.0
"""Pixels added around the countries' bounding box for the outer cells."""
REACH = 2.0
"""A cell reaches at most this many median nearest-neighbour spacings from its point."""
MAX_COORD = 100_000.0
"""Country points are pixels of the map's picture: farther out is a broken file."""


@dataclass
class _Country:
    line: int
    cid: int
    name: str
    continent: int
    x: float
    y: float
    borders: list[int] = field(default_factory=list)
    border_line: int = 0


def _name(token: str) -> str:
    return token.replace("-", " ").replace("_", " ").strip()


def _int(token: str, what: str, err: _Err) -> int:
    try:
        return int(token)
    except ValueError:
        raise err(f"{what} {token!r} is not a whole number") from None


def _float(token: str, what: str, err: _Err) -> float:
    try:
        value = float(token)
    except ValueError:
        raise err(f"{what} {token!r} is not a number") from None
    if not math.isfinite(value):
        raise err(f"{what} {token!r} is not a finite number")
    return value


class _Err:
    """Builds BoardErrors for the current line."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.line = 0

    def __call__(self, problem: str, line: int | None = None) -> BoardError:
        return BoardError(f"line {line or self.line}: {problem}", self.source)


def _colour(token: str | None, index: int) -> str:
    if token is None:
        return "#808080"
    t = token.lower()
    if t.startswith("#") and len(t) == 7:
        try:
            int(t[1:], 16)
            return t
        except ValueError:
            pass
    return COLOURS.get(t, "#808080")


def parse_domination(text: str, source: str = "<map>") -> Board:
    """Parse the text of a Domination map; BoardError names the source and the line."""
    err = _Err(source)
    title = Path(source).stem
    section = ""
    text = text.removeprefix("\ufeff")
    continents: list[tuple[int, Region]] = []
    countries: list[_Country] = []
    saw = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        err.line = number
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                raise err(f"section header {line!r} has no closing ']'")
            section = line[1:-1].strip().lower()
            if section in saw and section in ("continents", "countries", "borders"):
                raise err(f"section [{section}] appears twice")
            saw.add(section)
            continue
        tokens = line.split()
        if section == "":
            if tokens[0].lower() == "name" and len(tokens) > 1:
                title = line.split(None, 1)[1].strip()
        elif section == "continents":
            if len(tokens) < 2:
                raise err(f"continent line needs 'Name bonus colour', got {line!r}")
            bonus = _int(tokens[1], "continent bonus", err)
            if bonus < 0:
                raise err(f"continent bonus {bonus} is negative")
            cid = len(continents) + 1
            region = Region(
                id=str(cid),
                name=_name(tokens[0]),
                bonus=bonus,
                colour=_colour(tokens[2] if len(tokens) > 2 else None, cid),
            )
            continents.append((number, region))
        elif section == "countries":
            if len(tokens) < 5:
                raise err(f"country line needs 'id Name continentId x y', got {line!r}")
            cid = _int(tokens[0], "country id", err)
            if cid != len(countries) + 1:
                raise err(f"country id {cid} out of order: expected {len(countries) + 1}")
            cont = _int(tokens[2], "continent id", err)
            if not 1 <= cont <= len(continents):
                raise err(
                    f"country {cid} {_name(tokens[1])!r} is in unknown continent {cont} "
                    f"(there are {len(continents)})"
                )
            x = _float(tokens[3], "x", err)
            y = _float(tokens[4], "y", err)
            if not (0 <= x <= MAX_COORD and 0 <= y <= MAX_COORD):
                raise err(f"country {cid} has coordinates ({x:g}, {y:g}) outside 0..{MAX_COORD:g}")
            countries.append(_Country(number, cid, _name(tokens[1]), cont, x, y))
        elif section == "borders":
            cid = _int(tokens[0], "country id", err)
            if not 1 <= cid <= len(countries):
                raise err(f"borders for unknown country {cid}")
            country = countries[cid - 1]
            if country.border_line:
                raise err(f"country {cid} already has borders on line {country.border_line}")
            country.border_line = number
            for tok in tokens[1:]:
                other = _int(tok, "neighbour id", err)
                if not 1 <= other <= len(countries):
                    raise err(f"country {cid} borders unknown country {other}")
                if other == cid:
                    raise err(f"country {cid} borders itself")
                if other in country.borders:
                    raise err(f"country {cid} lists neighbour {other} twice")
                country.borders.append(other)
    err.line = 0
    end = len(text.splitlines())
    if not continents:
        raise err("no [continents] section (or it is empty)", end)
    if not countries:
        raise err("no [countries] section (or it is empty)", end)
    for c in countries:
        if not c.border_line:
            raise err(f"country {c.cid} {c.name!r} has no line in [borders]", c.line)
    for c in countries:
        for other in c.borders:
            back = countries[other - 1]
            if c.cid not in back.borders:
                raise err(
                    f"border {c.cid} -> {other} is one-way: country {other} "
                    f"(line {back.border_line}) does not list {c.cid}",
                    c.border_line,
                )
    used = {c.continent for c in countries}
    for cline, region in continents:
        if int(region.id) not in used:
            raise err(f"continent {region.id} {region.name!r} has no countries", cline)
    try:
        cells = _shapes(countries)
    except (ValueError, ArithmeticError) as exc:
        raise err(f"cannot shape the countries from their points: {exc}", end) from exc
    nodes = [
        Node(
            id=str(c.cid),
            name=c.name,
            region=str(c.continent),
            neighbours=tuple(str(o) for o in c.borders),
            polygon=tuple(cell),
            label=(c.x, c.y),
        )
        for c, cell in zip(countries, cells, strict=True)
    ]
    return Board(nodes, [r for _, r in continents], name=title, source=source)


def _shapes(countries: list[_Country]) -> list[list[tuple[float, float]]]:
    pts: list[tuple[float, float]] = []
    seen: set[tuple[float, float]] = set()
    for c in countries:
        p = (c.x, c.y)
        # Two countries on one spot would share a cell: nudge the later one.
        while p in seen:
            p = (p[0] + 1.0, p[1] + 1.0)
        seen.add(p)
        pts.append(p)
    width = max(p[0] for p in pts) + MARGIN
    height = max(p[1] for p in pts) + MARGIN
    radius = None
    if len(pts) > 1:
        nearest = sorted(
            min(math.dist(p, q) for j, q in enumerate(pts) if j != i) for i, p in enumerate(pts)
        )
        radius = REACH * nearest[len(nearest) // 2]
    return voronoi_cells(pts, width, height, max_radius=radius)


def load_domination(path: str | Path) -> Board:
    """Load a Domination `.map` file; BoardError names the file and the line."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise BoardError(f"cannot read: {exc.strerror}", str(p)) from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return parse_domination(text, str(p))


def map_title(path: str | Path) -> str:
    """The `name` line of a Domination map (the file stem when it has none or is unreadable)."""
    p = Path(path)
    try:
        with p.open(encoding="utf-8", errors="replace") as fh:
            for raw in fh:
                line = raw.split(";", 1)[0].strip()
                if line.startswith("["):
                    break
                if line.lower().startswith("name ") and line[5:].strip():
                    return line[5:].strip()
    except OSError:
        pass
    return p.stem


def artwork_files(map_file: Path) -> tuple[Path, Path] | None:
    """The (pic, map) images the `.map` file's `[files]` section names, as paths beside
    it (None when it names no such pair or cannot be read)."""
    try:
        text = map_file.read_bytes().decode("utf-8-sig", errors="replace")
    except OSError:
        return None
    section = ""
    found: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.split(";", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
            continue
        parts = line.split(None, 1)
        if section == "files" and len(parts) == 2 and parts[0].lower() in ("pic", "map"):
            found[parts[0].lower()] = parts[1].strip()
    if "pic" not in found or "map" not in found:
        return None
    pic, index = (map_file.parent / Path(found[k]).name for k in ("pic", "map"))
    return pic, index
