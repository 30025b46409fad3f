"""Card decks and sets of the three modes (worldwar.txt, R6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from suite.core.datafile import DataError
from suite.paths import asset
from suite.worldwar.rules.cards import CARD_MODES, Deck, make_deck
from suite.worldwar.rules.data import custom_rules, default_rules, load_rules


def deck(mode: str) -> Deck:
    return make_deck(getattr(default_rules().cards, mode))


def find(d: Deck, rank: str, suit: str = "", copy: int = 0) -> int:
    r = d.rules.ranks.index(rank)
    s = d.rules.suits.index(suit) if suit else 0
    hits = [c for c in range(len(d)) if d.rank[c] == r and d.suit[c] == s]
    return hits[copy]


def test_deck_sizes() -> None:
    assert len(deck("increasing")) == 30
    assert len(deck("royalty")) == 40
    assert len(deck("poker")) == 52
    inc = deck("increasing")
    assert sorted(inc.label(c) for c in range(30)).count("2") == 10


def test_increasing_sets() -> None:
    d = deck("increasing")
    ones = [find(d, "1", copy=i) for i in range(3)]
    assert d.set_kind(ones) == "three_alike"
    assert d.set_kind([find(d, "1"), find(d, "2"), find(d, "3")]) == "three_different"
    assert d.set_kind([ones[0], ones[1], find(d, "2")]) is None
    assert d.set_kind(ones[:2]) is None
    # R6: the shared counter gives 3, 6, 9, ...
    assert [d.set_value("three_alike", n) for n in range(4)] == [3, 6, 9, 12]


def test_five_increasing_cards_always_hold_a_set() -> None:
    d = deck("increasing")
    hand = [find(d, "1", copy=0), find(d, "1", copy=1), find(d, "2"), find(d, "2", copy=1)]
    assert d.legal_sets(hand) == []
    hand.append(find(d, "3"))
    assert d.legal_sets(hand)


@pytest.mark.parametrize(
    ("cards", "kind", "value"),
    [
        ([("K", "hearts"), ("K", "spades")], "pair", 5),
        ([("K", "hearts"), ("K", "spades"), ("K", "clubs")], "three_of_a_kind", 10),
        ([("10", "hearts"), ("J", "spades"), ("Q", "clubs")], "straight", 15),
        ([("10", "hearts"), ("K", "hearts"), ("A", "hearts")], "flush", 20),
        ([("J", "hearts"), ("Q", "hearts"), ("K", "hearts")], "straight_flush", 25),
        ([("J", "hearts"), ("Q", "hearts")], None, 0),
        ([("10", "hearts"), ("J", "spades"), ("K", "clubs")], None, 0),
    ],
)
def test_royalty_sets(cards: list[tuple[str, str]], kind: str | None, value: int) -> None:
    d = deck("royalty")
    ids = [find(d, r, s) for r, s in cards]
    assert d.set_kind(ids) == kind
    if kind is not None:
        assert d.set_value(kind, 7) == value


def test_royalty_pair_of_identical_cards_from_the_two_decks() -> None:
    d = deck("royalty")
    assert d.set_kind([find(d, "A", "clubs", 0), find(d, "A", "clubs", 1)]) == "pair"


@pytest.mark.parametrize(
    ("cards", "kind", "value"),
    [
        ([("7", "hearts"), ("7", "spades")], "one_pair", 5),
        ([("7", "hearts"), ("7", "spades"), ("7", "clubs")], "three_of_a_kind", 15),
        (
            [("4", "hearts"), ("5", "spades"), ("6", "clubs"), ("7", "clubs"), ("8", "diamonds")],
            "straight",
            20,
        ),
        (
            [("A", "hearts"), ("2", "spades"), ("3", "clubs"), ("4", "clubs"), ("5", "diamonds")],
            "straight",
            20,
        ),
        (
            [("2", "hearts"), ("5", "hearts"), ("9", "hearts"), ("J", "hearts"), ("K", "hearts")],
            "flush",
            25,
        ),
        (
            [("2", "hearts"), ("2", "spades"), ("9", "hearts"), ("9", "clubs"), ("9", "spades")],
            "full_house",
            30,
        ),
        (
            [("9", "hearts"), ("9", "spades"), ("9", "clubs"), ("9", "diamonds")],
            "four_of_a_kind",
            35,
        ),
        (
            [("5", "clubs"), ("6", "clubs"), ("7", "clubs"), ("8", "clubs"), ("9", "clubs")],
            "straight_flush",
            40,
        ),
        (
            [("10", "clubs"), ("J", "clubs"), ("Q", "clubs"), ("K", "clubs"), ("A", "clubs")],
            "royal_flush",
            50,
        ),
        (
            [("Q", "clubs"), ("K", "clubs"), ("A", "clubs"), ("2", "clubs"), ("3", "hearts")],
            None,
            0,
        ),
        (
            [("9", "hearts"), ("9", "spades"), ("9", "clubs"), ("9", "diamonds"), ("2", "clubs")],
            None,
            0,
        ),
    ],
)
def test_poker_sets(cards: list[tuple[str, str]], kind: str | None, value: int) -> None:
    d = deck("poker")
    ids = [find(d, r, s) for r, s in cards]
    assert d.set_kind(ids) == kind
    if kind is not None:
        assert d.set_value(kind, 0) == value


def test_best_poker_hand_is_listed_first_and_duplicates_refused() -> None:
    d = deck("poker")
    nines = [find(d, "9", s) for s in ("hearts", "spades", "clubs")]
    twos = [find(d, "2", s) for s in ("hearts", "spades")]
    hand = nines + twos
    best = d.best_sets(hand)
    assert best == [tuple(sorted(hand))]
    assert d.set_kind([nines[0], nines[0]]) is None
    assert d.set_kind([99, 98]) is None


def test_has_pair_and_lowest() -> None:
    d = deck("poker")
    hand = [find(d, "K", "hearts"), find(d, "3", "clubs"), find(d, "3", "hearts")]
    assert d.has_pair(hand)
    assert d.lowest(hand) == find(d, "3", "clubs")
    assert not d.has_pair(hand[:2])
    assert d.describe(hand[0]) == {"id": hand[0], "rank": "K", "suit": "hearts"}


def test_rules_data_errors_name_the_file_and_key(tmp_path: Path) -> None:
    broken = tmp_path / "rules.toml"
    broken.write_text("[setup\n", encoding="utf-8")
    with pytest.raises(DataError, match="broken TOML"):
        load_rules(broken)
    text = asset("worldwar", "rules", "rules.toml").read_text(encoding="utf-8")
    broken.write_text(text.replace("hand_limit = 5", ""), encoding="utf-8")
    with pytest.raises(DataError, match="rules.toml.*hand_limit"):
        load_rules(broken)
    broken.write_text(text.replace("stay_behind = 1", 'stay_behind = "1"'), encoding="utf-8")
    with pytest.raises(DataError, match=r"at `battle.stay_behind`: Expected `int`, got `str`"):
        load_rules(broken)
    broken.write_text(text.replace("copies = 2", "copies = 2\nfancy = 1"), encoding="utf-8")
    with pytest.raises(DataError, match=r"cards.royalty.*fancy"):
        load_rules(broken)
    with pytest.raises(DataError, match="cannot read"):
        load_rules(tmp_path / "missing.toml")
    assert load_rules(asset("worldwar", "rules", "rules.toml")).setup.starting(3) == 35


def test_every_card_mode_is_one_registered_class_with_its_numbers_in_the_data() -> None:
    rules = default_rules()
    for name, cls in CARD_MODES.items():
        mode = getattr(rules.cards, name)
        assert type(mode) is cls and mode.name == name
    assert not rules.cards.none.has_cards
    assert rules.cards.poker.best_when_forced and not rules.cards.royalty.best_when_forced
    assert rules.cards.increasing.next_value(2) == 9 and rules.cards.royalty.next_value(2) is None


def test_custom_rules_change_only_the_given_numbers() -> None:
    changed = custom_rules({"battle": {"attacker_max_dice": 1}, "cards": {"royalty": {"pair": 7}}})
    assert changed.battle.attacker_max_dice == 1 and changed.cards.royalty.pair == 7
    assert changed.battle.defender_max_dice == default_rules().battle.defender_max_dice
    with pytest.raises(DataError, match="at `battle`.*attack_max_dice"):
        custom_rules({"battle": {"attack_max_dice": 1}})
