"""Bot strength (issue 25): the experts against the hard bots, and a round robin of every
bot per game with win rates and Elo ratings (printed by `make bench` with -s; nothing
here asserts on a figure: they are measurements, each with its 95 % error bar).

- World War: expert v hard (2 players) and expert v three hard (4 players), on the
  classic map and on a generated one ("random:42:6", a new map per game), increasing
  cards, 400 games a line; targets (issue 35) >= 70 % and >= 50 % with the lower end of
  the 95 % interval at 65 % and 40 % or more (a fair share is 50 % and 25 %). Also the
  expert's time per searched decision (median, max; targets median <= 0.3 s, max <=
  1.5 s) and the playouts per second inside its search.
- Tactics: expert v hard, mirrored random armies on every default map in turn, seats
  swapped; target >= 70 %; the expert's thinking per decision.
- A round robin per game: every pair of bots in 2-player games, seats swapped, with each
  bot's score and its Elo (random at 0) with a 95 % half-width.

- WoK: a round robin of its bots (2 players, the standard rules).

Games run in worker processes, one per core (`suite.core.strength.play_games`); the
figures do not depend on how many. The World War expert's four lines are most of the
time: a game costs about 2.2 CPU-seconds in 2 players and about 4.5 in 4 (the expert's
searches), so their 1,600 games take about 45 minutes on 2 idle cores; on the shared
reference machine under a load of 6 to 13 from other jobs (4 nice'd processes) 2p
classic took 19 minutes, 2p generated 14 and 200 games of 4p generated 29, about two
hours for the four. Counts come from the environment (issue 35 asks for 400 games per World War
line, issue 25 for 200 per other pairing; a short run uses fewer, and the error bars say
what that is worth): STRENGTH_WW_GAMES (default 400) games per World War expert line,
STRENGTH_GAMES (default 200) games per Tactics expert pairing, STRENGTH_ROBIN (default
40) games per round-robin pairing, STRENGTH_ITERATIONS (default: the bot's own) the
World War expert's playouts per decision, STRENGTH_SEED (default 0) shifts every game's
seed, STRENGTH_WORKERS (default: the cores) the processes that play.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from suite.core.strength import GameResult, GameTask, elo, play_games, win_rate
from suite.tactics.rules.arena import mirror_army

GAMES = int(os.environ.get("STRENGTH_GAMES", "200"))
WW_GAMES = int(os.environ.get("STRENGTH_WW_GAMES", "400"))
ROBIN = int(os.environ.get("STRENGTH_ROBIN", "40"))
ITERATIONS = (
    int(os.environ["STRENGTH_ITERATIONS"]) if os.environ.get("STRENGTH_ITERATIONS") else None
)
SEED = int(os.environ.get("STRENGTH_SEED", "0"))
WORKERS = int(os.environ["STRENGTH_WORKERS"]) if os.environ.get("STRENGTH_WORKERS") else None
GENERATED = "random:42:6"

Config = Callable[[int], dict[str, Any]]


WW_ROUNDS = 250
"""A World War game still going after this many rounds ends ranked by territories (R11,
`max_turns`), so that a stalemate of big stacks cannot hold the bench for hours: in the
expert's lines of issue 35 one game reached it (2p generated, seed 50,162, which ran past
580 rounds at about a second a decision without it)."""


def worldwar_config(players: int, map_name: str) -> Config:
    return lambda _i: {
        "players": players,
        "map": map_name,
        "cards": "increasing",
        "max_turns": WW_ROUNDS,
    }


def tactics_config(i: int) -> dict[str, Any]:
    """Mirrored random armies on each default map in turn (by seed)."""
    army = mirror_army({"players": 2}, 1000 + i // 2)
    return {"players": 2, "armies": [army, army]}


def wok_config(_i: int) -> dict[str, Any]:
    return {"players": 2}


def series(
    game: str, config: Config, players: int, hero: str, rival: str, games: int, seed: int
) -> tuple[float, list[GameResult]]:
    """`hero` in one seat (moving round the table) against `rival` in every other:
    (hero's points, each game's result)."""
    tasks = [
        GameTask(
            game,
            config(SEED + i),
            SEED + seed + i,
            tuple(hero if s == i % players else rival for s in range(players)),
            i % players,
            ITERATIONS if hero == "expert" else None,
        )
        for i in range(games)
    ]
    results = list(play_games(tasks, WORKERS))
    return sum(r.points for r in results), results


def report(label: str, points: float, games: int, target: str) -> None:
    share, half = win_rate(points, games)
    low, high = 100 * (share - half), 100 * (share + half)
    print(
        f"  {label}: {points:g}/{games} = {100 * share:.1f}% +- {100 * half:.1f} "
        f"(95 %: {low:.1f}-{high:.1f}; {target})"
    )


def decision_times(name: str, times: Sequence[float]) -> None:
    if times:
        ordered = sorted(times)
        print(
            f"  {name} time per decision over {len(ordered)} decisions: median "
            f"{statistics.median(ordered) * 1000:.1f} ms, max {ordered[-1] * 1000:.0f} ms"
        )


def test_worldwar_expert_against_hard() -> None:
    print(f"\nWorld War expert, increasing cards ({WW_GAMES} games per line; targets: 2p >= 70%,")
    print("4p v three hard >= 50%, the 95 % intervals' lower ends >= 65% and >= 40%;")
    print("searched decisions median <= 0.3 s, max <= 1.5 s)")
    every: list[GameResult] = []
    for players, target in ((2, "target >= 70%, low >= 65%"), (4, "target >= 50%, low >= 40%")):
        for map_name in ("classic", GENERATED):
            began = time.perf_counter()
            config = worldwar_config(players, map_name)
            points, results = series(
                "worldwar", config, players, "expert", "hard", WW_GAMES, 50_000
            )
            took = time.perf_counter() - began
            label = f"expert v {players - 1} hard ({players}p, {map_name}, {took:.0f} s)"
            report(label, points, WW_GAMES, target)
            every += results
    decision_times("expert (every decision)", [t for r in every for t in r.times])
    decision_times("expert (searched decisions)", [t for r in every for t in r.searched])
    searches = sum(len(r.searched) for r in every)
    playouts = sum(r.playouts for r in every)
    seconds = sum(r.search_seconds for r in every)
    if seconds:
        stopped = sum(r.stopped for r in every)
        print(
            f"  {searches} searches, {playouts / max(searches, 1):.0f} playouts each, "
            f"{playouts / seconds:.0f} playouts/s inside the search; {stopped} cut short by "
            "the wall-clock cap"
        )


def test_tactics_expert_against_hard() -> None:
    print(
        f"\nTactics expert v hard, default maps, mirrored armies ({GAMES} battles; target >= 70%)"
    )
    began = time.perf_counter()
    points, results = series("tactics", tactics_config, 2, "expert", "hard", GAMES, 1000)
    report(f"expert v hard ({time.perf_counter() - began:.0f} s)", points, GAMES, "target >= 70%")
    decision_times("expert", [t for r in results for t in r.times])


def round_robin(game: str, config: Config, names: Sequence[str]) -> None:
    """Every pair of `names` in 2-player games, seats swapped; each bot's score and its
    Elo (the first at 0) with a 95 % half-width."""
    results: dict[tuple[str, str], tuple[float, int]] = {}
    for a, b in combinations(names, 2):
        points, _results = series(game, config, 2, a, b, ROBIN, 70_000)
        results[(a, b)] = (points, ROBIN)
        share, half = win_rate(points, ROBIN)
        print(f"  {a} v {b}: {points:g}/{ROBIN} = {100 * share:.0f}% +- {100 * half:.0f}")
    for name, (rating, half) in sorted(elo(names, results).items(), key=lambda x: x[1][0]):
        print(f"  Elo {name:<10} {rating:7.0f} +- {half:.0f}")


def test_worldwar_round_robin() -> None:
    print(f"\nWorld War round robin, 2 players, classic map, increasing cards ({ROBIN} a pairing)")
    round_robin(
        "worldwar",
        worldwar_config(2, "classic"),
        ["random", "easy", "aggressive", "hard", "expert"],
    )


def test_tactics_round_robin() -> None:
    print(f"\nTactics round robin, default maps, mirrored armies ({ROBIN} a pairing)")
    round_robin("tactics", tactics_config, ["random", "normal", "hard", "expert"])


def test_wok_round_robin() -> None:
    print(f"\nWoK round robin, 2 players, standard rules ({ROBIN} a pairing)")
    round_robin("wok", wok_config, ["random", "robot", "general"])
