"""Win-rate intervals and the Elo fit of `suite.core.strength`."""

from __future__ import annotations

import math

import pytest

from suite.core.strength import ELO_PER_NAT, elo, win_rate


def test_win_rate_and_its_interval() -> None:
    share, half = win_rate(130, 200)
    assert share == pytest.approx(0.65)
    assert half == pytest.approx(1.96 * math.sqrt(0.65 * 0.35 / 200))
    assert win_rate(0, 0) == (0.0, 0.0)
    assert win_rate(20, 20)[1] > 0  # a clean sweep still has an error bar


def test_elo_of_a_three_quarter_score_is_about_191_points() -> None:
    ratings = elo(["a", "b"], {("b", "a"): (7500, 10_000)})
    expected = math.log(3) * ELO_PER_NAT  # 75 % expected score: 190.8 Elo
    rating, half = ratings["b"]
    assert ratings["a"] == (0.0, 0.0)
    assert rating == pytest.approx(expected, abs=2)
    assert 0 < half < 20


def test_elo_orders_a_round_robin_and_keeps_sweeps_finite() -> None:
    results = {
        ("weak", "mid"): (5.0, 40),
        ("mid", "strong"): (10.0, 40),
        ("weak", "strong"): (0.0, 40),
    }
    ratings = elo(["weak", "mid", "strong"], results)
    assert 0 < ratings["mid"][0] < ratings["strong"][0] < 2000
    assert all(math.isfinite(r) and math.isfinite(h) for r, h in ratings.values())
    fewer = elo(["weak", "mid", "strong"], {k: (s / 4, n // 4) for k, (s, n) in results.items()})
    assert fewer["strong"][1] > ratings["strong"][1]  # fewer games, wider error bars
