"""Armies (RULINGS T8): checking a chosen army, drawing a random one, and standing it in
its formation around the start tile.

An army is a list of up to `side * side` formation slots (row by row, top-left first),
each a piece id or 0 for an empty slot; at most `max_pieces` pieces, each kind at most its
max#, and, when a profile is given, only kinds whose requirement it meets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from suite.core.rng import Rng
from suite.tactics.assets.model import Piece, Weapon
from suite.tactics.rules.data import Rules
from suite.tactics.rules.requirements import Profile, satisfied
from suite.tactics.rules.terrain import Terrain


class ArmyError(ValueError):
    """An army that breaks T8 (the message names the seat and the piece)."""


def allowed(piece: Piece, profile: Profile | None) -> bool:
    """True when `profile` (None = unchecked) may field `piece`; malformed requirements
    never hold."""
    return profile is None or satisfied(piece.requirements, profile)


def check_army(
    slots: Sequence[int],
    pieces: dict[int, Piece],
    rules: Rules,
    max_pieces: int,
    profile: Profile | None = None,
    who: str = "army",
) -> list[int]:
    """The army's slots padded to the full formation; ArmyError says what is wrong."""
    side = rules.army.formation_side
    if len(slots) > side * side:
        raise ArmyError(f"{who}: {len(slots)} slots, a formation has {side * side}")
    filled = [int(s) for s in slots if s]
    if not filled:
        raise ArmyError(f"{who}: an army needs at least one piece")
    if len(filled) > max_pieces:
        raise ArmyError(f"{who}: {len(filled)} pieces, at most {max_pieces} allowed")
    for pid, count in Counter(filled).items():
        piece = pieces.get(pid)
        if piece is None:
            raise ArmyError(f"{who}: no playable piece {pid}")
        if count > piece.max_count:
            raise ArmyError(f"{who}: {count} x {piece.name}, max# is {piece.max_count}")
        if not allowed(piece, profile):
            raise ArmyError(f"{who}: {piece.name} needs {piece.requirements!r}")
    return [int(s) for s in slots] + [0] * (side * side - len(slots))


def random_army(
    pieces: dict[int, Piece], rng: Rng, size: int, profile: Profile | None = None
) -> list[int]:
    """`size` pieces drawn uniformly among the kinds still allowed (max#, requirements)."""
    counts: Counter[int] = Counter()
    army: list[int] = []
    for _ in range(size):
        kinds = [
            pid
            for pid, piece in pieces.items()
            if counts[pid] < piece.max_count and allowed(piece, profile)
        ]
        if not kinds:
            break
        pid = rng.choice(kinds)
        counts[pid] += 1
        army.append(pid)
    return army


def piece_worth(piece: Piece, weapon: Weapon, median_defense: float) -> float:
    """A simple value model: damage a piece deals per attack against a typical defence
    times the hits it can take, scaled up by how far it moves and shoots."""
    output = weapon.damage * piece.strength / max(median_defense, 1.0)
    toughness = piece.hp * max(piece.defense, 1)
    return output * toughness * (1 + 0.1 * (piece.mobility + piece.range + piece.agility))


def value_army(
    pieces: dict[int, Piece],
    weapons: dict[int, Weapon],
    rng: Rng,
    size: int,
    profile: Profile | None = None,
) -> list[int]:
    """`size` pieces chosen by `piece_worth`, best first within max# and requirements;
    kinds of equal worth are ordered at random."""
    defenses = sorted(p.defense for p in pieces.values())
    median = float(defenses[len(defenses) // 2]) if defenses else 1.0
    kinds = [pid for pid, piece in pieces.items() if allowed(piece, profile)]
    rng.shuffle(kinds)
    kinds.sort(key=lambda pid: -piece_worth(pieces[pid], weapons[pieces[pid].weapon], median))
    army: list[int] = []
    for pid in kinds:
        take = min(pieces[pid].max_count, size - len(army))
        army.extend([pid] * take)
        if len(army) >= size:
            break
    return army


def place_formation(
    terrain: Terrain,
    start: tuple[int, int],
    slots: Sequence[int],
    pieces: dict[int, Piece],
    occupied: list[int],
    side: int,
) -> list[int | None]:
    """Cells (flat indices) for each slot, or None for empty slots. A slot whose cell
    cannot hold the piece or is taken moves to the nearest free cell that can (step
    distance, then row, then column). Marks `occupied` with slot number + 1 as it goes;
    a piece with nowhere to stand gets None."""
    half = side // 2
    sx, sy = start
    cells: list[int | None] = []
    for number, pid in enumerate(slots):
        if not pid:
            cells.append(None)
            continue
        bits = pieces[pid].movement
        x, y = sx + number % side - half, sy + number // side - half
        cell = _nearest(terrain, x, y, bits, occupied)
        if cell is not None:
            occupied[cell] = number + 1
        cells.append(cell)
    return cells


def _nearest(terrain: Terrain, x: int, y: int, bits: int, occupied: list[int]) -> int | None:
    size = terrain.size
    for distance in range(2 * size):
        ring = sorted(
            (y + dy, x + dx)
            for dy in range(-distance, distance + 1)
            for dx in (distance - abs(dy), abs(dy) - distance)
        )
        for cy, cx in dict.fromkeys(ring):
            if terrain.inside(cx, cy):
                cell = terrain.index(cx, cy)
                if terrain.can_hold(cell, bits) and not occupied[cell]:
                    return cell
    return None
