"""What a click means and what lights up, from the seat's view and legal actions only
(pure functions, no drawing): the interaction of the original's Book of Tactics help.

- select phase: own pieces that may act are outlined; clicking one selects it;
- move phase: reachable tiles purple, the one under the mouse white with an orange
  outline round every tile the piece could attack from there (the enemies among them
  filled orange); pointing at the piece itself shows the same from where it stands;
  clicking a purple tile walks there, clicking the piece itself stays (Skip Move);
- attack phase: every tile in weapon range glows orange, the enemies on them brighter;
  clicking one attacks it; with none, the piece itself glows too and clicking it or any
  orange tile ends its command (Skip Attack), as in the original.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from suite.core.match import Action
from suite.tactics.rules.actions import Attack, EndTurn, Move, Select, SkipAttack, SkipMove
from suite.tactics.rules.view import PieceView, TacticsView
from suite.tactics.screens.field import Marks

Cell = tuple[int, int]


@dataclass(frozen=True)
class Choices:
    """The legal actions of the seat to move, sorted for the screen."""

    selects: frozenset[int]
    moves: frozenset[Cell]
    attacks: frozenset[int]
    skip_move: bool
    skip_attack: bool
    end_turn: bool

    @staticmethod
    def of(legal: Sequence[Action]) -> Choices:
        return Choices(
            selects=frozenset(a.piece for a in legal if isinstance(a, Select)),
            moves=frozenset((a.x, a.y) for a in legal if isinstance(a, Move)),
            attacks=frozenset(a.target for a in legal if isinstance(a, Attack)),
            skip_move=any(isinstance(a, SkipMove) for a in legal),
            skip_attack=any(isinstance(a, SkipAttack) for a in legal),
            end_turn=any(isinstance(a, EndTurn) for a in legal),
        )


NONE = Choices.of(())


def piece_at(view: TacticsView, cell: Cell | None) -> PieceView | None:
    """The living piece on `cell`."""
    if cell is None:
        return None
    return next((p for p in view.pieces if p.alive and (p.x, p.y) == cell), None)


def piece(view: TacticsView, uid: int | None) -> PieceView | None:
    return next((p for p in view.pieces if p.uid == uid), None)


def click_action(view: TacticsView, choices: Choices, cell: Cell) -> Action | None:
    """The action a left click on `cell` sends (None: the click means nothing now)."""
    at = piece_at(view, cell)
    if at is not None and at.uid in choices.selects:
        return Select(at.uid)
    if cell in choices.moves:
        return Move(*cell)
    if at is not None and at.uid in choices.attacks:
        return Attack(at.uid)
    if at is not None and at.uid == view.selected:
        if choices.skip_move:
            return SkipMove()
        if choices.skip_attack:
            return SkipAttack()
    if choices.skip_attack and not choices.attacks and cell in view.area_at():
        return SkipAttack()
    return None


def highlights(view: TacticsView, hover: Cell | None, commanding: bool) -> Marks:
    """The cells to light up; `commanding` is False while others move or blows play
    (then only the tile under the mouse is marked)."""
    cells: dict[str, frozenset[Cell]] = {}
    if hover is not None:
        cells["cursor"] = frozenset({hover})
    if not commanding:
        return Marks(cells)
    selected = piece(view, view.selected)
    if selected is not None:
        cells["selected"] = frozenset({(selected.x, selected.y)})
    pos = {p.uid: (p.x, p.y) for p in view.pieces if p.alive}
    if view.phase == "move":
        cells["reach"] = frozenset((r.x, r.y) for r in view.reach)
        hovered = next((r for r in view.reach if (r.x, r.y) == hover), None)
        if hovered is not None:
            cells["hover"] = frozenset({(hovered.x, hovered.y)})
            cells["outline"] = view.area_at((hovered.x, hovered.y))
            cells["threat"] = frozenset(pos[t] for t in hovered.targets if t in pos)
        elif selected is not None and hover == (selected.x, selected.y):
            cells["outline"] = view.area_at()
            cells["threat"] = frozenset(pos[t] for t in view.targets if t in pos)
    elif view.phase == "attack":
        cells["zone"] = view.area_at()
        cells["target"] = frozenset(pos[t] for t in view.targets if t in pos)
        if not cells["target"] and selected is not None:
            cells["target"] = frozenset({(selected.x, selected.y)})
    elif view.phase == "select":
        cells["ready"] = frozenset(pos[u] for u in view.commandable if u in pos)
    return Marks(cells)
