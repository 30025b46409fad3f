"""Units: level mixing by head count (RULINGS W9)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.core.units import mix_levels


def test_w9_hand_worked_case() -> None:
    # 10 armies at 1.300 joined by 5 new ones (1.000): (13 + 5) / 15 = 1.200.
    assert mix_levels(10, 1.3, 5, 1.0) == 1.2


def test_moved_armies_keep_their_own_level() -> None:
    assert mix_levels(4, 2.0, 4, 3.0) == 2.5


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
