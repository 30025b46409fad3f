"""Scenes pushed over the WoK map: the hot-seat pass screen, the help (keys, then the rule
set's phases, tech, trades, covert operations and the robots' doctrine, written from the
rules data by `helptext`) and a menu of buttons. `doctrine` is re-exported from there."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from suite.ui import dialogs, theme
from suite.ui.app import App, Scene
from suite.ui.dialogs import veil
from suite.ui.widgets import draw_panel, wrap_text
from suite.wok.rules.helptext import doctrine, help_sections
from suite.wok.rules.ruleset import RuleSet
from suite.wok.screens.kit import label, px, set_zoom
from suite.wok.screens.timer import KeepsTime

__all__ = ["KEYS", "HelpScene", "MenuScene", "PassScene", "doctrine", "veil"]

KEYS = (
    ("1, 2, ...", "the order panels, in the order their phases run"),
    ("Click map", "pick the province, then the target; right click clears the form"),
    ("Enter", "add the order"),
    ("Amount", "click the box and type it;  M the most;  Up/Down +1/-1 (Shift: 10)"),
    ("R / U", "ready (send and lock your orders) / unready"),
    ("Tab", "next of your colours (Duel, Trinity)"),
    ("T", "the last turn report and the charts"),
    ("P / L", "your provinces' table / the players list"),
    ("Wheel, drag", "zoom, move the map;  0 whole map;  N names or numbers"),
    ("Badges", "armies (~: old intel, ?: unknown), * protected home, terrain initial"),
    (
        "Outlines",
        "red: short range, attackable;  yellow: long range, by chance;  purple: spies get there",
    ),
    ("F1", "this help (Left/Right: pages);  Esc the menu (save, help, leave)"),
)


class PassScene(KeepsTime, dialogs.PassScene):
    """The suite's pass screen, keeping the WoK clock running while it is up."""

    def __init__(
        self,
        app: App,
        name: str,
        colour: tuple[int, int, int],
        note: str,
        on_ready: Callable[[], None],
    ) -> None:
        super().__init__(app, name, colour, on_ready, note=note)

    def update(self, dt: float) -> None:
        super().update(dt)
        self.keep_time()


HelpLine = tuple[str, str, str]
"""One line of the help: (kind, text, more); kind "head", "key" (text: the keys, more:
what they do), "text" or "gap"."""


class HelpScene(KeepsTime, Scene):
    """F1: the keys, then the rule set's turn, tech, trades, covert operations and the
    robots' doctrine (`helptext`, from the rules data), in pages that fit the window:
    Left/Right, PgUp/PgDn or the wheel turn them; any other key or a click closes it."""

    transparent = True

    def __init__(self, app: App, rules: RuleSet) -> None:
        super().__init__(app)
        self.rules = rules
        self.page = 0
        self.pages: list[list[HelpLine]] = [[]]
        self.on_resize(app.size)

    def animating(self) -> bool:
        return False

    def _sizes(self, h: int) -> tuple[int, int, int]:
        """Text size, line height and the keys' column width for a window `h` high."""
        small = 13 if h < 700 else 15
        return small, theme.font(px(small)).get_linesize(), px(90 if h < 700 else 120)

    def on_resize(self, size: tuple[int, int]) -> None:
        set_zoom(size)
        w, h = size
        self.rect = pygame.Rect(0, 0, min(px(900), w - 30), h - 30)
        self.rect.center = (w // 2, h // 2)
        small, line, key_w = self._sizes(h)
        width = self.rect.width - 40
        blocks: list[list[HelpLine]] = [
            [("head", "Keys", "")] + [("key", keys, what) for keys, what in KEYS]
        ]
        for title, paragraphs in help_sections(self.rules):
            block: list[HelpLine] = [("head", title, "")]
            for text in paragraphs:
                block += [("text", part, "") for part in wrap_text(text, px(small), width)]
            blocks.append(block)
        room = max(3, (self.rect.bottom - px(40) - line - (self.rect.y + px(48))) // line)
        pages: list[list[HelpLine]] = [[]]
        for block in blocks:
            for item in block:
                page = pages[-1]
                need = 2 if item[0] == "head" else 1  # a heading keeps its first line
                if len(page) + need > room and page:
                    pages.append([])
                    page = pages[-1]
                if item[0] == "head" and page:
                    page.append(("gap", "", ""))
                page.append(item)
        self.pages = pages
        self.page = min(self.page, len(pages) - 1)

    def turn(self, by: int) -> None:
        self.page = max(0, min(len(self.pages) - 1, self.page + by))
        self.app.request_redraw()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RIGHT, pygame.K_PAGEDOWN):
            self.turn(1)
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_LEFT, pygame.K_PAGEUP):
            self.turn(-1)
        elif event.type == pygame.MOUSEWHEEL:
            self.turn(-1 if event.y > 0 else 1)
        elif event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONUP):
            self.app.pop()

    def update(self, dt: float) -> None:
        self.keep_time()

    def draw(self, surface: pygame.Surface) -> None:
        veil(surface)
        rect = self.rect
        draw_panel(surface, rect, border=theme.ACCENT, alpha=250)
        x, y = rect.x + 20, rect.y + 14
        small, line, key_w = self._sizes(surface.get_height())
        label(surface, f"WoK help: {self.rules.title}", (x, y), size=22, bold=True)
        if len(self.pages) > 1:
            label(
                surface,
                f"page {self.page + 1} of {len(self.pages)}",
                (rect.right - 20, y + px(6)),
                size=small,
                colour=theme.TEXT_MUTED,
                anchor="topright",
            )
        y = rect.y + px(48)
        for kind, text, more in self.pages[self.page]:
            if kind == "head":
                label(surface, text, (x, y), size=small + 2, bold=True, colour=theme.ACCENT)
            elif kind == "key":
                label(
                    surface,
                    text,
                    (x + key_w, y),
                    size=small,
                    bold=True,
                    colour=theme.ACCENT,
                    anchor="topright",
                )
                label(surface, more, (x + key_w + 12, y), size=small, width=rect.width - key_w - 50)
            elif kind == "text":
                label(surface, text, (x, y), size=small)
            y += line
        turn = "Left/Right: more pages;  " if len(self.pages) > 1 else ""
        label(
            surface,
            f"{turn}any other key or a click closes this help",
            (rect.centerx, rect.bottom - 8),
            size=small - 1,
            colour=theme.TEXT_MUTED,
            anchor="midbottom",
        )


class MenuScene(KeepsTime, dialogs.MenuScene):
    """The suite's menu, keeping the WoK clock running while it is open."""

    def update(self, dt: float) -> None:
        super().update(dt)
        self.keep_time()
