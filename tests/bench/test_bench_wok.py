"""WoK speed and strength figures (printed with `make bench`; nothing asserts on time).

Figures of issue 5 item 10: one turn of a 10-player 60-province game at turn 20 with the
bots' orders (target median 30 ms), a whole 2-player Skirmish between bots
(target 1 s), a 999 vs 999 battle (target 2 ms). Issue 13 item 10: how long games
between two generals last (median within 12 turns, 2-player Skirmish and Duel) while the
general still beats four robots on the 30-province Star Islands map in at least 90% of
100 5-player Skirmishes.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import pytest

from suite.core.rng import Rng
from suite.wok.rules import WokState, create
from suite.wok.rules.bots import GeneralBot, RobotBot
from suite.wok.rules.contest import contest


def _play(state: WokState, bots: list[Any], rng: Rng, until_turn: int | None = None) -> None:
    while state.outcome() is None and (until_turn is None or state.turn < until_turn):
        for seat in sorted(state.awaiting()):
            state.apply(seat, bots[seat].choose(state.view(seat), state.legal(seat), rng))


def test_bench_turn_10_players_turn_20() -> None:
    state = create({"players": 10, "map": "kaomaris"}, 20)
    # Five generals and five robot bots: ten generals end the game before turn 20.
    bots = [GeneralBot() if i % 2 == 0 else RobotBot() for i in range(10)]
    _play(state, bots, Rng(1), until_turn=20)
    assert state.turn == 20 and state.outcome() is None
    snapshot = state.to_dict()
    orders = {s: bots[s].choose(state.view(s), state.legal(s), Rng(2)) for s in state.awaiting()}
    times = []
    think = []
    for _ in range(30):
        st = WokState.from_dict(snapshot)
        t0 = time.perf_counter()
        for s in sorted(st.awaiting()):
            bots[s].choose(st.view(s), st.legal(s), Rng(2))
        think.append(time.perf_counter() - t0)
        seats = sorted(orders)
        for s in seats[:-1]:
            st.apply(s, orders[s])
        t0 = time.perf_counter()
        st.apply(seats[-1], orders[seats[-1]])  # the last ready seat runs the turn
        times.append(time.perf_counter() - t0)
        assert st.turn == 21
    print(
        f"\nwok: one turn, 10 players, 60 provinces, turn 20: median "
        f"{statistics.median(times) * 1000:.2f} ms (target 30 ms); "
        f"the bots' orders: median {statistics.median(think) * 1000:.1f} ms"
    )


def test_bench_whole_two_player_skirmish() -> None:
    times = []
    turns = []
    for seed in range(10):
        t0 = time.perf_counter()
        state = create({"players": 2, "map": "trial"}, seed)
        _play(state, [GeneralBot(), RobotBot()], Rng(seed))
        times.append(time.perf_counter() - t0)
        turns.append(state.turn - 1)
    print(
        f"\nwok: whole 2-player Skirmish (general vs robot bot), 10 games: median "
        f"{statistics.median(times) * 1000:.1f} ms (target 1 s), max {max(times) * 1000:.1f} ms, "
        f"mean {statistics.mean(turns):.1f} turns"
    )


def test_bench_battle_999_vs_999() -> None:
    rng = Rng(3)
    power = 99 * 10 * 1.5
    times = []
    rounds = []
    for _ in range(300):
        t0 = time.perf_counter()
        res = contest(rng, 999, power, 999, power * 1.1)
        times.append(time.perf_counter() - t0)
        rounds.append(res.rounds)
    print(
        f"\nwok: 999 vs 999 battle: median {statistics.median(times) * 1000:.3f} ms "
        f"(target 2 ms), mean {statistics.mean(rounds):.0f} rounds"
    )


def _general_vs_general(config: dict[str, Any], games: int) -> list[int]:
    turns = []
    for seed in range(games):
        state = create(config, 2000 + seed)
        _play(state, [GeneralBot(), GeneralBot()], Rng(seed))
        turns.append(state.turn - 1)
    return turns


def test_bench_general_against_general_game_length() -> None:
    skirmish = _general_vs_general({"players": 2, "map": "trial"}, 40)
    duel = _general_vs_general({"players": 2, "variant": "duel"}, 40)
    print(
        f"\nwok: general vs general, 40 games each: 2-player Skirmish (Trial) median "
        f"{statistics.median(skirmish):.1f} turns (mean {statistics.mean(skirmish):.1f}); "
        f"Duel median {statistics.median(duel):.1f} turns (mean {statistics.mean(duel):.1f}); "
        f"target median within 12"
    )


@pytest.mark.parametrize("ruleset", ["standard", "intermediate", "wok4"])
def test_bench_general_against_four_robots(ruleset: str) -> None:
    games = 100
    wins = 0
    turns = []
    t0 = time.perf_counter()
    for seed in range(games):
        config = {"players": 5, "robots": 4, "map": "star-islands", "ruleset": ruleset}
        state = create(config, 1000 + seed)
        _play(state, [GeneralBot()], Rng(seed))
        out = state.outcome()
        assert out is not None
        wins += out.winners == (0,)
        turns.append(state.turn - 1)
    seconds = time.perf_counter() - t0
    print(
        f"\nwok ({ruleset}): general vs 4 S16 robots, 5-player Skirmish on Star Islands: "
        f"{wins}/{games} won ({100 * wins / games:.0f}%, target 90%), "
        f"mean {statistics.mean(turns):.1f} turns, {seconds:.1f} s"
    )
    assert wins >= 90
