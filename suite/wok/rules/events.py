"""WoK events: what happened, public to every seat (details go into private reports).

The game ends with the core `GameOver` event; `WokEvent` is the tagged union of them all.
"""

from __future__ import annotations

from suite.core.match import Event, GameOver


class OrdersAccepted(Event, frozen=True, tag="orders_accepted"):
    seat: int
    colours: tuple[int, ...]
    ready: bool


class ReadyChanged(Event, frozen=True, tag="ready_changed"):
    seat: int
    ready: bool


class TurnRan(Event, frozen=True, tag="turn_ran"):
    turn: int
    next_oop: tuple[int, ...]


class ProvinceTaken(Event, frozen=True, tag="province_taken"):
    turn: int
    province: int
    by: int
    previous: int  # -1: neutral


class Ripped(Event, frozen=True, tag="ripped"):
    turn: int
    colour: int
    by: int


class VoteCast(Event, frozen=True, tag="vote_cast"):
    seat: int
    end: bool


class AllianceChanged(Event, frozen=True, tag="alliance_changed"):
    """A mutual alliance (W13) between colours `a` < `b` was made or broken.

    One-sided declarations are private and make no event.
    """

    a: int
    b: int
    allied: bool


class SeatQuit(Event, frozen=True, tag="seat_quit"):
    seat: int
    reason: str


class Poked(Event, frozen=True, tag="poked"):
    seat: int
    waiting: tuple[int, ...]


WokEvent = (
    OrdersAccepted
    | ReadyChanged
    | TurnRan
    | ProvinceTaken
    | Ripped
    | VoteCast
    | AllianceChanged
    | SeatQuit
    | Poked
    | GameOver
)
