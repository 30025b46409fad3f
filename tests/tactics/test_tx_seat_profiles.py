"""Requirements per seat (issue 24, item 10): each seat's army is checked against its own
profile; bots field only pieces with no requirement unless the host allows locked ones."""

from __future__ import annotations

import pytest

from suite.tactics.rules.packs import get_pack
from suite.tactics.rules.requirements import Profile, satisfied
from suite.tactics.rules.state import TacticsState
from suite.tactics.screens.match import SeatInfo, battle_config, seat_profiles

LEVELS = {"Ann": Profile(9, frozenset(range(1, 40))), "Bob": Profile(1, frozenset())}


def locked_kinds() -> set[int]:
    return {pid for pid, piece in get_pack(None).pieces.items() if piece.requirements.strip()}


def armies(seats: list[SeatInfo], bots_use_locked: bool, seed: int) -> list[list[int]]:
    profiles = seat_profiles(seats, LEVELS.__getitem__, bots_use_locked)
    config = battle_config(seats, pack=None, map_id=1, pieces_per_turn=0, profiles=profiles)
    state = TacticsState.create(config, seed)
    return [[u.kind for u in state.units if u.seat == seat] for seat in range(len(seats))]


def test_the_shipped_pack_has_locked_pieces() -> None:
    assert locked_kinds(), "the test needs pieces with requirements"


def test_bots_field_only_free_pieces_unless_the_host_allows() -> None:
    seats = [SeatInfo("Ann"), SeatInfo("Bot Ada", "normal"), SeatInfo("Bot Brutus", "hard")]
    locked = locked_kinds()
    fielded_locked = False
    for seed in range(8):
        got = armies(seats, bots_use_locked=False, seed=seed)
        assert not (set(got[1]) | set(got[2])) & locked
        allowed = armies(seats, bots_use_locked=True, seed=seed)
        fielded_locked |= bool((set(allowed[1]) | set(allowed[2])) & locked)
    assert fielded_locked  # with the host's leave they do, as the host could


def test_each_hot_seat_player_is_checked_against_their_own_profile() -> None:
    seats = [SeatInfo("Ann"), SeatInfo("Bob")]
    pack = get_pack(None)
    bob = LEVELS["Bob"]
    for seed in range(8):
        got = armies(seats, bots_use_locked=False, seed=seed)
        assert all(satisfied(pack.pieces[k].requirements, bob) for k in got[1])


def test_a_formation_past_its_seats_profile_is_refused() -> None:
    locked = sorted(locked_kinds())
    seats = [SeatInfo("Ann"), SeatInfo("Bob", "human", (locked[0], 0, 0, 0, 0, 0, 0, 0, 0))]
    profiles = seat_profiles(seats, LEVELS.__getitem__, False)
    config = battle_config(seats, pack=None, map_id=1, pieces_per_turn=0, profiles=profiles)
    with pytest.raises(ValueError, match="seat 1 army"):
        TacticsState.create(config, 1)
    assert profiles[1] == {"level": 1, "tokens": []}
    bots = seat_profiles([SeatInfo("Ann"), SeatInfo("B", "normal")], LEVELS.__getitem__, False)
    assert bots[1]["free_only"] is True
