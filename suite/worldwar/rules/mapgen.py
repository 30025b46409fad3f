"""Seeded random World War maps: N territories in K contiguous continents.

`generate_map(territories, continents, seed)` scatters N territory sites plus some sea
sites over the canvas, evens them out with Lloyd relaxation and takes their Voronoi cells.
K continents grow cell by cell from spread-out seeds (each stays connected by land, and
they keep apart where they can) until they hold N cells; the rest is sea. Sea lanes join
the land masses into one connected board and link nearby continents. Bonuses follow size
and the number of border territories (settings in assets/worldwar/maps/generator.toml).
The same arguments give the same board on every machine.
"""

from __future__ import annotations

import colorsys
import math
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from suite.core.board import Board, BoardError, Node, Region
from suite.core.geometry import (
    Point,
    label_point,
    lloyd_relax,
    shared_edges,
    voronoi_cells,
)
from suite.core.rng import Rng
from suite.paths import asset


@dataclass(frozen=True, slots=True)
class GeneratorSettings:
    """The numbers of generator.toml (see that file for their meaning)."""

    width: int
    height: int
    min_spacing: float
    lloyd_iterations: int
    sea_ratio: float
    size_spread: float
    lane_reach: float
    default_territories: int
    default_continents: int
    min_territories: int
    max_territories: int
    min_continents: int
    min_continent_size: int
    per_territory: float
    per_border: float
    offset: float
    minimum_bonus: int
    colours: tuple[str, ...]
    syllables: tuple[str, ...]
    territory_suffixes: tuple[str, ...]
    continent_words: tuple[str, ...]


@cache
def settings() -> GeneratorSettings:
    """The generator settings shipped in assets/worldwar/maps/generator.toml."""
    path = asset("worldwar", "maps", "generator.toml")
    with path.open("rb") as fh:
        d: dict[str, Any] = tomllib.load(fh)
    return GeneratorSettings(
        width=int(d["canvas"]["width"]),
        height=int(d["canvas"]["height"]),
        min_spacing=float(d["canvas"]["min_spacing"]),
        lloyd_iterations=int(d["canvas"]["lloyd_iterations"]),
        sea_ratio=float(d["canvas"]["sea_ratio"]),
        size_spread=float(d["limits"]["size_spread"]),
        lane_reach=float(d["canvas"]["lane_reach"]),
        default_territories=int(d["defaults"]["territories"]),
        default_continents=int(d["defaults"]["continents"]),
        min_territories=int(d["limits"]["min_territories"]),
        max_territories=int(d["limits"]["max_territories"]),
        min_continents=int(d["limits"]["min_continents"]),
        min_continent_size=int(d["limits"]["min_continent_size"]),
        per_territory=float(d["bonus"]["per_territory"]),
        per_border=float(d["bonus"]["per_border"]),
        offset=float(d["bonus"]["offset"]),
        minimum_bonus=int(d["bonus"]["minimum"]),
        colours=tuple(d["names"]["colours"]),
        syllables=tuple(d["names"]["syllables"]),
        territory_suffixes=tuple(d["names"]["territory_suffixes"]),
        continent_words=tuple(d["names"]["continent_words"]),
    )


def generate_map(territories: int, continents: int, seed: int = 0) -> Board:
    """A random connected board; BoardError when N or K is out of the allowed range."""
    cfg = settings()
    spec = f"random:{territories}:{continents}"
    if not cfg.min_territories <= territories <= cfg.max_territories:
        raise BoardError(
            f"territories must be {cfg.min_territories}..{cfg.max_territories}, not {territories}",
            spec,
        )
    most = territories // cfg.min_continent_size
    if not cfg.min_continents <= continents <= most:
        raise BoardError(
            f"continents must be {cfg.min_continents}..{most} for {territories} territories, "
            f"not {continents}",
            spec,
        )
    rng = Rng(seed)
    total = territories + round(territories * cfg.sea_ratio)
    sites = _scatter(rng, total, cfg)
    sites = lloyd_relax(sites, cfg.width, cfg.height, cfg.lloyd_iterations)
    cells = voronoi_cells(sites, cfg.width, cfg.height)
    touching: list[set[int]] = [set() for _ in range(total)]
    for i, j in shared_edges(cells):
        touching[i].add(j)
        touching[j].add(i)
    owner = _grow_continents(rng, sites, touching, _targets(rng, territories, continents, cfg))
    land = [i for i in range(total) if owner[i] >= 0]
    spacing = math.sqrt(cfg.width * cfg.height / total)
    lanes = _sea_lanes(sites, owner, land, touching, cfg.lane_reach * spacing)
    names = _names(rng, territories, cfg)
    tid = {cell: f"t{k + 1}" for k, cell in enumerate(land)}
    region_ids = [f"c{k + 1}" for k in range(continents)]
    regions = []
    for k in range(continents):
        members = [i for i in land if owner[i] == k]
        borders = sum(
            1 for i in members if any(owner[j] not in (-1, k) for j in touching[i] | lanes[i])
        )
        bonus = max(
            cfg.minimum_bonus,
            round(cfg.per_territory * len(members) + cfg.per_border * borders + cfg.offset),
        )
        regions.append(
            Region(
                id=region_ids[k],
                name=_continent_name(rng, k, cfg),
                bonus=bonus,
                colour=_colour(k, cfg),
            )
        )
    nodes = [
        Node(
            id=tid[i],
            name=names[k],
            region=region_ids[owner[i]],
            neighbours=tuple(tid[j] for j in sorted(touching[i]) if owner[j] >= 0),
            sea_lanes=tuple(tid[j] for j in sorted(lanes[i])),
            polygon=tuple(cells[i]),
            label=label_point(cells[i]),
        )
        for k, i in enumerate(land)
    ]
    return Board(nodes, regions, name=f"Random {territories}/{continents} #{seed}", source=spec)


def _scatter(rng: Rng, n: int, cfg: GeneratorSettings) -> list[Point]:
    """N distinct sites, rejecting candidates too close to earlier ones (relaxing as needed)."""
    spacing = cfg.min_spacing * math.sqrt(cfg.width * cfg.height / n)
    pts: list[Point] = []
    tries = 0
    while len(pts) < n:
        x = 1.0 + rng.random() * (cfg.width - 2.0)
        y = 1.0 + rng.random() * (cfg.height - 2.0)
        tries += 1
        if tries % (30 * n) == 0:
            spacing *= 0.8
        if all((x - px) ** 2 + (y - py) ** 2 >= spacing * spacing for px, py in pts):
            pts.append((x, y))
    return pts


def _targets(rng: Rng, n: int, k: int, cfg: GeneratorSettings) -> list[int]:
    """Continent sizes summing to n, each at least the minimum, varied by size_spread."""
    weights = [1.0 + cfg.size_spread * (2.0 * rng.random() - 1.0) for _ in range(k)]
    spare = n - k * cfg.min_continent_size
    sizes = [cfg.min_continent_size + int(spare * w / sum(weights)) for w in weights]
    while sum(sizes) < n:
        sizes[rng.randbelow(k)] += 1
    return sizes


def _grow_continents(
    rng: Rng, sites: list[Point], touching: list[set[int]], targets: list[int]
) -> list[int]:
    """Continent index of each cell (-1 for sea); each continent is connected by land.

    Continents start from spread-out seeds and grow one cell at a time, the one furthest
    below its target first, preferring cells that keep a strip of sea from the other
    continents and that hug the continent (compact, but not round) shapes.
    """
    n, k = len(sites), len(targets)
    seeds = [rng.randbelow(n)]
    while len(seeds) < k:
        far = max(
            (i for i in range(n) if i not in seeds),
            key=lambda i: min(
                (sites[i][0] - sites[s][0]) ** 2 + (sites[i][1] - sites[s][1]) ** 2 for s in seeds
            ),
        )
        seeds.append(far)
    owner = [-1] * n
    sizes = [1] * k
    frontier: list[set[int]] = [set() for _ in range(k)]

    def take(cell: int, c: int) -> None:
        owner[cell] = c
        for f in frontier:
            f.discard(cell)
        frontier[c].update(j for j in touching[cell] if owner[j] == -1)

    for c, s in enumerate(seeds):
        take(s, c)
    for _ in range(sum(targets) - k):
        growing = [c for c in range(k) if frontier[c]]
        c = min(growing, key=lambda c: (sizes[c] / targets[c], c))
        cands = sorted(frontier[c])
        apart = [x for x in cands if all(owner[j] in (-1, c) for j in touching[x])]
        pool = apart or cands
        cell = max(pool, key=lambda x: sum(owner[j] == c for j in touching[x]) + 1.5 * rng.random())
        take(cell, c)
        sizes[c] += 1
    return owner


def _sea_lanes(
    sites: list[Point], owner: list[int], land: list[int], touching: list[set[int]], reach: float
) -> dict[int, set[int]]:
    """Sea lanes (cell -> cells): the shortest crossings that join the land masses into one
    board, plus the shortest crossing between any two continents with no link yet that
    lie within `reach`."""
    lanes: dict[int, set[int]] = {i: set() for i in land}
    parent = {i: i for i in land}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in land:
        for j in touching[i]:
            if owner[j] >= 0:
                parent[root(i)] = root(j)
    pairs = sorted(
        (math.dist(sites[i], sites[j]), i, j)
        for a, i in enumerate(land)
        for j in land[a + 1 :]
        if j not in touching[i]
    )
    for _, i, j in pairs:
        if root(i) != root(j):
            parent[root(i)] = root(j)
            lanes[i].add(j)
            lanes[j].add(i)
    linked = {
        frozenset((owner[i], owner[j]))
        for i in land
        for j in touching[i] | lanes[i]
        if owner[j] >= 0 and owner[j] != owner[i]
    }
    for d, i, j in pairs:
        key = frozenset((owner[i], owner[j]))
        if d <= reach and len(key) == 2 and key not in linked:
            linked.add(key)
            lanes[i].add(j)
            lanes[j].add(i)
    return lanes


def _word(rng: Rng, cfg: GeneratorSettings, syllables: int) -> str:
    return "".join(rng.choice(cfg.syllables) for _ in range(syllables))


def _names(rng: Rng, n: int, cfg: GeneratorSettings) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        name = _word(rng, cfg, 1 + rng.randbelow(2)) + rng.choice(cfg.territory_suffixes)
        name = name.capitalize()
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out


def _continent_name(rng: Rng, k: int, cfg: GeneratorSettings) -> str:
    word = cfg.continent_words[k % len(cfg.continent_words)]
    return f"{word} {_word(rng, cfg, 2).capitalize()}"


def _colour(k: int, cfg: GeneratorSettings) -> str:
    if k < len(cfg.colours):
        return cfg.colours[k]
    # Beyond the palette: hues spread by the golden angle.
    r, g, b = colorsys.hsv_to_rgb((k * 0.61803398875) % 1.0, 0.55, 0.8)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"
