"""The launcher's game cards: what each game shows, whether it can open, and the drawing.

Every card comes from the game's registered `GameSpec` (title, blurb, launcher order) and
the desktop UI object its `ui` names ("module:attribute", a `GameUI`: art, tags, tooltip
and `open_setup`). A game whose spec names no UI, or whose UI module does not exist yet,
is "coming soon"; one whose UI cannot be used is "unavailable" and says why.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from suite.core.match import GameSpec, registered_games
from suite.ui import card_art, theme
from suite.ui.app import App, Scene
from suite.ui.widgets import Hover, draw_panel, draw_text, fit_lines, text_image

log = logging.getLogger(__name__)

OpenSetup = Callable[[App], Scene]
Art = Callable[[tuple[int, int]], pygame.Surface]


@dataclass(frozen=True)
class GameUI:
    """A game's desktop face, exported by its screens package and named by its spec's `ui`.

    `open_setup(app)` returns the game's set-up scene; `art(size)` draws the card picture.
    """

    open_setup: OpenSetup
    art: Art
    tooltip: str
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameInfo:
    """What a card shows for one game."""

    key: str  # the registered game name
    title: str
    blurb: str
    tooltip: str
    tags: tuple[str, ...]
    art: Art


def load_ui(spec: GameSpec) -> tuple[GameUI | None, str | None]:
    """Import the `GameUI` that `spec.ui` names.

    Returns (ui, None) when the game can be opened, (None, None) when it has no screens
    yet (coming soon), and (None, problem) when they exist but cannot be used (the problem
    is logged and shown to the player on click).
    """
    if not spec.ui:
        return None, None
    module_name, _, attribute = spec.ui.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            return None, None
        log.exception("cannot import %s", module_name)
        return None, f"missing module {exc.name}"
    except Exception as exc:  # a broken game must not take the launcher down
        log.exception("cannot import %s", module_name)
        return None, f"{type(exc).__name__}: {exc}"
    ui = getattr(module, attribute or "UI", None)
    if not isinstance(ui, GameUI):
        return None, f"{spec.ui} is not a GameUI"
    return ui, None


def game_cards() -> list[GameCard]:
    """One card per registered game, in the specs' launcher order."""
    cards = []
    for spec in sorted(registered_games().values(), key=lambda s: (s.order, s.name)):
        ui, problem = load_ui(spec)
        info = GameInfo(
            key=spec.name,
            title=spec.title,
            blurb=spec.blurb,
            tooltip=ui.tooltip if ui else spec.blurb,
            tags=ui.tags if ui else (),
            art=ui.art if ui else card_art.placeholder_art(spec.title),
        )
        cards.append(GameCard(info, ui.open_setup if ui else None, problem))
    return cards


@dataclass
class GameCard:
    """One game's card: its state, hover animation and cached artwork."""

    info: GameInfo
    open_setup: OpenSetup | None
    problem: str | None
    rect: pygame.Rect = field(default_factory=pygame.Rect)
    hover: Hover = field(default_factory=Hover)
    lift: float = 0.0  # 0..1, eases towards 1 while hovered
    zoom: float = 1.0  # text scale of the last draw
    _art: pygame.Surface | None = None

    @property
    def available(self) -> bool:
        return self.open_setup is not None

    @property
    def status(self) -> str:
        if self.available:
            return "Play"
        return "Unavailable" if self.problem else "Coming soon"

    def art(self, size: tuple[int, int]) -> pygame.Surface:
        """The card's artwork at `size`, greyed when unavailable, with rounded top corners."""
        if self._art is None or self._art.get_size() != size:
            picture = self.info.art(size)
            if not self.available:
                picture = card_art.greyed(picture)
            rounded = pygame.Surface(size, pygame.SRCALPHA)
            rounded.blit(picture, (0, 0))
            mask = pygame.Surface(size, pygame.SRCALPHA)
            pygame.draw.rect(
                mask,
                (255, 255, 255, 255),
                mask.get_rect(),
                border_top_left_radius=16,
                border_top_right_radius=16,
            )
            rounded.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
            self._art = rounded
        return self._art

    def draw(self, surface: pygame.Surface, *, focused: bool = False, zoom: float = 1.0) -> None:
        """Paint the card at its rect: lifted while hovered, outlined when hovered or
        `focused`; `zoom` (>= 1) scales text and chips up for big windows."""
        self.zoom = zoom
        rect = self.rect.move(0, -round(8 * self.lift))
        hot = self.hover.inside or focused
        border = theme.ACCENT if hot and self.available else theme.PANEL_BORDER
        if hot and not self.available:
            border = theme.TEXT_MUTED
        draw_panel(
            surface,
            rect,
            colour=theme.PANEL,
            border=border,
            radius=16,
            shadow=6 + round(6 * self.lift),
            border_width=2 if hot else 1,
        )
        art_rect = self.art_rect(rect)
        surface.blit(self.art(art_rect.size), art_rect)
        pygame.draw.line(
            surface,
            border if hot else theme.PANEL_BORDER,
            art_rect.bottomleft,
            art_rect.bottomright,
            2,
        )
        if not self.available:
            self._ribbon(surface, art_rect)
        text_colour = theme.TEXT if self.available else theme.DISABLED
        pad = 22
        y = art_rect.bottom + 14
        title_size = max(24, min(round(34 * self.zoom), rect.width // 12))
        blurb = self._px(17)
        draw_text(
            surface,
            self.info.title,
            (rect.x + pad, y),
            size=title_size,
            bold=True,
            colour=theme.HOVER if hot and self.available else text_colour,
        )
        y += theme.font(title_size, True).get_linesize() + 2
        room = (rect.bottom - self._px(60) - y) // theme.font(blurb).get_linesize()
        for line in fit_lines(self.info.blurb, blurb, rect.width - 2 * pad, room):
            draw_text(
                surface,
                line,
                (rect.x + pad, y),
                size=blurb,
                colour=theme.TEXT_MUTED if self.available else theme.DISABLED,
            )
            y += theme.font(blurb).get_linesize()
        self._tags(surface, rect)
        if self.available:
            self._play_pill(surface, rect, hot)

    def art_rect(self, rect: pygame.Rect | None = None) -> pygame.Rect:
        """Where the picture goes on the card (at `rect`, default the card's own)."""
        rect = self.rect if rect is None else rect
        art_h = max(100, min(int(rect.height * 0.72), rect.height - round(200 * self.zoom)))
        return pygame.Rect(rect.x + 2, rect.y + 2, rect.width - 4, art_h)

    def _ribbon(self, surface: pygame.Surface, art_rect: pygame.Rect) -> None:
        text = self.status.upper()
        image = text_image(text, self._px(18), (20, 20, 24), True)
        band = pygame.Rect(0, 0, image.get_width() + 36, image.get_height() + 10)
        band.center = art_rect.center
        draw_panel(
            surface,
            band,
            colour=(200, 200, 206),
            border=None,
            radius=band.height // 2,
            shadow=4,
            alpha=235,
        )
        surface.blit(image, image.get_rect(center=band.center))

    def _tags(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """Small chips naming the game's features, along the bottom of the self."""
        x, bottom = rect.x + 22, rect.bottom - 24
        limit = rect.right - (self._px(150) if self.available else 22)
        for tag in self.info.tags:
            ink = theme.TEXT_MUTED if self.available else theme.DISABLED
            image = text_image(tag, self._px(14), ink, True)
            chip = pygame.Rect(x, 0, image.get_width() + 20, self._px(28))
            chip.bottom = bottom
            if chip.right > limit:
                break
            pygame.draw.rect(
                surface,
                theme.PANEL_LIGHT if self.available else theme.PANEL,
                chip,
                border_radius=chip.height // 2,
            )
            pygame.draw.rect(surface, theme.PANEL_BORDER, chip, 1, border_radius=chip.height // 2)
            surface.blit(image, image.get_rect(center=chip.center))
            x = chip.right + 8

    def _px(self, pixels: int) -> int:
        return round(pixels * self.zoom)

    def _play_pill(self, surface: pygame.Surface, rect: pygame.Rect, hot: bool) -> None:
        ink = (24, 18, 8)
        image = text_image("PLAY", self._px(16), ink, True)
        pill = pygame.Rect(0, 0, image.get_width() + 52, self._px(38))
        pill.midright = (rect.right - 20, rect.bottom - 24 - self._px(28) // 2)  # on the tag row
        draw_panel(
            surface,
            pill,
            colour=theme.HOVER if hot else theme.ACCENT,
            border=theme.ACCENT_DARK,
            radius=pill.height // 2,
            shadow=3,
            alpha=255,
        )
        text = image.get_rect(midleft=(pill.x + 18, pill.centery))
        surface.blit(image, text)
        x, y = text.right + 8, pill.centery
        pygame.draw.polygon(surface, ink, [(x, y - 6), (x + 10, y), (x, y + 6)])
