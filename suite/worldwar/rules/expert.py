"""World War's "expert" bot: a Monte Carlo search over the turn's plans (issue 25 item 1).

At the decisions that shape a turn (where to put the reinforcements, which attack to make
next or whether to stop) the expert lists a few candidates, ranked by the hard bot's
exact-odds score (`odds.win_probability` times what the territory is worth), and plays
each out many times on a small simulator of the board: the candidate, the rest of its own
turn and one turn of every opponent by a fast greedy policy, battles drawn from the exact
end distribution of the match's dice (`Odds.resolve`). Positions are scored by the seat's
share of the income and of the armies on the board (1 for a win, 0 for an elimination).
Sequential halving spends the playouts: every candidate gets the same share in a round,
the better half goes on to the next.

The search sees only the seat's view: other hands are known by their sizes only, so the
simulator models every hand by its size (a player turns in once it must, or once it holds
more cards than a set needs), worth the view's next set value (the average of the set
values in modes without a shared counter). Every rule number comes from `view.rules` and
`view.map`: the dice, the armies that stay behind, the reinforcement formula, the set
sizes, the hand limit and the cards drawn per turn. Placement in set-up, card timing,
occupation, defence and the free move are the hard bot's (`bots.HardBot`), as are whole
turns in the capital and mission modes, which the simulator does not model.

Deterministic given its `Rng`: the budget is a number of playouts (`iterations`, about
0.3 s of thinking on the reference machine in plain Python), every playout draws from a
generator seeded from the bot's `Rng`, and candidates share their seeds (common random
numbers). `max_seconds` only guards against a slow machine: past it the search stops
early with what it has.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from suite.core.match import Action
from suite.core.rng import Rng
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.bots import HardBot, _borders, _mine, _odds
from suite.worldwar.rules.odds import Odds
from suite.worldwar.rules.views import WorldWarView

ITERATIONS = 1600
"""Playouts per searched decision by default: about 0.25 s in 4-player games and 0.15 s in
2-player ones on the reference machine in plain Python (the bench prints the figures)."""
MAX_SECONDS = 1.5
"""The wall-clock safety cap of one decision."""
CANDIDATES = 6
"""The most plans compared at one decision (besides stopping)."""
MIN_ODDS = 0.15
"""Attacks less likely than this to conquer are not candidates."""
ROLLOUT_ATTACK = 0.6
"""The greedy policy attacks when the conquest is at least this likely..."""
ROLLOUT_CARD = 0.4
"""...or this likely while the turn has no conquest for its card yet."""
ROLLOUT_ATTACKS = 40
"""At most this many attacks per simulated turn."""
INCOME_WEIGHT = 0.6
"""The score: this share for the income, the rest for the armies (on the board and in
hand: a card counts as this share of a set's armies, CARD_WEIGHT)."""
CARD_WEIGHT = 1.0
ROUNDS = 1
"""Whole rounds the playouts look ahead: every opponent plays this many turns."""


@dataclass
class SearchStats:
    """What the last searches did (for the bench): decisions, playouts, seconds."""

    searches: int = 0
    playouts: int = 0
    seconds: float = 0.0


class Board:
    """The simulator's position: owners, armies and hand sizes, with the view's rules."""

    __slots__ = (
        "adj",
        "members",
        "bonus",
        "owner",
        "armies",
        "hands",
        "counts",
        "players",
        "odds",
        "stay",
        "divisor",
        "minimum",
        "set_size",
        "set_value",
        "hand_limit",
        "draw",
    )

    def __init__(self, view: WorldWarView) -> None:
        rules, board = view.rules, view.map
        self.adj = board.neighbours
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
        self.hand_limit = rules.hand_limit
        self.draw = rules.draw_per_turn if cards else 0

    def copy(self) -> Board:
        other = Board.__new__(Board)
        for name in Board.__slots__:
            setattr(other, name, getattr(self, name))
        other.owner = list(self.owner)
        other.armies = list(self.armies)
        other.hands = list(self.hands)
        other.counts = list(self.counts)
        return other

    # -- rules ------------------------------------------------------------------------
    def income(self, seat: int) -> int:
        """R2 from the view's rules: territories, then every continent held whole."""
        total = max(self.minimum, self.counts[seat] // self.divisor)
        owner = self.owner
        for c, members in enumerate(self.members):
            if members and all(owner[t] == seat for t in members):
                total += self.bonus[c]
        return total

    def cards_due(self, seat: int) -> int:
        """Armies a set turned in now gives (0: the hand is kept)."""
        held = self.hands[seat]
        if not self.set_size or held < self.set_size:
            return 0
        if held >= self.hand_limit or held > self.set_size:
            self.hands[seat] = held - self.set_size
            return self.set_value
        return 0

    def fight(self, seat: int, s: int, t: int, rng: Rng) -> bool:
        """An attack to the end from `s` into `t`; on a conquest every army but those that
        must stay moves in. True on a conquest."""
        armies, owner = self.armies, self.owner
        left_a, left_d = self.odds.resolve(armies[s], armies[t], rng)
        if left_d:
            armies[s], armies[t] = left_a, left_d
            return False
        loser = owner[t]
        owner[t] = seat
        self.counts[seat] += 1
        self.counts[loser] -= 1
        armies[s] = self.stay
        armies[t] = left_a - self.stay
        if self.counts[loser] == 0:
            self.hands[seat] += self.hands[loser]
            self.hands[loser] = 0
        return True

    def alive(self) -> list[int]:
        return [s for s in range(self.players) if self.counts[s] > 0]

    # -- the greedy policy ------------------------------------------------------------
    def place(self, seat: int, armies: int) -> None:
        """Everything on the own border territory that outnumbers its weakest enemy
        neighbour the most (the first such territory on ties)."""
        owner, army, adj = self.owner, self.armies, self.adj
        best, best_edge = -1, -(10**9)
        for t in range(len(owner)):
            if owner[t] != seat:
                continue
            weakest = -1
            for n in adj[t]:
                if owner[n] != seat and (weakest < 0 or army[n] < weakest):
                    weakest = army[n]
            if weakest >= 0 and army[t] - weakest > best_edge:
                best, best_edge = t, army[t] - weakest
        if best < 0:
            best = owner.index(seat)
        army[best] += armies

    def attack(self, seat: int, rng: Rng, conquered: bool) -> bool:
        """Attack greedily until nothing is likely enough; True when a conquest was made
        this turn (including before, `conquered`)."""
        owner, army, adj, stay = self.owner, self.armies, self.adj, self.stay
        win = self.odds.win_probability
        for _ in range(ROLLOUT_ATTACKS):
            floor = ROLLOUT_ATTACK if conquered or not self.draw else ROLLOUT_CARD
            best_p, bs, bt = floor, -1, -1
            for s in range(len(owner)):
                a = army[s]
                if owner[s] != seat or a <= stay:
                    continue
                for t in adj[s]:
                    if owner[t] != seat:
                        p = win(a, army[t])
                        if p >= best_p:
                            best_p, bs, bt = p, s, t
            if bs < 0:
                break
            if self.fight(seat, bs, bt, rng):
                conquered = True
                if len(self.alive()) == 1:
                    break
        return conquered

    def turn(self, seat: int, rng: Rng) -> None:
        """One whole turn of `seat` by the greedy policy."""
        self.place(seat, self.income(seat) + self.cards_due(seat))
        self.end_turn(seat, self.attack(seat, rng, False))

    def end_turn(self, seat: int, conquered: bool) -> None:
        if conquered:
            self.hands[seat] += self.draw

    # -- the score --------------------------------------------------------------------
    def score(self, seat: int) -> float:
        """1 for a win, 0 for an elimination, else the seat's share of the income of the
        living seats and of the armies on the board, weighted by INCOME_WEIGHT."""
        if self.counts[seat] == 0:
            return 0.0
        living = self.alive()
        if living == [seat]:
            return 1.0
        incomes = [self.income(s) for s in living]
        mine = self.income(seat)
        own = sum(a for t, a in enumerate(self.armies) if self.owner[t] == seat)
        per_card = self.set_value / self.set_size if self.set_size else 0.0
        cards = CARD_WEIGHT * per_card
        total = sum(self.armies) + cards * sum(self.hands)
        share = (own + cards * self.hands[seat]) / total
        return INCOME_WEIGHT * mine / sum(incomes) + (1.0 - INCOME_WEIGHT) * share


@dataclass(frozen=True)
class Plan:
    """A candidate: place `armies` on `place`, or attack from `source` into `target`, or
    stop attacking (`source` -1); `prior` is its hard-bot score (ties and order). After
    an attack the playout stops attacking unless `more` (then the greedy policy goes on).
    """

    prior: float
    place: int = -1
    armies: int = 0
    source: int = -1
    target: int = -1
    more: bool = True


class ExpertBot:
    """Monte Carlo search over the turn's plans (see the module docstring)."""

    name = "expert"
    thinks_long = True
    """A search: a server thinks it over in a worker process (`suite.core.thinking`)."""
    totals = SearchStats()
    """Every expert's searches in this process (for the bench)."""

    def __init__(self, iterations: int = ITERATIONS, max_seconds: float = MAX_SECONDS) -> None:
        self.iterations = iterations
        self.max_seconds = max_seconds
        self.hard = HardBot()
        self.stats = SearchStats()

    def choose(self, view: WorldWarView, legal: Sequence[Action], rng: Rng) -> Action:
        seat = view.seat
        assert seat is not None, "bots play a seat, not a spectator's view"
        phase = view.phase
        if view.rules.mode != "domination" or view.attack is not None:
            return self.hard.choose(view, legal, rng)
        if phase == "place" and not view.must_turn_in:
            if not view.mid_turn and self.hard._wants_cards(view):
                return self.hard.choose(view, legal, rng)
            plans = self._placements(view, seat)
        elif phase == "attack":
            plans = self._attacks(view, seat)
        else:
            return self.hard.choose(view, legal, rng)
        best = plans[0] if len(plans) == 1 else self._search(view, seat, plans, rng)
        ids = view.map.territories
        if best.place >= 0:
            return A.Place(ids[best.place], best.armies)
        if best.source < 0:
            return A.EndAttack()
        return A.Blitz(ids[best.source], ids[best.target], False)

    # -- candidates -------------------------------------------------------------------
    def _attacks(self, view: WorldWarView, seat: int) -> list[Plan]:
        """Stopping, and the best attacks by the hard bot's score."""
        values = self.hard._values(view, seat)
        odds = _odds(view.rules)
        owner, armies, adj = view.owner, view.armies, view.map.neighbours
        stay = view.rules.stay_behind
        found: list[Plan] = []
        for s in range(len(owner)):
            if owner[s] != seat or armies[s] <= stay:
                continue
            for t in adj[s]:
                if owner[t] == seat:
                    continue
                p = odds.win_probability(armies[s], armies[t])
                if p >= MIN_ODDS:
                    prior = p * values[t] - (1.0 - p) * 0.5
                    found.append(Plan(prior, source=s, target=t))
        found.sort(key=lambda c: (-c.prior, c.source, c.target))
        once = [Plan(c.prior, source=c.source, target=c.target, more=False) for c in found]
        return [Plan(0.0), *found[:CANDIDATES], *once[:CANDIDATES]]

    def _placements(self, view: WorldWarView, seat: int) -> list[Plan]:
        """Everything on one territory: the borders best for attacking with the new
        armies (hard's score) and those most outnumbered by their enemy neighbours."""
        n = view.to_place()
        values = self.hard._values(view, seat)
        odds = _odds(view.rules)
        owner, armies, adj = view.owner, view.armies, view.map.neighbours
        borders = _borders(view, seat) or _mine(view, seat)
        attack: list[tuple[float, int]] = []
        danger: list[tuple[float, int]] = []
        for b in borders:
            best = 0.0
            threat = 0
            for t in adj[b]:
                if owner[t] != seat:
                    p = odds.win_probability(armies[b] + n, armies[t])
                    best = max(best, p * values[t] - (1.0 - p) * 0.5)
                    threat += armies[t]
            attack.append((best, b))
            danger.append((float(threat - armies[b]), b))
        attack.sort(key=lambda x: (-x[0], x[1]))
        danger.sort(key=lambda x: (-x[0], x[1]))
        chosen: dict[int, float] = {}
        for score, b in attack[: CANDIDATES - 2]:
            chosen.setdefault(b, score)
        for _score, b in danger[:2]:
            chosen.setdefault(b, 0.0)
        return [Plan(prior, place=b, armies=n) for b, prior in chosen.items()]

    # -- the search -------------------------------------------------------------------
    def _search(self, view: WorldWarView, seat: int, plans: list[Plan], rng: Rng) -> Plan:
        """Sequential halving over `plans` with `iterations` playouts in all."""
        started = time.perf_counter()
        root = Board(view)
        base = rng.randbelow(1 << 62)
        alive = list(range(len(plans)))
        totals = [0.0] * len(plans)
        visits = [0] * len(plans)
        rounds = max(1, (len(plans) - 1).bit_length())
        used = 0
        seed = 0
        for _round in range(rounds):
            share = max(1, self.iterations // (rounds * len(alive)))
            for _k in range(share):
                for i in alive:
                    totals[i] += self._playout(root, view, seat, plans[i], Rng(base + seed))
                    visits[i] += 1
                    used += 1
                seed += 1
                if time.perf_counter() - started > self.max_seconds:
                    break
            alive.sort(key=lambda i: (-totals[i] / visits[i], -plans[i].prior, i))
            if time.perf_counter() - started > self.max_seconds:
                break
            alive = alive[: max(1, (len(alive) + 1) // 2)]
            if len(alive) == 1:
                break
        spent = time.perf_counter() - started
        for stats in (self.stats, ExpertBot.totals):
            stats.searches += 1
            stats.playouts += used
            stats.seconds += spent
        return plans[alive[0]]

    def _playout(self, root: Board, view: WorldWarView, seat: int, plan: Plan, rng: Rng) -> float:
        """The plan, the rest of the turn by the greedy policy, one turn of every
        opponent, then the score."""
        board = root.copy()
        conquered = view.conquered_this_turn
        if plan.place >= 0:
            board.armies[plan.place] += plan.armies
            conquered = board.attack(seat, rng, conquered)
        elif plan.source >= 0:
            conquered = board.fight(seat, plan.source, plan.target, rng) or conquered
            if plan.more:
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
