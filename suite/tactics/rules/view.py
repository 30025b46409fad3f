"""What one seat (or a spectator) sees of a Tactics battle: the typed `TacticsView`.

The battlefield is public in WoS Tactics: every seat sees every piece, its HP, MP, rest
and level. Hidden are the random source and the experience points of other seats' pieces
(the original shows the XP meter on one's own pieces only). A view carries everything a
screen needs to draw and to offer choices: the pack and map to load (`MapRef`), the
pieces, whose turn and which phase, the selected piece with its reachable tiles (each with
the enemies it could attack from there), its attackable targets and the forecast against
every enemy, the pieces-per-turn limit and what is left of it, the score lines and the
rule numbers a screen shows (rest, costs, caps).

`build_view(state, seat)` makes one; `TacticsState.from_view` rebuilds an engine from one
(bots reason on it; another seat's XP reads 0 there).

Tiles in weapon range travel packed (`pack_area`): a hex bit mask over the diamond of
step offsets 1..r around the tile, r the selected piece's range, in `diamond(r)` order;
`TacticsView.area_at` unpacks them for a screen.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

import msgspec

from suite.core.match import Outcome, View
from suite.tactics.assets.model import TEAM_NAMES, movement_letters
from suite.tactics.rules import combat
from suite.tactics.rules.forecast import Forecast

if TYPE_CHECKING:
    from suite.tactics.rules.state import TacticsState, Unit

Cell = tuple[int, int]
_HEX = re.compile("[0-9a-f]{1,64}")


@lru_cache(maxsize=16)
def diamond(radius: int) -> tuple[Cell, ...]:
    """The (dx, dy) offsets at step distance 1..`radius`, row by row (dy, then dx): the
    bit order of a packed area."""
    return tuple(
        (dx, dy)
        for dy in range(-radius, radius + 1)
        for dx in range(-(radius - abs(dy)), radius - abs(dy) + 1)
        if dx or dy
    )


@lru_cache(maxsize=16)
def _bit_of(radius: int) -> dict[Cell, int]:
    return {offset: i for i, offset in enumerate(diamond(radius))}


def pack_area(origin: Cell, cells: Iterable[Cell], radius: int) -> str:
    """`cells` (each within `radius` steps of `origin`, origin excluded) as a hex bit mask
    over `diamond(radius)`; "0" when empty. Raises ValueError for a cell out of the diamond."""
    bit = _bit_of(radius)
    mask = 0
    for x, y in cells:
        offset = (x - origin[0], y - origin[1])
        if offset not in bit:
            raise ValueError(f"cell {(x, y)} is not 1..{radius} steps from {origin}")
        mask |= 1 << bit[offset]
    return format(mask, "x")


def unpack_area(origin: Cell, mask: str, radius: int) -> frozenset[Cell]:
    """The cells a `pack_area` mask names around `origin`; a malformed mask (not hex, or
    bits past the diamond) raises ValueError."""
    bits = int(mask, 16) if mask else 0
    offsets = diamond(radius)
    if bits < 0 or bits >> len(offsets):
        raise ValueError(f"area mask {mask!r} does not fit range {radius}")
    ox, oy = origin
    return frozenset((ox + dx, oy + dy) for i, (dx, dy) in enumerate(offsets) if bits >> i & 1)


class MapRef(msgspec.Struct, frozen=True, kw_only=True):
    """The pack and map a client loads to draw the battlefield.

    `pack` is the folder (None = the shipped pack); `version` and `digest` (SHA-256 of the
    pack's `tactics_ini.txt`, first 16 hex digits) let a client check it holds the same
    pack. `elevation` says where heights come from ("flat", "bitmap NAME" or
    "seed N roughness R"); `starts` are the (x, y) starts of red, green, yellow, blue.
    """

    pack: str | None
    version: float | None
    digest: str
    map_id: int
    name: str
    size: int
    elevation: str
    starts: tuple[tuple[int, int] | None, ...]


class PieceView(msgspec.Struct, frozen=True, kw_only=True):
    """One piece as the seat sees it; runtime stats at its level (RULINGS T4).

    `xp` and `xp_next` are None for pieces the seat does not own. `movement` is the
    letters EAFW; `can_act` is True when the current player may select it now; `boxed`
    when it is that player's, yet has no tile to move to and no enemy to attack.
    """

    uid: int
    owner: int
    kind: int
    name: str
    x: int
    y: int
    alive: bool
    hp: int
    max_hp: int
    mp: int
    max_mp: int
    rest: int
    level: int
    xp: int | None
    xp_next: int | None
    strength: int
    defense: int
    agility: int
    range: int
    min_range: int
    mobility: int
    movement: str
    weapon: str
    acted: bool
    can_act: bool
    # a piece of the player to act that can neither move nor attack (boxed in)
    boxed: bool = False


class Reach(msgspec.Struct, frozen=True):
    """A tile the selected piece may move to, the enemy pieces it could attack there and
    `area`, every tile in its weapon's range from there (T3; packed, see `pack_area`)."""

    x: int
    y: int
    targets: tuple[int, ...]
    area: str


class Odds(Forecast, frozen=True, kw_only=True):
    """The info popup's forecast of the selected piece (where it stands) on `target`."""

    target: int


class SeatLine(msgspec.Struct, frozen=True, kw_only=True):
    """A player's line: team colour (index into red, green, yellow, blue and its name) and
    score (T9: pieces left and their total HP; T17 adds their total level)."""

    seat: int
    colour: int
    team: str
    pieces_left: int
    total_hp: int
    total_level: int
    eliminated: bool


class RuleNumbers(msgspec.Struct, frozen=True, kw_only=True):
    """The rule numbers a screen shows or needs to offer choices."""

    rest_full: int
    act_threshold: int
    rest_gain: int
    move_cost: int
    attack_cost: int
    max_pieces: int
    max_rounds: int
    quiet_rounds: int


class TacticsView(View, frozen=True, kw_only=True, tag="tactics"):
    """A seat's (or, with `seat` None, a spectator's) view of the battle.

    `current` is None once the battle is over; `selected` the piece being commanded (None
    in the select phase); `reach` its tiles in the move phase; `area` the tiles in its
    weapon's range from where it stands and `targets` the enemies among them (move and
    attack phases; `area` "0" when nothing is selected); `odds` its forecast on every
    living enemy; `eliminated` lists beaten seats in the order they fell.
    `pieces_left_this_turn` is None in "all rested" mode (`pieces_per_turn` 0).
    `quiet_rounds` counts whole rounds without damage (T17) and `damage_this_round`
    whether the round under way has seen some.
    """

    seat: int | None
    map: MapRef
    players: int
    order: tuple[int, ...]
    current: int | None
    phase: str
    round: int
    selected: int | None
    pieces: tuple[PieceView, ...]
    seats: tuple[SeatLine, ...]
    eliminated: tuple[int, ...]
    commandable: tuple[int, ...]
    acted: tuple[int, ...]
    reach: tuple[Reach, ...]
    area: str
    targets: tuple[int, ...]
    odds: tuple[Odds, ...]
    pieces_per_turn: int
    commanded: int
    pieces_left_this_turn: int | None
    idle_turns: int
    quiet_rounds: int
    damage_this_round: bool
    rules: RuleNumbers
    outcome: Outcome | None

    def __post_init__(self) -> None:
        """Refuse (ValueError; msgspec.ValidationError when decoding) an area mask that is
        not lower-case hex or names bits past the selected piece's range."""
        piece = next((p for p in self.pieces if p.uid == self.selected), None)
        size = len(diamond(piece.range)) if piece is not None and 0 <= piece.range <= 64 else 0
        for mask in (self.area, *(r.area for r in self.reach)):
            if not _HEX.fullmatch(mask) or int(mask, 16).bit_length() > size:
                raise ValueError(f"area mask {mask!r} does not fit the selected piece's range")

    def area_at(self, cell: Cell | None = None) -> frozenset[Cell]:
        """The tiles in the selected piece's weapon range from `cell` (a reachable tile;
        None: where it stands); empty when nothing is selected or `cell` is not reachable."""
        piece = next((p for p in self.pieces if p.uid == self.selected), None)
        if piece is None:
            return frozenset()
        here = (piece.x, piece.y)
        if cell is None or cell == here:
            return unpack_area(here, self.area, piece.range)
        spot = next((r for r in self.reach if (r.x, r.y) == cell), None)
        return frozenset() if spot is None else unpack_area(cell, spot.area, piece.range)


def _piece(state: TacticsState, unit: Unit, seat: int | None, can_act: bool) -> PieceView:
    piece = state.pieces[unit.kind]
    stats = combat.runtime(piece, unit.level, state.rules)
    own = seat is not None and unit.seat == seat
    x, y = state.terrain.cell(unit.cell)
    return PieceView(
        uid=unit.uid,
        owner=unit.seat,
        kind=unit.kind,
        name=piece.name,
        x=x,
        y=y,
        alive=unit.hp > 0,
        hp=unit.hp,
        max_hp=stats.max_hp,
        mp=unit.mp,
        max_mp=stats.max_mp,
        rest=unit.rest,
        level=unit.level,
        xp=unit.xp if own else None,
        xp_next=combat.xp_to_level(unit.level, state.rules) if own else None,
        strength=stats.strength,
        defense=stats.defense,
        agility=stats.agility,
        range=min(piece.range, state.rules.movement.max_range),
        min_range=piece.min_range,
        mobility=min(piece.mobility, state.rules.movement.max_mobility),
        movement=movement_letters(piece.movement),
        weapon=state.weapon_of(unit).name,
        acted=unit.acted,
        can_act=can_act,
        boxed=not can_act and _boxed(state, unit),
    )


def _boxed(state: TacticsState, unit: Unit) -> bool:
    """A live, not yet commanded piece of the player to act that can neither move nor
    attack where it stands (the engine does not let it be selected; a piece it lets be
    selected is never boxed, so `_piece` does not ask)."""
    if unit.hp <= 0 or unit.acted or unit.seat != state.current:
        return False
    return not state.can_move(unit) and not state.targets(unit)


def _odds(state: TacticsState, unit: Unit) -> tuple[Odds, ...]:
    out = []
    for other in state.units:
        if other.hp <= 0 or other.seat == unit.seat:
            continue
        numbers = state.forecast(unit, other)
        out.append(Odds(target=other.uid, **msgspec.structs.asdict(numbers)))
    return tuple(out)


def _area(state: TacticsState, unit: Unit, cell: int) -> str:
    """The tiles `unit`'s weapon reaches from `cell`, packed."""
    radius = min(state.pieces[unit.kind].range, state.rules.movement.max_range)
    terrain = state.terrain
    cells = (terrain.cell(c) for c in state.shot_cells(unit, cell))
    return pack_area(terrain.cell(cell), cells, radius)


def _targets(state: TacticsState, unit: Unit, cell: int) -> tuple[int, ...]:
    return tuple(t.uid for t in state.targets(unit, cell))


def build_view(state: TacticsState, seat: int | None) -> TacticsView:
    """The view of `seat` (None: a spectator); see the module docstring."""
    from suite.tactics.rules.state import MOVE, OVER

    rules = state.rules
    over = state.phase == OVER
    commandable = () if over else tuple(u.uid for u in state.commandable())
    able = set(commandable)
    selected = None if state.active < 0 else state.units[state.active]
    reach: tuple[Reach, ...] = ()
    area = "0"
    targets: tuple[int, ...] = ()
    odds: tuple[Odds, ...] = ()
    if selected is not None:
        if state.phase == MOVE:
            reach = tuple(
                Reach(
                    *state.terrain.cell(c), _targets(state, selected, c), _area(state, selected, c)
                )
                for c in sorted(state.reachable(selected))
            )
        area = _area(state, selected, selected.cell)
        targets = _targets(state, selected, selected.cell)
        odds = _odds(state, selected)
    limit = state.pieces_per_turn
    seats = []
    for s in range(state.players):
        left, hp, levels = state.score_key(s)
        colour = state.colours[s]
        seats.append(
            SeatLine(
                seat=s,
                colour=colour,
                team=TEAM_NAMES[colour],
                pieces_left=left,
                total_hp=hp,
                total_level=levels,
                eliminated=s in state.eliminated,
            )
        )
    return TacticsView(
        seat=seat,
        map=state.map_ref(),
        players=state.players,
        order=tuple(state.order),
        current=None if over else state.current,
        phase=state.phase,
        round=state.round,
        selected=None if selected is None else selected.uid,
        pieces=tuple(_piece(state, u, seat, u.uid in able) for u in state.units),
        seats=tuple(seats),
        eliminated=tuple(state.eliminated),
        commandable=commandable,
        acted=tuple(u.uid for u in state.units if u.acted and u.hp > 0),
        reach=reach,
        area=area,
        targets=targets,
        odds=odds,
        pieces_per_turn=limit,
        commanded=state.commanded,
        pieces_left_this_turn=max(0, limit - state.commanded) if limit else None,
        idle_turns=state.idle_turns,
        quiet_rounds=state.quiet_rounds,
        damage_this_round=state.damage_this_round,
        rules=RuleNumbers(
            rest_full=rules.rest.full,
            act_threshold=rules.rest.act_threshold,
            rest_gain=rules.rest.gain_per_turn,
            move_cost=rules.rest.move_cost,
            attack_cost=rules.rest.attack_cost,
            max_pieces=state.max_pieces,
            max_rounds=state.max_rounds,
            quiet_rounds=rules.turn.quiet_rounds,
        ),
        outcome=state.outcome(),
    )
