"""Starting a battle from the Book of Tactics, and its replay files.

`start_battle` turns the set-up's choices into the engine's config and a core
`LocalSession` (humans played here, bots on the local side). A finished battle's replay is
the core `Replay` document plus the seats' names and kinds (an extra field `Replay.load`
ignores), saved under `profile.replays_dir()`. An unfinished battle is autosaved the same
way (kind "tactics-battle") and resumed by replaying its actions (`resume_battle`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import msgspec

from suite.core.match import Replay, game_spec
from suite.core.session import LocalSession
from suite.core.store import SaveError, load_document, save_document
from suite.core.thinking import shared_thinker
from suite.tactics.rules.requirements import Profile
from suite.tactics.screens.profile import replays_dir

GAME = "tactics"
REPLAY_KIND = "replay"  # the kind of core Replay documents
SAVE_KIND = "tactics-battle"  # an unfinished battle (the spec's save kind)


def bot_levels() -> tuple[str, ...]:
    """The bot levels the game offers (its spec's bots, weakest first)."""
    return tuple(game_spec(GAME).bots)


def max_players() -> int:
    """The most armies a battle holds (the spec's player range)."""
    return game_spec(GAME).players[1]


@dataclass(frozen=True)
class SeatInfo:
    """Who plays a seat: a name and "human" or a bot level (`bot_levels`); `formation` is a
    human's 3x3 army (piece ids row by row, 0 = empty; empty list = a random army)."""

    name: str
    kind: str = "human"
    formation: tuple[int, ...] = ()

    @property
    def human(self) -> bool:
        return self.kind == "human"


def battle_config(
    seats: Sequence[SeatInfo],
    *,
    pack: str | None,
    map_id: int,
    pieces_per_turn: int,
    army_size: int | None = None,
    profiles: Sequence[dict[str, Any] | None] = (),
) -> dict[str, Any]:
    """The engine config of a battle: one army per seat (a human's formation, or a random
    army), the host's army size limit (None: the rules' limit) and the players' profiles
    for requirements (None: unchecked)."""
    armies: list[Any] = [list(s.formation) if s.formation else "random" for s in seats]
    config: dict[str, Any] = {
        "pack": pack,
        "map": map_id,
        "players": len(seats),
        "pieces_per_turn": pieces_per_turn,
        "armies": armies,
    }
    if army_size is not None:
        config["max_pieces"] = army_size
        config["army_size"] = army_size
    if any(p is not None for p in profiles):
        config["profiles"] = list(profiles) + [None] * (len(seats) - len(profiles))
    return config


def seat_profiles(
    seats: Sequence[SeatInfo], profile_of: Callable[[str], Profile], bots_use_locked: bool
) -> list[dict[str, Any]]:
    """Each seat's requirements profile for `battle_config`: a person's own (`profile_of`
    their name, so each hot-seat player's army is checked against their own level and
    tokens); a bot's fields only pieces with no requirement unless the host allows locked
    pieces (`bots_use_locked`: the host's level and tokens, i.e. what the first seat has)."""
    host = profile_of(seats[0].name) if seats else Profile()
    out: list[dict[str, Any]] = []
    for seat in seats:
        if seat.human:
            mine = profile_of(seat.name)
            out.append({"level": mine.level, "tokens": sorted(mine.tokens)})
        elif bots_use_locked:
            out.append({"level": host.level, "tokens": sorted(host.tokens)})
        else:
            out.append({"level": host.level, "tokens": [], "free_only": True})
    return out


def start_battle(config: dict[str, Any], seats: Sequence[SeatInfo], seed: int) -> LocalSession:
    """A local match: human seats played here, the others by their bot level.

    Raises ValueError (the engine's config, pack or army errors) naming what is wrong."""
    humans = frozenset(i for i, s in enumerate(seats) if s.human)
    bots = {i: s.kind for i, s in enumerate(seats) if not s.human}
    return LocalSession.start(
        GAME, config, seed, humans=humans, bots=bots, thinker=shared_thinker()
    )


def trimmed(formation: Sequence[int], size: int) -> tuple[int, ...]:
    """`formation` keeping only its first `size` pieces (row by row); the rest emptied."""
    out: list[int] = []
    kept = 0
    for pid in formation:
        keep = pid and kept < size
        kept += 1 if keep else 0
        out.append(pid if keep else 0)
    return tuple(out)


def _document(replay: Replay, seats: Sequence[SeatInfo]) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(replay)
    data["seats"] = [asdict(s) for s in seats]
    return data


def save_battle(replay: Replay, seats: Sequence[SeatInfo], path: Path) -> bool:
    """Autosave an unfinished battle; False when it cannot be written."""
    try:
        save_document(path, SAVE_KIND, _document(replay, seats))
    except (SaveError, OSError):
        return False
    return True


def resume_battle(path: Path) -> tuple[LocalSession, list[SeatInfo]]:
    """The autosaved battle replayed to where it stopped; SaveError naming the file when
    it cannot be used (a broken file, another pack, an action the engine refuses)."""
    data = load_document(path, SAVE_KIND)
    try:
        replay = msgspec.convert(data, type=Replay)
    except msgspec.ValidationError as exc:
        raise SaveError(path, f"not a Tactics battle: {exc}") from exc
    if replay.game != GAME:
        raise SaveError(path, f"a {replay.game} battle, not WoS Tactics")
    seats = _seats(path, data, replay)
    humans = frozenset(i for i, s in enumerate(seats) if s.human)
    bots = {i: s.kind for i, s in enumerate(seats) if not s.human}
    try:
        session = LocalSession.resume(replay, humans=humans, bots=bots, thinker=shared_thinker())
    except (ValueError, KeyError, TypeError) as exc:
        raise SaveError(path, f"cannot replay the battle: {exc}") from exc
    return session, seats


def save_replay(
    replay: Replay, seats: Sequence[SeatInfo], folder: Path | None = None
) -> Path | None:
    """Write a finished battle's replay; its path, or None when it cannot be written."""
    folder = folder or replays_dir()
    taken = len(list(folder.glob("battle-*.json"))) if folder.is_dir() else 0
    path = folder / f"battle-{taken + 1:04d}.json"
    try:
        save_document(path, REPLAY_KIND, _document(replay, seats))
    except (SaveError, OSError):
        return None
    return path


def load_replay(path: Path) -> tuple[Replay, list[SeatInfo]]:
    """A saved Tactics replay and its seats; SaveError naming the file when it is not one."""
    replay = Replay.load(path)
    if replay.game != GAME:
        raise SaveError(path, f"a {replay.game} replay, not WoS Tactics")
    return replay, _seats(path, load_document(path, REPLAY_KIND), replay)


def _seats(path: Path, data: Any, replay: Replay) -> list[SeatInfo]:
    """The seats a document names (generic names when it has none or the wrong count)."""
    players = replay.config.get("players", 2)
    try:
        raw = data.get("seats", []) if isinstance(data, dict) else []
        seats = [
            SeatInfo(str(s["name"]), str(s["kind"]), tuple(int(p) for p in s.get("formation", ())))
            for s in raw
        ]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SaveError(path, f"bad seats: {exc}") from exc
    if any(not s.human and s.kind not in bot_levels() for s in seats):
        raise SaveError(path, "a seat names an unknown bot level")
    if not isinstance(players, int) or len(seats) != players:
        count = players if isinstance(players, int) and 0 < players <= 4 else 2
        seats = [SeatInfo(f"Player {i + 1}") for i in range(count)]
    return seats


def list_replays(folder: Path | None = None) -> list[Path]:
    """Saved replays, newest first."""
    folder = folder or replays_dir()
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
