"""World War benchmarks (run by `make bench` with -s): they print figures, never assert
on wall-clock time.

- games/s on the classic map with 2, 4 and 6 "aggressive random" players, cards off and
  on (increasing), through the Bot contract (view + legal + choose + apply every step):
  the best and the median of five runs, and whether the engine runs compiled (setup.py).
  The best run is the figure to compare (as `timeit` advises: other load on the machine
  only ever slows a run down); on this shared machine whole minutes run up to 40 %
  slower, which the median shows;
- the same self-play through `suite sim`'s own path (`suite.sim.simulate`: a new match,
  bots and random source per game, the compiled `play_one` loop), 2 and 4 players, cards
  off and increasing: the figure `suite sim` prints (issue 35 compares it with pyrisk's
  StupidAI self-play outside the project: 2p cards off >= 10 times pyrisk). Where a 2p
  cards-off game's 5.3 M instructions went before issue 35's second round (callgrind):
  apply about 30 % (checking the action's field types through attrgetter closures 6 %,
  the battle's draw 8 %, the event records 6 %), the bot's choice 27 %, the view 20 %
  and the legal list 7 % (a second freshness check 3 %), setting up the game 6 %
  (seeding two generators through numpy's SeedSequence 3 %), full cyclic collections
  rescanning the modules 1.5 %; 4.8 M after (4p -7 %, 2p increasing cards -13 %);
- what one decision costs, part by part (view, legal, the bot's choice, apply);
- exact odds time for 200 v 200 and 1000 v 1000;
- the hard bot's time per turn (4 players: hard against three easy bots);
- bot strength over 200 games each: hard v random (2 players), hard v 3 easy (4 players);
- 400 games of 4 mixed bots on each shipped map with increasing cards: how many end by
  conquest within 300 rounds, the longest game, and the process's peak memory.
"""

from __future__ import annotations

import resource
import statistics
import time
from collections.abc import Callable
from typing import Any

from suite.core.rng import Rng
from suite.sim import simulate
from suite.worldwar.rules import SPEC, odds
from suite.worldwar.rules import engine as engine_module
from suite.worldwar.rules.bots import AggressiveBot
from suite.worldwar.rules.engine import WorldWarState


def new(players: int, cards: str, seed: int, **extra: Any) -> WorldWarState:
    st = SPEC.create({"players": players, "map": "classic", "cards": cards, **extra}, seed)
    assert isinstance(st, WorldWarState)
    return st


def throughput(players: int, cards: str, games: int) -> tuple[float, float]:
    """(games per second, actions per game) for aggressive self-play through the contract."""
    steps = 0
    started = time.perf_counter()
    for g in range(games):
        st = new(players, cards, g)
        rng = Rng(g + 1)
        bots = [AggressiveBot() for _ in range(players)]
        while st.result is None:
            seat = st.current if st.phase != "defend" else st.actor()
            assert seat is not None
            action = bots[seat].choose(st.view(seat), st.legal(seat), rng)
            st.apply(seat, action)
            steps += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, steps / games


def test_bench_throughput() -> None:
    throughput(2, "none", 20)  # warm the odds caches
    compiled = engine_module.__file__ is not None and engine_module.__file__.endswith(".so")
    print(
        "\nWorld War aggressive self-play on the classic map through view/legal/apply"
        " (targets, cards off: 2p >= 2000 (issue 15), 4p >= 400 games/s; best of 5 runs)"
        f"\n  engine: {'compiled with mypyc' if compiled else 'plain Python (not compiled)'}"
    )
    for cards in ("none", "increasing"):
        for players in (2, 4, 6):
            games = {2: 400, 4: 200, 6: 140}[players]
            runs = [throughput(players, cards, games) for _ in range(5)]
            rates = [r[0] for r in runs]
            listed = ", ".join(f"{r:.0f}" for r in rates)
            print(
                f"  {players}p cards {cards:10s}: {max(rates):7.1f} games/s "
                f"(median {statistics.median(rates):.0f}; runs {listed}"
                f"; {runs[0][1]:.0f} actions/game)"
            )


def test_bench_sim_command() -> None:
    """Issue 35: `suite sim worldwar --bots aggressive` as players and modders run it."""
    options = {"map": "classic", "max_turns": None}
    simulate("worldwar", 2, 1, 20, options={**options, "cards": "none"}, bot_names=["aggressive"])
    print("\n`suite sim worldwar --bots aggressive` (simulate), classic map: games/s, best of 3")
    for cards in ("none", "increasing"):
        for players in (2, 4):
            games = {2: 1000, 4: 300}[players]
            rates = [
                simulate(
                    "worldwar",
                    players,
                    1,
                    games,
                    options={**options, "cards": cards},
                    bot_names=["aggressive"],
                ).games_per_second
                for _ in range(3)
            ]
            listed = ", ".join(f"{r:.0f}" for r in rates)
            print(f"  {players}p cards {cards:10s}: {max(rates):7.1f} games/s (runs {listed})")


def decision_cost(cards: str, games: int) -> dict[str, float]:
    """Seconds per decision spent in view, legal, the bot's choice and apply (2 aggressive
    bots on the classic map)."""
    spent = dict.fromkeys(("view", "legal", "choose", "apply"), 0.0)
    clock = time.perf_counter
    decisions = 0
    for g in range(games):
        st = new(2, cards, g)
        rng = Rng(g + 1)
        bots = [AggressiveBot(), AggressiveBot()]
        while st.result is None:
            seat = st.current if st.phase != "defend" else st.actor()
            assert seat is not None
            t0 = clock()
            view = st.view(seat)
            t1 = clock()
            legal = st.legal(seat)
            t2 = clock()
            action = bots[seat].choose(view, legal, rng)
            t3 = clock()
            st.apply(seat, action)
            t4 = clock()
            spent["view"] += t1 - t0
            spent["legal"] += t2 - t1
            spent["choose"] += t3 - t2
            spent["apply"] += t4 - t3
            decisions += 1
    return {k: v / decisions for k, v in spent.items()}


def test_bench_decision_cost() -> None:
    """Issue 25 item 5: what one bot decision costs, part by part (a view and its legal
    list are made once per moment and shared)."""
    decision_cost("none", 20)  # warm the odds caches
    print("\nWorld War, 2 aggressive bots, classic map: time per decision (best of 3 runs)")
    for cards in ("none", "increasing"):
        runs = [decision_cost(cards, 200) for _ in range(3)]
        best = {k: min(r[k] for r in runs) for k in runs[0]}
        parts = ", ".join(f"{k} {v * 1e9:.0f} ns" for k, v in best.items())
        print(f"  cards {cards:10s}: {parts}")


def best_time(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        odds.clear_caches()
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def test_bench_odds() -> None:
    print("\nExact odds (target 1000 v 1000 <= 50 ms)")
    for n in (200, 1000):
        t = best_time(lambda n=n: odds.battle(n, n))
        print(f"  {n} v {n}: {t * 1000:.1f} ms (P(win) = {odds.battle(n, n).win:.4f})")


def play(
    st: WorldWarState, bots: list[Any], rng: Rng, timed_seat: int | None = None
) -> list[float]:
    """Play to the end; return the timed seat's thinking time per turn (seconds)."""
    turns: list[float] = []
    current_turn = -1
    spent = 0.0
    while st.result is None:
        seat = st.actor()
        assert seat is not None
        started = time.perf_counter()
        action = bots[seat].choose(st.view(seat), st.legal(seat), rng)
        spent_now = time.perf_counter() - started
        if seat == timed_seat and st.phase != "setup":
            if st.turn != current_turn:
                if current_turn >= 0:
                    turns.append(spent)
                current_turn, spent = st.turn, 0.0
            spent += spent_now
        st.apply(seat, action)
    if current_turn >= 0:
        turns.append(spent)
    return turns


def test_bench_hard_bot_turn_time() -> None:
    turns: list[float] = []
    for g in range(30):
        st = new(4, "increasing", 500 + g)
        bots = [SPEC.bots[n]() for n in ("hard", "easy", "easy", "easy")]
        turns += play(st, bots, Rng(g), timed_seat=0)
    turns.sort()
    print(
        f"\nHard bot time per turn over {len(turns)} turns (target median <= 50 ms): "
        f"median {statistics.median(turns) * 1000:.2f} ms, "
        f"90% {turns[int(0.9 * len(turns))] * 1000:.2f} ms, max {turns[-1] * 1000:.2f} ms"
    )


def strength(players: int, opponent: str, games: int, cards: str) -> tuple[int, int]:
    wins = unfinished = 0
    for g in range(games):
        hard = g % players
        st = new(players, cards, 10_000 + g, max_turns=500)
        bots = [SPEC.bots["hard" if s == hard else opponent]() for s in range(players)]
        play(st, bots, Rng(g))
        outcome = st.outcome()
        assert outcome is not None
        wins += outcome.winners == (hard,)
        unfinished += outcome.reason.startswith("turn limit")
    return wins, unfinished


def test_bench_bot_strength() -> None:
    print("\nBot strength (targets: hard v random 2p >= 90%, hard v 3 easy 4p >= 45%)")
    for players, opponent in ((2, "random"), (4, "easy")):
        for cards in ("increasing", "none"):
            games = 200
            wins, unfinished = strength(players, opponent, games, cards)
            print(
                f"  hard v {players - 1} {opponent} ({players}p, cards {cards}): "
                f"{wins}/{games} = {100 * wins / games:.1f}% (turn limit reached: {unfinished})"
            )


MIXED = ("hard", "easy", "random", "easy")


def test_bench_mixed_bots_end_by_conquest() -> None:
    print("\nMixed bots, 4 players, increasing cards (target: all 400 end by conquest within 300")
    print("rounds on each shipped map; peak memory under 400 MB)")
    for map_name in ("classic",):
        conquered, longest = 0, 0
        started = time.perf_counter()
        for g in range(400):
            config = {"players": 4, "map": map_name, "cards": "increasing", "max_turns": 300}
            st = new_from(config, 20_000 + g)
            bots = [SPEC.bots[MIXED[(s + g) % 4]]() for s in range(4)]
            play(st, bots, Rng(g))
            outcome = st.outcome()
            assert outcome is not None
            conquered += not outcome.reason.startswith("turn limit")
            longest = max(longest, st.rounds())
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"  {map_name}: {conquered}/400 ended by conquest, longest {longest} rounds, "
            f"{time.perf_counter() - started:.1f} s, peak memory {peak:.0f} MB, "
            f"odds caches {odds.cached_bytes() / 2**20:.1f} MB"
        )


def new_from(config: dict[str, Any], seed: int) -> WorldWarState:
    st = SPEC.create(config, seed)
    assert isinstance(st, WorldWarState)
    return st
