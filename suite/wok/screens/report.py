"""The turn report (battles with small charts, bombing, spying, cancellations, Top Ten, history
charts) and the game-over screen with the final charts and the replay.

Both read the seat's view (its reports) and the seat's history points only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import pygame

from suite.core.match import Outcome
from suite.core.store import SaveError
from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.widgets import Button, draw_panel, wrap_text
from suite.wok.rules.views import Battle, Report, WokView
from suite.wok.screens.kit import ZButton, bar_pair, label, line_chart, px, set_zoom
from suite.wok.screens.mapdraw import colour_of
from suite.wok.screens.match import Point, WokMatch, replays_dir
from suite.wok.screens.timer import KeepsTime

PAGES = ("Battles", "Bombs & spies", "Cancelled & RIPs", "Top Ten", "Charts")


def _name(view: WokView, colour: int | None) -> str:
    if colour is None:
        return "someone"
    if colour < 0:
        return "neutral"
    return view.players[colour].name


def _prov(view: WokView, p: int | None) -> str:
    if p is None:
        return "?"
    return f"{p} {view.map.provinces[p].name}"


def history_charts(
    surface: pygame.Surface,
    rect: pygame.Rect,
    view: WokView,
    points: Sequence[Point],
) -> None:
    """Provinces and scores of every colour (public), and the seat's own armies, POP, EFF and
    gold by turn."""
    if not points:
        label(surface, "No history yet", rect.topleft, colour=theme.TEXT_MUTED)
        return
    xs = [p.turn for p in points]
    mine = [c.colour for c in view.colours]
    # the seat's own colours are drawn last, so they stay on top where lines meet
    colours = [pl.colour for pl in view.players if pl.colour not in mine] + mine
    charts: list[tuple[str, list[tuple[str, tuple[int, int, int], list[float]]]]] = []
    for title, key in (("Provinces", "provinces"), ("Score", "score")):
        series = [
            (view.players[c].name, colour_of(c), [float(getattr(p, key).get(c, 0)) for p in points])
            for c in colours
        ]
        charts.append((title, series))
    for title, key in (("Armies", "arm"), ("POP", "pop"), ("EFF", "eff"), ("Gold", "gold")):
        series = [
            (view.players[c].name, colour_of(c), [float(getattr(p, key).get(c, 0)) for p in points])
            for c in mine
        ]
        charts.append((f"{title} (yours)", series))
    cols = 3 if rect.width >= 700 else 2
    rows = (len(charts) + cols - 1) // cols
    cw = (rect.width - (cols - 1) * 10) // cols
    ch = (rect.height - (rows - 1) * 10) // rows
    for i, (title, series) in enumerate(charts):
        r, c = divmod(i, cols)
        line_chart(
            surface,
            pygame.Rect(rect.x + c * (cw + 10), rect.y + r * (ch + 10), cw, ch),
            title,
            xs,
            series,
        )


Line = tuple[str, tuple[int, int, int], bool]
"""A line of a text page: its text, its ink and whether it is a section heading."""

TROOP_KEYS = ("pik", "arc", "kni", "cat")  # Intermediate's troop types, shown when present


def _range(start: int, shown: int, total: int, what: str) -> str:
    """ "4-12 of 30 battles (wheel)"."""
    return f"{start + 1}-{min(total, start + shown)} of {total} {what} (wheel)"


def _op(op: str) -> str:
    return op.replace("_", " ").lower()


def _troops(troops: dict[str, int] | None) -> str:
    """ "ARM 10, PIK 5" (the types present), or "none"."""
    shown = ", ".join(f"{k} {n}" for k, n in (troops or {}).items() if n)
    return shown or "none"


def _section(title: str, lines: list[Line]) -> list[Line]:
    """`lines` under a heading, or nothing when there are none."""
    return [(title, theme.TEXT, True), *lines] if lines else []


def _seen(v: WokView, seen: dict[str, object]) -> str:
    """What a spy saw, in the figures' usual names ("POP 48  ARM 35  LEV 1.145  aim MIN")."""
    parts: list[str] = []
    for key, value in seen.items():
        if key == "turn" or (key in TROOP_KEYS and not value):
            continue
        if key == "owner" and isinstance(value, int):
            parts.append(f"owner {_name(v, value)}")
        elif key == "false_orders":
            if value:
                parts.append("FALSE ORDERS")
        elif key == "aim":
            parts.append(f"aim {value}")
        elif key == "provinces":
            parts.append(f"{value} provinces")
        else:
            shown = f"{value:g}" if isinstance(value, float) else str(value)
            parts.append(f"{key.upper().rstrip('_')} {shown}")
    return "  ".join(parts)


def _bombing_lines(v: WokView, r: Report, mine: set[int]) -> list[Line]:
    out: list[Line] = []
    for b in r.bombings:
        lost = ", ".join(f"{k} {val:g}" for k, val in b.destroyed.items() if val) or "nothing"
        shots = f"{b.fired} missiles, {b.hits} hit"
        if b.by in mine:
            where = f"{_prov(v, b.target)} from {_prov(v, b.source)} ({b.range} range)"
            out.append((f"You bombed {where}: {shots}, destroyed {lost}", theme.TEXT, False))
        else:
            src = f" from {_prov(v, b.source)}" if b.source is not None else ""
            text = f"{_prov(v, b.target)} was bombed{src}: {shots}, you lost {lost}"
            out.append((text, theme.DANGER, False))
    return out


def _spying_lines(v: WokView, r: Report, mine: set[int]) -> list[Line]:
    out: list[Line] = []
    for s in r.spying:
        if s.by in mine:
            ok = "succeeded" if s.success else "failed"
            spies = "spy" if s.sent == 1 else "spies"
            went = f"{s.sent} {spies} from {_prov(v, s.source)} on {_prov(v, s.target)}"
            fate = [f"{s.lost_on_way} lost on the way"] if s.lost_on_way else []
            if s.caught_by_defence:
                fate.append(f"{s.caught_by_defence} beaten by defenders")
            if s.caught:
                fate.append(f"{s.caught} caught")
            fate.append(f"{s.returned or 0} back")
            ink = theme.TEXT if s.success else theme.TEXT_MUTED
            out.append((f"{_op(s.op).capitalize()}: {went} {ok} ({', '.join(fate)})", ink, False))
        else:
            ok = "succeeded" if s.success else "failed"
            stopped = f"; your spies stopped {s.caught_by_defence}" if s.caught_by_defence else ""
            caught = f", {s.caught} caught" if s.caught else ""
            ink = theme.DANGER if s.success else theme.TEXT_MUTED
            text = f"Enemy spies ({_op(s.op)}) on {_prov(v, s.target)} {ok}{stopped}{caught}"
            out.append((text, ink, False))
    return out


class ReportScene(KeepsTime, Scene):
    """One seat's latest turn report in pages (1-5 or the tabs); Esc or Close returns."""

    def __init__(self, app: App, view: WokView, history: Sequence[Point]) -> None:
        super().__init__(app)
        self.view = view
        self.history = list(history)
        self.page = self._first_page()
        self.scroll = 0
        self.colour_index = 0
        self.tabs = [
            ZButton(name, pygame.Rect(0, 0, 10, 10), self._goto(i), font_size=14)
            for i, name in enumerate(PAGES)
        ]
        self.close_button = ZButton(
            "Close",
            pygame.Rect(0, 0, 100, 32),
            self.close,
            primary=True,
            tooltip="Back to the map (Esc)",
        )
        self.colour_buttons = [
            ZButton(r_name, pygame.Rect(0, 0, 70, 28), self._colour(i), font_size=13)
            for i, r_name in enumerate(_name(view, r.colour) for r in view.reports)
        ]
        self.on_resize(app.size)

    def _first_page(self) -> int:
        """The first page with news (battles, then bombs and spies, then cancellations);
        the Top Ten when the turn had none (turn 0)."""
        r = self.view.reports[0] if self.view.reports else None
        if r is None:
            return 0
        if r.battles:
            return PAGES.index("Battles")
        if r.bombings or r.spying or r.intel or r.upgrades or r.trades:
            return PAGES.index("Bombs & spies")
        if r.cancelled or r.rips:
            return PAGES.index("Cancelled & RIPs")
        return PAGES.index("Top Ten")

    def _goto(self, i: int) -> Callable[[], None]:
        def go() -> None:
            self.page = i
            self.scroll = 0

        return go

    def _colour(self, i: int) -> Callable[[], None]:
        def go() -> None:
            self.colour_index = i
            self.scroll = 0

        return go

    @property
    def report(self) -> Report | None:
        reports = self.view.reports
        return reports[min(self.colour_index, len(reports) - 1)] if reports else None

    def close(self) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()

    def animating(self) -> bool:
        return False

    def on_resize(self, size: tuple[int, int]) -> None:
        set_zoom(size)
        w, h = size
        tw = min(px(170), (w - 150) // len(PAGES))
        for i, tab in enumerate(self.tabs):
            tab.rect = pygame.Rect(16 + i * (tw + 6), px(52), tw, px(30))
        self.close_button.rect = pygame.Rect(0, 0, px(100), px(32))
        self.close_button.rect.topright = (w - 16, px(10))
        for i, button in enumerate(self.colour_buttons):
            button.rect = pygame.Rect(0, 0, px(70), px(28))
            button.rect.topright = (self.close_button.rect.x - 10 - i * px(76), px(12))
        self.body = pygame.Rect(16, px(92), w - 32, h - px(92) - 16)

    def buttons(self) -> list[Button]:
        extra = self.colour_buttons if len(self.colour_buttons) > 1 else []
        return [*self.tabs, self.close_button, *extra]

    def handle_event(self, event: pygame.event.Event) -> None:
        for button in self.buttons():
            if button.handle_event(event):
                return
        if event.type == pygame.KEYDOWN:
            if pygame.K_1 <= event.key <= pygame.K_5:
                self._goto(event.key - pygame.K_1)()
            elif event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_t):
                self.close()
            elif event.key == pygame.K_DOWN:
                self.scroll += 1
            elif event.key == pygame.K_UP:
                self.scroll = max(0, self.scroll - 1)
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - event.y)

    def update(self, dt: float) -> None:
        for button in self.buttons():
            button.update(dt)
        self.keep_time()

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BACKGROUND_BOTTOM)
        r = self.report
        title = f"Report of turn {r.turn}" if r else "No report yet"
        if r is not None:
            title += f" - {_name(self.view, r.colour)}"
        label(
            surface,
            title,
            (16, px(12)),
            size=22,
            bold=True,
            width=self.close_button.rect.x - 40 - px(76) * len(self.colour_buttons),
        )
        for i, tab in enumerate(self.tabs):
            tab.primary = i == self.page
        for button in self.buttons():
            button.draw(surface)
        draw_panel(surface, self.body, radius=10, shadow=3)
        inner = self.body.inflate(-20, -16)
        if r is None:
            return
        if PAGES[self.page] == "Charts":
            history_charts(surface, inner, self.view, self.history)
        elif PAGES[self.page] == "Battles":
            self._battles(surface, inner, r)
        elif PAGES[self.page] == "Top Ten":
            self._top_ten(surface, inner, r)
        else:
            self._lines(surface, inner, self._text(r))
        for button in self.buttons():
            button.draw_tooltip(surface)

    def _text(self, r: Report) -> list[Line]:
        v = self.view
        page = PAGES[self.page]
        mine = {c.colour for c in v.colours}
        if page == "Bombs & spies":
            intel: list[Line] = []
            for i in r.intel:
                where = _prov(v, i.target) if i.op == "SPY_PROVINCE" else _name(v, i.target)
                intel.append((f"{where}: {_seen(v, i.seen)}", theme.ACCENT, False))
            upgrades: list[Line] = [
                (
                    f"{u.kind} for {u.cost} gold"
                    if u.amount is None
                    else f"{u.amount} {u.kind} for {u.cost} WOOD",
                    theme.SUCCESS,
                    False,
                )
                for u in r.upgrades
            ]
            trades: list[Line] = [
                (
                    f"{t.points} tech points: "
                    + ", ".join(f"{k.upper()} +{val:g}" for k, val in t.gave.items() if val)
                    + f"; {t.tech_left} points left",
                    theme.SUCCESS,
                    False,
                )
                for t in r.trades
            ]
            out = (
                _section("Bombing", _bombing_lines(v, r, mine))
                + _section("Spying", _spying_lines(v, r, mine))
                + _section("What your spies saw", intel)
                + _section("Upgrades bought", upgrades)
                + _section("Tech trades", trades)
            )
            return out or [("No bombing, spying or upgrades this turn", theme.TEXT_MUTED, False)]
        cancelled: list[Line] = [
            (f"{cancelled_order(c.phase, c.order)}: {c.reason}", theme.ACCENT, False)
            for c in r.cancelled
        ]
        rips: list[Line] = [
            (
                f"{_name(v, rip.colour)} lost its last province, {_prov(v, rip.province)}, "
                f"to {_name(v, rip.by)}",
                theme.DANGER,
                False,
            )
            for rip in r.rips
        ]
        out = _section("Orders that did not run", cancelled) + _section("RIPs", rips)
        return out or [("Every order ran; nobody was RIPed", theme.TEXT_MUTED, False)]

    def _top_ten(self, surface: pygame.Surface, rect: pygame.Rect, r: Report) -> None:
        """The Top Ten as a table with score bars, then the next turn's Order of Play."""
        v = self.view
        mine = {c.colour for c in v.colours}
        lh = px(26)
        top = max((t.score for t in r.top_ten), default=1) or 1
        name_w = px(150)
        bar_x = rect.x + px(40) + name_w + px(70)
        bar_w = max(20, min(px(520), rect.right - bar_x - 10))
        y = rect.y
        for rank, t in enumerate(r.top_ten, 1):
            ink = theme.ACCENT if t.colour in mine else theme.TEXT
            label(surface, f"{rank}.", (rect.x + px(24), y), size=15, colour=ink, anchor="topright")
            pygame.draw.circle(surface, colour_of(t.colour), (rect.x + px(36), y + px(10)), px(6))
            label(
                surface, t.name, (rect.x + px(48), y), size=15, bold=t.colour in mine, width=name_w
            )
            label(surface, str(t.score), (bar_x - 10, y), size=15, colour=ink, anchor="topright")
            bar = pygame.Rect(bar_x, y + px(4), max(2, bar_w * t.score // top), px(14))
            pygame.draw.rect(surface, colour_of(t.colour), bar, border_radius=4)
            y += lh
        y += px(10)
        order = ", ".join(f"{i}. {_name(v, c)}" for i, c in enumerate(r.next_oop, 1))
        label(
            surface,
            f"Next Order of Play: {order}",
            (rect.x, y),
            size=14,
            colour=theme.TEXT_MUTED,
            width=rect.width,
        )

    def _lines(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        lines: list[Line],
    ) -> None:
        size = 15 if rect.height > 500 else 13
        lh = theme.font(px(size)).get_linesize()
        wrapped: list[tuple[str, tuple[int, int, int], bool, int]] = []
        for text, ink, head in lines:
            if head and wrapped:
                wrapped.append(("", ink, False, 0))  # a blank line before each section
            indent = 0 if head else px(14)
            for k, part in enumerate(wrap_text(text, px(size), rect.width - 20 - indent)):
                wrapped.append((part, ink, head, indent + (px(14) if k else 0)))
        room = rect.height // lh
        self.scroll = min(self.scroll, max(0, len(wrapped) - room))
        for i, (text, ink, head, indent) in enumerate(wrapped[self.scroll : self.scroll + room]):
            label(
                surface,
                text,
                (rect.x + indent, rect.y + i * lh),
                size=size + (1 if head else 0),
                colour=ink,
                bold=head,
            )
        if len(wrapped) > room:
            label(
                surface,
                _range(self.scroll, room, len(wrapped), "lines"),
                rect.bottomright,
                size=12,
                colour=theme.TEXT_MUTED,
                anchor="bottomright",
            )

    def _battles(self, surface: pygame.Surface, rect: pygame.Rect, r: Report) -> None:
        v = self.view
        if not r.battles:
            label(
                surface, "No battles involved you this turn", rect.topleft, colour=theme.TEXT_MUTED
            )
            return
        # as many columns as there are battles (up to what fits): cards use the window
        cols = max(1, min(rect.width // px(380), len(r.battles)))
        card_w = (rect.width - (cols - 1) * 10) // cols
        titles = [wrap_text(_battle_title(v, b), px(13), card_w - 16)[:2] for b in r.battles]
        title_h = px(18) * max(len(t) for t in titles)  # a long title takes a second line
        card_h = px(78) + title_h
        rows = max(1, rect.height // (card_h + 8))
        per_page = rows * cols
        self.scroll = min(self.scroll, max(0, (len(r.battles) - 1) // cols))
        start = self.scroll * cols
        for k, b in enumerate(r.battles[start : start + per_page]):
            row, col = divmod(k, cols)
            card = pygame.Rect(
                rect.x + col * (card_w + 10), rect.y + row * (card_h + 8), card_w, card_h
            )
            draw_panel(surface, card, colour=theme.PANEL_LIGHT, radius=8, shadow=2)
            for i, line in enumerate(titles[start + k]):
                label(
                    surface,
                    line,
                    (card.x + 8, card.y + px(5) + i * px(18)),
                    size=13,
                    bold=True,
                    width=card.width - 16,
                )
            top = card.y + title_h
            powers = f"PATT {b.patt:.0f} vs PDEF {b.pdef:.0f}"
            if b.troops_sent or b.troops_defending:  # Intermediate's troop types
                powers += f"; {_troops(b.troops_sent)} against {_troops(b.troops_defending)}"
            label(
                surface,
                powers,
                (card.x + 8, top + px(5)),
                size=12,
                colour=theme.TEXT_MUTED,
                width=card.width - 16,
            )
            bar_pair(
                surface,
                pygame.Rect(card.x + 8, top + px(24), card.width - 16, card.bottom - top - px(30)),
                [
                    (_name(v, b.attacker), colour_of(b.attacker), b.sent, b.a_lost, b.a_injured),
                    (
                        _name(v, b.defender),
                        colour_of(b.defender),
                        b.defenders,
                        b.d_lost,
                        b.d_injured,
                    ),
                ],
            )
        if len(r.battles) > per_page:
            label(
                surface,
                _range(start, per_page, len(r.battles), "battles"),
                rect.bottomright,
                size=12,
                colour=theme.TEXT_MUTED,
                anchor="bottomright",
            )


CANCELLED_NOUNS = {
    "upgrades": "Upgrade",
    "bombing": "Bombing order",
    "attacking": "Attack order",
    "transformations": "Transformation",
    "troop_upgrades": "Troop upgrade",
    "movement": "Move",
    "aims": "Aim change",
    "trading": "Trade",
    "spying": "Spy order",
    "covert_ops": "Spy order",
}
"""What a cancelled order of each engine phase is called in the report."""


def cancelled_order(phase: str, order: int) -> str:
    """ "Troop upgrade 1" for the engine's ("troop_upgrades", 1): no raw phase names."""
    noun = CANCELLED_NOUNS.get(phase, phase.replace("_", " ").capitalize() + " order")
    return f"{noun} {order}"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def result_lines(outcome: Outcome, names: list[str], score: dict[int, int]) -> tuple[str, str, str]:
    """The game-over title, reason and places: a shared place says so ("1st (shared by
    2): Han 530, Kor 410   3rd: Mir 200"), places counted as in a race."""
    winners = [names[s] for s in outcome.winners]
    if len(winners) > 1:
        title = f"{', '.join(winners[:-1])} and {winners[-1]} share the victory"
    else:
        title = f"{winners[0]} won" if winners else "Nobody won"
    reason = outcome.reason
    if outcome.places and len(outcome.places[0]) > 1:
        reason += f": {len(outcome.places[0])} players share first place"
    parts, before = [], 0
    for group in outcome.places:
        shared = f" (shared by {len(group)})" if len(group) > 1 else ""
        who = ", ".join(f"{names[s]} {score.get(s, 0)}" for s in group)
        parts.append(f"{_ordinal(before + 1)}{shared}: {who}")
        before += len(group)
    return title, reason, "   ".join(parts)


def _battle_title(v: WokView, b: Battle) -> str:
    """ "Han attacked 13 Zolis from 5 Kar: taken (3 rounds)"."""
    result = "taken" if b.won else "held"
    where = f"{_prov(v, b.target)} from {_prov(v, b.source)}"
    rounds = f"{b.rounds} round{'s' if b.rounds != 1 else ''}" if b.rounds else "unopposed"
    return f"{_name(v, b.attacker)} attacked {where}: {result} ({rounds})"


class GameOverScene(Scene):
    """The result, each human seat's final charts, and the replay (watch or save)."""

    def __init__(self, app: App, match: WokMatch) -> None:
        super().__init__(app)
        self.match = match
        self.seat = match.humans[0]
        self.view = match.view(self.seat)
        self.watch_button = ZButton(
            "Watch replay",
            pygame.Rect(0, 0, 170, 36),
            self.watch,
            primary=True,
            tooltip="The game turn by turn",
        )
        self.save_button = ZButton(
            "Save replay",
            pygame.Rect(0, 0, 150, 36),
            self.save_replay,
            tooltip="Keep the replay in your replays folder",
        )
        self.done_button = ZButton(
            "Done", pygame.Rect(0, 0, 110, 36), self.done, tooltip="Back to the launcher"
        )
        self.seat_button = ZButton(
            f"Charts: {match.seats[self.seat].name}",
            pygame.Rect(0, 0, 170, 36),
            self.next_seat,
            tooltip="Show another player's charts",
        )
        self.on_resize(app.size)

    def next_seat(self) -> None:
        humans = self.match.humans
        self.seat = humans[(humans.index(self.seat) + 1) % len(humans)]
        self.view = self.match.view(self.seat)
        self.seat_button.label = f"Charts: {self.match.seats[self.seat].name}"

    def animating(self) -> bool:
        return False

    def on_resize(self, size: tuple[int, int]) -> None:
        set_zoom(size)
        w, h = size
        for button, width in (
            (self.done_button, 110),
            (self.save_button, 150),
            (self.watch_button, 170),
            (self.seat_button, 170),
        ):
            button.rect = pygame.Rect(0, 0, px(width), px(36))
        self.done_button.rect.bottomright = (w - 16, h - 12)
        self.save_button.rect.bottomright = (self.done_button.rect.x - 10, h - 12)
        self.watch_button.rect.bottomright = (self.save_button.rect.x - 10, h - 12)
        self.seat_button.rect.bottomleft = (16, h - 12)

    def buttons(self) -> list[Button]:
        extra = [self.seat_button] if len(self.match.humans) > 1 else []
        return [self.watch_button, self.save_button, self.done_button, *extra]

    def watch(self) -> None:
        from suite.wok.screens.replay import ReplayScene

        self.app.push(ReplayScene(self.app, self.match.session.replay))

    def save_replay(self) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        try:
            path = self.match.save_replay(replays_dir() / f"wok-{stamp}.json")
        except (SaveError, OSError) as exc:
            self.app.notify(f"Could not save the replay: {exc}", 5.0)
            return
        self.app.notify(f"Replay saved as {path.name}")

    def done(self) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        for button in self.buttons():
            if button.handle_event(event):
                return

    def update(self, dt: float) -> None:
        for button in self.buttons():
            button.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BACKGROUND_BOTTOM)
        w, h = surface.get_size()
        outcome = self.view.outcome
        names = [s.name for s in self.match.seats]
        if outcome is not None:
            score: dict[int, int] = {}
            for t in self.view.top_ten:
                seat = self.view.players[t.colour].seat
                if seat is not None:
                    score[seat] = score.get(seat, 0) + t.score
            title, reason, places = result_lines(outcome, names, score)
            label(
                surface,
                title,
                (16, px(10)),
                size=26,
                bold=True,
                colour=theme.ACCENT,
                width=w - 32,
            )
            label(
                surface,
                f"{reason} - turn {self.view.turn}",
                (16, px(46)),
                size=15,
                colour=theme.TEXT_MUTED,
                width=w - 32,
            )
            label(surface, places, (16, px(68)), size=15, width=w - 32)
        history_charts(
            surface,
            pygame.Rect(16, px(96), w - 32, h - px(96) - px(60)),
            self.view,
            self.match.history.get(self.seat, []),
        )
        for button in self.buttons():
            button.draw(surface)
        for button in self.buttons():
            button.draw_tooltip(surface)
