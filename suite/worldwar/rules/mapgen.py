"""Seeded random World War maps: N territories in K contiguous continents.

`generate_map(territories, continents, seed)` scatters N sites over the canvas, evens them
out with Lloyd relaxation, takes their Voronoi cells as territories (so the cells tile the
canvas and the board is connected), and grows K continents from spread-out seeds, always
growing the smallest one, so each continent is contiguous. Bonuses follow size and the
number of border territories (settings in assets/worldwar/maps/generator.toml). The same
arguments give the same board on every machine.
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
    sites = _scatter(rng, territories, cfg)
    sites = lloyd_relax(sites, cfg.width, cfg.height, cfg.lloyd_iterations)
    cells = voronoi_cells(sites, cfg.width, cfg.height)
    touching: list[set[int]] = [set() for _ in range(territories)]
    for i, j in shared_edges(cells):
        touching[i].add(j)
        touching[j].add(i)
    owner = _grow_continents(rng, sites, touching, continents)
    names = _names(rng, territories, cfg)
    region_ids = [f"c{k + 1}" for k in range(continents)]
    regions = []
    for k in range(continents):
        members = [i for i in range(territories) if owner[i] == k]
        borders = sum(1 for i in members if any(owner[j] != k for j in touching[i]))
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
            id=f"t{i + 1}",
            name=names[i],
            region=region_ids[owner[i]],
            neighbours=tuple(f"t{j + 1}" for j in sorted(touching[i])),
            polygon=tuple(cells[i]),
            label=label_point(cells[i]),
        )
        for i in range(territories)
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


def _grow_continents(rng: Rng, sites: list[Point], touching: list[set[int]], k: int) -> list[int]:
    """Assign each cell a continent index; every continent is a connected set of cells."""
    n = len(sites)
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
    for c, s in enumerate(seeds):
        owner[s] = c
    free = n - k
    while free:
        # Grow the smallest continent that still has free cells beside it.
        for c in sorted(range(k), key=lambda c: (sizes[c], c)):
            frontier = sorted(
                {j for i in range(n) if owner[i] == c for j in touching[i] if owner[j] == -1}
            )
            if frontier:
                cell = rng.choice(frontier)
                owner[cell] = c
                sizes[c] += 1
                free -= 1
                break
    return owner


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
