"""Card decks and turn-in sets for the three card modes (worldwar.txt, RULINGS R5-R6).

A card is an int id into its mode's deck. `Deck` knows each card's rank and suit;
`set_kind(cards)` names the set the cards form (or None), `set_value` gives its armies,
`legal_sets(hand)` lists every set in a hand and `best_sets(hand)` the most valuable ones.

Increasing: three alike or three different; the value comes from the counter shared by
all players (3, 6, 9, ...). Royalty: pair, three of a kind, straight, flush and straight
flush of 2 or 3 cards. Poker: a hand uses just its cards: pair (2), three of a kind (3),
four of a kind (4), straight, flush, full house, straight flush and royal flush (5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from suite.worldwar.rules.data import CardRules


@dataclass(frozen=True)
class Deck:
    """The cards of one mode: `rank[c]` and `suit[c]` index the rules' ranks and suits."""

    rules: CardRules
    rank: tuple[int, ...]
    suit: tuple[int, ...]

    @property
    def mode(self) -> str:
        return self.rules.mode

    def __len__(self) -> int:
        return len(self.rank)

    def label(self, card: int) -> str:
        """A short human name: "2" (increasing), "K hearts" (royalty, poker)."""
        r = self.rules.ranks[self.rank[card]]
        if self.mode == "increasing":
            return r
        return f"{r} {self.rules.suits[self.suit[card]]}"

    def describe(self, card: int) -> dict[str, object]:
        """A JSON-safe description of a card for views and screens."""
        out: dict[str, object] = {"id": card, "rank": self.rules.ranks[self.rank[card]]}
        if self.mode != "increasing":
            out["suit"] = self.rules.suits[self.suit[card]]
        return out

    # -- sets --------------------------------------------------------------
    def set_kind(self, cards: Sequence[int]) -> str | None:
        """The name of the set `cards` form in this mode, or None when they are no set."""
        if len(set(cards)) != len(cards) or any(not 0 <= c < len(self.rank) for c in cards):
            return None
        if len(cards) not in self.rules.set_sizes:
            return None
        ranks = [self.rank[c] for c in cards]
        if self.mode == "increasing":
            distinct = len(set(ranks))
            if distinct == 1:
                return "three_alike"
            return "three_different" if distinct == len(cards) else None
        suits = {self.suit[c] for c in cards}
        counts = sorted(Counter(ranks).values(), reverse=True)
        n = len(cards)
        if self.mode == "royalty":
            if counts[0] == n:
                return "pair" if n == 2 else "three_of_a_kind"
            if n != 3:
                return None
            straight = self._straight(ranks)
            flush = len(suits) == 1
            if straight and flush:
                return "straight_flush"
            if straight:
                return "straight"
            return "flush" if flush else None
        if counts[0] == n:
            return {2: "one_pair", 3: "three_of_a_kind", 4: "four_of_a_kind"}.get(n)
        if n != 5:
            return None
        if counts == [3, 2]:
            return "full_house"
        straight = self._straight(ranks)
        flush = len(suits) == 1
        if straight and flush:
            top = len(self.rules.ranks) - 1
            return "royal_flush" if min(ranks) == top - n + 1 else "straight_flush"
        if flush:
            return "flush"
        return "straight" if straight else None

    def _straight(self, ranks: Sequence[int]) -> bool:
        length = self.rules.straight_length
        if len(ranks) != length or len(set(ranks)) != length:
            return False
        ordered = sorted(ranks)
        if ordered[-1] - ordered[0] == length - 1:
            return True
        if not self.rules.ace_low_straight:
            return False
        ace = len(self.rules.ranks) - 1
        # The ace plays low: A-2-3-4-5 is ranks {ace, 0, 1, 2, 3}.
        return ordered[-1] == ace and ordered[-2] == length - 2 and ordered[0] == 0

    def set_value(self, kind: str, sets_done: int) -> int:
        """Armies for a set of `kind`; increasing uses the shared counter `sets_done`."""
        if self.mode == "increasing":
            return self.rules.first_value + self.rules.step * sets_done
        return self.rules.values[kind]

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
def make_deck(rules: CardRules) -> Deck:
    """The full, unshuffled deck of a card mode (ids 0..n-1)."""
    rank: list[int] = []
    suit: list[int] = []
    for _copy in range(rules.copies):
        for s in range(len(rules.suits)):
            for r in range(len(rules.ranks)):
                rank.append(r)
                suit.append(s)
    return Deck(rules, tuple(rank), tuple(suit))


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
