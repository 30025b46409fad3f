"""Typed actions a seat sends and the events the engine reports (msgspec, tagged by kind).

A turn: `Select` a piece, then `Move` it or `SkipMove`, then `Attack` or `SkipAttack`;
repeat up to the pieces-per-turn limit; `EndTurn` is legal at any time. A battle's
events end with the core `GameOver` (see `TacticsEvent`).
"""

from __future__ import annotations

from suite.core.match import Action, Event, GameOver, Seat


class Select(Action, frozen=True, tag="select"):
    """Command piece `piece` (its uid) next."""

    piece: int


class Move(Action, frozen=True, tag="move"):
    """Walk the selected piece to cell (x, y)."""

    x: int
    y: int


class SkipMove(Action, frozen=True, tag="skip_move"):
    """Leave the selected piece where it stands and go on to its attack."""


class Attack(Action, frozen=True, tag="attack"):
    """The selected piece attacks the enemy piece `target` (its uid)."""

    target: int


class SkipAttack(Action, frozen=True, tag="skip_attack"):
    """The selected piece does not attack; its command is over."""


class EndTurn(Action, frozen=True, tag="end_turn"):
    """End the turn now (a selected piece's command ends with it)."""


TacticsAction = Select | Move | SkipMove | Attack | SkipAttack | EndTurn


class TurnStarted(Event, frozen=True, tag="turn_started"):
    seat: Seat
    round: int


class PieceSelected(Event, frozen=True, tag="piece_selected"):
    seat: Seat
    piece: int


class PieceMoved(Event, frozen=True, tag="piece_moved"):
    """`path` lists the cells walked, first the start, last the goal."""

    piece: int
    path: tuple[tuple[int, int], ...]
    rest: int


class MoveSkipped(Event, frozen=True, tag="move_skipped"):
    piece: int


class AttackResolved(Event, frozen=True, tag="attack_resolved"):
    """`result` is "miss", "hit" or "crit"; `damage` the points dealt."""

    attacker: int
    target: int
    result: str
    damage: int
    target_hp: int
    miss_chance: float
    crit_chance: float


class AttackSkipped(Event, frozen=True, tag="attack_skipped"):
    piece: int


class ExperienceGained(Event, frozen=True, tag="experience_gained"):
    piece: int
    xp: int
    total: int


class LevelUp(Event, frozen=True, tag="level_up"):
    """The piece reached `level`; HP, MP and rest were refilled."""

    piece: int
    level: int
    hp: int
    mp: int
    rest: int


class PieceDied(Event, frozen=True, tag="piece_died"):
    piece: int
    seat: Seat
    killer: int


class TurnEnded(Event, frozen=True, tag="turn_ended"):
    seat: Seat


class PlayerEliminated(Event, frozen=True, tag="player_eliminated"):
    seat: Seat
    place: int


TacticsEvent = (
    TurnStarted
    | PieceSelected
    | PieceMoved
    | MoveSkipped
    | AttackResolved
    | AttackSkipped
    | ExperienceGained
    | LevelUp
    | PieceDied
    | TurnEnded
    | PlayerEliminated
    | GameOver
)
"""Every event a battle reports; it ends with the core `GameOver`."""
