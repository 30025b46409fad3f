"""Battles too big for the exact chain stay bounded in memory and time and stay sound."""

from __future__ import annotations

import pytest

from suite.core.rng import Rng
from suite.worldwar.rules import odds


def test_a_huge_battle_is_approximated_not_allocated() -> None:
    result = odds.battle(50_000, 60_000)
    assert not result.exact
    assert result.attacker_left.sum() == pytest.approx(1.0)
    assert result.defender_left.sum() == pytest.approx(1.0)
    assert 0.0 <= result.win < 0.01
    assert 0 <= result.expected_attacker_loss <= 50_000 - 1


@pytest.mark.parametrize(("a", "d"), [(900, 1000), (950, 950), (1000, 900), (300, 250)])
def test_the_approximation_agrees_with_the_exact_chain(a: int, d: int) -> None:
    exact = odds.battle(a, d)
    approx = odds.odds_for().approximate(a, d)
    assert exact.exact and not approx.exact
    assert approx.win == pytest.approx(exact.win, abs=0.02)
    assert approx.expected_attacker_loss == pytest.approx(exact.expected_attacker_loss, rel=0.01)
    assert approx.expected_defender_loss == pytest.approx(exact.expected_defender_loss, rel=0.01)


def test_resolving_a_huge_battle_is_deterministic_and_ends_the_battle() -> None:
    first = odds.resolve_battle(60_000, 50_000, Rng(3))
    assert first == odds.resolve_battle(60_000, 50_000, Rng(3))
    left_a, left_d = first
    assert (left_d == 0 and left_a >= 2) or (left_a == 1 and left_d >= 1)


def test_rolling_a_huge_battle_matches_its_odds_on_average() -> None:
    a, d = 2100, 2000  # just past the exact limit
    assert (a + 1) * (d + 1) > odds.EXACT_CELLS
    rng = Rng(11)
    losses = [a - odds.resolve_battle(a, d, rng)[0] for _ in range(40)]
    expected = odds.battle(a, d).expected_attacker_loss
    assert sum(losses) / len(losses) == pytest.approx(expected, rel=0.03)
