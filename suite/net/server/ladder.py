"""The server's WoS Tactics ladder: every finished online battle recorded in the desktop's
ratings database (`suite.tactics.ratings.RatingsDB`, `DATA/tactics_ladder.sqlite`), so a
browser's end screen shows what the battle changed: Elo for the people (T10, never for
the server's bots), war points (T11: the server's W, guilds at war as its database says)
and the wins, losses, tokens and level each seat's name has on this server.

Players are known by the names their seats show (as on a hot-seat desktop: the server
has no accounts); two seats of one name are told apart by their seat number. A server of
several processes keeps one ladder per process's data folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from suite.core.match import Outcome
from suite.net import protocol as P
from suite.tactics.ratings import Entrant, RatingsDB

LADDER_NAME = "tactics_ladder.sqlite"


def entrant_names(names: Sequence[str]) -> list[str]:
    """The seats' names, each told apart from the others by its seat number when two are
    the same (the database keys players by name)."""
    return [
        name if names.count(name) == 1 else f"{name} (seat {seat + 1})"
        for seat, name in enumerate(names)
    ]


class Ladder:
    """Records finished Tactics battles (see the module docstring). Blocking: call
    `record` off the event loop."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LADDER_NAME

    def record(
        self,
        code: str,
        names: Sequence[str],
        humans: Sequence[bool],
        lost: Sequence[int],
        outcome: dict[str, Any],
    ) -> P.TacticsResult:
        """Apply battle `code` (seat i: `names[i]`, a person when `humans[i]`, `lost[i]`
        pieces fallen) with its `outcome`, and say what it changed per seat."""
        result = msgspec.convert(outcome, type=Outcome)
        unique = entrant_names(names)
        entrants = [
            Entrant(n, h, pieces) for n, h, pieces in zip(unique, humans, lost, strict=True)
        ]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with RatingsDB(self.path) as db:
            record = db.record_battle(entrants, result)
            lines = []
            for seat, entrant in enumerate(entrants):
                stats = db.player(entrant.name)
                if stats is None:
                    continue
                lines.append(
                    P.TacticsResultLine(
                        seat=seat,
                        name=entrant.name[: P.MAX_NAME * 2],
                        human=entrant.human,
                        rating=round(stats.elo, 1) if entrant.human else None,
                        change=round(record.elo.get(entrant.name, 0.0), 1),
                        war_points=record.war_points.get(entrant.name, 0),
                        war_total=stats.war_points,
                        wins=stats.wins,
                        losses=stats.losses,
                        level=stats.level,
                        new_tokens=tuple(record.tokens.get(entrant.name, ())),
                    )
                )
        return P.TacticsResult(code=code, lines=tuple(lines))
