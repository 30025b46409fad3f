"""The guided first turn (issue 23 item 1).

`Guide(scene)` walks a newcomer through the first turn over the game screen: how a turn
works, the home province, each order tab in the order its phase runs (what the phase
does, in the rule set's own words from `helptext.PHASES`, and where an order can be
entered now, "Try it": the step moves on by itself once the player has added one), and
what Ready means. A box over the map holds the text and the Next / Skip tour buttons; the
control a step is about is outlined. Everything else keeps working: the player plays the
turn while reading. Esc or Skip tour ends it.

The tour is offered once per profile: `guide_offered(name)` / `remember_offered(name)`
keep the names of the profiles that were offered it in the user data folder (a missing
or unreadable file means nobody was).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from suite.core.store import SaveError, load_document, save_document
from suite.paths import user_data_dir
from suite.ui import theme
from suite.ui.widgets import draw_panel, wrap_text
from suite.wok.rules.draft import NEEDS_TARGET, ORDER_PHASE, TITLES, Phase
from suite.wok.rules.helptext import PHASES as PHASE_TEXT
from suite.wok.screens.kit import ZButton, label, px

if TYPE_CHECKING:
    from suite.wok.screens.game import GameScene

GUIDE_KIND = "wok-guide"
MAX_PROFILES = 200  # names kept in the file (the oldest go first)
TRY: dict[Phase, str] = {
    "attacks": "click {home}, then an outlined neighbour; set the armies (keep some at "
    "home) and press Add order",
    "transforms": "click {home}, choose the kind (POP->ARM makes armies), set the amount "
    "and press Add order",
    "troops": "click {home}, choose the change (ARM->PIK...), set the amount and press Add order",
    "aims": "click {home}, choose what its workers make and press Add order",
}
"""The phases whose first order the tour asks for, and how to enter it."""


def guide_file() -> Path:
    return user_data_dir() / "wok" / "guide.json"


def _offered() -> list[str]:
    try:
        data = load_document(guide_file(), GUIDE_KIND)
    except SaveError:
        return []
    names = data.get("offered") if isinstance(data, dict) else None
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def guide_offered(profile: str) -> bool:
    """Whether the profile named `profile` was offered the guided first turn."""
    return profile in _offered()


def remember_offered(profile: str) -> None:
    """Note that `profile` was offered the tour (a failure to write is ignored: the tour
    is offered again next time, nothing is lost)."""
    names = [n for n in _offered() if n != profile][-(MAX_PROFILES - 1) :] + [profile]
    with contextlib.suppress(SaveError, OSError):
        save_document(guide_file(), GUIDE_KIND, {"offered": names})


@dataclass
class Step:
    """One box of the tour: `target` outlines a control, `done` moves on by itself,
    `phase` opens that order tab."""

    title: str
    text: str
    target: Callable[[], pygame.Rect | None] = lambda: None
    done: Callable[[], bool] | None = None
    phase: Phase | None = None


class Guide:
    """The tour over `scene` (see the module docstring); `active` is False once it ends."""

    def __init__(self, scene: GameScene) -> None:
        self.scene = scene
        self.steps = self._steps()
        self.index = 0
        self.active = True
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.next_button = ZButton("Next", pygame.Rect(0, 0, 90, 30), self.next, primary=True)
        self.skip_button = ZButton(
            "Skip tour", pygame.Rect(0, 0, 110, 30), self.close, tooltip="End the guided turn"
        )
        self._enter()

    # -- the steps ----------------------------------------------------------------------------

    def _steps(self) -> list[Step]:
        s = self.scene
        v = s.view
        colour = s.form.colour
        home = v.colours[0].homes[0] if v.colours and v.colours[0].homes else None
        name = v.map.provinces[home].name if home is not None else "your province"
        rules = v.rules
        quiet = [p for p in rules.phases if p not in ORDER_PHASE]
        steps = [
            Step(
                "Your first turn",
                f"{rules.title}: every player writes secret orders; when all are Ready the "
                f"turn runs for everyone at once, phase by phase, in the order of the tabs "
                f"on the right ({', '.join(quiet)} need no orders). This guide shows what "
                "each phase does and lets you enter one order of each kind that you can "
                "give now. Skip it any time (Esc).",
            ),
            Step(
                "Your home",
                f"{name} is your home province (outlined). Hover any province for its "
                "figures under the map: POP people, WOK workers, ARM armies, DEF defence, "
                "MIS missiles, SPY spies and the workers' aim. A start province is safe "
                f"from attack through turn {v.variant.protect_home_until}.",
                target=lambda: s.mapview.bounds(home) if home is not None else None,
            ),
        ]
        for i, phase in enumerate(s.form.phases, 1):
            engine = next(p for p in rules.phases if ORDER_PHASE.get(p) == phase)
            text = PHASE_TEXT[engine](rules)
            plan = s.form.planner
            why = plan.no_sources(colour, phase) if plan is not None else None
            can_try = phase in TRY and why is None and home is not None
            if plan is not None and phase in NEEDS_TARGET and home is not None and can_try:
                can_try = bool(plan.targets(colour, phase, home))
            if can_try:
                text += " Try it: " + TRY[phase].format(home=name) + "."
            elif why:
                text += f" Not now: {why}."
            steps.append(
                Step(
                    f"{i}. {TITLES[phase]}",
                    text,
                    target=self._tab(phase),
                    done=self._added(phase) if can_try else None,
                    phase=phase,
                )
            )
        steps += [
            Step(
                "Ready",
                "When your orders are in, press Ready (R): they are sent and locked. The "
                "turn runs once every player is Ready; until then Unready (U) takes them "
                "back. Risky orders (a province left empty, poor odds) are pointed out "
                "before they go.",
                target=lambda: s.form.ready_button.rect,
                done=lambda: s.view.is_ready or s.view.turn > 1,
            ),
            Step(
                "What next",
                "After each turn its report opens: battles, bombs and spies, the Top Ten. "
                "F1 holds the rules in full; Menu > Guided turn shows this guide again.",
            ),
        ]
        return steps

    def _tab(self, phase: Phase) -> Callable[[], pygame.Rect | None]:
        return lambda: self.scene.form.tabs[phase].rect

    def _added(self, phase: Phase) -> Callable[[], bool]:
        form = self.scene.form
        start = len(form.draft.of(form.colour, phase))
        return lambda: len(form.draft.of(form.colour, phase)) > start

    # -- moving through ------------------------------------------------------------------------

    @property
    def step(self) -> Step:
        return self.steps[self.index]

    def _enter(self) -> None:
        step = self.step
        if step.phase is not None and not self.scene.form.locked:
            self.scene.form.set_phase(step.phase)
        if step.done is not None:  # counted from now: an order entered earlier is not it
            step.done = self._restart(step)
        self.next_button.label = (
            "Skip step"
            if step.done is not None
            else ("Finish" if self.index == len(self.steps) - 1 else "Next")
        )

    def _restart(self, step: Step) -> Callable[[], bool]:
        if step.phase is not None:
            return self._added(step.phase)
        assert step.done is not None
        return step.done

    def next(self) -> None:
        if self.index + 1 >= len(self.steps):
            self.close()
            return
        self.index += 1
        self._enter()

    def close(self) -> None:
        self.active = False

    def update(self, dt: float) -> bool:
        """Move on when the step's task is done; True when something changed."""
        self.next_button.update(dt)
        self.skip_button.update(dt)
        if self.active and self.step.done is not None and self.step.done():
            self.next()
            return True
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        """The box's buttons; a click inside the box goes no further."""
        for button in (self.next_button, self.skip_button):
            if button.handle_event(event):
                return True
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and bool(
            self.rect.collidepoint(event.pos)
        )

    # -- drawing -----------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """The outline round the step's control, then the box where it covers nothing the
        step is about (the map area's bottom, else its top)."""
        area = self.scene.mapview.rect
        target = self.step.target()
        if target is not None:
            pygame.draw.rect(surface, theme.ACCENT, target.inflate(8, 8), 3, border_radius=8)
        width = min(px(460), area.width - 12)
        lines = wrap_text(self.step.text, px(14), width - 24)
        lh = px(19)
        height = px(34) + lh * len(lines) + px(46)
        self.rect = self._place(area, width, height, target)
        draw_panel(surface, self.rect, colour=(20, 26, 40), border=theme.ACCENT, radius=10)
        x, y = self.rect.x + 12, self.rect.y + px(8)
        count = f"{self.index + 1}/{len(self.steps)}"
        label(surface, self.step.title, (x, y), size=17, bold=True, colour=theme.ACCENT)
        label(surface, count, (self.rect.right - 12, y + px(3)), size=13, anchor="topright")
        y += px(28)
        for i, text in enumerate(lines):
            label(surface, text, (x, y + i * lh), size=14, width=width - 24)
        by = self.rect.bottom - px(38)
        self.next_button.rect = pygame.Rect(0, by, px(110), px(30))
        self.next_button.rect.right = self.rect.right - 12
        self.skip_button.rect = pygame.Rect(x, by, px(110), px(30))
        self.next_button.draw(surface)
        self.skip_button.draw(surface)

    def _place(
        self, area: pygame.Rect, width: int, height: int, target: pygame.Rect | None
    ) -> pygame.Rect:
        """A map corner for the box that covers least of the step's control and of the
        provinces the player clicks (the home and its neighbours): the bottom left first."""
        view, mapview = self.scene.view, self.scene.mapview
        homes = [p for c in view.colours for p in c.homes]
        near = {n for p in homes for n in view.map.provinces[p].neighbours} | set(homes)
        keep = [mapview.bounds(p) for p in sorted(near)] + ([target] if target else [])
        corners = [
            pygame.Rect(x, y, width, height)
            for y in (area.bottom - 6 - height, area.y + 6)
            for x in (area.x + 6, area.right - 6 - width)
        ]

        def covered(box: pygame.Rect) -> int:
            return sum(box.clip(r).width * box.clip(r).height for r in keep)

        return min(corners, key=covered)  # the first of the least covered

    def draw_tooltip(self, surface: pygame.Surface) -> None:
        self.skip_button.draw_tooltip(surface)
