"""Choosing the pack to play, with the validator's findings in a panel.

The player types a folder (or picks the shipped pack); it is checked with the pack
loader, which never raises for bad content, and every problem is listed (errors first,
scroll with the wheel). A pack with no map for two armies is refused; nothing here can
crash on a bad pack.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
from pygame_gui.elements import UITextEntryLine

from suite.tactics.assets.check import summary
from suite.tactics.assets.model import Pack, Problem
from suite.tactics.assets.pack import load_pack
from suite.tactics.rules.packs import playable_maps
from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.dialogs import veil
from suite.ui.scale import px, ui_factor
from suite.ui.widgets import Button, draw_panel, draw_text, fit_text

ROW = 20


def problem_lines(pack: Pack) -> list[tuple[str, bool]]:
    """(text, is_error) per problem, errors first, as `file:line: message`."""
    ordered = sorted(pack.problems, key=lambda p: (not p.is_error, p.file, p.line))
    return [(_short(p), p.is_error) for p in ordered]


def _short(problem: Problem) -> str:
    name = Path(problem.file).name if problem.file else "pack"
    where = f"{name}:{problem.line}" if problem.line else name
    return f"{where}: {problem.severity.value}: {problem.message}"


def check_folder(folder: str) -> tuple[Pack | None, str]:
    """Load the pack in `folder`; (pack, verdict) or (None, why it cannot be used)."""
    path = Path(folder).expanduser()
    if not path.is_dir():
        return None, f"{folder}: no such folder"
    try:
        pack = load_pack(path)
    except (OSError, ValueError) as exc:
        return None, f"{folder}: {exc}"
    if not playable_maps(pack, 2):
        return pack, "not playable: no map has starts for two armies"
    return pack, "playable"


class PackScene(Scene):
    """The pack panel: a folder entry, Check, Use, Shipped pack, and the problem list.

    `on_use(folder)` ("" = shipped) returns True when the setup took the pack."""

    transparent = True

    def __init__(self, app: App, current: Pack, folder: str, on_use: Callable[[str], bool]) -> None:
        super().__init__(app)
        self.make_ui()
        self.on_use = on_use
        self.pack: Pack | None = current
        self.folder = folder
        self.verdict = "in use"
        self.scroll = 0
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.k = 1.0
        self.entry: UITextEntryLine | None = None
        self.check_button = Button(
            "Check",
            pygame.Rect(0, 0, 100, 34),
            self.check,
            font_size=15,
            tooltip="Load the folder and list its problems",
        )
        self.use_button = Button(
            "Use this pack",
            pygame.Rect(0, 0, 150, 34),
            self.use,
            primary=True,
            font_size=15,
            tooltip="Play battles with this folder's pack",
        )
        self.shipped_button = Button(
            "Shipped pack",
            pygame.Rect(0, 0, 150, 34),
            self.use_shipped,
            font_size=15,
            tooltip="Go back to the pack that comes with the suite",
        )
        self.close_button = Button(
            "Close",
            pygame.Rect(0, 0, 100, 34),
            self.close,
            font_size=15,
            tooltip="Keep the current pack (Esc)",
        )
        self._sizes = [button.rect.size for button in self.buttons]  # at UI factor 1
        self.on_resize(app.size)

    @property
    def buttons(self) -> list[Button]:
        return [self.check_button, self.use_button, self.shipped_button, self.close_button]

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        k = self.k = ui_factor(size)
        self.rect = pygame.Rect(0, 0, min(w - 40, px(900, k)), min(h - 40, px(620, k)))
        self.rect.center = (w // 2, h // 2)
        for button, (width, height) in zip(self.buttons, self._sizes, strict=True):
            button.rect.size = (px(width, k), px(height, k))
            button.font_size = px(15, k)
        x, y = self.rect.x + 20, self.rect.y + px(56, k)
        entry_rect = pygame.Rect(x, y, self.rect.width - px(160, k), px(34, k))
        if self.entry is None and self.ui is not None:
            self.entry = UITextEntryLine(
                entry_rect,
                self.ui,
                initial_text=self.folder,
                placeholder_text="pack folder (holds tactics_ini.txt)",
            )
        elif self.entry is not None:
            self.entry.set_relative_position(entry_rect.topleft)
            self.entry.set_dimensions(entry_rect.size)
        self.check_button.rect.topleft = (entry_rect.right + 10, y)
        bottom = self.rect.bottom - px(50, k)
        self.close_button.rect.topright = (self.rect.right - 20, bottom)
        self.shipped_button.rect.topright = (self.close_button.rect.x - 10, bottom)
        self.use_button.rect.topright = (self.shipped_button.rect.x - 10, bottom)

    def _typed(self) -> str:
        return self.entry.get_text().strip() if self.entry is not None else self.folder

    def check(self) -> None:
        folder = self._typed()
        if not folder:
            self.verdict = "type a folder, or use the shipped pack"
            return
        self.pack, self.verdict = check_folder(folder)
        self.folder = folder
        self.scroll = 0

    def use(self) -> None:
        self.check()
        if self.pack is not None and self.verdict == "playable" and self.on_use(self.folder):
            self.close()

    def use_shipped(self) -> None:
        if self.on_use(""):
            self.close()

    def close(self) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.check()
            return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - event.y * 3)
            return
        for button in self.buttons:
            if button.handle_event(event):
                return

    def animating(self) -> bool:
        """Nothing here moves by itself: drawn after input only (the app keeps drawing a
        moment after each input for hover and tooltips)."""
        return False

    def update(self, dt: float) -> None:
        for button in self.buttons:
            button.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        veil(surface, 190)
        draw_panel(surface, self.rect, border=theme.ACCENT, alpha=252)
        k = self.k
        draw_text(
            surface,
            "Tactics pack",
            (self.rect.x + 20, self.rect.y + px(14, k)),
            size=px(22, k),
            bold=True,
        )
        y = self.rect.y + px(100, k)
        width = self.rect.width - 40
        if self.pack is not None:
            draw_text(
                surface,
                fit_text(summary(self.pack), px(14, k), width),
                (self.rect.x + 20, y),
                size=px(14, k),
                colour=theme.TEXT_MUTED,
            )
        ok = self.verdict in ("playable", "in use")
        draw_text(
            surface,
            fit_text(f"Verdict: {self.verdict}", px(15, k), width, True),
            (self.rect.x + 20, y + px(22, k)),
            size=px(15, k),
            bold=True,
            colour=theme.SUCCESS if ok else theme.DANGER,
        )
        box = pygame.Rect(
            self.rect.x + 20, y + px(50, k), width, self.use_button.rect.y - y - px(62, k)
        )
        pygame.draw.rect(surface, (10, 12, 20), box, border_radius=6)
        lines = problem_lines(self.pack) if self.pack is not None else []
        if not lines:
            draw_text(
                surface,
                "No problems found.",
                (box.x + 10, box.y + 8),
                size=px(14, k),
                colour=theme.TEXT_MUTED,
            )
        row = px(ROW, k)
        room = max(1, (box.height - 12) // row)
        self.scroll = min(self.scroll, max(0, len(lines) - room))
        for i, (text, error) in enumerate(lines[self.scroll : self.scroll + room]):
            colour = theme.DANGER if error else theme.TEXT
            draw_text(
                surface,
                fit_text(text, px(13, k), box.width - 20),
                (box.x + 10, box.y + 6 + i * row),
                size=px(13, k),
                colour=colour,
            )
        if len(lines) > room:
            last = min(len(lines), self.scroll + room)
            more = f"{self.scroll + 1}-{last} of {len(lines)} (wheel to scroll)"
            draw_text(
                surface,
                more,
                (box.right - 8, box.bottom + 4),
                size=px(12, k),
                colour=theme.TEXT_MUTED,
                anchor="topright",
            )
        for button in self.buttons:
            button.draw(surface)
        for button in self.buttons:
            button.draw_tooltip(surface)
