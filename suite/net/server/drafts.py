"""A seat's questions about its own draft orders, answered from the game's own rules.

A game whose order form checks a draft before it is sent (WoK: `suite.wok.rules.drafting`)
answers `draft_check` here, from the asking seat's view only; the room sends the answer
to that seat's connection alone and keeps the draft (`Drafts`) so that a reload gets it
back. Nothing of a draft goes into any view, event or other seat's message.

Costs are bounded before they are paid: the draft's JSON is at most `P.MAX_DRAFT` bytes
and the game refuses more orders than its rule set lets a colour enter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from suite.net import protocol as P
from suite.net.server.errors import Refused

_json = msgspec.json.Encoder()


@dataclass(frozen=True)
class Answer:
    """A checked draft: its turn, the draft as JSON and the game's report as JSON."""

    turn: int
    draft: bytes
    report: bytes


def check(game: str, view: Any, draft: Any, probe: Any) -> Answer:
    """The game's report on `draft` (and the order being composed, `probe`) for the
    seat whose `view` this is; Refused `no_drafts` for a game without an order form to
    check, `bad_draft` (with the reason) for a draft the seat may not ask about."""
    if game != "wok":
        raise Refused("no_drafts", "only WoK rooms check draft orders")
    size = len(_json.encode(draft)) + len(_json.encode(probe))
    if size > P.MAX_DRAFT:
        raise Refused("bad_draft", f"a draft is at most {P.MAX_DRAFT} bytes, not {size}")
    from suite.wok.rules.drafting import DraftError, read_draft, read_probe, report
    from suite.wok.rules.views import WokView

    if not isinstance(view, WokView):
        raise Refused("no_drafts", "only a seat's own view has draft orders")
    try:
        orders = read_draft(view, draft)
        wanted = read_probe(view, probe)
    except DraftError as exc:
        raise Refused("bad_draft", str(exc)) from None
    sets = {"sets": msgspec.to_builtins(orders.sets)}
    return Answer(view.turn, _json.encode(sets), _json.encode(report(view, orders, wanted)))


@dataclass
class Drafts:
    """The last draft each seat of a room sent this turn (in memory only)."""

    kept: dict[int, tuple[int, Any]] = field(default_factory=dict)

    def keep(self, seat: int, turn: int, draft: Any) -> None:
        self.kept[seat] = (turn, draft)

    def of(self, seat: int, turn: int) -> Any | None:
        """The seat's kept draft of `turn` (None: none, or one of an earlier turn, which
        is dropped)."""
        kept = self.kept.get(seat)
        if kept is None:
            return None
        if kept[0] != turn:
            del self.kept[seat]
            return None
        return kept[1]

    def drop(self, seat: int) -> None:
        self.kept.pop(seat, None)
