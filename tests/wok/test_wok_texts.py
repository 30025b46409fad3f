"""Issue 23 item 8: the texts players found wrong (report titles, raw phase names, the
tooltip over a new order, "a aim change", the unanimous vote's result line)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pygame

from suite.core.match import Outcome
from suite.ui.harness import Harness
from suite.ui.widgets import TOOLTIP_DELAY
from suite.wok.rules.draft import NOUNS, a_noun
from suite.wok.rules.ruleset import PHASE_NAMES
from suite.wok.screens.kit import ZButton
from suite.wok.screens.report import CANCELLED_NOUNS, cancelled_order, result_lines


def test_cancelled_orders_are_named_not_by_their_phase() -> None:
    assert cancelled_order("troop_upgrades", 1) == "Troop upgrade 1"
    assert cancelled_order("movement", 2) == "Move 2"
    assert cancelled_order("aims", 4) == "Aim change 4"
    orders = set(PHASE_NAMES) - {"entropy", "working", "growth"}  # phases without orders
    assert orders <= set(CANCELLED_NOUNS), "every phase with orders has a name"
    assert all("_" not in cancelled_order(p, 1) for p in PHASE_NAMES)


def test_articles() -> None:
    assert a_noun(NOUNS["aims"]) == "an aim change"
    assert a_noun(NOUNS["attacks"]) == "an attack order"
    assert a_noun(NOUNS["moves"]) == "a move"


def test_a_unanimous_vote_says_the_first_place_is_shared() -> None:
    names = ["Han", "Kor", "Mir", "Tal"]
    vote = Outcome((1, 0), ((1, 0), (2, 3)), "unanimous vote")
    title, reason, places = result_lines(vote, names, {0: 410, 1: 530, 2: 0, 3: 0})
    assert title == "Kor and Han share the victory"
    assert reason == "unanimous vote: 2 players share first place"
    assert places == "1st (shared by 2): Kor 530, Han 410   3rd (shared by 2): Mir 0, Tal 0"
    single = Outcome((2,), ((2,), (0,), (1,)), "last player standing")
    title, reason, places = result_lines(single, names, {2: 900, 0: 10, 1: 5})
    assert (title, reason) == ("Mir won", "last player standing")
    assert places == "1st: Mir 900   2nd: Han 10   3rd: Kor 5"


def _painted(surface: pygame.Surface) -> int:
    """Pixels that are not black."""
    black = pygame.mask.from_threshold(surface, (0, 0, 0, 255), (1, 1, 1, 255))
    return surface.get_width() * surface.get_height() - black.count()


def test_a_button_tooltip_hides_after_a_click_until_the_pointer_leaves() -> None:
    """The Add order tooltip covered the order line the click had just made."""
    clicks: list[int] = []
    with Harness((800, 560)) as h:
        button = ZButton("Add", pygame.Rect(100, 100, 120, 40), lambda: clicks.append(1))
        button.tooltip = "Add the order"

        def feed(n: int = 1) -> None:
            for event in pygame.event.get():
                button.handle_event(event)
            for _ in range(n):
                button.update(TOOLTIP_DELAY)

        h.post(pygame.MOUSEMOTION, pos=(150, 120), rel=(1, 1), buttons=(0, 0, 0))
        feed(2)
        assert button.hover.tooltip_due and not button.hushed
        h.post(pygame.MOUSEBUTTONDOWN, pos=(150, 120), button=1)
        h.post(pygame.MOUSEBUTTONUP, pos=(150, 120), button=1)
        feed(2)
        assert clicks == [1] and button.hushed  # tooltip due, but not drawn
        surface = pygame.Surface((800, 560))
        surface.fill((0, 0, 0))
        button.draw_tooltip(surface)
        assert not _painted(surface), "no tooltip after the click"
        h.post(pygame.MOUSEMOTION, pos=(400, 400), rel=(1, 1), buttons=(0, 0, 0))
        h.post(pygame.MOUSEMOTION, pos=(150, 120), rel=(1, 1), buttons=(0, 0, 0))
        feed(2)
        assert not button.hushed
        button.draw_tooltip(surface)
        assert _painted(surface), "shown again after leaving and returning"


def test_the_game_over_screen_after_a_unanimous_vote(artifacts: Path) -> None:
    from suite.wok.rules.orders import Vote
    from suite.wok.screens.game import GameScene
    from suite.wok.screens.match import SeatPlan, WokMatch
    from suite.wok.screens.overlays import MenuScene, PassScene
    from suite.wok.screens.report import GameOverScene

    from .test_wok_screen_parts import SIZES, close_reports  # noqa: TID252

    match = WokMatch.new(
        {"map": "star-islands"},
        3,
        [SeatPlan("Han"), SeatPlan("Kor"), SeatPlan("Mir")],  # hot-seat: all vote here
    )
    for seat in (1, 2):
        match.session.act(seat, Vote(True))
    with Harness(size=SIZES[0]) as h:
        scene = GameScene(h.app, match, bot_delay=1e9)
        h.push(scene)
        for _ in range(4):
            if isinstance(h.scene, PassScene):
                h.key(pygame.K_RETURN, frames=2)
            close_reports(h)
        assert h.scene is scene
        h.key(pygame.K_ESCAPE)
        assert isinstance(h.scene, MenuScene)
        h.click(next(b for b in h.scene.buttons if b.label == "Vote to end"))
        h.frames(3)
        assert isinstance(h.scene, GameOverScene)
        outcome = match.session.outcome()
        assert outcome is not None and outcome.reason == "unanimous vote"
        title, reason, places = result_lines(outcome, ["Han", "Kor", "Mir"], {})
        assert title.endswith("share the victory") and "1st (shared by 3)" in places
        for size in SIZES:
            h.resize(size)
            h.screenshot(artifacts / f"wok_game_over_vote_{size[0]}x{size[1]}.png")


def test_battle_titles_are_whole_on_a_narrow_card() -> None:
    """ "taken (13 ro..." was cut: a title wraps onto a second line instead."""
    from suite.ui.widgets import wrap_text
    from suite.wok.rules.views import Battle
    from suite.wok.screens.report import _battle_title

    from .test_wok_screen_draft import view_of  # noqa: TID252

    v = view_of(map="kaomaris", players=10)
    far = max(range(len(v.map.provinces)), key=lambda p: len(v.map.provinces[p].name))
    fight = dict(sent=30, defenders=20, patt=900.0, pdef=800.0, a_lost=3, a_injured=1)
    battle = Battle(
        attacker=0,
        defender=1,
        source=far,
        target=far,
        rounds=13,
        d_lost=20,
        d_injured=0,
        won=True,
        **fight,  # type: ignore[arg-type]
    )
    title = _battle_title(v, battle)
    assert title.endswith(": taken (13 rounds)")
    lines = wrap_text(title, 13, 300)
    assert len(lines) <= 2 and " ".join(lines) == title
    empty = msgspec.structs.replace(battle, rounds=0)
    assert _battle_title(v, empty).endswith("taken (unopposed)")
