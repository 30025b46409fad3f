"""Ratings, stats and profiles of WoS Tactics players in SQLite (RULINGS T10-T12).

One database file (default `tactics.sqlite` in the user data folder) holds:
- players: name, human flag, Elo (T10: humans only, pairwise between the places of a
  battle, K and start from the rules data), wins, losses, battles, guild tag, war points,
  profile level and tokens (T12: the level grows with battles won; tokens for the first
  win, ten wins and a win without losing a piece);
- pairs: wins and losses of each player against each opponent;
- wars: open wars between guild tags; settings: host settings such as the war points W.

`record_battle` applies one finished battle atomically (one transaction) and returns what
changed. Games against bots count for wins and losses but never for rating.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from suite.core.match import Outcome
from suite.paths import user_data_dir
from suite.tactics.rules.data import Rules, load_rules
from suite.tactics.rules.requirements import Profile
from suite.tactics.rules.view import TacticsView

DB_NAME = "tactics.sqlite"
WAR_POINTS_KEY = "war_points"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    human INTEGER NOT NULL,
    elo REAL NOT NULL,
    wins INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    battles INTEGER NOT NULL DEFAULT 0,
    guild TEXT NOT NULL DEFAULT '',
    war_points INTEGER NOT NULL DEFAULT 0,
    tokens TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS pairs (
    player TEXT NOT NULL,
    opponent TEXT NOT NULL,
    wins INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player, opponent)
);
CREATE TABLE IF NOT EXISTS wars (
    guild_a TEXT NOT NULL,
    guild_b TEXT NOT NULL,
    PRIMARY KEY (guild_a, guild_b)
);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass(frozen=True)
class Entrant:
    """A seat of a finished battle: who played it and how many of its pieces died."""

    name: str
    human: bool
    pieces_lost: int = 0
    guild: str = ""


@dataclass(frozen=True)
class PlayerStats:
    name: str
    human: bool
    elo: float
    wins: int
    losses: int
    battles: int
    guild: str
    war_points: int
    level: int
    tokens: frozenset[int]

    @property
    def profile(self) -> Profile:
        return Profile(self.level, self.tokens)


@dataclass
class BattleRecord:
    """What `record_battle` changed: Elo deltas, war points, new tokens and levels."""

    elo: dict[str, float] = field(default_factory=dict)
    war_points: dict[str, int] = field(default_factory=dict)
    tokens: dict[str, list[int]] = field(default_factory=dict)
    levels: dict[str, int] = field(default_factory=dict)


def expected_score(rating: float, other: float, rules: Rules) -> float:
    """Elo expectation of `rating` against `other`."""
    return 1.0 / (1.0 + 10 ** ((other - rating) / rules.rating.elo_scale))


def elo_changes(
    ratings: dict[str, float], places: Sequence[Sequence[str]], rules: Rules
) -> dict[str, float]:
    """T10: pairwise Elo between the places of one battle (ties score a half), from the
    ratings before the battle. Only the names in `ratings` (the humans) take part."""
    rank = {name: i for i, group in enumerate(places) for name in group if name in ratings}
    deltas = dict.fromkeys(rank, 0.0)
    names = sorted(rank)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            score = 0.5 if rank[a] == rank[b] else (1.0 if rank[a] < rank[b] else 0.0)
            change = rules.rating.elo_k * (score - expected_score(ratings[a], ratings[b], rules))
            deltas[a] += change
            deltas[b] -= change
    return deltas


def war_awards(
    places: Sequence[Sequence[str]],
    guilds: dict[str, str],
    at_war: set[frozenset[str]],
    points: int,
    rules: Rules,
) -> dict[str, int]:
    """T11: the player in place p (0 = first) earns W / divisor[p] for each player placed
    below whose guild is at open war with its own (rounded half up)."""
    awards: dict[str, int] = {}
    for p, group in enumerate(places):
        if p >= len(rules.war.place_divisors):
            break
        below = [name for later in places[p + 1 :] for name in later]
        for name in group:
            mine = guilds.get(name, "")
            count = sum(
                1
                for other in below
                if mine and guilds.get(other) and frozenset((mine, guilds[other])) in at_war
            )
            if count:
                share = points * count / rules.war.place_divisors[p]
                awards[name] = int(share + 0.5)
    return awards


def entrants_from_view(
    view: TacticsView,
    names: Sequence[str],
    humans: Sequence[bool],
    guilds: Sequence[str] = (),
) -> list[Entrant]:
    """One entrant per named seat of a finished battle (any seat's view: the field is
    public), with the pieces each seat lost and its guild ("" when `guilds` is short)."""
    lost = [0] * len(names)
    for piece in view.pieces:
        if not piece.alive and piece.owner < len(lost):
            lost[piece.owner] += 1
    return [
        Entrant(names[s], bool(humans[s]), lost[s], guilds[s] if s < len(guilds) else "")
        for s in range(len(names))
    ]


class RatingsDB:
    """The tactics ratings database; use as a context manager or call `close`."""

    def __init__(self, path: Path | None = None, rules: Rules | None = None) -> None:
        self.path = path or user_data_dir() / DB_NAME
        self.rules = rules or load_rules()
        self.db = sqlite3.connect(self.path)
        self.db.executescript(_SCHEMA)

    def __enter__(self) -> RatingsDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # -- settings, guilds and wars -------------------------------------------------------
    def war_points_setting(self) -> int:
        """The host's W (T11), the rules default until set."""
        row = self.db.execute("SELECT value FROM settings WHERE key=?", (WAR_POINTS_KEY,))
        found = row.fetchone()
        return int(found[0]) if found else self.rules.war.default_points

    def set_war_points(self, points: int) -> None:
        if points < 0:
            raise ValueError(f"war points must be >= 0, not {points}")
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO settings VALUES (?, ?)", (WAR_POINTS_KEY, str(points))
            )

    def set_guild(self, name: str, guild: str, human: bool = True) -> None:
        with self.db:
            self._ensure(name, human)
            self.db.execute("UPDATE players SET guild=? WHERE name=?", (guild.strip(), name))

    def open_war(self, guild: str, other: str) -> None:
        a, b = sorted((guild, other))
        if a == b:
            raise ValueError(f"a guild cannot be at war with itself ({guild!r})")
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO wars VALUES (?, ?)", (a, b))

    def close_war(self, guild: str, other: str) -> None:
        a, b = sorted((guild, other))
        with self.db:
            self.db.execute("DELETE FROM wars WHERE guild_a=? AND guild_b=?", (a, b))

    def wars(self) -> set[frozenset[str]]:
        rows = self.db.execute("SELECT guild_a, guild_b FROM wars").fetchall()
        return {frozenset(row) for row in rows}

    # -- players -----------------------------------------------------------------------
    def _ensure(self, name: str, human: bool) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO players (name, human, elo) VALUES (?, ?, ?)",
            (name, int(human), self.rules.rating.elo_start),
        )

    def player(self, name: str) -> PlayerStats | None:
        row = self.db.execute(
            "SELECT name, human, elo, wins, losses, battles, guild, war_points, tokens "
            "FROM players WHERE name=?",
            (name,),
        ).fetchone()
        if row is None:
            return None
        level = self.rules.profile.start_level + row[3] // self.rules.profile.wins_per_level
        tokens = frozenset(int(t) for t in json.loads(row[8]))
        return PlayerStats(
            row[0], bool(row[1]), row[2], row[3], row[4], row[5], row[6], row[7], level, tokens
        )

    def profile(self, name: str) -> Profile:
        """The profile requirements are checked against (a new player: start level)."""
        found = self.player(name)
        return found.profile if found else Profile(self.rules.profile.start_level)

    def head_to_head(self, name: str, opponent: str) -> tuple[int, int]:
        row = self.db.execute(
            "SELECT wins, losses FROM pairs WHERE player=? AND opponent=?", (name, opponent)
        ).fetchone()
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def leaderboard(self) -> list[PlayerStats]:
        """Humans by Elo (best first), then bots by wins."""
        names = [r[0] for r in self.db.execute("SELECT name FROM players ORDER BY name")]
        stats = [s for s in (self.player(n) for n in names) if s is not None]
        return sorted(stats, key=lambda s: (not s.human, -s.elo if s.human else -s.wins, s.name))

    # -- battles -----------------------------------------------------------------------
    def record_battle(self, entrants: Sequence[Entrant], outcome: Outcome) -> BattleRecord:
        """Apply one finished battle (seat i is `entrants[i]`) in a single transaction."""
        if len({e.name for e in entrants}) != len(entrants):
            raise ValueError("each seat of a recorded battle needs its own player name")
        rules = self.rules
        places = [[entrants[s].name for s in group] for group in outcome.places]
        winners = {entrants[s].name for s in outcome.winners}
        rank = {name: i for i, group in enumerate(places) for name in group}
        record = BattleRecord()
        with self.db:
            for e in entrants:
                self._ensure(e.name, e.human)
            before = {e.name: self._stats(e.name) for e in entrants}
            ratings = {e.name: before[e.name].elo for e in entrants if e.human}
            record.elo = elo_changes(ratings, places, rules)
            guilds = {e.name: e.guild or before[e.name].guild for e in entrants}
            record.war_points = war_awards(
                places, guilds, self.wars(), self.war_points_setting(), rules
            )
            for e in entrants:
                won = e.name in winners
                self.db.execute(
                    "UPDATE players SET wins=wins+?, losses=losses+?, battles=battles+1, "
                    "elo=elo+?, war_points=war_points+? WHERE name=?",
                    (
                        int(won),
                        int(not won),
                        record.elo.get(e.name, 0.0),
                        record.war_points.get(e.name, 0),
                        e.name,
                    ),
                )
                for other in entrants:
                    if other.name == e.name:
                        continue
                    beat = rank[e.name] < rank[other.name]
                    lost = rank[e.name] > rank[other.name]
                    self.db.execute(
                        "INSERT INTO pairs VALUES (?, ?, ?, ?) ON CONFLICT(player, opponent) "
                        "DO UPDATE SET wins=wins+excluded.wins, losses=losses+excluded.losses",
                        (e.name, other.name, int(beat), int(lost)),
                    )
                self._award(e, won, before[e.name], record)
        return record

    def _stats(self, name: str) -> PlayerStats:
        found = self.player(name)
        if found is None:
            raise KeyError(f"no player {name!r}")
        return found

    def _award(self, e: Entrant, won: bool, before: PlayerStats, record: BattleRecord) -> None:
        rules = self.rules
        after = self._stats(e.name)
        earned = []
        if won and before.wins == 0:
            earned.append(rules.tokens.first_win)
        if won and after.wins == rules.tokens.ten_wins_count:
            earned.append(rules.tokens.ten_wins)
        if won and e.pieces_lost == 0:
            earned.append(rules.tokens.flawless)
        fresh = [t for t in earned if t not in after.tokens]
        if fresh:
            tokens = sorted(after.tokens | set(fresh))
            self.db.execute(
                "UPDATE players SET tokens=? WHERE name=?", (json.dumps(tokens), e.name)
            )
            record.tokens[e.name] = fresh
        if after.level > before.level:
            record.levels[e.name] = after.level
