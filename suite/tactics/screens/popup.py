"""The info popup of a piece (pointing at it, or at its proxy button): HP, MP, STR, DEF,
AGI, rest (red when too tired to act), range, mobility, movement letters, level, the
weapon, an XP meter on one's own pieces, and the forecast of the selected piece against
it (damage, miss %, crit %, crit damage), all read from the seat's view.
"""

from __future__ import annotations

import pygame

from suite.tactics.rules.view import Odds, PieceView, TacticsView
from suite.tactics.screens.book import team_colour
from suite.ui import theme
from suite.ui.scale import px
from suite.ui.widgets import draw_panel, draw_text

WIDTH = 250
LINE = 21
TIRED: tuple[int, int, int] = (240, 80, 70)
METER_BACK: tuple[int, int, int] = (30, 34, 44)
METER_FILL: tuple[int, int, int] = (120, 170, 255)


def too_tired(view: TacticsView, piece: PieceView) -> bool:
    """Whether the piece's rest keeps it from acting (only "all rested" turns ask for a
    full rest, RULINGS T1)."""
    return view.pieces_per_turn == 0 and piece.rest < view.rules.act_threshold


def odds_on(view: TacticsView, target: int) -> Odds | None:
    """The selected piece's forecast on `target` (None without a selection)."""
    return next((o for o in view.odds if o.target == target), None)


def popup_lines(
    view: TacticsView, piece: PieceView, owner_name: str
) -> list[tuple[str, str, bool]]:
    """(label, value, warn) lines of the popup, stats first, forecast last."""
    reach = f"{piece.min_range + 1}-{piece.range}" if piece.min_range else f"1-{piece.range}"
    lines = [
        ("Army", owner_name, False),
        ("HP", f"{piece.hp} / {piece.max_hp}", piece.hp * 4 <= piece.max_hp),
        ("MP", f"{piece.mp} / {piece.max_mp}", False),
        ("STR  DEF  AGI", f"{piece.strength}   {piece.defense}   {piece.agility}", False),
        ("Rest", f"{piece.rest} / {view.rules.rest_full}", too_tired(view, piece)),
        ("Range", reach, False),
        ("Mobility", str(piece.mobility), False),
        ("Movement", piece.movement, False),
        ("Level", str(piece.level), False),
        ("Weapon", piece.weapon, False),
    ]
    odds = odds_on(view, piece.uid)
    if odds is not None:
        selected = next((p for p in view.pieces if p.uid == view.selected), None)
        who = selected.name if selected else "selected"
        lines.append(
            (
                f"Attack by {who}",
                "in range" if odds.in_range else "not from here",
                not odds.in_range,
            )
        )
        lines.append(("Damage", f"{odds.hit_damage}", False))
        lines.append(("Miss", f"{odds.miss:.0f}%", odds.miss >= 50))
        lines.append(("Crit", f"{odds.crit:.0f}%  ({odds.crit_damage} dmg)", False))
        if odds.kill_chance > 0:
            lines.append(("Kill", f"{odds.kill_chance:.0f}%", False))
        if odds.dominates:
            lines.append(("Weapon", "dominates: DEF halved", False))
    return lines


def draw_popup(
    surface: pygame.Surface,
    view: TacticsView,
    piece: PieceView,
    owner_name: str,
    near: tuple[int, int],
    k: float = 1.0,
) -> pygame.Rect:
    """Draw the popup of `piece` beside screen point `near`, kept on screen, at UI
    factor `k` (`suite.ui.scale`)."""
    lines = popup_lines(view, piece, owner_name)
    meter = px(14, k) if piece.xp is not None and piece.xp_next else 0
    rect = pygame.Rect(0, 0, px(WIDTH, k), px(44, k) + meter + px(LINE, k) * len(lines))
    rect.topleft = (near[0] + 44, near[1] - rect.height // 2)
    if rect.right > surface.get_width() - 8:
        rect.right = near[0] - 44
    rect.clamp_ip(surface.get_rect().inflate(-8, -8))
    colour = team_colour(next((s.colour for s in view.seats if s.seat == piece.owner), 0))
    draw_panel(
        surface, rect, colour=(14, 18, 28), border=colour, radius=10, alpha=245, border_width=2
    )
    draw_text(
        surface,
        f"{piece.name}",
        (rect.x + px(12, k), rect.y + px(8, k)),
        size=px(19, k),
        bold=True,
        colour=colour,
    )
    draw_text(
        surface,
        f"L{piece.level}",
        (rect.right - px(12, k), rect.y + px(10, k)),
        size=px(16, k),
        bold=True,
        anchor="topright",
    )
    y = rect.y + px(38, k)
    if meter and piece.xp is not None and piece.xp_next:
        back, fill = METER_BACK, METER_FILL
        bar = pygame.Rect(rect.x + 12, y, rect.width - 24, px(7, k))
        pygame.draw.rect(surface, back, bar, border_radius=3)
        done = bar.copy()
        done.width = round(bar.width * min(1.0, piece.xp / piece.xp_next))
        pygame.draw.rect(surface, fill, done, border_radius=3)
        y += meter
    forecast_from = next(
        (i for i, line in enumerate(lines) if line[0].startswith("Attack by")), None
    )
    for i, (label, value, warn) in enumerate(lines):
        if i == forecast_from:
            pygame.draw.line(
                surface, theme.PANEL_BORDER, (rect.x + 10, y - 2), (rect.right - 10, y - 2)
            )
        ink = TIRED if warn else theme.TEXT
        draw_text(surface, label, (rect.x + px(12, k), y), size=px(15, k), colour=theme.TEXT_MUTED)
        draw_text(
            surface,
            value,
            (rect.right - px(12, k), y),
            size=px(15, k),
            colour=ink,
            bold=True,
            anchor="topright",
        )
        y += px(LINE, k)
    return rect
