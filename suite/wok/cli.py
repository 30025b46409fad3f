"""`suite wok-sim`: whole WoK games between bots with turns and time per turn.

`suite sim wok ...` (the generic simulator) plays the same games and prints winners and
actions per game; this command adds what a WoK host wants to see: the reason each game
ended, its number of turns and the engine's time per turn.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from suite.cli import add_command

if TYPE_CHECKING:
    from suite.cli import SubParsers


def _cmd_wok_sim(args: argparse.Namespace) -> int:
    from suite.core.match import game_spec
    from suite.core.rng import Rng
    from suite.sim import make_bots
    from suite.wok.rules import create

    spec = game_spec("wok")
    config: dict[str, object] = {"players": args.players, "variant": args.variant}
    if args.map:
        config["map"] = args.map
    if args.max_turns:
        config["max_turns"] = args.max_turns
    names = args.bots.split(",") if args.bots else None
    try:
        total_turns = 0
        total_seconds = 0.0
        for i in range(args.games):
            state = create(config, args.seed + i)
            bots = make_bots(spec, names, len(state.seat_colours))
            rng = Rng(args.seed + i + 1_000_003)
            engine = 0.0
            while state.outcome() is None:
                for seat in sorted(state.awaiting()):
                    action = bots[seat].choose(state.view(seat), state.legal(seat), rng)
                    t0 = time.perf_counter()
                    state.apply(seat, action)
                    engine += time.perf_counter() - t0
            out = state.outcome()
            assert out is not None
            turns = state.turn - 1
            total_turns += turns
            total_seconds += engine
            winners = ", ".join(f"seat {w}" for w in out.winners) or "nobody"
            per_turn = 1000 * engine / max(1, turns)
            print(
                f"game {i + 1} (seed {args.seed + i}): {winners} won ({out.reason}) "
                f"after {turns} turns, {per_turn:.2f} ms per turn"
            )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(
        f"{args.games} games, {total_turns / max(1, args.games):.1f} turns on average, "
        f"{1000 * total_seconds / max(1, total_turns):.2f} ms per turn"
    )
    return 0


def _hook(sub: SubParsers) -> None:
    p = sub.add_parser("wok-sim", help="play WoK games between bots (turns, time per turn)")
    p.add_argument("--players", type=int, default=2, help="seats (Duel 2, Trinity 3)")
    p.add_argument("--variant", default="skirmish", help="skirmish, duel, trinity or standard")
    p.add_argument("--map", help="trial, star-islands, kaomaris, a .tmx/.json path or a number")
    p.add_argument("--bots", help="random, robot, general: one per seat or one for all")
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-turns", type=int, help="end by score after N turns (default 200)")
    p.set_defaults(func=_cmd_wok_sim)


add_command(_hook)
