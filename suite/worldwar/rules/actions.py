"""World War actions (what a seat asks) and events (what happened), tagged by `kind`.

Territories are named by their board id (str). Card ids are ints into the game's deck.
"""

from __future__ import annotations

from typing import Union

from suite.core.match import Action, Event, GameOver, Seat

# -- actions ---------------------------------------------------------------------------


class Place(Action, frozen=True, tag="place"):
    """Put `armies` of the armies still to place (set-up step or reinforcements) on
    an owned `territory`."""

    territory: str
    armies: int = 1


class PlaceMany(Action, frozen=True, tag="place_many"):
    """Several placements confirmed at once: (territory, armies) pairs, territories may
    repeat. Same rules as `Place` for the total. Accepted but not listed by `legal()`
    (it is a sequence of listed `Place` actions)."""

    placements: tuple[tuple[str, int], ...]


class AutoPlace(Action, frozen=True, tag="auto_place"):
    """Place every set-up army `seat` has left at once (RULINGS R13): one at a time on the
    own border territory that is weakest against its strongest enemy neighbour."""


class TurnIn(Action, frozen=True, tag="turn_in"):
    """Turn in `cards` (card ids) as one set for armies to place."""

    cards: tuple[int, ...]


class Attack(Action, frozen=True, tag="attack"):
    """One roll from `source` into the adjacent enemy `target` with `dice` dice."""

    source: str
    target: str
    dice: int


class Blitz(Action, frozen=True, tag="blitz"):
    """Attack to the end with the most dice until `target` falls or `source` has 1 army.

    With `move_all` a conquest moves every army but one in at once; otherwise the
    occupation move is asked for.
    """

    source: str
    target: str
    move_all: bool = False


class Defend(Action, frozen=True, tag="defend"):
    """The defender's choice of 1 or 2 dice (only when the game asks defenders)."""

    dice: int


class Occupy(Action, frozen=True, tag="occupy"):
    """Move `armies` from the attacking territory into the one just conquered."""

    armies: int


class EndAttack(Action, frozen=True, tag="end_attack"):
    """Stop attacking and go on to the free move."""


class Fortify(Action, frozen=True, tag="fortify"):
    """The single free move: `armies` from `source` to an adjacent owned `target`."""

    source: str
    target: str
    armies: int


class EndTurn(Action, frozen=True, tag="end_turn"):
    """End the turn (skipping what is left of attacks and the free move)."""


class SkipTurnIn(Action, frozen=True, tag="skip_turn_in"):
    """Keep the cards when an elimination offers an optional turn-in (poker)."""


class TimeUp(Action, frozen=True, tag="time_up"):
    """The turn clock ran out (R7); sent by the host or server for the awaited seat.

    Refused when the match has no clock. For a defender it only picks the defender's
    dice (the most, R3's default); for the player whose turn it is the turn ends."""


WorldWarAction = Union[  # noqa: UP007 - msgspec needs a real Union object
    Place,
    PlaceMany,
    AutoPlace,
    TurnIn,
    Attack,
    Blitz,
    Defend,
    Occupy,
    EndAttack,
    Fortify,
    EndTurn,
    SkipTurnIn,
    TimeUp,
]

# -- events ----------------------------------------------------------------------------


class Dealt(Event, frozen=True, tag="dealt"):
    """Territories dealt (owner seat per territory, board order); `first` starts."""

    owners: tuple[Seat, ...]
    first: Seat
    armies: tuple[int, ...]


class Placed(Event, frozen=True, tag="placed"):
    seat: Seat
    territory: str
    armies: int


class TurnBegan(Event, frozen=True, tag="turn_began"):
    """`reinforcements` = from territories + from continents (listed by id)."""

    seat: Seat
    turn: int
    reinforcements: int
    from_territories: int
    continents: tuple[str, ...]


class CardsTurnedIn(Event, frozen=True, tag="cards_turned_in"):
    seat: Seat
    cards: tuple[int, ...]
    set_kind: str
    armies: int


class DefenceAsked(Event, frozen=True, tag="defence_asked"):
    defender: Seat
    source: str
    target: str
    attacker_dice: int


class DiceRolled(Event, frozen=True, tag="dice_rolled"):
    """One roll: the dice (highest first) and the losses on each side."""

    seat: Seat
    defender: Seat
    source: str
    target: str
    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    attacker_loss: int
    defender_loss: int


class BattleFought(Event, frozen=True, tag="battle_fought"):
    """An attack to the end, resolved at once: losses on each side."""

    seat: Seat
    defender: Seat
    source: str
    target: str
    attacker_loss: int
    defender_loss: int


class Conquered(Event, frozen=True, tag="conquered"):
    seat: Seat
    loser: Seat
    source: str
    target: str
    min_move: int
    max_move: int


class Occupied(Event, frozen=True, tag="occupied"):
    seat: Seat
    source: str
    target: str
    armies: int


class Eliminated(Event, frozen=True, tag="eliminated"):
    """`seat` lost its last territory to `by`, who takes its `cards` (a count)."""

    seat: Seat
    by: Seat
    cards: int


class Fortified(Event, frozen=True, tag="fortified"):
    seat: Seat
    source: str
    target: str
    armies: int


class CardDrawn(Event, frozen=True, tag="card_drawn"):
    """A card went to `seat`'s hand (which card only that seat's view shows)."""

    seat: Seat


class CardDiscarded(Event, frozen=True, tag="card_discarded"):
    """Poker: a 6th card with no pair made `seat` discard its lowest `card` (R6)."""

    seat: Seat
    card: int


class TimeRanOut(Event, frozen=True, tag="time_ran_out"):
    seat: Seat


class TurnEnded(Event, frozen=True, tag="turn_ended"):
    seat: Seat


WorldWarEvent = Union[  # noqa: UP007 - msgspec needs a real Union object
    Dealt,
    Placed,
    TurnBegan,
    CardsTurnedIn,
    DefenceAsked,
    DiceRolled,
    BattleFought,
    Conquered,
    Occupied,
    Eliminated,
    Fortified,
    CardDrawn,
    CardDiscarded,
    TimeRanOut,
    TurnEnded,
    GameOver,
]
"""Every World War event, the core `GameOver` included (for decoding)."""
