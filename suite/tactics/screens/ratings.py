"""The screens' side of the ratings database (`suite.tactics.ratings`): the stats table,
guilds and wars, and recording a finished battle, with every database failure turned into
a message (a locked or broken database must never stop a battle).

Battles are recorded from what the screens know: the players' names and kinds and the
seat's view of the final battlefield (the pieces each seat lost), never the engine.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from suite.core.match import Outcome
from suite.tactics.ratings import BattleRecord, RatingsDB, entrants_from_view
from suite.tactics.rules.requirements import Profile
from suite.tactics.rules.view import TacticsView
from suite.tactics.screens.book import StatsRow
from suite.tactics.screens.profile import ratings_path

DB_ERRORS = (sqlite3.Error, OSError, ValueError, KeyError)


class Records:
    """Opens the database for each use (so one screen never holds it locked)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.problem: str | None = None

    def _db(self) -> RatingsDB:
        return RatingsDB(self.path or ratings_path())

    def profile(self, name: str) -> Profile:
        """The requirements profile of `name` (the start level when unreadable)."""
        try:
            with self._db() as db:
                return db.profile(name)
        except DB_ERRORS as exc:
            self.problem = f"ratings unavailable: {exc}"
            return Profile()

    def table(
        self, me: str, players: Sequence[tuple[str, bool]]
    ) -> tuple[list[StatsRow], list[str]]:
        """The stats view: my totals, then each other player's record against me."""
        rows: list[StatsRow] = []
        try:
            with self._db() as db:
                mine = db.player(me)
                rows.append(
                    StatsRow(
                        me,
                        0,
                        mine.wins if mine else 0,
                        mine.losses if mine else 0,
                        mine.elo if mine else float(db.rules.rating.elo_start),
                        mine.war_points if mine else 0,
                        mine.guild if mine else "",
                        True,
                    )
                )
                for army, (name, human) in enumerate(players):
                    if name == me:
                        continue
                    won, lost = db.head_to_head(name, me)
                    other = db.player(name)
                    rating = (
                        other.elo
                        if other and human
                        else (None if not human else float(db.rules.rating.elo_start))
                    )
                    rows.append(
                        StatsRow(
                            name, army, won, lost, rating, 0, other.guild if other else "", False
                        )
                    )
                wars = sorted(" vs ".join(sorted(pair)) for pair in db.wars())
        except DB_ERRORS as exc:
            self.problem = f"ratings unavailable: {exc}"
            return rows, [self.problem]
        return rows, wars

    def set_guild(self, name: str, guild: str) -> str:
        try:
            with self._db() as db:
                db.set_guild(name, guild)
        except DB_ERRORS as exc:
            return f"Could not set the guild: {exc}"
        return f"You wear the uniform of {guild}" if guild else "You wear no guild uniform"

    def open_war(self, guild: str, other: str) -> str:
        if not guild:
            return "Set your guild first"
        if not other:
            return "Name the guild to war with"
        try:
            with self._db() as db:
                db.open_war(guild, other)
        except DB_ERRORS as exc:
            return f"No war: {exc}"
        return f"Open war: {guild} vs {other}"

    def record(
        self,
        view: TacticsView,
        names: Sequence[str],
        humans: Sequence[bool],
        guilds: Sequence[str],
        outcome: Outcome,
    ) -> tuple[BattleRecord | None, str | None]:
        """Record a finished battle (T10 Elo for humans only, T11 war points); the record
        of what changed, or None and the reason it could not be recorded."""
        entrants = entrants_from_view(view, names, humans, guilds)
        try:
            with self._db() as db:
                return db.record_battle(entrants, outcome), None
        except DB_ERRORS as exc:
            return None, f"The battle was not recorded: {exc}"
