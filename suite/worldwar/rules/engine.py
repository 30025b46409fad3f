"""The World War rules engine: one match as a deterministic state machine.

Phases (``phase``): "setup" (players place their starting armies a few at a time, or all
at once by `AutoPlace` or the config's `auto_place`, RULINGS R13),
"place" (reinforcements, with card turn-ins at the start of the turn), "cards" (a
turn-in right after an elimination, or at the start of a turn that has nothing to place
while the hand holds a set; with no set such a turn starts at "attack"), "attack",
"defend" (only when defenders choose their dice), "occupy" (the move into a conquered
territory), "fortify" (the single free move) and "over". Every rule number comes from
the rules data (`data.RuleSet`).

Territories are integer-indexed internally (`topology.Topology`); owners and armies are
plain lists. `apply` validates the seat's and the action's types, then the whole action
(`refusal`), and only then mutates, so a refused action leaves the state exactly as it
was. `check()` asserts the invariants. All chance comes from the
state's own `Rng`; an attack to the end draws its result in one go from the exact end
distribution of `odds` (exact in distribution), a single roll throws real dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

import msgspec

from suite.core.board import Board
from suite.core.datafile import DataError
from suite.core.dice import risk_losses, roll_sorted
from suite.core.match import (
    Action,
    ConfigError,
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
from suite.worldwar.rules import actions as A
from suite.worldwar.rules import modes

# The events of nearly every action, by name: compiled, a name costs one lookup and a
# module attribute two.
from suite.worldwar.rules.actions import BattleFought, Conquered, Occupied
from suite.worldwar.rules.cards import CardMode, Deck, make_deck
from suite.worldwar.rules.config import WorldWarConfig
from suite.worldwar.rules.data import RuleSet, custom_rules, rules_from_dict
from suite.worldwar.rules.game import board_for
from suite.worldwar.rules.odds import Odds, odds_for
from suite.worldwar.rules.seat_legal import ViewActions
from suite.worldwar.rules.seat_views import seat_actions, seat_view
from suite.worldwar.rules.snapshot import GAME, fill, snapshot
from suite.worldwar.rules.topology import Topology, topology
from suite.worldwar.rules.views import HandView, WorldWarMap, WorldWarRules, WorldWarView

BoardView = tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], tuple[int, ...]]
ExtrasKey = tuple[tuple[int, ...], tuple[int, ...], int, int, tuple[int, ...]] | None
"""What a view's card and mode fields depend on besides the moment (`seat_views`)."""
PHASES: Final = ("setup", "place", "cards", "attack", "defend", "occupy", "fortify", "over")


def _rules_for(config: WorldWarConfig) -> RuleSet:
    try:
        return custom_rules(config.rules)
    except DataError as exc:
        raise ConfigError(f"bad worldwar config: key `rules`: {exc}") from exc


class WorldWarState:
    """One World War match (the `suite.core.match.State` contract).

    Make one with `create(config, seed)` (config: a `WorldWarConfig` or a mapping of its
    keys) and restore one with `from_dict(to_dict())`.
    """

    game = GAME
    # Slots: the engine reads its fields before and after every action.
    __slots__ = (
        "board",
        "topo",
        "rules",
        "config",
        "players",
        "card_mode",
        "deck_rules",
        "ask_defender",
        "clock",
        "max_turns",
        "stay",
        "att_max",
        "def_max",
        "odds",
        "rng",
        "owner",
        "armies",
        "counts",
        "alive",
        "out_order",
        "hands",
        "deck",
        "sets_done",
        "first",
        "current",
        "turn",
        "phase",
        "setup_left",
        "step_left",
        "pool",
        "mid_turn",
        "conquered",
        "pending",
        "cards_after_occupy",
        "placed_total",
        "lost_total",
        "result",
        "mode",
        "capitals",
        "missions",
        "eliminator",
        "start_events",
        "version",
        "_pair",
        "_placing",
        "alone",
        "view_shared",
        "view_templates",
        "last_views",
        "last_complete",
        "seen_version",
        "seen_seat",
        "seen_view",
        "seen_legal",
        "seen_hand",
        "no_hands",
        "hand_views",
        "embed_board",
        "board_view",
        "board_stamp",
    )

    def __init__(self, board: Board, config: WorldWarConfig, rules: RuleSet, rng: Rng) -> None:
        """An empty shell drawing chance from `rng`; use `create`, `new` or `from_dict`."""
        self.board = board
        self.topo: Topology = topology(board)
        self.rules = rules
        self.config = config
        setup = rules.setup
        players = config.players
        if not setup.min_players <= players <= setup.max_players:
            raise ConfigError(
                f"bad worldwar config: players must be {setup.min_players}-"
                f"{setup.max_players}, not {players} (key `players`)"
            )
        if players > len(self.topo):
            raise ConfigError(
                f"bad worldwar config: {players} players need at least {players} territories "
                "(key `players`)"
            )
        self.players: int = players
        self.card_mode: CardMode = getattr(rules.cards, config.cards)
        self.deck_rules: Deck | None = (
            make_deck(self.card_mode) if self.card_mode.has_cards else None
        )
        self.ask_defender: bool = config.defender == "ask"
        if config.clock not in rules.clock.choices:
            raise ConfigError(
                f"bad worldwar config: clock must be one of {list(rules.clock.choices)}, "
                f"not {config.clock} (key `clock`)"
            )
        self.clock: int = config.clock
        self.max_turns: int | None = config.max_turns
        battle = rules.battle
        self.stay: int = battle.stay_behind
        self.att_max: int = battle.attacker_max_dice
        self.def_max: int = battle.defender_max_dice
        self.odds: Odds = odds_for(battle)
        n = len(self.topo)
        self.rng = rng
        self.owner: list[int] = [0] * n
        self.armies: list[int] = [0] * n
        self.counts: list[int] = [0] * players
        self.alive: list[bool] = [True] * players
        self.out_order: list[Seat] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.deck: list[int] = []
        self.sets_done = 0
        self.first: Seat = 0
        self.current: Seat = 0
        self.turn = 0
        self.phase = "setup"
        self.setup_left: list[int] = [0] * players
        self.step_left = 0
        self.pool = 0
        self.mid_turn = False
        self.conquered = False
        self.pending: dict[str, Any] | None = None
        self.cards_after_occupy = False
        self.placed_total = 0
        self.lost_total = 0
        self.result: Outcome | None = None
        self.mode: str = config.mode
        self.capitals: list[int] = []
        """Capital mode: each seat's capital territory (`modes`)."""
        self.missions: list[modes.Mission] = []
        """Secret Mission: each seat's mission (hidden from the others)."""
        self.eliminator: list[int] = [-1] * players
        """Capital and mission modes: who took each seat's last territory (-1: alive)."""
        self.start_events: list[Event] = []
        self.version = 0
        # `awaiting`'s answers, one frozenset per seat (frozen: shared by every call).
        self.alone: tuple[frozenset[Seat], ...] = tuple(frozenset((s,)) for s in range(players))
        self._pair = (0, 0)
        # The armies a `PlaceMany` puts on each territory (index), and their total, left
        # by its check for the action that follows.
        self._placing: tuple[dict[int, int], int] = ({}, 0)
        # The map and rules records every view shares, built on first use.
        self.view_shared: tuple[WorldWarMap, WorldWarRules] | None = None
        # A view per seat holding what never changes, completed by `seat_views.build_view`.
        self.view_templates: dict[Seat | None, WorldWarView] = {}
        # Each seat's last base view with the key it was made for (`seat_views.build_view`).
        self.last_views: dict[Seat | None, tuple[tuple[Any, ...], int, WorldWarView]] = {}
        # With cards or a mode: each seat's last complete view with its moment, board and
        # `ExtrasKey` (`seat_views.build_view`).
        self.last_complete: dict[
            Seat | None, tuple[tuple[Any, ...], int, ExtrasKey, WorldWarView]
        ] = {}
        # The last view handed out: its version and seat, the legal actions made from it
        # and the seat's hand it shows, unsorted (`seat_views.seat_view`).
        self.seen_version = -1
        self.seen_seat: Seat | None = None
        self.seen_view: WorldWarView | None = None
        self.seen_legal: ViewActions | None = None
        self.seen_hand: tuple[int, ...] = ()
        self.no_hands: tuple[int, ...] = (0,) * players
        # Each seat's hand as views show it, with the (seat, hand, sets) it was made for.
        self.hand_views: dict[Seat, tuple[tuple[int, tuple[int, ...], int], HandView]] = {}
        # A state dealt on a board of its own (not the config's map) carries it in its
        # snapshots.
        self.embed_board = True
        # Tuples of owner, counts, alive and setup_left shared by views; every change to
        # one of those lists drops it (None), the next view rebuilds it.
        self.board_view: BoardView | None = None
        # Counts the board tuples built: views made on one board carry its stamp.
        self.board_stamp = 0

    # -- creation ----------------------------------------------------------------
    @classmethod
    def create(cls, config: WorldWarConfig | Mapping[str, Any], seed: int) -> WorldWarState:
        """A new match of `config` (ConfigError naming a bad key); the map seed is kept in
        the config as `map_seed` so that a random map comes back on restoring."""
        from suite.worldwar.rules import SPEC

        cfg: WorldWarConfig = parse_config(SPEC, config)
        if cfg.map_seed is None:
            cfg = msgspec.structs.replace(cfg, map_seed=seed)
        st = cls.new(board_for(cfg, seed), cfg, seed)
        st.embed_board = False
        return st

    @classmethod
    def new(
        cls,
        board: Board,
        config: WorldWarConfig | Mapping[str, Any],
        seed: int,
        rules: RuleSet | None = None,
    ) -> WorldWarState:
        """Deal a new match on `board` (R1): random first player, territories dealt
        round-robin from a shuffled order (the first players take the extras), one army on
        each. `rules` (default: the config's) replace the match's rules data."""
        from suite.worldwar.rules import SPEC

        cfg: WorldWarConfig = parse_config(SPEC, config)
        st = cls(board, cfg, rules or _rules_for(cfg), Rng(seed))
        rng = st.rng
        n = st.players
        st.first = rng.randbelow(n)
        order = list(range(len(st.topo)))
        rng.shuffle(order)
        for k, t in enumerate(order):
            seat = (st.first + k) % n
            st.owner[t] = seat
            st.armies[t] = 1
            st.counts[seat] += 1
        st.placed_total = len(order)
        if st.deck_rules is not None:
            st.deck = list(range(len(st.deck_rules)))
            rng.shuffle(st.deck)
        start = st.rules.setup.starting(n)
        st.setup_left = [max(0, start - st.counts[s]) for s in range(n)]
        st.start_events = [A.Dealt(tuple(st.owner), st.first, tuple(st.armies))]
        if st.mode != "domination":
            modes.start(st)
        st.current = st.first
        if cfg.auto_place:
            # R13 for everyone: every seat's armies placed at once, in turn order.
            for k in range(n):
                seat = (st.first + k) % n
                st.start_events.extend(st._spread(seat, st.setup_left[seat]))
                st.setup_left[seat] = 0
        if st.setup_left[st.first] > 0:
            st.phase = "setup"
            st.step_left = min(st.rules.setup.placement_step, st.setup_left[st.first])
        else:
            st.start_events.extend(st._next_setup_seat())
        return st

    # -- the State contract ------------------------------------------------------
    def awaiting(self) -> frozenset[Seat]:
        """The seat to act: the current player, or the defender when asked to defend."""
        if self.phase == "over":
            return frozenset()
        if self.phase == "defend" and self.pending is not None:
            return self.alone[self.owner[int(self.pending["target"])]]
        return self.alone[self.current]

    def actor(self) -> Seat | None:
        """The single awaited seat (None once the game is over)."""
        if self.phase == "over":
            return None
        if self.phase == "defend" and self.pending is not None:
            return self.owner[int(self.pending["target"])]
        return self.current

    def outcome(self) -> Outcome | None:
        return self.result

    def rounds(self) -> int:
        """Whole rounds played (every living player had a turn): what `max_turns` counts."""
        return max(0, self.turn - 1) // self.players

    def refusal(self, seat: Seat, action: Action) -> str | None:
        """Why `seat` may not do `action` now, or None when it may (the types of both are
        `apply`'s to check)."""
        phase = self.phase
        if phase == "over":
            return "the game is over"
        if seat != (self.current if phase != "defend" else self.actor()):
            if not 0 <= seat < self.players:
                return f"there is no seat {seat}"
            return "it is not your turn"
        checker = _CHECK.get(type(action))
        if checker is None:
            return f"{type(action).__name__} is not a World War action"
        return checker(self, seat, action)

    def apply(self, seat: object, action: Action) -> list[Event]:
        """Validate, then perform; IllegalAction (with the reason) leaves the state as it was.

        A seat that is no int in range, or an action with a wrongly typed field (a float
        army count, a bool seat...), is refused before anything else. (`seat` is typed
        `object` so that the compiled module lets anything through to these checks.)
        """
        if type(seat) is int and 0 <= seat < self.players:
            player: Seat = seat
        else:
            player = validate_seat(seat, self.players)
        op = _OPS.get(type(action))
        if op is None:
            validate_action(action, A.WorldWarAction)
            raise IllegalAction(self.refusal(player, action) or "not a World War action")
        names, types, elements, check, do = op
        if not _typed(action, names, types, elements):
            action = validate_action(action, A.WorldWarAction)
        phase = self.phase
        if phase != "defend" and phase != "over" and player == self.current:
            reason = check(self, player, action)  # `refusal` without its first questions
        else:
            reason = self.refusal(player, action)
        if reason is not None:
            raise IllegalAction(reason)
        self.version += 1
        events = do(self, player, action)
        if self.result is None and self.mode != "domination":
            events.extend(modes.after(self, events))
        return events

    def allows(self, seat: object, action: Action) -> bool:
        """Would `apply(seat, action)` accept it now? (never raises)"""
        return (
            type(seat) is int
            and 0 <= seat < self.players
            and _well_typed(action)
            and self.refusal(seat, action) is None
        )

    def check(self) -> None:
        """Assert the invariants (AssertionError naming the first one broken)."""
        n, players = len(self.topo), self.players
        assert len(self.owner) == n and len(self.armies) == n, "board size changed"
        assert all(0 <= o < players for o in self.owner), "an owner is no seat"
        assert all(a >= 1 for a in self.armies), "a territory has no army"
        counts = [0] * players
        for o in self.owner:
            counts[o] += 1
        assert counts == self.counts, f"territory counts {self.counts} != {counts}"
        for s in range(players):
            assert self.alive[s] == (counts[s] > 0), f"seat {s} alive flag is wrong"
        assert self.phase in PHASES, f"unknown phase {self.phase!r}"
        assert self.pool >= 0 and self.step_left >= 0, "negative armies to place"
        assert all(x >= 0 for x in self.setup_left), "negative set-up armies"
        if self.phase == "setup":
            assert 0 < self.step_left <= self.setup_left[self.current], "bad set-up step"
        assert self.alive[self.current] or self.phase == "over", "a beaten seat is to play"
        held = [c for h in self.hands for c in h]
        assert len(held) == len(set(held)), "a card is in two hands"
        assert not set(held) & set(self.deck), "a card is both held and in the deck"
        size = 0 if self.deck_rules is None else len(self.deck_rules)
        assert len(held) + len(self.deck) == size, "cards were lost or made"
        assert (self.phase == "over") == (self.result is not None), "outcome and phase differ"
        if self.phase in ("defend", "occupy"):
            p = self.pending
            assert p is not None, f"{self.phase} without a pending battle"
            assert self.owner[p["source"]] == self.current, "the attacker lost its source"
            if self.phase == "occupy":
                assert self.owner[p["target"]] == self.current, "occupying a foreign land"
        else:
            assert self.pending is None or self.phase == "over", "a stale pending battle"
        if self.mode != "domination":
            modes.check(self)

    # -- helpers -----------------------------------------------------------------
    def _terr(self, tid: str) -> int | None:
        return self.topo.index.get(tid)

    def _set_reason(self, seat: Seat, cards: tuple[int, ...]) -> str | None:
        deck = self.deck_rules
        if deck is None:
            return "this game is played without cards"
        hand = self.hands[seat]
        if any(c not in hand for c in cards):
            return "you can only turn in cards from your hand"
        if deck.set_kind(cards) is None:
            return f"{', '.join(deck.label(c) for c in cards) or 'no cards'} is not a set"
        return None

    def forced(self, seat: Seat) -> bool:
        """Must `seat` turn in now? (hand at the limit and a set in it, R5-R6)."""
        deck = self.deck_rules
        if deck is None or len(self.hands[seat]) < self.rules.cards.hand_limit:
            return False
        return bool(deck.legal_sets(self.hands[seat]))

    def _sets_on_offer(self, seat: Seat) -> list[tuple[int, ...]]:
        deck = self.deck_rules
        if deck is None:
            return []
        if self.forced(seat) and deck.rules.best_when_forced:
            return deck.best_sets(self.hands[seat], self.sets_done)
        return deck.legal_sets(self.hands[seat])

    def may_turn_in(self, seat: Seat) -> bool:
        """Is this a moment at which `seat` may turn in cards (R5)?"""
        if self.phase == "cards":
            return True
        return self.phase == "place" and not self.mid_turn

    def reinforcements(self, seat: Seat) -> tuple[int, int, tuple[str, ...]]:
        """(total, from territories, continents held) for `seat` now (R2)."""
        r = self.rules.reinforcements
        base = max(r.minimum, self.counts[seat] // r.divisor)
        held: list[str] = []
        bonus = 0
        owner = self.owner
        for c, members in enumerate(self.topo.members):
            for t in members:
                if owner[t] != seat:
                    break
            else:
                if members:
                    held.append(self.topo.continents[c])
                    bonus += self.topo.bonus[c]
        return base + bonus, base, tuple(held)

    def border_score(self, seat: Seat, t: int) -> int:
        """How many enemy territories touch `t` (R7's choice for unplaced armies)."""
        owner = self.owner
        return sum(1 for n in self.topo.adj[t] if owner[n] != seat)

    # -- checks ------------------------------------------------------------------
    def _placeable(self, seat: Seat) -> int | str:
        """Armies `seat` may place now, or why it may not place."""
        if self.phase == "setup":
            return self.step_left
        if self.phase == "place":
            if not self.mid_turn and self.forced(seat):
                return f"you hold {len(self.hands[seat])} cards: turn in a set first"
            return self.pool
        return "there are no armies to place now"

    def _check_target(self, seat: Seat, territory: str, armies: int) -> str | None:
        t = self._terr(territory)
        if t is None:
            return f"there is no territory {territory!r}"
        if self.owner[t] != seat:
            return f"{self.topo.names[t]} is not yours"
        if armies < 1:
            return f"place at least 1 army, not {armies}"
        return None

    def _check_place(self, seat: Seat, a: A.Place) -> str | None:
        left = self._placeable(seat)
        if isinstance(left, str):
            return left
        reason = self._check_target(seat, a.territory, a.armies)
        if reason is not None:
            return reason
        if a.armies > left:
            return f"you can place 1 to {left} armies now, not {a.armies}"
        return None

    def _check_place_many(self, seat: Seat, a: A.PlaceMany) -> str | None:
        left = self._placeable(seat)
        if isinstance(left, str):
            return left
        if not a.placements:
            return "no placements given"
        index, owner = self.topo.index, self.owner
        totals: dict[int, int] = {}
        get = totals.get
        total = 0
        for territory, armies in a.placements:
            t = index.get(territory)
            if t is None or owner[t] != seat or armies < 1:
                return self._check_target(seat, territory, armies)
            totals[t] = get(t, 0) + armies
            total += armies
        if total > left:
            return f"you can place 1 to {left} armies now, not {total}"
        self._placing = (totals, total)
        return None

    def _check_auto_place(self, seat: Seat, a: A.AutoPlace) -> str | None:
        if self.phase != "setup":
            return "armies are placed automatically only during the deployment"
        return None

    def _check_turn_in(self, seat: Seat, a: A.TurnIn) -> str | None:
        if not self.may_turn_in(seat):
            return "cards are turned in at the start of your turn"
        reason = self._set_reason(seat, a.cards)
        if reason is not None:
            return reason
        deck = self.deck_rules
        assert deck is not None
        if self.forced(seat) and deck.rules.best_when_forced:
            best = deck.best_sets(self.hands[seat], self.sets_done)
            if tuple(sorted(a.cards)) not in best:
                return "with a full hand you must turn in your best poker hand"
        return None

    def _check_battle(self, seat: Seat, a: A.Attack | A.Blitz) -> str | None:
        """Why `seat` may not fight from `a.source` into `a.target` now, or None (then the
        pair's indices are left in `_pair` for the action that follows). Also the check
        of `Blitz`."""
        index = self.topo.index
        s = index.get(a.source)
        t = index.get(a.target)
        if (
            self.phase == "attack"
            and s is not None
            and t is not None
            and self.owner[s] == seat
            and self.owner[t] != seat
            and self.armies[s] > self.stay
            and t in self.topo.adj[s]
        ):
            self._pair = (s, t)
            return None
        return self._battle_refusal(seat, a.source, a.target)

    def _battle_refusal(self, seat: Seat, source: str, target: str) -> str | None:
        """`_check_battle` the slow way, naming the first thing that is wrong."""
        if self.phase != "attack":
            return "you can only attack in the attack phase"
        s = self._terr(source)
        t = self._terr(target)
        if s is None:
            return f"there is no territory {source!r}"
        if t is None:
            return f"there is no territory {target!r}"
        if self.owner[s] != seat:
            return f"{self.topo.names[s]} is not yours"
        if self.owner[t] == seat:
            return f"{self.topo.names[t]} is already yours"
        if t not in self.topo.adj[s]:
            return f"{self.topo.names[t]} is not next to {self.topo.names[s]}"
        if self.armies[s] <= self.stay:
            return f"{self.topo.names[s]} needs at least {self.stay + 1} armies to attack"
        self._pair = (s, t)
        return None

    def _check_attack(self, seat: Seat, a: A.Attack) -> str | None:
        reason = self._check_battle(seat, a)
        if reason is not None:
            return reason
        most = min(self.att_max, self.armies[self._pair[0]] - self.stay)
        if not 1 <= a.dice <= most:
            return f"you can roll 1 to {most} dice from there, not {a.dice}"
        return None

    def _check_defend(self, seat: Seat, a: A.Defend) -> str | None:
        if self.phase != "defend" or self.pending is None:
            return "no attack waits for your defence"
        most = min(self.def_max, self.armies[self.pending["target"]])
        if not 1 <= a.dice <= most:
            return f"you can defend with 1 to {most} dice, not {a.dice}"
        return None

    def _check_occupy(self, seat: Seat, a: A.Occupy) -> str | None:
        if self.phase != "occupy" or self.pending is None:
            return "there is no conquest to occupy"
        lo = self.pending["min"]
        hi = lo + self.armies[self.pending["source"]] - self.stay
        if not lo <= a.armies <= hi:
            return f"move {lo} to {hi} armies into the conquered territory, not {a.armies}"
        return None

    def _check_end_attack(self, seat: Seat, a: A.EndAttack) -> str | None:
        return None if self.phase == "attack" else "you are not attacking"

    def _check_fortify(self, seat: Seat, a: A.Fortify) -> str | None:
        if self.phase not in ("attack", "fortify"):
            return "the free move comes after your attacks"
        s = self._terr(a.source)
        t = self._terr(a.target)
        if s is None:
            return f"there is no territory {a.source!r}"
        if t is None:
            return f"there is no territory {a.target!r}"
        if self.owner[s] != seat or self.owner[t] != seat:
            return "the free move goes between two of your own territories"
        if t not in self.topo.adj[s]:
            return f"{self.topo.names[t]} is not next to {self.topo.names[s]}"
        most = self.armies[s] - self.stay
        if most < 1:
            return f"{self.topo.names[s]} cannot give up its last army"
        if not 1 <= a.armies <= most:
            return f"you can move 1 to {most} armies from there, not {a.armies}"
        return None

    def _check_end_turn(self, seat: Seat, a: A.EndTurn) -> str | None:
        if self.phase in ("attack", "fortify"):
            return None
        return "finish placing (and occupying) before you end the turn"

    def _check_skip_turn_in(self, seat: Seat, a: A.SkipTurnIn) -> str | None:
        if self.phase != "cards":
            return "there is no turn-in to skip"
        if self.forced(seat):
            return f"you hold {len(self.hands[seat])} cards: you must turn in a set"
        return None

    def _check_time_up(self, seat: Seat, a: A.TimeUp) -> str | None:
        return None if self.clock else "this game has no turn clock"

    # -- performing ---------------------------------------------------------------
    def _do_place(self, seat: Seat, a: A.Place) -> list[Event]:
        self.armies[self.topo.index[a.territory]] += a.armies
        return self._placed(seat, a.armies, [A.Placed(seat, a.territory, a.armies)])

    def _do_place_many(self, seat: Seat, a: A.PlaceMany) -> list[Event]:
        totals, total = self._placing  # per territory, as the check that just ran found them
        board, ids, placed = self.armies, self.topo.ids, A.Placed
        events: list[Event] = []
        for t, armies in totals.items():
            board[t] += armies
            events.append(placed(seat, ids[t], armies))
        return self._placed(seat, total, events)

    def _do_auto_place(self, seat: Seat, a: A.AutoPlace) -> list[Event]:
        events = self._spread(seat, self.setup_left[seat])
        self.board_view = None
        self.setup_left[seat] = 0
        self.step_left = 0
        events.extend(self._next_setup_seat())
        return events

    def _spread(self, seat: Seat, armies: int) -> list[Event]:
        """R13: `armies` placed one at a time on the own border territory whose armies
        fall shortest of its strongest enemy neighbour's (ties: board order)."""
        owner, adj, ids = self.owner, self.topo.adj, self.topo.ids
        mine = [t for t in range(len(owner)) if owner[t] == seat]
        threat = {
            t: max((self.armies[n] for n in adj[t] if owner[n] != seat), default=-1) for t in mine
        }
        border = [t for t in mine if threat[t] >= 0] or mine
        added: dict[int, int] = {}
        for _ in range(armies):
            t = min(border, key=lambda x: (self.armies[x] + added.get(x, 0) - threat[x], x))
            added[t] = added.get(t, 0) + 1
        for t, n in added.items():
            self.armies[t] += n
        self.placed_total += armies
        return [A.Placed(seat, ids[t], n) for t, n in sorted(added.items())]

    def _placed(self, seat: Seat, armies: int, events: list[Event]) -> list[Event]:
        self.placed_total += armies
        if self.phase == "setup":
            self.board_view = None
            self.setup_left[seat] -= armies
            self.step_left -= armies
            if self.step_left == 0:
                events.extend(self._next_setup_seat())
        else:
            self.pool -= armies
            if self.pool == 0:
                self.phase = "attack"
                self.mid_turn = False
        return events

    def _next_setup_seat(self) -> list[Event]:
        n = self.players
        for k in range(1, n + 1):
            seat = (self.current + k) % n
            if self.setup_left[seat] > 0:
                self.current = seat
                self.step_left = min(self.rules.setup.placement_step, self.setup_left[seat])
                return []
        return self._begin_turn(self.first)

    def _begin_turn(self, seat: Seat) -> list[Event]:
        self.current = seat
        self.turn += 1
        if self.max_turns is not None and self.turn > self.max_turns * self.players:
            return self._finish_by_turns()
        total, base, held = self.reinforcements(seat)
        self.pool = total
        self.phase = "place"
        self.mid_turn = False
        self.conquered = False
        self.pending = None
        if total == 0:
            # Nothing to place (a match's rules may give no minimum): the turn moves on,
            # through the choice of a set when the hand holds one.
            self.phase = "cards" if self._sets_on_offer(seat) else "attack"
        return [A.TurnBegan(seat, self.turn, total, base, held)]

    def _do_turn_in(self, seat: Seat, a: A.TurnIn) -> list[Event]:
        deck = self.deck_rules
        assert deck is not None
        cards = tuple(sorted(a.cards))
        kind = deck.set_kind(cards) or ""
        value = deck.set_value(kind, self.sets_done)
        self.sets_done += 1
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.deck.extend(cards)  # R6: used cards go to the bottom of the deck
        self.pool += value
        events: list[Event] = [A.CardsTurnedIn(seat, cards, kind, value)]
        if self.phase == "cards":
            events.extend(self._after_elimination_cards(seat))
        return events

    def _after_elimination_cards(self, seat: Seat) -> list[Event]:
        """Stay in "cards" while a turn-in is due or offered, then place what it gave."""
        deck = self.deck_rules
        if deck is not None and (
            self.forced(seat)
            or (deck.rules.optional_after_elimination and deck.legal_sets(self.hands[seat]))
        ):
            self.phase = "cards"
            return []
        self._resume_after_cards()
        return []

    def _resume_after_cards(self) -> None:
        if self.pool > 0:
            self.phase = "place"
            self.mid_turn = True
        else:
            self.phase = "attack"
            self.mid_turn = False

    def _do_skip_turn_in(self, seat: Seat, a: A.SkipTurnIn) -> list[Event]:
        self._resume_after_cards()
        return []

    def _roll(
        self, seat: Seat, s: int, t: int, att: int, dfn: int, move_all: bool = False
    ) -> list[Event]:
        """One real roll of `att` against `dfn` dice; losses applied; conquest handled."""
        ad = roll_sorted(self.rng, att, self.rules.battle.dice_sides)
        dd = roll_sorted(self.rng, dfn, self.rules.battle.dice_sides)
        al, dl = risk_losses(ad, dd)
        self.armies[s] -= al
        self.armies[t] -= dl
        self.lost_total += al + dl
        ids = self.topo.ids
        events: list[Event] = [A.DiceRolled(seat, self.owner[t], ids[s], ids[t], ad, dd, al, dl)]
        if self.armies[t] == 0:
            self._conquer(seat, s, t, att, move_all, events)
        return events

    def _do_attack(self, seat: Seat, a: A.Attack) -> list[Event]:
        s, t = self.topo.index[a.source], self.topo.index[a.target]
        if self.ask_defender:
            return self._ask_defence(s, t, a.dice, blitz=False, move_all=False)
        dfn = min(self.def_max, self.armies[t])
        return self._roll(seat, s, t, a.dice, dfn)

    def _ask_defence(self, s: int, t: int, dice: int, blitz: bool, move_all: bool) -> list[Event]:
        self.phase = "defend"
        self.pending = {
            "source": s,
            "target": t,
            "dice": dice,
            "blitz": blitz,
            "move_all": move_all,
        }
        ids = self.topo.ids
        return [A.DefenceAsked(self.owner[t], ids[s], ids[t], dice)]

    def _do_defend(self, seat: Seat, a: A.Defend) -> list[Event]:
        p = self.pending
        assert p is not None
        s, t = p["source"], p["target"]
        attacker = self.current
        self.phase = "attack"
        self.pending = None
        events = self._roll(attacker, s, t, p["dice"], a.dice, p["move_all"])
        if self.owner[t] == attacker or not p["blitz"]:
            return events
        if self.armies[s] > self.stay:
            dice = min(self.att_max, self.armies[s] - self.stay)
            events.extend(self._ask_defence(s, t, dice, True, p["move_all"]))
        return events

    def _do_blitz(self, seat: Seat, a: A.Blitz) -> list[Event]:
        s, t = self._pair  # set by the check that `apply` just ran
        if self.ask_defender:
            dice = min(self.att_max, self.armies[s] - self.stay)
            return self._ask_defence(s, t, dice, blitz=True, move_all=a.move_all)
        armies = self.armies
        att, dfn = armies[s], armies[t]
        left_a, left_d = self.odds.resolve(att, dfn, self.rng)
        armies[s] = left_a
        armies[t] = left_d
        self.lost_total += att - left_a + dfn - left_d
        # The check found `s` and `t` by these ids.
        fought = BattleFought(seat, self.owner[t], a.source, a.target, att - left_a, dfn - left_d)
        if left_d:
            return [fought]
        # The conquering roll cost the attacker nothing, so it used min(3, left - 1) dice.
        dice = min(self.att_max, left_a - self.stay)
        return self._conquer(seat, s, t, dice, a.move_all, [fought])

    def _conquer(
        self, seat: Seat, s: int, t: int, dice: int, move_all: bool, events: list[Event]
    ) -> list[Event]:
        """Take `t` from `s`, appending what happens to `events` (returned)."""
        loser = self.owner[t]
        self.board_view = None
        self.owner[t] = seat
        self.counts[seat] += 1
        self.counts[loser] -= 1
        self.conquered = True
        ids = self.topo.ids
        hi = self.armies[s] - self.stay
        events.append(Conquered(seat, loser, ids[s], ids[t], dice, hi))
        if move_all and self.counts[loser] > 0:
            self.armies[s] -= hi
            self.armies[t] = hi
            events.append(Occupied(seat, ids[s], ids[t], hi))
            return events
        # The minimum moves in at once, so no territory is ever empty; `Occupy` names the
        # total, the rest follows it.
        self.armies[s] -= dice
        self.armies[t] = dice
        self.pending = {"source": s, "target": t, "min": dice}
        self.phase = "occupy"
        if self.counts[loser] == 0:
            events.extend(self._eliminate(loser, seat))
        if move_all or dice >= hi or self.result is not None:
            events.extend(self._occupy(hi if move_all or self.result is not None else dice))
        return events

    def _eliminate(self, loser: Seat, by: Seat) -> list[Event]:
        self.board_view = None
        self.alive[loser] = False
        self.out_order.append(loser)
        taken = self.hands[loser]
        self.hands[loser] = []
        self.hands[by].extend(taken)
        events: list[Event] = [A.Eliminated(loser, by, len(taken))]
        living = [s for s in range(self.players) if self.alive[s]]
        if len(living) == 1:
            places = [(by,)] + [(s,) for s in reversed(self.out_order)]
            self.result = Outcome((by,), tuple(places), "conquered every territory")
            events.append(GameOver(self.result))
        elif taken:
            self.cards_after_occupy = True
        return events

    def _do_occupy(self, seat: Seat, a: A.Occupy) -> list[Event]:
        return self._occupy(a.armies)

    def _occupy(self, armies: int) -> list[Event]:
        p = self.pending
        assert p is not None
        s, t = p["source"], p["target"]
        extra = armies - p["min"]
        self.armies[s] -= extra
        self.armies[t] += extra
        self.pending = None
        ids = self.topo.ids
        events: list[Event] = [Occupied(self.current, ids[s], ids[t], armies)]
        if self.result is not None:
            self.phase = "over"
            return events
        self.phase = "attack"
        if self.cards_after_occupy:
            self.cards_after_occupy = False
            events.extend(self._after_elimination_cards(self.current))
        return events

    def _do_end_attack(self, seat: Seat, a: A.EndAttack) -> list[Event]:
        self.phase = "fortify"
        return []

    def _do_fortify(self, seat: Seat, a: A.Fortify) -> list[Event]:
        s, t = self.topo.index[a.source], self.topo.index[a.target]
        self.armies[s] -= a.armies
        self.armies[t] += a.armies
        events: list[Event] = [A.Fortified(seat, a.source, a.target, a.armies)]
        events.extend(self._end_turn(seat))
        return events

    def _do_end_turn(self, seat: Seat, a: A.EndTurn) -> list[Event]:
        return self._end_turn(seat)

    def _end_turn(self, seat: Seat) -> list[Event]:
        events: list[Event] = []
        deck = self.deck_rules
        if self.conquered and deck is not None:
            for _ in range(self.rules.cards.draw_per_turn):
                if not self.deck:
                    break
                card = self.deck.pop(0)
                hand = self.hands[seat]
                hand.append(card)
                events.append(A.CardDrawn(seat))
                if (
                    deck.rules.discard_lowest_without_pair
                    and len(hand) > self.rules.cards.hand_limit
                    and not deck.has_pair(hand)
                ):
                    low = deck.lowest(hand)
                    hand.remove(low)
                    self.deck.append(low)
                    events.append(A.CardDiscarded(seat, low))
        events.append(A.TurnEnded(seat))
        n, alive = self.players, self.alive
        nxt = (seat + 1) % n
        while not alive[nxt]:
            nxt = (nxt + 1) % n
        events.extend(self._begin_turn(nxt))
        return events

    def _finish_by_turns(self) -> list[Event]:
        """R8 ends a game by conquest; `max_turns` ends it early, ranked by territories
        then armies on the board (equal seats share a place)."""
        armies = [0] * self.players
        for t, o in enumerate(self.owner):
            armies[o] += self.armies[t]
        living = [s for s in range(self.players) if self.alive[s]]
        key = {s: (self.counts[s], armies[s]) for s in living}
        ranks = sorted(set(key.values()), reverse=True)
        places = [tuple(s for s in living if key[s] == r) for r in ranks]
        places += [(s,) for s in reversed(self.out_order)]
        self.result = Outcome(places[0], tuple(places), f"turn limit of {self.max_turns} reached")
        self.phase = "over"
        self.pending = None
        return [GameOver(self.result)]

    def _do_time_up(self, seat: Seat, a: A.TimeUp) -> list[Event]:
        """R7: a defender out of time rolls the most dice (R3's default). The player whose
        turn it is: unplaced armies go to the owned territory with the most enemy
        neighbours, an attack in progress stops and the turn passes."""
        events: list[Event] = [A.TimeRanOut(seat)]
        if self.phase == "defend":
            assert self.pending is not None
            most = min(self.def_max, self.armies[self.pending["target"]])
            events.extend(self._do_defend(seat, A.Defend(most)))
            return events
        me = self.current
        if self.phase == "setup":
            events.extend(self._auto_place(me, self.step_left))
            self.board_view = None
            self.setup_left[me] -= self.step_left
            self.step_left = 0
            events.extend(self._next_setup_seat())
            return events
        if self.phase == "occupy":
            assert self.pending is not None
            events.extend(self._occupy(self.pending["min"]))
        deck = self.deck_rules
        if deck is not None and self.phase in ("place", "cards"):
            while self.forced(me):
                best = deck.best_sets(self.hands[me], self.sets_done)[0]
                events.extend(self._do_turn_in(me, A.TurnIn(best)))
                self.phase = "place"
        if self.pool > 0:
            events.extend(self._auto_place(me, self.pool))
            self.pool = 0
        self.phase = "attack"
        events.extend(self._end_turn(me))
        return events

    def _auto_place(self, seat: Seat, armies: int) -> list[Event]:
        if armies <= 0:
            return []
        owned = [t for t in range(len(self.topo)) if self.owner[t] == seat]
        best = max(owned, key=lambda t: (self.border_score(seat, t), -t))
        self.armies[best] += armies
        self.placed_total += armies
        return [A.Placed(seat, self.topo.ids[best], armies)]

    # -- legal actions --------------------------------------------------------------
    def legal(self, seat: Seat) -> ViewActions:
        """Everything `seat` may do now, as a lazy `ActionList` (empty when not awaited).

        The list is worked out from the seat's view alone (`seat_legal`), so it leads to
        no engine state; it describes this moment even after the state moves on.
        `TimeUp` (the host's) and `PlaceMany` (several listed `Place` actions at once)
        are accepted but not listed (its `contains` knows them). Calls at one moment
        share one list, made from `view`'s view (`seat_views.seat_actions`).
        """
        return seat_actions(self, seat)

    def attack_pairs(self, seat: Seat) -> list[tuple[int, int]]:
        """(source, target) index pairs `seat` can attack now, in board order."""
        owner, armies, adj = self.owner, self.armies, self.topo.adj
        stay = self.stay
        return [
            (s, t)
            for s in range(len(owner))
            if owner[s] == seat and armies[s] > stay
            for t in adj[s]
            if owner[t] != seat
        ]

    # -- views -----------------------------------------------------------------------
    def view(self, seat: Seat | None) -> WorldWarView:
        """What `seat` may see (None: a spectator): see `views.WorldWarView`. Calls at
        one moment share one view (`seat_views.seat_view`)."""
        return seat_view(self, seat)

    def touch(self) -> None:
        """Say that the state was changed by hand (not through `apply`): the next view
        is built afresh. (Armies and hands changed by hand are seen without it.)"""
        self.version += 1
        self.board_view = None

    # -- snapshots -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot with the match's config and rules; `from_dict` rebuilds an
        equal state."""
        return snapshot(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], board: Board | None = None) -> WorldWarState:
        """Rebuild a state from `to_dict` output on the board its config names (or on
        `board`); ValueError naming what is broken (a bad config is a ConfigError, a bad
        board a BoardError, both ValueErrors)."""
        from suite.worldwar.rules import SPEC

        config: WorldWarConfig = parse_config(SPEC, d["config"])
        embed = board is not None or "board" in d
        if board is None and "board" in d:
            board = Board.from_json(d["board"], source="saved game")
        if board is None:
            board = board_for(config, config.map_seed or 0)
        saved = d.get("rules")
        rules = _rules_for(config) if saved is None else rules_from_dict(saved)
        st = cls(board, config, rules, Rng.from_dict(d["rng"]))
        fill(st, d, PHASES)
        st.embed_board = embed
        return st


_DO: dict[type, Callable[[WorldWarState, Seat, Any], list[Event]]] = {
    A.Place: WorldWarState._do_place,
    A.PlaceMany: WorldWarState._do_place_many,
    A.AutoPlace: WorldWarState._do_auto_place,
    A.TurnIn: WorldWarState._do_turn_in,
    A.Attack: WorldWarState._do_attack,
    A.Blitz: WorldWarState._do_blitz,
    A.Defend: WorldWarState._do_defend,
    A.Occupy: WorldWarState._do_occupy,
    A.EndAttack: WorldWarState._do_end_attack,
    A.Fortify: WorldWarState._do_fortify,
    A.EndTurn: WorldWarState._do_end_turn,
    A.SkipTurnIn: WorldWarState._do_skip_turn_in,
    A.TimeUp: WorldWarState._do_time_up,
}

_CHECK: dict[type, Callable[[WorldWarState, Seat, Any], str | None]] = {
    A.Place: WorldWarState._check_place,
    A.PlaceMany: WorldWarState._check_place_many,
    A.AutoPlace: WorldWarState._check_auto_place,
    A.TurnIn: WorldWarState._check_turn_in,
    A.Attack: WorldWarState._check_attack,
    A.Blitz: WorldWarState._check_battle,
    A.Defend: WorldWarState._check_defend,
    A.Occupy: WorldWarState._check_occupy,
    A.EndAttack: WorldWarState._check_end_attack,
    A.Fortify: WorldWarState._check_fortify,
    A.EndTurn: WorldWarState._check_end_turn,
    A.SkipTurnIn: WorldWarState._check_skip_turn_in,
    A.TimeUp: WorldWarState._check_time_up,
}


def _placements_typed(a: A.PlaceMany) -> bool:
    placements: tuple[object, ...] = a.placements  # read untyped: the check is ours
    for p in placements:
        if type(p) is not tuple or len(p) != 2 or type(p[0]) is not str or type(p[1]) is not int:
            return False
    return True


def _cards_typed(a: A.TurnIn) -> bool:
    cards: tuple[object, ...] = a.cards  # read untyped: the check is ours
    return all(type(c) is int for c in cards)


_ELEMENTS: dict[type, Callable[[Any], bool]] = {
    A.TurnIn: _cards_typed,
    A.PlaceMany: _placements_typed,
}
"""Checks of the elements of an action's tuple fields (see `_well_typed`)."""


def _field_types(cls: type[Action]) -> tuple[tuple[str, ...], tuple[type, ...]]:
    """The names of a `cls` action's fields and their declared types (a generic type such
    as `tuple[int, ...]` counts as its origin, `tuple`)."""
    fields = msgspec.structs.fields(cls)
    names = tuple(f.name for f in fields)
    return names, tuple(f.type if isinstance(f.type, type) else tuple for f in fields)


def _typed(action: object, names: tuple[str, ...], types: tuple[type, ...], elements: Any) -> bool:
    """Has every field of `action` exactly its declared type (`_field_types`), and do its
    tuple fields' elements pass `elements` (None: no such check)? A plain loop over the
    fields: `apply` asks it before every action."""
    for i in range(len(names)):
        if type(getattr(action, names[i])) is not types[i]:
            return False
    return elements is None or bool(elements(action))


_Op = tuple[
    tuple[str, ...],
    tuple[type, ...],
    Callable[[Any], bool] | None,
    Callable[["WorldWarState", Seat, Any], str | None],
    Callable[["WorldWarState", Seat, Any], list[Event]],
]
"""How `apply` handles one action type: its fields' names and types and the check of
their elements (`_typed`), its check, its effect."""

_OPS: dict[type, _Op] = {
    cls: (*_field_types(cls), _ELEMENTS.get(cls), _CHECK[cls], do) for cls, do in _DO.items()
}


def _well_typed(action: Action) -> bool:
    """True when every field of `action` has exactly its declared type (the fast path of
    `apply`; anything else goes through the core's `validate_action`, which says what is
    wrong)."""
    op = _OPS.get(type(action))
    return op is not None and _typed(action, op[0], op[1], op[2])
