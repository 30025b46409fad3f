"""Games' own screens over a `RemoteSession`, registered with the lobby (WoK, Tactics,
World War).

Tactics' battle screen already plays any `Session` (its live driver leaves the bots to the
server); it only needs the seats, the player's profile and the host's pack on this
machine (`RemoteSession.sync_pack`).

WoK's game screen talks only to a `Session` and to a match object for seats, history and
saves; `OnlineWokMatch` is that match object for an online room: the seat played here is
the one human of the screen (the others, people elsewhere or server bots, are shown as
not played here), the history is recorded as turns run, saving is refused with a clear
message (the server keeps the match), and the finished match's replay comes from the
server's log. `register()` hands WoK rooms to its screen.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from suite.core.match import Action, Legal, Outcome, Replay, Seat, View
from suite.core.session import Notice, Update
from suite.core.store import SaveError
from suite.net.client.client import ServerError
from suite.net.client.session import RemoteSession
from suite.net.screens.registry import register_online_screen
from suite.ui.app import App, Scene

ONLINE = "online"
"""The kind of a seat not played on this machine (its player is elsewhere, or a bot)."""


class _Recording:
    """The session as the screen sees it, noting each turn that ran for the history."""

    def __init__(self, remote: RemoteSession, heard: Any) -> None:
        self.remote = remote
        self._heard = heard

    @property
    def game(self) -> str:
        return self.remote.game

    @property
    def seats(self) -> frozenset[Seat]:
        return self.remote.seats

    @seats.setter
    def seats(self, seats: frozenset[Seat]) -> None:
        self.remote.seats = seats

    def view(self, seat: Seat | None) -> View:
        return self.remote.view(seat)

    def legal(self, seat: Seat) -> Legal:
        return self.remote.legal(seat)

    def awaiting(self) -> frozenset[Seat]:
        return self.remote.awaiting()

    def outcome(self) -> Outcome | None:
        return self.remote.outcome()

    def act(self, seat: Seat, action: Action) -> None:
        self.remote.act(seat, action)

    def poll(self) -> list[Notice]:
        notes = self.remote.poll()
        for note in notes:
            if isinstance(note, Update):
                self._heard(note)
        return notes


class OnlineWokMatch:
    """What WoK's `GameScene` needs of a match, for an online room (module docstring)."""

    def __init__(self, remote: RemoteSession) -> None:
        from suite.wok.screens.match import HUMAN, SeatPlan

        room = remote.room
        mine = remote.seat
        if room is None or mine is None:
            raise ValueError("an online WoK screen needs a seat in a room")
        self.remote = remote
        self.session = _Recording(remote, self._heard)
        self.seats = [
            SeatPlan(name=s.name or f"Seat {s.seat + 1}", kind=HUMAN if s.seat == mine else ONLINE)
            for s in room.seats
        ]
        self.history: dict[int, list[Any]] = {}
        self.clock = "none"  # the server runs the W12 clock (deadline, poke, run now)
        self.autosave: Path | None = None
        self.autosave_error: str | None = None
        self.record_history()

    @property
    def humans(self) -> list[Seat]:
        return [self.remote.seat] if self.remote.seat is not None else []

    def view(self, seat: Seat) -> Any:
        from suite.wok.rules.views import WokView

        view = self.remote.view(seat)
        assert isinstance(view, WokView)
        return view

    def record_history(self) -> None:
        from suite.wok.screens.match import record_points

        record_points(self.history, {seat: self.view(seat) for seat in self.humans})

    def _heard(self, update: Update) -> None:
        from suite.wok.rules.events import TurnRan

        if any(isinstance(e, TurnRan) for e in update.events):
            self.record_history()

    def save(self, path: Path) -> Path:
        raise SaveError(path, "an online match is kept by its server: rejoin it from the lobby")

    def replay(self) -> Replay:
        """The finished match's replay from the server (SaveError saying why not)."""
        return replay_fetcher(self.remote)()

    def save_replay(self, path: Path) -> Path:
        """Save the finished match's replay, fetched from the server (SaveError)."""
        self.replay().save(path)
        return path


def wok_screen(app: App, remote: RemoteSession) -> Scene:
    """WoK's own game screen playing the seat of `remote`; its game-over screen watches
    and saves the replay fetched from the server's log."""
    from suite.wok.screens.game import GameScene
    from suite.wok.screens.report import GameOverScene

    class OnlineGameOver(GameOverScene):
        def watch(self) -> None:
            from suite.wok.screens.replay import ReplayScene

            try:
                replay = online.replay()
            except SaveError as exc:
                self.app.notify(f"No replay: {exc.problem}", 5.0)
                return
            self.app.push(ReplayScene(self.app, replay))

    class OnlineGame(GameScene):
        def game_over(self) -> None:
            if self.over_shown:
                return
            self.over_shown = True
            self.app.replace(OnlineGameOver(self.app, self.match))

    online = OnlineWokMatch(remote)
    scene: Scene = OnlineGame(app, online)  # type: ignore[arg-type]
    return scene


def tactics_screen(app: App, remote: RemoteSession) -> Scene:
    """WoS Tactics' battle screen over `remote`, drawing the host's pack: this machine's
    own copy when it is the same, else the copy downloaded into the pack cache. The
    result goes into this machine's ratings like a local battle's (`Records`), and its
    replay, fetched from the server, is saved and watched like a local battle's."""
    from suite.net.client.packs import client_cache_dir
    from suite.tactics.rules.packs import PackError, default_pack_dir
    from suite.tactics.screens.drivers import LiveDriver, ReplayDriver
    from suite.tactics.screens.game import BattleScene
    from suite.tactics.screens.gameover import GameOverScene
    from suite.tactics.screens.match import SeatInfo, load_replay
    from suite.tactics.screens.profile import load_profile
    from suite.tactics.screens.ratings import Records
    from suite.tactics.screens.setup import BOT_NAMES

    room = remote.room
    if room is None:
        raise ValueError("an online battle needs a room")
    folder = remote.sync_pack(client_cache_dir(), own=default_pack_dir())
    bots = iter(BOT_NAMES)  # the server's bots take the names a local battle gives bots
    seats = [
        SeatInfo(
            name=next(bots, s.name) if s.bot else s.name or f"Seat {s.seat + 1}",
            kind=s.bot or "human",
        )
        for s in room.seats
    ]
    profile, _ = load_profile()
    pack = None if folder is None or folder == default_pack_dir() else str(folder)

    def watch(path: Path) -> None:
        try:
            replay, replay_seats = load_replay(path)
            driver = ReplayDriver(replay)
            battle = BattleScene(
                app, driver, replay_seats, profile, on_over=replay_over, pack_folder=pack
            )
        except (SaveError, ValueError, KeyError, PackError) as exc:
            app.notify(f"Cannot play that replay: {exc}")
            return
        app.push(battle)

    def replay_over(battle: BattleScene) -> None:
        app.replace(GameOverScene(app, battle, None, on_watch=watch))

    def over(battle: BattleScene) -> None:
        # Recorded in this machine's ratings as a local battle is (T10: Elo for the
        # people, never the server's bots), its replay fetched and saved with the local
        # ones (`_OnlineBattle.replay`).
        app.replace(GameOverScene(app, battle, Records(), on_watch=watch))

    scene: Scene = BattleScene(
        app,
        LiveDriver(_OnlineBattle(remote, pack)),
        seats,
        profile,
        on_over=over,
        pack_folder=None if folder is None else str(folder),
    )
    return scene


class _OnlineBattle(_Recording):
    """A Tactics room as the battle screen's session: its `replay`, which the game-over
    screen saves with the local battles' replays, is fetched from the server once the
    battle is over, naming this machine's copy of the host's pack (`pack`)."""

    def __init__(self, remote: RemoteSession, pack: str | None) -> None:
        super().__init__(remote, lambda update: None)
        self.pack = pack

    @property
    def replay(self) -> Replay | None:
        """The finished battle's replay (None while it runs or when the server has none)."""
        if self.remote.ended is None:
            return None
        try:
            replay = replay_fetcher(self.remote)()
        except SaveError:
            return None
        replay.config["pack"] = self.pack
        return replay


def worldwar_screen(app: App, remote: RemoteSession) -> Scene:
    """World War's own game screen over `remote`: the seat of this connection is played
    here, every other seat is shown as online (a person elsewhere or the server's bot);
    the board comes from the room's public config (`Match.over_session`)."""
    from suite.worldwar.screens.game import GameScene
    from suite.worldwar.screens.match import ONLINE, Match, SeatInfo

    room = remote.room
    mine = remote.seat
    if room is None or mine is None:
        raise ValueError("an online World War screen needs a seat in a room")
    seats = [
        SeatInfo(
            s.name or f"Seat {s.seat + 1}",
            s.seat,
            "human" if s.seat == mine else (s.bot or ONLINE),
        )
        for s in room.seats
    ]
    match = Match.over_session(
        remote,
        seats,
        room.config,
        fetch_replay=replay_fetcher(remote),
        link=lambda: remote.status,
        time_left=remote.time_left,
    )
    scene: Scene = GameScene(app, match)
    return scene


def replay_fetcher(remote: RemoteSession) -> Callable[[], Replay]:
    """Fetches the room's replay from the server once the match is over; every failure
    (the server's refusal, a dropped connection, a malformed answer) is a SaveError
    naming the room and the reason, as a replay file that cannot be read is."""

    def fetch() -> Replay:
        try:
            return remote.fetch_replay()
        except (ServerError, ValueError, OSError, TimeoutError) as exc:
            raise SaveError(
                Path(f"room {remote.code}"), f"the server gave no replay: {exc}"
            ) from exc

    return fetch


def register() -> None:
    """Hand the games whose screens run over a session to the lobby."""
    register_online_screen("wok", wok_screen)
    register_online_screen("tactics", tactics_screen)
    register_online_screen("worldwar", worldwar_screen)
