"""One local WoK match as the screens play it: the session, who sits where, history, saves.

`WokMatch` wraps a `suite.core.session.LocalSession` (the only thing the screens act
through), remembers each seat's name and kind ("human" or a bot of the game's spec),
keeps per-seat history points for the charts (taken from that seat's view after every
turn, so a seat's charts show only what it may know) and saves itself as a store
document of kind "wok-save": the replay (config, seed, actions), the seats and the
history. Resuming replays the actions, so a resumed game is the saved one.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from suite.core.match import Replay, ReplayStep, Seat
from suite.core.session import LocalSession, Update
from suite.core.store import SaveError, load_document, save_document
from suite.core.thinking import shared_thinker
from suite.paths import user_data_dir
from suite.wok.rules.events import TurnRan
from suite.wok.rules.views import WokView

GAME = "wok"
SAVE_KIND = "wok-save"
HUMAN = "human"


class SeatPlan(msgspec.Struct, frozen=True):
    """Who sits at a seat: its name and "human" or a bot name of the WoK spec."""

    name: str
    kind: str = HUMAN

    @property
    def human(self) -> bool:
        return self.kind == HUMAN


class Point(msgspec.Struct, frozen=True):
    """One turn of a seat's history: provinces of every colour (public) and the seat's own
    colours' armies, POP, EFF and gold (private to the seat)."""

    turn: int
    provinces: dict[int, int]
    score: dict[int, int]
    arm: dict[int, int]
    pop: dict[int, int]
    eff: dict[int, int]
    gold: dict[int, int]


class SaveDoc(msgspec.Struct):
    replay: Replay
    seats: list[SeatPlan]
    history: dict[int, list[Point]] = msgspec.field(default_factory=dict)
    clock: str = "none"


def save_summary(path: Path) -> tuple[dict[str, Any], int, int]:
    """A save's config, number of players and turn, read without replaying it (the last
    turn any seat's history recorded; 1 before one was); SaveError when unreadable."""
    data = load_document(path, SAVE_KIND)
    try:
        doc = msgspec.convert(data, SaveDoc, strict=False)
    except msgspec.ValidationError as exc:
        raise SaveError(path, f"not a WoK save: {exc}") from exc
    turns = [points[-1].turn for points in doc.history.values() if points]
    return dict(doc.replay.config), len(doc.seats), max(turns, default=1)


def saves_dir() -> Path:
    return user_data_dir() / "wok" / "saves"


def autosave_path() -> Path:
    return saves_dir() / "autosave.json"


def replays_dir() -> Path:
    return user_data_dir() / "wok" / "replays"


def record_points(history: dict[int, list[Point]], views: dict[int, WokView]) -> None:
    """Append each seat's point for its view's turn to `history`, once per turn."""
    for seat, view in views.items():
        points = history.setdefault(seat, [])
        if not points or points[-1].turn != view.turn:
            points.append(point_of(view))


def point_of(view: WokView) -> Point:
    """The history point of `view`'s seat at its current turn."""
    mine = {c.colour for c in view.colours}
    arm: dict[int, int] = dict.fromkeys(mine, 0)
    pop: dict[int, int] = dict.fromkeys(mine, 0)
    for p in view.provinces:
        if p.owner in mine and p.figures is not None:
            arm[p.owner] += p.figures.arm
            pop[p.owner] += p.figures.pop
    return Point(
        turn=view.turn,
        provinces={pl.colour: pl.provinces for pl in view.players},
        score={t.colour: t.score for t in view.top_ten},
        arm=arm,
        pop=pop,
        eff={c.colour: c.eff for c in view.colours},
        gold={c.colour: c.gold for c in view.colours},
    )


class WokMatch:
    """A local match: session, seats, history and saving (see the module docstring).

    `clock` is the screen's turn clock: "none" (hot-seat) or a preset of the rule set
    whose deadline the game screen enforces ("live").
    """

    def __init__(
        self,
        session: LocalSession,
        seats: Sequence[SeatPlan],
        *,
        history: dict[int, list[Point]] | None = None,
        clock: str = "none",
        autosave: Path | None = None,
    ) -> None:
        self.session = session
        self.seats = list(seats)
        self.history: dict[int, list[Point]] = history or {}
        self.clock = clock
        self.autosave = autosave
        self.autosave_error: str | None = None
        session.listeners.append(self._heard)
        if not self.history:
            self.record_history()

    @classmethod
    def new(
        cls,
        config: dict[str, Any],
        seed: int,
        seats: Sequence[SeatPlan],
        *,
        clock: str = "none",
        autosave: Path | None = None,
    ) -> WokMatch:
        """A new match; `config` goes to the engine (names are taken from `seats`)."""
        config = {**config, "names": [s.name for s in seats], "players": len(seats)}
        humans = frozenset(i for i, s in enumerate(seats) if s.human)
        bots = {i: s.kind for i, s in enumerate(seats) if not s.human}
        session = LocalSession.start(
            GAME, config, seed, humans=humans, bots=bots, thinker=shared_thinker()
        )
        return cls(session, seats, clock=clock, autosave=autosave)

    @classmethod
    def load(cls, path: Path, *, autosave: Path | None = None) -> WokMatch:
        """Resume a saved match; SaveError names any problem with the file."""
        data = load_document(path, SAVE_KIND)
        try:
            doc = msgspec.convert(data, SaveDoc, strict=False)  # JSON keys are strings
        except msgspec.ValidationError as exc:
            raise SaveError(path, f"not a WoK save: {exc}") from exc
        if doc.replay.game != GAME:
            raise SaveError(path, f"a save of {doc.replay.game!r}, not WoK")
        humans = frozenset(i for i, s in enumerate(doc.seats) if s.human)
        bots = {i: s.kind for i, s in enumerate(doc.seats) if not s.human}
        try:
            session = LocalSession.resume(
                doc.replay, humans=humans, bots=bots, thinker=shared_thinker()
            )
        except (ValueError, KeyError) as exc:
            raise SaveError(path, f"the saved game does not replay: {exc}") from exc
        return cls(session, doc.seats, history=doc.history, clock=doc.clock, autosave=autosave)

    # -- what the screens ask ---------------------------------------------------------------

    @property
    def humans(self) -> list[Seat]:
        return [i for i, s in enumerate(self.seats) if s.human]

    def view(self, seat: Seat) -> WokView:
        v = self.session.view(seat)
        assert isinstance(v, WokView)
        return v

    # -- history and saves ------------------------------------------------------------------

    def record_history(self) -> None:
        """Add the current turn's point to every human seat's history (once per turn)."""
        record_points(self.history, {seat: self.view(seat) for seat in self.humans})

    def _heard(self, update: Update) -> None:
        if any(isinstance(e, TurnRan) for e in update.events):
            self.record_history()
            if self.autosave is not None:
                try:
                    self.save(self.autosave)
                    self.autosave_error = None
                except (SaveError, OSError) as exc:
                    self.autosave_error = str(exc)

    def document(self) -> SaveDoc:
        replay = self.session.replay
        copy = Replay(
            replay.game,
            dict(replay.config),
            replay.seed,
            [ReplayStep(s.seat, dict(s.action)) for s in replay.actions],
        )
        return SaveDoc(copy, list(self.seats), dict(self.history), self.clock)

    def save(self, path: Path) -> Path:
        """Write the match to `path` (atomic); SaveError or OSError when it cannot."""
        save_document(path, SAVE_KIND, msgspec.to_builtins(self.document()))
        return path

    def save_replay(self, path: Path) -> Path:
        self.session.replay.save(path)
        return path
