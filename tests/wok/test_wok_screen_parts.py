"""WoK screen parts: screenshots of every panel, the report and charts at two sizes, hot-seat
privacy, Duel grouping with NAPs, save/resume and autosave, bad saves.

Mid-game positions are reached by letting the general bot's orders stand in for the human
(sent through the session, as the screen would); everything checked on screen is then
driven by posted events.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec
import pygame
import pytest

from suite.core.bots import make_bot
from suite.core.match import game_spec
from suite.core.rng import Rng
from suite.core.store import SaveError
from suite.ui.harness import Harness
from suite.wok.rules.orders import Bomb, OrderSet, SetAim, SubmitOrders, Trade
from suite.wok.rules.views import WokView
from suite.wok.screens import UI, open_setup
from suite.wok.screens.game import GameScene
from suite.wok.screens.kit import Stepper
from suite.wok.screens.match import SeatPlan, WokMatch, autosave_path, saves_dir
from suite.wok.screens.overlays import HelpScene, MenuScene, PassScene
from suite.wok.screens.report import PAGES, GameOverScene, ReportScene
from suite.wok.screens.setup import SetupScene
from suite.wok.screens.timer import TimedConfirm

SIZES = ((800, 560), (1920, 1080))


Tweak = Callable[[WokView, OrderSet], OrderSet]


def play_turns(match: WokMatch, turns: int, tweak: Tweak | None = None) -> None:
    """Let the general bot enter the humans' orders for `turns` turns (test set-up only);
    `tweak(view, orders)` may change each colour's orders before they are sent."""
    bot = make_bot(game_spec("wok"), "general")
    rng = Rng(9)
    session = match.session
    for _ in range(turns):
        start = match.view(match.humans[0]).turn
        for _ in range(100):
            if session.outcome() is not None or match.view(match.humans[0]).turn != start:
                break
            for seat in match.humans:
                if seat in session.awaiting():
                    view = match.view(seat)
                    action = bot.choose(view, session.legal(seat), rng)
                    if tweak is not None and isinstance(action, SubmitOrders):
                        sets = tuple(tweak(view, os) for os in action.sets)
                        action = msgspec.structs.replace(action, sets=sets)
                    session.act(seat, action)
            session.run_bot()
        session.poll()


def home_on_missiles(view: WokView, orders: OrderSet) -> OrderSet:
    """The colour's workers at home make missiles this turn."""
    home = view.colours[0].homes[0]
    aims = (*(a for a in orders.aims if a.province != home), SetAim(home, "MIS"))
    return msgspec.structs.replace(orders, aims=aims)


def bomb_someone(view: WokView, orders: OrderSet) -> OrderSet:
    """Half the missiles of the first province that has some go at another player."""
    for p in view.provinces:
        if p.owner == orders.colour and p.figures is not None and p.figures.mis:
            mp = view.map.provinces[p.id]
            for t in (*mp.neighbours, *mp.far):
                if view.provinces[t].owner not in (-1, orders.colour):
                    bomb = Bomb(p.id, t, max(1, p.figures.mis // 2))
                    return msgspec.structs.replace(orders, bombs=(bomb,))
    return orders


def choose(h: Harness, stepper: Stepper, value: str) -> None:
    """Click the stepper's right arrow until it shows `value` (fails if it never does)."""
    for _ in range(len(stepper.choices)):
        if stepper.value == value:
            return
        h.click(stepper.right)
    assert stepper.value == value, f"{value!r} is not among {stepper.choices}"


def close_reports(h: Harness) -> None:
    for _ in range(4):
        if isinstance(h.scene, ReportScene):
            h.key(pygame.K_RETURN, frames=2)
    assert not isinstance(h.scene, ReportScene)


def trial_against_a_robot(h: Harness, ruleset: str, seed: int) -> GameScene:
    """Han (here) against a robot on Trial under `ruleset`, the turn's reports closed."""
    match = WokMatch.new(
        {"ruleset": ruleset, "map": "trial"}, seed, [SeatPlan("Han"), SeatPlan("Kor", "robot")]
    )
    scene = GameScene(h.app, match, bot_delay=1e9)
    h.push(scene)
    close_reports(h)
    return scene


def enter_orders(h: Harness, scene: GameScene, phase: str, *, add: bool) -> None:
    """In `phase`'s panel: click a source (the one with most of what it sends) and a target on the
    map, press M; Enter adds the order when `add` (a second pass picks another target)."""
    view = scene.view
    planner = scene.form.planner
    assert planner is not None
    sources = planner.sources(0, phase)  # type: ignore[arg-type]
    if not sources:
        return
    unit = {"bombs": "mis", "spies": "spy"}.get(phase, "arm")
    source = max(sources, key=lambda p: (getattr(view.provinces[p].figures, unit, 0), p))
    h.click(scene.mapview.centre(source))
    if phase in ("bombs", "attacks", "moves", "spies"):
        targets = planner.targets(0, phase, source)  # type: ignore[arg-type]
        if targets:
            h.click(scene.mapview.centre(targets[-1 if add else 0]))
    h.key(pygame.K_m)
    if add:
        h.key(pygame.K_RETURN)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_screenshots_of_every_panel_the_report_and_charts(
    size: tuple[int, int], artifacts: Path
) -> None:
    match = WokMatch.new(
        {"map": "star-islands"},
        11,
        [SeatPlan("Han"), *(SeatPlan(n, "general") for n in ("Kor", "Mir"))],
    )
    play_turns(match, 2, home_on_missiles)
    tag = f"{size[0]}x{size[1]}"
    with Harness(size=size, root=open_setup) as h:  # turn 3: every panel with orders in it
        h.screenshot(artifacts / f"wok_setup_{tag}.png")
        scene = GameScene(h.app, match, bot_delay=1e9)
        h.push(scene)
        close_reports(h)
        own = [p.id for p in scene.view.provinces if p.owner == 0]
        assert own and any(scene.view.provinces[p].figures.mis for p in own)  # type: ignore[union-attr]
        for i, phase in enumerate(scene.form.phases):
            h.key(pygame.K_1 + i)
            assert scene.form.phase == phase
            enter_orders(h, scene, phase, add=True)
            enter_orders(h, scene, phase, add=False)
            h.move(scene.mapview.centre(own[0]))
            h.screenshot(artifacts / f"wok_panel_{i + 1}_{phase}_{tag}.png")
        assert scene.form.draft.of(0, "bombs") and scene.form.draft.of(0, "attacks")
        h.key(pygame.K_p)
        h.screenshot(artifacts / f"wok_map_provinces_{tag}.png")
    play_turns(match, 1, bomb_someone)  # turn 3's report: battles, bombing, spies, a RIP
    report = match.view(0).reports[0]
    assert report.battles and report.bombings and report.spying and report.cancelled
    with Harness(size=size) as h:
        scene = GameScene(h.app, match, bot_delay=1e9)
        h.push(scene)
        assert isinstance(h.scene, ReportScene)
        assert PAGES[h.scene.page] == "Battles"  # a report opens on its first news
        for i, page in enumerate(PAGES):
            h.click(h.scene.tabs[i])
            assert PAGES[h.scene.page] == page
            h.screenshot(artifacts / f"wok_report_{i + 1}_{page.split()[0].lower()}_{tag}.png")
        close_reports(h)
        h.key(pygame.K_F1)
        assert isinstance(h.scene, HelpScene)
        h.screenshot(artifacts / f"wok_help_{tag}.png")


def test_the_card_names_only_rule_sets_that_exist() -> None:
    from suite.wok.rules.config import known_rulesets
    from suite.wok.rules.ruleset import load_ruleset

    titles = [load_ruleset(n).title for n in known_rulesets()]
    assert all(t in UI.tooltip for t in titles)
    for missing in ("Intermediate", "WoK IV"):
        if not any(missing in t for t in titles):
            assert missing not in UI.tooltip and missing not in game_spec("wok").blurb


def test_hot_seat_passes_the_screen_and_hides_the_others(artifacts: Path) -> None:
    match = WokMatch.new({"map": "trial"}, 3, [SeatPlan("Han"), SeatPlan("Kor")])
    with Harness(size=(1280, 800)) as h:
        scene = GameScene(h.app, match, bot_delay=0.0)
        h.push(scene)
        assert isinstance(h.scene, PassScene) and h.scene.name == "Han"  # even the first
        h.key(pygame.K_RETURN, frames=2)
        assert scene.seat == 0
        close_reports(h)
        h.key(pygame.K_5)
        h.click(scene.mapview.centre(scene.view.colours[0].homes[0]))
        h.key(pygame.K_RETURN)
        h.key(pygame.K_r, frames=2)
        assert isinstance(h.scene, PassScene) and h.scene.name == "Kor"
        assert not h.scene.transparent and scene.seat is None
        h.key(pygame.K_ESCAPE)  # Esc does not reveal the map
        assert isinstance(h.scene, PassScene)
        h.screenshot(artifacts / "wok_pass.png")
        for size in SIZES:
            h.resize(size)
            h.screenshot(artifacts / f"wok_pass_{size[0]}x{size[1]}.png")
        h.resize((1280, 800))
        h.key(pygame.K_RETURN, frames=2)
        assert scene.seat == 1
        assert isinstance(h.scene, ReportScene) and h.scene.view.seat == 1  # Kor's turn-0 report
        close_reports(h)
        assert scene.view.seat == 1 and scene.view.orders == ()
        assert scene.form.draft.total() == 0  # Han's draft is not shown to Kor
        h.key(pygame.K_r, frames=3)
        # the turn ran: the last to be ready sees their report, then passes on
        assert scene.view.turn == 2
        close_reports(h)
        assert scene.seat == 1


def test_duel_groups_colours_under_players_with_naps(artifacts: Path) -> None:
    match = WokMatch.new({"variant": "duel"}, 5, [SeatPlan("Han"), SeatPlan("Kor", "general")])
    with Harness(size=(1280, 800)) as h:
        scene = GameScene(h.app, match, bot_delay=0.0)
        h.push(scene)
        close_reports(h)
        assert len(scene.form.colour_buttons) == 3
        assert scene._nap_text(0).endswith("5 turns left")
        h.key(pygame.K_TAB)
        assert scene.form.colour == scene.view.colours[1].colour
        h.screenshot(artifacts / "wok_duel.png")
        for size in SIZES:
            h.resize(size)
            h.screenshot(artifacts / f"wok_duel_{size[0]}x{size[1]}.png")
        h.key(pygame.K_F1)
        h.screenshot(artifacts / "wok_duel_help.png")


def test_save_resume_and_autosave(tmp_path: Path) -> None:
    match = WokMatch.new(
        {"map": "trial"}, 8, [SeatPlan("Han"), SeatPlan("Kor", "robot")], autosave=autosave_path()
    )
    with Harness(size=(1280, 800)) as h:
        scene = GameScene(h.app, match, bot_delay=0.0)
        h.push(scene)
        close_reports(h)
        h.key(pygame.K_r, frames=3)
        close_reports(h)
        assert autosave_path().is_file()  # written when the turn ran
        path = scene.save_game()
        assert path is not None and path.parent == saves_dir()
    again = WokMatch.load(path)
    assert again.session.replay == match.session.replay
    assert again.history == match.history
    assert again.view(0) == match.view(0)
    broken = tmp_path / "broken.json"
    broken.write_bytes(b'{"schema": 1, "kind": "wok-save", "data": {"replay": 5}}')
    with pytest.raises(SaveError):
        WokMatch.load(broken)
    with Harness(size=(1280, 800)) as h:
        setup = SetupScene(h.app)
        h.push(setup)
        setup.load(broken)
        assert h.scene is setup and any("Cannot resume" in n for n in h.notices)


def test_setup_starts_a_duel_and_a_generated_map(artifacts: Path) -> None:
    with Harness(size=(800, 560), root=open_setup) as h:
        setup = h.scene
        assert isinstance(setup, SetupScene)
        choose(h, setup.variant, "duel")
        assert setup.map.value == "kaomaris" and setup.players.choices == ["2"]
        assert "trial" not in setup.map.choices  # 10 colours do not fit
        h.screenshot(artifacts / "wok_setup_duel_800x560.png")
        h.click(setup.start_button)
        game = h.app.stack[1]
        assert isinstance(game, GameScene)
        assert len(game.view.colours) == 3 and game.view.variant.robots == 4
        assert setup.preview is not None  # the preview showed this very map and its starts
        assert setup.preview.owners == tuple(p.owner for p in game.view.provinces)
        h.app.pop()
        for _ in range(4):  # the report, the offer of the guided turn, the game
            if isinstance(h.scene, ReportScene | GameScene | TimedConfirm):
                h.app.pop()
        assert h.scene is setup
        choose(h, setup.variant, "skirmish")
        choose(h, setup.map, "generated")
        choose(h, setup.provinces, "30")
        h.click(setup.start_button)
        game = h.app.stack[1]
        assert isinstance(game, GameScene)
        assert len(game.view.map.provinces) == 30


def test_intermediate_tabs_follow_its_phases_and_take_troop_upgrades(artifacts: Path) -> None:
    with Harness(size=(800, 560)) as h:
        scene = trial_against_a_robot(h, "intermediate", 6)
        phases = scene.form.phases
        assert phases[0] == "upgrades" and "troops" in phases
        h.key(pygame.K_1 + phases.index("troops"))
        assert scene.form.phase == "troops"
        home = scene.view.colours[0].homes[0]
        h.click(scene.mapview.centre(home))
        assert scene.form.kind.value == "ARM>PIK"
        fig = scene.view.provinces[home].figures
        assert fig is not None and scene.form.amount == fig.arm  # the most there is
        h.click(next(b for b in scene.form.steps if b.label == "-10"))
        assert any("WOOD" in text for text, _ in scene.form.message)
        h.screenshot(artifacts / "wok_intermediate_troops_800x560.png")
        h.key(pygame.K_RETURN)
        h.key(pygame.K_r)
        sent = [s for s in scene.match.session.replay.actions if s.seat == 0][-1].action
        assert list(sent["sets"][0]["troops"]) == [
            {"province": home, "source": "ARM", "target": "PIK", "amount": fig.arm - 10}
        ]


def test_the_launcher_card_opens_the_setup() -> None:
    from suite.ui.game_cards import load_ui

    ui, problem = load_ui(game_spec("wok"))
    assert ui is UI and problem is None
    with Harness(size=(800, 560), root=ui.open_setup) as h:
        assert isinstance(h.scene, SetupScene)
        h.key(pygame.K_ESCAPE)
        assert not h.running  # Esc at the root leaves


@pytest.mark.parametrize("seed", [1, 2])
def test_random_input_never_breaks_the_game_screen(seed: int) -> None:
    """Clicks anywhere and any of the game's keys, in any order: no traceback, and every
    order set the screen sends is one the engine accepts."""
    import random

    rnd = random.Random(seed)
    keys = [pygame.K_1 + i for i in range(8)] + [
        pygame.K_RETURN,
        pygame.K_m,
        pygame.K_UP,
        pygame.K_DOWN,
        pygame.K_r,
        pygame.K_u,
        pygame.K_TAB,
        pygame.K_p,
        pygame.K_l,
        pygame.K_n,
        pygame.K_0,
    ]
    match = WokMatch.new({"variant": "duel"}, seed, [SeatPlan("Han"), SeatPlan("Kor", "robot")])
    with Harness(size=(800, 560)) as h:
        scene = GameScene(h.app, match, bot_delay=0.0)
        h.push(scene)
        for _ in range(300):
            if not h.running or isinstance(h.scene, GameOverScene):
                break
            if not isinstance(h.scene, GameScene):
                h.key(pygame.K_ESCAPE)  # close reports, menus, help
                continue
            roll = rnd.random()
            if roll < 0.5:
                h.click((rnd.randrange(800), rnd.randrange(560)), button=rnd.choice((1, 1, 1, 3)))
            elif roll < 0.95:
                h.key(rnd.choice(keys))
            else:
                h.wheel((rnd.randrange(500), rnd.randrange(100, 560)), rnd.choice((-1, 1)))
        sent = [s for s in match.session.replay.actions if s.seat == 0]
        assert sent, "the random player never sent anything"
        assert match.view(0).turn > 1, "no turn ran"
        match.session.state.check()


def test_menu_declares_an_ally_and_votes(artifacts: Path) -> None:
    seats = [SeatPlan("Han"), *(SeatPlan(n, "robot") for n in ("Kor", "Mir", "Tal", "Vey", "Sol"))]
    match = WokMatch.new({"variant": "standard", "map": "kaomaris"}, 3, seats)
    with Harness(size=(800, 560)) as h:
        scene = GameScene(h.app, match, bot_delay=1e9)
        h.push(scene)
        close_reports(h)
        assert scene.view.variant.alliances
        h.key(pygame.K_ESCAPE)
        menu = h.scene
        assert isinstance(menu, MenuScene)
        h.screenshot(artifacts / "wok_menu_800x560.png")
        h.click(next(b for b in menu.buttons if b.label == "Alliance..."))
        allies = h.scene
        assert isinstance(allies, MenuScene)
        h.click(next(b for b in allies.buttons if b.label == "Kor"))
        assert scene.view.colours[0].ally == 1
        assert match.session.replay.actions[-1].action == {
            "kind": "ally",
            "colour": 0,
            "partner": 1,
        }
        h.key(pygame.K_ESCAPE)
        h.click(next(b for b in h.scene.buttons if b.label == "Vote to end"))
        assert 0 in scene.view.votes and scene.view.outcome is None


def test_trinity_groups_two_colours_per_player_without_naps() -> None:
    seats = [SeatPlan("Han"), SeatPlan("Kor", "robot"), SeatPlan("Mir", "robot")]
    match = WokMatch.new({"variant": "trinity"}, 5, seats)
    with Harness(size=(800, 560)) as h:
        scene = GameScene(h.app, match, bot_delay=0.0)
        h.push(scene)
        close_reports(h)
        assert len(scene.form.colour_buttons) == 2
        assert [len(g.colours) for g in scene.view.variant.groups] == [2, 2, 2]
        assert all(scene._nap_text(c) == "" for c in range(len(scene.view.players)))
        assert scene.current().nap is None


def test_wok_iv_trades_tech_points_and_runs_covert_operations(artifacts: Path) -> None:
    match = WokMatch.new(
        {"ruleset": "wok4", "map": "trial"}, 4, [SeatPlan("Han"), SeatPlan("Kor", "robot")]
    )
    with Harness(size=(800, 560)) as h:
        scene = GameScene(h.app, match, bot_delay=1e9)
        h.push(scene)
        close_reports(h)
        phases = scene.form.phases
        assert "trades" in phases and "spies" in phases and "upgrades" not in phases
        h.key(pygame.K_1 + phases.index("trades"))
        offers = scene.form.kind.choices
        assert offers == [str(o.points) for o in scene.view.rules.trades.offers]  # type: ignore[union-attr]
        h.click(scene.form.kind.right)
        assert any("every province" in text for text, _ in scene.form.message)
        h.key(pygame.K_RETURN)
        assert scene.form.draft.of(0, "trades") == [Trade(int(offers[1]))]
        for size in SIZES:
            h.resize(size)
            h.screenshot(artifacts / f"wok_iv_trades_{size[0]}x{size[1]}.png")
        h.resize((800, 560))
        h.key(pygame.K_1 + phases.index("spies"))
        home = scene.view.colours[0].homes[0]
        ops = scene.form.kind.choices
        far_op = next(op for op in ops if not scene.view.rules.covert.ops[op].far)  # type: ignore[union-attr]
        h.click(scene.mapview.centre(home))
        far = next(
            p.id
            for p in scene.view.provinces
            if p.owner == 1 and p.id not in scene.view.map.provinces[home].neighbours
        )
        h.click(scene.mapview.centre(far))
        for _ in range(ops.index(far_op)):
            h.click(scene.form.kind.right)
        assert not scene.form.can_add()  # sabotage needs a neighbour
        assert any("next to" in text for text, _ in scene.form.message)
        h.key(pygame.K_r)
        sent = [s for s in match.session.replay.actions if s.seat == 0][-1].action
        assert list(sent["sets"][0]["trades"]) == [{"points": int(offers[1])}]


def buy_first_trade(view: WokView, orders: OrderSet) -> OrderSet:
    """The cheapest tech trade, once the colour has the points."""
    assert view.rules.trades is not None
    offer = view.rules.trades.offers[0]
    me = next(c for c in view.colours if c.colour == orders.colour)
    if me.tech < offer.points:
        return orders
    return msgspec.structs.replace(orders, trades=(Trade(offer.points),))


def test_wok_iv_report_shows_the_tech_trades(artifacts: Path) -> None:
    match = WokMatch.new(
        {"ruleset": "wok4", "map": "trial"}, 4, [SeatPlan("Han"), SeatPlan("Kor", "general")]
    )
    for _ in range(20):
        play_turns(match, 1, buy_first_trade)
        if match.view(0).reports[0].trades or match.session.outcome() is not None:
            break
    assert match.view(0).reports[0].trades
    with Harness(size=(800, 560)) as h:
        h.push(GameScene(h.app, match, bot_delay=1e9))
        report = h.scene
        assert isinstance(report, ReportScene)
        h.click(report.tabs[PAGES.index("Bombs & spies")])
        lines = [text for text, _, _ in report._text(report.view.reports[0])]
        assert "Tech trades" in lines
        h.screenshot(artifacts / "wok_iv_report_trades_800x560.png")
