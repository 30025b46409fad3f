"""The World War expert's playouts (`expert`): a small simulator of the board a seat's
view shows (owners, armies, hand sizes, the view's rules), the policy every seat follows
in a playout (the hard bot's placement and attacks, `bots`), and the score of where a
playout ends.

Compiled with mypyc (setup.py): playouts are nearly all of the expert's thinking, so
their speed is its playouts per second (issue 25 item 5). Compiled or not, a playout
draws the same numbers and scores the same. This module holds no record type.
"""

from __future__ import annotations

from typing import Final

from suite.core.rng import Rng
from suite.worldwar.rules.bots import (
    _odds,
    best_attack,
    finishing_attack,
    occupation,
    placement,
    territory_values,
    worth_attacking,
)
from suite.worldwar.rules.odds import Odds
from suite.worldwar.rules.views import WorldWarView

ROLLOUT_ATTACKS: Final = 40
"""At most this many attacks per simulated turn."""
INCOME_WEIGHT: Final = 0.6
"""The score: this share for the income, the rest for the armies (on the board and in
hand: a card counts as this share of a set's armies, CARD_WEIGHT)."""
CARD_WEIGHT: Final = 1.0
ROUNDS: Final = 1
"""Whole rounds the playouts look ahead: every opponent plays this many turns."""
OUTNUMBERED_SHARE: Final = 0.5
"""In the score, a continent's bonus counts at this share while one of its borders is
outnumbered (its enemy neighbours hold more armies than it): a bonus is worth what it
will yield, and an outnumbered border is likely to fall before it yields much."""


class Board:
    """The simulator's position: owners, armies and hand sizes, with the view's rules."""

    adj: tuple[tuple[int, ...], ...]
    continent_of: tuple[int, ...]
    members: tuple[tuple[int, ...], ...]
    bonus: tuple[int, ...]
    owner: list[int]
    armies: list[int]
    hands: list[int]
    counts: list[int]
    players: int
    odds: Odds
    stay: int
    divisor: int
    minimum: int
    set_size: int
    set_value: int
    set_step: int
    hand_limit: int
    draw: int

    def __init__(self, view: WorldWarView | None) -> None:
        """The position `view` shows (None: an empty shell for `copy` to fill)."""
        if view is None:
            return
        rules, board = view.rules, view.map
        self.adj = board.neighbours
        self.continent_of = board.continent_of
        self.members = board.continent_members
        self.bonus = board.continent_bonus
        self.owner = list(view.owner)
        self.armies = list(view.armies)
        self.hands = list(view.hand_sizes) if view.hand_sizes else [0] * view.players
        self.counts = list(view.territory_counts)
        self.players = view.players
        self.odds: Odds = _odds(rules)
        self.stay = rules.stay_behind
        self.divisor = rules.reinforce_divisor
        self.minimum = rules.reinforce_minimum
        cards = rules.has_cards and bool(rules.set_sizes)
        self.set_size = min(rules.set_sizes) if cards else 0
        if view.next_set_value is not None:
            self.set_value = view.next_set_value
        elif rules.set_values:
            self.set_value = sum(v for _k, v in rules.set_values) // len(rules.set_values)
        else:
            self.set_value = 0
        self.set_step = rules.set_step if view.next_set_value is not None else 0
        self.hand_limit = rules.hand_limit
        self.draw = rules.draw_per_turn if cards else 0

    def copy(self) -> Board:
        other = Board(None)
        other.adj, other.members, other.bonus = self.adj, self.members, self.bonus
        other.continent_of = self.continent_of
        other.owner = list(self.owner)
        other.armies = list(self.armies)
        other.hands = list(self.hands)
        other.counts = list(self.counts)
        other.players, other.odds, other.stay = self.players, self.odds, self.stay
        other.divisor, other.minimum = self.divisor, self.minimum
        other.set_size, other.set_value = self.set_size, self.set_value
        other.set_step = self.set_step
        other.hand_limit, other.draw = self.hand_limit, self.draw
        return other

    # -- rules ------------------------------------------------------------------------
    def income(self, seat: int) -> int:
        """R2 from the view's rules: territories, then every continent held whole."""
        total = self.territory_income(seat)
        for c in self.held(seat):
            total += self.bonus[c]
        return total

    def territory_income(self, seat: int) -> int:
        """R2's part for territories: their count over the divisor, at least the minimum."""
        return max(self.minimum, self.counts[seat] // self.divisor)

    def held(self, seat: int) -> list[int]:
        """The continents `seat` holds whole."""
        owner = self.owner
        return [
            c
            for c, members in enumerate(self.members)
            if members and all(owner[t] == seat for t in members)
        ]

    def held_income(self, seat: int) -> float:
        """The score's income: `income`, with the bonus of every continent one of whose
        borders is outnumbered (its enemy neighbours hold more armies) counted at
        OUTNUMBERED_SHARE."""
        total = float(self.territory_income(seat))
        owner, armies, adj = self.owner, self.armies, self.adj
        for c in self.held(seat):
            share = 1.0
            for t in self.members[c]:
                threat = 0
                for x in adj[t]:
                    if owner[x] != seat:
                        threat += armies[x]
                if threat > armies[t]:
                    share = OUTNUMBERED_SHARE
                    break
            total += share * self.bonus[c]
        return total

    def cards_due(self, seat: int) -> int:
        """Armies a set turned in at the start of the turn gives (0: the hand is kept):
        a hand turns in once it must (the hand limit) or once it holds more cards than
        a set needs. A shared counter (`set_step`) raises the next set's value."""
        held = self.hands[seat]
        if not self.set_size or held < self.set_size:
            return 0
        if held >= self.hand_limit or held > self.set_size:
            return self.turn_in(seat)
        return 0

    def turn_in(self, seat: int) -> int:
        """One set of `seat`'s hand turned in: its armies (the counter moves on)."""
        self.hands[seat] -= self.set_size
        value = self.set_value
        self.set_value += self.set_step
        return value

    def forced_turn_in(self, seat: int) -> int:
        """R5: after an elimination a hand at the limit turns in sets until it is below
        it; the armies they give (0: none due)."""
        gained = 0
        if self.set_size:
            while self.hands[seat] >= self.hand_limit and self.hands[seat] >= self.set_size:
                gained += self.turn_in(seat)
        return gained

    def fight(self, seat: int, s: int, t: int, rng: Rng) -> bool:
        """An attack to the end from `s` into `t`; on a conquest the armies move in as the
        hard bot moves them (`bots.occupation`: at least the dice of the last roll, at
        most all but those that must stay). True on a conquest."""
        armies, owner = self.armies, self.owner
        left_a, left_d = self.odds.resolve(armies[s], armies[t], rng)
        if left_d:
            armies[s], armies[t] = left_a, left_d
            return False
        loser = owner[t]
        owner[t] = seat
        self.counts[seat] += 1
        self.counts[loser] -= 1
        most = left_a - self.stay
        move = occupation(seat, owner, armies, self.adj, s, t, min(self.odds.max_a, most), most)
        armies[s] = left_a - move
        armies[t] = move
        if self.counts[loser] == 0:
            self.hands[seat] += self.hands[loser]
            self.hands[loser] = 0
            # The armies of a forced turn-in are placed at once: where the attack
            # goes on, on the territory just taken.
            armies[t] += self.forced_turn_in(seat)
        return True

    def alive(self) -> list[int]:
        return [s for s in range(self.players) if self.counts[s] > 0]

    # -- the policy: the hard bot's ----------------------------------------------------
    def values(self, seat: int) -> list[float]:
        """What taking each territory is worth to `seat` (`bots.territory_values`)."""
        return territory_values(
            seat, self.owner, self.continent_of, self.members, self.bonus, self.counts, self.hands
        )

    def place(self, seat: int, armies: int) -> None:
        """Everything where the hard bot puts it (`bots.placement`: the defence of a
        continent it holds, else the best attack, else the most threatened border)."""
        t = placement(
            seat,
            self.owner,
            self.armies,
            self.adj,
            self.continent_of,
            self.members,
            self.odds,
            self.stay,
            self.values(seat),
            armies,
        )
        self.armies[t] += armies

    def next_attack(self, seat: int, conquered: bool) -> tuple[int, int]:
        """(source, target) of the attack the hard bot makes next: a beaten opponent
        first, then the best attack while `bots.worth_attacking`; (-1, -1) to stop.
        `conquered`: the turn has made a conquest (its card is won)."""
        owner, army, adj, stay, odds = self.owner, self.armies, self.adj, self.stay, self.odds
        s, t = finishing_attack(seat, owner, army, adj, odds, stay, self.counts)
        if s >= 0:
            return s, t
        score, s, t = best_attack(seat, owner, army, adj, odds, stay, self.values(seat))
        if s < 0 or not worth_attacking(
            odds.win_probability(army[s], army[t]), score, self.draw > 0 and not conquered
        ):
            return -1, -1
        return s, t

    def attack(self, seat: int, rng: Rng, conquered: bool) -> bool:
        """Attack as the hard bot does (`next_attack`) until it stops, at most
        ROLLOUT_ATTACKS times; True when a conquest was made this turn (including
        before, `conquered`)."""
        for _ in range(ROLLOUT_ATTACKS):
            s, t = self.next_attack(seat, conquered)
            if s < 0:
                break
            if self.fight(seat, s, t, rng):
                conquered = True
                if len(self.alive()) == 1:
                    break
        return conquered

    def turn(self, seat: int, rng: Rng) -> None:
        """One whole turn of `seat` by the policy."""
        self.place(seat, self.income(seat) + self.cards_due(seat))
        self.end_turn(seat, self.attack(seat, rng, False))

    def end_turn(self, seat: int, conquered: bool) -> None:
        if conquered:
            self.hands[seat] += self.draw

    # -- the score --------------------------------------------------------------------
    def score(self, seat: int) -> float:
        """1 for a win, 0 for an elimination, else the seat's share of the income of the
        living seats (`held_income`: a continent's bonus discounted while a border of it
        is outnumbered) and of the armies (on the board, and in hand at CARD_WEIGHT times a
        set's armies per card), weighted by INCOME_WEIGHT."""
        if self.counts[seat] == 0:
            return 0.0
        living = self.alive()
        if living == [seat]:
            return 1.0
        incomes = [self.held_income(s) for s in living]
        mine = self.held_income(seat)
        own = sum(a for t, a in enumerate(self.armies) if self.owner[t] == seat)
        per_card = self.set_value / self.set_size if self.set_size else 0.0
        cards = CARD_WEIGHT * per_card
        total = sum(self.armies) + cards * sum(self.hands)
        share = (own + cards * self.hands[seat]) / total
        return INCOME_WEIGHT * mine / sum(incomes) + (1.0 - INCOME_WEIGHT) * share


def playout(
    root: Board,
    seat: int,
    conquered: bool,
    plan: tuple[int, int, int, int, bool],
    rng: Rng,
) -> float:
    """A plan (place, armies, source, target, more: see `expert.Plan`) played from
    `root`, the rest of the turn by the policy, one turn of every opponent, then
    the score. A plan with both `place` and `source` set is the free move that ends
    the turn (`armies` from `source` to `target`)."""
    place, armies, source, target, more = plan
    board = root.copy()
    if place >= 0 and source >= 0:  # the free move: `armies` from `source` to `target`
        board.armies[source] -= armies
        board.armies[target] += armies
    elif place >= 0:
        board.armies[place] += armies
        conquered = board.attack(seat, rng, conquered)
    elif source >= 0:
        conquered = board.fight(seat, source, target, rng) or conquered
        if more:
            conquered = board.attack(seat, rng, conquered)
    board.end_turn(seat, conquered)
    players = board.players
    for r in range(ROUNDS):
        for k in range(0 if r else 1, players):
            other = (seat + k) % players
            if board.counts[seat] == 0 or board.counts[seat] == len(board.owner):
                break
            if board.counts[other] > 0:
                board.turn(other, rng)
    return board.score(seat)
