"""Tactics bots: random, normal (Wesnoth-style candidate actions) and hard (expectimax).

All bots see only their seat's `TacticsView` (everything but the random source and other
seats' XP) and rebuild an engine from it (`TacticsState.from_view`); given the full state
on the local side they reason on a copy of it. Their choices are deterministic for a
given view and rng.

normal: for every commandable piece, every cell it may stand on (its own included) and
every target from there, a candidate is scored by the value of the expected damage dealt,
the chance to kill, weapon dominance (through the damage), minus the damage the enemy can
deal to that cell next turn, weighted by (1 - aggression); candidates without a target
score their progress towards the nearest enemy. The best piece is selected, moved and
fired; when nothing scores above standing still the turn ends.

Both engage (RULINGS T17): when no piece has an attack in reach, the bot moves the piece
that gets closest to a firing position (a tile from which it could hit an enemy, by
walking distance) instead of waiting; and once half the stalemate count of rounds has
passed without damage it takes its best attack however risky, so that battles between
bots end by a fight.

hard: takes the normal bot's best few candidates and looks through the chance outcomes
of each (miss, hit, crit with their probabilities), scoring each resulting position with
`evaluate` (material weighted by piece value, the enemy's best reply from its rested
pieces, our rested pieces' counter-strikes); the candidate with the best expected
evaluation is played. It also keeps out of reach while marching.
"""

from __future__ import annotations

from dataclasses import dataclass

from suite.core.bots import NoLegalAction, RandomBot
from suite.core.match import Action, ActionSpace, Legal, Seat
from suite.core.rng import Rng
from suite.tactics.rules import actions as A
from suite.tactics.rules import combat
from suite.tactics.rules.forecast import Forecast
from suite.tactics.rules.state import ATTACK, MOVE, SELECT, TacticsState, Unit
from suite.tactics.rules.view import TacticsView

PROGRESS_WEIGHT = 1.0
MOVE_REST_PENALTY = 0.05
COUNTER_WEIGHT = 0.2


@dataclass(frozen=True)
class Candidate:
    """A scored command: move `unit` to `cell` (its own cell = stay) and hit `target`."""

    score: float
    unit: int
    cell: int
    target: int  # -1: no attack
    forecast: Forecast | None
    progress: float = 0.0  # steps gained towards a firing position


def piece_value(state: TacticsState, unit: Unit) -> float:
    """A piece's worth: the sum of its runtime stats plus mobility and range."""
    piece = state.pieces[unit.kind]
    stats = combat.runtime(piece, unit.level, state.rules)
    return float(
        stats.max_hp + stats.strength + stats.defense + stats.agility + piece.mobility + piece.range
    )


def strike_zones(state: TacticsState, units: list[Unit]) -> list[tuple[Unit, frozenset[int]]]:
    """For each unit, the cells it could strike on its next command (its moves as the
    board stands, then its shots)."""
    found = []
    for unit in units:
        cells: set[int] = set()
        for spot in (unit.cell, *state.reachable(unit)):
            cells.update(state.shot_cells(unit, spot))
        found.append((unit, frozenset(cells)))
    return found


class Analysis:
    """What a bot works out once per decision: threats and march distances."""

    def __init__(
        self, state: TacticsState, seat: Seat, aggression: float, aware: bool = False
    ) -> None:
        self.aware = aware
        self.state = state
        self.seat = seat
        self.aggression = aggression
        self.enemies = [u for u in state.units if u.hp > 0 and u.seat != seat]
        # aware: only enemies rested enough to act on their next turn threaten (T1)
        self.threats = [u for u in self.enemies if not aware or self.ready_next(u)]
        self._zones: list[tuple[Unit, frozenset[int]]] | None = None
        self._fields: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
        self._values: dict[int, float] = {}

    def ready_next(self, unit: Unit) -> bool:
        """True when `unit` will be rested enough to act at the start of its next turn."""
        state = self.state
        if state.pieces_per_turn:
            return True
        rules = state.rules
        return (
            min(rules.rest.full, unit.rest + rules.rest.gain_per_turn) >= rules.rest.act_threshold
        )

    def value(self, unit: Unit) -> float:
        got = self._values.get(unit.uid)
        if got is None:
            got = self._values[unit.uid] = piece_value(self.state, unit)
        return got

    def zones(self) -> list[tuple[Unit, frozenset[int]]]:
        """For each threatening enemy, the cells it could strike next turn."""
        if self._zones is None:
            self._zones = strike_zones(self.state, self.threats)
        return self._zones

    def threat(self, mover: Unit, cell: int, hp: int | None = None) -> float:
        """Value `mover` may lose standing on `cell` next turn (expected, capped at its HP)."""
        state = self.state
        total = 0.0
        for enemy, cells in self.zones():
            if cell in cells and enemy.hp > 0:
                total += state.forecast(enemy, mover).expected_damage
        left = float(mover.hp if hp is None else hp)
        return min(total, left) / self.max_hp(mover) * self.value(mover)

    def max_hp(self, unit: Unit) -> int:
        piece = self.state.pieces[unit.kind]
        return combat.runtime(piece, unit.level, self.state.rules).max_hp

    def field(self, unit: Unit) -> tuple[int, ...]:
        """Walking steps for `unit` to the nearest firing position: a tile it may stand
        on from which its weapon reaches an enemy (T17); cells that reach none get
        size * size + 1."""
        state = self.state
        piece = state.pieces[unit.kind]
        weapon = state.weapon_of(unit)
        reach = min(piece.range, state.rules.movement.max_range)
        key = (piece.movement, weapon.movement, piece.min_range, reach)
        got = self._fields.get(key)
        if got is None:
            terrain = state.terrain
            spots: set[int] = set()
            for enemy in self.enemies:
                for cell in terrain.shot_cells(enemy.cell, weapon.movement, piece.min_range, reach):
                    if terrain.can_hold(cell, piece.movement):
                        spots.add(cell)
            sources = sorted(spots) or [e.cell for e in self.enemies]
            got = terrain.distances(sources, piece.movement)
            self._fields[key] = got
        return got

    def gain(self, target: Unit, numbers: Forecast) -> float:
        """Value of an attack: expected damage (capped at the target's HP) as a share of
        the target's worth, plus the chance of removing it outright."""
        worth = self.value(target)
        dealt = min(numbers.expected_damage, float(target.hp))
        return dealt / self.max_hp(target) * worth + numbers.kill_chance / 100.0 * worth

    def candidates(self, unit: Unit, moved: bool) -> list[Candidate]:
        """Every (cell, target) for `unit`; `moved` means it may only attack from here."""
        state = self.state
        cells = [unit.cell] if moved else [unit.cell, *state.reachable(unit)]
        field = self.field(unit)
        here = field[unit.cell]
        caution = 1.0 - self.aggression
        rested_mode = state.pieces_per_turn == 0
        out: list[Candidate] = []
        for cell in cells:
            # after the move every option stands on the same cell: its risk ranks nothing
            risk = 0.0 if moved else caution * self.threat(unit, cell)
            move_cost = 0.0
            if cell != unit.cell and rested_mode:
                move_cost = MOVE_REST_PENALTY * self.value(unit)
            progress = PROGRESS_WEIGHT * (here - field[cell]) if field[cell] <= len(field) else 0
            # the normal bot marches like Wesnoth's move-to-targets: risk only weighs
            # attacks; the aware (hard) bot also keeps out of reach while marching
            march = progress - risk if self.aware else progress
            out.append(Candidate(march, unit.uid, cell, -1, None, progress))
            for target in state.targets(unit, cell):
                numbers = state.forecast(unit, target, cell)
                # moving and attacking leaves no rest for the next turn in "all rested" mode
                score = progress - risk - move_cost + self.gain(target, numbers)
                out.append(Candidate(score, unit.uid, cell, target.uid, numbers, progress))
        out.sort(key=lambda c: (-c.score, c.cell, c.target))
        return out


def _rebuild(view: object) -> TacticsState:
    """An engine to reason on: rebuilt from a `TacticsView`, or a copy of a full state."""
    if isinstance(view, TacticsView):
        return TacticsState.from_view(view)
    if isinstance(view, TacticsState):
        return view.clone()
    raise TypeError(f"a tactics bot needs a TacticsView, not {type(view).__name__}")


def _as_action(state: TacticsState, best: Candidate) -> Action:
    """The action that carries out `best` in the state's current phase."""
    unit = state.units[best.unit]
    if state.phase == SELECT:
        return A.Select(best.unit)
    if state.phase == MOVE:
        if best.cell == unit.cell:
            return A.SkipMove()
        x, y = state.terrain.cell(best.cell)
        return A.Move(x, y)
    return A.Attack(best.target) if best.target >= 0 else A.SkipAttack()


class NormalBot:
    """Wesnoth-style candidate-action bot (see the module docstring)."""

    name = "normal"
    aware = False

    def __init__(self, aggression: float = 0.5) -> None:
        self.aggression = aggression
        self._board: tuple[object, ...] = ()
        self._lists: dict[int, list[Candidate]] = {}

    def choose(self, view: object, legal: Legal, rng: Rng) -> Action:
        if isinstance(legal, ActionSpace) or not legal:
            raise NoLegalAction("no legal action to choose from")
        state = _rebuild(view)
        best = self.best(state)
        if best is None:
            return A.EndTurn()
        action = _as_action(state, best)
        return action if action in legal else legal[-1]

    def ranked(self, state: TacticsState, limit: int = 0) -> list[Candidate]:
        """Candidates for the current phase, best first (`limit` > 0 keeps that many).

        The lists worked out when selecting are kept for the move that follows (the
        board has not changed in between)."""
        board = (state.current, tuple((u.cell, u.hp, u.rest, u.level) for u in state.units))
        if board != self._board:
            self._board, self._lists = board, {}
        analysis = Analysis(state, state.current, self.aggression, self.aware)

        def listed(unit: Unit) -> list[Candidate]:
            found = self._lists.get(unit.uid)
            if found is None:
                found = self._lists[unit.uid] = analysis.candidates(unit, moved=False)
            return found

        if state.phase == SELECT:
            pool: list[Candidate] = []
            for unit in state.commandable():
                pool.extend(listed(unit)[: max(limit, 1)])
        elif state.phase == MOVE:
            pool = list(listed(state.units[state.active]))
        else:
            pool = analysis.candidates(state.units[state.active], moved=True)
        pool.sort(key=lambda c: (-c.score, c.unit, c.cell, c.target))
        return pool[:limit] if limit else pool

    def best(self, state: TacticsState) -> Candidate | None:
        pool = self.ranked(state, 1)
        if not pool:
            return None
        return self.engage(state, pool[0])

    def engage(self, state: TacticsState, best: Candidate) -> Candidate | None:
        """T17: when no piece has an attack in reach, march the one that gets closest to
        a firing position rather than wait; once half the stalemate count of quiet rounds
        has passed, take the best attack even when it looks risky. None (end the turn)
        when `best` only stands still and nothing else is worth doing."""
        if best.target >= 0 or state.phase == ATTACK:
            return best
        units = [state.units[state.active]] if state.phase == MOVE else list(state.commandable())
        lists = [self._lists.get(u.uid) or [] for u in units]
        attacks = [c for found in lists for c in found if c.target >= 0]
        if attacks:
            if 2 * state.quiet_rounds >= state.rules.turn.quiet_rounds:
                # half the stalemate count has passed without damage: accept the risk
                return min(attacks, key=lambda c: (-c.score, c.unit, c.cell, c.target))
            return None if state.phase == SELECT and best.score <= 0 else best
        marches = [c for found in lists for c in found if c.progress > 0]
        if not marches:
            return None if state.phase == SELECT else best
        return min(marches, key=lambda c: (-c.progress, -c.score, c.unit, c.cell))


def evaluate(state: TacticsState, seat: Seat, aggression: float) -> float:
    """Static value of a position for `seat`: own material minus the enemies', each
    piece's worth scaled by its HP share; minus (1 - aggression) times the enemy's reply
    (each enemy rested enough to act strikes once, at the piece of ours in its reach it
    hurts most; only the strongest strikes count when a turn commands a few pieces); plus
    COUNTER_WEIGHT times the same measure of our own pieces ready to strike back."""
    analysis = Analysis(state, seat, aggression, aware=True)
    total = 0.0
    mine: list[Unit] = []
    for unit in state.units:
        if unit.hp <= 0:
            continue
        worth = analysis.value(unit) * (0.5 + 0.5 * unit.hp / analysis.max_hp(unit))
        if unit.seat == seat:
            mine.append(unit)
            total += worth
        else:
            total -= worth
    reply = _best_strikes(state, analysis, analysis.zones(), mine)
    ready = [u for u in mine if analysis.ready_next(u)]
    counter = _best_strikes(state, analysis, strike_zones(state, ready), analysis.enemies)
    return total - (1.0 - aggression) * reply + COUNTER_WEIGHT * counter


def _best_strikes(
    state: TacticsState,
    analysis: Analysis,
    zones: list[tuple[Unit, frozenset[int]]],
    victims: list[Unit],
) -> float:
    """Sum over strikers of their most valuable strike on a victim within reach (only
    the strongest few when a turn commands a limited number of pieces)."""
    strikes = []
    for striker, cells in zones:
        best = 0.0
        for unit in victims:
            if unit.cell in cells:
                best = max(best, analysis.gain(unit, state.forecast(striker, unit)))
        strikes.append(best)
    strikes.sort(reverse=True)
    if state.pieces_per_turn:
        strikes = strikes[: state.pieces_per_turn]
    return sum(strikes)


class HardBot(NormalBot):
    """Expectimax over the chance outcomes of the normal bot's best candidates."""

    name = "hard"
    aware = True

    def __init__(self, aggression: float = 0.3, width: int = 8) -> None:
        super().__init__(aggression)
        self.width = width

    def best(self, state: TacticsState) -> Candidate | None:
        pool = self.ranked(state, self.width)
        if not pool:
            return None
        seat = state.current
        scored: list[tuple[float, int, Candidate]] = []
        for order, cand in enumerate(pool):
            scored.append((self.expect(state, seat, cand), order, cand))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return self.engage(state, scored[0][2])

    def expect(self, state: TacticsState, seat: Seat, cand: Candidate) -> float:
        """Expected evaluation after carrying out `cand` over its chance outcomes."""
        after = state.clone()
        unit = after.units[cand.unit]
        if cand.cell != unit.cell:
            after.occupied[unit.cell] = 0
            unit.cell = cand.cell
            after.occupied[cand.cell] = unit.uid + 1
            unit.rest = max(0, unit.rest - after.rules.rest.move_cost)
        if cand.target < 0 or cand.forecast is None:
            return self.score(after, seat)
        numbers = cand.forecast
        total = 0.0
        for result, chance in (
            ("miss", numbers.miss / 100.0),
            ("crit", numbers.crit_total / 100.0),
            ("hit", numbers.hit_chance / 100.0),
        ):
            if chance <= 0:
                continue
            branch = after.clone()
            branch.resolve(branch.units[cand.unit], branch.units[cand.target], result, numbers, [])
            total += chance * self.score(branch, seat)
        return total

    def score(self, state: TacticsState, seat: Seat) -> float:
        """The value of a position after a candidate (the static `evaluate`)."""
        return evaluate(state, seat, self.aggression)


class TacticsRandomBot(RandomBot):
    """The core random bot (uniform over the legal actions)."""


BOTS = {"random": TacticsRandomBot, "normal": NormalBot, "hard": HardBot}
