"""`suite tactics balance [DIR]`: which pieces of a pack are over- or under-powered
(the `/tacticsBalance` of the rule text).

For every playable piece, keyed by its id (two pieces may share a name; the report shows
"Name #id" then): its short form "HP+STR+DEF+AGI / MOB+RANGE" (like 17/7), its stat sum
against the pack's median, and its win rate in simulated round robins of 1-piece duels
(every pair, starts swapped) and 3-piece squads (random squads within max#, each piece
scored by the squads holding it), bots on both sides. A draw counts as a share of a win.
The win rate weighs duels and squads by the games played in each (all wins over all
games). A piece whose win rate is more than `margin` away from 50% is flagged.

The simulation is pure; only `write_chart` imports pygame (to draw the PNG bar chart).
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from suite.core.rng import Rng
from suite.tactics.rules.arena import make_bot, play_battle
from suite.tactics.rules.armies import random_army
from suite.tactics.rules.packs import get_pack, playable_maps, playable_pieces

Progress = Callable[[int, int], None]


@dataclass
class PieceBalance:
    """One piece's line of the report."""

    pid: int
    name: str
    body: int  # HP + STR + DEF + AGI
    reach: int  # MOB + RANGE
    duel_wins: float = 0.0
    duel_games: int = 0
    squad_wins: float = 0.0
    squad_games: int = 0
    label: str = ""  # the name, with "#id" when another piece shares it

    @property
    def short_form(self) -> str:
        return f"{self.body}/{self.reach}"

    @property
    def stat_sum(self) -> int:
        return self.body + self.reach

    @property
    def duel_rate(self) -> float:
        return self.duel_wins / self.duel_games if self.duel_games else 0.5

    @property
    def squad_rate(self) -> float:
        return self.squad_wins / self.squad_games if self.squad_games else 0.5

    @property
    def games(self) -> int:
        return self.duel_games + self.squad_games

    @property
    def rate(self) -> float:
        """Wins over games, duels and squads together (each weighed by its games)."""
        return (self.duel_wins + self.squad_wins) / self.games if self.games else 0.5


@dataclass
class BalanceReport:
    pack: str
    map_name: str
    median_sum: float
    margin: float
    pieces: list[PieceBalance] = field(default_factory=list)

    def flag(self, piece: PieceBalance) -> str:
        if piece.rate > 0.5 + self.margin:
            return "over"
        if piece.rate < 0.5 - self.margin:
            return "under"
        return ""


def _score(state_places: tuple[tuple[int, ...], ...], seat: int) -> float:
    first = state_places[0]
    if seat in first:
        return 1.0 / len(first)
    return 0.0


def run_balance(
    root: Path | None,
    battles: int = 4,
    squads: int = 60,
    map_id: int | None = None,
    bot: str = "normal",
    margin: float = 0.15,
    seed: int = 1,
    progress: Progress | None = None,
) -> BalanceReport:
    """Simulate the round robins (`battles` per duel pair, `squads` squad battles)."""
    pack = get_pack(root)
    pieces = playable_pieces(pack)
    maps = playable_maps(pack, 2)
    if not maps:
        raise ValueError(f"{pack.root}: no map with two starts")
    chosen = map_id if map_id is not None else maps[0]
    if chosen not in maps:
        raise ValueError(f"{pack.root}: no playable map {chosen} (have {maps})")
    lines = {
        pid: PieceBalance(
            pid, p.name, p.hp + p.strength + p.defense + p.agility, p.mobility + p.range
        )
        for pid, p in pieces.items()
    }
    counts = Counter(line.name for line in lines.values())
    for pid, line in lines.items():
        line.label = f"{line.name} #{pid}" if counts[line.name] > 1 else line.name
    median = statistics.median(line.stat_sum for line in lines.values()) if lines else 0.0
    report = BalanceReport(str(pack.root), pack.grids[chosen].name, median, margin)
    report.pieces = list(lines.values())
    base: dict[str, Any] = {"pack": str(root) if root else None, "map": chosen, "players": 2}
    ids = sorted(lines)
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    total = len(pairs) * battles + squads
    done = 0

    def fight(armies: list[list[int]], number: int) -> tuple[tuple[int, ...], ...]:
        state = play_battle(
            {**base, "armies": armies}, seed + number, [make_bot(bot), make_bot(bot)]
        )
        outcome = state.outcome()
        return outcome.places if outcome else ((0, 1),)

    for a, b in pairs:
        for n in range(battles):
            armies = [[a], [b]] if n % 2 == 0 else [[b], [a]]
            places = fight(armies, done)
            for seat, army in enumerate(armies):
                lines[army[0]].duel_wins += _score(places, seat)
                lines[army[0]].duel_games += 1
            done += 1
            if progress:
                progress(done, total)
    rng = Rng(seed)
    for _ in range(squads):
        armies = [random_army(pieces, rng, 3), random_army(pieces, rng, 3)]
        places = fight(armies, done)
        for seat, army in enumerate(armies):
            for pid in set(army):
                lines[pid].squad_wins += _score(places, seat)
                lines[pid].squad_games += 1
        done += 1
        if progress:
            progress(done, total)
    return report


def write_chart(report: BalanceReport, path: Path) -> None:
    """A PNG bar chart of each piece's win rate (50% line, flagged bars coloured)."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.font.init()
    rows = len(report.pieces)
    width, bar_h, left, top = 720, 26, 170, 40
    height = top + rows * bar_h + 30
    surface = pygame.Surface((width, height))
    surface.fill((250, 250, 245))
    font = pygame.font.Font(None, 22)
    title = f"Win rates: {Path(report.pack).name} on {report.map_name}"
    surface.blit(font.render(title, True, (20, 20, 20)), (10, 10))
    span = width - left - 70
    colours = {"over": (200, 70, 60), "under": (70, 110, 200), "": (110, 160, 100)}
    for row, piece in enumerate(sorted(report.pieces, key=lambda p: -p.rate)):
        y = top + row * bar_h
        surface.blit(font.render(piece.label or piece.name, True, (20, 20, 20)), (10, y + 5))
        length = int(span * piece.rate)
        pygame.draw.rect(surface, colours[report.flag(piece)], (left, y + 3, length, bar_h - 6))
        label = f"{piece.rate * 100:.0f}%"
        surface.blit(font.render(label, True, (20, 20, 20)), (left + length + 6, y + 5))
    mid = left + span // 2
    pygame.draw.line(surface, (40, 40, 40), (mid, top - 4), (mid, height - 24), 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))


def run_command(args: argparse.Namespace) -> int:
    """`suite tactics balance` (arguments: see `suite.tactics.tools`)."""
    from rich.console import Console
    from rich.progress import Progress as Bar
    from rich.table import Table

    console = Console()
    if args.battles < 1 or args.squads < 0:
        console.print("--battles must be >= 1 and --squads >= 0", markup=False)
        return 2
    try:
        with Bar(console=console, transient=True) as bar:
            task = bar.add_task("balance battles", total=None)
            report = run_balance(
                args.dir,
                args.battles,
                args.squads,
                args.map,
                args.bot,
                args.margin,
                args.seed,
                lambda done, total: bar.update(task, completed=done, total=total),
            )
    except ValueError as exc:
        console.print(f"error: {exc}", markup=False)
        return 2
    table = Table(
        title=f"Balance of {report.pack} ({report.map_name}, bots: {args.bot})",
        caption="short: HP+STR+DEF+AGI/MOB+RANGE; duels and squads: win rate (battles); "
        f"flagged beyond 50% +- {report.margin * 100:.0f}%",
    )
    for column in ("piece", "short", "sum", "±median", "duels", "squads", "win", "flag"):
        table.add_column(column, justify="left" if column in ("piece", "flag") else "right")
    for piece in sorted(report.pieces, key=lambda p: -p.rate):
        table.add_row(
            piece.label or piece.name,
            piece.short_form,
            str(piece.stat_sum),
            f"{piece.stat_sum - report.median_sum:+g}",
            f"{piece.duel_rate * 100:.0f}% ({piece.duel_games})",
            f"{piece.squad_rate * 100:.0f}% ({piece.squad_games})",
            f"{piece.rate * 100:.0f}%",
            report.flag(piece),
        )
    console.print(table)
    write_chart(report, args.chart)
    console.print(f"chart: {args.chart}", markup=False)
    return 0
