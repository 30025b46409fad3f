"""Tactics' "expert" bot: the hard bot's expectimax with the enemy's reply played out
(issue 25 item 2).

The hard bot scores each of its best candidates (a piece, a cell to stand on, a target)
over the attack's chance outcomes (miss, hit, crit) with a static evaluation, in which
every enemy strikes at once at what it hurts most. The expert looks further and wider:

- more candidates (`width`), drawn from every commandable piece;
- after each chance outcome, the enemy's reply is played out on a copy of the board: its
  pieces rested enough to act (the strongest threats first, at most the pieces a turn
  commands) each take their best move and attack by the forecast formulas, the damage
  applied as its expectation, so a piece already beaten is not hit twice, a blocked
  cell blocks, and an enemy piece that we would kill strikes no more;
- the position after that reply is scored by material (each piece's worth scaled by its
  HP share) plus our rested pieces' best counter-strikes.

Everything it reads comes from the seat's view (the engine rebuilt with `from_view`, as
every Tactics bot does) and the rules in the pack; it is deterministic for a view.
"""

from __future__ import annotations

from suite.core.match import Seat
from suite.tactics.rules.bots import (
    COUNTER_WEIGHT,
    Analysis,
    HardBot,
    _best_strikes,
    strike_zones,
)
from suite.tactics.rules.state import TacticsState, Unit

REPLY_REACH = 2
"""An enemy farther than its mobility + range + this (in steps) from every piece of ours
cannot strike next turn and is not played out."""


class ExpertBot(HardBot):
    """Expectimax over the turn's best commands with the enemy's reply played out."""

    name = "expert"
    aware = True

    def __init__(self, aggression: float = 0.3, width: int = 12) -> None:
        super().__init__(aggression, width)

    def score(self, state: TacticsState, seat: Seat) -> float:
        """Material after the enemy's reply, plus our counter-strikes (see the module
        docstring)."""
        after = state.clone()
        analysis = Analysis(after, seat, self.aggression, aware=True)
        reply(after, seat, analysis)
        mine = [u for u in after.units if u.hp > 0 and u.seat == seat]
        foes = [u for u in after.units if u.hp > 0 and u.seat != seat]
        total = 0.0
        for unit in after.units:
            if unit.hp <= 0:
                continue
            worth = analysis.value(unit) * (0.5 + 0.5 * unit.hp / analysis.max_hp(unit))
            total += worth if unit.seat == seat else -worth
        ready = [u for u in mine if analysis.ready_next(u)]
        counter = _best_strikes(after, analysis, strike_zones(after, ready), foes)
        return total + COUNTER_WEIGHT * counter


def _near(state: TacticsState, enemy: Unit, targets: list[Unit]) -> bool:
    """Could `enemy` get within striking distance of any of `targets` next turn?"""
    piece = state.pieces[enemy.kind]
    rules = state.rules.movement
    reach = min(piece.mobility, rules.max_mobility) + min(piece.range, rules.max_range)
    size = state.terrain.size
    ex, ey = enemy.cell % size, enemy.cell // size
    for unit in targets:
        dx, dy = abs(unit.cell % size - ex), abs(unit.cell // size - ey)
        if dx + dy <= reach + REPLY_REACH:
            return True
    return False


def reply(state: TacticsState, seat: Seat, analysis: Analysis) -> None:
    """Play out the enemy's reply on `state` (changed in place): the strongest strikes
    first, each enemy ready to act moving and striking once with its expected damage."""
    mine = [u for u in state.units if u.hp > 0 and u.seat == seat]
    strikers = [u for u in analysis.threats if u.hp > 0 and _near(state, u, mine)]
    options: list[tuple[float, int, int, int]] = []
    for enemy in strikers:
        best = _best_strike(state, analysis, enemy, seat)
        if best is not None:
            options.append((best[0], enemy.uid, best[1], best[2]))
    options.sort(key=lambda o: (-o[0], o[1]))
    if state.pieces_per_turn:
        options = options[: state.pieces_per_turn]
    for _gain, uid, _cell, _target in options:
        enemy = state.units[uid]
        if enemy.hp <= 0:
            continue
        again = _best_strike(state, analysis, enemy, seat)  # the board has changed
        if again is None:
            continue
        _value, cell, target_uid = again
        if cell != enemy.cell:
            state.occupied[enemy.cell] = 0
            enemy.cell = cell
            state.occupied[cell] = enemy.uid + 1
            enemy.rest = max(0, enemy.rest - state.rules.rest.move_cost)
        target = state.units[target_uid]
        numbers = state.forecast(enemy, target)
        target.hp = max(0, round(target.hp - numbers.expected_damage))
        if target.hp <= 0 or numbers.kill_chance >= 50.0:
            target.hp = 0
            state.occupied[target.cell] = 0


def _best_strike(
    state: TacticsState, analysis: Analysis, enemy: Unit, seat: Seat
) -> tuple[float, int, int] | None:
    """(gain, cell, target) of `enemy`'s most valuable move and strike on our pieces."""
    best: tuple[float, int, int] | None = None
    for cell in (enemy.cell, *sorted(state.reachable(enemy))):
        for target in state.targets(enemy, cell):
            if target.seat != seat or target.hp <= 0:
                continue
            gain = analysis.gain(target, state.forecast(enemy, target, cell))
            if best is None or gain > best[0]:
                best = (gain, cell, target.uid)
    return best
