"""World War's `legal_json` (a legal list's JSON joined from kept pieces) gives exactly
the bytes of encoding the listed actions, or a slice of them (a page), whatever the
pieces kept before, and the kept pieces stay within their limit."""

from __future__ import annotations

import msgspec
import pytest

from suite.core.action_json import ActionPieces
from suite.core.rng import Rng
from suite.worldwar.rules import SPEC
from suite.worldwar.rules.bots import RandomBot
from suite.worldwar.rules.legal import ActionList

ENCODER = msgspec.json.Encoder()


@pytest.mark.parametrize(
    ("cards", "seed", "limit"), [("increasing", 1, 50_000), ("poker", 2, 50), ("none", 3, 7)]
)
def test_the_joined_json_is_the_encoded_list_at_every_moment(
    cards: str, seed: int, limit: int
) -> None:
    """Random games, one shared `ActionPieces` (a small limit lets its rows go often):
    at every moment the seat's list joins to the bytes `encode(list(actions))` gives."""
    assert SPEC.legal_json is not None
    pieces = ActionPieces(ENCODER.encode, limit=limit)
    for game in range(2):
        st = SPEC.create({"players": 3, "map": "classic", "cards": cards}, seed + 10 * game)
        bot, rng = RandomBot(), Rng(seed)
        for _ in range(400):
            if st.outcome() is not None:
                break
            seat = st.actor()
            assert seat is not None
            legal = st.legal(seat)
            assert isinstance(legal, ActionList)
            listed = list(legal)
            assert SPEC.legal_json(legal, pieces, 0, None) == ENCODER.encode(listed)
            for start, stop in slices(len(listed), rng):
                part = SPEC.legal_json(legal, pieces, start, stop)
                assert part == ENCODER.encode(listed[start:stop]), (start, stop)
            assert len(pieces) <= limit
            st.apply(seat, bot.choose(st.view(seat), legal, rng))


def slices(n: int, rng: Rng) -> list[tuple[int, int | None]]:
    """Pages of 7 and of 300, a random slice, and slices past either end."""
    cut = rng.randbelow(n + 1)
    out: list[tuple[int, int | None]] = [(cut, cut + rng.randbelow(n + 2)), (n, None), (0, 0)]
    out += [(start, start + 7) for start in range(0, n, 7)]
    out += [(start, start + 300) for start in range(0, n + 300, 300)]
    return out


def test_a_plain_list_is_encoded_whole() -> None:
    assert SPEC.legal_json is not None
    st = SPEC.create({"players": 2, "map": "classic"}, 4)
    seat = st.actor()
    assert seat is not None
    actions = list(st.legal(seat))
    pieces = ActionPieces(ENCODER.encode)
    assert SPEC.legal_json(actions, pieces, 0, None) == ENCODER.encode(actions)
    assert SPEC.legal_json(actions, pieces, 1, 3) == ENCODER.encode(actions[1:3])
    assert SPEC.legal_json([], pieces, 0, None) == b"[]"


def test_rows_past_the_limit_are_let_go() -> None:
    pieces = ActionPieces(ENCODER.encode, limit=3)
    pieces.row("a").extend([b"1", b"2"])
    pieces.grown(2)
    assert pieces.row("a") == [b"1", b"2"] and len(pieces) == 2
    pieces.row("b").extend([b"3", b"4"])
    pieces.grown(2)
    assert len(pieces) == 0 and pieces.row("a") == []
