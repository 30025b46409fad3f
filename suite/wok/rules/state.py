"""`WokState`: the WoK game contract with simultaneous orders and ready flags.

Each living seat submits an order set for each of its colours (`SubmitOrders`), may
revise it until it marks itself ready, and the turn runs as soon as every living seat is
ready (or when the turn clock allows "run now", see `suite.wok.rules.clock`).
`awaiting()` is the set of living seats not yet ready. Robots are played by the engine.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import msgspec

from suite.core.board import Board
from suite.core.match import Action, Event, IllegalAction, Outcome
from suite.core.rng import Rng
from suite.wok.rules import events as ev
from suite.wok.rules.maps import resolve_map
from suite.wok.rules.orders import (
    DeclareAlly,
    OrderSet,
    Quit,
    SetReady,
    SubmitOrders,
    Vote,
    check_order_set,
)
from suite.wok.rules.phases import TurnContext, TurnLog, neutral_gain
from suite.wok.rules.ruleset import RuleSet, StartFigures, Variant, load_ruleset
from suite.wok.rules.space import WokActionSpace
from suite.wok.rules.turn import (
    decide_end,
    draw_oop,
    end_by_vote,
    public_players,
    run_turn,
    seat_alive,
)
from suite.wok.rules.world import Colour, World

SEAT_NAMES = ("Han", "Kor", "Mir", "Tal", "Vey", "Sol", "Ura", "Bex", "Dov", "Fen")
LETTERS = "ABC"


class WokState:
    """One WoK match. See the module docstring for the order flow."""

    game = "wok"

    def __init__(
        self,
        *,
        rules: RuleSet,
        variant: Variant,
        config: dict[str, Any],
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
        self.outcome_: Outcome | None = None
        self.clock: dict[str, Any] = {
            "preset": str(config.get("clock", "standard")),
            "turn": None,
            "deadline_at": None,
            "poked_at": None,
        }
        self.max_turns = int(config.get("max_turns") or rules.default_max_turns)
        self.started_colours = len(world.colours)

    # -- the contract -------------------------------------------------------
    def awaiting(self) -> frozenset[int]:
        if self.outcome_ is not None:
            return frozenset()
        return frozenset(
            s for s in range(len(self.seat_colours)) if seat_alive(self, s) and s not in self.ready
        )

    def living_seats(self) -> list[int]:
        return [s for s in range(len(self.seat_colours)) if seat_alive(self, s)]

    def living_colours(self, seat: int) -> list[int]:
        return [c for c in self.seat_colours[seat] if self.world.colours[c].alive]

    def legal(self, seat: int) -> WokActionSpace | list[Action]:
        if seat not in self.awaiting():
            return []
        return WokActionSpace(self, seat)

    def check(self, seat: int, action: Action) -> str | None:
        """Why `action` by `seat` is refused now, or None when apply() would accept it."""
        if self.outcome_ is not None:
            return "the game is over"
        if not 0 <= seat < len(self.seat_colours):
            return f"no seat {seat}"
        if not seat_alive(self, seat):
            return f"seat {seat} is out of the game"
        if isinstance(action, SubmitOrders):
            seen: set[int] = set()
            for os in action.sets:
                if os.colour not in self.seat_colours[seat]:
                    return f"colour {os.colour} is not yours"
                if not self.world.colours[os.colour].alive:
                    return f"colour {os.colour} is out of the game"
                if os.colour in seen:
                    return f"two order sets for colour {os.colour}"
                seen.add(os.colour)
                problem = check_order_set(os, self.rules, self.world.n)
                if problem:
                    return f"{self.world.colours[os.colour].name}: {problem}"
            return None
        if isinstance(action, SetReady | Vote | Quit):
            return None
        if isinstance(action, DeclareAlly):
            return self._check_ally(seat, action)
        return f"unknown action {type(action).__name__}"

    def _check_ally(self, seat: int, action: DeclareAlly) -> str | None:
        if not self.alliances_allowed():
            return "alliances are not recorded in this game (W13)"
        if action.colour not in self.seat_colours[seat]:
            return f"colour {action.colour} is not yours"
        p = action.partner
        if p is not None:
            if not 0 <= p < len(self.world.colours) or p == action.colour:
                return f"no such partner colour {p}"
            if not self.world.colours[p].alive:
                return f"colour {p} is out of the game"
        return None

    def alliances_allowed(self) -> bool:
        return self.variant.alliances and self.started_colours >= self.rules.alliance_min_players

    def apply(self, seat: int, action: Action) -> list[Event]:
        problem = self.check(seat, action)
        if problem is not None:
            raise IllegalAction(problem)
        out: list[Event] = []
        if isinstance(action, SubmitOrders):
            for os in action.sets:
                self.orders[os.colour] = os
            self.submitted.add(seat)
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
                out.append(ev.GameOver(self.outcome_.winners, self.outcome_.reason))
                return out
        elif isinstance(action, DeclareAlly):
            self.world.colours[action.colour].ally = action.partner
            out.append(ev.AllyDeclared(action.colour, action.partner))
        elif isinstance(action, Quit):
            out += self.quit_seat(seat, "quit")
            return out
        if self.outcome_ is None and not self.awaiting():
            out += self.run()
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
            out.append(ev.GameOver(self.outcome_.winners, self.outcome_.reason))
        elif not self.awaiting():
            out += self.run()
        return out

    def run(self) -> list[Event]:
        """Run the current turn now with the orders entered so far (W12 run-now too).

        A living seat that submitted nothing this turn has missed it; after
        `missed_turns_to_quit` misses in a row it quits.
        """
        turn = self.turn
        out: list[Event] = []
        for s in self.living_seats():
            if s not in self.submitted and s not in self.ready:
                self.missed[s] += 1
        log = run_turn(self)
        out += _turn_events(log)
        out.append(ev.TurnRan(turn, tuple(self.oop)))
        self.ready.clear()
        self.submitted.clear()
        self.votes.clear()
        self.orders.clear()
        self.clock.update(turn=None, deadline_at=None, poked_at=None)
        if self.outcome_ is None:
            for s in self.living_seats():
                if self.missed[s] >= self.rules.missed_turns_to_quit:
                    out += self.quit_seat(s, f"missed {self.missed[s]} turns in a row")
                    if self.outcome_ is not None:
                        return out
        if self.outcome_ is not None:
            out.append(ev.GameOver(self.outcome_.winners, self.outcome_.reason))
        return out

    def outcome(self) -> Outcome | None:
        return self.outcome_

    # -- views --------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Own provinces in full, ownership of all, others' contents where intel is held
        (marked with the turn seen). Spectators (None) see ownership only."""
        w = self.world
        mine = set(self.seat_colours[seat]) if seat is not None else set()
        intel: dict[int, dict[str, Any]] = {}
        players: dict[int, dict[str, Any]] = {}
        for c in sorted(mine):
            for p, seen in self.province_intel.get(c, {}).items():
                if p not in intel or seen["turn"] > intel[p]["turn"]:
                    intel[p] = seen
            for o, seen in self.player_intel.get(c, {}).items():
                if o not in players or seen["turn"] > players[o]["turn"]:
                    players[o] = seen
        provinces = []
        for p in range(w.n):
            entry: dict[str, Any] = {"id": p, "name": w.names[p], "owner": w.owner[p]}
            if w.owner[p] in mine:
                entry.update(w.contents(p), seen=self.turn)
            elif p in intel:
                entry.update(intel[p])
                entry["owner"] = w.owner[p]
                entry["seen"] = intel[p]["turn"]
                entry.pop("turn", None)
            provinces.append(entry)
        out: dict[str, Any] = {
            "game": self.game,
            "rules": self.rules.name,
            "variant": self.variant.name,
            "map": self.board.name,
            "turn": self.turn,
            "max_turns": self.max_turns,
            "seat": seat,
            "oop": list(self.oop),
            "players": public_players(self),
            "neighbours": [list(a) for a in w.adj],
            "homes": list(w.home),
            "protect_home_until": self.variant.protect_home_until,
            "nap_until": list(self.variant.nap_until),
            "provinces": provinces,
            "ready": sorted(self.ready),
            "awaiting": sorted(self.awaiting()),
            "outcome": None if self.outcome_ is None else msgspec.to_builtins(self.outcome_),
        }
        if seat is not None:
            out["colours"] = {
                str(c): {
                    "name": w.colours[c].name,
                    "alive": w.colours[c].alive,
                    "eff": w.colours[c].eff,
                    "gold": w.colours[c].gold,
                    "tech": w.colours[c].tech,
                    "attacks": self.rules.attacks_allowed(w.colours[c].tech),
                    "home": [p for p in range(w.n) if w.home[p] == c],
                }
                for c in self.seat_colours[seat]
            }
            out["player_intel"] = {str(o): dict(v) for o, v in sorted(players.items())}
            out["orders"] = {
                str(c): msgspec.to_builtins(self.orders[c])
                for c in self.seat_colours[seat]
                if c in self.orders
            }
            out["reports"] = {
                str(c): copy.deepcopy(self.reports[c])
                for c in self.seat_colours[seat]
                if c in self.reports
            }
        return out

    # -- serialisation ------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        w = self.world
        return {
            "game": self.game,
            "version": 1,
            "rules": self.rules.name,
            "variant": self.variant.name,
            "config": copy.deepcopy(self.config),
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
        except (TypeError, msgspec.ValidationError) as exc:
            raise ValueError(f"not a WoK save: {exc}") from exc

    @classmethod
    def _from_dict(cls, d: dict[str, Any]) -> WokState:
        rules = load_ruleset(str(d["rules"]))
        board = Board.from_json(d["board"], source="saved game")
        colours = [Colour.from_dict(c) for c in d["colours"]]
        world = World(board, rules, colours)
        world.load_provinces(d["provinces"])
        state = cls(
            rules=rules,
            variant=rules.variant(str(d["variant"])),
            config=dict(d["config"]),
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


def create(config: Mapping[str, Any], seed: int) -> WokState:
    """A new game from `config` (keys: players, variant, map, max_turns, robots, names,
    rules, clock); turn 0 (W4) is run, so orders start with turn 1."""
    cfg = dict(config)
    rules = load_ruleset(str(cfg.get("rules") or "standard"))
    variant = rules.variant(str(cfg.get("variant") or "skirmish"))
    players = int(cfg.get("players", 2))
    names = list(cfg.get("names") or SEAT_NAMES)
    colours, seat_colours, _ = _layout(variant, players, int(cfg.get("robots") or 0), names)
    rng = Rng(seed)
    board = resolve_map(cfg.get("map"), len(colours), seed)
    world = World(board, rules, colours)
    for col in colours:
        col.eff, col.gold, col.tech = rules.start_eff, rules.start_gold, rules.start_tech
    homes = deal_homes(world.adj_sets, len(colours), rng)
    for p in range(world.n):
        pop = board[world.ids[p]].props.get("POP", rules.default_pop)
        world.pop[p] = min(rules.cap_pop, max(0, int(pop)))
        _stock(world, p, rules.neutral)
    for c, p in enumerate(homes):  # colour c gets home p
        world.owner[p] = c
        world.home[p] = c
        _stock(world, p, rules.home)
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
