"""Units: level mixing (RULINGS W9), caps that lose the overflow, Stack invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.core.units import Stack, clamp_add, mix_levels


def test_w9_hand_worked_case() -> None:
    # 10 armies at 1.300 joined by 5 new ones (1.000): (13 + 5) / 15 = 1.200.
    assert mix_levels(10, 1.3, 5, 1.0) == 1.2
    stack = Stack(count=10, level=1.3)
    assert stack.join(5) == 0
    assert (stack.count, stack.level) == (15, 1.2)


def test_moved_armies_keep_their_own_level() -> None:
    stack = Stack(count=4, level=2.0)
    stack.join(4, level=3.0)
    assert (stack.count, stack.level) == (8, 2.5)


def test_mix_rounds_to_three_decimals() -> None:
    assert mix_levels(1, 1.0, 2, 1.001) == 1.001  # 1.000667
    assert mix_levels(3, 1.0, 1, 2.0) == 1.25
    assert mix_levels(2, 1.0, 1, 1.0005) == 1.0  # 1.000167


def test_mix_with_no_units_keeps_the_first_level() -> None:
    assert mix_levels(0, 1.75, 0, 3.0) == 1.75
    assert mix_levels(0, 1.75, 3, 3.0) == 3.0


def test_mix_refuses_negative_counts() -> None:
    with pytest.raises(ValueError, match="negative"):
        mix_levels(-1, 1.0, 2, 1.0)
    with pytest.raises(ValueError, match="negative"):
        mix_levels(1, 1.0, -2, 1.0)


@pytest.mark.parametrize(
    ("current", "amount", "cap", "expected"),
    [
        (990, 20, 999, (999, 11)),  # what would pass the cap is lost
        (5, 3, 10, (8, 0)),
        (10, 0, 10, (10, 0)),
        (5, -10, 999, (0, 0)),  # removing never goes below zero
        (0, 200, 125, (125, 75)),
    ],
)
def test_clamp_add(current: int, amount: int, cap: int, expected: tuple[int, int]) -> None:
    assert clamp_add(current, amount, cap) == expected


def test_join_over_the_cap_loses_the_overflow_and_mixes_only_what_came_in() -> None:
    stack = Stack(count=990, level=2.0, cap=999)
    assert stack.join(20) == 11
    assert stack.count == 999
    # Only the 9 recruits that fit count: (990*2 + 9*1) / 999 = 1.99099...
    assert stack.level == 1.991


def test_join_into_a_full_stack_changes_nothing() -> None:
    stack = Stack(count=125, level=4.0, cap=125)
    assert stack.join(7, level=1.0) == 7
    assert (stack.count, stack.level) == (125, 4.0)


def test_empty_stack_takes_the_newcomers_level() -> None:
    stack = Stack(count=0, level=5.0)
    stack.join(3, level=2.25)
    assert stack.level == 2.25


def test_take() -> None:
    stack = Stack(count=10, level=1.5)
    assert stack.take(4) == 4
    assert stack.take(100) == 6
    assert (stack.count, stack.level) == (0, 1.5)
    with pytest.raises(ValueError, match="cannot take -1"):
        stack.take(-1)


def test_levels_stay_in_bounds() -> None:
    stack = Stack(count=5, level=9.9)
    stack.raise_level(0.5)
    assert stack.level == 9.999
    stack.raise_level(-20)
    assert stack.level == 1.0
    assert Stack(level=12.0).level == 9.999
    assert Stack(level=0.2).level == 1.0
    assert Stack(count=3, level=2.0).join(3, level=50.0) == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"count": -1}, "negative count -1"),
        ({"count": 1000}, "count 1000 over cap 999"),
        ({"count": 6, "cap": 5}, "count 6 over cap 5"),
    ],
)
def test_bad_stacks_refused(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Stack(**kwargs)


def test_join_refuses_negative_counts() -> None:
    with pytest.raises(ValueError, match="cannot join -2"):
        Stack().join(-2)


levels = st.floats(min_value=0.0, max_value=12.0, allow_nan=False)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("join"), st.integers(0, 400), st.one_of(st.none(), levels)),
        st.tuples(st.just("take"), st.integers(0, 400), st.none()),
        st.tuples(st.just("raise"), st.integers(-3, 3), st.none()),
    ),
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(
    cap=st.integers(0, 999),
    start=st.integers(0, 999),
    level=levels,
    ops=operations,
)
def test_stack_invariants(
    cap: int, start: int, level: float, ops: list[tuple[str, int, float | None]]
) -> None:
    stack = Stack(count=min(start, cap), level=level, cap=cap)
    for op, amount, extra in ops:
        before = stack.count
        if op == "join":
            lost = stack.join(amount, extra)
            assert stack.count == min(cap, before + amount)
            assert lost == before + amount - stack.count
        elif op == "take":
            taken = stack.take(amount)
            assert taken == min(amount, before)
            assert stack.count == before - taken
        else:
            stack.raise_level(amount * 0.37)
        assert 0 <= stack.count <= stack.cap
        assert stack.min_level <= stack.level <= stack.max_level
        assert stack.level == round(stack.level, 3)


@settings(max_examples=60, deadline=None)
@given(
    n1=st.integers(0, 999),
    l1=st.floats(1.0, 9.999),
    n2=st.integers(0, 999),
    l2=st.floats(1.0, 9.999),
)
def test_mix_lies_between_the_two_levels(n1: int, l1: float, n2: int, l2: float) -> None:
    mixed = mix_levels(n1, l1, n2, l2)
    low, high = min(l1, l2), max(l1, l2)
    assert round(low, 3) - 0.0005 <= mixed <= round(high, 3) + 0.0005
    assert mixed == mix_levels(n2, l2, n1, l1) or n1 + n2 == 0
