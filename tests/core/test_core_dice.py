"""Dice: sorted rolls, the Risk comparison by exhaustive enumeration, W6 contests, percents."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.core.dice import (
    ContestRound,
    contest_range,
    contest_round,
    risk_losses,
    roll_sorted,
)
from suite.core.rng import Rng


def outcomes(att_dice: int, def_dice: int) -> Counter[tuple[int, int]]:
    """(attacker losses, defender losses) over every roll of that many dice."""
    faces = range(1, 7)
    counts: Counter[tuple[int, int]] = Counter()
    for roll in itertools.product(faces, repeat=att_dice + def_dice):
        counts[risk_losses(roll[:att_dice], roll[att_dice:])] += 1
    return counts


# -- the Risk comparison ------------------------------------------------------


def test_three_against_two_exhaustive() -> None:
    counts = outcomes(3, 2)
    assert sum(counts.values()) == 6**5 == 7776
    assert counts == {(0, 2): 2890, (1, 1): 2611, (2, 0): 2275}


@pytest.mark.parametrize(
    ("att", "dfn", "expected"),
    [
        # The classic Risk odds tables, as counts over all 6**(att+dfn) rolls.
        (1, 1, {(0, 1): 15, (1, 0): 21}),
        (2, 1, {(0, 1): 125, (1, 0): 91}),
        (3, 1, {(0, 1): 855, (1, 0): 441}),
        (1, 2, {(0, 1): 55, (1, 0): 161}),
        (2, 2, {(0, 2): 295, (1, 1): 420, (2, 0): 581}),
    ],
)
def test_small_battles_exhaustive(att: int, dfn: int, expected: dict[tuple[int, int], int]) -> None:
    counts = outcomes(att, dfn)
    assert counts == expected
    assert sum(counts.values()) == 6 ** (att + dfn)


def test_ties_go_to_the_defender() -> None:
    assert risk_losses([6], [6]) == (1, 0)
    assert risk_losses([4, 4], [4, 4]) == (2, 0)
    assert risk_losses([6, 3, 1], [6, 2]) == (1, 1)


def test_dice_need_not_be_sorted() -> None:
    # Sorted: 6,5,1 against 5,4 -> 6>5 and 5>4.
    assert risk_losses([1, 6, 5], [4, 5]) == (0, 2)
    assert risk_losses((2, 1, 3), (3, 1)) == (1, 1)


def test_only_paired_dice_count() -> None:
    assert risk_losses([6, 6, 6], [1]) == (0, 1)
    assert risk_losses([1], [6, 6]) == (1, 0)
    assert risk_losses([], [3, 4]) == (0, 0)


@settings(max_examples=60, deadline=None)
@given(
    att=st.lists(st.integers(1, 6), min_size=1, max_size=3),
    dfn=st.lists(st.integers(1, 6), min_size=1, max_size=2),
)
def test_losses_add_up_to_the_pairs(att: list[int], dfn: list[int]) -> None:
    a_loss, d_loss = risk_losses(att, dfn)
    assert a_loss + d_loss == min(len(att), len(dfn))
    assert risk_losses(sorted(att), list(reversed(dfn))) == (a_loss, d_loss)


# -- sorted rolls ---------------------------------------------------------------


def test_roll_sorted_is_the_same_dice_highest_first() -> None:
    dice = roll_sorted(Rng(5), 5)
    assert dice == tuple(sorted(Rng(5).roll(5), reverse=True))
    assert list(dice) == sorted(dice, reverse=True)
    assert all(1 <= d <= 6 for d in dice)
    assert roll_sorted(Rng(5), 0) == ()
    assert all(1 <= d <= 20 for d in roll_sorted(Rng(9), 30, sides=20))


def test_roll_sorted_golden() -> None:
    assert roll_sorted(Rng(2024), 3) == (4, 2, 1)


# -- W6 contests --------------------------------------------------------------


@pytest.mark.parametrize(
    ("power", "top"),
    [
        (0.0, 1),
        (0.3, 1),
        (0.99, 1),
        (1.0, 1),
        (1.49, 1),
        (1.5, 2),
        (2.5, 3),  # halves round up
        (7.2, 7),
        (7.5, 8),
        (12.0, 12),
    ],
)
def test_contest_range(power: float, top: int) -> None:
    assert contest_range(power) == top


class Scripted(Rng):
    """An Rng whose randint returns given values (to check the W6 rule on exact draws)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = values
        self.asked: list[tuple[int, int]] = []

    def randint(self, low: int, high: int) -> int:
        self.asked.append((low, high))
        return self.values.pop(0)


@pytest.mark.parametrize(
    ("a", "d", "loser", "injured"),
    [
        (10, 6, "defender", True),  # 4 < 10/2
        (10, 5, "defender", False),  # 5 is not < 5: dead
        (6, 10, "attacker", True),
        (1, 0, "defender", False),  # 1 is not < 0.5
        (3, 2, "defender", True),  # 1 < 1.5
        (0, 4, "attacker", False),
        (7, 7, None, False),  # equal draws lose nothing
        (0, 0, None, False),
    ],
)
def test_contest_rule_on_exact_draws(a: int, d: int, loser: str | None, injured: bool) -> None:
    rng = Scripted([a, d])
    result = contest_round(rng, 12.0, 10.4)
    assert result == ContestRound(a, d, loser, injured)
    assert rng.asked == [(0, 12), (0, 10)]


def test_weak_side_draws_zero_or_one() -> None:
    rng = Rng(31)
    draws = {contest_round(rng, 0.4, 0.0).attacker_draw for _ in range(200)}
    assert draws == {0, 1}


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    att=st.floats(0, 40, allow_nan=False),
    dfn=st.floats(0, 40, allow_nan=False),
)
def test_contest_round_invariants(seed: int, att: float, dfn: float) -> None:
    rng = Rng(seed)
    for _ in range(20):
        r = contest_round(rng, att, dfn)
        assert 0 <= r.attacker_draw <= contest_range(att)
        assert 0 <= r.defender_draw <= contest_range(dfn)
        if r.attacker_draw == r.defender_draw:
            assert r.loser is None and not r.injured
        else:
            high = max(r.attacker_draw, r.defender_draw)
            expected = "defender" if r.attacker_draw > r.defender_draw else "attacker"
            assert r.loser == expected
            assert r.injured == (abs(r.attacker_draw - r.defender_draw) < high / 2)


def exact_distribution(att: int, dfn: int) -> dict[tuple[str | None, bool], Fraction]:
    """Exact chances of (loser, injured) when draws are uniform over 0..att and 0..dfn."""
    out: Counter[tuple[str | None, bool]] = Counter()
    for a in range(att + 1):
        for d in range(dfn + 1):
            if a == d:
                out[(None, False)] += 1
            else:
                loser = "defender" if a > d else "attacker"
                out[(loser, abs(a - d) < max(a, d) / 2)] += 1
    total = (att + 1) * (dfn + 1)
    return {k: Fraction(v, total) for k, v in out.items()}


@pytest.mark.parametrize(("att", "dfn"), [(10.0, 5.0), (1.0, 1.0), (3.0, 8.0)])
def test_contest_statistics_match_the_rule(att: float, dfn: float) -> None:
    rng = Rng(1234)
    n = 6000
    seen = Counter((r.loser, r.injured) for r in (contest_round(rng, att, dfn) for _ in range(n)))
    exact = exact_distribution(contest_range(att), contest_range(dfn))
    assert set(seen) <= set(exact)
    for key, p in exact.items():
        expected = float(p) * n
        sd = (n * float(p) * (1 - float(p))) ** 0.5
        assert abs(seen[key] - expected) <= 4 * sd + 1, (key, seen[key], expected)


def test_contest_exact_shares() -> None:
    # 0..10 against 0..5: the defender loses 45/66, the attacker 15/66, ties 6/66.
    dist = exact_distribution(10, 5)
    defender = sum(p for (loser, _), p in dist.items() if loser == "defender")
    attacker = sum(p for (loser, _), p in dist.items() if loser == "attacker")
    assert (defender, attacker, dist[(None, False)]) == (
        Fraction(45, 66),
        Fraction(15, 66),
        Fraction(6, 66),
    )
    # Evenly matched P < 1 sides: half the rounds are ties, a loss is never an injury.
    assert exact_distribution(1, 1) == {
        (None, False): Fraction(1, 2),
        ("attacker", False): Fraction(1, 4),
        ("defender", False): Fraction(1, 4),
    }


# -- percent checks -----------------------------------------------------------
