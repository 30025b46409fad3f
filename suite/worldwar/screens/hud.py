"""The map screen's panels: top bar with the clock, players, the step's instructions and
odds, the log and the continents' bonus legend. Functions of the `GameScene` they draw
for; they only read the scene and its view."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from suite.ui import theme
from suite.ui.theme import Colour
from suite.ui.widgets import draw_panel, draw_text, fit_text
from suite.worldwar.rules.odds import odds_for

if TYPE_CHECKING:
    from suite.worldwar.screens.game import GameScene

TOP = 58
PHASE_TITLES = {
    "setup": "Deploy",
    "place": "Reinforce",
    "cards": "Cards",
    "attack": "Attack",
    "defend": "Defend",
    "occupy": "Occupy",
    "fortify": "Free move",
    "over": "Game over",
}


def legend_rows(scene: GameScene) -> list[tuple[int, pygame.Rect]]:
    """(continent, row rect) of the bonus legend, in the map corner with the least land
    under it (clicks go through it to the map)."""
    n = len(scene.v.map.continents)
    box = scene.map.quiet_corner((210, 22 * n + 38))
    return [(c, pygame.Rect(box.x, box.y + 30 + 22 * c, box.width, 22)) for c in range(n)]


def draw_legend(scene: GameScene, surface: pygame.Surface) -> None:
    v = scene.v
    topo = v.map
    rows = legend_rows(scene)
    if not rows:
        return
    box = rows[0][1].unionall([r for _, r in rows]).inflate(0, 0)
    box.y -= 30
    box.height += 38
    draw_panel(surface, box, colour=(12, 16, 25), alpha=200, radius=12)
    draw_text(
        surface,
        "Continents",
        (box.x + 12, box.y + 8),
        size=14,
        bold=True,
        colour=theme.TEXT_MUTED,
    )
    draw_text(
        surface,
        "bonus",
        (box.right - 12, box.y + 9),
        size=12,
        colour=theme.TEXT_MUTED,
        anchor="topright",
    )
    for c, rect in rows:
        hot = rect.collidepoint(scene.mouse)
        if hot:
            pygame.draw.rect(surface, theme.PANEL_LIGHT, rect.inflate(-4, 0), border_radius=6)
        pygame.draw.rect(
            surface,
            scene.map.continent_colours[c],
            pygame.Rect(rect.x + 12, rect.y + 6, 12, 12),
            border_radius=3,
        )
        name = fit_text(topo.continent_names[c], 14, 130)
        draw_text(
            surface,
            name,
            (rect.x + 32, rect.centery),
            size=14,
            anchor="midleft",
            colour=theme.HOVER if hot else theme.TEXT,
        )
        draw_text(
            surface,
            f"+{topo.continent_bonus[c]}",
            (rect.right - 12, rect.centery),
            size=14,
            bold=True,
            colour=theme.ACCENT,
            anchor="midright",
        )
        owners = {v.owner[t] for t in topo.continent_members[c]}
        if len(owners) == 1:
            holder = owners.pop()
            pygame.draw.circle(surface, scene.colour(holder), (rect.right - 44, rect.centery), 5)


def draw_top(scene: GameScene, surface: pygame.Surface) -> None:
    """Turn, the acting player and the phase on the left; the clock (if any) just left of
    the top buttons; texts that do not fit are cut, never drawn over the buttons."""
    v = scene.v
    w = surface.get_width()
    bar = pygame.Rect(0, 0, w, TOP)
    surface.fill(theme.PANEL, bar)
    pygame.draw.line(surface, theme.PANEL_BORDER, (0, TOP - 1), (w, TOP - 1))
    limit = scene.cards_button.rect.left - 12
    if v.rules.clock and not scene.match.over:
        clock = pygame.Rect(0, 8, 120, TOP - 16)
        clock.right = limit
        draw_clock(scene, surface, clock)
        limit = clock.left - 12
    seat = v.actor()
    parts: list[tuple[str, int, bool, Colour, int | None]] = [
        (f"Turn {v.turn}" if v.turn else "Deployment", 20, True, theme.TEXT, None)
    ]
    if seat is not None:
        parts.append((scene.match.name(seat), 20, True, theme.TEXT, seat))
        parts.append((PHASE_TITLES.get(v.phase, v.phase), 18, False, theme.ACCENT, None))
    x = 18
    for text, size, bold, colour, dot in parts:
        if dot is not None:
            if x + 24 > limit:
                return
            pygame.draw.circle(surface, scene.colour(dot), (x + 10, TOP // 2), 10)
            pygame.draw.circle(surface, theme.SHADOW, (x + 10, TOP // 2), 10, 2)
            x += 28
        shown = fit_text(text, size, limit - x, bold)
        if shown == "...":
            return
        x = (
            draw_text(
                surface,
                shown,
                (x, TOP // 2),
                size=size,
                bold=bold,
                colour=colour,
                anchor="midleft",
            ).right
            + 16
        )


def draw_clock(scene: GameScene, surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The turn clock in `rect`: time left for the human to act (red under 10 s)."""
    left = max(0.0, scene.clock_left)
    urgent = left < 10 and scene.human_turn() is not None
    colour = theme.DANGER if urgent else theme.TEXT
    draw_panel(surface, rect, colour=(12, 16, 25), border=colour, radius=10, alpha=255)
    frac = left / max(1, scene.v.rules.clock)
    bar = pygame.Rect(rect.x + 10, rect.bottom - 9, round((rect.width - 20) * frac), 4)
    pygame.draw.rect(surface, colour, bar, border_radius=2)
    running = scene.human_turn() is not None
    text = f"{int(left) // 60}:{int(left) % 60:02d}" if running else "bot"
    draw_text(
        surface,
        text,
        (rect.centerx, rect.centery - 3),
        size=22,
        bold=True,
        colour=colour,
        anchor="center",
    )


def draw_players(scene: GameScene, surface: pygame.Surface) -> None:
    v = scene.v
    r = scene.players_rect
    draw_panel(surface, r, radius=12)
    draw_text(surface, "Players", (r.x + 14, r.y + 9), size=15, bold=True, colour=theme.TEXT_MUTED)
    draw_text(
        surface,
        "land  armies  cards",
        (r.right - 14, r.y + 9),
        size=13,
        colour=theme.TEXT_MUTED,
        anchor="topright",
    )
    armies = [0] * v.players
    for t, o in enumerate(v.owner):
        armies[o] += v.armies[t]
    for i, seat in enumerate(scene.match.seats):
        row = pygame.Rect(r.x + 6, r.y + 33 + scene.row_h * i, r.width - 12, scene.row_h - 2)
        cy = row.centery
        if i == v.actor():
            pygame.draw.rect(surface, theme.PANEL_LIGHT, row, border_radius=8)
            pygame.draw.rect(surface, theme.ACCENT, row, 1, border_radius=8)
        alive = v.alive[i]
        pygame.draw.circle(surface, scene.colour(i), (r.x + 22, cy), 8)
        name = seat.name + ("" if seat.human else f" ({seat.kind} bot)")
        draw_text(
            surface,
            name,
            (r.x + 38, cy),
            size=15,
            anchor="midleft",
            colour=theme.TEXT if alive else theme.DISABLED,
            bold=i == v.actor(),
        )
        stats = (
            f"{v.territory_counts[i]:>3}   {armies[i]:>4}   {v.hand_sizes[i]:>2}"
            if alive
            else "out"
        )
        draw_text(
            surface,
            stats,
            (r.right - 16, cy),
            size=14,
            anchor="midright",
            colour=theme.TEXT_MUTED,
        )


def draw_action(scene: GameScene, surface: pygame.Surface) -> None:
    r = scene.action_rect
    draw_panel(surface, r, radius=12)
    title, lines = instructions(scene)
    draw_text(surface, title, (r.x + 14, r.y + 12), size=19, bold=True)
    y = r.y + 44
    for line, colour in lines:
        draw_text(surface, line, (r.x + 14, y), size=15, colour=colour)
        y += 22


def instructions(scene: GameScene) -> tuple[str, list[tuple[str, Colour]]]:
    v = scene.v
    muted, text, accent = theme.TEXT_MUTED, theme.TEXT, theme.ACCENT
    seat = scene.human_turn()
    actor = v.actor()
    if scene.match.over:
        return "Game over", [("The last army has fallen.", muted)]
    if seat is None:
        who = scene.match.name(actor) if actor is not None else ""
        return f"{who} is playing", [
            ("Watch the map and the log.", muted),
            ("Set the bots' pace at the top.", muted),
        ]
    names = v.map.names
    phase = v.phase
    if phase in ("setup", "place"):
        left = scene.to_place() - sum(n for _, n in scene.buffer)
        if scene.must_turn_in(seat):
            return "Turn in cards", [
                (f"You hold {len(v.hand)} cards: turn in a set", accent),
                ("before you place your armies.", muted),
            ]
        head = "Deploy armies" if phase == "setup" else "Reinforce"
        lines = [
            (f"{left} {'army' if left == 1 else 'armies'} left to place", accent),
            ("Click: +1   Shift+click: +5", text),
            ("Right click or U takes one back", muted),
        ]
        if phase == "setup":
            lines.append((f"{v.setup_left[seat]} to deploy in all", muted))
        return head, lines
    if phase == "cards":
        return "Turn in cards", [
            ("You took a player's cards.", text),
            ("Turn in a set (or keep them).", muted),
        ]
    if phase == "defend" and v.attack is not None:
        a = v.attack
        choice = "1 die" if a.defend_max == 1 else f"1 to {a.defend_max} dice"
        return "Defend!", [
            (f"{scene.match.name(v.current)} attacks {names[a.target]}", text),
            (f"from {names[a.source]} with {a.dice} dice.", text),
            (f"Choose your dice ({choice}).", muted),
        ]
    if phase == "occupy" and v.occupy is not None:
        o = v.occupy
        value = scene.slider.value if scene.slider else o.min
        return "Move in", [
            (f"{names[o.target]} is yours!", theme.SUCCESS),
            (f"Move {value} from {names[o.source]} ({o.min} to {o.max}).", text),
        ]
    if scene.move_to is not None and scene.selected is not None:
        value = scene.slider.value if scene.slider else 1
        return "Free move", [
            (f"{names[scene.selected]} > {names[scene.move_to]}", text),
            (f"Move {value} armies; this ends your turn.", muted),
        ]
    if scene.target is not None and scene.selected is not None:
        return odds_lines(scene)
    if scene.selected is not None:
        return "Attack", [
            (f"From {names[scene.selected]} ({v.armies[scene.selected]})", text),
            ("Click an enemy neighbour to attack.", muted),
            ("Free move (F) ends the attacks.", muted),
        ]
    if phase == "fortify":
        return "Free move", [
            ("Pick two neighbouring territories", muted),
            ("of yours, or end the turn.", muted),
        ]
    return "Attack", [
        ("Click one of your territories with", muted),
        (f"{v.rules.stay_behind + 1}+ armies, then an enemy neighbour.", muted),
        ("Then: free move (F) or end turn (E).", muted),
    ]


def odds_lines(scene: GameScene) -> tuple[str, list[tuple[str, Colour]]]:
    v = scene.v
    assert scene.selected is not None and scene.target is not None
    names = v.map.names
    a, d = v.armies[scene.selected], v.armies[scene.target]
    odds = odds_for(v.rules.dice()).battle(a, d)
    chance = odds.win * 100
    colour = theme.SUCCESS if chance >= 60 else theme.ACCENT if chance >= 35 else theme.DANGER
    return (
        f"{names[scene.selected]} > {names[scene.target]}",
        [
            (f"{a} armies against {d}", theme.TEXT),
            ("", theme.TEXT),
            ("Dice:", theme.TEXT_MUTED),
            ("", theme.TEXT),
            (f"To the end: {'' if odds.exact else 'about '}{chance:.1f}% to conquer", colour),
            (
                f"Expected losses: you {odds.expected_attacker_loss:.1f}, "
                f"them {odds.expected_defender_loss:.1f}",
                theme.TEXT_MUTED,
            ),
        ],
    )


def draw_log(scene: GameScene, surface: pygame.Surface) -> None:
    r = scene.log_rect
    draw_panel(surface, r, radius=12)
    draw_text(surface, "Log", (r.x + 14, r.y + 9), size=15, bold=True, colour=theme.TEXT_MUTED)
    rows = max(0, (r.height - 40) // 20)
    lines = scene.match.log[-rows:] if rows else []
    y = r.y + 34
    for line in lines:
        if line.seat is not None:
            pygame.draw.circle(surface, scene.colour(line.seat), (r.x + 18, y + 9), 4)
        text = fit_text(line.text, 13, r.width - 40)
        draw_text(surface, text, (r.x + 28, y), size=13, colour=theme.TEXT)
        y += 20
