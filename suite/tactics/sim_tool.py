"""`suite tactics sim`: bot battles on any pack the loader accepts.

Like `suite sim tactics`, plus the tactics options: `--pack DIR`, `--pieces-per-turn K`
(0 = all rested) and one bot name per seat. Each playable map is played in turn unless
`--map` names one.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from suite.tactics.cli import TacticsCommand, tactics_command
from suite.tactics.rules.arena import make_bot, play_battle
from suite.tactics.rules.packs import PackError, get_pack, playable_maps, resolve_map


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pack", type=Path, help="pack folder (default: the shipped pack)")
    parser.add_argument("--players", type=int, default=2, help="armies (2-4, default 2)")
    parser.add_argument("--map", help="map id or name (default: each map in turn)")
    parser.add_argument("--bots", default="random", help="bot names, one for all or per seat")
    parser.add_argument("--pieces-per-turn", type=int, default=0, help="1-4, 0 = all rested")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    names = args.bots.split(",")
    if len(names) == 1:
        names = names * args.players
    try:
        if len(names) != args.players:
            raise ValueError(f"--bots names {len(names)} bots for {args.players} players")
        pack = get_pack(args.pack)
        maps = playable_maps(pack, args.players)
        if args.map is not None:
            maps = [resolve_map(pack, args.map, 0, args.players)]
        if not maps:
            raise PackError(f"{pack.root}: no map has starts for {args.players} armies")
        for name in set(names):
            make_bot(name)
    except ValueError as exc:
        console.print(f"error: {exc}", markup=False)
        return 2
    wins: Counter[str] = Counter()
    per_map: Counter[int] = Counter()
    rounds = 0
    began = time.perf_counter()
    for game in range(args.games):
        map_id = maps[game % len(maps)]
        config = {
            "pack": str(args.pack) if args.pack else None,
            "map": map_id,
            "players": args.players,
            "pieces_per_turn": args.pieces_per_turn,
        }
        try:
            state = play_battle(config, args.seed + game, [make_bot(n) for n in names])
        except ValueError as exc:
            console.print(f"error: {exc}", markup=False)
            return 2
        outcome = state.outcome()
        per_map[map_id] += 1
        rounds += state.round
        if outcome is None:
            wins["unfinished"] += 1
        else:
            wins["+".join(f"seat {s} ({names[s]})" for s in outcome.winners)] += 1
    seconds = time.perf_counter() - began
    table = Table(title=f"tactics: {args.games} battles, {args.players} armies, bots {args.bots}")
    table.add_column("winner")
    table.add_column("battles", justify="right")
    for who, count in sorted(wins.items()):
        table.add_row(who, str(count))
    console.print(table)
    played = ", ".join(f"{pack.grids[m].name} x{n}" for m, n in sorted(per_map.items()))
    console.print(f"maps: {played}", markup=False)
    console.print(f"mean length: {rounds / args.games:.1f} rounds; {seconds:.1f} s", markup=False)
    return 0


tactics_command(
    TacticsCommand(
        "sim",
        "bot battles on any pack (--pack, --map, --bots, --pieces-per-turn)",
        _configure,
        _run,
    )
)
