"""Per-seat views of a World War state (what `WorldWar.view` and `peek` return).

A view is a plain dict that never changes under its reader once the state moves on:

- the keys that never change during a match (the map's tables, the card mode, the
  clock...) are built once per state into `WorldWar.view_base` and copied into each
  view; their values are tuples and scalars, shared safely;
- the board ("owner", "armies", "territory_counts", "alive", "setup_left") is given as
  tuples. All but "armies" are kept in `WorldWar.board_view` until the engine changes
  one of them (it then drops the cache), so successive views share them;
- "awaiting", "hand" (the seat's own cards) and "hand_sizes" are tuples too;
- "pending", "outcome", "hand_cards" and "best_turn_in" are fresh dicts and lists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from suite.core.match import Seat
from suite.worldwar.rules.snapshot import GAME, outcome_dict

if TYPE_CHECKING:
    from suite.worldwar.rules.engine import WorldWar


_CHANGING = (
    "owner",
    "armies",
    "territory_counts",
    "alive",
    "setup_left",
    "phase",
    "current",
    "awaiting",
    "turn",
    "step_left",
    "pool",
    "mid_turn",
    "deck_left",
    "sets_turned_in",
    "conquered_this_turn",
    "pending",
    "outcome",
)


def view_base(st: WorldWar) -> dict[str, Any]:
    """The keys of every view of `st` that never change during the match (shared values)."""
    topo = st.topo
    # Every key is present (the changing ones as placeholders) so that a copy of this dict
    # already has room for them all and filling it in never resizes it.
    return {
        "game": GAME,
        "seat": None,
        "players": st.players,
        "territories": topo.ids,
        "names": topo.names,
        "neighbours": topo.adj,
        "continents": topo.continents,
        "continent_of": topo.continent_of,
        "continent_members": topo.members,
        "continent_bonus": topo.bonus,
        "cards": st.mode,
        "hand_cards": (),
        "next_set_value": None,
        "best_turn_in": (),
        "must_turn_in": False,
        "defender": "ask" if st.ask_defender else "auto",
        "clock": st.clock,
        "max_turns": st.max_turns,
        **dict.fromkeys(_CHANGING),
        # Defaults that most views keep: an empty hand, nobody holding cards.
        "hand": (),
        "hand_sizes": (0,) * st.players,
    }


def build_view(st: WorldWar, seat: Seat | None) -> dict[str, Any]:
    """The view of `seat` (see `WorldWar.view` and the module docstring)."""
    base = st.view_base
    if base is None:
        base = st.view_base = view_base(st)
    board = st.board_view
    if board is None:
        board = st.board_view = (
            tuple(st.owner),
            tuple(st.counts),
            tuple(st.alive),
            tuple(st.setup_left),
        )
    view = base.copy()
    hands = st.hands
    mine = seat is not None and 0 <= seat < st.players
    hand = tuple(sorted(hands[seat])) if mine and seat is not None and hands[seat] else ()
    phase = st.phase
    actor = current = st.current
    pending = st.pending
    if pending is not None:
        if phase == "defend":
            actor = st.owner[pending["target"]]
        pending = dict(pending)
        if phase == "occupy":
            pending["max"] = pending["min"] + st.armies[pending["source"]] - st.rules.stay_behind
    result = st.result
    # Plain stores into a dict that already has every key: this runs before every bot
    # decision.
    view["seat"] = seat
    view["owner"], view["territory_counts"], view["alive"], view["setup_left"] = board
    view["armies"] = tuple(st.armies)
    view["phase"] = phase
    view["current"] = current
    view["awaiting"] = () if phase == "over" else (actor,)
    view["turn"] = st.turn
    view["step_left"] = st.step_left
    view["pool"] = st.pool
    view["mid_turn"] = st.mid_turn
    if hand:
        view["hand"] = hand
    if any(hands):
        view["hand_sizes"] = tuple(map(len, hands))
    view["deck_left"] = len(st.deck)
    view["sets_turned_in"] = st.sets_done
    view["conquered_this_turn"] = st.conquered
    view["pending"] = pending
    if result is not None:
        view["outcome"] = outcome_dict(result)
    deck = st.deck_rules
    if deck is not None:
        view["hand_cards"] = [deck.describe(c) for c in hand]
        view["next_set_value"] = (
            deck.set_value("", st.sets_done) if deck.mode == "increasing" else None
        )
        view["best_turn_in"] = (
            [list(s) for s in deck.best_sets(hand, st.sets_done)] if len(hand) >= 2 else []
        )
        view["must_turn_in"] = bool(mine and seat is not None and st.forced(seat))
    return view


def refresh_view(st: WorldWar, view: dict[str, Any], seat: Seat | None) -> None:
    """Bring an earlier view of `seat` up to date, in place."""
    view.update(build_view(st, seat))
