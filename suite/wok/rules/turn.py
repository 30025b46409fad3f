"""Running one WoK turn (W5 Order of Play, the ten phases) and deciding the end of a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from suite.core.match import Outcome
from suite.wok.rules import phases as ph
from suite.wok.rules.covert import covert_ops
from suite.wok.rules.orders import OrderSet
from suite.wok.rules.reports import build_report
from suite.wok.rules.robots import robot_orders
from suite.wok.rules.trading import trading
from suite.wok.rules.world import World

if TYPE_CHECKING:
    from suite.wok.rules.state import WokState

OrderPhase = Callable[[World, ph.TurnContext, int, OrderSet], None]
FreePhase = Callable[[World, ph.TurnContext], None]

# Every phase by the name rule sets list in `phases` (run in that order): the per-colour
# part runs each colour's orders in the Order of Play, then the free part (no orders).
# The neutrals' +2 (W3) belongs to the transformations step. WoK IV's Phase V trades and
# Phase VI covert operations are `trading` and `covert_ops`.
PHASES: dict[str, tuple[OrderPhase | None, FreePhase | None]] = {
    "upgrades": (ph.upgrading, None),
    "bombing": (ph.bombing, None),
    "attacking": (ph.attacking, None),
    "entropy": (None, ph.entropy),
    "working": (None, ph.working),
    "transformations": (ph.transforming, ph.neutral_gain),
    "troop_upgrades": (ph.troop_upgrading, None),
    "growth": (None, ph.growth),
    "movement": (ph.movement, None),
    "aims": (ph.aiming, None),
    "trading": (trading, None),
    "spying": (ph.spying, None),
    "covert_ops": (covert_ops, None),
}


def draw_oop(state: WokState) -> list[int]:
    """W5: a fresh random order of the living colours from the game's RNG."""
    order = [i for i, c in enumerate(state.world.colours) if c.alive]
    state.rng.shuffle(order)
    return order


def run_turn(state: WokState) -> ph.TurnLog:
    """Run the current turn with the entered orders, then prepare the next one."""
    w = state.world
    turn = state.turn
    log = ph.TurnLog(turn=turn)
    orders: dict[int, OrderSet] = {}
    for c in state.oop:
        col = w.colours[c]
        if not col.alive:
            continue
        if col.seat is None:
            orders[c] = robot_orders(w, state.variant, c, turn)
        elif not col.quit and c in state.orders:
            orders[c] = state.orders[c]
    before = {c: {p: w.contents(p) for p in w.owned(c)} for c in range(len(w.colours))}
    ctx = ph.TurnContext(
        turn=turn,
        rng=state.rng,
        variant=state.variant,
        start_owner=list(w.owner),
        log=log,
        province_intel=state.province_intel,
        player_intel=state.player_intel,
    )
    for name in w.rules.phases:
        per_colour, free = PHASES[name]
        if per_colour is not None:
            for c in state.oop:
                if c in orders and w.colours[c].alive:
                    per_colour(w, ctx, c, orders[c])
        if free is not None:
            free(w, ctx)
    for c in state.oop:
        if c in orders and not w.colours[c].alive:
            log.cancel(c, "all", 0, None, "your empire has fallen: later orders are void")
    state.turn = turn + 1
    state.oop = draw_oop(state)
    scores = {c: w.score(c) for c, col in enumerate(w.colours) if col.alive}
    state.reports = {
        c: build_report(w, log, c, turn, before[c], state.oop, scores)
        for c in range(len(w.colours))
    }
    state.outcome_ = decide_end(state)
    return log


def seat_alive(state: WokState, seat: int) -> bool:
    """A seat plays on while it has not quit and one of its colours lives."""
    if state.seat_quit[seat]:
        return False
    return any(state.world.colours[c].alive for c in state.seat_colours[seat])


def seat_score(state: WokState, seat: int) -> int:
    w = state.world
    return sum(w.score(c) for c in state.seat_colours[seat] if w.colours[c].alive)


def _places(state: WokState, winners: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Winners first, then living seats by score, then fallen seats by how long they lasted."""
    w = state.world
    rest = [s for s in range(len(state.seat_colours)) if s not in winners]

    def key(s: int) -> tuple[int, int, int]:
        alive = seat_alive(state, s)
        last = max((w.colours[c].rip_turn or state.turn) for c in state.seat_colours[s])
        rips = sum(len(w.colours[c].rips) for c in state.seat_colours[s])
        return (0 if alive else 1, -last if not alive else 0, -(seat_score(state, s) + rips))

    rest.sort(key=lambda s: (key(s), s))
    places: list[tuple[int, ...]] = [winners] if winners else []
    places += [(s,) for s in rest]
    return tuple(places)


def seat_rips(state: WokState, seat: int) -> int:
    """RIPs of colours not the seat's own, credited to any of its colours (S14)."""
    mine = set(state.seat_colours[seat])
    w = state.world
    return sum(1 for c in mine for v in w.colours[c].rips if v not in mine)


def decide_end(state: WokState) -> Outcome | None:
    """The outcome if the game is over after the turn just run (or a quit/vote), else None."""
    w = state.world
    seats = range(len(state.seat_colours))
    living = [s for s in seats if seat_alive(state, s)]
    v = state.variant
    if not living:
        return Outcome((), _places(state, ()), "no player left")
    if v.rips_to_win:
        reached = [s for s in living if seat_rips(state, s) >= v.rips_to_win]
        if reached:
            best = max(reached, key=lambda s: (seat_rips(state, s), seat_score(state, s), -s))
            return Outcome((best,), _places(state, (best,)), f"{v.rips_to_win} RIPs")
        if len(living) == 1:
            return Outcome((living[0],), _places(state, (living[0],)), "last player standing")
    else:
        alive_colours = [c for c, col in enumerate(w.colours) if col.alive]
        holders = {w.colours[c].seat for c in alive_colours}
        if len(alive_colours) == 1:
            seat = w.colours[alive_colours[0]].seat
            winners: tuple[int, ...] = (seat,) if seat is not None else ()
            return Outcome(winners, _places(state, winners), "last player standing")
        if len(alive_colours) == 2 and state.alliances_allowed():
            a, b = alive_colours
            if w.colours[a].ally == b and w.colours[b].ally == a and None not in holders:
                winners = tuple(sorted(s for s in holders if s is not None))
                return Outcome(winners, _places(state, winners), "alliance victory")
        if len(living) == 1 and all(w.colours[c].seat is not None for c in alive_colours):
            return Outcome((living[0],), _places(state, (living[0],)), "every other player quit")
    if state.turn > state.max_turns:
        return end_by_score(state, f"turn limit {state.max_turns} reached")
    return None


def end_by_score(state: WokState, reason: str) -> Outcome:
    """End now; the best-scoring living seat wins (the turn-cap rule)."""
    living = [s for s in range(len(state.seat_colours)) if seat_alive(state, s)]
    if not living:
        return Outcome((), _places(state, ()), reason)
    best = max(living, key=lambda s: (seat_score(state, s), -s))
    return Outcome((best,), _places(state, (best,)), reason)


def end_by_vote(state: WokState) -> Outcome:
    """W13: a unanimous vote ends the game; shared victory of the living seats or best score."""
    if not state.rules.end.vote_shared_victory:
        return end_by_score(state, "unanimous vote")
    living = tuple(s for s in range(len(state.seat_colours)) if seat_alive(state, s))
    ranked = sorted(living, key=lambda s: (-seat_score(state, s), s))
    places: list[tuple[int, ...]] = [tuple(ranked)] if ranked else []
    places += [p for p in _places(state, ()) if p[0] not in living]
    return Outcome(tuple(ranked), tuple(places), "unanimous vote")
