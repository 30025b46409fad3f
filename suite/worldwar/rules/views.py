"""Per-seat views of a World War state (what `WorldWar.view` and `peek` return)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from suite.core.match import Seat
from suite.worldwar.rules.snapshot import GAME, outcome_dict

if TYPE_CHECKING:
    from suite.worldwar.rules.engine import WorldWar


def build_view(st: WorldWar, seat: Seat | None, copy: bool) -> dict[str, Any]:
    """The view of `seat` (see `WorldWar.view`); `copy=False` shares the board lists."""
    topo = st.topo
    view: dict[str, Any] = {
        "game": GAME,
        "seat": seat,
        "players": st.players,
        "territories": topo.ids,
        "names": topo.names,
        "neighbours": topo.adj,
        "continents": topo.continents,
        "continent_of": topo.continent_of,
        "continent_members": topo.members,
        "continent_bonus": topo.bonus,
        "owner": st.owner[:] if copy else st.owner,
        "armies": st.armies[:] if copy else st.armies,
        "territory_counts": st.counts[:] if copy else st.counts,
        "alive": st.alive[:] if copy else st.alive,
        "setup_left": st.setup_left[:] if copy else st.setup_left,
        "cards": st.mode,
        "hand_cards": (),
        "next_set_value": None,
        "best_turn_in": (),
        "must_turn_in": False,
        "defender": "ask" if st.ask_defender else "auto",
        "clock": st.clock,
        "max_turns": st.max_turns,
    }
    refresh_view(st, view, seat)
    return view


def refresh_view(st: WorldWar, view: dict[str, Any], seat: Seat | None) -> None:
    """Bring the keys that change during play up to date in `view` (in place)."""
    mine = seat is not None and 0 <= seat < st.players
    hand = sorted(st.hands[seat]) if mine and seat is not None else []
    pending = None
    if st.pending is not None:
        pending = dict(st.pending)
        if st.phase == "occupy":
            pending["max"] = pending["min"] + st.armies[st.pending["source"]] - st.rules.stay_behind
    actor = st.actor()
    # Plain assignments: this runs before every bot decision of `peek`.
    view["phase"] = st.phase
    view["current"] = st.current
    view["awaiting"] = [] if actor is None else [actor]
    view["turn"] = st.turn
    view["step_left"] = st.step_left
    view["pool"] = st.pool
    view["mid_turn"] = st.mid_turn
    view["hand"] = hand
    view["hand_sizes"] = [len(h) for h in st.hands]
    view["deck_left"] = len(st.deck)
    view["sets_turned_in"] = st.sets_done
    view["conquered_this_turn"] = st.conquered
    view["pending"] = pending
    view["outcome"] = None if st.result is None else outcome_dict(st.result)
    deck = st.deck_rules
    if deck is not None:
        view.update(
            hand_cards=[deck.describe(c) for c in hand],
            next_set_value=(
                deck.set_value("", st.sets_done) if deck.mode == "increasing" else None
            ),
            best_turn_in=(
                [list(s) for s in deck.best_sets(hand, st.sets_done)] if len(hand) >= 2 else []
            ),
            must_turn_in=bool(mine and seat is not None and st.forced(seat)),
        )
