"""The launcher: the first screen of the suite.

One large card per registered game (`suite.ui.game_cards`: everything on a card comes from
the game's spec and its `GameUI`), the player's profile name, the settings (volume,
fullscreen), Online (host or join a match on a server: `suite.net.screens.OnlineScene`,
imported only when opened) and quit. A card opens its game's set-up scene through its
UI's `open_setup`; while a game has no screens its card is greyed with "coming soon" and
clicking it only shows a short notice.
"""

from __future__ import annotations

import logging
import os
import sys

import pygame
import pygame_gui
from pygame_gui.elements import UIHorizontalSlider, UITextEntryLine

from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.backdrop import backdrop
from suite.ui.dialogs import ConfirmScene
from suite.ui.game_cards import GameCard, game_cards
from suite.ui.settings import MAX_NAME_LENGTH, clean_name, settings_path
from suite.ui.widgets import (
    Button,
    Hover,
    TooltipArea,
    draw_emblem,
    draw_panel,
    draw_text,
    draw_tooltip,
)

log = logging.getLogger(__name__)

NO_DISPLAY = (
    "No display found: the suite needs a desktop session to open its window "
    "(set SDL_VIDEODRIVER=dummy only for headless tests)."
)
SAVE_DELAY = 0.8  # seconds after the last settings change before it is written
FIGURE_ROOM = 90  # pixels after the volume slider for its figure ("100%")
BUTTON_GAP = 12  # pixels between the footer's buttons


class LauncherScene(Scene):
    """The root scene: game cards, profile, settings and quit."""

    def __init__(self, app: App, cards: list[GameCard] | None = None) -> None:
        super().__init__(app)
        self.cards = game_cards() if cards is None else cards
        self.focus = 0  # card selected with the keyboard
        self.keyboard = False  # show the focus ring only while the keyboard is in use
        self._blip_wait = 0.0  # seconds until the volume slider may click again
        self._pressed: GameCard | None = None  # card under the last left-button press
        self._save_in: float | None = None
        self.name_entry: UITextEntryLine | None = None
        self.volume_slider: UIHorizontalSlider | None = None
        self.fullscreen_button = Button(
            "",
            pygame.Rect(0, 0, 0, 0),
            self.app.toggle_fullscreen,
            tooltip="Switch between a window and the whole screen (F11)",
        )
        self.name_hint = TooltipArea(pygame.Rect(0, 0, 0, 0), "Your name in every game and match")
        self.volume_hint = TooltipArea(pygame.Rect(0, 0, 0, 0), "Volume of the suite's sounds")
        self.online_button = Button(
            "Online",
            pygame.Rect(0, 0, 0, 0),
            self.open_online,
            tooltip="Host or join a match with players on other computers (O)",
        )
        self.quit_button = Button(
            "Quit",
            pygame.Rect(0, 0, 0, 0),
            self.app.quit,
            tooltip="Close the suite (your settings are kept)",
        )
        self.make_ui()
        self.on_resize(app.size)

    # -- layout ----------------------------------------------------------------------------

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        self.zoom = max(1.0, min(1.4, h / 800, w / 1280))
        self.margin = max(28, w // 28)
        self.header = pygame.Rect(self.margin, 18, w - 2 * self.margin, max(96, h // 7))
        self.footer = pygame.Rect(self.margin, h - 86, w - 2 * self.margin, 64)
        gap = max(20, w // 48)
        top = self.header.bottom + 8
        card_w = (w - 2 * self.margin - 2 * gap) // 3
        card_h = self.footer.top - top - 30
        for i, card in enumerate(self.cards):
            card.rect = pygame.Rect(self.margin + i * (card_w + gap), top, card_w, card_h)
        self.name_rect = pygame.Rect(0, 0, min(280, w // 4), 42)
        self.name_rect.midright = (self.header.right, self.header.centery + 8)
        y = self.footer.centery
        self.volume_rect = pygame.Rect(self.footer.x + 130, y - 14, min(300, w // 6), 28)
        self.name_hint.rect = self.name_rect
        self.volume_hint.rect = self.volume_rect
        self._place_buttons()
        self._build_widgets()

    def _place_buttons(self) -> None:
        """Fullscreen after the volume's figure; Online and Quit at the right end. On a
        narrow window the three shrink alike (down to what their labels need) rather than
        overlap."""
        y = self.footer.centery
        left = self.volume_rect.right + FIGURE_ROOM
        right = self.footer.right - 14
        wanted = [(self.fullscreen_button, 210), (self.online_button, 140), (self.quit_button, 140)]
        room = right - left - 2 * BUTTON_GAP
        shrink = min(1.0, room / sum(width for _, width in wanted))
        for button, width in wanted:
            button.rect = pygame.Rect(0, 0, round(width * shrink), 44)
        self.fullscreen_button.rect.midleft = (left, y)
        self.quit_button.rect.midright = (right, y)
        self.online_button.rect.midright = (self.quit_button.rect.left - BUTTON_GAP, y)

    def _build_widgets(self) -> None:
        """(Re)create the pygame_gui widgets at the current layout, keeping their values."""
        assert self.ui is not None
        for element in (self.name_entry, self.volume_slider):
            if element is not None:
                element.kill()  # type: ignore[no-untyped-call]
        self.name_entry = UITextEntryLine(self.name_rect, self.ui, object_id="#profile_name")
        self.name_entry.set_text_length_limit(MAX_NAME_LENGTH)
        self.name_entry.set_text(self.app.settings.name)
        self.volume_slider = UIHorizontalSlider(
            self.volume_rect,
            self.app.settings.volume,
            (0, 100),
            self.ui,
            object_id="#volume",
            click_increment=5,
        )

    @property
    def buttons(self) -> list[Button]:
        """The footer's buttons, left to right."""
        return [self.fullscreen_button, self.online_button, self.quit_button]

    # -- input -----------------------------------------------------------------------------

    def open_card(self, card: GameCard) -> None:
        """Open the card's game set-up scene, or say why it cannot be opened."""
        if card.open_setup is None:
            if card.problem:
                self.app.notify(f"{card.info.title} cannot start: {card.problem}", 5.0)
            else:
                self.app.notify(f"{card.info.title} is coming soon.")
            return
        self.app.audio.play("ui/open")
        try:
            scene = card.open_setup(self.app)
        except Exception as exc:  # a broken game must not take the launcher down
            log.exception("open_setup of %s failed", card.info.key)
            self.app.notify(f"{card.info.title} cannot start: {exc}", 5.0)
            return
        self.app.push(scene)

    def open_online(self) -> None:
        """The Online screen: host a match on this computer or a server, or join one."""
        try:
            from suite.net.screens.lobby import OnlineScene

            scene = OnlineScene(self.app)
        except Exception as exc:  # a missing network library must not take the launcher down
            log.exception("the Online screen failed to open")
            self.app.notify(f"Online play cannot start: {exc}", 5.0)
            return
        self.app.audio.play("ui/open")
        self.app.push(scene)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.name_entry:
            self.app.settings.name = clean_name(event.text)
            self._changed()
        elif (
            event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.name_entry
        ):
            self.app.settings.name = clean_name(event.text)
            if self.name_entry is not None:
                self.name_entry.set_text(self.app.settings.name)
                self.name_entry.unfocus()
            self._changed(now=True)
        elif (
            event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED
            and event.ui_element is self.volume_slider
        ):
            self.app.settings.volume = int(event.value)
            self.app.audio.volume = int(event.value)
            self._changed()
            if self._blip_wait <= 0:  # let the player hear the new level, not a buzz
                self.app.audio.play("ui/click")
                self._blip_wait = 0.15
        elif event.type == pygame.KEYDOWN:
            self._key(event)
        for hint in (self.name_hint, self.volume_hint):
            hint.handle_event(event)
        for button in self.buttons:
            if button.handle_event(event):
                if event.type == pygame.MOUSEBUTTONUP:
                    self.app.audio.play("ui/click")
                return
        for index, card in enumerate(self.cards):
            if card.hover.track(event, card.rect):
                self.focus = index
                self.keyboard = False
                self.app.audio.play("ui/hover")
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and event.button == 1:
            self._mouse_button(event)

    def _mouse_button(self, event: pygame.event.Event) -> None:
        """A card opens on a left-button release over the card the button went down on."""
        hit = next((card for card in self.cards if card.rect.collidepoint(event.pos)), None)
        if event.type == pygame.MOUSEBUTTONDOWN:
            self._pressed = hit
            return
        pressed, self._pressed = self._pressed, None
        if hit is not None and hit is pressed:
            self.open_card(hit)

    def _key(self, event: pygame.event.Event) -> None:
        if self.name_entry is not None and self.name_entry.is_focused:
            return
        steps = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1}
        if event.key in steps:
            self.keyboard = True
            self.focus = (self.focus + steps[event.key]) % len(self.cards)
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.open_card(self.cards[self.focus])
        elif event.key == pygame.K_o:
            self.open_online()

    def back(self) -> bool:
        """Esc leaves the name field first; otherwise, at the root, it asks before quitting."""
        if self.name_entry is not None and self.name_entry.is_focused:
            self.name_entry.unfocus()  # type: ignore[no-untyped-call]
            return True
        self.app.push(
            ConfirmScene(
                self.app,
                "Leave the war room?",
                "Your profile and settings are saved.",
                "Quit",
                self.app.quit,
                cancel_label="Stay",
            )
        )
        return True

    def _changed(self, now: bool = False) -> None:
        self._save_in = 0.0 if now else SAVE_DELAY

    def on_exit(self) -> None:
        self._flush()
        for card in self.cards:  # the mouse will be elsewhere when the launcher comes back
            card.hover = Hover()
            card.lift = 0.0

    def _flush(self) -> None:
        if self._save_in is not None:
            self._save_in = None
            self.app.save_settings()

    # -- frame -----------------------------------------------------------------------------

    def animating(self) -> bool:
        """Only while a card still eases up or down, or a settings change waits to be saved."""
        if self._save_in is not None:
            return True
        return any(abs((1.0 if c.hover.inside else 0.0) - c.lift) > 0.01 for c in self.cards)

    def update(self, dt: float) -> None:
        self._blip_wait -= dt
        if self._save_in is not None:
            self._save_in -= dt
            if self._save_in <= 0:
                self._flush()
        for card in self.cards:
            card.hover.update(dt)
            target = 1.0 if card.hover.inside else 0.0
            card.lift += (target - card.lift) * min(1.0, dt * 12)
        for button in self.buttons:
            button.update(dt)
        for hint in (self.name_hint, self.volume_hint):
            hint.update(dt)
        self.fullscreen_button.label = f"Fullscreen: {'On' if self.app.fullscreen else 'Off'}"

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(backdrop(surface.get_size()), (0, 0))
        self._draw_header(surface)
        for index, card in enumerate(self.cards):
            card.draw(surface, focused=self.keyboard and index == self.focus, zoom=self.zoom)
        self._draw_footer(surface)
        for card in self.cards:
            if card.hover.tooltip_due:
                draw_tooltip(
                    surface,
                    card.info.tooltip,
                    card.hover.mouse,
                    size=round(15 * self.zoom),
                    within=card.art_rect().move(0, -round(8 * card.lift)),
                )
        for button in self.buttons:
            button.draw_tooltip(surface)
        for hint in (self.name_hint, self.volume_hint):
            hint.draw_tooltip(surface)

    def _draw_header(self, surface: pygame.Surface) -> None:
        size = max(40, min(64, self.header.height // 2))
        emblem = pygame.Rect(self.header.x, 0, round(size * 1.25), round(size * 1.4))
        emblem.centery = self.header.centery + 4
        draw_emblem(surface, emblem)
        left = emblem.right + 18
        title = draw_text(
            surface,
            "WAR SUITE",
            (left, self.header.centery + 14),
            size=size,
            bold=True,
            colour=theme.ACCENT,
            anchor="bottomleft",
            shadow=True,
        )
        draw_text(
            surface,
            "Three games of conquest. One war room.",
            (left + 2, title.bottom + 2),
            size=18,
            colour=theme.TEXT_MUTED,
        )
        draw_text(
            surface,
            "COMMANDER",
            (self.name_rect.x + 2, self.name_rect.y - 6),
            size=13,
            bold=True,
            colour=theme.TEXT_MUTED,
            anchor="bottomleft",
        )

    def _draw_footer(self, surface: pygame.Surface) -> None:
        draw_panel(surface, self.footer, colour=theme.PANEL, radius=16, alpha=220)
        y = self.footer.centery
        draw_text(
            surface,
            "VOLUME",
            (self.footer.x + 24, y),
            size=14,
            bold=True,
            colour=theme.TEXT_MUTED,
            anchor="midleft",
        )
        draw_text(
            surface,
            f"{self.app.settings.volume}%",
            (self.volume_rect.right + 16, y),
            size=17,
            bold=True,
            anchor="midleft",
        )
        for button in self.buttons:
            button.draw(surface)
        hint = "Arrows choose  \u00b7  Enter opens  \u00b7  O online  \u00b7  Esc quits"
        room = self.online_button.rect.left - self.fullscreen_button.rect.right - 48
        if theme.font(14).size(hint)[0] <= room:
            draw_text(
                surface,
                hint,
                (self.online_button.rect.left - 24, y),
                size=14,
                colour=theme.TEXT_MUTED,
                anchor="midright",
            )


def _no_display() -> bool:
    """True on Linux/BSD when no X11 or Wayland session is there and no SDL driver is forced."""
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return False
    env = os.environ
    return not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("SDL_VIDEODRIVER"))


OFF_SCREEN_DRIVERS = ("offscreen", "dummy")


def _off_screen_fallback() -> str | None:
    """The off-screen driver SDL fell back to when no window system answered (a DISPLAY
    naming no running X server: SDL then draws where nobody sees it, and the suite would
    run on unseen), else None. A driver chosen through SDL_VIDEODRIVER is left alone."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return None
    pygame.display.init()
    driver = str(pygame.display.get_driver())
    return driver if driver in OFF_SCREEN_DRIVERS else None


def run_launcher(fullscreen: bool = False) -> int:
    """Open the suite's window on the launcher and run until the player quits.

    Returns the process exit code: 0 after a normal quit, 1 when no display is available
    (one sentence on stderr, no traceback), 130 after Ctrl+C in the terminal.
    """
    if _no_display():
        print(NO_DISPLAY, file=sys.stderr)
        return 1
    try:
        if _off_screen_fallback():
            where = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or "none"
            print(
                f"The suite could not open its window: no desktop session answered "
                f"(display {where}).",
                file=sys.stderr,
            )
            return 1
        app = App(settings_file=settings_path(), fullscreen=True if fullscreen else None)
    except pygame.error as exc:
        print(f"The suite could not open its window: {exc}.", file=sys.stderr)
        return 1
    app.push(LauncherScene(app))
    try:
        return app.run()
    except KeyboardInterrupt:  # Ctrl+C in the terminal that started the suite
        app.save_settings()
        return 130
    finally:
        app.close()
