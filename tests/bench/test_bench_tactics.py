"""WoS Tactics engine and bot figures (printed with `make bench`; no timing asserts).

TX_BATTLES (default 200) sets how many 1-vs-1 battles each strength series plays;
TX_ENDINGS (default 4) how many battles each bot pairing plays on each default map for
the table of how battles end (elimination, T17 stalemate, round cap).
"""

from __future__ import annotations

import os
import statistics
import time
from collections import Counter

from suite.core.rng import Rng
from suite.tactics.rules import actions as A
from suite.tactics.rules.arena import make_bot, mirror_army, play_battle
from suite.tactics.rules.data import load_rules
from suite.tactics.rules.packs import get_pack, playable_maps
from suite.tactics.rules.state import TacticsState
from suite.tactics.rules.terrain import Terrain

BATTLES = int(os.environ.get("TX_BATTLES", "200"))
ENDINGS = int(os.environ.get("TX_ENDINGS", "4"))
PAIRINGS = (("normal", "normal"), ("hard", "hard"), ("normal", "hard"))


def test_reachability_mobility_6_on_64x64() -> None:
    rules = load_rules()
    size = 64
    terrain = Terrain(
        size,
        (3,) * size * size,
        (0,) * size * size,
        (None,) * 4,
        rules.movement.move_elevation_step,
        rules.movement.shot_elevation_step,
        rules.movement.air_bit,
    )
    occupied = [0] * (size * size)
    start = terrain.index(32, 32)
    runs = 2000
    began = time.perf_counter()
    for _ in range(runs):
        found = terrain.reachable(start, 1, 6, occupied)
    per = (time.perf_counter() - began) / runs * 1000
    print(f"\ntactics reachability, mobility 6, 64x64 open map: {per:.3f} ms ({len(found)} cells)")
    assert len(found) == 84


def test_four_normal_bots_on_a_32x32_map() -> None:
    times = []
    for seed in range(3):
        began = time.perf_counter()
        state = play_battle({"players": 4, "map": 3}, seed, [make_bot("normal") for _ in range(4)])
        times.append(time.perf_counter() - began)
        assert state.outcome() is not None
    print(
        f"\ntactics 4 normal bots, 32x32 map, 9 pieces each: "
        f"{statistics.median(times):.2f} s per battle (median of 3: "
        f"{', '.join(f'{t:.2f}' for t in times)})"
    )


def test_random_bot_battles_per_second() -> None:
    began = time.perf_counter()
    games = 0
    while time.perf_counter() - began < 5:
        play_battle({"players": 2}, games, [make_bot("random"), make_bot("random")])
        games += 1
    rate = games / (time.perf_counter() - began)
    print(f"\ntactics random-bot 1-vs-1 battles: {rate:.2f} per second")


class Timed:
    """Wraps a bot, adding up its thinking time per commanded piece."""

    def __init__(self, name: str) -> None:
        self.bot = make_bot(name)
        self.name = name
        self.per_piece: list[float] = []
        self._current = 0.0

    def choose(self, view, legal, rng):  # type: ignore[no-untyped-def]
        began = time.perf_counter()
        action = self.bot.choose(view, legal, rng)
        self._current += time.perf_counter() - began
        finished = view.phase == "attack" or isinstance(action, A.EndTurn)
        if finished and not isinstance(action, A.Select):
            self.per_piece.append(self._current)
            self._current = 0.0
        return action


def series(first: str, second: str) -> None:
    wins: Counter[str] = Counter()
    timers: dict[str, list[float]] = {first: [], second: []}
    rounds = []
    began = time.perf_counter()
    for i in range(BATTLES):
        names = (first, second) if i % 2 == 0 else (second, first)
        army = mirror_army({"players": 2}, 1000 + i // 2)
        bots = [Timed(n) for n in names]
        state = play_battle({"players": 2, "armies": [army, army]}, 1000 + i, bots)
        outcome = state.outcome()
        assert outcome is not None
        rounds.append(state.round)
        if len(outcome.winners) == 1:
            wins[names[outcome.winners[0]]] += 1
        else:
            wins["draw"] += 1
        for bot in bots:
            timers[bot.name].extend(bot.per_piece)
    spent = time.perf_counter() - began
    share = wins[first] / BATTLES * 100
    print(
        f"\ntactics {first} vs {second}: {BATTLES} battles (mirrored random armies, all maps, "
        f"seats swapped): {first} {wins[first]}, {second} {wins[second]}, draws {wins['draw']} "
        f"-> {first} wins {share:.1f}%; median {statistics.median(rounds)} rounds; {spent:.0f} s"
    )
    for name, values in timers.items():
        if values:
            values.sort()
            median = statistics.median(values) * 1000
            p95 = values[int(len(values) * 0.95)] * 1000
            print(
                f"  {name} thinking per piece: median {median:.1f} ms, "
                f"p95 {p95:.1f} ms, max {values[-1] * 1000:.1f} ms"
            )


def test_normal_vs_random_strength() -> None:
    series("normal", "random")


def test_hard_vs_normal_strength() -> None:
    series("hard", "normal")


def ending(reason: str) -> str:
    """The kind of ending a battle's reason names."""
    if reason.startswith("stalemate"):
        return "stalemate"
    if "rounds played" in reason:
        return "cap"
    return "elimination"


def test_how_battles_end_per_pairing_and_map() -> None:
    """Issue 12 item 9: no battle between normal or hard bots reaches the round cap."""
    maps = playable_maps(get_pack(None), 2)
    print(f"\ntactics: how 1-vs-1 battles end ({ENDINGS} per pairing and map, mirrored armies)")
    print(f"  {'map':<16} {'pairing':<14} {'elim':>5} {'stale':>6} {'cap':>4} {'rounds':>7}")
    total: Counter[str] = Counter()
    for map_id in maps:
        name = get_pack(None).grids[map_id].name
        for first, second in PAIRINGS:
            kinds: Counter[str] = Counter()
            rounds = []
            for i in range(ENDINGS):
                names = (first, second) if i % 2 == 0 else (second, first)
                army = mirror_army({"players": 2, "map": map_id}, 3000 + i // 2)
                setup = {"players": 2, "map": map_id, "armies": [army, army]}
                state = play_battle(setup, 3000 + i, [make_bot(n) for n in names])
                outcome = state.outcome()
                assert outcome is not None
                kinds[ending(outcome.reason)] += 1
                rounds.append(state.round)
            total.update(kinds)
            print(
                f"  {name:<16} {first + '-' + second:<14} {kinds['elimination']:>5} "
                f"{kinds['stalemate']:>6} {kinds['cap']:>4} {statistics.median(rounds):>7}"
            )
            assert kinds["cap"] == 0, (name, first, second)
    print(f"  all: {dict(total)}")


def test_seeded_battles_are_reproducible() -> None:
    one = play_battle({"players": 2}, 77, [make_bot("normal"), make_bot("hard")])
    two = play_battle({"players": 2}, 77, [make_bot("normal"), make_bot("hard")])
    assert one.to_dict() == two.to_dict()
    assert isinstance(Rng(1), Rng) and isinstance(one, TacticsState)
