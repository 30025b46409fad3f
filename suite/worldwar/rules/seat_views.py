"""Building a seat's `WorldWarView` from a World War state (the records are in `views`).

Views are built for every bot decision, so `build_view` shares what does not change: the
map (`WorldWarMap`) and the rules are built once per state; the board tuples other than
the armies are kept until the engine changes them; and while no battle is pending, a
seat's last view is reused with only the armies (and the board tuples, after a conquest)
replaced, as long as the phase, the current seat, the turn and the armies to place are
those it was made for.

A bot's decision asks for its seat's view and for its legal actions at the same moment:
`seat_view` and `seat_actions` share the state's last view (`seen_view`, for one seat and
state version: the state's `version` is bumped by every applied action), so the view is
built once and the legal list (`seat_legal.ViewActions`, worked out from that view alone)
at most once. A state changed other than through `apply` (a test setting armies or cards
by hand) keeps its version, so `seat_view` also checks its last view against the armies
and, in card games, the hands (what tests change so); any other change by hand must be
followed by `WorldWarState.touch()`. `seat_actions` does not check again: it works from
the view handed out at this version (the bot's). Views are frozen records of tuples, so
one view handed to several callers cannot be changed by any of them.

This module holds no record type, so it can be compiled (setup.py) without changing one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from suite.core.match import Seat
from suite.worldwar.rules.modes import current_mission
from suite.worldwar.rules.seat_legal import ViewActions
from suite.worldwar.rules.views import (
    AttackWaiting,
    Card,
    HandView,
    OccupyRange,
    WorldWarMap,
    WorldWarRules,
    WorldWarView,
)

if TYPE_CHECKING:
    from suite.worldwar.rules.engine import BoardView, ExtrasKey, WorldWarState


def seat_view(st: WorldWarState, seat: Seat | None) -> WorldWarView:
    """The view of `seat` now, built at most once per moment (see the module docstring)."""
    if _fresh(st, seat):
        view = st.seen_view
        if view is not None:
            return view
    view = build_view(st, seat)
    st.seen_version = st.version
    st.seen_seat = seat
    st.seen_view = view
    st.seen_legal = None
    if st.deck_rules is not None and seat is not None and 0 <= seat < st.players:
        st.seen_hand = tuple(st.hands[seat])
    return view


def seat_actions(st: WorldWarState, seat: Seat | None) -> ViewActions:
    """The legal actions of `seat` now, worked out from `seat_view`'s view, made at most
    once per moment (one list may be handed to several callers: it describes its moment
    forever and the engine never reads it). A bot asks for its view first: the view
    handed out at this version to this seat is used as it is (a change made by hand
    since shows in the next `seat_view`, which drops the list made from the old one)."""
    view = st.seen_view
    if view is None or st.seen_version != st.version or st.seen_seat != seat:
        view = seat_view(st, seat)
    legal = st.seen_legal
    if legal is None:
        legal = st.seen_legal = ViewActions(view, st.deck_rules)
    return legal


def _fresh(st: WorldWarState, seat: Seat | None) -> bool:
    """Is the state's last view (`seen_view`) the view of `seat` now? (Same version and
    seat; same armies and, in card games, the same hands: what a hand-made change in a
    test changes without `touch`.)"""
    view = st.seen_view
    if view is None or st.seen_version != st.version or st.seen_seat != seat:
        return False
    if tuple(st.armies) != view.armies:
        return False
    if st.deck_rules is None:
        return True
    if tuple(map(len, st.hands)) != view.hand_sizes:
        return False
    return seat is None or not 0 <= seat < st.players or tuple(st.hands[seat]) == st.seen_hand


def map_of(st: WorldWarState) -> WorldWarMap:
    topo = st.topo
    return WorldWarMap(
        territories=topo.ids,
        names=topo.names,
        neighbours=topo.adj,
        continents=topo.continents,
        continent_names=topo.continent_names,
        continent_of=topo.continent_of,
        continent_members=topo.members,
        continent_bonus=topo.bonus,
    )


def rules_of(st: WorldWarState) -> WorldWarRules:
    r = st.rules
    mode = st.card_mode
    return WorldWarRules(
        cards=mode.name,
        has_cards=mode.has_cards,
        set_values=tuple(mode.values().items()),
        hand_limit=r.cards.hand_limit,
        draw_per_turn=r.cards.draw_per_turn,
        placement_step=r.setup.placement_step,
        attacker_max_dice=r.battle.attacker_max_dice,
        defender_max_dice=r.battle.defender_max_dice,
        dice_sides=r.battle.dice_sides,
        stay_behind=r.battle.stay_behind,
        defender="ask" if st.ask_defender else "auto",
        clock=st.clock,
        max_turns=st.max_turns,
        mode=st.mode,
        reinforce_divisor=r.reinforcements.divisor,
        reinforce_minimum=r.reinforcements.minimum,
        set_sizes=tuple(mode.set_sizes),
        set_step=mode.counter_step(),
    )


def build_view(st: WorldWarState, seat: Seat | None) -> WorldWarView:
    """The view of `seat` (see the module docstring)."""
    board = st.board_view
    if board is None:
        board = st.board_view = (
            tuple(st.owner),
            tuple(st.counts),
            tuple(st.alive),
            tuple(st.setup_left),
        )
        st.board_stamp += 1
    # Boards are told apart by their stamp: compiled, a tuple kept in a record is unboxed
    # and boxed again, so `is` would never hold.
    stamp = st.board_stamp
    if st.pending is None and st.result is None:
        # Between two actions of one phase usually only the armies change (and the board
        # tuples after a conquest): the seat's last base view is reused with those
        # replaced.
        moment = (st.phase, st.current, st.turn, st.step_left, st.pool, st.mid_turn, st.conquered)
        plain = st.mode == "domination" and st.deck_rules is None
        key: ExtrasKey = None
        if not plain:
            # With cards or a mode, the seat's last complete view at this moment is reused
            # when its cards and the capitals are those it shows, and no seat was
            # eliminated since (a mission may change then): with the armies replaced,
            # and the board tuples after a conquest.
            key = _extras_key(st, seat)
            done = st.last_complete.get(seat)
            if done is not None and done[0] == moment and done[2] == key:
                view = done[3]
                if done[1] == stamp:
                    return replace(view, armies=tuple(st.armies))
                if view.alive == board[2]:
                    view = replace(
                        view,
                        owner=board[0],
                        armies=tuple(st.armies),
                        territory_counts=board[1],
                        alive=board[2],
                        setup_left=board[3],
                    )
                    st.last_complete[seat] = (moment, stamp, key, view)
                    return view
        last = st.last_views.get(seat)
        if last is not None and last[0] == moment:
            if last[1] == stamp:
                view = replace(last[2], armies=tuple(st.armies))
            else:
                view = replace(
                    last[2],
                    owner=board[0],
                    armies=tuple(st.armies),
                    territory_counts=board[1],
                    alive=board[2],
                    setup_left=board[3],
                )
                st.last_views[seat] = (moment, stamp, view)
        elif last is not None and last[1] == stamp:
            # A new moment on the same board: the moment's fields and the armies change.
            phase, current = moment[0], moment[1]
            view = replace(
                last[2],
                phase=phase,
                current=current,
                awaiting=(current,),
                turn=moment[2],
                armies=tuple(st.armies),
                step_left=moment[3],
                pool=moment[4],
                mid_turn=moment[5],
                conquered_this_turn=moment[6],
            )
            st.last_views[seat] = (moment, stamp, view)
        else:
            view = _full_view(st, seat, board, None, None, st.current)
            st.last_views[seat] = (moment, stamp, view)
        if plain:
            return view
        view = _extras(st, seat, view, st.current)
        st.last_complete[seat] = (moment, stamp, key, view)
        return view
    phase = st.phase
    pending = st.pending
    attack = occupy = None
    actor = st.current
    if pending is not None:
        s, t = pending["source"], pending["target"]
        if phase == "defend":
            actor = st.owner[t]
            most = min(st.rules.battle.defender_max_dice, st.armies[t])
            attack = AttackWaiting(source=s, target=t, dice=pending["dice"], defend_max=most)
        elif phase == "occupy":
            lo = pending["min"]
            hi = lo + st.armies[s] - st.rules.battle.stay_behind
            occupy = OccupyRange(source=s, target=t, min=lo, max=hi)
    return _extras(st, seat, _full_view(st, seat, board, attack, occupy, actor), actor)


def _extras_key(st: WorldWarState, seat: Seat | None) -> ExtrasKey:
    """What the mode's and the cards' fields of a view of `seat` depend on, besides the
    moment and the board: the seat's hand, every hand's size, the deck, the sets turned
    in, the capitals."""
    hand = tuple(st.hands[seat]) if seat is not None and 0 <= seat < st.players else ()
    return (hand, tuple(map(len, st.hands)), len(st.deck), st.sets_done, tuple(st.capitals))


def _extras(st: WorldWarState, seat: Seat | None, view: WorldWarView, actor: Seat) -> WorldWarView:
    """`view` (a base view) completed with the mode's and the cards' fields."""
    if st.mode != "domination":
        own = seat is not None and 0 <= seat < st.players and st.mode == "mission"
        view = replace(
            view,
            capitals=tuple(st.capitals),
            mission=current_mission(st, seat) if own and seat is not None else None,
        )
    deck = st.deck_rules
    if deck is None:
        return view
    hand: tuple[int, ...] = ()
    cards: tuple[Card, ...] = ()
    best: tuple[tuple[int, ...], ...] = ()
    must = may = False
    if seat is not None and 0 <= seat < st.players:
        key = (seat, tuple(st.hands[seat]), st.sets_done)
        cached = st.hand_views.get(seat)
        if cached is None or cached[0] != key:
            cached = st.hand_views[seat] = (key, _hand_view(st, seat, key[1]))
        hand, cards, best, must, sets = cached[1]
        may = sets and seat == actor and st.may_turn_in(actor)
    return replace(
        view,
        hand=hand,
        hand_cards=cards,
        hand_sizes=tuple(map(len, st.hands)),
        deck_left=len(st.deck),
        sets_turned_in=st.sets_done,
        next_set_value=deck.rules.next_value(st.sets_done),
        best_turn_in=best,
        must_turn_in=must,
        may_turn_in=may,
    )


def _full_view(
    st: WorldWarState,
    seat: Seat | None,
    board: BoardView,
    attack: AttackWaiting | None,
    occupy: OccupyRange | None,
    actor: Seat,
) -> WorldWarView:
    """The base view of `seat` (no cards, no mode extras) built from the seat's template."""
    phase = st.phase
    template = st.view_templates.get(seat)
    if template is None:
        shared = st.view_shared
        if shared is None:
            shared = st.view_shared = (map_of(st), rules_of(st))
        template = st.view_templates[seat] = WorldWarView(
            seat=seat,
            players=st.players,
            map=shared[0],
            rules=shared[1],
            phase=phase,
            current=st.current,
            awaiting=(),
            turn=0,
            owner=(),
            armies=(),
            territory_counts=(),
            alive=(),
            setup_left=(),
            step_left=0,
            pool=0,
            mid_turn=False,
            hand_sizes=st.no_hands,
        )
    # Only what changes during a match is given; the rest comes from the seat's template.
    return replace(
        template,
        phase=phase,
        current=st.current,
        awaiting=() if phase == "over" else (actor,),
        turn=st.turn,
        owner=board[0],
        armies=tuple(st.armies),
        territory_counts=board[1],
        alive=board[2],
        setup_left=board[3],
        step_left=st.step_left,
        pool=st.pool,
        mid_turn=st.mid_turn,
        conquered_this_turn=st.conquered,
        attack=attack,
        occupy=occupy,
        outcome=st.result,
    )


def _hand_view(st: WorldWarState, seat: Seat, held: tuple[int, ...]) -> HandView:
    """(hand, its cards, best sets, must turn in, holds a set) of `seat` holding `held`
    (kept by the state until the hand or the sets turned in change)."""
    deck = st.deck_rules
    assert deck is not None
    hand = tuple(sorted(held))
    cards = tuple(Card(c, *deck.card(c)) for c in hand)
    best = tuple(deck.best_sets(hand, st.sets_done)) if len(hand) >= 2 else ()
    return hand, cards, best, st.forced(seat), bool(deck.legal_sets(hand))
