"""One World War match as the screens see it: a `suite.core.session.Session` (the only
way to the match), the seats, the per-turn history, dice luck and a readable log. No
drawing happens here, and nothing of the engine is read: only views and events.

Every action goes through `Match.act` (a human's) or `Match.run_bot` (a local bot's);
`Match.pump` then takes the session's updates, keeps the statistics the game-over screen
charts, turns the events into log lines and passes them to the listeners (the game
screen's animations). A match is saved as a `suite.core.store` document of kind
"worldwar-save"; resuming replays the recorded actions, so a resumed game is exactly the
saved one.

`Match.over_session` plays any other `Session`, e.g. an online room (`suite.net`): there
the seed stays secret, the board comes from the server when the session serves one
(`ServedBoard`: a `RemoteSession` asks for the room's `board` messages, so a host's own
map needs no copy here), else from the public config (its `map_seed`), and is checked
against the view's map tables, the seats not played here are nobody's business on
this machine (the server runs its bots), and saves and replays are refused with the reason
(`ONLINE_NOTE`): the server keeps the match.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import msgspec

from suite.core.board import Board, BoardError
from suite.core.match import Action, Event, GameOver, Legal, Replay, Seat, parse_config
from suite.core.session import LocalSession, Refusal, Session
from suite.core.store import SaveError, load_document, save_document
from suite.core.thinking import shared_thinker
from suite.paths import user_data_dir
from suite.worldwar.rules import SAVE_KIND, SPEC
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.game import board_for
from suite.worldwar.rules.odds import odds_for
from suite.worldwar.rules.views import WorldWarView

GAME = SPEC.name
REPLAY_KIND = "replay"  # suite.core.match.Replay's document kind
BOT_KINDS = ("random", "easy", "hard", "expert")
"""The bots a seat may be given on the set-up screen (names of the game's spec), weakest
first; the expert searches (it thinks in the worker process, a fraction of a second)."""
LOG_KEEP = 400
ONLINE = "online"
"""The kind of a seat played on another machine (a person there, or the server's bot)."""
ONLINE_NOTE = "an online match is kept by its server: rejoin it from Online"
AUTOSAVE_GAP = 2.0  # seconds between autosaves while only bots play
AUTOSAVE_PREFIX = "autosave-"
AUTOSAVES_KEPT = 5
"""Autosaves kept (one per match, the newest); older ones are removed as matches start."""
SEAT_KINDS = ("human", *BOT_KINDS)


@runtime_checkable
class ServedBoard(Protocol):
    """A session that has the match's board from where the match runs (its server)."""

    def board(self) -> Board: ...


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

    @property
    def label(self) -> str:
        """The name as the seat list shows it: "(online)" or "(<kind> bot)" after others'
        (not after a bot already named so, as the server names its bots)."""
        if self.human or self.name == f"{self.kind} bot":
            return self.name
        return (
            f"{self.name} ({ONLINE})" if self.kind == ONLINE else f"{self.name} ({self.kind} bot)"
        )


@dataclass
class TurnStats:
    """Territories, armies and cards in hand of every seat when a turn began (`cards` is
    empty in saves made before it was recorded)."""

    turn: int
    territories: list[int]
    armies: list[int]
    cards: list[int] = field(default_factory=list)


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


def new_autosave_path() -> Path:
    """A fresh autosave file for a new match (named by the time it starts)."""
    now = time.time()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now)) + f"{now % 1:.3f}"[1:]
    folder = saves_dir()
    path = folder / f"{AUTOSAVE_PREFIX}{stamp}.json"
    count = 1
    while path.exists():
        count += 1
        path = folder / f"{AUTOSAVE_PREFIX}{stamp}-{count}.json"
    return path


def is_autosave(path: Path) -> bool:
    return path.name.startswith(AUTOSAVE_PREFIX) or path.name == "autosave.json"


def prune_autosaves(keep: int = AUTOSAVES_KEPT) -> None:
    """Remove all but the `keep` newest autosaves (nothing raises: a file that cannot be
    removed stays)."""
    for old in [p for p in list_saves() if is_autosave(p)][keep:]:
        with contextlib.suppress(OSError):
            old.unlink()


class Match:
    """A running match. `config` and `seed` go to the engine through the session."""

    def __init__(
        self,
        config: dict[str, Any],
        seed: int,
        seats: Sequence[SeatInfo],
        *,
        autosave: Path | None = None,
        replay: Replay | None = None,
    ) -> None:
        """A new local match, or the one `replay` recorded (replayed to its end)."""
        config = {**config, "players": len(seats)}
        humans = frozenset(i for i, s in enumerate(seats) if s.human)
        bots = {i: s.kind for i, s in enumerate(seats) if not s.human}
        thinker = shared_thinker()  # bots think in a worker (`step_bot`)
        if replay is None:
            local = LocalSession.start(
                GAME, config, seed, humans=humans, bots=bots, thinker=thinker
            )
        else:
            local = LocalSession.resume(replay, humans=humans, bots=bots, thinker=thinker)
        local.poll()  # a resumed match's replayed updates are history, not news
        self.local: LocalSession | None = local
        self.fetch_replay: Callable[[], Replay] | None = None
        self.link: Callable[[], str] | None = None
        self.time_left: Callable[[], float | None] | None = None
        """The seconds left by a remote turn clock (None here: the screen keeps time)."""
        self.seed: int | None = seed
        self.bot_seats = frozenset(bots)
        self._begin(local, seats, config, board_for(parse_config(SPEC, config), seed))
        self.autosave = autosave

    @classmethod
    def over_session(
        cls,
        session: Session,
        seats: Sequence[SeatInfo],
        config: Mapping[str, Any],
        *,
        fetch_replay: Callable[[], Replay] | None = None,
        link: Callable[[], str] | None = None,
        time_left: Callable[[], float | None] | None = None,
    ) -> Match:
        """The match `session` plays (an online room): `config` is the match's public
        config, `seats` say which seats are played here ("human") and which elsewhere.
        No bot runs here, nothing is autosaved, and `save` / `save_replay` refuse with
        ONLINE_NOTE; `fetch_replay` gets the finished match's replay from where it is
        kept (SaveError saying why not); `link` tells the connection's state
        ("connected", "reconnecting" or "closed"); `time_left` the seconds left before the
        server's turn deadline (R7; None: none runs). The board is the server's when the
        session serves it (`ServedBoard`), else the config's map drawn here. ValueError
        when the board cannot be had or differs from the view's map."""
        match = cls.__new__(cls)
        match.local = None
        match.fetch_replay = fetch_replay
        match.link = link
        match.time_left = time_left
        match.seed = None
        match.bot_seats = frozenset()
        try:
            if isinstance(session, ServedBoard):
                board = session.board()
            else:
                cfg = parse_config(SPEC, {**config, "players": len(seats)})
                board = board_for(cfg, cfg.map_seed or 0)
        except (OSError, ValueError) as exc:
            raise ValueError(f"the match's map cannot be drawn here: {exc}") from exc
        view = session.view(None)
        assert isinstance(view, WorldWarView)
        if _tables(board) != (view.map.territories, view.map.neighbours):
            raise ValueError("the match's map on this computer differs from the server's")
        match._begin(session, seats, dict(config), board)
        match.autosave = None
        return match

    def _begin(
        self, session: Session, seats: Sequence[SeatInfo], config: dict[str, Any], board: Board
    ) -> None:
        """What every match keeps, from its session's first view."""
        self.session: Session = session
        self.seats = list(seats)
        self.config = config
        self.config["players"] = len(self.seats)
        self.board: Board = board
        self.speed: int | None = None
        """The bots' pace on the map screen (an index of its choices), kept in saves."""
        self.clock: tuple[int, int, float] = (-1, -1, 0.0)
        """(turn, seat, seconds left) of the turn clock as the map screen last counted it,
        kept in saves so that a resumed turn goes on with the time it had left."""
        self.history: list[TurnStats] = []
        n = len(self.seats)
        self.luck = Luck([0.0] * n, [0.0] * n)
        self.log: list[LogLine] = []
        self.listeners: list[Callable[[list[Event]], None]] = []
        self.refusals: list[str] = []
        """Reasons the session gave for refusing actions sent earlier (online), oldest
        first; the screen shows and clears them."""
        self._saved_at = 0.0
        spectator = self.view(None)
        self._armies = spectator.armies
        self._setup = spectator.phase == "setup"
        self.moves = 0 if self.local is None else len(self.local.replay.actions)
        """Actions taken so far (the ones this machine learnt of, online)."""
        if not self.moves:
            first = spectator.current
            self.log.append(LogLine(f"Territories dealt; {self.name(first)} starts.", first))
        self._snapshot()

    @property
    def link_problem(self) -> str | None:
        """What the screen should say about the connection to the match (None: nothing)."""
        state = "connected" if self.link is None else self.link()
        if state == "reconnecting":
            return "Connection lost: reconnecting..."
        if state == "closed" and not self.over:
            return "Disconnected from the server: rejoin the room from Online"
        return None

    @property
    def online(self) -> bool:
        """True when the match is played over a session that is not on this machine."""
        return self.local is None

    # -- names -----------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def named(self, text: str) -> str:
        """Engine text (which knows no names: "Destroy player 2") with the seats' names."""

        def seat_name(found: re.Match[str]) -> str:
            seat = int(found.group(1)) - 1
            return self.name(seat) if 0 <= seat < len(self.seats) else found.group(0)

        return re.sub(r"\bplayer (\d+)\b", seat_name, text)

    def territory_name(self, tid: str) -> str:
        m = self.view(None).map
        return m.names[m.territories.index(tid)]

    # -- the match through the session ---------------------------------------------------------

    def view(self, seat: Seat | None) -> WorldWarView:
        """`seat`'s view (None: a spectator's)."""
        view = self.session.view(seat)
        assert isinstance(view, WorldWarView)
        return view

    def legal(self, seat: Seat) -> Legal:
        return self.session.legal(seat)

    @property
    def actor(self) -> Seat | None:
        return self.view(None).actor()

    @property
    def over(self) -> bool:
        return self.session.outcome() is not None

    @property
    def replay(self) -> Replay:
        """The recorded match (a local one only: SaveError for an online match)."""
        if self.local is None:
            raise SaveError(replays_dir(), ONLINE_NOTE)
        return self.local.replay

    def replay_to_watch(self) -> Replay:
        """The whole match to play back: the local record, or the one fetched from where
        an online match is kept (SaveError saying why there is none)."""
        if self.local is not None:
            return self.local.replay
        if self.fetch_replay is None:
            raise SaveError(replays_dir(), "an online match's replay stays on its server")
        return self.fetch_replay()

    def act(self, seat: Seat, action: Action) -> list[Event]:
        """Send `action` for `seat` (IllegalAction leaves everything unchanged); the
        events it caused."""
        self.session.act(seat, action)
        return self.pump()

    def run_bot(self) -> list[Event] | None:
        """Let the awaited local bot act once, deciding at once: the events it caused
        (None when no bot is awaited)."""
        if self.local is None or self.local.run_bot() is None:
            return None
        return self.pump()

    def step_bot(self, wait: float = 0.0) -> list[Event] | None:
        """The screen's way: the awaited local bot acts once its decision, made in the
        worker process, is ready (waiting at most `wait` seconds). The events it caused,
        or None while it thinks or when no bot is awaited."""
        if self.local is None or self.local.step_bot(wait) is None:
            return None
        return self.pump()

    def think_ahead(self) -> None:
        """Let the awaited local bot start thinking while the screen paces it."""
        if self.local is not None:
            self.local.think_ahead()

    @property
    def thinking(self) -> bool:
        """Whether a local bot is thinking in the worker now."""
        return self.local is not None and self.local.thinking

    def stop_thinking(self) -> None:
        """Drop a local bot's decision in progress (the player leaves)."""
        if self.local is not None:
            self.local.stop_thinking()

    def pump(self) -> list[Event]:
        """Take the session's news: statistics, log, listeners, autosave. The events."""
        out: list[Event] = []
        for notice in self.session.poll():
            if isinstance(notice, Refusal):
                self.refusals.append(notice.reason)
                continue
            self.moves += 1
            events = list(notice.events)
            self._account(events)
            self._note(events)
            self._setup = self.view(None).phase == "setup"
            self._armies = self.view(None).armies
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
            out.extend(events)
        return out

    # -- statistics --------------------------------------------------------------------------

    def _snapshot(self) -> None:
        view = self.view(None)
        armies = [0] * len(self.seats)
        for t, o in enumerate(view.owner):
            armies[o] += view.armies[t]
        stats = TurnStats(view.turn, list(view.territory_counts), armies, list(view.hand_sizes))
        if self.history and self.history[-1].turn == stats.turn:
            self.history[-1] = stats
        else:
            self.history.append(stats)

    def _account(self, events: list[Event]) -> None:
        """Add the battles of `events` to the luck tally (armies before them: `_armies`)."""
        view = self.view(None)
        odds = odds_for(view.rules.dice())
        index = view.map.territories.index
        before = self._armies
        for e in events:
            if isinstance(e, A.DiceRolled):
                rows = odds.roll(len(e.attacker_dice), len(e.defender_dice))
                self.luck.expected[e.seat] += sum(a * p for a, _, p in rows)
                self.luck.expected[e.defender] += sum(d * p for _, d, p in rows)
                self.luck.actual[e.seat] += e.attacker_loss
                self.luck.actual[e.defender] += e.defender_loss
            elif isinstance(e, A.BattleFought):
                fought = odds.battle(before[index(e.source)], before[index(e.target)])
                self.luck.expected[e.seat] += fought.expected_attacker_loss
                self.luck.expected[e.defender] += fought.expected_defender_loss
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
        if isinstance(e, A.TurnBegan):
            bonus = f" (continents: {len(e.continents)})" if e.continents else ""
            return LogLine(f"Turn {e.turn}: {n(e.seat)} gets {e.reinforcements}{bonus}.", e.seat)
        if isinstance(e, A.Placed) and not self._setup:
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
        if isinstance(e, GameOver):
            winners = " and ".join(n(w) for w in e.outcome.winners)
            return LogLine(f"{winners} won: {self.named(e.outcome.reason)}.", None)
        return None

    # -- saving ------------------------------------------------------------------------------

    def summary(self) -> str:
        """What a list of saves shows: map, players and turn."""
        view = self.view(None)
        names = ", ".join(s.name for s in self.seats)
        when = f"turn {view.turn}" if view.turn else "deployment"
        return f"{self.board.name or 'World War'}: {names}, {when}"

    def to_document(self) -> dict[str, Any]:
        return {
            "summary": self.summary(),
            "speed": self.speed,
            "clock": list(self.clock),
            "replay": msgspec.to_builtins(self.replay),
            "seats": [asdict(s) for s in self.seats],
            "history": [asdict(h) for h in self.history],
            "luck": asdict(self.luck),
            "log": [asdict(line) for line in self.log],
        }

    def save(self, path: Path) -> None:
        """Write the match to `path` (SaveError when it cannot, or when it is online)."""
        if self.online:
            raise SaveError(path, ONLINE_NOTE)
        save_document(path, SAVE_KIND, self.to_document())

    def save_autosave(self) -> None:
        """Write the autosave (if any). `pump` calls it when a turn begins: always before
        a human's turn, and at most every AUTOSAVE_GAP seconds while bots play fast."""
        if self.autosave is None or self.over:
            return
        self._saved_at = time.monotonic()
        try:
            self.save(self.autosave)
        except SaveError:
            self.autosave = None  # a full disk must not stop the game; stop trying

    def save_replay(self) -> Path | None:
        """Save the replay under replays_dir(); its path, or None when it cannot be written
        (or the match is online: its server keeps the log)."""
        if self.online:
            return None
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
    def load(cls, path: Path, *, autosave: Path | None = None) -> Match:
        """Resume a saved match; SaveError naming the file and the problem when it cannot
        be used. Everything the screens read is checked here: the seats against the
        replay's players, the statistics' and log's seats, the replay's every action."""
        data = load_document(path, SAVE_KIND)
        try:
            replay = msgspec.convert(data["replay"], type=Replay)
            if replay.game != GAME:
                raise ValueError(f"a {replay.game} game, not World War")
            seats = [_seat(s) for s in _list(data, "seats")]
            players = replay.config.get("players")
            if players != len(seats):
                plural = "" if len(seats) == 1 else "s"
                raise ValueError(f"it lists {len(seats)} seat{plural} for {players!r} players")
            n = len(seats)
            history = [TurnStats(**h) for h in _list(data, "history")]
            for h in history:
                if not len(h.territories) == len(h.armies) == n or len(h.cards) not in (0, n):
                    raise ValueError(f"turn {h.turn}'s statistics are not for {n} players")
            luck = Luck(**data["luck"])
            if not len(luck.actual) == len(luck.expected) == n:
                raise ValueError(f"the dice luck is not for {n} players")
            log = [LogLine(**line) for line in _list(data, "log")]
            if any(line.seat is not None and not 0 <= line.seat < n for line in log):
                raise ValueError("a log line names a seat that does not play")
            match = cls(replay.config, replay.seed, seats, replay=replay)
            match.history = history or match.history
            match.luck = luck
            match.log = log
            speed = data.get("speed")
            match.speed = speed if isinstance(speed, int) and not isinstance(speed, bool) else None
            match.clock = _clock(data.get("clock"), replay.config.get("clock"))
        except SaveError:
            raise
        except (
            KeyError,
            TypeError,
            ValueError,
            IndexError,
            AttributeError,
            msgspec.ValidationError,
        ) as exc:
            raise SaveError(path, f"not a usable World War save: {exc}") from exc
        match.autosave = autosave
        return match


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data[key]
    if not isinstance(value, list):
        raise ValueError(f"{key!r} is not a list")
    return value


def _clock(data: object, seconds: object) -> tuple[int, int, float]:
    """A saved turn clock (turn, seat, seconds left); none (-1, -1, 0) when absent (older
    saves); ValueError when it is not one the match's clock could show."""
    if data is None:
        return (-1, -1, 0.0)
    if not (isinstance(data, list) and len(data) == 3):
        raise ValueError(f"the turn clock {data!r} is not [turn, seat, seconds]")
    turn, seat, left = data
    limit = seconds if isinstance(seconds, int) else 0
    whole = all(isinstance(x, int) and not isinstance(x, bool) for x in (turn, seat))
    number = isinstance(left, int | float) and not isinstance(left, bool)
    if not (whole and number and 0 <= left <= limit):
        raise ValueError(f"the turn clock {data!r} is not [turn, seat, 0..{limit} seconds]")
    return (int(turn), int(seat), float(left))


def _seat(data: object) -> SeatInfo:
    """A saved seat, checked: a name, a colour (a whole number >= 0) and a local kind."""
    if not isinstance(data, dict):
        raise ValueError(f"a seat is {type(data).__name__}, not an object")
    seat = SeatInfo(**data)
    if not isinstance(seat.name, str) or not seat.name.strip():
        raise ValueError(f"a seat has no name: {seat.name!r}")
    if not isinstance(seat.colour, int) or isinstance(seat.colour, bool) or seat.colour < 0:
        raise ValueError(f"seat {seat.name!r} has colour {seat.colour!r}")
    if seat.kind not in SEAT_KINDS:
        raise ValueError(f"seat {seat.name!r} is of unknown kind {seat.kind!r}")
    return seat


def check_save(path: Path) -> tuple[str, str | None]:
    """What a list of saves shows for `path`, checked by loading it whole: (its summary,
    None), or ("Cannot resume: <why>", the problem) when it cannot be resumed. Never
    raises."""
    try:
        match = Match.load(path)
    except SaveError as exc:
        why = str(exc.__cause__) if exc.__cause__ is not None else exc.problem
        return f"Cannot resume: {why}", exc.problem
    except (BoardError, ValueError, OSError) as exc:
        return f"Cannot resume: {exc}", str(exc)
    if match.over:
        return f"Over: {match.summary()}", "that game is already over"
    label = match.summary()
    return (f"Autosave: {label}" if is_autosave(path) else label), None


def save_summary(path: Path) -> str | None:
    """The summary a save holds (map, players, turn), or None when it has none."""
    try:
        data = load_document(path, SAVE_KIND)
    except SaveError:
        return None
    summary = data.get("summary") if isinstance(data, dict) else None
    return summary if isinstance(summary, str) else None


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


def _tables(board: Board) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
    """A board's territories and their neighbours by index, as views carry them."""
    ids = tuple(board.ids())
    index = {t: i for i, t in enumerate(ids)}
    return ids, tuple(tuple(sorted(index[n] for n in board.neighbours(t))) for t in ids)


def _faces(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)
