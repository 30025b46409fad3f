"""`WokState`: the WoK game contract with simultaneous orders and ready flags.

Each living seat submits an order set for each of its colours (`SubmitOrders`), may
revise it until it marks itself ready, and the turn runs as soon as every living seat is
ready (or when the turn clock allows "run now", see `suite.wok.rules.clock`). Ready locks
the orders until `SetReady(False)`. `awaiting()` is the set of living seats not yet
ready. Robots are played by the engine. Views are typed (`suite.wok.rules.views`).
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from suite.core.board import Board
from suite.core.match import (
    Action,
    ConfigError,
    Event,
    GameOver,
    IllegalAction,
    Outcome,
    validate_action,
    validate_seat,
)
from suite.core.rng import Rng
from suite.wok.rules import events as ev
from suite.wok.rules.config import WokConfig, read_config
from suite.wok.rules.legality import SeatFacts, refusal
from suite.wok.rules.maps import resolve_map
from suite.wok.rules.orders import (
    DeclareAlly,
    OrderSet,
    Quit,
    SetReady,
    SubmitOrders,
    Vote,
    WokAction,
)
from suite.wok.rules.phases import TurnContext, TurnLog, neutral_gain
from suite.wok.rules.ruleset import RuleSet, StartFigures, Variant, load_ruleset
from suite.wok.rules.space import WokActionSpace
from suite.wok.rules.turn import (
    decide_end,
    draw_oop,
    end_by_vote,
    run_turn,
    seat_alive,
)
from suite.wok.rules.viewing import mutual_ally, report_record, seat_view, spectator_view, wok_map
from suite.wok.rules.views import Report, WokMap, WokSpectatorView, WokView
from suite.wok.rules.world import NEUTRAL, TROOPS, Colour, World

LETTERS = "ABC"


class WokState:
    """One WoK match. See the module docstring for the order flow."""

    game = "wok"

    def __init__(
        self,
        *,
        rules: RuleSet,
        variant: Variant,
        config: WokConfig,
        board: Board,
        world: World,
        rng: Rng,
        seat_colours: list[list[int]],
    ) -> None:
        self.rules = rules
        self.variant = variant
        self.config = config
        self.board = board
        self.world = world
        self.rng = rng
        self.seat_colours = seat_colours
        self.seat_quit = [False] * len(seat_colours)
        self.missed = [0] * len(seat_colours)
        self.turn = 0
        self.oop: list[int] = []
        self.ready: set[int] = set()
        self.submitted: set[int] = set()
        self.votes: set[int] = set()
        self.orders: dict[int, OrderSet] = {}
        self.province_intel: dict[int, dict[int, dict[str, Any]]] = {}
        self.player_intel: dict[int, dict[int, dict[str, Any]]] = {}
        self.reports: dict[int, dict[str, Any]] = {}
        self.top_ten: list[dict[str, Any]] = []
        self.outcome_: Outcome | None = None
        self.clock: dict[str, Any] = {
            "preset": config.clock,
            "turn": None,
            "deadline_at": None,
            "poked_at": None,
        }
        self.max_turns = config.max_turns or rules.end.default_max_turns
        self.started_colours = len(world.colours)
        self._map: WokMap | None = None
        self._report_cache: dict[int, tuple[int, Report]] = {}

    # -- the contract -------------------------------------------------------
    def awaiting(self) -> frozenset[int]:
        if self.outcome_ is not None:
            return frozenset()
        return frozenset(
            s for s in range(len(self.seat_colours)) if seat_alive(self, s) and s not in self.ready
        )

    def living_seats(self) -> list[int]:
        return [s for s in range(len(self.seat_colours)) if seat_alive(self, s)]

    def seat_names(self) -> list[str]:
        """The seats' names (from the config)."""
        return [self.config.names[s] for s in range(len(self.seat_colours))]

    def legal(self, seat: int) -> WokActionSpace | list[Action]:
        """The seat's action space (built from its view only); [] when it cannot act.

        A ready seat is not awaited but keeps a space: it may unready, vote or quit,
        and its space refuses new orders until it is unready.
        """
        if (
            type(seat) is not int
            or not 0 <= seat < len(self.seat_colours)
            or self.outcome_ is not None
            or not seat_alive(self, seat)
        ):
            return []
        return WokActionSpace(seat_view(self, seat))

    def facts(self, seat: int) -> SeatFacts:
        """What `refusal` needs to know about `seat` (all visible in its view)."""
        w = self.world
        return SeatFacts(
            rules=self.rules,
            provinces=w.n,
            over=self.outcome_ is not None,
            alive=seat_alive(self, seat),
            ready=seat in self.ready,
            colours=tuple(self.seat_colours[seat]),
            colour_names=tuple(c.name for c in w.colours),
            living=frozenset(i for i, c in enumerate(w.colours) if c.alive),
            alliances=self.alliances_allowed(),
        )

    def refusal(self, seat: int, action: Action) -> str | None:
        """Why `action` by `seat` is refused now, or None when apply() would accept it."""
        try:
            validate_seat(seat, len(self.seat_colours))
            validate_action(action, WokAction)
        except IllegalAction as exc:
            return exc.reason
        return refusal(self.facts(seat), action)

    def alliances_allowed(self) -> bool:
        """W13; WoK IV: once `quits_end_alliances` of the `full_game` seats are empty or
        quit, only the last one standing wins."""
        end = self.rules.end
        if end.quits_end_alliances:
            gone = max(0, end.full_game - self.started_colours) + sum(self.seat_quit)
            if gone >= end.quits_end_alliances:
                return False
        return self.variant.alliances and self.started_colours >= end.alliance_min_players

    def apply(self, seat: int, action: Action) -> list[Event]:
        validate_seat(seat, len(self.seat_colours))
        validate_action(action, WokAction)
        problem = refusal(self.facts(seat), action)
        if problem is not None:
            raise IllegalAction(problem)
        out: list[Event] = []
        if isinstance(action, SubmitOrders):
            for os in action.sets:
                self.orders[os.colour] = os
            self.submitted.add(seat)
            self.missed[seat] = 0  # RULINGS W12: entering orders is not a missed turn
            self._set_ready(seat, action.ready)
            colours = tuple(os.colour for os in action.sets)
            out.append(ev.OrdersAccepted(seat, colours, action.ready))
        elif isinstance(action, SetReady):
            self._set_ready(seat, action.ready)
            out.append(ev.ReadyChanged(seat, action.ready))
        elif isinstance(action, Vote):
            (self.votes.add if action.end else self.votes.discard)(seat)
            out.append(ev.VoteCast(seat, action.end))
            if all(s in self.votes for s in self.living_seats()):
                self.outcome_ = end_by_vote(self)
                out.append(GameOver(self.outcome_))
                return out
        elif isinstance(action, DeclareAlly):
            out += self._declare(action)
        elif isinstance(action, Quit):
            out += self.quit_seat(seat, "quit")
            return out
        if self.outcome_ is None and not self.awaiting():
            out += self.run()
        return out

    def _declare(self, action: DeclareAlly) -> list[Event]:
        """Record a declaration; only a change of a mutual alliance is a public event."""
        w = self.world
        touched = {action.colour, w.colours[action.colour].ally, action.partner} - {None}
        before = {c: mutual_ally(w, c) for c in touched if c is not None}
        w.colours[action.colour].ally = action.partner
        out: list[Event] = []
        for c in sorted(before):
            after = mutual_ally(w, c)
            if after != before[c]:
                partner = after if after is not None else before[c]
                if partner is not None and c < partner:
                    out.append(ev.AllianceChanged(c, partner, after is not None))
        return out

    def _set_ready(self, seat: int, ready: bool) -> None:
        if ready:
            self.ready.add(seat)
            self.missed[seat] = 0
        else:
            self.ready.discard(seat)

    def quit_seat(self, seat: int, reason: str) -> list[Event]:
        """The seat leaves: its colours keep their provinces and give no more orders."""
        self.seat_quit[seat] = True
        for c in self.seat_colours[seat]:
            self.world.colours[c].quit = True
            self.orders.pop(c, None)
        self.ready.discard(seat)
        out: list[Event] = [ev.SeatQuit(seat, reason)]
        self.outcome_ = decide_end(self)
        if self.outcome_ is not None:
            out.append(GameOver(self.outcome_))
        elif not self.awaiting():
            out += self.run()
        return out

    def run(self) -> list[Event]:
        """Run the current turn now with the orders entered so far (W12 run-now too).

        A living seat that entered no orders and was not ready this turn has missed it;
        after `missed_turns_to_quit` misses in a row it quits.
        """
        turn = self.turn
        out: list[Event] = []
        for s in self.living_seats():
            if s not in self.submitted and s not in self.ready:
                self.missed[s] += 1
        log = run_turn(self)
        self.top_ten = next(iter(self.reports.values()), {}).get("top_ten", [])
        self._report_cache.clear()
        out += _turn_events(log)
        out.append(ev.TurnRan(turn, tuple(self.oop)))
        self.ready.clear()
        self.submitted.clear()
        self.votes.clear()
        self.orders.clear()
        self.clock.update(turn=None, deadline_at=None, poked_at=None)
        if self.outcome_ is None:
            for s in self.living_seats():
                if self.missed[s] >= self.rules.clock_rules.missed_turns_to_quit:
                    out += self.quit_seat(s, f"missed {self.missed[s]} turns in a row")
                    if self.outcome_ is not None:
                        return out
        if self.outcome_ is not None:
            out.append(GameOver(self.outcome_))
        return out

    def outcome(self) -> Outcome | None:
        return self.outcome_

    def check(self) -> None:
        """Assert the invariants: caps (W1), owners, colour life, seats and orders."""
        w, r = self.world, self.rules
        c = r.caps
        ncol = len(w.colours)
        for name in ("owner", "pop", "wok", "arm", "lev", "dfn", "mis", "spy", "aim", "home"):
            assert len(getattr(w, name)) == w.n, f"province list {name} has the wrong length"
        for p in range(w.n):
            assert 0 <= w.pop[p] <= c.pop, f"province {p}: POP {w.pop[p]} outside 0..{c.pop}"
            assert 0 <= w.wok[p] <= c.wok, f"province {p}: WOK {w.wok[p]} outside 0..{c.wok}"
            troops = w.troops(p)
            assert 0 <= troops <= c.arm, f"province {p}: troops {troops} outside 0..{c.arm}"
            for kind in TROOPS:
                n = w.units(kind)[p]
                assert n >= 0, f"province {p}: {kind} {n} is negative"
            assert c.lev_min <= w.lev[p] <= c.lev_max, f"province {p}: LEV {w.lev[p]} out of range"
            assert 0 <= w.dfn[p] <= c.def_tenths, f"province {p}: DEF {w.dfn[p] / 10} out of range"
            assert 0 <= w.mis[p] <= c.mis, f"province {p}: MIS {w.mis[p]} outside 0..{c.mis}"
            assert 0 <= w.spy[p] <= c.spy, f"province {p}: SPY {w.spy[p]} outside 0..{c.spy}"
            assert w.owner[p] == NEUTRAL or 0 <= w.owner[p] < ncol, f"province {p}: bad owner"
            assert w.aim[p] in r.working.aims, f"province {p}: unknown aim {w.aim[p]!r}"
            assert 0.0 <= w.carry[p] < 1.0, f"province {p}: carried fraction {w.carry[p]}"
        owners = set(w.owner)
        for i, col in enumerate(w.colours):
            assert c.eff_min <= col.eff <= c.eff_max, f"colour {i}: EFF {col.eff} out of range"
            assert col.gold >= 0 and col.tech >= 0, f"colour {i}: negative gold or tech"
            assert col.tech == r.bound_tech(col.tech), f"colour {i}: tech {col.tech} over the cap"
            assert col.wood >= 0, f"colour {i}: negative WOOD"
            assert col.alive == (i in owners), (
                f"colour {i}: alive={col.alive} but owns {i in owners}"
            )
            assert col.alive or col.rip_turn is not None, f"colour {i}: out without a RIP turn"
        seats = len(self.seat_colours)
        assert all(0 <= s < seats for s in self.ready | self.submitted | self.votes), "bad seat"
        for s in self.ready:
            assert seat_alive(self, s), f"seat {s} is ready but out of the game"
        for col_i in self.orders:
            assert w.colours[col_i].seat is not None, f"orders held for robot colour {col_i}"
            assert not w.colours[col_i].quit, f"orders held for colour {col_i} that quit"
        if self.outcome_ is None:
            alive = {i for i, col in enumerate(w.colours) if col.alive}
            assert set(self.oop) == alive, "the Order of Play is not the living colours"
        assert len(self.missed) == seats and len(self.seat_quit) == seats, "seat lists differ"

    # -- views --------------------------------------------------------------
    def view(self, seat: int | None) -> WokView | WokSpectatorView:
        """Only what `seat` may see (`suite.wok.rules.views`); None is a spectator."""
        if seat is None:
            return spectator_view(self)
        validate_seat(seat, len(self.seat_colours))
        return seat_view(self, seat)

    def map_view(self) -> WokMap:
        """The board's geometry for views (built once)."""
        if self._map is None:
            self._map = wok_map(self.world, self.board.name)
        return self._map

    def report_view(self, colour: int) -> Report:
        """The colour's latest report as a record (converted once per turn)."""
        cached = self._report_cache.get(colour)
        if cached is None or cached[0] != self.turn:
            cached = (self.turn, report_record(self.reports[colour]))
            self._report_cache[colour] = cached
        return cached[1]

    # -- serialisation ------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        w = self.world
        return {
            "game": self.game,
            "version": 2,
            "rules": self.rules.name,
            "variant": self.variant.name,
            "config": msgspec.to_builtins(self.config),
            "board": self.board.to_json(),
            "provinces": w.provinces_dict(),
            "colours": [c.to_dict() for c in w.colours],
            "seat_colours": [list(s) for s in self.seat_colours],
            "seat_quit": list(self.seat_quit),
            "missed": list(self.missed),
            "turn": self.turn,
            "oop": list(self.oop),
            "ready": sorted(self.ready),
            "submitted": sorted(self.submitted),
            "votes": sorted(self.votes),
            "orders": {str(c): msgspec.to_builtins(o) for c, o in sorted(self.orders.items())},
            "province_intel": _str_keys(self.province_intel),
            "player_intel": _str_keys(self.player_intel),
            "reports": {str(c): copy.deepcopy(r) for c, r in sorted(self.reports.items())},
            "top_ten": copy.deepcopy(self.top_ten),
            "outcome": None if self.outcome_ is None else msgspec.to_builtins(self.outcome_),
            "rng": self.rng.to_dict(),
            "clock": dict(self.clock),
            "max_turns": self.max_turns,
            "started_colours": self.started_colours,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> WokState:
        """Restore `to_dict()` output; ValueError names what is missing or malformed."""
        try:
            return cls._from_dict(d)
        except KeyError as exc:
            raise ValueError(f"not a WoK save: missing {exc.args[0]!r}") from exc
        except (TypeError, AttributeError, msgspec.ValidationError) as exc:
            raise ValueError(f"not a WoK save: {exc}") from exc

    @classmethod
    def _from_dict(cls, d: dict[str, Any]) -> WokState:
        rules = load_ruleset(str(d["rules"]))
        board = Board.from_json(d["board"], source="saved game")
        colours = [Colour.from_dict(c) for c in d["colours"]]
        world = World(board, rules, colours)
        world.load_provinces(d["provinces"])
        config = read_config(d["config"])
        state = cls(
            rules=rules,
            variant=config.variant_rules(),
            config=config,
            board=board,
            world=world,
            rng=Rng.from_dict(d["rng"]),
            seat_colours=[list(s) for s in d["seat_colours"]],
        )
        state.seat_quit = list(d["seat_quit"])
        state.missed = list(d["missed"])
        state.turn = int(d["turn"])
        state.oop = list(d["oop"])
        state.ready = set(d["ready"])
        state.submitted = set(d["submitted"])
        state.votes = set(d["votes"])
        state.orders = {int(c): msgspec.convert(o, OrderSet) for c, o in d["orders"].items()}
        state.province_intel = _int_keys(d["province_intel"])
        state.player_intel = _int_keys(d["player_intel"])
        state.reports = {int(c): copy.deepcopy(r) for c, r in d["reports"].items()}
        state.top_ten = copy.deepcopy(list(d["top_ten"]))
        state.outcome_ = None if d["outcome"] is None else msgspec.convert(d["outcome"], Outcome)
        state.clock = dict(d["clock"])
        state.max_turns = int(d["max_turns"])
        state.started_colours = int(d["started_colours"])
        return state


def _str_keys(d: dict[int, dict[int, dict[str, Any]]]) -> dict[str, dict[str, dict[str, Any]]]:
    return {str(a): {str(b): dict(v) for b, v in sorted(i.items())} for a, i in sorted(d.items())}


def _int_keys(d: dict[str, dict[str, dict[str, Any]]]) -> dict[int, dict[int, dict[str, Any]]]:
    return {int(a): {int(b): dict(v) for b, v in inner.items()} for a, inner in d.items()}


def _turn_events(log: TurnLog) -> list[Event]:
    out: list[Event] = []
    for cap in log.captures:
        out.append(ev.ProvinceTaken(log.turn, cap["province"], cap["by"], cap["from"]))
    for rip in log.rips:
        out.append(ev.Ripped(log.turn, rip["colour"], rip["by"]))
    return out


# -- creating a game ----------------------------------------------------------
def _layout(
    variant: Variant, players: int, robots: int, names: list[str]
) -> tuple[list[Colour], list[list[int]], list[str]]:
    """Colours (name, seat, letter) and each seat's colours for the variant."""
    colours_meta: list[tuple[str, int | None, int]] = []
    if variant.seats:
        if players != variant.seats:
            raise ValueError(f"{variant.name} is for {variant.seats} players, not {players}")
        for s in range(variant.seats):
            for letter in range(variant.colours_per_seat):
                colours_meta.append((f"{names[s]}{LETTERS[letter]}", s, letter))
        robots = variant.robots
        seats = variant.seats
    else:
        if not 0 <= robots < players:
            raise ValueError(f"robots must be 0..{players - 1}, not {robots}")
        seats = players - robots
        for s in range(seats):
            colours_meta.append((names[s], s, 0))
    for r in range(robots):
        colours_meta.append((f"Robo{r + 1}", None, 0))
    seat_colours: list[list[int]] = [[] for _ in range(seats)]
    for i, (_, seat, _) in enumerate(colours_meta):
        if seat is not None:
            seat_colours[seat].append(i)
    colours = [Colour(name=n, seat=s, eff=0, gold=0, tech=0, letter=L) for n, s, L in colours_meta]
    return colours, seat_colours, [m[0] for m in colours_meta]


def deal_homes(board_adj: list[frozenset[int]], count: int, rng: Rng) -> list[int]:
    """W4: `count` random provinces of which no two are adjacent; ValueError if none fit."""
    n = len(board_adj)
    for _ in range(200):
        order = list(range(n))
        rng.shuffle(order)
        chosen: list[int] = []
        for p in order:
            if all(p not in board_adj[q] for q in chosen):
                chosen.append(p)
                if len(chosen) == count:
                    return chosen
    raise ValueError(f"the map has no room for {count} homes that are not adjacent")


def create(config: Any, seed: int) -> WokState:
    """A new game from `config` (a mapping or `WokConfig`, see `suite.wok.rules.config`);
    turn 0 (W4) is run, so orders start with turn 1. ConfigError names a bad key or
    value; ValueError says when the map has no room for the homes."""
    cfg = read_config(config)
    rules = cfg.rules()
    variant = cfg.variant_rules()
    players = cfg.player_count()
    seats = variant.seats or players - cfg.robots
    if len(cfg.names) < seats:
        raise ConfigError(f"names lists {len(cfg.names)} names for {seats} seats (key `names`)")
    colours, seat_colours, _ = _layout(variant, players, cfg.robots, list(cfg.names))
    rng = Rng(seed)
    board = resolve_map(cfg.map, len(colours), seed)
    world = World(board, rules, colours)
    for col in colours:
        col.eff, col.gold, col.tech = rules.start.eff, rules.start.gold, rules.start.tech
        col.wood = rules.start.wood
    if rules.terrain is not None:
        _terrains(world, rules.terrain.kinds, rng)
    homes = deal_homes(world.adj_sets, len(colours), rng)
    for p in range(world.n):
        pop = board[world.ids[p]].props.get("POP", rules.start.neutral.default_pop)
        world.pop[p] = min(rules.caps.pop, max(0, int(pop)))
        _stock(world, p, rules.start.neutral)
    for c, p in enumerate(homes):  # colour c gets home p
        world.owner[p] = c
        world.home[p] = c
        _stock(world, p, rules.start.home)
    state = WokState(
        rules=rules,
        variant=variant,
        config=cfg,
        board=board,
        world=world,
        rng=rng,
        seat_colours=seat_colours,
    )
    _turn_zero(state)
    return state


def _terrains(world: World, kinds: tuple[str, ...], rng: Rng) -> None:
    """I2: each province's terrain from the map's TERRAIN property, else drawn at random."""
    for p in range(world.n):
        given = world.board[world.ids[p]].props.get("TERRAIN")
        world.terrain[p] = str(given) if given in kinds else rng.choice(kinds)


def _stock(world: World, p: int, fig: StartFigures) -> None:
    """Give province p the start figures `fig` (W2 home or W3 neutral); POP is the map's."""
    world.wok[p], world.arm[p], world.lev[p] = fig.wok, fig.arm, fig.lev
    world.dfn[p], world.mis[p], world.spy[p], world.aim[p] = (
        fig.def_tenths,
        fig.mis,
        fig.spy,
        fig.aim,
    )


def _turn_zero(state: WokState) -> None:
    """W4: neutrals gain their first armies, everyone gets a turn-0 report, OoP for turn 1."""
    from suite.wok.rules.reports import build_report

    w = state.world
    log = TurnLog(turn=0)
    ctx = TurnContext(0, state.rng, state.variant, list(w.owner), log, {}, {})
    neutral_gain(w, ctx)
    state.turn = 1
    state.oop = draw_oop(state)
    scores = {c: w.score(c) for c in range(len(w.colours))}
    for c in range(len(w.colours)):
        before = {p: w.contents(p) for p in w.owned(c)}
        state.reports[c] = build_report(w, log, c, 0, before, state.oop, scores)
    state.top_ten = state.reports[0]["top_ten"] if state.reports else []
