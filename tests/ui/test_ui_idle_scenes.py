"""An idle screen redraws nothing (issue 24, item 8), for every scene of every registered
game, so no future screen can forget it:

- every `Scene` subclass in the suite says when it animates (overrides `animating`; the
  base class's default, True, draws every frame);
- the launcher, each registered game's set-up and a game of each of the three, plus the
  Tactics pack panel, help, piece menu and game over, pushed and left untouched: within
  2 s of simulated frames they stop drawing (no frame is drawn in the next second).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator

import pytest

import suite
from suite.core.match import registered_games
from suite.ui.app import App, Scene
from suite.ui.game_cards import load_ui
from suite.ui.harness import Harness
from suite.ui.launcher import LauncherScene

SETTLE = 2.0  # seconds an untouched scene may still draw
WATCH = 1.0  # then this long without a frame drawn


def suite_scenes() -> list[type[Scene]]:
    """Every Scene subclass defined in the suite's modules (each imported once)."""
    for module in pkgutil.walk_packages(suite.__path__, "suite."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)

    def below(cls: type[Scene]) -> Iterator[type[Scene]]:
        for sub in cls.__subclasses__():
            yield sub
            yield from below(sub)

    return sorted(
        {c for c in below(Scene) if c.__module__.startswith("suite.")},
        key=lambda c: f"{c.__module__}.{c.__qualname__}",
    )


def test_every_scene_says_when_it_animates() -> None:
    scenes = suite_scenes()
    assert len(scenes) >= 20
    forgot = [
        f"{cls.__module__}.{cls.__qualname__}"
        for cls in scenes
        if next(k for k in cls.__mro__ if "animating" in vars(k)) is Scene
    ]
    assert forgot == [], "these scenes draw every frame: override Scene.animating"


def rests(h: Harness, scene: Scene) -> bool:
    """Push `scene`, leave it alone for SETTLE seconds, then True when no frame is drawn
    for WATCH seconds."""
    h.push(scene)
    h.seconds(SETTLE)
    drawn = h.app.draws
    h.seconds(WATCH)
    return h.app.draws == drawn and h.app.idle


def _setup(game: str) -> Callable[[App], Scene]:
    def open_it(app: App) -> Scene:
        ui, problem = load_ui(registered_games()[game])
        assert ui is not None, problem
        return ui.open_setup(app)

    return open_it


def _worldwar_game(app: App) -> Scene:
    from suite.worldwar.screens.game import GameScene
    from suite.worldwar.screens.match import Match, SeatInfo

    seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")]
    match = Match({"map": "classic", "auto_place": True}, 3, seats)
    while match.actor in match.bot_seats:
        match.run_bot()
    return GameScene(app, match)


def _wok_game(app: App) -> Scene:
    from suite.wok.screens.game import GameScene
    from suite.wok.screens.match import SeatPlan, WokMatch

    seats = [SeatPlan("Han"), SeatPlan("Kor", "general")]
    scene = GameScene(app, WokMatch.new({"map": "kaomaris"}, 3, seats), bot_delay=0.0)
    scene.seen_report = {0: 0}  # straight to the map, not the turn-0 report
    return scene


def _tactics_battle(app: App) -> Scene:
    from suite.tactics.screens.drivers import LiveDriver
    from suite.tactics.screens.game import BattleScene
    from suite.tactics.screens.match import SeatInfo, battle_config, start_battle
    from suite.tactics.screens.profile import TacticsProfile

    seats = [SeatInfo("Commander", "human"), SeatInfo("Bot Ada", "normal")]
    config = battle_config(seats, pack=None, map_id=2, pieces_per_turn=0, army_size=4)
    session = start_battle(config, seats, 5)
    for _ in range(500):  # the bots' opening moves, played at once
        if 0 in session.awaiting() or session.run_bot() is None:  # type: ignore[attr-defined]
            break
    assert 0 in session.awaiting()
    return BattleScene(app, LiveDriver(session), seats, TacticsProfile(bot_speed=3))


def _tactics_over(app: App) -> Scene:
    from suite.core.session import LocalSession
    from suite.tactics.screens.drivers import LiveDriver
    from suite.tactics.screens.game import BattleScene
    from suite.tactics.screens.gameover import GameOverScene
    from suite.tactics.screens.match import SeatInfo, battle_config, start_battle
    from suite.tactics.screens.profile import TacticsProfile
    from suite.tactics.screens.ratings import Records

    seats = [SeatInfo("Bot A", "hard"), SeatInfo("Bot B", "random")]
    config = battle_config(seats, pack=None, map_id=1, pieces_per_turn=0, army_size=1)
    session = start_battle(config, seats, 9)
    assert isinstance(session, LocalSession)
    for _ in range(5000):
        if session.outcome() is not None or session.run_bot() is None:
            break
    assert session.outcome() is not None
    battle = BattleScene(app, LiveDriver(session), seats, TacticsProfile())
    return GameOverScene(app, battle, Records())


def _tactics_help(app: App) -> Scene:
    from suite.tactics.screens.hud import HelpScene

    return HelpScene(app)


def _tactics_pack_panel(app: App) -> Scene:
    from suite.tactics.screens import open_setup
    from suite.tactics.screens.packs import PackScene
    from suite.tactics.screens.setup import SetupScene

    setup = open_setup(app)
    assert isinstance(setup, SetupScene)
    app.push(setup)
    return PackScene(app, setup.pack, "", lambda folder: False)


SCENES: list[tuple[str, Callable[[App], Scene]]] = [
    ("launcher", LauncherScene),
    *((f"{name} set-up", _setup(name)) for name in sorted(registered_games())),
    ("worldwar game", _worldwar_game),
    ("wok game", _wok_game),
    ("tactics battle", _tactics_battle),
    ("tactics game over", _tactics_over),
    ("tactics help", _tactics_help),
    ("tactics pack panel", _tactics_pack_panel),
]


def test_the_three_games_are_covered() -> None:
    names = {name for name, _ in SCENES}
    for game in registered_games():
        assert f"{game} set-up" in names and any(n.startswith(f"{game} ") for n in names)


@pytest.mark.parametrize(("name", "make"), SCENES, ids=[name for name, _ in SCENES])
def test_an_untouched_scene_stops_drawing(name: str, make: Callable[[App], Scene]) -> None:
    with Harness() as h:
        assert rests(h, make(h.app)), f"{name} still draws after {SETTLE} s untouched"
