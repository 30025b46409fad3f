"""Card modes, decks and turn-in sets (worldwar.txt, RULINGS R5-R6).

Each card mode is one small record class (`Increasing`, `Royalty`, `Poker`, `NoCards`)
holding its numbers from the ``[cards.<mode>]`` table of rules.toml and knowing its sets:
`set_kind` names the set some cards form (or None), `set_value` its armies. `CARD_MODES`
registers them by name; nothing else in the game switches on a mode's name.

A card is an int id into its mode's `Deck`, which knows each card's rank and suit;
`legal_sets(hand)` lists every set in a hand and `best_sets(hand)` the most valuable ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import ClassVar

import msgspec


class CardMode(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """What every mode has: the deck (`ranks` x `suits`, `copies` times over), the set
    sizes and the two optional rules of R6. Subclasses name themselves with `name`."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    """How a set-up screen names the mode."""
    best_when_forced: ClassVar[bool] = False
    """With a full hand, must the best set be turned in (poker) rather than any set?"""
    ranks: tuple[str, ...] = ()
    suits: tuple[str, ...] = ("",)
    copies: int = 0
    set_sizes: tuple[int, ...] = ()
    optional_after_elimination: bool = False
    discard_lowest_without_pair: bool = False

    def __post_init__(self) -> None:
        if self.copies < 0 or any(s < 1 for s in self.set_sizes):
            raise ValueError("copies and set sizes must not be negative")

    @property
    def has_cards(self) -> bool:
        return self.copies > 0 and bool(self.ranks)

    def set_kind(self, ranks: Sequence[int], suits: Sequence[int]) -> str | None:
        """The name of the set cards of these ranks and suits (rank/suit indices) form."""
        return None

    def set_value(self, kind: str, sets_done: int) -> int:
        """Armies for a set of `kind` after `sets_done` sets were turned in in all."""
        return 0

    def next_value(self, sets_done: int) -> int | None:
        """The value of the next set when it does not depend on the set (else None)."""
        return None

    def label(self, rank: int, suit: int) -> str:
        """A short human name of a card: "K hearts"."""
        return f"{self.ranks[rank]} {self.suits[suit]}"

    def values(self) -> dict[str, int]:
        """Armies per set kind, for the screens' table (empty when they vary)."""
        return {}

    def counter_step(self) -> int:
        """Armies a shared set counter adds with every set turned in (0: no counter)."""
        return 0


class NoCards(CardMode, frozen=True, kw_only=True):
    """The game without cards."""

    name: ClassVar[str] = "none"
    title: ClassVar[str] = "No cards"


class Increasing(CardMode, frozen=True, kw_only=True):
    """Three alike or three different; one counter shared by all players gives the
    armies: `first_value`, then `step` more for each set turned in."""

    name: ClassVar[str] = "increasing"
    title: ClassVar[str] = "Increasing"
    first_value: int
    step: int

    def set_kind(self, ranks: Sequence[int], suits: Sequence[int]) -> str | None:
        distinct = len(set(ranks))
        if distinct == 1:
            return "three_alike"
        return "three_different" if distinct == len(ranks) else None

    def set_value(self, kind: str, sets_done: int) -> int:
        return self.first_value + self.step * sets_done

    def next_value(self, sets_done: int) -> int | None:
        return self.set_value("", sets_done)

    def counter_step(self) -> int:
        return self.step

    def label(self, rank: int, suit: int) -> str:
        return self.ranks[rank]


def _straight(mode: Royalty | Poker, ranks: Sequence[int], ace_low: bool) -> bool:
    length = mode.straight_length
    if len(ranks) != length or len(set(ranks)) != length:
        return False
    ordered = sorted(ranks)
    if ordered[-1] - ordered[0] == length - 1:
        return True
    if not ace_low:
        return False
    ace = len(mode.ranks) - 1
    # The ace plays low: A-2-3-4-5 is ranks {ace, 0, 1, 2, 3}.
    return ordered[-1] == ace and ordered[-2] == length - 2 and ordered[0] == 0


class Royalty(CardMode, frozen=True, kw_only=True):
    """Pair, three of a kind, straight, flush and straight flush of 2 or 3 cards."""

    name: ClassVar[str] = "royalty"
    title: ClassVar[str] = "Royalty"
    straight_length: int
    pair: int
    three_of_a_kind: int
    straight: int
    flush: int
    straight_flush: int

    def set_kind(self, ranks: Sequence[int], suits: Sequence[int]) -> str | None:
        n = len(ranks)
        if len(set(ranks)) == 1:
            return "pair" if n == 2 else "three_of_a_kind"
        if n != 3:
            return None
        straight = _straight(self, ranks, False)
        flush = len(set(suits)) == 1
        if straight and flush:
            return "straight_flush"
        if straight:
            return "straight"
        return "flush" if flush else None

    def set_value(self, kind: str, sets_done: int) -> int:
        return self.values().get(kind, 0)

    def values(self) -> dict[str, int]:
        return {
            "pair": self.pair,
            "three_of_a_kind": self.three_of_a_kind,
            "straight": self.straight,
            "flush": self.flush,
            "straight_flush": self.straight_flush,
        }


class Poker(CardMode, frozen=True, kw_only=True):
    """A hand uses just its cards: pair (2), three of a kind (3), four of a kind (4),
    straight, flush, full house, straight flush and royal flush (5)."""

    name: ClassVar[str] = "poker"
    title: ClassVar[str] = "Poker"
    best_when_forced: ClassVar[bool] = True
    straight_length: int
    ace_low_straight: bool = False
    one_pair: int
    three_of_a_kind: int
    straight: int
    flush: int
    full_house: int
    four_of_a_kind: int
    straight_flush: int
    royal_flush: int

    def set_kind(self, ranks: Sequence[int], suits: Sequence[int]) -> str | None:
        n = len(ranks)
        counts = sorted(Counter(ranks).values(), reverse=True)
        if counts[0] == n:
            return {2: "one_pair", 3: "three_of_a_kind", 4: "four_of_a_kind"}.get(n)
        if n != 5:
            return None
        if counts == [3, 2]:
            return "full_house"
        straight = _straight(self, ranks, self.ace_low_straight)
        flush = len(set(suits)) == 1
        if straight and flush:
            top = len(self.ranks) - 1
            return "royal_flush" if min(ranks) == top - n + 1 else "straight_flush"
        if flush:
            return "flush"
        return "straight" if straight else None

    def set_value(self, kind: str, sets_done: int) -> int:
        return self.values().get(kind, 0)

    def values(self) -> dict[str, int]:
        return {
            "one_pair": self.one_pair,
            "three_of_a_kind": self.three_of_a_kind,
            "straight": self.straight,
            "flush": self.flush,
            "full_house": self.full_house,
            "four_of_a_kind": self.four_of_a_kind,
            "straight_flush": self.straight_flush,
            "royal_flush": self.royal_flush,
        }


CARD_MODES: dict[str, type[CardMode]] = {
    cls.name: cls for cls in (Increasing, Royalty, Poker, NoCards)
}
"""Every card mode by name (the config's "cards" value)."""


@dataclass(frozen=True)
class Deck:
    """The cards of one mode: `rank[c]` and `suit[c]` index the mode's ranks and suits."""

    rules: CardMode
    rank: tuple[int, ...]
    suit: tuple[int, ...]

    @property
    def mode(self) -> str:
        return self.rules.name

    def __len__(self) -> int:
        return len(self.rank)

    def label(self, card: int) -> str:
        """A short human name: "2" (increasing), "K hearts" (royalty, poker)."""
        return self.rules.label(self.rank[card], self.suit[card])

    def card(self, card: int) -> tuple[str, str]:
        """(rank, suit) of a card by name ("" for a mode without suits)."""
        return self.rules.ranks[self.rank[card]], self.rules.suits[self.suit[card]]

    def describe(self, card: int) -> dict[str, object]:
        """A JSON-safe description of a card: id, rank and (when the mode has them) suit."""
        rank, suit = self.card(card)
        out: dict[str, object] = {"id": card, "rank": rank}
        if suit:
            out["suit"] = suit
        return out

    # -- sets --------------------------------------------------------------
    def set_kind(self, cards: Sequence[int]) -> str | None:
        """The name of the set `cards` form in this mode, or None when they are no set."""
        if len(set(cards)) != len(cards) or any(not 0 <= c < len(self.rank) for c in cards):
            return None
        if len(cards) not in self.rules.set_sizes:
            return None
        return self.rules.set_kind([self.rank[c] for c in cards], [self.suit[c] for c in cards])

    def set_value(self, kind: str, sets_done: int) -> int:
        """Armies for a set of `kind`; increasing uses the shared counter `sets_done`."""
        return self.rules.set_value(kind, sets_done)

    def legal_sets(self, hand: Iterable[int]) -> list[tuple[int, ...]]:
        """Every set (sorted card ids) the hand holds, without repeats of the same cards."""
        return list(_legal_sets(self, tuple(sorted(set(hand)))))

    def best_sets(self, hand: Iterable[int], sets_done: int = 0) -> list[tuple[int, ...]]:
        """The most valuable sets of the hand (all tied ones), fewest cards first."""
        return list(_best_sets(self, tuple(sorted(set(hand))), sets_done))

    def has_pair(self, hand: Iterable[int]) -> bool:
        """True when two cards of the hand share a rank (poker's discard rule, R6)."""
        ranks = [self.rank[c] for c in hand]
        return len(set(ranks)) < len(ranks)

    def lowest(self, hand: Iterable[int]) -> int:
        """The lowest card (by rank, then suit, then id)."""
        return min(hand, key=lambda c: (self.rank[c], self.suit[c], c))


@lru_cache(maxsize=8)
def make_deck(mode: CardMode) -> Deck:
    """The full, unshuffled deck of a card mode (ids 0..n-1)."""
    rank: list[int] = []
    suit: list[int] = []
    for _copy in range(mode.copies):
        for s in range(len(mode.suits)):
            for r in range(len(mode.ranks)):
                rank.append(r)
                suit.append(s)
    return Deck(mode, tuple(rank), tuple(suit))


@lru_cache(maxsize=4096)
def _legal_sets(deck: Deck, cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    found: list[tuple[int, ...]] = []
    for size in deck.rules.set_sizes:
        for combo in combinations(cards, size):
            if deck.set_kind(combo) is not None:
                found.append(combo)
    return tuple(found)


@lru_cache(maxsize=4096)
def _best_sets(deck: Deck, cards: tuple[int, ...], sets_done: int) -> tuple[tuple[int, ...], ...]:
    scored = [
        (deck.set_value(deck.set_kind(s) or "", sets_done), s) for s in _legal_sets(deck, cards)
    ]
    if not scored:
        return ()
    top = max(v for v, _ in scored)
    return tuple(sorted((s for v, s in scored if v == top), key=lambda s: (len(s), s)))
