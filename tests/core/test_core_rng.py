"""Rng: golden values (same sequence on every machine), state round trips, bad arguments."""

from __future__ import annotations

import json
import pickle
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.core.rng import Rng

# -- golden values ----------------------------------------------------------
# These literals pin the sequence. If one changes, every saved game and replay would
# replay differently: fix the code, never the numbers.


def test_golden_raw_words() -> None:
    rng = Rng(0)
    assert rng._raw() == 11749869230777074271
    assert rng._raw() == 4976686463289251617


def test_golden_randint() -> None:
    rng = Rng(42)
    assert [rng.randint(1, 100) for _ in range(8)] == [61, 86, 33, 98, 52, 25, 62, 9]


def test_golden_random() -> None:
    rng = Rng(42)
    # The first value equals numpy's default_rng(42).random(): both take 53 bits of PCG64.
    assert [rng.random() for _ in range(3)] == [
        0.7739560485559633,
        0.4388784397520523,
        0.8585979199113825,
    ]


def test_golden_choice_and_shuffle() -> None:
    rng = Rng(7)
    assert "".join(rng.choice("abcdefg") for _ in range(10)) == "decdcadcdb"
    rng = Rng(7)
    items = list(range(10))
    rng.shuffle(items)
    assert items == [4, 6, 5, 0, 7, 1, 9, 2, 8, 3]


def test_golden_roll_and_percent() -> None:
    assert Rng(2024).roll(10) == [1, 2, 4, 5, 5, 1, 6, 1, 3, 3]
    rng = Rng(2024)
    assert [rng.percent(50) for _ in range(10)] == [
        False,
        True,
        True,
        False,
        False,
        True,
        True,
        True,
        True,
        True,
    ]


def test_golden_state_dict() -> None:
    assert Rng(1).to_dict() == {
        "bit_generator": "PCG64",
        "state": "207833532711051698738587646355624148094",
        "inc": "194290289479364712180083596243593368443",
        "has_uint32": 0,
        "uinteger": 0,
    }


def test_golden_spawn() -> None:
    parent = Rng(5)
    child = parent.spawn()
    assert child.randint(0, 10**6) == 872508
    assert parent.randint(0, 10**6) == 810344


# -- behaviour --------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.integers(0, 2**32), st.integers(0, 2**300)))
def test_seeding_is_numpys_pcg64_seeding(seed: int) -> None:
    """Rng(seed) works out numpy's SeedSequence itself: the generator it starts from is
    PCG64(seed)'s, to the bit (small seeds, seeds of several 32-bit words)."""
    assert Rng(seed)._bits.state == np.random.PCG64(seed).state


def test_a_pickled_rng_draws_on_where_it_was() -> None:
    rng = Rng(7)
    rng.randbelow(10)
    copy = pickle.loads(pickle.dumps(rng))
    assert [copy.randbelow(1000) for _ in range(50)] == [rng.randbelow(1000) for _ in range(50)]


def test_same_seed_same_sequence_different_seed_different() -> None:
    a, b, c = Rng(99), Rng(99), Rng(100)
    seq_a = [a.randint(0, 10**9) for _ in range(20)]
    assert seq_a == [b.randint(0, 10**9) for _ in range(20)]
    assert seq_a != [c.randint(0, 10**9) for _ in range(20)]


def test_randint_covers_both_ends_uniformly() -> None:
    rng = Rng(3)
    counts = Counter(rng.randint(-2, 2) for _ in range(5000))
    assert set(counts) == {-2, -1, 0, 1, 2}
    for value in counts.values():
        assert 850 < value < 1150  # 1000 expected, sd ~28


def test_randint_single_value_draws_nothing() -> None:
    rng = Rng(11)
    before = rng.to_dict()
    assert rng.randint(5, 5) == 5
    assert rng.to_dict() == before


def test_randbelow_huge_range_stays_in_range() -> None:
    rng = Rng(8)
    for n in (2**63 + 1, 2**64 - 1, 2**64):
        assert 0 <= rng.randbelow(n) < n


def test_random_range() -> None:
    rng = Rng(4)
    values = [rng.random() for _ in range(2000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert 0.45 < sum(values) / len(values) < 0.55


def test_roll_counts_and_faces() -> None:
    rng = Rng(6)
    assert rng.roll(0) == []
    dice = rng.roll(600, 6)
    assert len(dice) == 600 and set(dice) == {1, 2, 3, 4, 5, 6}
    assert set(rng.roll(200, 2)) == {1, 2}


def test_percent_edges_do_not_draw() -> None:
    rng = Rng(12)
    before = rng.to_dict()
    assert rng.percent(0) is False
    assert rng.percent(-5) is False
    assert rng.percent(100) is True
    assert rng.percent(250) is True
    assert rng.to_dict() == before


def test_percent_rate() -> None:
    rng = Rng(13)
    hits = sum(rng.percent(30) for _ in range(4000))
    assert 1080 < hits < 1320  # 1200 expected, sd ~29


def test_shuffle_is_a_permutation_and_handles_short_lists() -> None:
    rng = Rng(14)
    items = list(range(50))
    rng.shuffle(items)
    assert sorted(items) == list(range(50)) and items != list(range(50))
    empty: list[int] = []
    rng.shuffle(empty)
    one = [1]
    rng.shuffle(one)
    assert empty == [] and one == [1]


def test_spawn_is_independent_and_advances_parent() -> None:
    parent = Rng(21)
    twin = Rng(21)
    child = parent.spawn()
    twin._raw()
    assert parent == twin
    assert child != parent


def test_equality_and_hash_follow_state() -> None:
    a, b = Rng(1), Rng(1)
    assert a == b and hash(a) == hash(b)
    a.random()
    assert a != b
    assert a != "not an rng"
    assert "Rng(state=" in repr(a)


# -- round trips (hypothesis) -----------------------------------------------


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**128),
    draws=st.integers(min_value=0, max_value=60),
    uint32=st.booleans(),
)
def test_state_round_trip_continues_identically(seed: int, draws: int, uint32: bool) -> None:
    rng = Rng(seed)
    for i in range(draws):
        rng.randint(0, i + 5)
    if uint32:
        # Leaves half a word buffered in the bit generator; the dict must carry it too.
        np.random.Generator(rng._bits).integers(0, 10, dtype=np.uint32)
        assert rng.to_dict()["has_uint32"] == 1
    saved = json.loads(json.dumps(rng.to_dict()))  # JSON-serialisable, unchanged by JSON
    restored = Rng.from_dict(saved)
    assert restored == rng
    assert [restored.randint(0, 1000) for _ in range(10)] == [
        rng.randint(0, 1000) for _ in range(10)
    ]
    assert restored.random() == rng.random()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), n=st.integers(1, 2**64))
def test_randbelow_always_in_range(seed: int, n: int) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.randbelow(n) < n for _ in range(5))


# -- bad arguments ----------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda r: r.randbelow(0), "n >= 1"),
        (lambda r: r.randbelow(-3), "n >= 1"),
        (lambda r: r.randbelow(2**64 + 1), "2\\*\\*64"),
        (lambda r: r.randint(5, 4), "low <= high"),
        (lambda r: r.choice([]), "empty"),
        (lambda r: r.roll(-1), "cannot roll -1"),
        (lambda r: r.roll(2, 0), "n >= 1"),
    ],
)
def test_bad_arguments(call: object, message: str) -> None:
    rng = Rng(1)
    with pytest.raises(ValueError, match=message):
        call(rng)  # type: ignore[operator]


def test_negative_seed_refused() -> None:
    with pytest.raises(ValueError, match="seed must be >= 0"):
        Rng(-1)


def test_from_dict_refuses_other_generators() -> None:
    data = Rng(1).to_dict()
    data["bit_generator"] = "MT19937"
    with pytest.raises(ValueError, match="unknown bit generator 'MT19937'"):
        Rng.from_dict(data)
    with pytest.raises(ValueError, match="unknown bit generator None"):
        Rng.from_dict({})


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("inc", None, "Rng state has no 'inc'"),
        ("state", "twelve", "malformed Rng state"),
        ("state", str(2**200), "malformed Rng state"),
        ("uinteger", [1], "malformed Rng state"),
    ],
)
def test_from_dict_refuses_broken_states(key: str, value: object, message: str) -> None:
    data = Rng(1).to_dict()
    if value is None:
        del data[key]
    else:
        data[key] = value
    with pytest.raises(ValueError, match=message):
        Rng.from_dict(data)


# -- batched words ------------------------------------------------------------


@pytest.mark.parametrize("draws", [0, 1, 31, 32, 33, 95, 96, 97, 224, 225, 300, 1000])
def test_batched_words_match_single_draws_and_state_round_trips(draws: int) -> None:
    # Rng fetches words a batch at a time; every draw, to_dict and spawn must be what
    # drawing them one by one from PCG64 gives, at any point of a batch.
    rng, ref = Rng(77), np.random.PCG64(77)
    assert [rng._raw() for _ in range(draws)] == [int(ref.random_raw()) for _ in range(draws)]
    single = Rng(0)
    single._bits.state = ref.state
    assert rng.to_dict() == single.to_dict()
    restored = Rng.from_dict(rng.to_dict())
    assert restored._raw() == int(np.random.PCG64(77).random_raw(draws + 1)[-1])
    child, twin = rng.spawn(), single.spawn()
    assert child == twin and rng == single
    assert [rng.random() for _ in range(70)] == [single.random() for _ in range(70)]
    assert [child.randbelow(10) for _ in range(70)] == [twin.randbelow(10) for _ in range(70)]


@pytest.mark.parametrize("size", [0, 1, 2, 42, 255, 256, 257, 300])
def test_shuffle_is_fisher_yates_with_randbelow(size: int) -> None:
    # shuffle draws its short ranges inline; it must stay the plain algorithm.
    rng, plain = Rng(size), Rng(size)
    items, expected = list(range(size)), list(range(size))
    rng.shuffle(items)
    for i in range(size - 1, 0, -1):
        j = plain.randbelow(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected and rng == plain
