"""The World War rules engine: one match as a deterministic state machine.

Phases (``phase``): "setup" (players place their starting armies up to 3 at a time),
"place" (reinforcements, with card turn-ins at the start of the turn), "cards" (a
turn-in right after an elimination), "attack", "defend" (only when defenders choose
their dice), "occupy" (the move into a conquered territory), "fortify" (the single free
move) and "over". Every rule number comes from the rules data (`data.RuleSet`).

Territories are integer-indexed internally (`topology.Topology`); owners and armies are
plain lists. `apply` validates the whole action first (`check`) and only then mutates,
so a refused action leaves the state exactly as it was. All chance comes from the
state's own `Rng`; an attack to the end draws its result in one go from the exact end
distribution of `odds` (exact in distribution), a single roll throws real dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from suite.core.board import Board
from suite.core.dice import risk_losses, roll_sorted
from suite.core.match import Action, Event, IllegalAction, Outcome, Seat
from suite.core.rng import Rng
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.cards import Deck, make_deck
from suite.worldwar.rules.data import CARD_MODES, RuleSet, default_rules
from suite.worldwar.rules.legal import ActionList, CountBlock, StateActions
from suite.worldwar.rules.odds import resolve_battle
from suite.worldwar.rules.snapshot import GAME, fill, snapshot
from suite.worldwar.rules.topology import Topology, topology
from suite.worldwar.rules.views import build_view, refresh_view

BoardView = tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], tuple[int, ...]]
PHASES = ("setup", "place", "cards", "attack", "defend", "occupy", "fortify", "over")


class ConfigError(ValueError):
    """A game config the engine cannot play (names the key and the problem)."""


class WorldWar:
    """One World War match (the `suite.core.match.State` contract).

    Build one with `WorldWar.new(board, config, seed)`; `config` keys: "players" (2-6),
    "cards" (increasing, royalty, poker, none), "defender" ("auto": the defender always
    rolls the most dice, R3's default; "ask": the defender chooses with `Defend`),
    "clock" (seconds, R7; the host enforces it by sending `TimeUp`), "max_turns"
    (optional: after that many rounds the game ends and ranks by territories, then armies).
    """

    game = GAME

    def __init__(self, board: Board, config: Mapping[str, Any], rules: RuleSet, rng: Rng) -> None:
        """An empty shell drawing chance from `rng`; use `new` or `restore`."""
        self.board = board
        self.topo: Topology = topology(board)
        self.rules = rules
        self.config = dict(config)
        players = config.get("players", 2)
        if not isinstance(players, int) or not rules.min_players <= players <= rules.max_players:
            raise ConfigError(
                f"players must be {rules.min_players}-{rules.max_players}, not {players!r}"
            )
        if players > len(self.topo):
            raise ConfigError(f"{players} players need at least {players} territories")
        self.players: int = players
        mode = config.get("cards", "increasing")
        if mode not in CARD_MODES:
            raise ConfigError(f"cards must be one of {', '.join(CARD_MODES)}, not {mode!r}")
        self.mode: str = mode
        self.deck_rules: Deck | None = None if mode == "none" else make_deck(rules.cards[mode])
        defender = config.get("defender", "auto")
        if defender not in ("auto", "ask"):
            raise ConfigError(f"defender must be 'auto' or 'ask', not {defender!r}")
        self.ask_defender: bool = defender == "ask"
        clock = config.get("clock", rules.clock_default)
        if clock not in rules.clock_choices:
            raise ConfigError(f"clock must be one of {rules.clock_choices}, not {clock!r}")
        self.clock: int = clock
        max_turns = config.get("max_turns")
        if max_turns is not None and (not isinstance(max_turns, int) or max_turns < 1):
            raise ConfigError(f"max_turns must be a positive whole number, not {max_turns!r}")
        self.max_turns: int | None = max_turns
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
        self.start_events: list[Event] = []
        self.version = 0
        self._peeked: dict[Seat, dict[str, Any]] = {}
        self._pair = (0, 0)
        # The unchanging keys of every view, built on first use (`views.view_base`).
        self.view_base: dict[str, Any] | None = None
        # Tuples of owner, counts, alive and setup_left shared by views; every change to
        # one of those lists drops it (None), the next view rebuilds it.
        self.board_view: BoardView | None = None

    # -- creation ----------------------------------------------------------------
    @classmethod
    def new(
        cls,
        board: Board,
        config: Mapping[str, Any],
        seed: int,
        rules: RuleSet | None = None,
    ) -> WorldWar:
        """Deal a new match (R1): random first player, territories dealt round-robin from
        a shuffled order (the first players take the extras), one army on each."""
        st = cls(board, config, rules or default_rules(), Rng(seed))
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
        start = st.rules.starting_armies.get(n)
        if start is None:
            raise ConfigError(f"the rules data has no starting armies for {n} players")
        st.setup_left = [max(0, start - st.counts[s]) for s in range(n)]
        st.start_events = [A.Dealt(tuple(st.owner), st.first, tuple(st.armies))]
        st.current = st.first
        if st.setup_left[st.first] > 0:
            st.phase = "setup"
            st.step_left = min(st.rules.placement_step, st.setup_left[st.first])
        else:
            st.start_events.extend(st._next_setup_seat())
        return st

    # -- the State contract ------------------------------------------------------
    def awaiting(self) -> frozenset[Seat]:
        """The seat to act: the current player, or the defender when asked to defend."""
        if self.phase == "over":
            return frozenset()
        if self.phase == "defend" and self.pending is not None:
            return frozenset((self.owner[self.pending["target"]],))
        return frozenset((self.current,))

    def actor(self) -> Seat | None:
        """The single awaited seat (None once the game is over)."""
        if self.phase == "over":
            return None
        if self.phase == "defend" and self.pending is not None:
            return self.owner[int(self.pending["target"])]
        return self.current

    def outcome(self) -> Outcome | None:
        return self.result

    def check(self, seat: Seat, action: Action) -> str | None:
        """Why `seat` may not do `action` now, or None when it may."""
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

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Validate, then perform; IllegalAction (with the reason) leaves the state as it was."""
        reason = self.check(seat, action)
        if reason is not None:
            raise IllegalAction(reason)
        self.version += 1
        return _DO[type(action)](self, seat, action)

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
        if deck is None or len(self.hands[seat]) < self.rules.hand_limit:
            return False
        return bool(deck.legal_sets(self.hands[seat]))

    def _sets_on_offer(self, seat: Seat) -> list[tuple[int, ...]]:
        deck = self.deck_rules
        if deck is None:
            return []
        if self.forced(seat) and deck.mode == "poker":
            return deck.best_sets(self.hands[seat], self.sets_done)
        return deck.legal_sets(self.hands[seat])

    def _may_turn_in(self, seat: Seat) -> bool:
        if self.phase == "cards":
            return True
        return self.phase == "place" and not self.mid_turn

    def reinforcements(self, seat: Seat) -> tuple[int, int, tuple[str, ...]]:
        """(total, from territories, continents held) for `seat` now (R2)."""
        r = self.rules
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
        total = 0
        for territory, armies in a.placements:
            t = index.get(territory)
            if t is None or owner[t] != seat or armies < 1:
                return self._check_target(seat, territory, armies)
            total += armies
        if total > left:
            return f"you can place 1 to {left} armies now, not {total}"
        return None

    def _check_turn_in(self, seat: Seat, a: A.TurnIn) -> str | None:
        if not self._may_turn_in(seat):
            return "cards are turned in at the start of your turn"
        reason = self._set_reason(seat, a.cards)
        if reason is not None:
            return reason
        deck = self.deck_rules
        assert deck is not None
        if self.forced(seat) and deck.mode == "poker":
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
            and self.armies[s] > self.rules.stay_behind
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
        if self.armies[s] <= self.rules.stay_behind:
            return f"{self.topo.names[s]} needs at least 2 armies to attack"
        self._pair = (s, t)
        return None

    def _check_attack(self, seat: Seat, a: A.Attack) -> str | None:
        reason = self._check_battle(seat, a)
        if reason is not None:
            return reason
        most = min(
            self.rules.attacker_max_dice, self.armies[self._pair[0]] - self.rules.stay_behind
        )
        if not 1 <= a.dice <= most:
            return f"you can roll 1 to {most} dice from there, not {a.dice}"
        return None

    def _check_defend(self, seat: Seat, a: A.Defend) -> str | None:
        if self.phase != "defend" or self.pending is None:
            return "no attack waits for your defence"
        most = min(self.rules.defender_max_dice, self.armies[self.pending["target"]])
        if not 1 <= a.dice <= most:
            return f"you can defend with 1 to {most} dice, not {a.dice}"
        return None

    def _check_occupy(self, seat: Seat, a: A.Occupy) -> str | None:
        if self.phase != "occupy" or self.pending is None:
            return "there is no conquest to occupy"
        lo = self.pending["min"]
        hi = lo + self.armies[self.pending["source"]] - self.rules.stay_behind
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
        most = self.armies[s] - self.rules.stay_behind
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
        return None

    # -- performing ---------------------------------------------------------------
    def _do_place(self, seat: Seat, a: A.Place) -> list[Event]:
        self.armies[self.topo.index[a.territory]] += a.armies
        return self._placed(seat, a.armies, [A.Placed(seat, a.territory, a.armies)])

    def _do_place_many(self, seat: Seat, a: A.PlaceMany) -> list[Event]:
        totals: dict[str, int] = {}
        for territory, armies in a.placements:
            totals[territory] = totals.get(territory, 0) + armies
        index = self.topo.index
        events: list[Event] = []
        for territory, armies in totals.items():
            self.armies[index[territory]] += armies
            events.append(A.Placed(seat, territory, armies))
        return self._placed(seat, sum(totals.values()), events)

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
                self.step_left = min(self.rules.placement_step, self.setup_left[seat])
                return []
        return self._begin_turn(self.first, first_turn=True)

    def _begin_turn(self, seat: Seat, first_turn: bool = False) -> list[Event]:
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
        ad = roll_sorted(self.rng, att, self.rules.dice_sides)
        dd = roll_sorted(self.rng, dfn, self.rules.dice_sides)
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
        dfn = min(self.rules.defender_max_dice, self.armies[t])
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
        if self.armies[s] > self.rules.stay_behind:
            dice = min(self.rules.attacker_max_dice, self.armies[s] - self.rules.stay_behind)
            events.extend(self._ask_defence(s, t, dice, True, p["move_all"]))
        return events

    def _do_blitz(self, seat: Seat, a: A.Blitz) -> list[Event]:
        s, t = self._pair  # set by the check that `apply` just ran
        if self.ask_defender:
            dice = min(self.rules.attacker_max_dice, self.armies[s] - self.rules.stay_behind)
            return self._ask_defence(s, t, dice, blitz=True, move_all=a.move_all)
        att, dfn = self.armies[s], self.armies[t]
        left_a, left_d = resolve_battle(att, dfn, self.rng)
        self.armies[s] = left_a
        self.armies[t] = left_d
        self.lost_total += att - left_a + dfn - left_d
        ids = self.topo.ids
        fought = A.BattleFought(seat, self.owner[t], ids[s], ids[t], att - left_a, dfn - left_d)
        if left_d:
            return [fought]
        # The conquering roll cost the attacker nothing, so it used min(3, left - 1) dice.
        dice = min(self.rules.attacker_max_dice, left_a - self.rules.stay_behind)
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
        hi = self.armies[s] - self.rules.stay_behind
        events.append(A.Conquered(seat, loser, ids[s], ids[t], dice, hi))
        if move_all and self.counts[loser] > 0:
            self.armies[s] -= hi
            self.armies[t] = hi
            events.append(A.Occupied(seat, ids[s], ids[t], hi))
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
            events.append(A.GameOver((by,), self.result.reason))
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
        events: list[Event] = [A.Occupied(self.current, ids[s], ids[t], armies)]
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
            for _ in range(self.rules.draw_per_turn):
                if not self.deck:
                    break
                card = self.deck.pop(0)
                hand = self.hands[seat]
                hand.append(card)
                events.append(A.CardDrawn(seat))
                if (
                    deck.rules.discard_lowest_without_pair
                    and len(hand) > self.rules.hand_limit
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
        return [A.GameOver(places[0], self.result.reason)]

    def _do_time_up(self, seat: Seat, a: A.TimeUp) -> list[Event]:
        """R7: unplaced armies go one at a time to the owned territory with the most
        enemy neighbours, an attack in progress stops and the turn passes."""
        events: list[Event] = [A.TimeRanOut(seat)]
        me = self.current
        if self.phase == "setup":
            events.extend(self._auto_place(me, self.step_left))
            self.board_view = None
            self.setup_left[me] -= self.step_left
            self.step_left = 0
            events.extend(self._next_setup_seat())
            return events
        if self.phase == "defend":
            self.pending = None
            self.phase = "attack"
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
    def legal(self, seat: Seat) -> ActionList:
        """Everything `seat` may do now, as a lazy `ActionList` (empty when not awaited).

        The list is built on first use and must be used before the next `apply`
        (`StaleActions` otherwise). `TimeUp` (the host's) and `PlaceMany` (several listed
        `Place` actions at once) are accepted but not listed.
        """
        return StateActions(self, seat)

    def fill_legal(self, seat: Seat, out: ActionList) -> None:
        """Add to `out` everything `seat` may do now (what `legal` lists, built eagerly)."""
        if self.phase == "over" or seat != self.actor():
            return
        ph = self.phase
        ids = self.topo.ids
        if ph == "setup":
            owned = [ids[t] for t in range(len(ids)) if self.owner[t] == seat]
            out.add_counts(CountBlock(owned, [self.step_left] * len(owned), A.Place, "place"))
        elif ph == "place":
            if self._may_turn_in(seat):
                out.add("turn_in", [A.TurnIn(c) for c in self._sets_on_offer(seat)])
            if self.mid_turn or not self.forced(seat):
                owned = [ids[t] for t in range(len(ids)) if self.owner[t] == seat]
                out.add_counts(CountBlock(owned, [self.pool] * len(owned), A.Place, "place"))
        elif ph == "cards":
            out.add("turn_in", [A.TurnIn(c) for c in self._sets_on_offer(seat)])
            if not self.forced(seat):
                out.add("skip_turn_in", [A.SkipTurnIn()])
        elif ph == "attack":
            pairs = self.attack_pairs(seat)
            keys = [(ids[s], ids[t]) for s, t in pairs]
            most = self.rules.attacker_max_dice
            stay = self.rules.stay_behind
            dice = [min(most, self.armies[s] - stay) for s, _ in pairs]
            out.add_counts(CountBlock(keys, dice, _attack, "attack"))
            out.add("blitz", [A.Blitz(a, b, m) for a, b in keys for m in (False, True)])
            self._add_fortify(out, seat)
            out.add("end_attack", [A.EndAttack()])
            out.add("end_turn", [A.EndTurn()])
        elif ph == "fortify":
            self._add_fortify(out, seat)
            out.add("end_turn", [A.EndTurn()])
        elif ph == "defend" and self.pending is not None:
            most = min(self.rules.defender_max_dice, self.armies[self.pending["target"]])
            out.add("defend", [A.Defend(d) for d in range(1, most + 1)])
        elif ph == "occupy" and self.pending is not None:
            lo = self.pending["min"]
            hi = lo + self.armies[self.pending["source"]] - self.rules.stay_behind
            out.add_counts(
                CountBlock([lo - 1], [hi - lo + 1], lambda base, k: A.Occupy(base + k), "occupy")
            )

    def attack_pairs(self, seat: Seat) -> list[tuple[int, int]]:
        """(source, target) index pairs `seat` can attack now, in board order."""
        owner, armies, adj = self.owner, self.armies, self.topo.adj
        stay = self.rules.stay_behind
        return [
            (s, t)
            for s in range(len(owner))
            if owner[s] == seat and armies[s] > stay
            for t in adj[s]
            if owner[t] != seat
        ]

    def _add_fortify(self, out: ActionList, seat: Seat) -> None:
        owner, armies, adj, ids = self.owner, self.armies, self.topo.adj, self.topo.ids
        stay = self.rules.stay_behind
        keys = [
            (ids[s], ids[t])
            for s in range(len(owner))
            if owner[s] == seat and armies[s] > stay
            for t in adj[s]
            if owner[t] == seat
        ]
        counts = [armies[self.topo.index[s]] - stay for s, _ in keys]
        out.add_counts(CountBlock(keys, counts, _fortify, "fortify"))

    # -- views -----------------------------------------------------------------------
    def peek(self, seat: Seat) -> dict[str, Any]:
        """`view(seat)` refreshed in place: each seat's dict is updated and returned again
        by its next `peek` (for callers that keep one view per seat)."""
        cached = self._peeked.get(seat)
        if cached is not None:
            refresh_view(self, cached, seat)
            return cached
        view = self._peeked[seat] = build_view(self, seat)
        return view

    def view(self, seat: Seat | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator). Other players' hands are counts only.

        Keys: game, seat, players, phase, current, awaiting, turn, territories (ids),
        names, neighbours (index tuples), continents, continent_of, continent_members,
        continent_bonus, owner, armies (per territory index), territory_counts, alive,
        setup_left, step_left, pool, cards (the mode), hand (own card ids), hand_cards
        (own cards described), hand_sizes, deck_left, sets_turned_in, next_set_value,
        best_turn_in (own best sets), must_turn_in, conquered_this_turn, pending
        (attack waiting for a defence or conquest waiting for occupation, by index),
        defender, clock, max_turns, outcome.

        The board (owner ... setup_left), awaiting, hand, hand_sizes and the map's tables
        are tuples (shared between views); pending, outcome, hand_cards and best_turn_in
        are the view's own. Nothing in a view changes when play goes on.
        """
        return build_view(self, seat)

    # -- snapshots -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot; `restore` (or the GameSpec's `load`) rebuilds an equal state."""
        return snapshot(self)

    @classmethod
    def restore(cls, d: Mapping[str, Any], board: Board, rules: RuleSet | None = None) -> WorldWar:
        """Rebuild a state from `to_dict` output on `board` (KeyError/ValueError if broken)."""
        st = cls(board, d["config"], rules or default_rules(), Rng.from_dict(d["rng"]))
        fill(st, d, PHASES)
        return st


_DO: dict[type, Callable[[WorldWar, Seat, Any], list[Event]]] = {
    A.Place: WorldWar._do_place,
    A.PlaceMany: WorldWar._do_place_many,
    A.TurnIn: WorldWar._do_turn_in,
    A.Attack: WorldWar._do_attack,
    A.Blitz: WorldWar._do_blitz,
    A.Defend: WorldWar._do_defend,
    A.Occupy: WorldWar._do_occupy,
    A.EndAttack: WorldWar._do_end_attack,
    A.Fortify: WorldWar._do_fortify,
    A.EndTurn: WorldWar._do_end_turn,
    A.SkipTurnIn: WorldWar._do_skip_turn_in,
    A.TimeUp: WorldWar._do_time_up,
}

_CHECK: dict[type, Callable[[WorldWar, Seat, Any], str | None]] = {
    A.Place: WorldWar._check_place,
    A.PlaceMany: WorldWar._check_place_many,
    A.TurnIn: WorldWar._check_turn_in,
    A.Attack: WorldWar._check_attack,
    A.Blitz: WorldWar._check_battle,
    A.Defend: WorldWar._check_defend,
    A.Occupy: WorldWar._check_occupy,
    A.EndAttack: WorldWar._check_end_attack,
    A.Fortify: WorldWar._check_fortify,
    A.EndTurn: WorldWar._check_end_turn,
    A.SkipTurnIn: WorldWar._check_skip_turn_in,
    A.TimeUp: WorldWar._check_time_up,
}


def _attack(key: tuple[str, str], dice: int) -> A.Attack:
    return A.Attack(key[0], key[1], dice)


def _fortify(key: tuple[str, str], armies: int) -> A.Fortify:
    return A.Fortify(key[0], key[1], armies)
