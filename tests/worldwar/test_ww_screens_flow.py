"""World War screens: hot-seat privacy, the turn clock, save and resume, the defender's
choice, help, zoom and pan, all driven by posted events."""

from __future__ import annotations

from pathlib import Path

import pygame

from suite.ui.dialogs import ConfirmScene, MenuScene, PassScene
from suite.ui.harness import Harness
from suite.worldwar.screens import open_setup
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.match import Match, SeatInfo, is_autosave, list_saves
from suite.worldwar.screens.overlays import HelpScene
from suite.worldwar.screens.setup import SetupScene


def start(h: Harness, *, second: str = "easy", clock: int = 0, defence: str = "auto") -> GameScene:
    setup = h.push(open_setup(h.app))
    assert isinstance(setup, SetupScene)
    while setup.rows[1].kind.value != second:
        h.click(setup.rows[1].kind)
    while setup.clock.value != clock:
        h.click(setup.clock)
    while setup.defence.value != defence:
        h.click(setup.defence)
    assert setup.seed_entry is not None
    h.click(setup.seed_entry)
    h.type_text("11")
    h.click(setup.start_button)
    h.frames(2)
    scene = h.app.stack[-1]
    if isinstance(scene, PassScene):
        scene = h.app.stack[-2]
    assert isinstance(scene, GameScene)
    return scene


def own_point(g: GameScene, seat: int) -> tuple[int, int]:
    st = g.match.local.state
    for t in range(len(st.owner)):
        pos = g.map.point_in(t)
        if st.owner[t] == seat and pos is not None:
            return pos
    raise AssertionError("no clickable territory")


def test_hot_seat_hides_the_map_between_humans(artifacts: Path) -> None:
    with Harness() as h:
        g = start(h, second="human")
        assert isinstance(h.scene, PassScene)
        first = g.match.actor
        assert first is not None and g.viewer is None
        h.screenshot(artifacts / "ww_pass.png")
        h.key(pygame.K_ESCAPE)  # Esc must not reveal the map
        assert isinstance(h.scene, PassScene)
        h.key(pygame.K_RETURN)
        assert h.scene is g and g.viewer == first
        for _ in range(3):  # one deployment step of 3 armies
            h.click(own_point(g, first))
        assert g.match.actor != first
        assert isinstance(h.scene, PassScene)
        assert h.scene.name == g.match.name(g.match.actor or 0)
        h.click(h.scene.button)
        assert g.viewer == g.match.actor


def test_turn_clock_runs_out_by_r7(artifacts: Path) -> None:
    with Harness() as h:
        g = start(h, clock=60)
        while g.human_turn() is None:
            h.frames(1)
        seat = g.human_turn()
        assert seat is not None
        h.click(own_point(g, seat))  # one army placed, the other two left to the clock
        h.frames(30)
        assert 0 < g.clock_left < 60
        h.screenshot(artifacts / "ww_clock_running.png")
        left = g.match.local.state.setup_left[seat]
        g.clock_left = 0.01
        h.frames(2)
        assert any("ran out of time" in line.text for line in g.match.log)
        assert g.match.local.state.setup_left[seat] == left - 3  # the click and R7's two
        assert g.buffer == []


def test_save_from_the_menu_and_resume_from_setup() -> None:
    with Harness() as h:
        g = start(h)
        while g.human_turn() is None:
            h.frames(1)
        seat = g.human_turn() or 0
        h.click(own_point(g, seat))
        h.click(own_point(g, seat))
        h.key(pygame.K_ESCAPE)
        menu = h.scene
        assert isinstance(menu, MenuScene)
        h.click(menu.buttons[1])  # Save game
        assert h.scene is g
        saves = [p for p in list_saves() if not is_autosave(p)]
        assert len(saves) == 1
        snapshot = g.match.local.state.to_dict()
        h.key(pygame.K_ESCAPE)
        h.click(h.scene.buttons[3])  # Leave game
        assert isinstance(h.scene, ConfirmScene)
        h.key(pygame.K_RETURN)
        setup = h.scene
        assert isinstance(setup, SetupScene)
        h.click(setup.resume_button)
        load = h.scene
        assert isinstance(load, MenuScene) and load.title == "Resume a game"
        button = next(b for b in load.buttons if b.tooltip == str(saves[0]))
        h.click(button)
        resumed = h.scene
        assert isinstance(resumed, GameScene) and resumed is not g
        assert resumed.match.local.state.to_dict() == snapshot
        assert resumed.match.seats == g.match.seats


def test_broken_save_is_a_notice_not_a_crash(tmp_path: Path) -> None:
    with Harness() as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        bad = tmp_path / "bad.json"
        bad.write_text("{not json", encoding="utf-8")
        assert setup.load(bad) is None
        assert any("Cannot resume" in n for n in h.notices)
        assert h.scene is setup


def test_autosave_before_every_human_turn_resumes_equal() -> None:
    from suite.core.rng import Rng
    from suite.worldwar.rules.actions import TurnBegan
    from suite.worldwar.rules.bots import EasyBot
    from suite.worldwar.screens.match import new_autosave_path

    seats = [SeatInfo("A", 0, "human"), SeatInfo("B", 1, "easy")]
    autosave = new_autosave_path()
    session = Match({"map": "random:18:4", "cards": "royalty"}, 5, seats, autosave=autosave)
    stand_in, rng = EasyBot(), Rng(1)
    human_turns = 0
    for _ in range(2000):
        seat = session.actor
        assert seat is not None
        if seat in session.bot_seats:
            events = session.run_bot()
        else:
            action = stand_in.choose(session.view(seat), session.legal(seat), rng)
            events = session.act(seat, action)
        assert events is not None
        if any(isinstance(e, TurnBegan) and e.seat == 0 for e in events):
            human_turns += 1
            resumed = Match.load(autosave)
            assert resumed.local.state.to_dict() == session.local.state.to_dict()
            if human_turns == 3:
                break
    assert human_turns == 3


def test_human_defender_chooses_dice(artifacts: Path) -> None:
    with Harness() as h:
        g = start(h, second="hard", defence="ask")
        while g.speed.value != 0.0:
            h.click(g.speed)
        seen = False
        for _ in range(600):
            seat = g.human_turn()
            st = g.match.local.state
            if g.match.over:
                break
            if seat is None:
                h.frames(1)
                continue
            if st.phase == "defend":
                seen = True
                h.frames(2)
                h.screenshot(artifacts / "ww_defend.png")
                assert g.defend_buttons[0] in g.controls()
                before = len(g.match.replay.actions)
                h.key(pygame.K_1)
                assert g.match.replay.actions[before].action == {"kind": "defend", "dice": 1}
                break
            if st.phase in ("setup", "place"):
                h.click(own_point(g, seat))
            else:
                h.key(pygame.K_e)
        assert seen


def test_help_zoom_pan_and_resize(artifacts: Path) -> None:
    with Harness() as h:
        g = start(h)
        h.key(pygame.K_ESCAPE)
        assert isinstance(h.scene, MenuScene)
        h.screenshot(artifacts / "ww_menu.png")
        h.key(pygame.K_ESCAPE)
        assert h.scene is g
        h.key(pygame.K_F1)
        assert isinstance(h.scene, HelpScene)
        h.screenshot(artifacts / "ww_help.png")
        h.key(pygame.K_a)
        assert h.scene is g
        centre = g.map.rect.center
        h.wheel(centre, 2)
        assert g.map.zoom > 1.4
        pan = list(g.map.pan)
        h.press(centre)
        h.move((centre[0] + 80, centre[1] + 40))
        h.release((centre[0] + 80, centre[1] + 40))
        assert g.map.pan != pan
        h.key(pygame.K_0)
        assert g.map.zoom == 1.0
        h.resize((1000, 700))
        assert g.map.rect.right <= 1000 - 280 and g.map.rect.bottom == 700


DATA = Path(__file__).resolve().parent / "data"


def test_domination_maps_from_the_user_folder_and_broken_ones() -> None:
    import shutil

    from suite.worldwar.screens.setup import user_maps_dir

    folder = user_maps_dir()
    folder.mkdir(parents=True)
    shutil.copy(DATA / "archipelago.map", folder / "archipelago.map")
    shutil.copy(DATA / "broken" / "one_way.map", folder / "one_way.map")
    with Harness() as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        titles = [title for _, title in setup.maps]
        assert "Archipelago Test Map" in titles
        while not setup.map_choice.value.endswith("one_way.map"):
            h.click(setup.map_choice)
        h.frames(2)
        assert setup.preview is None and "one_way.map" in setup.preview_error
        h.click(setup.start_button)
        assert h.scene is setup and any("Cannot start" in n for n in h.notices)
        while not setup.map_choice.value.endswith("archipelago.map"):
            h.click(setup.map_choice)
        h.frames(2)
        assert setup.preview is not None and len(setup.preview.tables.ids) == 14
        h.click(setup.start_button)
        game = h.scene
        assert isinstance(game, GameScene)
        assert len(game.match.local.state.topo.ids) == 14


def test_launcher_opens_world_war() -> None:
    from suite.ui.launcher import LauncherScene

    with Harness(root=LauncherScene) as h:
        launcher = h.scene
        assert isinstance(launcher, LauncherScene)
        card = next(c for c in launcher.cards if c.info.key == "worldwar")
        assert card.available
        launcher.open_card(card)
        h.frames(2)
        assert isinstance(h.scene, SetupScene)
        h.click(h.scene.back_button)
        assert h.scene is launcher


def test_setup_seats_colours_and_names() -> None:
    with Harness() as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        for _ in range(6):
            h.click(setup.add_button)
        assert len(setup.rows) == 6 and not setup.add_button.enabled
        colours = [row.colour for row in setup.rows]
        assert len(set(colours)) == 6
        h.click(setup.rows[0].colour_button)
        assert setup.rows[0].colour not in colours[1:]
        entry = setup.rows[0].entry
        assert entry is not None
        h.click(entry)
        for _ in range(12):
            h.key(pygame.K_BACKSPACE)
        h.type_text("Zoe")
        h.key(pygame.K_RETURN)
        for row in setup.rows[4:]:
            h.click(row.remove_button)
        assert len(setup.rows) == 4
        h.click(setup.start_button)
        game = h.scene
        assert isinstance(game, GameScene)
        assert game.match.seats[0].name == "Zoe"
        assert len(game.match.seats) == 4


def test_forced_turn_in_blocks_placing_until_a_set_is_turned_in() -> None:
    from suite.worldwar.rules.actions import Place

    seats = [SeatInfo("You", 0, "human"), SeatInfo("Bot", 1, "easy")]
    session = Match({"map": "random:18:4", "cards": "increasing"}, 9, seats)
    with Harness() as h:
        g = GameScene(h.app, session, speed=3)
        h.push(g)
        st = session.local.state
        for _ in range(500):  # deployment, played straight on the session
            if st.phase != "setup":
                break
            seat = session.actor
            assert seat is not None
            if seat == 0:
                mine = next(t for t in range(len(st.owner)) if st.owner[t] == 0)
                session.act(0, Place(st.topo.ids[mine], st.step_left))
            else:
                h.frames(1)
        while g.human_turn() is None or st.phase != "place":
            h.frames(1)
        st.hands[0] = [0, 10, 20, 1, 11]  # two full sets in hand: must turn in (R5)
        pool = st.pool
        h.click(own_point(g, 0))
        assert g.buffer == [] and any("turn in" in n for n in h.notices)
        h.frames(2)
        assert g.cards.open and g.cards.best
        h.key(pygame.K_b)
        h.key(pygame.K_t)
        assert st.pool > pool and len(st.hands[0]) == 2 and not g.cards.open
        h.click(own_point(g, 0))
        assert sum(n for _, n in g.buffer) == 1


def test_replays_are_core_replays_and_can_be_watched_from_setup() -> None:
    from suite.core.match import Replay
    from suite.worldwar.screens.gameover import ReplayScene

    seats = [SeatInfo("Ann", 2, "easy"), SeatInfo("Bo", 4, "hard")]
    session = Match({"map": "random:18:4"}, 4, seats)
    while not session.over:
        assert session.run_bot() is not None
    path = session.save_replay()
    assert path is not None
    assert Replay.load(path).play().to_dict() == session.local.state.to_dict()
    with Harness() as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        h.click(setup.replays_button)
        chooser = h.scene
        assert isinstance(chooser, MenuScene) and chooser.title == "Watch a replay"
        h.click(chooser.buttons[0])
        viewer = h.scene
        assert isinstance(viewer, ReplayScene)
        assert [s.name for s in viewer.seats] == ["Ann", "Bo"]
        while viewer.speed.value != 0.0:
            h.click(viewer.speed)
        h.frames(120)
        assert viewer.step == len(session.replay.actions)
        assert viewer.match.local.state.to_dict() == session.local.state.to_dict()
        h.key(pygame.K_ESCAPE)
        assert h.scene is setup


def test_hot_seat_defender_answers_without_a_pass_screen() -> None:
    from suite.worldwar.rules.actions import Place

    seats = [SeatInfo("Ann", 0, "human"), SeatInfo("Bo", 1, "human")]
    session = Match({"map": "random:18:4", "defender": "ask"}, 3, seats)
    st = session.local.state
    while st.phase == "setup":  # deployment straight on the session: all on one territory
        seat = session.actor
        assert seat is not None
        mine = max(
            (t for t in range(len(st.owner)) if st.owner[t] == seat), key=st.armies.__getitem__
        )
        session.act(seat, Place(st.topo.ids[mine], st.step_left))
    with Harness() as h:
        g = GameScene(h.app, session)
        h.push(g)
        assert isinstance(h.scene, PassScene)
        h.key(pygame.K_RETURN)
        attacker = session.actor
        assert attacker is not None and g.viewer == attacker
        while st.phase == "place":
            h.click(own_point(g, attacker))
        pairs = st.attack_pairs(attacker)
        source, target = max(pairs, key=lambda p: st.armies[p[0]])
        for t in (source, target):
            pos = g.map.point_in(t)
            assert pos is not None
            h.click(pos)
        assert (g.selected, g.target) == (source, target)
        h.key(pygame.K_SPACE)
        assert st.phase == "defend" and session.actor != attacker
        assert h.scene is g  # no pass screen for choosing defence dice
        assert g.human_turn() == session.actor and g.defend_buttons[0] in g.controls()
        h.key(pygame.K_1)
        assert st.phase in ("attack", "occupy") and session.actor == attacker
        assert h.scene is g and g.viewer == attacker
