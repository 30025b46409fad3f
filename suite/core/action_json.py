"""Legal lists as JSON, joined from the actions' kept encodings: `ActionPieces`.

A server sends a seat its legal actions with every view that awaits it. State after state
the lists hold the same actions (a territory and a count, a pair of territories and a
number of dice), so a game whose lists are built from (key, count) blocks can give its
list's JSON joined from pieces encoded once (`GameSpec.legal_json`) instead of building
every action record and encoding it again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Final

PIECES_KEPT: Final = 50_000
"""At most about this many encoded actions are kept (some 60 bytes each: 3 MB); past it
every row is let go at once, and pieces are encoded again as they are met."""


class ActionPieces:
    """Encoded actions kept in rows: `row(key)` is the list whose item n - 1 is the JSON
    of the key's action with count n, for as many counts as were met so far; a game
    chooses the keys (a row must hold `encode`'s JSON of the actions it names) and
    appends to a row what it encodes, then says how many with `grown`."""

    def __init__(self, encode: Callable[[Any], bytes], limit: int = PIECES_KEPT) -> None:
        self.encode = encode
        self.limit = limit
        self.rows: dict[Hashable, list[bytes]] = {}
        self._kept = 0

    def row(self, key: Hashable) -> list[bytes]:
        """The row of `key` (a new, empty one when none is kept)."""
        row = self.rows.get(key)
        if row is None:
            row = self.rows[key] = []
        return row

    def grown(self, added: int) -> None:
        """`added` pieces were appended to rows: past the limit, every row is let go."""
        self._kept += added
        if self._kept > self.limit:
            self.rows = {}
            self._kept = 0

    def __len__(self) -> int:
        """How many pieces are kept."""
        return self._kept
