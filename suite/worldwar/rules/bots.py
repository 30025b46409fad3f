"""World War bots. Each sees only its seat's view and the legal actions.

- `RandomBot` ("random"): a uniformly drawn action kind, then a uniform action of it.
- `AggressiveBot` ("aggressive", the benchmark policy of the issue): places one army at a
  time on random border territories, attacks to the end from any territory into any
  enemy neighbour holding fewer armies until none is left, moves all it may into each
  conquest, turns in whenever it can and makes no free move.
- `EasyBot` ("easy", greedy): all armies on its strongest border, attacks to the end
  whenever it outnumbers the defender by two, the biggest army it outnumbers two to one
  first (a beaten opponent, holding at most `FINISH` territories, whenever it outnumbers
  it at all), moves everything in.
- `HardBot` ("hard"): exact conquest odds (`odds.win_probability`), continent values,
  borders, card timing (one conquest a turn for the card) and fortifying the border; it
  finishes a beaten opponent first when the odds favour it.

Bots see the match's own rules in their view and read every rule from there, never a
number of their own: dice limits for the odds, the armies that stay behind on an attacking
or fortifying territory, set values.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from suite.core.match import Action
from suite.core.rng import Rng
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.actions import Blitz  # by name: the aggressive bot's usual move
from suite.worldwar.rules.data import Battle
from suite.worldwar.rules.legal import ActionList
from suite.worldwar.rules.odds import Odds, odds_for
from suite.worldwar.rules.views import WorldWarRules, WorldWarView

View = WorldWarView


@lru_cache(maxsize=8)
def _dice(rules: WorldWarRules) -> Battle:
    """A match's dice rules as `odds` keys its books."""
    return rules.dice()


def _odds(rules: WorldWarRules) -> Odds:
    """The odds book of a match's dice rules (as its views give them): always the one
    `odds_for` keeps, so a book it has let go is never held on to here."""
    return odds_for(_dice(rules))


FINISH = 3
"""An opponent holding this many territories or fewer is beaten: bots go for the kill."""


def _beaten(view: View, seat: int) -> set[int]:
    """Living opponents of `seat` that hold at most FINISH territories."""
    counts, alive = view.territory_counts, view.alive
    return {s for s in range(view.players) if s != seat and alive[s] and counts[s] <= FINISH}


def _seat(view: View) -> int:
    """The seat a bot plays (a bot is only ever given its own seat's view)."""
    seat = view.seat
    assert seat is not None, "bots play a seat, not a spectator's view"
    return seat


def _mine(view: View, seat: int) -> list[int]:
    owner = view.owner
    return [t for t in range(len(owner)) if owner[t] == seat]


def _borders(view: View, seat: int) -> list[int]:
    """Own territories with at least one enemy neighbour."""
    owner, adj = view.owner, view.map.neighbours
    out = []
    for t, o in enumerate(owner):
        if o == seat:
            for n in adj[t]:
                if owner[n] != seat:
                    out.append(t)
                    break
    return out


def _armies_to_place(view: View) -> int:
    return int(view.step_left if view.phase == "setup" else view.pool)


def _common(view: View, legal: Sequence[Action]) -> Action | None:
    """Moves every bot makes the same way: cards, the defence, skipping optional sets."""
    phase = view.phase
    if phase == "defend" and view.attack is not None:
        return A.Defend(view.attack.defend_max)
    if phase == "cards" or (phase == "place" and view.must_turn_in):
        best = view.best_turn_in
        if best:
            return A.TurnIn(tuple(best[0]))
        return A.SkipTurnIn()
    if phase == "occupy" and view.occupy is not None:
        return A.Occupy(view.occupy.max)
    return None


class RandomBot:
    """Random play that still ends games (uniformly random legal play never does: armies
    pile up and, with increasing cards, set values run away). It places everything on one
    random border territory and, while attacking, three times in four attacks to the end
    from a random territory into a random enemy neighbour holding fewer armies. Otherwise
    (and for cards, occupation and defence) it draws an action kind uniformly, then an
    action of that kind uniformly."""

    name = "random"
    attack_odds = 3

    def choose(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        if not isinstance(legal, ActionList):
            return rng.choice(legal)
        seat = _seat(view)
        ids = view.map.territories
        kinds = legal.kinds()
        if "blitz" in kinds and rng.randbelow(self.attack_odds + 1) < self.attack_odds:
            options = _favourable(view, seat)
            if options:
                s, t = rng.choice(options)
                return A.Blitz(ids[s], ids[t], rng.randbelow(2) == 1)
        if "place" in kinds:
            border = _borders(view, seat) or _mine(view, seat)
            return A.Place(ids[rng.choice(border)], _armies_to_place(view))
        kind = rng.choice([k for k in kinds if k != "end_attack"] or kinds)
        return legal.sample_kind(kind, rng)


def _favourable(view: View, seat: int) -> list[tuple[int, int]]:
    """(source, target) pairs where the source can attack and holds more armies than the
    target."""
    return list(zip(*_favourable_lists(view, seat), strict=True))


def _favourable_lists(view: View, seat: int) -> tuple[list[int], list[int]]:
    """`_favourable` as a list of sources and a list of targets, pair by pair."""
    owner, armies, adj = view.owner, view.armies, view.map.neighbours
    stay = view.rules.stay_behind
    sources: list[int] = []
    targets: list[int] = []
    for s, a in enumerate(armies):
        if a > stay and owner[s] == seat:
            for t in adj[s]:
                if armies[t] < a and owner[t] != seat:
                    sources.append(s)
                    targets.append(t)
    return sources, targets


class AggressiveBot:
    """The benchmark policy (see the module docstring)."""

    name = "aggressive"

    def __init__(self) -> None:
        # The attack options of the turn as parallel lists of sources and targets, kept
        # between consecutive attacks: an attack to the end changes only its two
        # territories, so only their pairs are redone. `_last` is the attack they led to
        # (seat, turn, source, target; seat -1: none), plain ints for the compiled module.
        self._sources: list[int] = []
        self._targets: list[int] = []
        self._last_seat = self._last_turn = self._last_source = self._last_target = -1
        # Borders do not change while armies are placed (set-up, or one turn's placing).
        self._borders: tuple[tuple[int, int, str, bool, int], list[int]] | None = None

    def choose(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        seat = view.seat
        assert seat is not None, "bots play a seat, not a spectator's view"
        phase = view.phase
        if phase == "attack":
            # The options of the last attack, minus the pairs it changed, plus the new ones
            # (plain loops: the lists are short and this runs before nearly every attack).
            turn = view.turn
            owner, armies = view.owner, view.armies
            stay = view.rules.stay_behind
            s, t = self._last_source, self._last_target
            if self._last_seat != seat or self._last_turn != turn or armies[s] != stay:
                sources, targets = _favourable_lists(view, seat)
            else:
                sources, targets = [], []
                old_sources, old_targets = self._sources, self._targets
                for i in range(len(old_sources)):
                    src, dst = old_sources[i], old_targets[i]
                    if src != s and dst != t:
                        sources.append(src)
                        targets.append(dst)
                if owner[t] == seat:
                    a = armies[t]
                    if a > stay:
                        for x in view.map.neighbours[t]:
                            if owner[x] != seat and armies[x] < a:
                                sources.append(t)
                                targets.append(x)
                else:
                    d = max(stay, armies[t])
                    for x in view.map.neighbours[t]:
                        if owner[x] == seat and armies[x] > d:
                            sources.append(x)
                            targets.append(t)
            if sources:
                k = rng.randbelow(len(sources))
                s, t = sources[k], targets[k]
                self._sources, self._targets = sources, targets
                self._last_seat, self._last_turn = seat, turn
                self._last_source, self._last_target = s, t
                ids = view.map.territories
                return Blitz(ids[s], ids[t], True)
            self._last_seat = -1
            return A.EndTurn()
        ids = view.map.territories
        self._last_seat = -1
        if phase in ("setup", "place") and not view.must_turn_in:
            if phase == "place" and not view.mid_turn and view.best_turn_in:
                return A.TurnIn(tuple(view.best_turn_in[0]))
            # One army at a time on random borders, confirmed as one placement.
            key = (seat, view.turn, phase, view.mid_turn, view.territory_counts[seat])
            cached = self._borders
            if cached is not None and cached[0] == key:
                border = cached[1]
            else:
                border = _borders(view, seat) or _mine(view, seat)
                self._borders = (key, border)
            counts: dict[int, int] = {}
            for k in rng.randbelows(len(border), _armies_to_place(view)):
                t = border[k]
                counts[t] = counts.get(t, 0) + 1
            return A.PlaceMany(tuple([(ids[t], n) for t, n in counts.items()]))
        common = _common(view, legal)
        return A.EndTurn() if common is None else common


class EasyBot:
    """Greedy (see the module docstring)."""

    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        seat = _seat(view)
        phase = view.phase
        ids = view.map.territories
        owner, armies, adj = view.owner, view.armies, view.map.neighbours
        if phase in ("setup", "place") and not view.must_turn_in:
            if phase == "place" and not view.mid_turn and view.best_turn_in:
                return A.TurnIn(tuple(view.best_turn_in[0]))
            border = _borders(view, seat) or _mine(view, seat)

            def edge(t: int) -> int:
                weakest = min((armies[n] for n in adj[t] if owner[n] != seat), default=0)
                return int(armies[t]) - int(weakest)

            best = max(border, key=lambda t: (edge(t), -t))
            return A.Place(ids[best], _armies_to_place(view))
        common = _common(view, legal)
        if common is not None:
            return common
        if phase == "attack":
            best_pair: tuple[int, int] | None = None
            beaten = _beaten(view, seat)
            best_kill = 0
            best_key = (False, 0)
            stay = view.rules.stay_behind
            for s in range(len(owner)):
                if owner[s] != seat or armies[s] <= stay:
                    continue
                for t in adj[s]:
                    gap = armies[s] - armies[t]
                    if owner[t] == seat:
                        continue
                    if owner[t] in beaten and gap > best_kill:
                        best_kill, best_pair = gap, (s, t)
                    elif not best_kill and armies[s] > stay + 1 and gap > 1:
                        # The biggest enemy army it outnumbers two to one, else the
                        # biggest margin: a strong stack crushes armies, not just land.
                        crush = armies[s] >= 2 * armies[t]
                        key = (crush, armies[t] if crush else gap)
                        if key > best_key:
                            best_key, best_pair = key, (s, t)
            if best_pair is not None:
                return A.Blitz(ids[best_pair[0]], ids[best_pair[1]], True)
        return A.EndTurn()


ATTACK_ODDS: Final = 0.35
"""The hard policy attacks when the conquest is at least this likely..."""
ATTACK_SCORE: Final = 0.3
"""...and the attack's score (`best_attack`) is above this,..."""
CARD_ODDS: Final = 0.25
"""...or when it is at least this likely while the turn still needs a conquest for its card."""
FINISH_ODDS: Final = 0.5
"""A beaten opponent is attacked first when the conquest is at least this likely."""
MISS_COST: Final = 0.5
"""What a failed attack costs in the attack score, in territory values."""
DEFEND_RATIO: Final = 1.2
"""The hard policy reinforces a border of a continent it holds whose enemy neighbours
hold more than this many times its armies,..."""
DEFEND_BELOW: Final = 2.0
"""...unless it has an attack scoring this much (`placement`)."""


Ints = list[int]
"""The simulator's mutable rows (owners, armies, counts, hands); views give tuples, which the
hard bot copies: lists of one concrete type keep the compiled playouts fast."""
Rows = tuple[tuple[int, ...], ...]


def territory_values(
    seat: int,
    owner: Ints,
    continent_of: tuple[int, ...],
    members: Rows,
    bonus: tuple[int, ...],
    counts: Ints,
    hands: Ints,
) -> list[float]:
    """What taking each territory is worth to `seat` (0 for its own): 1, plus its
    continent's bonus times the square of the share `seat` would hold of it, plus 4 and 2
    per card in hand when its owner holds at most two territories (an elimination)."""
    worth = []  # per continent: what one more of its territories is worth
    for c in range(len(members)):
        m = members[c]
        mine = 0
        for t in m:
            if owner[t] == seat:
                mine += 1
        share = (mine + 1) / len(m) if m else 0.0
        worth.append(1.0 + bonus[c] * share**2)
    values = [0.0] * len(owner)
    for t in range(len(owner)):
        o = owner[t]
        if o != seat:
            v = worth[continent_of[t]]
            if counts[o] <= 2:
                v += 4.0 + 2.0 * hands[o]
            values[t] = v
    return values


def attack_score(odds: float, value: float) -> float:
    """An attack's worth: its conquest odds times the target's value (`territory_values`),
    less MISS_COST times the odds of failing."""
    return odds * value - (1.0 - odds) * MISS_COST


def best_attack(
    seat: int,
    owner: Ints,
    armies: Ints,
    adj: Rows,
    odds: Odds,
    stay: int,
    values: list[float],
    extra: int = 0,
    source: int = -1,
) -> tuple[float, int, int]:
    """(score, source, target) of the best attack of `seat` with `extra` armies added to
    the source (only from `source` unless it is -1), scored by `attack_score`. (-1.0, -1,
    -1) when none is possible; the first pair wins ties."""
    best, best_s, best_t = -1.0, -1, -1
    first, last = (0, len(owner)) if source < 0 else (source, source + 1)
    for s in range(first, last):
        a = armies[s] + extra
        if owner[s] != seat or a <= stay:
            continue
        for t in adj[s]:
            if owner[t] == seat:
                continue
            p = odds.win_probability(a, armies[t])
            score = attack_score(p, values[t])
            if score > best:
                best, best_s, best_t = score, s, t
    return best, best_s, best_t


def finishing_attack(
    seat: int, owner: Ints, armies: Ints, adj: Rows, odds: Odds, stay: int, counts: Ints
) -> tuple[int, int]:
    """(source, target) of the likeliest attack on a beaten opponent (one holding at most
    FINISH territories), when at least FINISH_ODDS likely; (-1, -1) otherwise."""
    best_p, best_s, best_t = -1.0, -1, -1
    for s in range(len(owner)):
        if owner[s] != seat or armies[s] <= stay:
            continue
        for t in adj[s]:
            o = owner[t]
            if o != seat and counts[o] <= FINISH:
                p = odds.win_probability(armies[s], armies[t])
                if p >= FINISH_ODDS and p > best_p:
                    best_p, best_s, best_t = p, s, t
    return best_s, best_t


def placement(
    seat: int,
    owner: Ints,
    armies: Ints,
    adj: Rows,
    continent_of: tuple[int, ...],
    members: Rows,
    odds: Odds,
    stay: int,
    values: list[float],
    n: int,
) -> int:
    """Where the hard policy puts all its `n` armies: on the border of a continent `seat`
    holds whole that its enemy neighbours outnumber most (by more than DEFEND_RATIO times
    its armies), unless an attack scores DEFEND_BELOW or more (`best_attack` with the `n`
    armies added); else on the source of that best attack; else on the border most
    threatened (the sum of its enemy neighbours' armies). Ties go to the first territory.
    The hard bot and the expert's playouts both place by it."""
    score, best, _t = best_attack(seat, owner, armies, adj, odds, stay, values, n)
    held: list[bool] = []
    for m in members:
        whole = len(m) > 0
        for t in m:
            if owner[t] != seat:
                whole = False
                break
        held.append(whole)
    weak, weak_gap = -1, 0
    busiest, busiest_threat = -1, -1
    first = -1
    for t in range(len(owner)):
        if owner[t] != seat:
            continue
        if first < 0:
            first = t
        threat = 0
        border = False
        for x in adj[t]:
            if owner[x] != seat:
                border = True
                threat += armies[x]
        if not border:
            continue
        if threat > busiest_threat:
            busiest, busiest_threat = t, threat
        if held[continent_of[t]] and threat > armies[t] * DEFEND_RATIO:
            gap = threat - armies[t]
            if weak < 0 or gap > weak_gap:
                weak, weak_gap = t, gap
    if weak >= 0 and score < DEFEND_BELOW:
        return weak
    if best >= 0:
        return best
    return busiest if busiest >= 0 else first


def occupation(
    seat: int, owner: Ints, armies: Ints, adj: Rows, s: int, t: int, lo: int, hi: int
) -> int:
    """How many armies the hard policy moves from `s` into `t`, just taken, when it may
    move `lo` to `hi`: all of them when `s` has no enemy neighbour, the fewest when `t`
    has none, else a share of `hi` in proportion to the enemy armies next to `t` (of those
    next to either). The hard bot and the expert's playouts both occupy by it."""
    src_enemies = 0
    for x in adj[s]:
        if owner[x] != seat:
            src_enemies += armies[x]
    tgt_enemies = 0
    for x in adj[t]:
        if owner[x] != seat:
            tgt_enemies += armies[x]
    if src_enemies == 0:
        move = hi
    elif tgt_enemies == 0:
        move = lo
    else:
        move = round(hi * tgt_enemies / (src_enemies + tgt_enemies))
    return max(lo, min(hi, move))


def worth_attacking(odds: float, score: float, needs_card: bool) -> bool:
    """The hard policy's rule for making its best attack (see ATTACK_ODDS)."""
    return odds >= ATTACK_ODDS and score > ATTACK_SCORE or needs_card and odds >= CARD_ODDS


class HardBot:
    """Odds-driven planner (see the module docstring)."""

    name = "hard"

    def choose(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        seat = _seat(view)
        phase = view.phase
        if phase in ("setup", "place") and not view.must_turn_in:
            if phase == "place" and not view.mid_turn and self._wants_cards(view):
                return A.TurnIn(tuple(view.best_turn_in[0]))
            return self._place(view, seat)
        if phase == "occupy":
            return self._occupy(view, seat)
        common = _common(view, legal)
        if common is not None:
            return common
        if phase == "attack":
            move = self._attack(view, seat)
            if move is not None:
                return move
            return A.EndAttack()
        if phase == "fortify":
            move = self._fortify(view, seat)
            if move is not None:
                return move
        return A.EndTurn()

    # -- evaluation -------------------------------------------------------------------
    def _wants_cards(self, view: View) -> bool:
        best = view.best_turn_in
        if not best:
            return False
        if view.next_set_value is not None:
            return True  # a shared counter: every set is worth the same now
        # Royalty and poker: wait for a better hand while there is room for more cards.
        return len(best[0]) >= 3 or len(view.hand) >= 4

    def _values(self, view: View, seat: int) -> list[float]:
        """What taking each territory is worth (`territory_values`)."""
        board = view.map
        return territory_values(
            seat,
            list(view.owner),
            board.continent_of,
            board.continent_members,
            board.continent_bonus,
            list(view.territory_counts),
            list(view.hand_sizes),
        )

    def _best_attack(
        self, view: View, seat: int, extra: int, source: int = -1
    ) -> tuple[float, int, int]:
        """(score, source, target) of the best attack with `extra` armies added to the source."""
        return best_attack(
            seat,
            list(view.owner),
            list(view.armies),
            view.map.neighbours,
            _odds(view.rules),
            view.rules.stay_behind,
            self._values(view, seat),
            extra,
            source,
        )

    def _place(self, view: View, seat: int) -> A.Place:
        board = view.map
        n = _armies_to_place(view)
        t = placement(
            seat,
            list(view.owner),
            list(view.armies),
            board.neighbours,
            board.continent_of,
            board.continent_members,
            _odds(view.rules),
            view.rules.stay_behind,
            self._values(view, seat),
            n,
        )
        return A.Place(board.territories[t], n)

    def _attack(self, view: View, seat: int) -> Action | None:
        ids = view.map.territories
        owner, armies, adj = list(view.owner), list(view.armies), view.map.neighbours
        odds, stay = _odds(view.rules), view.rules.stay_behind
        s, t = finishing_attack(seat, owner, armies, adj, odds, stay, list(view.territory_counts))
        if s >= 0:
            return A.Blitz(ids[s], ids[t], False)
        score, s, t = self._best_attack(view, seat, 0)
        if s < 0:
            return None
        p = odds.win_probability(armies[s], armies[t])
        if worth_attacking(p, score, view.rules.has_cards and not view.conquered_this_turn):
            return A.Blitz(ids[s], ids[t], False)
        return None

    def _occupy(self, view: View, seat: int) -> Action:
        p = view.occupy
        assert p is not None
        s, t = p.source, p.target
        lo, hi = p.min, p.max
        owner, adj, armies = view.owner, view.map.neighbours, view.armies
        return A.Occupy(occupation(seat, list(owner), list(armies), adj, s, t, lo, hi))

    def _fortify(self, view: View, seat: int) -> Action | None:
        owner, armies, adj = view.owner, view.armies, view.map.neighbours
        ids = view.map.territories
        n = len(owner)
        # Distance of every own territory to the nearest border (BFS over own land).
        dist = [-1] * n
        frontier = [
            t for t in range(n) if owner[t] == seat and any(owner[x] != seat for x in adj[t])
        ]
        for t in frontier:
            dist[t] = 0
        while frontier:
            nxt = []
            for t in frontier:
                for x in adj[t]:
                    if owner[x] == seat and dist[x] < 0:
                        dist[x] = dist[t] + 1
                        nxt.append(x)
            frontier = nxt
        best: tuple[int, int, int] | None = None
        stay = view.rules.stay_behind
        for s in range(n):
            if owner[s] != seat or armies[s] <= stay or dist[s] <= 0:
                continue
            for t in adj[s]:
                if owner[t] == seat and 0 <= dist[t] < dist[s]:
                    key = (armies[s] - stay, s, t)
                    if best is None or key[0] > best[0]:
                        best = key
        if best is None:
            return None
        return A.Fortify(ids[best[1]], ids[best[2]], best[0])
