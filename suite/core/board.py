"""Graph boards: territories or provinces (nodes), regions, land borders and sea lanes.

A `Board` is immutable once built and validated. Land neighbours and sea lanes are two
edge kinds; `neighbours()` gives both unless asked for one. Shapes (polygon and label
point) are optional and only used for drawing and hit-testing.

Loaders: `Board.from_json` / `load_json` (a dict or file), `load_tmx` in
`suite.core.tiled` (Tiled maps through pytmx). Every loader validates and raises
`BoardError` naming the file and the offending item.
"""

from __future__ import annotations

import json
import math
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

Point = tuple[float, float]
T = TypeVar("T")
MAX_COORD = 10_000_000.0
"""Shapes and label points are pixels: a coordinate past this (or not finite) is refused."""


class BoardError(ValueError):
    """A board that cannot be used. The message names the source and the item."""

    def __init__(self, problem: str, source: str | None = None) -> None:
        super().__init__(f"{source}: {problem}" if source else problem)
        self.problem = problem
        self.source = source


@dataclass(frozen=True, slots=True)
class Region:
    """A continent or other group of nodes; `bonus` is what holding all of it gives."""

    id: str
    name: str
    bonus: int = 0
    colour: str = "#808080"


@dataclass(frozen=True, slots=True)
class Node:
    """One territory or province."""

    id: str
    name: str
    region: str
    neighbours: tuple[str, ...] = ()
    sea_lanes: tuple[str, ...] = ()
    polygon: tuple[Point, ...] = ()
    label: Point | None = None
    props: Mapping[str, Any] = field(default_factory=dict)


class Board:
    """A validated graph of nodes grouped in regions.

    Invariants (checked by `validate`, which the constructor calls): ids are unique,
    every edge goes to a known node and exists in both directions, no self-loops,
    every node's region exists, every coordinate of a shape or label is a finite number
    within MAX_COORD, and the board is connected (land plus sea lanes).
    """

    def __init__(
        self,
        nodes: Iterable[Node],
        regions: Iterable[Region],
        name: str = "board",
        source: str | None = None,
        require_connected: bool = True,
    ) -> None:
        self.name = name
        self.source = source
        node_list = list(nodes)
        region_list = list(regions)
        _check_unique([n.id for n in node_list], "node", source)
        _check_unique([r.id for r in region_list], "region", source)
        self.nodes: dict[str, Node] = {n.id: n for n in node_list}
        self.regions: dict[str, Region] = {r.id: r for r in region_list}
        self.validate(require_connected)
        self._adjacent: dict[str, frozenset[str]] = {
            n.id: frozenset(n.neighbours) | frozenset(n.sea_lanes) for n in node_list
        }
        # Sorted once so path searches expand in a fixed order without sorting every step.
        self._ordered: dict[str, tuple[str, ...]] = {
            k: tuple(sorted(v)) for k, v in self._adjacent.items()
        }
        self._members: dict[str, tuple[str, ...]] = {
            r: tuple(n.id for n in node_list if n.region == r) for r in self.regions
        }

    # -- validation ---------------------------------------------------------
    def validate(self, require_connected: bool = True) -> None:
        """Raise BoardError on the first problem found (see the class invariants)."""
        src = self.source
        for node in self.nodes.values():
            check_coords(node, src)
            if node.region not in self.regions:
                raise BoardError(f"node {node.id!r} has unknown region {node.region!r}", src)
            for kind, edges in (("neighbour", node.neighbours), ("sea lane", node.sea_lanes)):
                for other in edges:
                    if other == node.id:
                        raise BoardError(f"node {node.id!r} lists itself as a {kind}", src)
                    if other not in self.nodes:
                        raise BoardError(f"node {node.id!r} has unknown {kind} {other!r}", src)
                    back = (
                        self.nodes[other].neighbours
                        if kind == "neighbour"
                        else self.nodes[other].sea_lanes
                    )
                    if node.id not in back:
                        raise BoardError(
                            f"one-way {kind} {node.id!r} -> {other!r} "
                            f"({other!r} does not list {node.id!r})",
                            src,
                        )
        if require_connected and len(self.nodes) > 1:
            seen = self._reach(next(iter(self.nodes)), lambda n: True)
            if len(seen) != len(self.nodes):
                cut = sorted(set(self.nodes) - seen)
                raise BoardError(
                    f"board is disconnected: {', '.join(cut[:5])}"
                    f"{' ...' if len(cut) > 5 else ''} cannot be reached",
                    src,
                )

    def _reach(self, start: str, allowed: Any) -> set[str]:
        seen = {start}
        queue = deque([start])
        while queue:
            cur = queue.popleft()
            node = self.nodes[cur]
            for nxt in (*node.neighbours, *node.sea_lanes):
                if nxt not in seen and allowed(nxt):
                    seen.add(nxt)
                    queue.append(nxt)
        return seen

    # -- queries ------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.nodes)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.nodes

    def __getitem__(self, node_id: str) -> Node:
        return self.nodes[node_id]

    def ids(self) -> list[str]:
        """Node ids in board order."""
        return list(self.nodes)

    def neighbours(self, node_id: str, land: bool = True, sea: bool = True) -> frozenset[str]:
        """Adjacent node ids by land borders and/or sea lanes."""
        node = self.nodes[node_id]
        if land and sea:
            return self._adjacent[node_id]
        if land:
            return frozenset(node.neighbours)
        if sea:
            return frozenset(node.sea_lanes)
        return frozenset()

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._adjacent[a]

    def ring2(self, node_id: str) -> frozenset[str]:
        """Nodes at exactly distance 2 (neighbours of neighbours, not self or a neighbour)."""
        near = self._adjacent[node_id]
        out: set[str] = set()
        for n in near:
            out |= self._adjacent[n]
        return frozenset(out - near - {node_id})

    def members(self, region_id: str) -> tuple[str, ...]:
        """Node ids of a region, in board order."""
        return self._members[region_id]

    def components(self, node_ids: Iterable[str]) -> list[frozenset[str]]:
        """Connected components of the subgraph induced by `node_ids` (largest first)."""
        pool = set(node_ids)
        unknown = pool - set(self.nodes)
        if unknown:
            raise KeyError(f"unknown nodes {sorted(unknown)}")
        comps: list[frozenset[str]] = []
        for start in [n for n in self.nodes if n in pool]:
            if any(start in c for c in comps):
                continue
            comps.append(frozenset(self._reach(start, pool.__contains__)))
        comps.sort(key=lambda c: (-len(c), min(c)))
        return comps

    def shortest_path(
        self, start: str, goal: str, through: Iterable[str] | None = None
    ) -> list[str] | None:
        """Fewest-steps path from start to goal (inclusive), or None.

        With `through`, intermediate nodes must be in that set (start and goal need not).
        """
        if start not in self.nodes or goal not in self.nodes:
            raise KeyError(f"unknown node {start if start not in self.nodes else goal!r}")
        allowed = None if through is None else set(through)
        prev: dict[str, str | None] = {start: None}
        queue = deque([start])
        while queue:
            cur = queue.popleft()
            if cur == goal:
                path = [cur]
                while (p := prev[path[-1]]) is not None:
                    path.append(p)
                return path[::-1]
            for nxt in self._ordered[cur]:
                if nxt in prev:
                    continue
                if allowed is not None and nxt != goal and nxt not in allowed:
                    continue
                prev[nxt] = cur
                queue.append(nxt)
        return None

    def distance(self, start: str, goal: str) -> int | None:
        path = self.shortest_path(start, goal)
        return None if path is None else len(path) - 1

    # -- serialisation ------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict that `Board.from_json` reads back to an equal board."""
        return {
            "name": self.name,
            "regions": [
                {"id": r.id, "name": r.name, "bonus": r.bonus, "colour": r.colour}
                for r in self.regions.values()
            ],
            "nodes": [_node_json(n) for n in self.nodes.values()],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str | None = None) -> Board:
        """Build from the `to_json` layout; BoardError names the source and the item."""
        regions = _parse_all(data, "region", _region_from_json, source)
        nodes = _parse_all(data, "node", _node_from_json, source)
        return cls(nodes, regions, name=str(data.get("name", "board")), source=source)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"Board({self.name!r}, {len(self.nodes)} nodes, {len(self.regions)} regions)"


def check_coords(node: Node, source: str | None) -> None:
    """BoardError naming the node when a coordinate of its shape or label is not a finite
    number within MAX_COORD (a NaN or an infinity would crash whatever draws the board)."""
    # Every coordinate is checked at once first; only a board that fails is walked again
    # to name the point (naming every point of the classic map cost its loading 40 %).
    values = [v for p in node.polygon for v in p]
    if node.label is not None:
        values += node.label
    if all(isinstance(v, float | int) and math.isfinite(v) and abs(v) <= MAX_COORD for v in values):
        return
    points = [("label", node.label)] if node.label is not None else []
    points += [(f"polygon point {k + 1}", p) for k, p in enumerate(node.polygon)]
    for what, (x, y) in points:
        for value in (x, y):
            if not (isinstance(value, float | int) and math.isfinite(value)):
                raise BoardError(f"node {node.id!r}: {what} ({x!r}, {y!r}) is not finite", source)
            if abs(value) > MAX_COORD:
                raise BoardError(
                    f"node {node.id!r}: {what} ({x!r}, {y!r}) lies past {MAX_COORD:g}", source
                )


def _check_unique(ids: Sequence[str], what: str, source: str | None) -> None:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise BoardError(f"duplicate {what} id {i!r}", source)
        seen.add(i)


def _describe(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing key {exc.args[0]!r}"
    if isinstance(exc, IndexError):
        return "a point needs two coordinates"
    return str(exc)


def _parse_all(
    data: Mapping[str, Any],
    what: str,
    parse: Callable[[Mapping[str, Any]], T],
    source: str | None,
) -> list[T]:
    """Parse the list `data[what + "s"]`; BoardError names the entry (id, else position)."""
    key = f"{what}s"
    items = data.get(key)
    if not isinstance(items, list):
        raise BoardError(f"malformed board data: {key!r} must be a list", source)
    out: list[T] = []
    for position, item in enumerate(items, start=1):
        if not isinstance(item, Mapping):
            raise BoardError(f"malformed {what} #{position}: not an object", source)
        try:
            out.append(parse(item))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            ident = item.get("id")
            label = f"{what} {str(ident)!r}" if ident is not None else f"{what} #{position}"
            raise BoardError(f"malformed {label}: {_describe(exc)}", source) from exc
    return out


def _region_from_json(d: Mapping[str, Any]) -> Region:
    return Region(
        id=str(d["id"]),
        name=str(d.get("name", d["id"])),
        bonus=int(d.get("bonus", 0)),
        colour=str(d.get("colour", "#808080")),
    )


def _node_json(n: Node) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": n.id,
        "name": n.name,
        "region": n.region,
        "neighbours": list(n.neighbours),
    }
    if n.sea_lanes:
        out["sea_lanes"] = list(n.sea_lanes)
    if n.polygon:
        out["polygon"] = [[x, y] for x, y in n.polygon]
    if n.label is not None:
        out["label"] = [n.label[0], n.label[1]]
    if n.props:
        out["props"] = dict(n.props)
    return out


def _node_from_json(d: Mapping[str, Any]) -> Node:
    label = d.get("label")
    return Node(
        id=str(d["id"]),
        name=str(d.get("name", d["id"])),
        region=str(d["region"]),
        neighbours=tuple(str(x) for x in d.get("neighbours", ())),
        sea_lanes=tuple(str(x) for x in d.get("sea_lanes", ())),
        polygon=tuple((float(p[0]), float(p[1])) for p in d.get("polygon", ())),
        label=None if label is None else (float(label[0]), float(label[1])),
        props=dict(d.get("props", {})),
    )


def load_json(path: str | Path) -> Board:
    """Load a board JSON file; BoardError names the file and the problem."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BoardError(f"cannot read: {exc.strerror}", str(p)) from exc
    except UnicodeDecodeError as exc:
        raise BoardError(f"not UTF-8 text (byte {exc.start})", str(p)) from exc
    except json.JSONDecodeError as exc:
        raise BoardError(f"broken JSON at line {exc.lineno}: {exc.msg}", str(p)) from exc
    if not isinstance(data, dict):
        raise BoardError("a board file must hold a JSON object", str(p))
    return Board.from_json(data, source=str(p))


def save_json(board: Board, path: str | Path) -> None:
    """Save a board as JSON (atomically)."""
    from suite.core.store import atomic_write_bytes

    atomic_write_bytes(path, json.dumps(board.to_json(), indent=1).encode("utf-8"))
