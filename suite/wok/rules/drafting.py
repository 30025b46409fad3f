"""What the order form says about a seat's draft, as one typed answer (no pygame).

A client that draws the order form elsewhere (the web page) asks the server about its own
draft; `report(view, draft, probe)` answers from that seat's view only, with the same
`Planner` the desktop form uses, so each check exists once:

- per phase of the rule set that takes orders: its title, the choices of its kind field,
  which fields it needs, the rule set's own words on what it does, and per colour the
  count line, the entry limit and why no province can start an order now;
- per order entered: its text, why it could not be added after the orders before it
  (`problem`), the warning, the odds (`chances`, `win`), what it does (`preview`) and
  the risks it adds for a newcomer;
- per colour: the first entry-limit problem the server would refuse the orders for, the
  provinces the orders change (what each holds after) and the draft's risks;
- for the order being composed (`Probe`): the provinces it may start from and go to, the
  most it may name, and the same checks as for an entered order.

`read_draft` turns the client's JSON into typed orders, refusing (with a reason) what the
seat may not ask about: another seat's colours, or more orders than the rule set lets a
colour enter, so that the work an answer costs is bounded by the rule set's limits.
"""

from __future__ import annotations

from typing import Any

import msgspec

from suite.wok.rules.draft import (
    HAS_AMOUNT,
    NEEDS_SOURCE,
    NEEDS_TARGET,
    NOUNS,
    ORDER_PHASE,
    PHASES,
    TITLES,
    Draft,
    Order,
    Phase,
    Planner,
    build_order,
    entry_limit,
    kind_label,
    kinds_of,
    order_text,
    phases_of,
)
from suite.wok.rules.helptext import PHASES as PHASE_TEXT
from suite.wok.rules.orders import OrderSet, SubmitOrders, check_order_set
from suite.wok.rules.risks import draft_risks, order_risks
from suite.wok.rules.views import WokView

MAX_ORDERS = 200
"""Orders one draft may hold in all (every colour, every phase), whatever the rule set."""


class DraftError(ValueError):
    """A draft the seat may not ask about; the message says why."""


class Probe(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The order being composed: its colour, phase and the fields filled in so far
    (`amount` 0: the most it may name)."""

    colour: int
    phase: Phase
    source: int | None = None
    target: int | None = None
    kind: str = ""
    amount: int = 0


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """A value of an order's kind field and how the form names it."""

    value: str
    label: str


class PhaseInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A phase that takes orders: what the form shows for it (rule set data)."""

    phase: Phase
    rules_phase: str
    title: str
    noun: str
    kinds: tuple[Choice, ...]
    needs_source: bool
    needs_target: bool
    has_amount: bool
    help: str


class PhaseCount(msgspec.Struct, frozen=True, kw_only=True):
    """One colour's orders of one phase: how many, the limit, the count line, and why no
    province can start one now (None when one can)."""

    phase: Phase
    entered: int
    limit: int
    line: str
    no_sources: str | None


class OrderNote(msgspec.Struct, frozen=True, kw_only=True):
    """One entered order and what the form says about it."""

    phase: Phase
    index: int
    text: str
    problem: str | None
    warning: str | None
    chances: tuple[str, ...]
    win: float | None
    preview: tuple[str, ...]
    risks: tuple[str, ...]


class After(msgspec.Struct, frozen=True, kw_only=True):
    """What an own province holds once the draft's orders ran (only those they change)."""

    province: int
    units: dict[str, float]


class ColourReport(msgspec.Struct, frozen=True, kw_only=True):
    """One of the seat's colours: its draft as the form sees it."""

    colour: int
    name: str
    problem: str | None
    counts: tuple[PhaseCount, ...]
    orders: tuple[OrderNote, ...]
    after: tuple[After, ...]
    risks: tuple[str, ...]


class ProbeReport(msgspec.Struct, frozen=True, kw_only=True):
    """The order being composed: where it may start and go, the most it may name, and
    (once its fields describe an order) the checks; `missing` says what to pick next."""

    colour: int
    phase: Phase
    sources: tuple[int, ...]
    targets: tuple[int, ...]
    maximum: int
    no_sources: str | None
    no_targets: str | None
    missing: str | None
    text: str | None
    problem: str | None
    warning: str | None
    chances: tuple[str, ...]
    win: float | None
    preview: tuple[str, ...]
    risks: tuple[str, ...]
    hint: str | None
    order: dict[str, Any] | None = None
    """The order the fields describe, as the draft's phase list holds it (JSON)."""


class DraftReport(msgspec.Struct, frozen=True, kw_only=True):
    """The answer about a seat's draft at `turn` (see the module docstring)."""

    turn: int
    phases: tuple[PhaseInfo, ...]
    quiet: tuple[str, ...]
    """The rule set's phases that take no orders (they run by themselves)."""
    colours: tuple[ColourReport, ...]
    probe: ProbeReport | None = None


# -- reading what the client sent ------------------------------------------------------------


def read_draft(view: WokView, data: Any) -> SubmitOrders:
    """The seat's draft from its JSON (`{"sets": [...]}`, `SubmitOrders` without `kind`);
    DraftError when it is malformed, names a colour that is not the seat's living one,
    names one twice, or holds more orders than the rule set lets a colour enter."""
    if not isinstance(data, dict):
        raise DraftError("a draft is an object with `sets`")
    try:
        sets = msgspec.convert(data.get("sets", []), tuple[OrderSet, ...])
    except msgspec.ValidationError as exc:
        raise DraftError(f"bad draft: {exc}"[:300]) from None
    mine = view.own()
    seen: set[int] = set()
    total = 0
    for os in sets:
        if os.colour not in mine:
            raise DraftError(f"colour {os.colour} is not one of your living colours")
        if os.colour in seen:
            raise DraftError(f"two order sets for colour {os.colour}")
        seen.add(os.colour)
        for phase in PHASES:
            n = len(getattr(os, phase))
            top = entry_limit(view, phase) if phase in phases_of(view) else 0
            if n > top:
                raise DraftError(f"{n} {NOUNS[phase]}s for colour {os.colour}: at most {top}")
            total += n
    if total > MAX_ORDERS:
        raise DraftError(f"{total} orders: a draft holds at most {MAX_ORDERS}")
    return SubmitOrders(sets=sets, ready=False)


def read_probe(view: WokView, data: Any) -> Probe | None:
    """The order being composed, or None; DraftError when it is malformed or names a
    colour that is not the seat's or a phase the rule set does not have."""
    if data is None:
        return None
    try:
        probe = msgspec.convert(data, Probe)
    except msgspec.ValidationError as exc:
        raise DraftError(f"bad probe: {exc}"[:300]) from None
    if probe.colour not in view.own():
        raise DraftError(f"colour {probe.colour} is not one of your living colours")
    if probe.phase not in phases_of(view):
        raise DraftError(f"{view.rules.title} has no {TITLES[probe.phase]} phase")
    n = len(view.map.provinces)
    for what, p in (("source", probe.source), ("target", probe.target)):
        if p is not None and not 0 <= p < n:
            raise DraftError(f"probe {what}: no such province {p} (0..{n - 1})")
    if len(probe.kind) > 32 or not 0 <= probe.amount <= 100_000:
        raise DraftError("probe: bad kind or amount")
    return probe


# -- the answer --------------------------------------------------------------------------------


def phase_infos(view: WokView) -> tuple[PhaseInfo, ...]:
    """The rule set's phases that take orders, as the form shows them."""
    out = []
    rules = view.rules
    for name in rules.phases:
        phase = ORDER_PHASE.get(name)
        if phase is None:
            continue
        text = PHASE_TEXT.get(name)
        out.append(
            PhaseInfo(
                phase=phase,
                rules_phase=name,
                title=TITLES[phase],
                noun=NOUNS[phase],
                kinds=tuple(Choice(value=k, label=kind_label(k)) for k in kinds_of(view, phase)),
                needs_source=phase in NEEDS_SOURCE,
                needs_target=phase in NEEDS_TARGET,
                has_amount=phase in HAS_AMOUNT,
                help=text(rules) if text is not None else "",
            )
        )
    return tuple(out)


def _before(draft: Draft, colour: int, phase: Phase, index: int) -> Draft:
    """A copy of `draft` holding only the first `index` orders of the colour's `phase`."""
    copy = Draft({c: {p: list(v) for p, v in ph.items()} for c, ph in draft.orders.items()})
    copy.orders[colour][phase] = copy.orders[colour][phase][:index]
    return copy


def _note(view: WokView, draft: Draft, colour: int, phase: Phase, index: int) -> OrderNote:
    order = draft.of(colour, phase)[index]
    plan = Planner(view, _before(draft, colour, phase, index))
    chances = plan.chances(colour, phase, order)
    return OrderNote(
        phase=phase,
        index=index,
        text=order_text(view, phase, order),
        problem=plan.problem(colour, phase, order),
        warning=plan.warning(colour, phase, order),
        chances=chances.lines,
        win=chances.win,
        preview=tuple(plan.preview(colour, phase, order)),
        risks=tuple(order_risks(plan, colour, phase, order)),
    )


def _after(plan: Planner, colour: int) -> tuple[After, ...]:
    """The own provinces whose units the draft changes, with what they hold after."""
    out = []
    empty = Planner(plan.view, Draft())
    before = empty.after(colour)
    for p, units in sorted(plan.after(colour).items()):
        if units != before.get(p):
            out.append(After(province=p, units=units))
    return tuple(out)


def _colour(view: WokView, draft: Draft, colour: int) -> ColourReport:
    plan = Planner(view, draft)
    me = plan.me(colour)
    phases = phases_of(view)
    counts = tuple(
        PhaseCount(
            phase=p,
            entered=len(draft.of(colour, p)),
            limit=entry_limit(view, p),
            line=plan.count_line(colour, p),
            no_sources=plan.no_sources(colour, p),
        )
        for p in phases
    )
    notes = tuple(
        _note(view, draft, colour, p, i) for p in phases for i in range(len(draft.of(colour, p)))
    )
    return ColourReport(
        colour=colour,
        name=me.name,
        problem=check_order_set(draft.order_set(colour), view.rules, len(view.map.provinces)),
        counts=counts,
        orders=notes,
        after=_after(plan, colour),
        risks=tuple(draft_risks(plan, colour)),
    )


def _probe(view: WokView, draft: Draft, probe: Probe) -> ProbeReport:
    plan = Planner(view, draft)
    c, phase = probe.colour, probe.phase
    sources = plan.sources(c, phase) if phase in NEEDS_SOURCE else []
    targets: list[int] = []
    no_targets = None
    maximum = 0
    hint = None
    source = probe.source
    if source is not None and phase in NEEDS_TARGET:
        targets = plan.targets(c, phase, source, probe.kind)
        no_targets = plan.no_targets(c, phase, source, probe.kind)
    if phase in HAS_AMOUNT:
        maximum = plan.maximum(c, phase, source, probe.kind)
    if phase == "troops" and probe.kind:
        hint = plan.troop_hint(probe.kind.partition(">")[2], source)
    built: Order | str
    try:
        amount = probe.amount or maximum
        built = build_order(phase, source, probe.target, amount, probe.kind)
    except (msgspec.ValidationError, ValueError):
        built = "pick what the order does"
    empty = ProbeReport(
        colour=c,
        phase=phase,
        sources=tuple(sources),
        targets=tuple(targets),
        maximum=maximum,
        no_sources=plan.no_sources(c, phase),
        no_targets=no_targets,
        missing=built if isinstance(built, str) else None,
        text=None,
        problem=None,
        warning=None,
        chances=(),
        win=None,
        preview=(),
        risks=(),
        hint=hint,
    )
    if isinstance(built, str):
        return empty
    chances = plan.chances(c, phase, built)
    return msgspec.structs.replace(
        empty,
        text=order_text(view, phase, built),
        problem=plan.problem(c, phase, built),
        warning=plan.warning(c, phase, built),
        chances=chances.lines,
        win=chances.win,
        preview=tuple(plan.preview(c, phase, built)),
        risks=tuple(order_risks(plan, c, phase, built)),
        order=msgspec.to_builtins(built),
    )


def report(view: WokView, orders: SubmitOrders, probe: Probe | None = None) -> DraftReport:
    """What the order form says about the seat's draft `orders` (checked by `read_draft`)
    and the order being composed `probe` (see the module docstring)."""
    draft = Draft()
    for colour in sorted(view.own()):
        draft.orders[colour] = {p: [] for p in PHASES}
    for os in orders.sets:
        for p in PHASES:
            draft.orders[os.colour][p] = list(getattr(os, p))
    return DraftReport(
        turn=view.turn,
        phases=phase_infos(view),
        quiet=tuple(p for p in view.rules.phases if p not in ORDER_PHASE),
        colours=tuple(_colour(view, draft, c) for c in sorted(draft.orders)),
        probe=_probe(view, draft, probe) if probe is not None else None,
    )
