"""The map screen's panels: top bar with the clock, players, the step's instructions and
odds, the log and the continents' bonus legend. Functions of the `GameScene` they draw
for; they only read the scene and its view. Every size is multiplied by the scene's UI
factor `scene.k` (`scale.ui_factor`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from suite.ui import theme
from suite.ui.scale import px
from suite.ui.theme import Colour
from suite.ui.widgets import draw_panel, draw_text, fit_lines, fit_text, wrap_text
from suite.worldwar.rules.odds import odds_for

if TYPE_CHECKING:
    from suite.worldwar.screens.game import GameScene
    from suite.worldwar.screens.match import SeatInfo

TOP = 58
"""Height of the top bar at UI factor 1."""
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
LEGEND_ROW = 22
LEGEND_HEAD = 30


def _legend_size(scene: GameScene, rows: int) -> tuple[int, int]:
    k = scene.k
    return (px(210, k), px(LEGEND_HEAD + 8 + LEGEND_ROW * rows, k))


def legend_fits(scene: GameScene) -> bool:
    """True when the open legend has a spot over the map that covers no territory, name
    or badge (else it opens folded: `GameScene.legend_collapsed`)."""
    size = _legend_size(scene, len(scene.v.map.continents))
    return scene.map.quiet_spot(size, avoid=scene.acted_on())[1] == 0


def army_count(n: int) -> str:
    """ "1 army", "2 armies"."""
    return f"{n} {'army' if n == 1 else 'armies'}"


def legend_box(scene: GameScene) -> pygame.Rect:
    """The continents legend: over the map where it covers no territory (nearest a
    corner), else where it covers the least, never on the territories being acted on
    while another spot is clear of them; only its title row when collapsed."""
    rows = 0 if scene.legend_collapsed else len(scene.v.map.continents)
    return scene.map.quiet_spot(_legend_size(scene, rows), avoid=scene.acted_on())[0]


def legend_header(scene: GameScene) -> pygame.Rect:
    """The legend's title row (a click there collapses or opens the legend)."""
    box = legend_box(scene)
    return pygame.Rect(box.x, box.y, box.width, px(LEGEND_HEAD, scene.k))


def legend_rows(scene: GameScene) -> list[tuple[int, pygame.Rect]]:
    """(continent, row rect) of the open legend (none when collapsed); clicks on rows go
    through to the map."""
    if scene.legend_collapsed:
        return []
    k = scene.k
    box = legend_box(scene)
    row = px(LEGEND_ROW, k)
    top = box.y + px(LEGEND_HEAD, k)
    return [
        (c, pygame.Rect(box.x, top + row * c, box.width, row))
        for c in range(len(scene.v.map.continents))
    ]


def draw_legend(scene: GameScene, surface: pygame.Surface) -> None:
    v = scene.v
    topo = v.map
    if not topo.continents:
        return
    k = scene.k
    box = legend_box(scene)
    draw_panel(surface, box, colour=(12, 16, 25), alpha=200, radius=px(12, k))
    head = legend_header(scene)
    hot_head = head.collidepoint(scene.mouse)
    arrow = "+" if scene.legend_collapsed else "-"
    draw_text(
        surface,
        f"{arrow} Continents",
        (box.x + px(12, k), head.centery),
        size=px(14, k),
        bold=True,
        colour=theme.HOVER if hot_head else theme.TEXT_MUTED,
        anchor="midleft",
    )
    draw_text(
        surface,
        "bonus",
        (box.right - px(12, k), head.centery),
        size=px(12, k),
        colour=theme.TEXT_MUTED,
        anchor="midright",
    )
    for c, rect in legend_rows(scene):
        hot = rect.collidepoint(scene.mouse)
        if hot:
            pygame.draw.rect(surface, theme.PANEL_LIGHT, rect.inflate(-4, 0), border_radius=6)
        swatch = pygame.Rect(0, 0, px(12, k), px(12, k))
        swatch.midleft = (rect.x + px(12, k), rect.centery)
        pygame.draw.rect(surface, scene.map.continent_colours[c], swatch, border_radius=3)
        name = fit_text(topo.continent_names[c], px(14, k), px(130, k))
        draw_text(
            surface,
            name,
            (rect.x + px(32, k), rect.centery),
            size=px(14, k),
            anchor="midleft",
            colour=theme.HOVER if hot else theme.TEXT,
        )
        draw_text(
            surface,
            f"+{topo.continent_bonus[c]}",
            (rect.right - px(12, k), rect.centery),
            size=px(14, k),
            bold=True,
            colour=theme.ACCENT,
            anchor="midright",
        )
        owners = {v.owner[t] for t in topo.continent_members[c]}
        if len(owners) == 1:
            holder = owners.pop()
            centre = (rect.right - px(44, k), rect.centery)
            pygame.draw.circle(surface, scene.colour(holder), centre, px(5, k))


def draw_top(scene: GameScene, surface: pygame.Surface) -> None:
    """Turn, the acting player and the phase on the left; the clock (if any) just left of
    the top buttons; the turn and the player's name are cut to fit, the phase is shown in
    full or not at all (the step's panel names it too); nothing goes over the buttons."""
    v = scene.v
    k = scene.k
    w = surface.get_width()
    top = scene.top
    bar = pygame.Rect(0, 0, w, top)
    surface.fill(theme.PANEL, bar)
    pygame.draw.line(surface, theme.PANEL_BORDER, (0, top - 1), (w, top - 1))
    limit = scene.top_buttons[-1].rect.left - px(12, k)
    if v.rules.clock and not scene.match.over:
        clock = pygame.Rect(0, px(8, k), px(CLOCK_WIDTH, k), top - px(16, k))
        clock.right = limit
        draw_clock(scene, surface, clock)
        limit = clock.left - px(12, k)
    seat = v.actor()
    big = px(20 if w >= 1100 else 17, k)
    # (text, size, bold, colour, seat of the dot, shown only in full)
    parts: list[tuple[str, int, bool, Colour, int | None, bool]] = [
        (f"Turn {v.turn}" if v.turn else "Deployment", big, True, theme.TEXT, None, False)
    ]
    if seat is not None:
        parts.append((scene.match.name(seat), big, True, theme.TEXT, seat, False))
        phase = PHASE_TITLES.get(v.phase, v.phase)
        parts.append((phase, big - 2, False, theme.ACCENT, None, True))
    x = px(18, k)
    dot = px(10, k)
    for text, size, bold, colour, seat_dot, whole in parts:
        if seat_dot is not None:
            if x + 2 * dot + 4 > limit:
                return
            pygame.draw.circle(surface, scene.colour(seat_dot), (x + dot, top // 2), dot)
            pygame.draw.circle(surface, theme.SHADOW, (x + dot, top // 2), dot, 2)
            x += 2 * dot + px(8, k)
        shown = fit_text(text, size, limit - x, bold)
        if shown == "..." or (whole and shown != text):
            return
        x = draw_text(
            surface,
            shown,
            (x, top // 2),
            size=size,
            bold=bold,
            colour=colour,
            anchor="midleft",
        ).right + px(16, k)


CLOCK_WIDTH = 110
"""The clock's width at UI factor 1."""


def clock_face(scene: GameScene) -> tuple[str, bool, int]:
    """What the turn clock shows: its text, whether it is urgent (red under 10 s) and the
    length of its bar in pixels. The screen redraws for the clock only when this changes."""
    k = scene.k
    left = max(0.0, scene.clock_left)
    running = scene.clock_running
    urgent = left < 10 and running
    frac = left / max(1, scene.v.rules.clock)
    bar = round((px(CLOCK_WIDTH, k) - px(20, k)) * frac)
    text = f"{int(left) // 60}:{int(left) % 60:02d}" if running else "bot"
    return text, urgent, bar


def draw_clock(scene: GameScene, surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The turn clock in `rect`: time left for the human to act (red under 10 s)."""
    k = scene.k
    text, urgent, length = clock_face(scene)
    scene.clock_face = (text, urgent, length)
    colour = theme.DANGER if urgent else theme.TEXT
    draw_panel(surface, rect, colour=(12, 16, 25), border=colour, radius=px(10, k), alpha=255)
    bar = pygame.Rect(rect.x + px(10, k), rect.bottom - px(9, k), length, 4)
    pygame.draw.rect(surface, colour, bar, border_radius=2)
    draw_text(
        surface,
        text,
        (rect.centerx, rect.centery - 3),
        size=px(22, k),
        bold=True,
        colour=colour,
        anchor="center",
    )


def draw_players(scene: GameScene, surface: pygame.Surface) -> None:
    v = scene.v
    k = scene.k
    r = scene.players_rect
    draw_panel(surface, r, radius=px(12, k))
    draw_text(
        surface,
        "Players",
        (r.x + px(14, k), r.y + px(9, k)),
        size=px(15, k),
        bold=True,
        colour=theme.TEXT_MUTED,
    )
    columns = (("land", 112), ("armies", 60), ("cards", 16))
    for label, right in columns:
        draw_text(
            surface,
            label,
            (r.right - px(right, k), r.y + px(10, k)),
            size=px(13, k),
            colour=theme.TEXT_MUTED,
            anchor="topright",
        )
    armies = [0] * v.players
    for t, o in enumerate(v.owner):
        armies[o] += v.armies[t]
    name_room = r.width - px(38 + 150, k)
    for i, seat in enumerate(scene.match.seats):
        row = pygame.Rect(r.x + 6, r.y + px(33, k) + scene.row_h * i, r.width - 12, scene.row_h - 2)
        cy = row.centery
        if i == v.actor():
            pygame.draw.rect(surface, theme.PANEL_LIGHT, row, border_radius=8)
            pygame.draw.rect(surface, theme.ACCENT, row, 1, border_radius=8)
        alive = v.alive[i]
        pygame.draw.circle(surface, scene.colour(i), (r.x + px(22, k), cy), px(8, k))
        bold = i == v.actor()
        draw_text(
            surface,
            seat_label(seat, px(15, k), name_room, bold),
            (r.x + px(38, k), cy),
            size=px(15, k),
            anchor="midleft",
            colour=theme.TEXT if alive else theme.DISABLED,
            bold=bold,
        )
        values = (v.territory_counts[i], armies[i], v.hand_sizes[i]) if alive else None
        if values is None:
            draw_text(
                surface,
                "out",
                (r.right - px(16, k), cy),
                size=px(14, k),
                anchor="midright",
                colour=theme.TEXT_MUTED,
            )
            continue
        for value, (_, right) in zip(values, columns, strict=True):
            draw_text(
                surface,
                str(value),
                (r.right - px(right, k), cy),
                size=px(14, k),
                anchor="midright",
                colour=theme.TEXT_MUTED,
            )
    goal = goal_line(scene)
    y = r.y + px(33, k) + scene.row_h * len(scene.match.seats) + scene.row_h // 2 - 1
    for text in fit_lines(goal, px(14, k), r.width - px(28, k), goal_rows(scene), True):
        draw_text(
            surface,
            text,
            (r.x + px(14, k), y),
            size=px(14, k),
            bold=True,
            colour=theme.ACCENT,
            anchor="midleft",
        )
        y += scene.row_h


def goal_rows(scene: GameScene) -> int:
    """Rows of the players panel under the seats for the goal: two for a secret mission
    (shown in full), one for the capitals, none in Domination."""
    mode = scene.v.rules.mode
    return 2 if mode == "mission" else 1 if mode == "capital" else 0


def seat_label(seat: SeatInfo, size: int, room: int, bold: bool) -> str:
    """A seat's label ("Bismarck (easy bot)") in `room` pixels: a name too long is cut
    before its bot kind, which stays readable ("Bism... (easy)")."""
    full = seat.label
    font = theme.font(size, bold)
    if font.size(full)[0] <= room or full == seat.name:
        return fit_text(full, size, room, bold)
    kind = f" ({seat.kind})"
    return fit_text(seat.name, size, max(10, room - font.size(kind)[0]), bold) + kind


def goal_line(scene: GameScene) -> str:
    """The players panel's last row in Capital and Secret Mission games: the goal (the
    viewer's own mission, which only the viewer's view holds)."""
    v = scene.v
    if v.rules.mode == "capital":
        return "Win: hold every capital (stars)"
    if v.rules.mode != "mission":
        return ""
    m = v.mission
    if m is None:
        return "Secret missions: each player has one"
    if m.kind == "continents":
        return "Mission: conquer " + " and ".join(v.map.continent_names[c] for c in m.continents)
    if m.kind == "territories":
        held = f" with {m.min_armies}+ armies each" if m.min_armies > 1 else ""
        return f"Mission: hold {m.territories} territories{held}"
    return f"Mission: destroy {scene.match.name(m.target)}"


def text_bottom(scene: GameScene) -> int:
    """The lowest y the step's instructions may reach: above the highest button shown in
    the action panel (the slider counts as a button)."""
    r = scene.action_rect
    dice = {id(b) for b in scene.dice_buttons}  # beside the text: lines are cut to fit
    tops = [b.rect.top for b in scene.controls() if r.contains(b.rect) and id(b) not in dice]
    if scene.slider is not None and scene.human_turn() is not None:
        tops.append(scene.slider.rect.top)
    return min(tops, default=r.bottom) - px(6, scene.k)


def instruction_lines(scene: GameScene) -> list[tuple[str, Colour, pygame.Rect]]:
    """The instruction lines as drawn: text (fitted to the panel), colour and rect. No line
    reaches under a button: lines that would are left out (the title says the step)."""
    k = scene.k
    r = scene.action_rect
    _, lines = instructions(scene)
    size = px(15, k)
    step = px(22, k)
    room = r.width - px(28, k)
    limit = text_bottom(scene)
    dice_row = [b.rect for b in scene.dice_buttons if b in scene.controls()]
    out: list[tuple[str, Colour, pygame.Rect]] = []
    y = r.y + px(44, k)
    for line, colour in lines:
        # A line too long for the panel goes on in the next row; only the last row that
        # fits above the buttons is cut.
        rest = line
        if not rest:
            y += step
        while rest:
            rect = pygame.Rect(r.x + px(14, k), y, room, theme.font(size).get_linesize())
            if rect.bottom > limit:
                break
            width = room
            for d in dice_row:
                if d.colliderect(rect):
                    width = d.left - rect.x - px(8, k)
            pieces = wrap_text(rest, size, max(10, width))
            if len(pieces) > 1 and rect.bottom + step <= limit:
                text = pieces[0]
                rest = " ".join(rest.split()[len(text.split()) :])
            else:
                text, rest = fit_text(rest, size, max(10, width)), ""
            shown = pygame.Rect(rect.topleft, theme.font(size).size(text))
            out.append((text, colour, shown))
            y += step
    return out


def draw_action(scene: GameScene, surface: pygame.Surface) -> None:
    k = scene.k
    r = scene.action_rect
    draw_panel(surface, r, radius=px(12, k))
    title, _ = instructions(scene)
    title = fit_text(title, px(19, k), r.width - px(28, k), True)
    draw_text(surface, title, (r.x + px(14, k), r.y + px(12, k)), size=px(19, k), bold=True)
    for text, colour, rect in instruction_lines(scene):
        draw_text(surface, text, rect.topleft, size=px(15, k), colour=colour)


def instructions(scene: GameScene) -> tuple[str, list[tuple[str, Colour]]]:
    v = scene.v
    muted, text, accent = theme.TEXT_MUTED, theme.TEXT, theme.ACCENT
    seat = scene.human_turn()
    actor = v.actor()
    if scene.match.over:
        return "Game over", [("The last army has fallen.", muted)]
    if seat is None:
        who = scene.match.name(actor) if actor is not None else ""
        if scene.match.thinking:
            return f"{who} is thinking...", [
                ("It weighs its plans; the map and", muted),
                ("the buttons stay yours meanwhile.", muted),
            ]
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
            (f"{army_count(left)} left to place", accent),
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
            (f"Move {army_count(value)}; this ends your turn.", muted),
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
            (f"{army_count(a)} against {d}", theme.TEXT),
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
    """The log's last lines; no panel at all when the window leaves it too little room."""
    k = scene.k
    r = scene.log_rect
    line_h = px(20, k)
    if r.height < px(34, k) + line_h:
        return
    draw_panel(surface, r, radius=px(12, k))
    draw_text(
        surface,
        "Log",
        (r.x + px(14, k), r.y + px(8, k)),
        size=px(15, k),
        bold=True,
        colour=theme.TEXT_MUTED,
    )
    rows = max(0, (r.height - px(36, k)) // line_h)
    lines = scene.match.log[-rows:] if rows else []
    y = r.y + px(32, k)
    for line in lines:
        if line.seat is not None:
            centre = (r.x + px(18, k), y + line_h // 2 - 1)
            pygame.draw.circle(surface, scene.colour(line.seat), centre, px(4, k))
        text = fit_text(line.text, px(13, k), r.width - px(40, k))
        draw_text(surface, text, (r.x + px(28, k), y), size=px(13, k), colour=theme.TEXT)
        y += line_h


def draw_banner(scene: GameScene, surface: pygame.Surface, text: str) -> None:
    """A notice across the top of the map that stays while it holds (the connection)."""
    k = scene.k
    area = scene.map.rect
    size = px(18, k)
    width = min(area.width - px(20, k), theme.font(size, bold=True).size(text)[0] + px(40, k))
    rect = pygame.Rect(0, 0, width, px(48, k))
    rect.midtop = (area.centerx, area.y + px(10, k))
    draw_panel(surface, rect, colour=theme.PANEL_LIGHT, border=theme.ACCENT, radius=12, alpha=240)
    shown = fit_text(text, size, rect.width - px(20, k), True)
    draw_text(
        surface, shown, rect.center, size=size, bold=True, colour=theme.ACCENT, anchor="center"
    )
