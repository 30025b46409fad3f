"""Unit arithmetic shared by the games: level mixing by head count (RULINGS W9)."""

from __future__ import annotations


def mix_levels(n1: int, level1: float, n2: int, level2: float) -> float:
    """Level of two joined groups: (n1*L1 + n2*L2) / (n1 + n2), rounded to 3 decimals.

    With no units at all the result is level1 (the stack keeps its level).
    """
    if n1 < 0 or n2 < 0:
        raise ValueError("unit counts cannot be negative")
    total = n1 + n2
    if total == 0:
        return level1
    return round((n1 * level1 + n2 * level2) / total, 3)
