"""What players read (issue 22 item 8): the secret mission in full, mission wins naming
the player, capital stars on the replay and off the names, "1 army", the launcher's
"Turn clock" tag, nothing cut at 800x560 that matters, and a resumed turn keeps the
time its clock had left."""

from __future__ import annotations

from pathlib import Path

import pygame

from suite.ui.harness import Harness
from suite.ui.scale import px
from suite.ui.widgets import fit_lines
from suite.worldwar.screens import UI
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.gameover import ReplayScene
from suite.worldwar.screens.hud import goal_line, goal_rows, instructions, seat_label
from suite.worldwar.screens.match import Match, SeatInfo, saves_dir

SMALL = (800, 560)
NAMES = ["Bismarck", "Wellington", "Clausewitz", "Hannibal", "Napoleon", "Zhukov"]


def seats(kinds: list[str]) -> list[SeatInfo]:
    return [SeatInfo(NAMES[i], i, kind) for i, kind in enumerate(kinds)]


def until(h: Harness, g: GameScene, phases: tuple[str, ...]) -> None:
    """Frames until the human acts in one of `phases` (placing everything on the way)."""
    for _ in range(3000):
        seat = g.human_turn()
        if seat is not None and g.v.phase in phases:
            return
        if seat is not None and g.v.phase == "place" and not g.v.must_turn_in:
            g.place(next(t for t, o in enumerate(g.v.owner) if o == seat), 99)
        h.frames(1)
    raise AssertionError(f"never reached {phases}")


def test_the_secret_mission_is_shown_in_full_at_800x560(artifacts: Path) -> None:
    with Harness(size=SMALL) as h:
        kinds = ["human", "easy", "easy", "hard", "random", "easy"]
        match = Match({"map": "classic", "mode": "mission", "auto_place": True}, 4, seats(kinds))
        g = GameScene(h.app, match)
        h.push(g)
        h.frames(2)
        assert goal_rows(g) == 2
        r = g.players_rect
        for seat in range(6):
            g.viewer = seat  # each seat's own mission, as its player would see it
            goal = goal_line(g)
            assert goal.startswith("Mission: ")
            lines = fit_lines(goal, px(14, g.k), r.width - px(28, g.k), 2, True)
            assert " ".join(lines) == goal, f"cut: {lines}"
        # the goal's rows lie inside the players panel, above the action panel
        bottom = r.y + px(33, g.k) + g.row_h * (6 + 2)
        assert bottom <= r.bottom + 2 and r.bottom <= g.action_rect.top
        g.viewer = 0
        h.frames(2)
        h.screenshot(artifacts / "ww_mission_full_800.png")


def test_a_destroy_mission_win_names_the_player() -> None:
    match = Match({"map": "classic", "mode": "mission"}, 4, seats(["human", "easy", "easy"]))
    text = match.named("completed the secret mission: Destroy player 2")
    assert text == "completed the secret mission: Destroy Wellington"
    assert match.named("player 9 is nobody") == "player 9 is nobody"


def star_centre(view: object, g: object, t: int) -> tuple[int, int]:
    m = g.map  # type: ignore[attr-defined]
    x, y = m.label_screen(t)
    r = m.badge_radius()
    return (x + r, y - r)


def test_the_replay_draws_the_capital_stars(artifacts: Path) -> None:
    match = Match({"map": "classic", "mode": "capital"}, 6, seats(["hard", "easy", "easy"]))
    for _ in range(60):
        match.run_bot()
    with Harness(size=(1280, 800)) as h:
        replay = ReplayScene(h.app, match.replay, match.seats)
        h.push(replay)
        for _ in range(30):
            replay.advance()
        h.frames(2)
        v = replay.match.view(None)
        assert any(t >= 0 for t in v.capitals)
        for seat, t in enumerate(v.capitals):
            colour = pygame.Color(
                *replay.match.board
                and __import__("suite.ui.theme", fromlist=["x"])
                .player_colour(replay.seats[seat].colour)
                .rgb
            )
            assert h.app.screen.get_at(star_centre(v, replay, t))[:3] == tuple(colour)[:3]
        h.screenshot(artifacts / "ww_replay_capitals.png")


def test_a_capital_star_covers_no_name(artifacts: Path) -> None:
    for seed in range(4):
        with Harness(size=(1280, 800)) as h:
            match = Match(
                {"map": "classic", "mode": "capital"},
                seed,
                seats(["human", "easy", "easy", "easy"]),
            )
            g = GameScene(h.app, match)
            h.push(g)
            h.frames(2)
            m = g.map
            ox, oy = m.rect.x - round(m.pan[0]), m.rect.y - round(m.pan[1])
            r = m.badge_radius()
            for t in g.v.capitals:
                cx, cy = star_centre(g.v, g, t)
                star = pygame.Rect(cx - 1.15 * r, cy - 1.15 * r, 2.3 * r, 2.3 * r)
                for _, rect, *_ in m.names:
                    assert not star.colliderect(rect.move(ox, oy)), "a star over a name"
            if seed == 0:
                h.screenshot(artifacts / "ww_capital_stars.png")


def test_one_army_is_one_army() -> None:
    with Harness(size=SMALL) as h:
        match = Match({"map": "classic", "auto_place": True}, 3, seats(["human", "easy"]))
        g = GameScene(h.app, match)
        h.push(g)
        until(h, g, ("attack",))
        seat = g.human_turn()
        mine = [t for t, o in enumerate(g.v.owner) if o == seat]
        a, b = next((s, t) for s in mine for t in g.v.map.neighbours[s] if t in mine)
        g.selected, g.move_to, g.slider = a, b, None
        _, lines = instructions(g)
        assert any(text == "Move 1 army; this ends your turn." for text, _ in lines)


def test_the_launcher_card_shows_the_turn_clock_first() -> None:
    assert UI.tags[0] == "Turn clock"


def test_nothing_that_matters_is_cut_at_800x560(artifacts: Path) -> None:
    with Harness(size=SMALL) as h:
        kinds = ["human", "easy", "easy", "hard", "random", "easy"]
        match = Match(
            {"map": "classic", "mode": "mission", "auto_place": True, "clock": 90}, 5, seats(kinds)
        )
        g = GameScene(h.app, match, speed=3)
        h.push(g)
        until(h, g, ("attack",))
        room = g.players_rect.width - px(38 + 150, g.k)
        for seat in match.seats:
            label = seat_label(seat, px(15, g.k), room, False)
            assert seat.human or label.endswith(f"({seat.kind})"), label
        from suite.worldwar.screens.hud import instruction_lines

        texts = [text for text, _, _ in instruction_lines(g)]
        assert texts and not any(text.endswith("...") for text in texts), texts
        joined = " ".join(texts)
        assert "enemy neighbour." in joined
        h.screenshot(artifacts / "ww_texts_800_attack.png")


def test_a_resumed_turn_keeps_the_time_its_clock_had_left(tmp_path: Path) -> None:
    with Harness(size=(1280, 800)) as h:
        match = Match(
            {"map": "classic", "auto_place": True, "clock": 60}, 3, seats(["human", "easy"])
        )
        g = GameScene(h.app, match)
        h.push(g)
        until(h, g, ("place",))
        h.frames(600)  # ten seconds of thinking
        assert 49 < g.clock_left < 51
        path = saves_dir() / "clock.json"
        match.save(path)
        back = Match.load(path)
        g2 = GameScene(h.app, back)
        h.push(g2)
        h.frames(2)
        assert 48.5 < g2.clock_left < 51, g2.clock_left
