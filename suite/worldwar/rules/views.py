"""What a seat of a World War match may see: the typed `WorldWarView`.

A view is a frozen msgspec record: it encodes to JSON and decodes back equal, and it never
changes under its reader. It holds the board as it is, the seat's own cards (other hands
only as counts), the choices of the moment with their numbers (the dice an attack or a
defence may roll, the armies an occupation may move) and the match's rule numbers
(`WorldWarRules`), so a screen or a bot needs nothing else.

Views are built for every bot decision, so `build_view` shares what does not change: the
map (`WorldWarMap`) and the rules are built once per state; the board tuples other than
the armies are kept until the engine changes them; and while no battle is pending, a
seat's last view is reused with only the armies (and the board tuples, after a conquest)
replaced, as long as the phase, the current seat, the turn and the armies to place are
those it was made for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec
from msgspec.structs import replace

from suite.core.match import Outcome, Seat, View
from suite.worldwar.rules.data import Battle
from suite.worldwar.rules.modes import Mission, current_mission

if TYPE_CHECKING:
    from suite.worldwar.rules.engine import BoardView, WorldWarState


class WorldWarMap(msgspec.Struct, frozen=True, kw_only=True):
    """The board's tables: territories and continents by index (they never change)."""

    territories: tuple[str, ...]
    """Territory ids in board order (actions name territories by these ids)."""
    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    continents: tuple[str, ...]
    continent_names: tuple[str, ...]
    continent_of: tuple[int, ...]
    continent_members: tuple[tuple[int, ...], ...]
    continent_bonus: tuple[int, ...]


class WorldWarRules(msgspec.Struct, frozen=True, kw_only=True):
    """The match's rule numbers a player needs (from its rules data and config)."""

    cards: str
    """The card mode ("increasing", "royalty", "poker" or "none")."""
    has_cards: bool
    set_values: tuple[tuple[str, int], ...]
    """Armies per set kind (empty when a shared counter gives the value)."""
    hand_limit: int
    draw_per_turn: int
    placement_step: int
    attacker_max_dice: int
    defender_max_dice: int
    dice_sides: int
    stay_behind: int
    defender: str
    """"auto" (defenders roll the most dice) or "ask" (defenders choose)."""
    clock: int
    """Seconds per turn (0: no clock)."""
    max_turns: int | None
    mode: str = "domination"
    """How the match is won: "domination" (R8), "capital" or "mission" (`modes`)."""

    def dice(self) -> Battle:
        """The match's dice rules (for `odds.odds_for`)."""
        return Battle(
            attacker_max_dice=self.attacker_max_dice,
            defender_max_dice=self.defender_max_dice,
            dice_sides=self.dice_sides,
            stay_behind=self.stay_behind,
        )


class Card(msgspec.Struct, frozen=True):
    """One of the seat's own cards ("" suit in modes without suits)."""

    id: int
    rank: str
    suit: str = ""


class AttackWaiting(msgspec.Struct, frozen=True, kw_only=True):
    """An attack waiting for the defender's dice: territories by index, the attacker's
    dice and the dice the defender may roll (1..`defend_max`)."""

    source: int
    target: int
    dice: int
    defend_max: int


class OccupyRange(msgspec.Struct, frozen=True, kw_only=True):
    """A conquest waiting for the occupation: `Occupy` names the total moved in, from
    `min` (already there) to `max` (RULINGS R9)."""

    source: int
    target: int
    min: int
    max: int


class WorldWarView(View, frozen=True, kw_only=True, tag="worldwar"):
    """What `seat` sees (None: a spectator, who sees no cards)."""

    seat: Seat | None
    players: int
    map: WorldWarMap
    rules: WorldWarRules
    phase: str
    current: Seat
    awaiting: tuple[Seat, ...]
    turn: int
    owner: tuple[int, ...]
    armies: tuple[int, ...]
    territory_counts: tuple[int, ...]
    alive: tuple[bool, ...]
    setup_left: tuple[int, ...]
    step_left: int
    """Armies left in the current set-up step (R1)."""
    pool: int
    """Reinforcements left to place this turn."""
    mid_turn: bool
    """Placing after a turn-in forced by an elimination (no turn-in at the start then)."""
    hand: tuple[int, ...] = ()
    hand_cards: tuple[Card, ...] = ()
    hand_sizes: tuple[int, ...] = ()
    deck_left: int = 0
    sets_turned_in: int = 0
    next_set_value: int | None = None
    best_turn_in: tuple[tuple[int, ...], ...] = ()
    must_turn_in: bool = False
    may_turn_in: bool = False
    conquered_this_turn: bool = False
    attack: AttackWaiting | None = None
    occupy: OccupyRange | None = None
    outcome: Outcome | None = None
    capitals: tuple[int, ...] = ()
    """Capital mode: each seat's capital territory (public)."""
    mission: Mission | None = None
    """Secret Mission: the seat's own mission as it stands (None for the others)."""

    def to_place(self) -> int:
        """Armies to place now (the set-up step or the reinforcements)."""
        if self.phase == "setup":
            return self.step_left
        return self.pool if self.phase == "place" else 0

    def attack_dice(self, source: int) -> int:
        """The most dice an attack from territory `source` may roll now (0: none)."""
        r = self.rules
        return max(0, min(r.attacker_max_dice, self.armies[source] - r.stay_behind))

    def movable(self, source: int) -> int:
        """Armies that may leave `source` (a free move; all but those that stay)."""
        return max(0, self.armies[source] - self.rules.stay_behind)

    def actor(self) -> Seat | None:
        """The one awaited seat (None once the game is over)."""
        return self.awaiting[0] if self.awaiting else None


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
    if st.pending is None and st.result is None:
        # Between two actions of one phase usually only the armies change (and the board
        # tuples after a conquest): the seat's last base view is reused with those
        # replaced.
        moment = (st.phase, st.current, st.turn, st.step_left, st.pool, st.mid_turn, st.conquered)
        last = st.last_views.get(seat)
        if last is not None and last[0] == moment:
            if last[1] is board:
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
                st.last_views[seat] = (moment, board, view)
        elif last is not None and last[1] is board:
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
            st.last_views[seat] = (moment, board, view)
        else:
            view = _full_view(st, seat, board, None, None, st.current)
            st.last_views[seat] = (moment, board, view)
        if st.mode == "domination" and st.deck_rules is None:
            return view
        return _extras(st, seat, view, st.current)
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


HandView = tuple[tuple[int, ...], tuple["Card", ...], tuple[tuple[int, ...], ...], bool, bool]


def _hand_view(st: WorldWarState, seat: Seat, held: tuple[int, ...]) -> HandView:
    """(hand, its cards, best sets, must turn in, holds a set) of `seat` holding `held`
    (kept by the state until the hand or the sets turned in change)."""
    deck = st.deck_rules
    assert deck is not None
    hand = tuple(sorted(held))
    cards = tuple(Card(c, *deck.card(c)) for c in hand)
    best = tuple(deck.best_sets(hand, st.sets_done)) if len(hand) >= 2 else ()
    return hand, cards, best, st.forced(seat), bool(deck.legal_sets(hand))
