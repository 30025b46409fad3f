"""The WoS Tactics battle: a deterministic state machine following the game contract.

A turn (RULINGS T7) runs through phases: "select" (pick a piece or end the turn), "move"
(walk the selected piece, T2, or skip), "attack" (T3, or skip), then back to "select"
until the pieces-per-turn limit is used or no piece can act, when the turn passes on.
Rest (T1), the equations (T4-T6), deaths and places (T9) and the endings (T17: one army
left; 20 whole rounds without damage, or the round cap, end by score) follow the rulings;
every rule number comes from `Rules`. `apply` checks the seat's and the action's types
(core `validate_seat`, `validate_action`) and the action fully before changing anything,
so an illegal action raises `IllegalAction` and leaves the state as it was. The battle
ends with the core `GameOver` event; `outcome()` gives the places.

The config is a `TacticsConfig` (read through core `parse_config`; see that record).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from suite.core.match import (
    Action,
    Event,
    GameOver,
    IllegalAction,
    Outcome,
    Seat,
    parse_config,
    validate_action,
    validate_seat,
)
from suite.core.rng import Rng
from suite.tactics.assets.elevation import describe
from suite.tactics.assets.model import TEAM_NAMES, Pack, Piece, Weapon
from suite.tactics.rules import actions as A
from suite.tactics.rules import combat
from suite.tactics.rules.armies import (
    check_army,
    place_formation,
    random_army,
    value_army,
)
from suite.tactics.rules.config import ProfileConfig, TacticsConfig
from suite.tactics.rules.data import Rules, load_rules
from suite.tactics.rules.forecast import Forecast, Side, strike
from suite.tactics.rules.packs import (
    PackError,
    get_pack,
    get_terrain,
    pack_digest,
    playable_pieces,
    resolve_map,
)
from suite.tactics.rules.requirements import Profile, satisfied
from suite.tactics.rules.terrain import Terrain
from suite.tactics.rules.view import MapRef, TacticsView, build_view

SELECT, MOVE, ATTACK, OVER = "select", "move", "attack", "over"


class Unit:
    """A piece on the board. `cell` is the flat index; `hp` 0 means dead."""

    __slots__ = ("uid", "seat", "kind", "cell", "hp", "mp", "rest", "level", "xp", "acted")

    def __init__(
        self,
        uid: int,
        seat: Seat,
        kind: int,
        cell: int,
        hp: int,
        mp: int,
        rest: int,
        level: int = 1,
        xp: int = 0,
        acted: bool = False,
    ) -> None:
        self.uid = uid
        self.seat = seat
        self.kind = kind
        self.cell = cell
        self.hp = hp
        self.mp = mp
        self.rest = rest
        self.level = level
        self.xp = xp
        self.acted = acted

    @property
    def alive(self) -> bool:
        return self.hp > 0

    def copy(self) -> Unit:
        return Unit(
            self.uid,
            self.seat,
            self.kind,
            self.cell,
            self.hp,
            self.mp,
            self.rest,
            self.level,
            self.xp,
            self.acted,
        )

    def to_dict(self, size: int) -> dict[str, Any]:
        return {
            "uid": self.uid,
            "seat": self.seat,
            "kind": self.kind,
            "x": self.cell % size,
            "y": self.cell // size,
            "hp": self.hp,
            "mp": self.mp,
            "rest": self.rest,
            "level": self.level,
            "xp": self.xp,
            "acted": self.acted,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], size: int) -> Unit:
        return cls(
            int(d["uid"]),
            int(d["seat"]),
            int(d["kind"]),
            int(d["y"]) * size + int(d["x"]),
            int(d["hp"]),
            int(d["mp"]),
            int(d["rest"]),
            int(d["level"]),
            int(d["xp"]),
            bool(d["acted"]),
        )


def _profile(raw: ProfileConfig | None) -> Profile | None:
    return None if raw is None else Profile(raw.level, frozenset(raw.tokens), raw.free_only)


class TacticsState:
    """One battle. Build with `TacticsState.create(config, seed)` or `from_dict`."""

    game = "tactics"

    def __init__(
        self,
        config: dict[str, Any],
        pack: Pack,
        terrain: Terrain,
        map_id: int,
        rng: Rng,
    ) -> None:
        self.config = config
        self.rules: Rules = load_rules()
        self.pack = pack
        self.pieces: dict[int, Piece] = playable_pieces(pack)
        self.weapons: dict[int, Weapon] = pack.weapons
        self.terrain = terrain
        self.map_id = map_id
        self.rng = rng
        self.players = int(config["players"])
        self.pieces_per_turn = int(config["pieces_per_turn"])
        self.max_rounds = int(config["max_rounds"])
        self.max_pieces = int(config["max_pieces"])
        self.colours: list[int] = []
        self.order: list[Seat] = []
        self.turn_pos = 0
        self.round = 1
        self.units: list[Unit] = []
        self.occupied: list[int] = [0] * (terrain.size * terrain.size)
        self.phase = SELECT
        self.active = -1
        self.commanded = 0
        self.idle_turns = 0
        self.quiet_rounds = 0
        self.damage_this_round = False
        self.eliminated: list[Seat] = []
        self.places: list[tuple[Seat, ...]] | None = None
        self.end_reason = ""

    # -- creation ---------------------------------------------------------------------
    @classmethod
    def create(cls, config: Mapping[str, Any] | TacticsConfig, seed: int) -> TacticsState:
        """A new battle; ConfigError, PackError or ArmyError (all ValueError) names what
        is wrong."""
        cfg: TacticsConfig = parse_config("tactics", config)
        rules = load_rules()
        players = cfg.players
        if not 2 <= players <= len(TEAM_NAMES):
            raise ValueError(f"tactics takes 2-{len(TEAM_NAMES)} players, not {players}")
        choices = rules.turn.pieces_per_turn_choices
        per_turn = (
            rules.turn.default_pieces_per_turn
            if cfg.pieces_per_turn is None
            else cfg.pieces_per_turn
        )
        if per_turn not in choices:
            raise ValueError(f"pieces_per_turn must be one of {choices}, not {per_turn}")
        rounds = next(
            (r for r in (cfg.max_rounds, cfg.max_turns) if r is not None), rules.turn.max_rounds
        )
        if not 1 <= rounds <= rules.turn.max_rounds:
            raise ValueError(f"max_rounds must be 1-{rules.turn.max_rounds}, not {rounds}")
        limit = rules.army.max_pieces
        max_pieces = limit if cfg.max_pieces is None else cfg.max_pieces
        if not 1 <= max_pieces <= limit:
            raise ValueError(f"max_pieces must be 1-{limit}, not {max_pieces}")
        size = max_pieces if cfg.army_size is None else cfg.army_size
        if not 1 <= size <= max_pieces:
            raise ValueError(f"army_size must be 1-{max_pieces}, not {size}")
        for key, given in (("armies", cfg.armies), ("profiles", cfg.profiles)):
            if given is not None and len(given) > players:
                raise ValueError(f"{key} names {len(given)} seats for {players} players")
        root = cfg.pack
        pack = get_pack(root)
        map_id = resolve_map(pack, cfg.map, seed, players)
        host = _profile((cfg.profiles or [None])[0])
        needs = pack.maps[map_id].requirements if map_id in pack.maps else ""
        if host is not None and not satisfied(needs, host):
            raise PackError(f"map {map_id} {pack.grids[map_id].name!r}: the host needs {needs!r}")
        terrain = get_terrain(root, map_id)
        norm: dict[str, Any] = {
            "pack": root or None,
            "map": map_id,
            "players": players,
            "pieces_per_turn": per_turn,
            "max_rounds": rounds,
            "max_pieces": max_pieces,
        }
        state = cls(norm, pack, terrain, map_id, Rng(seed))
        if not state.pieces:
            raise PackError(f"{pack.root}: the pack has no playable piece")
        state._setup(cfg, size)
        return state

    def _setup(self, cfg: TacticsConfig, size: int) -> None:
        rules = self.rules
        rng = self.rng
        armies = list(cfg.armies or [])
        profiles = list(cfg.profiles or [])
        colours = list(range(len(TEAM_NAMES)))
        rng.shuffle(colours)  # seats get the remaining positions at random (T7)
        self.colours = colours[: self.players]
        starts = self.terrain.starts
        chosen: list[list[int]] = []
        for seat in range(self.players):
            profile = _profile(profiles[seat]) if seat < len(profiles) else None
            raw = armies[seat] if seat < len(armies) else None
            if raw is None or raw == "random":
                slots = random_army(self.pieces, rng, size, profile)
            elif raw == "value":
                slots = value_army(self.pieces, self.weapons, rng, size, profile)
            else:
                slots = list(raw)
            where = f"seat {seat} army"
            chosen.append(check_army(slots, self.pieces, rules, self.max_pieces, profile, where))
        free = [i for i, s in enumerate(starts) if s is not None]
        for seat, slots in enumerate(chosen):
            colour = self.colours[seat]
            if starts[colour] is None:
                colour = next(c for c in free if c not in self.colours)
                self.colours[seat] = colour
            start = starts[colour]
            assert start is not None
            cells = place_formation(
                self.terrain, start, slots, self.pieces, self.occupied, rules.army.formation_side
            )
            for pid, cell in zip(slots, cells, strict=True):
                if pid and cell is not None:
                    piece = self.pieces[pid]
                    unit = Unit(
                        len(self.units), seat, pid, cell, piece.hp, piece.mp, rules.rest.full
                    )
                    self.units.append(unit)
                    self.occupied[cell] = unit.uid + 1
        first = rng.randbelow(self.players)
        by_colour = sorted(range(self.players), key=lambda s: self.colours[s])
        at = by_colour.index(first)
        self.order = by_colour[at:] + by_colour[:at]
        self._start_turn([])

    # -- queries ------------------------------------------------------------------------
    @property
    def current(self) -> Seat:
        """The seat whose turn it is."""
        return self.order[self.turn_pos]

    def unit(self, uid: int) -> Unit:
        return self.units[uid]

    def weapon_of(self, unit: Unit) -> Weapon:
        return self.weapons[self.pieces[unit.kind].weapon]

    def alive_units(self, seat: Seat | None = None) -> list[Unit]:
        return [u for u in self.units if u.hp > 0 and (seat is None or u.seat == seat)]

    def score(self, seat: Seat) -> tuple[int, int]:
        """T9 score line: (pieces left, their total HP)."""
        mine = self.alive_units(seat)
        return len(mine), sum(u.hp for u in mine)

    def score_key(self, seat: Seat) -> tuple[int, int, int]:
        """T17 ranking by score: pieces left, then their total HP, then their total level."""
        mine = self.alive_units(seat)
        return len(mine), sum(u.hp for u in mine), sum(u.level for u in mine)

    def map_ref(self) -> MapRef:
        """The pack and map a client loads to draw this battle."""
        info = self.pack.maps.get(self.map_id)
        if info is None or info.elevation_bitmap:
            elevation = f"bitmap {info.elevation_bitmap}" if info else "flat"
        else:
            elevation = describe(info.seed, info.roughness)
        root = self.config["pack"]
        return MapRef(
            pack=root,
            version=self.pack.version,
            digest=pack_digest(root),
            map_id=self.map_id,
            name=info.name if info else str(self.map_id),
            size=self.terrain.size,
            elevation=elevation,
            starts=self.terrain.starts,
        )

    def reachable(self, unit: Unit) -> dict[int, int]:
        """Cells `unit` may move to now (flat index -> previous cell on its path)."""
        piece = self.pieces[unit.kind]
        mobility = min(piece.mobility, self.rules.movement.max_mobility)
        return self.terrain.reachable(unit.cell, piece.movement, mobility, self.occupied)

    def can_move(self, unit: Unit) -> bool:
        """Is `reachable(unit)` not empty? (Every walk starts with one step, so one step
        is all there is to look at.)"""
        piece = self.pieces[unit.kind]
        step = min(piece.mobility, self.rules.movement.max_mobility, 1)
        return bool(self.terrain.reachable(unit.cell, piece.movement, step, self.occupied))

    def shot_cells(self, unit: Unit, cell: int | None = None) -> tuple[int, ...]:
        """Cells `unit` could shoot from `cell` (default: where it stands), T3."""
        piece = self.pieces[unit.kind]
        weapon = self.weapon_of(unit)
        origin = unit.cell if cell is None else cell
        reach = min(piece.range, self.rules.movement.max_range)
        return self.terrain.shot_cells(origin, weapon.movement, piece.min_range, reach)

    def targets(self, unit: Unit, cell: int | None = None) -> list[Unit]:
        """Enemy pieces `unit` could attack from `cell` (default: where it stands)."""
        found = []
        for index in self.shot_cells(unit, cell):
            other = self.occupied[index]
            if other and self.units[other - 1].seat != unit.seat:
                found.append(self.units[other - 1])
        return found

    def can_command(self, unit: Unit) -> bool:
        """True when the current player may select `unit` now (T1, T7)."""
        if unit.hp <= 0 or unit.acted or unit.seat != self.current or self.phase != SELECT:
            return False
        if self.pieces_per_turn and self.commanded >= self.pieces_per_turn:
            return False
        if not self.pieces_per_turn and unit.rest < self.rules.rest.act_threshold:
            return False
        return self.can_move(unit) or bool(self.targets(unit))

    def commandable(self) -> list[Unit]:
        return [u for u in self.alive_units(self.current) if self.can_command(u)]

    def forecast(self, attacker: Unit, target: Unit, cell: int | None = None) -> Forecast:
        """The info popup's numbers for `attacker` (standing on `cell` when given; a move
        there costs rest first) striking `target`."""
        rest = attacker.rest
        origin = attacker.cell
        if cell is not None and cell != attacker.cell:
            rest = max(0, rest - self.rules.rest.move_cost)
            origin = cell
        in_range = target.cell in self.shot_cells(attacker, origin)
        return strike(self._side(attacker, rest), self._side(target), self.rules, in_range)

    def _side(self, unit: Unit, rest: int | None = None) -> Side:
        return Side(
            self.pieces[unit.kind],
            self.weapon_of(unit),
            unit.level,
            unit.rest if rest is None else rest,
            unit.hp,
        )

    # -- contract -----------------------------------------------------------------------
    def awaiting(self) -> frozenset[Seat]:
        return frozenset() if self.phase == OVER else frozenset({self.current})

    def legal(self, seat: Seat) -> list[Action]:
        if self.phase == OVER or seat != self.current:
            return []
        out: list[Action] = []
        if self.phase == SELECT:
            out.extend(A.Select(u.uid) for u in self.commandable())
        elif self.phase == MOVE:
            unit = self.units[self.active]
            size = self.terrain.size
            out.extend(A.Move(c % size, c // size) for c in sorted(self.reachable(unit)))
            out.append(A.SkipMove())
        else:
            unit = self.units[self.active]
            out.extend(A.Attack(t.uid) for t in self.targets(unit))
            out.append(A.SkipAttack())
        out.append(A.EndTurn())
        return out

    def outcome(self) -> Outcome | None:
        if self.places is None:
            return None
        return Outcome(self.places[0], tuple(self.places), self.end_reason)

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Validate `action` for `seat`, then perform it; IllegalAction changes nothing."""
        validate_seat(seat, self.players)
        validate_action(action, A.TacticsAction)
        if self.phase == OVER:
            raise IllegalAction("the battle is over")
        if seat != self.current:
            raise IllegalAction(f"it is seat {self.current}'s turn, not seat {seat}'s")
        events: list[Event] = []
        if isinstance(action, A.EndTurn):
            self._end_turn(events)
        elif isinstance(action, A.Select):
            self._select(action, events)
        elif isinstance(action, A.Move):
            self._move(action, events)
        elif isinstance(action, A.SkipMove):
            self._need(MOVE, "skip a move")
            events.append(A.MoveSkipped(self.active))
            self.phase = ATTACK
        elif isinstance(action, A.Attack):
            self._attack(action, events)
        elif isinstance(action, A.SkipAttack):
            self._need(ATTACK, "skip an attack")
            events.append(A.AttackSkipped(self.active))
            self._piece_done(events)
        else:
            raise IllegalAction(f"not a tactics action: {action!r}")
        return events

    def _need(self, phase: str, what: str) -> None:
        if self.phase != phase:
            raise IllegalAction(f"cannot {what} now: the turn is in its {self.phase} phase")

    def _select(self, action: A.Select, events: list[Event]) -> None:
        self._need(SELECT, "select a piece")
        if not 0 <= action.piece < len(self.units):
            raise IllegalAction(f"no piece {action.piece}")
        unit = self.units[action.piece]
        if unit.seat != self.current:
            raise IllegalAction(f"piece {unit.uid} is not yours")
        if not self.can_command(unit):
            raise IllegalAction(f"piece {unit.uid} cannot act now (dead, done, tired or stuck)")
        self.active = unit.uid
        self.phase = MOVE
        self.idle_turns = 0
        events.append(A.PieceSelected(self.current, unit.uid))

    def _move(self, action: A.Move, events: list[Event]) -> None:
        self._need(MOVE, "move")
        unit = self.units[self.active]
        if not self.terrain.inside(action.x, action.y):
            raise IllegalAction(f"({action.x}, {action.y}) is off the map")
        goal = self.terrain.index(action.x, action.y)
        parents = self.reachable(unit)
        if goal not in parents:
            raise IllegalAction(f"piece {unit.uid} cannot reach ({action.x}, {action.y})")
        path = self.terrain.path(parents, unit.cell, goal)
        self.occupied[unit.cell] = 0
        unit.cell = goal
        self.occupied[goal] = unit.uid + 1
        unit.rest = max(0, unit.rest - self.rules.rest.move_cost)
        self.phase = ATTACK
        events.append(A.PieceMoved(unit.uid, tuple(path), unit.rest))

    def _attack(self, action: A.Attack, events: list[Event]) -> None:
        self._need(ATTACK, "attack")
        unit = self.units[self.active]
        if not 0 <= action.target < len(self.units):
            raise IllegalAction(f"no piece {action.target}")
        target = self.units[action.target]
        if target.hp <= 0 or target.seat == unit.seat:
            raise IllegalAction(f"piece {target.uid} is not a living enemy")
        if target.cell not in self.shot_cells(unit):
            raise IllegalAction(f"piece {target.uid} is out of reach")
        numbers = strike(self._side(unit), self._side(target), self.rules)
        if self.rng.percent(numbers.miss):
            result = "miss"
        elif self.rng.percent(numbers.crit):
            result = "crit"
        else:
            result = "hit"
        self.resolve(unit, target, result, numbers, events)
        self._piece_done(events)

    def resolve(
        self, unit: Unit, target: Unit, result: str, numbers: Forecast, events: list[Event]
    ) -> None:
        """Apply an attack whose chance outcome is `result` (also used by lookahead)."""
        rules = self.rules
        unit.rest = max(0, unit.rest - rules.rest.attack_cost)
        points = {"miss": 0, "hit": numbers.hit_damage, "crit": numbers.crit_damage}[result]
        target.hp = max(0, target.hp - points)
        if points > 0:
            self.damage_this_round = True
        events.append(
            A.AttackResolved(
                unit.uid, target.uid, result, points, target.hp, numbers.miss, numbers.crit
            )
        )
        if result == "miss":
            return
        killed = target.hp == 0
        gained = combat.experience(unit.level, target.level, killed, rules)
        unit.xp += gained
        events.append(A.ExperienceGained(unit.uid, gained, unit.xp))
        if unit.xp >= combat.xp_to_level(unit.level, rules):
            unit.level += 1
            unit.xp = 0
            stats = combat.runtime(self.pieces[unit.kind], unit.level, rules)
            unit.hp, unit.mp, unit.rest = stats.max_hp, stats.max_mp, rules.rest.full
            events.append(A.LevelUp(unit.uid, unit.level, unit.hp, unit.mp, unit.rest))
        if killed:
            self.occupied[target.cell] = 0
            events.append(A.PieceDied(target.uid, target.seat, unit.uid))
            if not self.alive_units(target.seat):
                self._eliminate(target.seat, events)

    def _eliminate(self, seat: Seat, events: list[Event]) -> None:
        self.eliminated.append(seat)
        place = self.players - len(self.eliminated) + 1
        events.append(A.PlayerEliminated(seat, place))
        left = [s for s in self.order if s not in self.eliminated]
        if len(left) == 1:
            self._finish([tuple(left)], "one army left", events)

    def _finish(self, leaders: list[tuple[Seat, ...]], reason: str, events: list[Event]) -> None:
        self.places = leaders + [(s,) for s in reversed(self.eliminated)]
        self.end_reason = reason
        self.phase = OVER
        self.active = -1
        outcome = self.outcome()
        assert outcome is not None
        events.append(GameOver(outcome))

    def _finish_by_score(self, reason: str, events: list[Event]) -> None:
        """T17: the seats still in rank by pieces left, total HP, total level; equal
        scores share the place."""
        alive = [s for s in self.order if s not in self.eliminated]
        groups: dict[tuple[int, int, int], list[Seat]] = {}
        for seat in alive:
            groups.setdefault(self.score_key(seat), []).append(seat)
        leaders = [tuple(sorted(groups[key])) for key in sorted(groups, reverse=True)]
        self._finish(leaders, reason, events)

    def _piece_done(self, events: list[Event]) -> None:
        if self.phase == OVER:
            return
        self.units[self.active].acted = True
        self.active = -1
        self.phase = SELECT
        self.commanded += 1
        if not self.commandable():
            self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        if self.active >= 0:
            self.units[self.active].acted = True
            self.active = -1
        events.append(A.TurnEnded(self.current))
        self._next_player(events)

    def _next_player(self, events: list[Event]) -> None:
        count = len(self.order)
        while True:
            self.turn_pos += 1
            if self.turn_pos >= count:
                self.turn_pos = 0
                self.round += 1
                self.quiet_rounds = 0 if self.damage_this_round else self.quiet_rounds + 1
                self.damage_this_round = False
            if self.order[self.turn_pos] not in self.eliminated:
                break
        quiet = self.rules.turn.quiet_rounds
        if self.quiet_rounds >= quiet:
            self._finish_by_score(f"stalemate: {quiet} rounds without damage", events)
            return
        if self.round > self.max_rounds:
            self._finish_by_score(f"{self.max_rounds} rounds played", events)
            return
        self._start_turn(events)

    def _start_turn(self, events: list[Event]) -> None:
        rules = self.rules
        seat = self.current
        for unit in self.units:
            if unit.seat == seat and unit.hp > 0:
                unit.rest = min(rules.rest.full, unit.rest + rules.rest.gain_per_turn)
                unit.acted = False
        self.phase = SELECT
        self.active = -1
        self.commanded = 0
        events.append(A.TurnStarted(seat, self.round))
        if self.commandable():
            return
        # nothing can act: the turn passes; a whole round of such turns is a stalemate
        self.idle_turns += 1
        if self.idle_turns > self.players - len(self.eliminated):
            self._finish_by_score("no piece can act", events)
            return
        events.append(A.TurnEnded(seat))
        self._next_player(events)

    # -- snapshots ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        size = self.terrain.size
        return {
            "game": self.game,
            "config": dict(self.config),
            "colours": list(self.colours),
            "order": list(self.order),
            "turn_pos": self.turn_pos,
            "round": self.round,
            "phase": self.phase,
            "active": self.active,
            "commanded": self.commanded,
            "idle_turns": self.idle_turns,
            "quiet_rounds": self.quiet_rounds,
            "damage_this_round": self.damage_this_round,
            "eliminated": list(self.eliminated),
            "places": None if self.places is None else [list(p) for p in self.places],
            "end_reason": self.end_reason,
            "units": [u.to_dict(size) for u in self.units],
            "rng": self.rng.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TacticsState:
        """The state `to_dict` described; ValueError (PackError for a missing pack) when
        `d` is not one. The restored state passes `check()`."""
        try:
            config = dict(d["config"])
            root = config.get("pack")
            map_id = int(config["map"])
            pack = get_pack(root)
            if map_id not in pack.grids:
                raise PackError(f"{pack.root}: no map {map_id}")
            terrain = get_terrain(root, map_id)
            rng = Rng.from_dict(d["rng"])
            state = cls(config, pack, terrain, map_id, rng)
            state.colours = [int(c) for c in d["colours"]]
            state.order = [int(s) for s in d["order"]]
            state.turn_pos = int(d["turn_pos"])
            state.round = int(d["round"])
            state.phase = str(d["phase"])
            state.active = int(d["active"])
            state.commanded = int(d["commanded"])
            state.idle_turns = int(d["idle_turns"])
            state.quiet_rounds = int(d.get("quiet_rounds", 0))
            state.damage_this_round = bool(d.get("damage_this_round", False))
            state.eliminated = [int(s) for s in d["eliminated"]]
            places = d["places"]
            state.places = None if places is None else [tuple(int(s) for s in p) for p in places]
            state.end_reason = str(d["end_reason"])
            state.units = [Unit.from_dict(u, terrain.size) for u in d["units"]]
            state._occupy()
            state.check()
        except PackError:
            raise
        except (KeyError, TypeError, IndexError, ValueError, AssertionError) as exc:
            raise ValueError(f"not a tactics state: missing or bad {exc}") from exc
        return state

    @classmethod
    def from_view(cls, view: TacticsView) -> TacticsState:
        """An engine rebuilt from what a seat sees (bots reason on it): the random source
        is a fresh Rng(0) and pieces whose XP the view hides read 0 XP."""
        ref = view.map
        config: dict[str, Any] = {
            "pack": ref.pack,
            "map": ref.map_id,
            "players": view.players,
            "pieces_per_turn": view.pieces_per_turn,
            "max_rounds": view.rules.max_rounds,
            "max_pieces": view.rules.max_pieces,
        }
        state = cls(
            config, get_pack(ref.pack), get_terrain(ref.pack, ref.map_id), ref.map_id, Rng(0)
        )
        size = ref.size
        state.colours = [line.colour for line in view.seats]
        state.order = list(view.order)
        state.turn_pos = 0 if view.current is None else state.order.index(view.current)
        state.round = view.round
        state.phase = view.phase
        state.active = -1 if view.selected is None else view.selected
        state.commanded = view.commanded
        state.idle_turns = view.idle_turns
        state.quiet_rounds = view.quiet_rounds
        state.damage_this_round = view.damage_this_round
        state.eliminated = list(view.eliminated)
        if view.outcome is not None:
            state.places = list(view.outcome.places)
            state.end_reason = view.outcome.reason
        state.units = [
            Unit(
                p.uid,
                p.owner,
                p.kind,
                p.y * size + p.x,
                p.hp,
                p.mp,
                p.rest,
                p.level,
                p.xp or 0,
                p.acted,
            )
            for p in view.pieces
        ]
        state._occupy()
        return state

    def _occupy(self) -> None:
        self.occupied = [0] * (self.terrain.size * self.terrain.size)
        for unit in self.units:
            if unit.hp > 0:
                self.occupied[unit.cell] = unit.uid + 1

    def view(self, seat: Seat | None) -> TacticsView:
        """What `seat` (None: a spectator) sees: the whole battlefield, but not the random
        source nor the XP of pieces it does not own."""
        return build_view(self, seat)

    def check(self) -> None:
        """Assert the engine's invariants; AssertionError names the first one broken."""
        rules = self.rules
        players = self.players
        cells = self.terrain.size * self.terrain.size
        assert 2 <= players <= len(TEAM_NAMES), f"{players} players"
        assert sorted(self.order) == list(range(players)), f"turn order {self.order}"
        assert len(set(self.colours)) == players, f"colours {self.colours}"
        assert all(0 <= c < len(TEAM_NAMES) for c in self.colours), f"colours {self.colours}"
        assert 0 <= self.turn_pos < players, f"turn position {self.turn_pos}"
        assert self.phase in (SELECT, MOVE, ATTACK, OVER), f"phase {self.phase!r}"
        assert (self.phase == OVER) == (self.places is not None), "places iff over"
        assert self.quiet_rounds >= 0 and self.idle_turns >= 0, "negative counters"
        seen: dict[int, int] = {}
        for index, unit in enumerate(self.units):
            name = f"piece {unit.uid}"
            assert unit.uid == index, f"{name} at position {index}"
            assert 0 <= unit.seat < players, f"{name}: seat {unit.seat}"
            assert unit.kind in self.pieces, f"{name}: unknown piece id {unit.kind}"
            assert 0 <= unit.cell < cells, f"{name}: cell {unit.cell} off the map"
            assert unit.level >= 1, f"{name}: level {unit.level}"
            stats = combat.runtime(self.pieces[unit.kind], unit.level, rules)
            assert 0 <= unit.hp <= stats.max_hp, f"{name}: HP {unit.hp} of {stats.max_hp}"
            assert 0 <= unit.mp <= stats.max_mp, f"{name}: MP {unit.mp} of {stats.max_mp}"
            assert 0 <= unit.rest <= rules.rest.full, f"{name}: rest {unit.rest}"
            need = combat.xp_to_level(unit.level, rules)
            assert 0 <= unit.xp < need, f"{name}: XP {unit.xp} (levels up at {need})"
            if unit.hp > 0:
                bits = self.pieces[unit.kind].movement
                assert self.terrain.can_hold(unit.cell, bits), f"{name} stands on a cell it cannot"
                assert unit.cell not in seen, f"{name} shares cell {unit.cell}"
                seen[unit.cell] = unit.uid
                assert self.occupied[unit.cell] == unit.uid + 1, f"{name}: occupancy"
                assert unit.seat not in self.eliminated, f"{name}: owner eliminated"
        assert sum(1 for o in self.occupied if o) == len(seen), "occupancy has dead pieces"
        for seat in self.eliminated:
            assert not self.alive_units(seat), f"seat {seat} eliminated with pieces left"
        assert len(set(self.eliminated)) == len(self.eliminated), "seat eliminated twice"
        if self.phase == OVER:
            assert self.places is not None
            placed = sorted(s for group in self.places for s in group)
            assert placed == list(range(players)), f"places {self.places}"
            return
        assert 1 <= self.round <= self.max_rounds, f"round {self.round}"
        assert self.quiet_rounds < rules.turn.quiet_rounds, "stalemate not ended"
        current = self.current
        assert current not in self.eliminated, f"current seat {current} is eliminated"
        assert self.alive_units(current), f"current seat {current} has no piece"
        if self.pieces_per_turn:
            assert 0 <= self.commanded <= self.pieces_per_turn, f"commanded {self.commanded}"
        if self.phase == SELECT:
            assert self.active == -1, "a piece is selected in the select phase"
        else:
            assert 0 <= self.active < len(self.units), f"selected piece {self.active}"
            unit = self.units[self.active]
            assert unit.seat == current and unit.hp > 0, "selected piece not current's"
            assert not unit.acted, "selected piece already acted"

    def clone(self) -> TacticsState:
        """A cheap copy for lookahead: units and occupancy copied, pack and terrain shared."""
        other = TacticsState.__new__(TacticsState)
        other.__dict__.update(self.__dict__)
        other.units = [u.copy() for u in self.units]
        other.occupied = list(self.occupied)
        other.order = list(self.order)
        other.eliminated = list(self.eliminated)
        other.rng = Rng.from_dict(self.rng.to_dict())
        return other
