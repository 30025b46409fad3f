"""The order form: one panel per phase with its limit, map-picked provinces, amounts with
max buttons, live validation with reasons, chances, the entered orders and Ready.

`OrderForm` edits a `Draft` through a `Planner` (both from the seat's view only). The game
scene feeds it map clicks (`pick`) and asks it what to highlight (`candidates`) and which
arrows to draw (`arrows`). Sending is the scene's job (`on_ready`, `on_unready`).
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from suite.ui import theme
from suite.ui.widgets import Button, draw_panel, wrap_text
from suite.wok.rules.draft import (
    HAS_AMOUNT,
    NEEDS_SOURCE,
    NEEDS_TARGET,
    PHASES,
    SHORT,
    TITLES,
    Draft,
    Order,
    Phase,
    Planner,
    build_order,
    kind_label,
    kinds_of,
    moves_all,
    order_text,
    phases_of,
    troop_pair,
)
from suite.wok.rules.orders import Attack, Bomb, Move, Spy
from suite.wok.rules.risks import order_risks
from suite.wok.rules.views import WokView
from suite.wok.screens.kit import Stepper, ZButton, label, px
from suite.wok.screens.mapdraw import Arrow, colour_of

ROW = 21
AMOUNT_DIGITS = 3  # an amount typed in the box keeps its last three digits
MESSAGE_LINES = 3  # validation, chances and preview lines when every field row is shown
AMOUNT_STEPS = ((-10, "-10"), (-1, "-1"), (1, "+1"), (10, "+10"))


class OrderForm:
    """The right-hand order panel (see the module docstring)."""

    def __init__(
        self,
        on_ready: Callable[[], None],
        on_unready: Callable[[], None],
        on_change: Callable[[], None],
    ) -> None:
        self.on_change = on_change
        self.view: WokView | None = None
        self.draft = Draft()
        self.planner: Planner | None = None
        self.phase: Phase = "attacks"
        self.colour = 0
        self.source: int | None = None
        self.target: int | None = None
        self.amount = 0
        self.rect = pygame.Rect(0, 0, 300, 400)
        self.tabs = {
            p: ZButton(SHORT[p], pygame.Rect(0, 0, 10, 10), self._tab(p), font_size=13)
            for p in PHASES
        }
        self.phases: tuple[Phase, ...] = PHASES
        self.kind = Stepper(pygame.Rect(0, 0, 200, 26), [], lambda _: self._kind_changed())
        self.steps = [
            ZButton(text, pygame.Rect(0, 0, 10, 10), self._nudge(by), font_size=13)
            for by, text in AMOUNT_STEPS
        ]
        self.max_button = ZButton(
            "Max",
            pygame.Rect(0, 0, 10, 10),
            self.set_max,
            font_size=13,
            tooltip="The most this order may send (M)",
        )
        self.add_button = ZButton(
            "Add order",
            pygame.Rect(0, 0, 10, 10),
            self.add,
            primary=True,
            font_size=15,
            tooltip="Add this order to your draft (Enter)",
        )
        self.clear_button = ZButton(
            "Clear",
            pygame.Rect(0, 0, 10, 10),
            self.clear_form,
            font_size=14,
            tooltip="Forget the picked provinces (right click)",
        )
        self.ready_button = ZButton(
            "Ready",
            pygame.Rect(0, 0, 10, 10),
            on_ready,
            primary=True,
            font_size=16,
            tooltip="Send your orders and lock them; the turn runs when everyone is ready (R)",
        )
        self.unready_button = ZButton(
            "Unready",
            pygame.Rect(0, 0, 10, 10),
            on_unready,
            font_size=16,
            tooltip="Unlock your orders to change them (U)",
        )
        self.colour_buttons: list[tuple[int, ZButton]] = []
        self.rows: list[tuple[pygame.Rect, Button, Button]] = []
        self.message: list[tuple[str, tuple[int, int, int]]] = []
        self.odds: float | None = None  # the planned order's chance of success, when known
        self._msg_lines = MESSAGE_LINES
        self.typing = False  # digits go into the amount box (after a click on it)
        self._fresh = False  # the next digit replaces the amount

    # -- wiring -----------------------------------------------------------------------------

    def _tab(self, phase: Phase) -> Callable[[], None]:
        return lambda: self.set_phase(phase)

    def _nudge(self, by: int) -> Callable[[], None]:
        return lambda: self.nudge(by)

    def load(self, view: WokView, draft: Draft) -> None:
        """Show `view`'s seat with `draft` (a new turn, another seat, or after sending)."""
        self.view = view
        self.draft = draft
        self.phases = phases_of(view)
        for i, p in enumerate(self.phases):
            self.tabs[p].tooltip = f"{TITLES[p]} orders (key {i + 1}; phases run in this order)"
        if self.phase not in self.phases:
            self.phase = "attacks" if "attacks" in self.phases else self.phases[0]
        alive = [c.colour for c in view.colours if c.alive]
        if self.colour not in alive and alive:
            self.colour = alive[0]
        self.colour_buttons = [
            (
                c.colour,
                ZButton(
                    c.letter or c.name,
                    pygame.Rect(0, 0, 10, 10),
                    self._colour(c.colour),
                    font_size=14,
                ),
            )
            for c in view.colours
            if c.alive
        ]
        for c, button in self.colour_buttons:
            button.tooltip = (
                f"Enter the orders of {next(x.name for x in view.colours if x.colour == c)}"
            )
        self.source = self.target = None
        self.set_phase(self.phase)
        self.layout(self.rect)

    def _colour(self, colour: int) -> Callable[[], None]:
        def go() -> None:
            self.colour = colour
            self.clear_form()

        return go

    @property
    def locked(self) -> bool:
        return self.view is None or not self.view.may_submit

    def refresh(self) -> None:
        """Rebuild the planner and the validation message after any change."""
        if self.view is None:
            return
        self.planner = Planner(self.view, self.draft)
        self._validate()
        self.on_change()

    # -- form actions -----------------------------------------------------------------------

    def set_phase(self, phase: Phase) -> None:
        self.phase = phase
        if self.view is not None:
            keep = self.kind.value
            self.kind.set_choices(kinds_of(self.view, phase), keep)
        self.source = self.target = None
        self.amount = 0
        self.typing = False
        self.layout(self.rect)
        self.refresh()

    def _kind_changed(self) -> None:
        self._clamp_amount(to_max=self.phase in ("transforms", "moves"))
        self.refresh()

    def clear_form(self) -> None:
        self.source = self.target = None
        self.amount = 0
        self.refresh()

    def pick(self, province: int) -> None:
        """A click on the map: the source (or province) first, then the target."""
        if self.locked or self.planner is None:
            return
        p = self.planner
        if self.phase not in NEEDS_SOURCE:
            return
        if self.phase in NEEDS_TARGET and self.source is not None and province != self.source:
            self.target = province
        elif province in p.sources(self.colour, self.phase):
            self.source = province
            self.target = None
            self._clamp_amount(to_max=True)
        elif self.source is not None and self.phase in NEEDS_TARGET:
            self.target = province
        else:
            self.source = province
        self.refresh()

    def candidates(self) -> list[int]:
        """The provinces the next click may pick (the overlay)."""
        if self.locked or self.planner is None or self.phase not in NEEDS_SOURCE:
            return []
        p = self.planner
        if self.phase in NEEDS_TARGET and self.source is not None:
            return p.targets(self.colour, self.phase, self.source, self.kind.value)
        return p.sources(self.colour, self.phase)

    def nudge(self, by: int) -> None:
        self.amount = max(0, self.amount + by)
        self.refresh()

    def set_max(self) -> None:
        self._clamp_amount(to_max=True)
        self.refresh()

    def _clamp_amount(self, *, to_max: bool) -> None:
        if self.planner is None or self.phase not in HAS_AMOUNT:
            return
        top = self.planner.maximum(self.colour, self.phase, self.source, self.kind.value)
        self.amount = top if to_max or self.amount > top else self.amount

    def order(self) -> Order | str:
        return build_order(self.phase, self.source, self.target, self.amount, self.kind.value)

    def _validate(self) -> None:
        self.message = []
        self.odds = None
        if self.planner is None or self.view is None:
            return
        if self.locked:
            why = "you are ready: your orders are locked (Unready to change them)"
            if not self.view.alive:
                why = "you are out of the game"
            self.message = [(why, theme.TEXT_MUTED)]
            return
        order = self.order()
        if isinstance(order, str):
            p, kind = self.planner, self.kind.value
            none = (
                p.no_sources(self.colour, self.phase)
                if self.source is None
                else p.no_targets(self.colour, self.phase, self.source, kind)
            )
            self.message = [(none, theme.ACCENT) if none else (order, theme.TEXT_MUTED)]
            if self.phase == "troops" and self.kind.value:  # which terrain suits the type
                target = troop_pair(self.kind.value)[1]
                self.message.append((p.troop_hint(target, self.source), theme.TEXT_MUTED))
            return
        problem = self.planner.problem(self.colour, self.phase, order)
        if problem and self.phase in HAS_AMOUNT and self.amount == 0 and self.source is not None:
            top = self.planner.maximum(self.colour, self.phase, self.source, self.kind.value)
            if top == 0:
                problem = f"nothing to send from {self._name(self.source)}"
        if problem:
            self.message.append((problem, theme.DANGER))
            return
        warning = self.planner.warning(self.colour, self.phase, order)
        if warning:
            self.message.append((warning, theme.ACCENT))
        for risk in order_risks(self.planner, self.colour, self.phase, order):
            self.message.append((f"Careful: {risk}", theme.ACCENT))
        chances = self.planner.chances(self.colour, self.phase, order)
        self.odds = chances.win
        for line in chances.lines:
            self.message.append((line, theme.TEXT_MUTED))
        for line in self.planner.preview(self.colour, self.phase, order):
            self.message.append((line, theme.SUCCESS))

    def can_add(self) -> bool:
        if self.locked or self.planner is None:
            return False
        order = self.order()
        return (
            not isinstance(order, str)
            and self.planner.problem(self.colour, self.phase, order) is None
        )

    def add(self) -> None:
        """Add the form's order to the draft when it passes the checks."""
        if not self.can_add():
            return
        order = self.order()
        assert not isinstance(order, str)
        self.draft.add(self.colour, self.phase, order)
        keep_source = self.phase in ("transforms",)
        self.target = None
        if not keep_source:
            self.source = None
        self.amount = 0
        if keep_source:
            self._clamp_amount(to_max=True)
        self.refresh()

    def remove(self, index: int) -> None:
        if not self.locked:
            self.draft.remove(self.colour, self.phase, index)
            self.refresh()

    def edit(self, index: int) -> None:
        """Take an entered order back into the form (Add puts it back, at the end)."""
        if self.locked:
            return
        order = self.draft.remove(self.colour, self.phase, index)
        self.source = getattr(order, "source", getattr(order, "province", None))
        self.target = getattr(order, "target", None)
        for kind_field in ("kind", "unit", "aim", "op", "points"):
            if hasattr(order, kind_field):
                self.kind.select(str(getattr(order, kind_field)))
        for amount_field in ("missiles", "armies", "amount", "spies"):
            if hasattr(order, amount_field):
                self.amount = int(getattr(order, amount_field))
        self.refresh()

    # -- what the map shows -----------------------------------------------------------------

    def arrows(self) -> list[Arrow]:
        """Planned bombing, attacks, moves and spying of the current colour as arrows
        (attacks from provinces you plan to take are dashed), plus the order being formed."""
        if self.view is None or self.planner is None:
            return []
        owner = self.planner.owner
        out: list[Arrow] = []
        ink = {
            "bombs": (255, 120, 80),
            "attacks": colour_of(self.colour),
            "moves": (200, 210, 225),
            "spies": (190, 140, 255),
        }
        for phase in ("bombs", "attacks", "moves", "spies"):
            for o in self.draft.of(self.colour, phase):
                if isinstance(o, Bomb | Attack | Move | Spy):
                    chained = owner[o.source] != self.colour
                    text = {Bomb: "MIS", Attack: "", Move: getattr(o, "unit", ""), Spy: "SPY"}[
                        type(o)
                    ]
                    n = (
                        "all"
                        if moves_all(self.view, o)
                        else getattr(
                            o,
                            "missiles",
                            getattr(o, "armies", getattr(o, "amount", getattr(o, "spies", 0))),
                        )
                    )
                    out.append(
                        Arrow(o.source, o.target, ink[phase], chained, f"{n} {text}".strip())
                    )
        if self.source is not None and self.target is not None and self.phase in NEEDS_TARGET:
            order = self.order()
            every = not isinstance(order, str) and moves_all(self.view, order)
            shown = "all" if every else str(self.amount)
            out.append(Arrow(self.source, self.target, theme.HOVER, True, shown))
        return out

    # -- layout and drawing -----------------------------------------------------------------

    def layout(self, rect: pygame.Rect) -> None:
        """Place everything in `rect` (sizes in layout pixels, zoomed by `px`)."""
        self.rect = pygame.Rect(rect)
        x, y, w = self.rect.x + 10, self.rect.y + 10, self.rect.width - 20
        n = len(self.phases)
        cols = n if w >= px(60) * n else (n + 1) // 2
        tw = (w - (cols - 1) * 4) // cols
        row = px(32)
        for i, p in enumerate(self.phases):
            r, c = divmod(i, cols)
            self.tabs[p].rect = pygame.Rect(x + c * (tw + 4), y + r * row, tw, px(28))
        rows = (len(self.phases) + cols - 1) // cols
        self._head_y = y + rows * row + 4
        fy = self._head_y + px(40)
        self._pick_y = fy
        lead = px(64)
        high = px(26)
        # the kind and amount rows are there only when the phase has them; the message
        # lines take the room left above the Add button
        kinds = bool(self.view is not None and kinds_of(self.view, self.phase))
        ky = fy + px(24)
        self.kind.layout(pygame.Rect(x + lead, ky, min(px(260), w - lead), high))
        ay = ky + (px(32) if kinds else 0)
        self._amount_y = ay
        box, top = px(48), px(44)
        bw = max(26, min(px(40), (w - lead - box - top - 6 * 3) // 4))
        bx = x + lead
        for i, button in enumerate(self.steps[:2]):
            button.rect = pygame.Rect(bx + i * (bw + 3), ay, bw, high)
        self._amount_box = pygame.Rect(bx + 2 * (bw + 3), ay, box, high)
        for i, button in enumerate(self.steps[2:]):
            button.rect = pygame.Rect(self._amount_box.right + 3 + i * (bw + 3), ay, bw, high)
        self.max_button.rect = pygame.Rect(
            self.steps[-1].rect.right + 3,
            ay,
            min(px(50), max(px(40), x + w - self.steps[-1].rect.right - 3)),
            high,
        )
        self._msg_y = ay + (px(32) if self.phase in HAS_AMOUNT else 0)
        tall = px(30)
        self.add_button.rect = pygame.Rect(
            x, fy + px(88) + MESSAGE_LINES * px(17) + px(6), min(px(170), w // 2), tall
        )
        self._msg_lines = max(1, (self.add_button.rect.y - px(4) - self._msg_y) // px(17))
        self.clear_button.rect = pygame.Rect(
            self.add_button.rect.right + 8, self.add_button.rect.y, px(80), tall
        )
        self._list_y = self.add_button.rect.bottom + px(10)
        bottom = self.rect.bottom - 10
        self.ready_button.rect = pygame.Rect(x + w - px(120), bottom - px(34), px(120), px(34))
        self.unready_button.rect = self.ready_button.rect.copy()
        self._status_y = bottom - px(34)
        cy = bottom - px(68)
        self._colour_y = cy
        cw = px(64)
        for i, (_, button) in enumerate(self.colour_buttons):
            button.rect = pygame.Rect(x + px(70) + i * (cw + 4), cy, cw, px(28))
        self._list_bottom = (cy - 6) if len(self.colour_buttons) > 1 else (bottom - px(44))

    def buttons(self) -> list[Button]:
        out: list[Button] = [self.tabs[p] for p in self.phases]
        if not self.locked:
            out += [self.add_button, self.clear_button]
            if self.phase in HAS_AMOUNT:
                out += [*self.steps, self.max_button]
        out += [b for _, b in self.colour_buttons] if len(self.colour_buttons) > 1 else []
        if self.view is not None and self.view.alive and self.view.outcome is None:
            out.append(self.unready_button if self.view.is_ready else self.ready_button)
        for _, edit, delete in self.rows:
            out += [edit, delete]
        return out

    def handle_event(self, event: pygame.event.Event) -> bool:
        if self._type_amount(event):
            return True
        for button in self.buttons():
            if button.handle_event(event):
                return True
        return not self.locked and bool(self.kind.choices) and self.kind.handle_event(event)

    def _type_amount(self, event: pygame.event.Event) -> bool:
        """A click on the amount box lets digits be typed into it (the first replaces the
        amount, Backspace deletes one); Enter, Esc or a click elsewhere ends the typing."""
        can_type = not self.locked and self.phase in HAS_AMOUNT
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            was = self.typing
            self.typing = can_type and self._amount_box.collidepoint(event.pos)
            self._fresh = self.typing and not was
            if self.typing != was:
                self.on_change()
            return self.typing
        if not self.typing or not can_type:
            self.typing = False
            return False
        if event.type == pygame.TEXTINPUT:
            digits = "".join(c for c in event.text if c.isdigit())
            if digits:
                start = "" if self._fresh else str(self.amount)
                self.amount = int((start + digits)[-AMOUNT_DIGITS:])
                self._fresh = False
                self.refresh()
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_BACKSPACE:
                self.amount //= 10
                self._fresh = False
                self.refresh()
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
                self.typing = False
                self.on_change()
                return bool(event.key == pygame.K_ESCAPE)  # Enter still adds the order
            return bool(pygame.K_0 <= event.key <= pygame.K_9)  # digits type, no panel switch
        return False

    def update(self, dt: float) -> None:
        for button in self.buttons():
            button.update(dt)
        self.kind.update(dt)

    def _name(self, p: int | None) -> str:
        if p is None or self.view is None:
            return "-"
        return f"{p} {self.view.map.provinces[p].name}"

    def draw(self, surface: pygame.Surface) -> None:
        draw_panel(surface, self.rect, radius=10, shadow=3, alpha=245)
        if self.view is None or self.planner is None:
            return
        x, w = self.rect.x + 10, self.rect.width - 20
        for p in self.phases:
            button = self.tabs[p]
            button.primary = p == self.phase
            button.label = (
                f"{SHORT[p]} {len(self.draft.of(self.colour, p))}"
                if self.draft.of(self.colour, p)
                else SHORT[p]
            )
            button.draw(surface)
        y = self._head_y
        label(surface, TITLES[self.phase], (x, y), size=17, bold=True, colour=theme.ACCENT)
        label(
            surface,
            self.planner.count_line(self.colour, self.phase),
            (x, y + px(21)),
            size=13,
            colour=theme.TEXT_MUTED,
            width=w,
        )
        y = self._pick_y
        muted = theme.TEXT_MUTED
        if self.locked:  # nothing to pick: the message says why
            pass
        elif self.phase in NEEDS_SOURCE:
            first = "From" if self.phase in NEEDS_TARGET else "Province"
            label(surface, f"{first}:", (x, y), size=14, colour=muted)
            half = w // 2 if self.phase in NEEDS_TARGET else w
            value_x = x + px(44 if self.phase in NEEDS_TARGET else 70)
            label(
                surface,
                self._name(self.source),
                (value_x, y),
                size=14,
                bold=True,
                width=x + half - value_x - 4,
            )
            if self.phase in NEEDS_TARGET:
                label(surface, "To:", (x + half, y), size=14, colour=muted)
                label(
                    surface,
                    self._name(self.target),
                    (x + half + px(30), y),
                    size=14,
                    bold=True,
                    width=w - half - px(30),
                )
        else:
            label(
                surface,
                f"No province needed: pick the {'trade' if self.phase == 'trades' else 'upgrade'}",
                (x, y),
                size=14,
                colour=muted,
                width=w,
            )
        if self.kind.choices and not self.locked:
            label(surface, "Kind:", (x, self.kind.rect.y + px(4)), size=14, colour=muted)
            self.kind.shown = kind_label
            self.kind.draw(surface)
        if self.phase in HAS_AMOUNT and not self.locked:
            label(surface, "Amount:", (x, self._amount_y + px(4)), size=14, colour=muted)
            for button in [*self.steps, self.max_button]:
                button.draw(surface)
            pygame.draw.rect(surface, theme.PANEL_LIGHT, self._amount_box, border_radius=6)
            if self.typing:
                pygame.draw.rect(surface, theme.ACCENT, self._amount_box, 2, border_radius=6)
            shown, order = str(self.amount), self.order()
            if self.view is not None and not isinstance(order, str) and moves_all(self.view, order):
                shown = "all"  # WoK IV's 99
            label(
                surface,
                shown,
                self._amount_box.center,
                size=15,
                bold=True,
                anchor="center",
            )
        lines = [
            (part, colour) for text, colour in self.message for part in wrap_text(text, px(13), w)
        ]
        msg_y = self._pick_y if self.locked else self._msg_y  # locked: no fields above
        for i, (text, colour) in enumerate(lines[: self._msg_lines]):
            label(surface, text, (x, msg_y + i * px(17)), size=13, colour=colour, width=w)
        if not self.locked:
            self.add_button.enabled = self.can_add()
            self.add_button.draw(surface)
            self.clear_button.draw(surface)
            if self.odds is not None:
                self._draw_odds(surface, x + w, self._list_y + px(7))
        self._draw_rows(surface, x, w)
        self._draw_bottom(surface, x, w)

    def _draw_odds(self, surface: pygame.Surface, right: int, y: int) -> None:
        """A bar of the planned order's chance of success, right of the list's heading."""
        assert self.odds is not None
        left = right - min(px(200), (self.rect.width - 20) // 2)
        label(surface, "odds", (left - 6, y), size=12, colour=theme.TEXT_MUTED, anchor="midright")
        bar = pygame.Rect(left, y - px(5), right - left - px(40), px(10))
        pygame.draw.rect(surface, theme.PANEL_LIGHT, bar, border_radius=5)
        fill = bar.copy()
        fill.width = round(bar.width * max(0.0, min(1.0, self.odds)))
        ink = (
            theme.SUCCESS
            if self.odds >= 0.6
            else theme.ACCENT
            if self.odds >= 0.3
            else theme.DANGER
        )
        if fill.width:
            pygame.draw.rect(surface, ink, fill, border_radius=5)
        label(
            surface, f"{self.odds:.0%}", (right, bar.centery), size=13, bold=True, anchor="midright"
        )

    def _draw_rows(self, surface: pygame.Surface, x: int, w: int) -> None:
        assert self.view is not None
        orders = self.draft.of(self.colour, self.phase)
        y = self._list_y
        label(
            surface, f"Entered ({len(orders)})", (x, y), size=13, bold=True, colour=theme.TEXT_MUTED
        )
        y += px(18)
        step = px(ROW)
        room = max(0, (self._list_bottom - y) // step)
        if len(self.rows) != len(orders):
            self.rows = [
                (
                    pygame.Rect(0, 0, 0, 0),
                    ZButton(
                        "edit",
                        pygame.Rect(0, 0, 10, 10),
                        self._editor(i),
                        font_size=12,
                        tooltip="Take this order back into the form",
                    ),
                    ZButton(
                        "x",
                        pygame.Rect(0, 0, 10, 10),
                        self._remover(i),
                        font_size=12,
                        tooltip="Delete this order",
                    ),
                )
                for i in range(len(orders))
            ]
        allowed = self.planner.me(self.colour).attacks_allowed if self.planner else 0
        shown = orders[:room] if room < len(orders) else orders
        for i, order in enumerate(shown):
            row, edit, delete = self.rows[i]
            row.update(x, y + i * step, w, step - 2)
            over = self.phase == "attacks" and i >= allowed
            colour = theme.DISABLED if over else theme.TEXT
            room = w - px(80) if not self.locked else w
            tail = "  (over limit)" if over else ""
            text = f"{i + 1}. {order_text(self.view, self.phase, order)}{tail}"
            if theme.font(px(13)).size(text)[0] > room:  # province numbers only
                text = f"{i + 1}. {order_text(self.view, self.phase, order, names=False)}{tail}"
            label(surface, text, (x, row.y + 2), size=13, colour=colour, width=room)
            if not self.locked:
                edit.rect = pygame.Rect(row.right - px(74), row.y, px(44), step - 3)
                delete.rect = pygame.Rect(row.right - px(26), row.y, px(26), step - 3)
                edit.draw(surface)
                delete.draw(surface)
            else:
                edit.rect = delete.rect = pygame.Rect(-100, -100, 1, 1)
        if len(orders) > len(shown):
            label(
                surface,
                f"+{len(orders) - len(shown)} more",
                (x, y + len(shown) * step),
                size=12,
                colour=theme.TEXT_MUTED,
            )
        if not orders:
            label(surface, "none yet", (x, y), size=13, colour=theme.DISABLED)
        used = max(1, len(shown)) + (1 if len(orders) > len(shown) else 0)
        self._draw_others(surface, x, w, y + used * step + px(10))

    def _draw_others(self, surface: pygame.Surface, x: int, w: int, y: int) -> None:
        """The colour's orders of the other phases, as far as the room below allows."""
        assert self.view is not None
        lh = px(17)
        lines: list[tuple[str, bool]] = []
        for phase in self.phases:
            orders = self.draft.of(self.colour, phase)
            if phase == self.phase or not orders:
                continue
            lines.append((TITLES[phase], True))
            lines += [(order_text(self.view, phase, o), False) for o in orders]
        if not lines or y + 2 * lh > self._list_bottom:
            return
        label(surface, "Other phases", (x, y), size=13, bold=True, colour=theme.TEXT_MUTED)
        y += px(18)
        room = (self._list_bottom - y) // lh
        for i, (text, head) in enumerate(lines[:room]):
            if i == room - 1 and len(lines) > room:
                text, head = f"+{len(lines) - i} more lines", False
            label(
                surface,
                text if head else f"  {text}",
                (x, y + i * lh),
                size=12,
                bold=head,
                colour=theme.TEXT_MUTED if head else theme.TEXT,
                width=w,
            )

    def _editor(self, i: int) -> Callable[[], None]:
        return lambda: self.edit(i)

    def _remover(self, i: int) -> Callable[[], None]:
        return lambda: self.remove(i)

    def _draw_bottom(self, surface: pygame.Surface, x: int, w: int) -> None:
        assert self.view is not None
        if len(self.colour_buttons) > 1:
            label(surface, "Colour:", (x, self._colour_y + px(5)), size=14, colour=theme.TEXT_MUTED)
            for c, button in self.colour_buttons:
                button.primary = c == self.colour
                button.draw(surface)
        v = self.view
        if v.outcome is not None:
            status = "The game is over"
        elif not v.alive:
            status = "You are out of the game"
        elif v.is_ready:
            status = "Ready: orders locked"
        elif self.draft.same_as(v) and v.orders:
            status = f"{_orders(self.draft.total())} sent, not ready"
        else:
            status = f"{_orders(self.draft.total())}, not sent"
        label(
            surface,
            status,
            (x, self._status_y + px(8)),
            size=14,
            colour=theme.TEXT_MUTED,
            width=w - px(130),
        )
        if v.alive and v.outcome is None:
            (self.unready_button if v.is_ready else self.ready_button).draw(surface)

    def draw_tooltips(self, surface: pygame.Surface) -> None:
        for button in self.buttons():
            button.draw_tooltip(surface)
        self.kind.draw_tooltip(surface)


def _orders(n: int) -> str:
    """ "1 order", "3 orders"."""
    return f"{n} order{'' if n == 1 else 's'}"
