"""Scenes pushed over the WoK map: the hot-seat pass screen, the help (keys, then the rule
set's phases, tech, trades, covert operations and the robots' doctrine, written from the
rules data by `helptext`) and a menu of buttons. `doctrine` is re-exported from there."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.backdrop import backdrop
from suite.ui.widgets import draw_panel, wrap_text
from suite.wok.rules.ruleset import RuleSet
from suite.wok.screens.helptext import doctrine, help_sections
from suite.wok.screens.kit import ZButton, label, px, set_zoom
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


def veil(surface: pygame.Surface, alpha: int = 175) -> None:
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((4, 6, 12, alpha))
    surface.blit(shade, (0, 0))


class PassScene(KeepsTime, Scene):
    """Hot-seat privacy: an opaque screen "Pass to <name>"; nothing of the previous player
    shows until the next one confirms (Enter, Space or the button)."""

    def __init__(
        self,
        app: App,
        name: str,
        colour: tuple[int, int, int],
        note: str,
        on_ready: Callable[[], None],
    ) -> None:
        super().__init__(app)
        self.name = name
        self.colour = colour
        self.note = note
        self.on_ready = on_ready
        self.button = ZButton(f"I am {name}", pygame.Rect(0, 0, 240, 50), self.ready, primary=True)
        self.on_resize(app.size)

    def on_resize(self, size: tuple[int, int]) -> None:
        set_zoom(size)
        self.button.rect = pygame.Rect(0, 0, px(240), px(50))
        self.button.rect.center = (size[0] // 2, size[1] // 2 + px(60))

    def ready(self) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()
        self.on_ready()

    def back(self) -> bool:
        return True  # Esc must not reveal anything

    def animating(self) -> bool:
        return False

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (
            pygame.K_RETURN,
            pygame.K_KP_ENTER,
            pygame.K_SPACE,
        ):
            self.ready()
            return
        self.button.handle_event(event)

    def update(self, dt: float) -> None:
        self.button.update(dt)
        self.keep_time()

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(backdrop(surface.get_size()), (0, 0))
        w, h = surface.get_size()
        rect = pygame.Rect(0, 0, min(px(520), w - 40), px(260))
        rect.center = (w // 2, h // 2)
        draw_panel(surface, rect, border=theme.ACCENT)
        pygame.draw.circle(surface, self.colour, (rect.centerx, rect.y + px(44)), px(20))
        label(
            surface,
            f"Pass to {self.name}",
            (rect.centerx, rect.y + px(72)),
            size=28,
            bold=True,
            anchor="midtop",
        )
        label(
            surface,
            self.note,
            (rect.centerx, rect.y + px(114)),
            size=15,
            colour=theme.TEXT_MUTED,
            anchor="midtop",
            width=rect.width - 40,
        )
        self.button.draw(surface)


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


class MenuScene(KeepsTime, Scene):
    """A column of (label, tooltip, run) buttons; a click closes the menu, then runs it."""

    transparent = True

    def __init__(
        self, app: App, title: str, actions: list[tuple[str, str, Callable[[], object]]]
    ) -> None:
        super().__init__(app)
        self.title = title
        self.buttons = [
            ZButton(text, pygame.Rect(0, 0, 260, 44), self._closing(run), tooltip=tip)
            for text, tip, run in actions
        ]
        self.buttons[0].primary = True
        self.on_resize(app.size)

    def _closing(self, run: Callable[[], object]) -> Callable[[], None]:
        def go() -> None:
            if self.app.stack and self.app.scene is self:
                self.app.pop()
            run()

        return go

    def animating(self) -> bool:
        return False

    def on_resize(self, size: tuple[int, int]) -> None:
        set_zoom(size)
        step = min(px(52), (size[1] - px(110)) // max(1, len(self.buttons)))
        top = size[1] // 2 - len(self.buttons) * step // 2 + px(20)
        for i, button in enumerate(self.buttons):
            button.rect = pygame.Rect(0, 0, px(260), min(px(44), step - 6))
            button.rect.midtop = (size[0] // 2, top + step * i)

    def handle_event(self, event: pygame.event.Event) -> None:
        for button in self.buttons:
            if button.handle_event(event):
                return

    def update(self, dt: float) -> None:
        for button in self.buttons:
            button.update(dt)
        self.keep_time()

    def draw(self, surface: pygame.Surface) -> None:
        veil(surface)
        first, last = self.buttons[0].rect, self.buttons[-1].rect
        rect = pygame.Rect(0, 0, first.width + px(60), last.bottom - first.top + px(90))
        rect.midtop = (first.centerx, first.y - px(64))
        draw_panel(surface, rect, border=theme.ACCENT, alpha=250)
        label(
            surface,
            self.title,
            (rect.centerx, rect.y + px(16)),
            size=22,
            bold=True,
            anchor="midtop",
        )
        for button in self.buttons:
            button.draw(surface)
        for button in self.buttons:
            button.draw_tooltip(surface)
