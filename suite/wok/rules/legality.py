"""Whether a seat's action is accepted now, decided from facts that seat may see.

`SeatFacts` holds only what the seat's view holds (game over, its colours, which colours
live, whether it is ready, the map size, the public rule set). `refusal` answers for
both the engine (`WokState.apply`) and the action space (`legal()`), so the two always
agree. Ready locks the orders: a ready seat may vote, quit, declare an ally or send
`SetReady(False)`, but not replace its orders until it is unready.
"""

from __future__ import annotations

from dataclasses import dataclass

from suite.core.match import Action
from suite.wok.rules.orders import (
    DeclareAlly,
    Quit,
    SetReady,
    SubmitOrders,
    Vote,
    check_order_set,
)
from suite.wok.rules.ruleset import RuleSet


@dataclass(frozen=True)
class SeatFacts:
    """What the decision needs, all visible to the seat."""

    rules: RuleSet
    provinces: int
    over: bool
    alive: bool
    ready: bool
    colours: tuple[int, ...]
    colour_names: tuple[str, ...]
    living: frozenset[int]
    alliances: bool


def refusal(f: SeatFacts, action: Action) -> str | None:
    """Why `action` is refused now, or None when it is accepted."""
    if f.over:
        return "the game is over"
    if not f.alive:
        return "you are out of the game"
    if isinstance(action, SubmitOrders):
        if f.ready:
            return "your orders are locked while you are ready: unready first"
        return _orders_refusal(f, action)
    if isinstance(action, SetReady | Vote | Quit):
        return None
    if isinstance(action, DeclareAlly):
        return _ally_refusal(f, action)
    return f"unknown action {type(action).__name__}"


def _orders_refusal(f: SeatFacts, action: SubmitOrders) -> str | None:
    seen: set[int] = set()
    for os in action.sets:
        if os.colour not in f.colours:
            return f"colour {os.colour} is not yours"
        if os.colour not in f.living:
            return f"colour {os.colour} is out of the game"
        if os.colour in seen:
            return f"two order sets for colour {os.colour}"
        seen.add(os.colour)
        problem = check_order_set(os, f.rules, f.provinces)
        if problem:
            return f"{f.colour_names[os.colour]}: {problem}"
    return None


def _ally_refusal(f: SeatFacts, action: DeclareAlly) -> str | None:
    if not f.alliances:
        return "alliances are not recorded in this game (W13)"
    if action.colour not in f.colours:
        return f"colour {action.colour} is not yours"
    p = action.partner
    if p is not None:
        if not 0 <= p < len(f.colour_names) or p == action.colour:
            return f"no such partner colour {p}"
        if p not in f.living:
            return f"colour {p} is out of the game"
    return None
