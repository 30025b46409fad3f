"""Ratings and stats in SQLite: Elo for humans (T10), war points (T11), profiles (T12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from suite.core.match import Outcome
from suite.tactics.ratings import (
    Entrant,
    RatingsDB,
    elo_changes,
    entrants_from_view,
    war_awards,
)
from suite.tactics.rules.data import load_rules
from suite.tactics.rules.state import TacticsState

R = load_rules()


def outcome(*places: tuple[int, ...]) -> Outcome:
    return Outcome(places[0], tuple(places), "one army left")


def test_elo_pairwise_between_places() -> None:
    deltas = elo_changes({"a": 1500, "b": 1500}, [["a"], ["b"]], R)
    assert deltas == {"a": pytest.approx(16.0), "b": pytest.approx(-16.0)}
    four = elo_changes({n: 1500.0 for n in "abcd"}, [["a"], ["b"], ["c"], ["d"]], R)
    assert four["a"] == pytest.approx(48.0) and four["d"] == pytest.approx(-48.0)
    assert four["b"] == pytest.approx(16.0) and sum(four.values()) == pytest.approx(0)
    tie = elo_changes({"a": 1500, "b": 1500}, [["a", "b"]], R)
    assert tie == {"a": 0.0, "b": 0.0}


def test_war_points_by_place() -> None:
    guilds = {"a": "Red", "b": "Blue", "c": "Blue", "d": "Gold"}
    wars = {frozenset(("Red", "Blue")), frozenset(("Blue", "Gold"))}
    awards = war_awards([["a"], ["b"], ["c"], ["d"]], guilds, wars, 1000, R)
    # a beats b and c (Blue, at war with Red); b and c beat d (Gold at war with Blue)
    assert awards == {"a": 2000, "b": 250, "c": 63}


def test_record_battle_humans_bots_and_head_to_head(tmp_path: Path) -> None:
    with RatingsDB(tmp_path / "r.sqlite") as db:
        seats = [Entrant("ann", True), Entrant("bob", True), Entrant("bot1", False, 3)]
        record = db.record_battle(seats, outcome((0,), (2,), (1,)))
        ann, bob, bot = db.player("ann"), db.player("bob"), db.player("bot1")
        assert ann and bob and bot
        assert ann.elo == pytest.approx(1516.0) and bob.elo == pytest.approx(1484.0)
        assert bot.elo == R.rating.elo_start and record.elo.keys() == {"ann", "bob"}
        assert (ann.wins, ann.losses, bob.wins, bob.losses, bot.losses) == (1, 0, 0, 1, 1)
        assert db.head_to_head("ann", "bot1") == (1, 0)
        assert db.head_to_head("bob", "bot1") == (0, 1)
        assert db.head_to_head("bot1", "bob") == (1, 0)
        assert record.tokens["ann"] == [R.tokens.first_win, R.tokens.flawless]
        assert [s.name for s in db.leaderboard()] == ["ann", "bob", "bot1"]
        with pytest.raises(ValueError, match="own player name"):
            db.record_battle([Entrant("ann", True), Entrant("ann", True)], outcome((0,), (1,)))
    with RatingsDB(tmp_path / "r.sqlite") as again:
        assert again.player("ann") is not None


def test_levels_and_tokens_grow_with_wins(tmp_path: Path) -> None:
    with RatingsDB(tmp_path / "r.sqlite") as db:
        for i in range(R.tokens.ten_wins_count):
            seats = [Entrant("ann", True, pieces_lost=1), Entrant(f"bot{i}", False)]
            db.record_battle(seats, outcome((0,), (1,)))
        profile = db.profile("ann")
        assert (
            profile.level
            == R.profile.start_level + R.tokens.ten_wins_count // R.profile.wins_per_level
        )
        assert profile.tokens == {R.tokens.first_win, R.tokens.ten_wins}
        assert db.profile("nobody").level == R.profile.start_level


def test_war_settings_and_guilds_persist(tmp_path: Path) -> None:
    with RatingsDB(tmp_path / "r.sqlite") as db:
        assert db.war_points_setting() == R.war.default_points
        db.set_war_points(400)
        db.set_guild("ann", "Red")
        db.set_guild("bob", "Blue")
        db.open_war("Red", "Blue")
        record = db.record_battle([Entrant("ann", True), Entrant("bob", True)], outcome((0,), (1,)))
        assert record.war_points == {"ann": 400}
        stats = db.player("ann")
        assert stats is not None and stats.war_points == 400 and stats.guild == "Red"
        db.close_war("Blue", "Red")
        assert db.wars() == set()
        with pytest.raises(ValueError):
            db.open_war("Red", "Red")
        with pytest.raises(ValueError):
            db.set_war_points(-1)


def test_entrants_count_lost_pieces() -> None:
    state = TacticsState.create({"players": 2, "map": 1, "armies": [[1, 1], [2]]}, 1)
    state.units[0].hp = 0
    seats = entrants_from_view(state.view(None), ["a", "b"], [True, False], ["Red"])
    assert seats == [Entrant("a", True, 1, "Red"), Entrant("b", False, 0)]


def test_default_database_lives_in_the_user_data_folder() -> None:
    with RatingsDB() as db:
        assert db.path.name == "tactics.sqlite" and db.path.exists()
