"""Unit stacks: capped counts and level mixing by head count (RULINGS W9)."""

from __future__ import annotations

from dataclasses import dataclass


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


def clamp_add(current: int, amount: int, cap: int) -> tuple[int, int]:
    """Add `amount` to `current` without passing `cap` or going below zero.

    Returns (new value, overflow lost). A negative amount removes, never below zero
    (the shortfall is not reported).
    """
    value = current + amount
    if value > cap:
        return cap, value - cap
    return max(0, value), 0


@dataclass(slots=True)
class Stack:
    """A count of units at a level, with a cap on the count and bounds on the level.

    Contract: 0 <= count <= cap and min_level <= level <= max_level at all times.
    """

    count: int = 0
    level: float = 1.0
    cap: int = 999
    min_level: float = 1.0
    max_level: float = 9.999

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError(f"negative count {self.count}")
        if self.count > self.cap:
            raise ValueError(f"count {self.count} over cap {self.cap}")
        self.level = self._bound(self.level)

    def _bound(self, level: float) -> float:
        return round(min(self.max_level, max(self.min_level, level)), 3)

    def join(self, count: int, level: float | None = None) -> int:
        """Add `count` units at `level` (default min_level, i.e. new recruits).

        Levels mix by head count over the units actually added; what would pass the
        cap is lost and returned.
        """
        if count < 0:
            raise ValueError(f"cannot join {count} units")
        added_level = self.min_level if level is None else level
        new_count, lost = clamp_add(self.count, count, self.cap)
        added = new_count - self.count
        if added:
            self.level = self._bound(mix_levels(self.count, self.level, added, added_level))
        self.count = new_count
        return lost

    def take(self, count: int) -> int:
        """Remove up to `count` units; returns how many were removed. Level is unchanged."""
        if count < 0:
            raise ValueError(f"cannot take {count} units")
        taken = min(count, self.count)
        self.count -= taken
        return taken

    def raise_level(self, amount: float) -> None:
        """Change the level by `amount`, kept within bounds."""
        self.level = self._bound(self.level + amount)
