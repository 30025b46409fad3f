"""Exact battle odds (odds.py): known values, an independent exact recursion, sampling."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from suite.core.rng import Rng
from suite.worldwar.rules import odds


def test_single_roll_counts() -> None:
    assert odds.roll_counts(3, 2) == ((0, 2, 2890), (1, 1, 2611), (2, 0, 2275))
    assert sum(c for _, _, c in odds.roll_counts(3, 2)) == 7776
    assert odds.roll_counts(1, 1) == ((0, 1, 15), (1, 0, 21))


@pytest.mark.parametrize(
    ("a", "d", "p"), [(3, 1, 0.7542), (4, 2, 0.6560), (20, 20, 0.5775), (2, 1, 0.4167)]
)
def test_known_conquest_probabilities(a: int, d: int, p: float) -> None:
    assert round(odds.battle(a, d).win, 4) == p
    assert round(odds.win_probability(a, d), 4) == p


@cache
def exact(a: int, d: int) -> dict[tuple[int, int], Fraction]:
    """End distribution by plain recursion over rational numbers (independent of odds.py)."""
    if d == 0 or a == 1:
        return {(a, d): Fraction(1)}
    ad, dd = min(3, a - 1), min(2, d)
    total = 6 ** (ad + dd)
    out: dict[tuple[int, int], Fraction] = {}
    for la, ld, c in odds.roll_counts(ad, dd):
        for end, p in exact(a - la, d - ld).items():
            out[end] = out.get(end, Fraction(0)) + Fraction(c, total) * p
    return out


@pytest.mark.parametrize(("a", "d"), [(2, 1), (5, 3), (7, 7), (12, 4), (3, 9), (30, 25)])
def test_distribution_matches_rational_recursion(a: int, d: int) -> None:
    want = exact(a, d)
    got = odds.battle(a, d)
    for k in range(2, a + 1):
        assert got.attacker_left[k] == pytest.approx(float(want.get((k, 0), 0)), abs=1e-12)
    for k in range(1, d + 1):
        assert got.defender_left[k] == pytest.approx(float(want.get((1, k), 0)), abs=1e-12)
    assert got.win == pytest.approx(float(sum(p for (_, dd), p in want.items() if dd == 0)))
    e_att = sum((a - k) * p for (k, _), p in want.items())
    e_def = sum((d - k) * p for (_, k), p in want.items())
    assert got.expected_attacker_loss == pytest.approx(float(e_att))
    assert got.expected_defender_loss == pytest.approx(float(e_def))


def test_large_battles_use_numpy_path_and_agree_with_the_table() -> None:
    big = odds.battle(60, 70)  # above SMALL_BATTLE: the strided numpy propagation
    assert odds.SMALL_BATTLE < 60 * 70
    assert big.win == pytest.approx(odds.win_probability(60, 70), abs=1e-12)
    assert big.attacker_left.sum() - big.attacker_left[1] + big.defender_left[1:].sum() == (
        pytest.approx(1.0)
    )
    huge = odds.battle(1000, 1000)
    assert 0.99 < huge.win < 1.0
    assert not huge.attacker_left.flags.writeable


@pytest.mark.parametrize(("a", "d"), [(160, 160), (164, 205), (200, 230), (300, 280), (170, 3)])
def test_big_battles_conquest_odds_are_close_to_the_chain(a: int, d: int) -> None:
    """Past the table, win_probability approximates (or, for short chains, reads the
    chain): within 0.005 of the exact chain's figure."""
    assert odds.win_probability(a, d) == pytest.approx(odds.battle(a, d).win, abs=0.005)
    assert odds.win_probability(a, 0) == 1.0 and odds.win_probability(1, d) == 0.0


def test_trivial_battles_and_bad_input() -> None:
    assert odds.battle(1, 5).win == 0.0
    assert odds.battle(5, 0).win == 1.0
    with pytest.raises(ValueError):
        odds.battle(0, 3)


def test_sampling_is_exact_in_distribution() -> None:
    rng = Rng(5)
    n = 20000
    a, d = 6, 4
    counts: dict[tuple[int, int], int] = {}
    for _ in range(n):
        end = odds.resolve_battle(a, d, rng)
        counts[end] = counts.get(end, 0) + 1
    want = exact(a, d)
    assert set(counts) <= set(want)
    for end, p in want.items():
        sd = float(np.sqrt(float(p) * (1 - float(p)) / n))
        assert abs(counts.get(end, 0) / n - float(p)) < 5 * sd + 1e-9


def test_odds_caches_are_bounded_by_bytes() -> None:
    book = odds.Odds(odds.odds_for().rules)
    book._battles.limit = book._samplers.limit = 40_000
    rng = Rng(3)
    for a in range(2, 50, 3):
        for d in range(1, 40, 2):
            book.resolve(a, d, rng)
            book.battle(a * 2, d * 2)
            assert book._battles.bytes <= 40_000 and book._samplers.bytes <= 40_000
    assert book.cached_bytes() > 0
    book.clear()
    assert book._battles.bytes == book._samplers.bytes == 0


def test_big_battles_roll_and_small_ones_draw_from_the_same_distribution() -> None:
    """Past `SAMPLER_CELLS` a battle is rolled roll by roll: same end distribution."""
    book = odds.Odds(odds.odds_for().rules)
    a, d = 80, 60
    assert (a + 1) * (d + 1) > odds.SAMPLER_CELLS
    rng = Rng(8)
    n = 1500
    wins = sum(book.resolve(a, d, rng)[1] == 0 for _ in range(n))
    p = book.battle(a, d).win
    assert abs(wins / n - p) < 4 * (p * (1 - p) / n) ** 0.5
