"""What a seat of a World War match may see: the typed `WorldWarView`.

A view is a frozen msgspec record: it encodes to JSON and decodes back equal, and it never
changes under its reader. It holds the board as it is, the seat's own cards (other hands
only as counts), the choices of the moment with their numbers (the dice an attack or a
defence may roll, the armies an occupation may move) and the match's rule numbers
(`WorldWarRules`), so a screen or a bot needs nothing else.

`seat_views.build_view` makes them from a state.
"""

from __future__ import annotations

import msgspec

from suite.core.match import Outcome, Seat, View
from suite.worldwar.rules.data import Battle
from suite.worldwar.rules.modes import Mission


class WorldWarMap(msgspec.Struct, frozen=True, kw_only=True):
    """The board's tables: territories and continents by index (they never change)."""

    territories: tuple[str, ...]
    """Territory ids in board order (actions name territories by these ids)."""
    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    continents: tuple[str, ...]
    continent_names: tuple[str, ...]
    continent_of: tuple[int, ...]
    continent_members: tuple[tuple[int, ...], ...]
    continent_bonus: tuple[int, ...]


class WorldWarRules(msgspec.Struct, frozen=True, kw_only=True):
    """The match's rule numbers a player needs (from its rules data and config)."""

    cards: str
    """The card mode ("increasing", "royalty", "poker" or "none")."""
    has_cards: bool
    set_values: tuple[tuple[str, int], ...]
    """Armies per set kind (empty when a shared counter gives the value)."""
    hand_limit: int
    draw_per_turn: int
    placement_step: int
    attacker_max_dice: int
    defender_max_dice: int
    dice_sides: int
    stay_behind: int
    defender: str
    """"auto" (defenders roll the most dice) or "ask" (defenders choose)."""
    clock: int
    """Seconds per turn (0: no clock)."""
    max_turns: int | None
    mode: str = "domination"
    """How the match is won: "domination" (R8), "capital" or "mission" (`modes`)."""
    reinforce_divisor: int
    reinforce_minimum: int
    """R2: a turn's reinforcements are max(minimum, territories // divisor) + continents."""
    set_sizes: tuple[int, ...]
    """How many cards a set holds (the card mode's sizes; empty without cards)."""
    set_step: int = 0
    """Armies the shared set counter adds with every set turned in (increasing mode's
    step; 0 in modes without a counter)."""

    def dice(self) -> Battle:
        """The match's dice rules (for `odds.odds_for`)."""
        return Battle(
            attacker_max_dice=self.attacker_max_dice,
            defender_max_dice=self.defender_max_dice,
            dice_sides=self.dice_sides,
            stay_behind=self.stay_behind,
        )


class Card(msgspec.Struct, frozen=True):
    """One of the seat's own cards ("" suit in modes without suits)."""

    id: int
    rank: str
    suit: str = ""


class AttackWaiting(msgspec.Struct, frozen=True, kw_only=True):
    """An attack waiting for the defender's dice: territories by index, the attacker's
    dice and the dice the defender may roll (1..`defend_max`)."""

    source: int
    target: int
    dice: int
    defend_max: int


class OccupyRange(msgspec.Struct, frozen=True, kw_only=True):
    """A conquest waiting for the occupation: `Occupy` names the total moved in, from
    `min` (already there) to `max` (RULINGS R9)."""

    source: int
    target: int
    min: int
    max: int


class WorldWarView(View, frozen=True, kw_only=True, tag="worldwar"):
    """What `seat` sees (None: a spectator, who sees no cards)."""

    seat: Seat | None
    players: int
    map: WorldWarMap
    rules: WorldWarRules
    phase: str
    current: Seat
    awaiting: tuple[Seat, ...]
    turn: int
    owner: tuple[int, ...]
    armies: tuple[int, ...]
    territory_counts: tuple[int, ...]
    alive: tuple[bool, ...]
    setup_left: tuple[int, ...]
    step_left: int
    """Armies left in the current set-up step (R1)."""
    pool: int
    """Reinforcements left to place this turn."""
    mid_turn: bool
    """Placing after a turn-in forced by an elimination (no turn-in at the start then)."""
    hand: tuple[int, ...] = ()
    hand_cards: tuple[Card, ...] = ()
    hand_sizes: tuple[int, ...] = ()
    deck_left: int = 0
    sets_turned_in: int = 0
    next_set_value: int | None = None
    best_turn_in: tuple[tuple[int, ...], ...] = ()
    must_turn_in: bool = False
    may_turn_in: bool = False
    conquered_this_turn: bool = False
    attack: AttackWaiting | None = None
    occupy: OccupyRange | None = None
    outcome: Outcome | None = None
    capitals: tuple[int, ...] = ()
    """Capital mode: each seat's capital territory (public)."""
    mission: Mission | None = None
    """Secret Mission: the seat's own mission as it stands (None for the others)."""

    def to_place(self) -> int:
        """Armies to place now (the set-up step or the reinforcements)."""
        if self.phase == "setup":
            return self.step_left
        return self.pool if self.phase == "place" else 0

    def attack_dice(self, source: int) -> int:
        """The most dice an attack from territory `source` may roll now (0: none)."""
        r = self.rules
        return max(0, min(r.attacker_max_dice, self.armies[source] - r.stay_behind))

    def movable(self, source: int) -> int:
        """Armies that may leave `source` (a free move; all but those that stay)."""
        return max(0, self.armies[source] - self.rules.stay_behind)

    def actor(self) -> Seat | None:
        """The one awaited seat (None once the game is over)."""
        return self.awaiting[0] if self.awaiting else None


HandView = tuple[tuple[int, ...], tuple["Card", ...], tuple[tuple[int, ...], ...], bool, bool]
"""(hand, its cards, best sets, must turn in, holds a set) of a seat, kept by the state."""
