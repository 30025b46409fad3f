"""Bot strength (issue 25): the experts against the hard bots, and a round robin of every
bot per game with win rates and Elo ratings (printed by `make bench` with -s; nothing
here asserts on a figure: they are measurements, each with its 95 % error bar).

- World War: expert v hard (2 players) and expert v three hard (4 players), on the
  classic map and on a generated one ("random:42:6", a new map per game), increasing
  cards; targets >= 65 % and >= 40 % (a fair share is 50 % and 25 %). Also the expert's
  time per searched decision (median, max; targets median <= 0.3 s, max <= 1.5 s) and
  the playouts per second inside its search.
- Tactics: expert v hard, mirrored random armies on every default map in turn, seats
  swapped; target >= 70 %; the expert's thinking per decision.
- A round robin per game: every pair of bots in 2-player games, seats swapped, with each
  bot's score and its Elo (random at 0) with a 95 % half-width.

Counts come from the environment (the issue asks for 200 games per pairing; a short
run uses fewer, and the error bars say what that is worth):
STRENGTH_GAMES (default 200) games per expert pairing, STRENGTH_ROBIN (default 40)
games per round-robin pairing, STRENGTH_ITERATIONS (default: the bot's own) the World War
expert's playouts per decision, STRENGTH_SEED (default 0) shifts every game's seed.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from suite.core.match import Action, GameSpec, Legal, State, View, game_spec
from suite.core.rng import Rng
from suite.core.strength import elo, win_rate
from suite.tactics.rules.arena import mirror_army
from suite.worldwar.rules.expert import ExpertBot as WorldWarExpert

GAMES = int(os.environ.get("STRENGTH_GAMES", "200"))
ROBIN = int(os.environ.get("STRENGTH_ROBIN", "40"))
ITERATIONS = os.environ.get("STRENGTH_ITERATIONS")
SEED = int(os.environ.get("STRENGTH_SEED", "0"))
GENERATED = "random:42:6"


class Timed:
    """A bot wrapped to time each decision; `searched` holds the times of the decisions
    in which a World War expert searched (the others it hands to the hard bot)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name: str = bot.name
        self.times: list[float] = []
        self.searched: list[float] = []

    def choose(self, view: View, legal: Legal, rng: Rng) -> Action:
        stats = getattr(self.bot, "stats", None)
        before = stats.searches if stats is not None else 0
        began = time.perf_counter()
        action: Action = self.bot.choose(view, legal, rng)
        spent = time.perf_counter() - began
        self.times.append(spent)
        if stats is not None and stats.searches > before:
            self.searched.append(spent)
        return action


def make(spec: GameSpec, name: str) -> Any:
    bot = spec.bots[name]()
    if ITERATIONS and isinstance(bot, WorldWarExpert):
        bot.iterations = int(ITERATIONS)
    return bot


def play(spec: GameSpec, config: dict[str, Any], seed: int, bots: Sequence[Any]) -> State:
    """One game to its end, `bots[seat]` for each seat."""
    state = spec.create(config, seed)
    rng = Rng(seed + 7_919)
    while state.outcome() is None:
        seat = min(state.awaiting())
        state.apply(seat, bots[seat].choose(state.view(seat), state.legal(seat), rng))
    return state


def score(state: State, seat: int) -> float:
    """1 for a win alone, a share of 1 for a shared win, else 0."""
    outcome = state.outcome()
    assert outcome is not None
    winners = outcome.winners
    return 1.0 / len(winners) if seat in winners else 0.0


def worldwar_config(players: int, map_name: str) -> Callable[[int], dict[str, Any]]:
    return lambda _i: {"players": players, "map": map_name, "cards": "increasing"}


def tactics_config(i: int) -> dict[str, Any]:
    """Mirrored random armies on each default map in turn (by seed)."""
    army = mirror_army({"players": 2}, 1000 + i // 2)
    return {"players": 2, "armies": [army, army]}


def series(
    game: str,
    config: Callable[[int], dict[str, Any]],
    players: int,
    hero: str,
    rival: str,
    games: int,
    seed: int,
) -> tuple[float, list[float], list[float]]:
    """`hero` in one seat (moving round the table) against `rival` in every other:
    (hero's points, its decision times, those of its searched decisions)."""
    spec = game_spec(game)
    points = 0.0
    times: list[float] = []
    searched: list[float] = []
    for i in range(games):
        seat = i % players
        timed = Timed(make(spec, hero))
        bots = [timed if s == seat else make(spec, rival) for s in range(players)]
        state = play(spec, config(SEED + i), SEED + seed + i, bots)
        points += score(state, seat)
        times += timed.times
        searched += timed.searched
    return points, times, searched


def report(label: str, points: float, games: int, target: str) -> None:
    share, half = win_rate(points, games)
    print(f"  {label}: {points:g}/{games} = {100 * share:.1f}% +- {100 * half:.1f} ({target})")


def decision_times(name: str, times: list[float]) -> None:
    if times:
        ordered = sorted(times)
        print(
            f"  {name} time per decision over {len(ordered)} decisions: median "
            f"{statistics.median(ordered) * 1000:.1f} ms, max {ordered[-1] * 1000:.0f} ms"
        )


def test_worldwar_expert_against_hard() -> None:
    print(f"\nWorld War expert, increasing cards ({GAMES} games per line; targets: 2p >= 65%,")
    print("4p v three hard >= 40%; searched decisions median <= 0.3 s, max <= 1.5 s)")
    stats = WorldWarExpert.totals
    searches, playouts, seconds = stats.searches, stats.playouts, stats.seconds
    times: list[float] = []
    searched: list[float] = []
    for players, target in ((2, ">= 65%"), (4, ">= 40%")):
        for map_name in ("classic", GENERATED):
            began = time.perf_counter()
            config = worldwar_config(players, map_name)
            points, spent, thought = series(
                "worldwar", config, players, "expert", "hard", GAMES, 50_000
            )
            took = time.perf_counter() - began
            label = f"expert v {players - 1} hard ({players}p, {map_name}, {took:.0f} s)"
            report(label, points, GAMES, target)
            times += spent
            searched += thought
    decision_times("expert (every decision)", times)
    decision_times("expert (searched decisions)", searched)
    searches, playouts = stats.searches - searches, stats.playouts - playouts
    seconds = stats.seconds - seconds
    if seconds:
        print(
            f"  {searches} searches, {playouts / max(searches, 1):.0f} playouts each, "
            f"{playouts / seconds:.0f} playouts/s inside the search"
        )


def test_tactics_expert_against_hard() -> None:
    print(
        f"\nTactics expert v hard, default maps, mirrored armies ({GAMES} battles; target >= 70%)"
    )
    began = time.perf_counter()
    points, times, _searched = series("tactics", tactics_config, 2, "expert", "hard", GAMES, 1000)
    report(f"expert v hard ({time.perf_counter() - began:.0f} s)", points, GAMES, "target >= 70%")
    decision_times("expert", times)


def round_robin(game: str, config: Callable[[int], dict[str, Any]], names: Sequence[str]) -> None:
    results: dict[tuple[str, str], tuple[float, int]] = {}
    for a, b in combinations(names, 2):
        points, _times, _searched = series(game, config, 2, a, b, ROBIN, 70_000)
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
        ["random", "aggressive", "easy", "hard", "expert"],
    )


def test_tactics_round_robin() -> None:
    print(f"\nTactics round robin, default maps, mirrored armies ({ROBIN} a pairing)")
    round_robin("tactics", tactics_config, ["random", "normal", "hard", "expert"])
