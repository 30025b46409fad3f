"""`suite tactics sim`: bot battles on any pack the loader accepts.

Like `suite sim tactics`, plus the tactics options: `--pack DIR`, `--pieces-per-turn K`
(0 = all rested) and one bot name per seat. Each playable map is played in turn unless
`--map` names one.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from suite.tactics.rules.arena import make_bot, play_battle
from suite.tactics.rules.packs import PackError, get_pack, playable_maps, resolve_map


def run_command(args: argparse.Namespace) -> int:
    """`suite tactics sim` (arguments: see `suite.tactics.tools`)."""
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
