"""One World War match as the screens see it: the engine state, the seats, the replay,
the per-turn history, dice luck and a readable log. No drawing happens here.

Every action goes through `Session.apply`, which records it in the replay, keeps the
statistics the game-over screen charts, and turns the engine's events into log lines.
A session is saved as a `suite.core.store` document of kind "worldwar-save"; resuming
replays the recorded actions, so a resumed game is exactly the saved one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec

from suite.core.match import Action, Event, Replay, Seat
from suite.core.rng import Rng
from suite.core.store import SaveError, load_document, save_document
from suite.paths import user_data_dir
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.bots import EasyBot, HardBot, RandomBot
from suite.worldwar.rules.engine import WorldWar
from suite.worldwar.rules.odds import battle, roll_probabilities

GAME = "worldwar"
SAVE_KIND = "worldwar-save"
REPLAY_KIND = "replay"  # suite.core.match.Replay's document kind


class WorldWarBot(Protocol):
    """What the screens need of a World War bot (`suite.worldwar.rules.bots`)."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action: ...


BOT_KINDS: dict[str, Callable[[], WorldWarBot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "hard": HardBot,
}
SEAT_KINDS = ("human", *BOT_KINDS)
LOG_KEEP = 400
AUTOSAVE_GAP = 2.0  # seconds between autosaves while only bots play


@dataclass
class SeatInfo:
    """Who sits at a seat: a name, a palette index (`suite.ui.theme.PLAYER_COLOURS`) and
    "human" or a bot kind from BOT_KINDS."""

    name: str
    colour: int
    kind: str = "human"

    @property
    def human(self) -> bool:
        return self.kind == "human"


@dataclass
class TurnStats:
    """Territories and armies of every seat when a turn began."""

    turn: int
    territories: list[int]
    armies: list[int]


@dataclass
class LogLine:
    text: str
    seat: int | None = None


@dataclass
class Luck:
    """Armies each seat lost in battle, against what the dice would give on average."""

    actual: list[float] = field(default_factory=list)
    expected: list[float] = field(default_factory=list)


def saves_dir() -> Path:
    """Where World War saves live (user data folder)."""
    return user_data_dir() / "worldwar" / "saves"


def replays_dir() -> Path:
    return user_data_dir() / "worldwar" / "replays"


def autosave_path() -> Path:
    return saves_dir() / "autosave.json"


class Session:
    """A running match. `config` and `seed` go to the engine (`suite.worldwar.rules`)."""

    def __init__(
        self,
        config: dict[str, Any],
        seed: int,
        seats: Sequence[SeatInfo],
        *,
        autosave: Path | None = None,
    ) -> None:
        self.seats = list(seats)
        self.config = dict(config)
        self.config["players"] = len(self.seats)
        self.seed = seed
        self.replay = Replay(game=GAME, config=self.config, seed=seed)
        state = self.replay.start()
        assert isinstance(state, WorldWar)
        self.state: WorldWar = state
        self.autosave = autosave
        self.bots: dict[int, WorldWarBot] = {
            i: BOT_KINDS[s.kind]() for i, s in enumerate(self.seats) if not s.human
        }
        self.bot_rng = Rng(seed).spawn()
        self.history: list[TurnStats] = []
        n = len(self.seats)
        self.luck = Luck([0.0] * n, [0.0] * n)
        self.log: list[LogLine] = []
        self.listeners: list[Callable[[list[Event]], None]] = []
        self._phase_before = self.state.phase
        self._saved_at = 0.0
        self._note(self.state.start_events)
        self._snapshot()

    # -- names -----------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def territory_name(self, tid: str) -> str:
        return self.state.topo.names[self.state.topo.index[tid]]

    # -- acting ------------------------------------------------------------------------------

    @property
    def actor(self) -> Seat | None:
        return self.state.actor()

    @property
    def over(self) -> bool:
        return self.state.outcome() is not None

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.state.view(seat)

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply `action` for `seat` (IllegalAction leaves everything unchanged)."""
        before = list(self.state.armies)
        self._phase_before = self.state.phase
        events = self.state.apply(seat, action)
        self.replay.record(seat, action)
        self._account(action, events, before)
        self._note(events)
        for listener in self.listeners:
            listener(events)
        began = [e for e in events if isinstance(e, A.TurnBegan)]
        if began:
            self._snapshot()
            human = self.seats[began[-1].seat].human
            if human or time.monotonic() - self._saved_at >= AUTOSAVE_GAP:
                self.save_autosave()
        if self.over:
            self._snapshot()
        return events

    def bot_action(self) -> tuple[Seat, Action] | None:
        """The awaited bot's choice, or None when a human (or nobody) is awaited."""
        seat = self.actor
        if seat is None or seat not in self.bots:
            return None
        legal = self.state.legal(seat)
        return seat, self.bots[seat].choose(self.state.view(seat), legal, self.bot_rng)

    # -- statistics --------------------------------------------------------------------------

    def _snapshot(self) -> None:
        n = len(self.seats)
        armies = [0] * n
        for t, o in enumerate(self.state.owner):
            armies[o] += self.state.armies[t]
        stats = TurnStats(self.state.turn, list(self.state.counts), armies)
        if self.history and self.history[-1].turn == stats.turn:
            self.history[-1] = stats
        else:
            self.history.append(stats)

    def _account(self, action: Action, events: list[Event], before: list[int]) -> None:
        idx = self.state.topo.index
        for e in events:
            if isinstance(e, A.DiceRolled):
                rows = roll_probabilities(len(e.attacker_dice), len(e.defender_dice))
                self.luck.expected[e.seat] += sum(a * p for a, _, p in rows)
                self.luck.expected[e.defender] += sum(d * p for _, d, p in rows)
                self.luck.actual[e.seat] += e.attacker_loss
                self.luck.actual[e.defender] += e.defender_loss
            elif isinstance(e, A.BattleFought):
                odds = battle(before[idx[e.source]], before[idx[e.target]])
                self.luck.expected[e.seat] += odds.expected_attacker_loss
                self.luck.expected[e.defender] += odds.expected_defender_loss
                self.luck.actual[e.seat] += e.attacker_loss
                self.luck.actual[e.defender] += e.defender_loss

    # -- log ---------------------------------------------------------------------------------

    def _note(self, events: list[Event]) -> None:
        for e in events:
            line = self.describe(e)
            if line is not None:
                self.log.append(line)
        del self.log[:-LOG_KEEP]

    def describe(self, e: Event) -> LogLine | None:
        """A log line for an event (None for events not worth a line)."""
        n, t = self.name, self.territory_name
        if isinstance(e, A.Dealt):
            return LogLine(f"Territories dealt; {n(e.first)} starts.", e.first)
        if isinstance(e, A.TurnBegan):
            bonus = f" (continents: {len(e.continents)})" if e.continents else ""
            return LogLine(f"Turn {e.turn}: {n(e.seat)} gets {e.reinforcements}{bonus}.", e.seat)
        if isinstance(e, A.Placed) and self._phase_before != "setup":
            return LogLine(f"{n(e.seat)} placed {e.armies} on {t(e.territory)}.", e.seat)
        if isinstance(e, A.CardsTurnedIn):
            kind = e.set_kind.replace("_", " ")
            return LogLine(f"{n(e.seat)} turned in {kind} for {e.armies}.", e.seat)
        if isinstance(e, A.DiceRolled):
            return LogLine(
                f"{t(e.source)} > {t(e.target)}: {_faces(e.attacker_dice)} v "
                f"{_faces(e.defender_dice)}, lost {e.attacker_loss}:{e.defender_loss}",
                e.seat,
            )
        if isinstance(e, A.BattleFought):
            return LogLine(
                f"{t(e.source)} > {t(e.target)}: to the end, lost "
                f"{e.attacker_loss}:{e.defender_loss}",
                e.seat,
            )
        if isinstance(e, A.Conquered):
            return LogLine(f"{n(e.seat)} conquered {t(e.target)}!", e.seat)
        if isinstance(e, A.Eliminated):
            return LogLine(f"{n(e.seat)} was eliminated by {n(e.by)}.", e.by)
        if isinstance(e, A.Fortified):
            return LogLine(
                f"{n(e.seat)} moved {e.armies} from {t(e.source)} to {t(e.target)}.", e.seat
            )
        if isinstance(e, A.CardDrawn):
            return LogLine(f"{n(e.seat)} drew a card.", e.seat)
        if isinstance(e, A.TimeRanOut):
            return LogLine(f"{n(e.seat)} ran out of time.", e.seat)
        if isinstance(e, A.GameOver):
            return LogLine(f"{' and '.join(n(w) for w in e.winners)} won: {e.reason}.", None)
        return None

    # -- saving ------------------------------------------------------------------------------

    def to_document(self) -> dict[str, Any]:
        return {
            "replay": msgspec.to_builtins(self.replay),
            "seats": [asdict(s) for s in self.seats],
            "history": [asdict(h) for h in self.history],
            "luck": asdict(self.luck),
            "log": [asdict(line) for line in self.log],
        }

    def save(self, path: Path) -> None:
        """Write the session to `path` (SaveError when it cannot)."""
        save_document(path, SAVE_KIND, self.to_document())

    def save_autosave(self) -> None:
        """Write the autosave (if any). `apply` calls it when a turn begins: always before
        a human's turn, and at most every AUTOSAVE_GAP seconds while bots play fast."""
        if self.autosave is None or self.over:
            return
        self._saved_at = time.monotonic()
        try:
            self.save(self.autosave)
        except SaveError:
            self.autosave = None  # a full disk must not stop the game; stop trying

    def save_replay(self) -> Path | None:
        """Save the replay under replays_dir(); its path, or None when it cannot be written."""
        stamp = len(list(replays_dir().glob("*.json"))) if replays_dir().is_dir() else 0
        path = replays_dir() / f"game-{stamp + 1:04d}.json"
        data = msgspec.to_builtins(self.replay)
        data["seats"] = [asdict(s) for s in self.seats]  # extra field: Replay.load ignores it
        try:
            save_document(path, REPLAY_KIND, data)
        except (SaveError, OSError):
            return None
        return path

    @classmethod
    def load(cls, path: Path, *, autosave: Path | None = None) -> Session:
        """Resume a saved session; SaveError naming the file when it cannot be used."""
        data = load_document(path, SAVE_KIND)
        try:
            replay = msgspec.convert(data["replay"], type=Replay)
            seats = [SeatInfo(**s) for s in data["seats"]]
            session = cls(replay.config, replay.seed, seats, autosave=None)
            for step in replay.actions:
                action = msgspec.convert(step.action, type=A.WorldWarAction)
                session.apply(step.seat, action)
            session.history = [TurnStats(**h) for h in data["history"]] or session.history
            session.luck = Luck(**data["luck"])
            session.log = [LogLine(**line) for line in data["log"]]
        except (KeyError, TypeError, ValueError, msgspec.ValidationError) as exc:
            raise SaveError(path, f"not a World War save: {exc}") from exc
        session.autosave = autosave
        return session


def load_replay(path: Path) -> tuple[Replay, list[SeatInfo]]:
    """A saved replay and its seats (generic names when the file has none); SaveError when
    the file is no World War replay."""
    replay = Replay.load(path)
    if replay.game != GAME:
        raise SaveError(path, f"a {replay.game} replay, not World War")
    n = int(replay.config.get("players", 2))
    data = load_document(path, REPLAY_KIND)
    try:
        seats = [SeatInfo(**s) for s in data.get("seats", [])]
    except TypeError as exc:
        raise SaveError(path, f"bad seats: {exc}") from exc
    if len(seats) != n:
        seats = [SeatInfo(f"Player {i + 1}", i) for i in range(n)]
    return replay, seats


def list_replays() -> list[Path]:
    """Saved replays, newest first."""
    folder = replays_dir()
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)


def list_saves() -> list[Path]:
    """Saved games, newest first."""
    folder = saves_dir()
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)


def _faces(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)
