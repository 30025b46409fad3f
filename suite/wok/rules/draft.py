"""A seat's draft orders and everything the order form says about them (no pygame).

`Draft` holds the orders being entered for each of the seat's colours, phase by phase, in
the order entered; `SubmitOrders` is built from it. `Planner` reads the seat's view only
(map, owners, its own figures and intel, the public rule set) to tell, for a new order,
whether it can be entered and why not (`problem`), what to warn about (`warning`), the
most it may name (`maximum`), the chances it has (`chances`) and what the orders leave
behind in each own province (`after`). Limits and costs come from the view's rules data;
nothing here touches the engine.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import msgspec

from suite.wok.rules.orders import (
    Attack,
    Bomb,
    Move,
    OrderSet,
    SetAim,
    Spy,
    SubmitOrders,
    Trade,
    Transform,
    TroopUpgrade,
    Upgrade,
)
from suite.wok.rules.ruleset import RuleSet
from suite.wok.rules.views import Figures, OwnColour, WokView

Phase = Literal[
    "bombs", "attacks", "transforms", "troops", "moves", "trades", "aims", "upgrades", "spies"
]
PHASES: tuple[Phase, ...] = (
    "bombs",
    "attacks",
    "transforms",
    "troops",
    "moves",
    "trades",
    "aims",
    "upgrades",
    "spies",
)
ORDER_PHASE: dict[str, Phase] = {
    "bombing": "bombs",
    "attacking": "attacks",
    "transformations": "transforms",
    "troop_upgrades": "troops",
    "movement": "moves",
    "trading": "trades",
    "aims": "aims",
    "upgrades": "upgrades",
    "spying": "spies",
    "covert_ops": "spies",
}
"""The rule set's phase names (`RuleSet.phases`) that take orders, and their order field."""
TITLES: dict[Phase, str] = {
    "bombs": "Bombing",
    "attacks": "Attacks",
    "transforms": "Transformations",
    "troops": "Troop upgrades",
    "moves": "Movement",
    "trades": "Tech trades",
    "aims": "Workers' aim",
    "upgrades": "Upgrades",
    "spies": "Spying",
}
NOUNS: dict[Phase, str] = {
    "bombs": "bombing order",
    "attacks": "attack order",
    "transforms": "transformation",
    "troops": "troop upgrade",
    "moves": "move",
    "trades": "trade",
    "aims": "aim change",
    "upgrades": "upgrade",
    "spies": "spy order",
}


def a_noun(noun: str) -> str:
    """The noun with its article: "an aim change", "a move"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


SHORT: dict[Phase, str] = {
    "bombs": "Bomb",
    "attacks": "Attack",
    "transforms": "Transf.",
    "troops": "Troops",
    "moves": "Move",
    "trades": "Trade",
    "aims": "Aim",
    "upgrades": "Upgr.",
    "spies": "Spy",
}
ENTRY_LIMIT: dict[Phase, str] = {  # the `Limits` field of each phase (troops: `[troops]`)
    "bombs": "bomb_orders",
    "attacks": "attack_orders",
    "transforms": "transform_orders",
    "moves": "move_orders",
    "aims": "aim_orders",
    "upgrades": "upgrade_orders",
    "spies": "spy_orders",
}
NEEDS_SOURCE: frozenset[Phase] = frozenset(PHASES) - {"upgrades", "trades"}
NEEDS_TARGET: frozenset[Phase] = frozenset({"bombs", "attacks", "moves", "spies"})
HAS_AMOUNT: frozenset[Phase] = frozenset(
    {"bombs", "attacks", "transforms", "troops", "moves", "spies"}
)
TROOP_UNITS = ("ARM", "PIK", "ARC", "KNI", "CAT")
ALL_TROOPS = "TRO"

Order = Bomb | Attack | Transform | Move | SetAim | Upgrade | Spy | TroopUpgrade | Trade


def phases_of(view: WokView) -> tuple[Phase, ...]:
    """The phases of the view's rule set that take orders, in the order they run."""
    return tuple(ORDER_PHASE[p] for p in view.rules.phases if p in ORDER_PHASE)


def entry_limit(view: WokView, phase: Phase) -> int:
    """How many orders of `phase` may be entered (rules data)."""
    if phase == "troops":
        return view.rules.troops.orders if view.rules.troops is not None else 0
    if phase == "trades":
        return view.rules.trades.orders if view.rules.trades is not None else 0
    return int(getattr(view.limits, ENTRY_LIMIT[phase]))


def transform_units(kind: str) -> tuple[str, str]:
    """ "POP_ARM" as ("POP", "ARM")."""
    src, _, dst = kind.partition("_")
    return src, dst or src


def troop_pair(kind: str) -> tuple[str, str]:
    """A troop-upgrade choice "ARM>PIK" as ("ARM", "PIK")."""
    src, _, dst = kind.partition(">")
    return src, dst


def kinds_of(view: WokView, phase: Phase) -> tuple[str, ...]:
    """The choices of the order's kind field in `phase` (from the rules data)."""
    rules = view.rules
    if phase == "transforms":
        return tuple(sorted(rules.transform.ratios))
    if phase == "troops":
        kinds = ("ARM", *rules.troops.kinds) if rules.troops is not None else ()
        return tuple(f"{a}>{b}" for a in kinds for b in kinds if a != b)
    if phase == "moves":
        return tuple(rules.movement.kinds)
    if phase == "aims":
        return tuple(rules.working.aims)
    if phase == "upgrades":
        return tuple(rules.upgrades.kinds)
    if phase == "trades":
        return tuple(str(o.points) for o in rules.trades.offers) if rules.trades else ()
    if phase == "spies":
        return tuple(rules.spying.operations)
    return ()


def kind_label(kind: str) -> str:
    """ "POP_ARM" as "POP->ARM", "ARM>PIK" as "ARM->PIK", "SPY_PROVINCE" as "Spy province",
    a trade's "150" as "150 tech points"."""
    if kind.isdigit():
        return f"{kind} tech points"
    if ">" in kind:
        a, b = troop_pair(kind)
        return f"{a}->{b}"
    if len(kind) == 7 and kind[3] == "_":
        a, b = transform_units(kind)
        return f"{a}->{b}"
    if "_" in kind:
        return kind.replace("_", " ").capitalize()
    return kind


def troop_note(rules: RuleSet, kind: str) -> str:
    """Where a troop type fights better (I3): "PIK: +0.05 LEV on Hills"; "" for none."""
    t = rules.terrain
    home = t.preferred_by.get(kind) if t is not None else None
    if t is None or home is None:
        return ""
    return f"{kind}: +{t.bonus_level:g} LEV in {home}"


@dataclass
class Draft:
    """The orders being entered for each colour of a seat, phase by phase."""

    orders: dict[int, dict[Phase, list[Order]]] = field(default_factory=dict)

    @classmethod
    def from_view(cls, view: WokView) -> Draft:
        """A draft holding the orders the seat already sent this turn (or none)."""
        draft = cls()
        for colour in view.colours:
            if colour.alive:
                draft.orders[colour.colour] = {p: [] for p in PHASES}
        for os in view.orders:
            if os.colour in draft.orders:
                for p in PHASES:
                    draft.orders[os.colour][p] = list(getattr(os, p))
        return draft

    def of(self, colour: int, phase: Phase) -> list[Order]:
        return self.orders.setdefault(colour, {p: [] for p in PHASES})[phase]

    def add(self, colour: int, phase: Phase, order: Order) -> None:
        self.of(colour, phase).append(order)

    def remove(self, colour: int, phase: Phase, index: int) -> Order:
        return self.of(colour, phase).pop(index)

    def with_order(self, colour: int, phase: Phase, order: Order) -> Draft:
        """A copy with `order` added (this draft is left as it is)."""
        copy = Draft(
            {c: {p: list(v) for p, v in phases.items()} for c, phases in self.orders.items()}
        )
        copy.add(colour, phase, order)
        return copy

    def order_set(self, colour: int) -> OrderSet:
        phases = self.orders.get(colour, {})
        return OrderSet(colour, **{p: tuple(phases.get(p, ())) for p in PHASES})  # type: ignore[arg-type]

    def submit(self, ready: bool) -> SubmitOrders:
        """The action that sends the whole draft (every colour's set)."""
        return SubmitOrders(sets=tuple(self.order_set(c) for c in sorted(self.orders)), ready=ready)

    def total(self) -> int:
        return sum(len(v) for phases in self.orders.values() for v in phases.values())

    def same_as(self, view: WokView) -> bool:
        """Whether the draft equals what the seat has sent (nothing unsent)."""
        sent = {os.colour: os for os in view.orders}
        for colour in self.orders:
            mine = self.order_set(colour)
            other = sent.get(colour, OrderSet(colour))
            if mine != other:
                return False
        return True


@dataclass(frozen=True)
class Chances:
    """What the form shows of a planned order's odds (text lines, best first)."""

    lines: tuple[str, ...]
    win: float | None = None


def moves_all(view: WokView, order: Order) -> bool:
    """A move naming the rule set's "all that may move" amount (WoK IV's 99)."""
    return (
        isinstance(order, Move)
        and bool(view.limits.move_all)
        and (order.amount == view.limits.move_all)
    )


def order_text(view: WokView, phase: Phase, order: Order, *, names: bool = True) -> str:
    """One line naming an order ("12 Zolis -> 5 Kar: 20 ARM"; "12 -> 5: 20 ARM" without
    the province names)."""
    known = [p.name for p in view.map.provinces]

    def p(i: int) -> str:
        return f"{i} {known[i]}" if names and 0 <= i < len(known) else str(i)

    if isinstance(order, Bomb):
        return f"{p(order.source)} -> {p(order.target)}: {order.missiles} MIS"
    if isinstance(order, Attack):
        return f"{p(order.source)} -> {p(order.target)}: {order.armies} ARM"
    if isinstance(order, Transform):
        return f"{p(order.province)}: {order.amount} {kind_label(order.kind)}"
    if isinstance(order, Move):
        amount = "all" if moves_all(view, order) else str(order.amount)
        return f"{p(order.source)} -> {p(order.target)}: {amount} {order.unit}"
    if isinstance(order, SetAim):
        return f"{p(order.province)}: aim {order.aim}"
    if isinstance(order, Upgrade):
        return f"{order.kind} upgrade"
    if isinstance(order, Trade):
        return f"trade {order.points} tech points"
    if isinstance(order, TroopUpgrade):
        return f"{p(order.province)}: {order.amount} {order.source}->{order.target}"
    return f"{p(order.source)} -> {p(order.target)}: {kind_label(order.op)}, {order.spies} SPY"


def round_loss(patt: float, pdef: float) -> tuple[float, float]:
    """W6: the chances that the attacker, resp. the defender, loses a unit in one round.

    Each side draws uniformly from 0..round(P) (0..1 when P < 1); the lower draw loses.
    """
    a = max(1, int(patt + 0.5)) if patt >= 1 else 1
    d = max(1, int(pdef + 0.5)) if pdef >= 1 else 1

    # P(X < Y) with X in 0..a, Y in 0..d: sum over y of min(y, a+1) / ((a+1)(d+1))
    def below(x: int, y: int) -> float:
        # sum_{k=0..y} min(k, x+1)
        m = min(y, x + 1)
        s = m * (m + 1) // 2 + (y - m) * (x + 1)
        return s / ((x + 1) * (y + 1))

    return below(a, d), below(d, a)


@lru_cache(maxsize=1024)
def win_chance(patt: float, pdef: float, attackers: int, defenders: int) -> float:
    """The chance that `attackers` beat `defenders` (rounds until one side is empty).

    Each decided round costs the defender a unit with chance q (else the attacker): the
    attacker wins when the defenders' `d` losses come before its own `a`, a negative
    binomial sum, sum over k < a of C(d-1+k, k) q^d (1-q)^k, summed in O(a) in log space
    (a server answers this for any draft a seat sends: it must stay cheap).
    """
    if defenders <= 0:
        return 1.0
    if attackers <= 0:
        return 0.0
    la, ld = round_loss(patt, pdef)
    decisive = la + ld
    if decisive <= 0:
        return 0.5
    q = ld / decisive  # chance the defender loses the next decided round
    a, d = min(attackers, 400), min(defenders, 400)
    if q >= 1.0:
        return 1.0
    if q <= 0.0:
        return 0.0
    log_q, log_p = math.log(q), math.log1p(-q)
    base = d * log_q - math.lgamma(d)
    total = sum(
        math.exp(base + math.lgamma(d + k) - math.lgamma(k + 1) + k * log_p) for k in range(a)
    )
    return min(1.0, total)


class Planner:
    """Answers the order form's questions from one seat's view (see the module docstring)."""

    def __init__(self, view: WokView, draft: Draft) -> None:
        self.view = view
        self.draft = draft
        self.owner = [p.owner for p in view.provinces]
        self.figures: dict[int, Figures] = {
            p.id: p.figures for p in view.provinces if p.figures is not None
        }
        self.seen = {p.id: p.seen for p in view.provinces}
        self.map = view.map.provinces
        self.names = [p.name for p in self.map]

    # -- facts ------------------------------------------------------------------------------

    def me(self, colour: int) -> OwnColour:
        return next(c for c in self.view.colours if c.colour == colour)

    def own(self, colour: int) -> list[int]:
        return [p for p, o in enumerate(self.owner) if o == colour]

    def planned_captures(self, colour: int, before: int | None = None) -> set[int]:
        """Targets of the colour's attack orders (the first `before` of them)."""
        attacks = self.draft.of(colour, "attacks")[:before]
        return {a.target for a in attacks if isinstance(a, Attack)}

    def protection(self, colour: int, target: int) -> str | None:
        """Why `target` may not be bombed, attacked or spied on this turn, or None."""
        v = self.view
        home = v.provinces[target].home
        if home >= 0 and v.turn <= v.variant.protect_home_until:
            return f"a start province, protected during turns 1-{v.variant.protect_home_until}"
        nap = self.me(colour).nap
        if nap is not None and self.owner[target] == nap.partner:
            return f"napped with {nap.partner_name} until the start of turn {nap.until}"
        return None

    def component(self, colour: int, source: int) -> set[int]:
        """The connected part of the colour's empire that holds `source` (spy reach, S11)."""
        seen = {source}
        todo = [source]
        while todo:
            p = todo.pop()
            for n in self.map[p].neighbours:
                if n not in seen and self.owner[n] == colour:
                    seen.add(n)
                    todo.append(n)
        return seen

    def spy_short(self, colour: int, source: int, target: int) -> bool:
        """Whether spies from `source` reach `target` for sure (adjacent to its part)."""
        return any(target in self.map[p].neighbours for p in self.component(colour, source))

    # -- what the form may pick -------------------------------------------------------------

    def sources(self, colour: int, phase: Phase) -> list[int]:
        """Provinces the colour may pick as source (or province) in `phase`."""
        own = self.own(colour)
        if phase == "bombs":  # the first phase: only missiles already there can fly
            return [p for p in own if self.available(colour, p, "MIS") > 0]
        if phase == "attacks":
            return sorted(set(own) | self.planned_captures(colour))
        if phase == "moves":
            return sorted(set(own) | self.planned_captures(colour))
        return own

    def no_sources(self, colour: int, phase: Phase) -> str | None:
        """Why no province can start an order of `phase` now, or None when one can."""
        if phase not in NEEDS_SOURCE or self.sources(colour, phase):
            return None
        if phase == "bombs":
            return "none of your provinces has missiles (workers on the MIS aim make them)"
        return "none of your provinces can take this order now"

    def targets(self, colour: int, phase: Phase, source: int, kind: str = "") -> list[int]:
        """Provinces an order of `phase` from `source` may name as target; with the order's
        `kind`, only those it may reach (a WoK IV operation that is not `far` needs a
        neighbour of the source)."""
        mp = self.map[source]
        mine = set(self.own(colour)) | self.planned_captures(colour)
        if phase == "attacks":
            return [t for t in mp.neighbours if t not in mine]
        if phase == "bombs":
            reach = set(mp.neighbours) | set(mp.far)
            neutral_ok = self.view.rules.bombing.bomb_neutrals
            return sorted(
                t
                for t in reach
                if self.owner[t] != colour and (neutral_ok or self.owner[t] >= 0) and t != source
            )
        if phase == "moves":
            return [t for t in mp.neighbours if t in mine]
        if phase == "spies":
            others = [t for t, o in enumerate(self.owner) if o >= 0 and o != colour]
            cv = self.view.rules.covert
            op = cv.ops.get(kind) if cv is not None else None
            if op is not None and not op.far:
                return [t for t in others if t in mp.neighbours]
            return others
        return []

    def troop_hint(self, kind: str, province: int | None = None) -> str:
        """Where troops of `kind` fight better, and the province's terrain (I2/I3)."""
        note = troop_note(self.view.rules, kind) or f"{kind}: no terrain bonus"
        if province is None or not 0 <= province < len(self.map):
            return note
        terrain = self.map[province].terrain
        return f"{note}; {self.names[province]} is {terrain}" if terrain else note

    def no_targets(self, colour: int, phase: Phase, source: int, kind: str = "") -> str | None:
        """Why an order of `phase` (and `kind`) from `source` has no target, or None."""
        if phase not in NEEDS_TARGET or self.targets(colour, phase, source, kind):
            return None
        if phase == "spies" and self.targets(colour, phase, source):
            return (
                f"{kind_label(kind)} needs another player's province next to {self.names[source]}"
            )
        return f"no province {self.names[source]} can send this order to"

    # -- amounts ----------------------------------------------------------------------------

    def available(self, colour: int, province: int, unit: str) -> int:
        """Units of `unit` the draft leaves in `province` for one more order."""
        left = self.after(colour)
        return int(left.get(province, {}).get(unit, 0))

    def maximum(self, colour: int, phase: Phase, source: int | None, kind: str = "") -> int:
        """The most a new order of `phase` may name (0 when nothing can be sent)."""
        lim = self.view.limits
        if source is None:
            return 0
        if phase == "bombs":
            return min(lim.bomb_missiles, self.available(colour, source, "MIS"))
        if phase == "attacks":
            if self.owner[source] != colour:
                sent = sum(
                    a.armies
                    for a in self.draft.of(colour, "attacks")
                    if isinstance(a, Attack) and a.target == source
                )
                onward = sum(
                    a.armies
                    for a in self.draft.of(colour, "attacks")
                    if isinstance(a, Attack) and a.source == source
                )
                return max(0, min(self.view.rules.caps.arm, sent - onward))
            return min(self.view.rules.caps.arm, self.available(colour, source, ALL_TROOPS))
        if phase == "troops":
            top = self.view.rules.troops.amount if self.view.rules.troops is not None else 0
            return min(top, self.available(colour, source, troop_pair(kind)[0]))
        if phase == "transforms":
            unit, _ = transform_units(kind)
            ratio = self.view.rules.transform.ratios.get(kind, 1)
            top = min(lim.transform_amount, self.available(colour, source, unit))
            return top - top % ratio
        if phase == "moves":
            return min(lim.move_amount, self.available(colour, source, kind or "ARM"))
        if phase == "spies":
            return min(lim.spy_amount, self.available(colour, source, "SPY"))
        return 0

    # -- checks -----------------------------------------------------------------------------

    def count_line(self, colour: int, phase: Phase) -> str:
        """The phase's limit as the form shows it ("attacks 2/4, may enter 7")."""
        n = len(self.draft.of(colour, phase))
        lim = entry_limit(self.view, phase)
        if phase == "attacks":
            allowed = self.me(colour).attacks_allowed
            return f"attacks {n}/{allowed} (up to {lim} may be entered)"
        if phase == "transforms":
            pa = sum(1 for t in self.draft.of(colour, phase) if getattr(t, "kind", "") == "POP_ARM")
            top = self.view.limits.transform_pop_arm_orders
            return f"orders {n}/{lim}, POP->ARM {pa}/{top}"
        if phase == "upgrades":
            costs = self.me(colour).upgrade_costs
            spent = self.upgrade_cost(colour)
            nxt = f", next {costs[n]}" if n < len(costs) and n < lim else ""
            return f"upgrades {n}/{lim} cost {spent}{nxt} (gold {self.me(colour).gold})"
        if phase == "troops":
            return f"orders {n}/{lim}, wood {self.wood_cost(colour)} of {self.me(colour).wood}"
        if phase == "trades":
            return f"trades {n}/{lim}: {self.trade_points(colour)} of {self.me(colour).tech} points"
        return f"orders {n}/{lim}"

    def trade_points(self, colour: int, extra: Trade | None = None) -> int:
        """Tech points the colour's trades (and `extra`) cost this turn (WoK IV)."""
        trades = [*self.draft.of(colour, "trades"), *([extra] if extra else [])]
        return sum(t.points for t in trades if isinstance(t, Trade))

    def wood_cost(self, colour: int, extra: TroopUpgrade | None = None) -> int:
        """WOOD the colour's troop upgrades (and `extra`) cost; refunds count negative."""
        tr = self.view.rules.troops
        if tr is None:
            return 0
        total = 0
        for u in [*self.draft.of(colour, "troops"), *([extra] if extra else [])]:
            if isinstance(u, TroopUpgrade):
                if u.source == "ARM":
                    total += u.amount * tr.upgrade_wood
                elif u.target == "ARM":
                    total -= u.amount * tr.downgrade_refund
                else:
                    total += u.amount * tr.change_wood
        return total

    def upgrade_cost(self, colour: int, extra: int = 0) -> int:
        """What the colour's upgrades (plus `extra` more) cost this turn (S10)."""
        costs = self.me(colour).upgrade_costs
        n = min(len(costs), len(self.draft.of(colour, "upgrades")) + extra)
        return sum(costs[:n])

    def problem(self, colour: int, phase: Phase, order: Order) -> str | None:
        """Why `order` cannot be added to the colour's draft now, or None."""
        lim = self.view.limits
        orders = self.draft.of(colour, phase)
        top = entry_limit(self.view, phase)
        if len(orders) >= top:
            noun = NOUNS[phase] + ("" if top == 1 else "s")
            return f"limit reached: {top} {noun} a turn (delete one to add another)"
        n = len(self.owner)
        for p in _provinces_of(order):
            if not 0 <= p < n:
                return f"no province {p}"
        if isinstance(order, Upgrade):
            return None
        if isinstance(order, Trade):
            tr = self.view.rules.trades
            if tr is None or tr.offer(order.points) is None:
                return f"no trade for {order.points} tech points"
            return None
        if isinstance(order, SetAim):
            if self.owner[order.province] != colour:
                return f"{self.names[order.province]} is not yours"
            if any(isinstance(a, SetAim) and a.province == order.province for a in orders):
                return f"{self.names[order.province]} already has an aim order"
            return None
        if isinstance(order, TroopUpgrade):
            if self.owner[order.province] != colour:
                return f"{self.names[order.province]} is not yours"
            top_amount = self.view.rules.troops.amount if self.view.rules.troops else 0
            if not 1 <= order.amount <= top_amount:
                return f"amount 1..{top_amount}"
            return None
        if isinstance(order, Transform):
            if self.owner[order.province] != colour:
                return f"{self.names[order.province]} is not yours"
            pa = sum(1 for t in orders if isinstance(t, Transform) and t.kind == "POP_ARM")
            if order.kind == "POP_ARM" and pa >= lim.transform_pop_arm_orders:
                return f"at most {lim.transform_pop_arm_orders} POP->ARM orders a turn"
            if not 1 <= order.amount <= lim.transform_amount:
                return f"amount 1..{lim.transform_amount}"
            return None
        source, target = _ends(order)
        can_start = source in self.sources(colour, phase)
        if not can_start and self.owner[source] != colour:
            return f"{self.names[source]} is not yours"
        if target not in self.targets(colour, phase, source):
            return self._bad_target(colour, phase, source, target)
        if not can_start:  # an own province with nothing to fire
            return f"no missiles left in {self.names[source]}"
        cv = self.view.rules.covert
        if isinstance(order, Spy) and cv is not None:
            op = cv.ops.get(order.op)
            if op is not None and not op.far and target not in self.map[source].neighbours:
                return f"{kind_label(order.op)} needs a target next to {self.names[source]}"
        if phase in ("bombs", "attacks", "spies"):
            why = self.protection(colour, target)
            if why:
                return f"{self.names[target]}: {why}"
        amount = _amount(order)
        top = self._amount_cap(phase)
        if not 1 <= amount <= top and not moves_all(self.view, order):
            every = f" or {self.view.limits.move_all} (all)" if phase == "moves" else ""
            return f"amount 1..{top}{every}" if self.view.limits.move_all else f"amount 1..{top}"
        return None

    def _amount_cap(self, phase: Phase) -> int:
        lim = self.view.limits
        return {
            "bombs": lim.bomb_missiles,
            "attacks": self.view.rules.caps.arm,
            "moves": lim.move_amount,
            "spies": lim.spy_amount,
            "troops": self.view.rules.troops.amount if self.view.rules.troops else 0,
        }.get(phase, lim.transform_amount)

    def _bad_target(self, colour: int, phase: Phase, source: int, target: int) -> str:
        s, t = self.names[source], self.names[target]
        if target == source:
            return "pick another province as target"
        if phase == "attacks":
            if self.owner[target] == colour or target in self.planned_captures(colour):
                return f"{t} is yours (or you plan to take it)"
            return f"{t} is not a neighbour of {s}"
        if phase == "bombs":
            if self.owner[target] == colour:
                return "you cannot bomb your own province"
            return f"{t} is out of range of {s} (neighbours and their neighbours)"
        if phase == "moves":
            return f"{t} is not your neighbouring province"
        return "spies only go against other players' provinces"

    def warning(self, colour: int, phase: Phase, order: Order) -> str | None:
        """Something the player should know (the order may still be entered)."""
        if isinstance(order, Upgrade):
            need = self.upgrade_cost(colour, 1)
            gold = self.me(colour).gold
            if need > gold:
                return f"needs {need} gold in all; you have {gold} now, and mining runs first"
            return None
        if isinstance(order, Trade):
            need = self.trade_points(colour, order)
            have = self.me(colour).tech
            if need > have:
                return f"needs {need} tech points in all; you have {have} now"
            return None
        if isinstance(order, Attack):
            runs = len(self.draft.of(colour, "attacks")) + 1
            allowed = self.me(colour).attacks_allowed
            if runs > allowed:
                return f"only {allowed} attacks run this turn: later ones are cancelled"
            if self.owner[order.source] != colour:
                return f"runs only if you take {self.names[order.source]} first"
        if isinstance(order, Move):
            for end in (order.source, order.target):
                if self.owner[end] != colour:
                    return f"runs only if you take {self.names[end]}"
        if moves_all(self.view, order):
            return None  # the preview says how many go
        amount = _amount(order)
        src = _source(order)
        unit = _unit(phase, order)
        if src is not None and unit and self.owner[src] == colour:
            have = self.available(colour, src, unit)
            if amount > have:
                return f"only {have} {unit} left in {self.names[src]}: fewer will go"
        return None

    # -- odds -------------------------------------------------------------------------------

    def chances(self, colour: int, phase: Phase, order: Order) -> Chances:
        """The odds of a planned order, from the colour's EFF and what the seat knows."""
        eff = self.me(colour).eff / 100
        if isinstance(order, Bomb):
            b = self.view.rules.bombing
            short = order.target in self.map[order.source].neighbours
            chance = (b.short_chance if short else b.long_chance) * eff
            rng = "short" if short else "long"
            hits = order.missiles * chance
            kinds = "/".join(b.hit_kinds)
            return Chances((f"{rng} range: {chance:.0%} a missile, ~{hits:.1f} hits ({kinds})",))
        if isinstance(order, Attack):
            return self._attack_chances(colour, order)
        if isinstance(order, Spy) and self.view.rules.covert is not None:
            return self._covert_chances(colour, order)
        if isinstance(order, Spy):
            sp = self.view.rules.spying
            short = self.owner[order.source] == colour and self.spy_short(
                colour, order.source, order.target
            )
            reach = "reach: sure" if short else f"reach: {eff:.0%} each spy"
            arrive = order.spies if short else order.spies * eff
            if order.op == "STEAL_GOLD":
                gold = arrive * eff * sp.gold_per_spy
                return Chances((reach, f"~{gold:.0f} gold if no spies defend"))
            ok = 1 - (1 - eff) ** max(0.0, arrive)
            return Chances((reach, f"success {ok:.0%} if no spies defend"), ok)
        return Chances(())

    def _covert_chances(self, colour: int, order: Spy) -> Chances:
        """WoK IV: one roll per operation from EFF, the spies used and the distance."""
        cv = self.view.rules.covert
        assert cv is not None
        op = cv.ops.get(order.op)
        if op is None:
            return Chances(())
        eff = self.me(colour).eff
        near = order.target in self.map[order.source].neighbours
        if near:
            raw = op.eff_factor * eff + op.eff_offset + op.per_spy * order.spies
        else:
            raw = op.far_eff_factor * eff + op.eff_offset
        chance = min(cv.chance_max, max(cv.chance_min, raw)) / 100
        where = "next door" if near else "far"
        return Chances((f"{where}: success {chance:.0%} (one roll for the order)",), chance)

    def _attack_chances(self, colour: int, order: Attack) -> Chances:
        a = self.view.rules.attack
        eff = self.me(colour).eff * a.eff_factor
        lev = self._lev_from(colour, order.source)
        patt = eff * (a.att_level_factor * lev)
        fig = self.figures.get(order.target)
        if fig is None and self.owner[order.target] < 0:
            arm, lev, dfn = self.neutral_estimate()
            pdef = (
                self._eff_of(-1)
                * a.eff_factor
                * (a.def_level_factor * lev + a.def_def_factor * dfn)
            )
            win = win_chance(patt, pdef, order.armies, arm)
            return Chances(
                (
                    f"PATT {patt:.0f} vs PDEF {pdef:.0f}, ~{arm} ARM (untouched neutral)",
                    f"win chance ~{win:.0%}",
                ),
                win,
            )
        if fig is None:
            return Chances((f"PATT {patt:.0f}; defenders unknown (spy the province)",))
        seen = self.seen.get(order.target)
        age = "" if seen is None else f" (seen turn {seen})"
        d_eff = self._eff_of(fig.owner) * a.eff_factor
        pdef = d_eff * (a.def_level_factor * fig.lev + a.def_def_factor * fig.def_)
        win = win_chance(patt, pdef, order.armies, fig.troops())
        return Chances(
            (f"PATT {patt:.0f} vs PDEF {pdef:.0f}, {fig.troops()} ARM{age}", f"win ~{win:.0%}"),
            win,
        )

    def neutral_estimate(self) -> tuple[int, float, float]:
        """ARM, LEV and DEF of a neutral nobody has fought yet, from the public rules:
        its start figures, +`arm_per_turn` armies every turn from turn 0 (W3) and DEF from
        its workers on the DEF aim from turn 1 (W14)."""
        r = self.view.rules
        n = r.start.neutral
        turn = self.view.turn
        arm = min(r.caps.arm, n.arm + n.arm_per_turn * turn)
        worked = max(0, turn - 1) * (n.wok // r.working.def_per)
        dfn = min(r.caps.def_tenths, n.def_tenths + worked) / 10
        return arm, n.lev, dfn

    def _lev_from(self, colour: int, source: int) -> float:
        """The level of armies leaving `source` (for a planned capture: of those sent there)."""
        fig = self.figures.get(source)
        if fig is not None and fig.owner == colour:
            return fig.lev
        for a in self.draft.of(colour, "attacks"):
            if isinstance(a, Attack) and a.target == source and a.source != source:
                return (
                    self._lev_from(colour, a.source)
                    if self.owner[a.source] == colour
                    else (self.view.rules.caps.lev_min)
                )
        return self.view.rules.caps.lev_min

    def _eff_of(self, owner: int) -> int:
        if owner < 0:
            return self.view.rules.start.neutral.eff
        for c in self.view.colours:
            if c.colour == owner:
                return c.eff
        for intel in self.view.player_intel:
            if intel.colour == owner:
                return intel.eff
        return self.view.rules.start.eff

    # -- preview ----------------------------------------------------------------------------

    def preview(self, colour: int, phase: Phase, order: Order) -> list[str]:
        """What a planned transformation, move, aim, upgrade or spy operation does."""
        r = self.view.rules
        if isinstance(order, Transform):
            src, dst = transform_units(order.kind)
            ratio = r.transform.ratios.get(order.kind, 1)
            used = min(order.amount, self.available(colour, order.province, src))
            left = self.available(colour, order.province, src) - used
            lost = used % ratio
            tail = f" ({lost} lost)" if lost else ""
            return [f"{used} {src} make {used // ratio} {dst}{tail}; {left} {src} stay"]
        if isinstance(order, Move):
            have = self.available(colour, order.source, order.unit)
            moved = min(order.amount, r.limits.move_amount, have)
            return [f"{moved} {order.unit} go; {have - moved} stay in {self.names[order.source]}"]
        if isinstance(order, TroopUpgrade):
            wood = self.wood_cost(colour, order)
            have = self.me(colour).wood
            note = "" if wood <= have else " (not enough: only what can be paid converts)"
            lines = [f"troop upgrades cost {wood} WOOD in all, you have {have}{note}"]
            return [*lines, self.troop_hint(order.target, order.province)]
        if isinstance(order, SetAim):
            fig = self.figures.get(order.province)
            wok = fig.wok if fig is not None else 0
            w = r.working
            made = {
                "DEF": f"+{wok // w.def_per / 10:.1f} DEF",
                "LEV": "more LEV for the armies",
                "MIS": f"+{wok // w.mis_per} MIS",
                "SPY": f"+{wok // w.spy_per} SPY",
                "MIN": f"+{wok * w.gold_per_wok} gold",
                "EFF": f"+{wok // w.eff_per} EFF",
            }.get(order.aim, order.aim)
            return [f"{wok} workers: {made} a turn"]
        if isinstance(order, Upgrade):
            u = r.upgrades
            gives = {
                "TECH": f"tech +{u.tech} (more attacks)",
                "EFF": f"EFF +{u.eff}",
                "DEF": f"DEF +{u.def_tenths / 10:g} in every province",
                "LEV": f"LEV +{u.lev:g} for every army",
                "MIS": f"MIS +{u.mis} in every province",
                "SPY": f"SPY +{u.spy} in every province",
            }.get(order.kind, order.kind)
            n = len(self.draft.of(colour, "upgrades"))
            costs = self.me(colour).upgrade_costs
            cost = costs[n] if n < len(costs) else 0
            return [f"{gives}; costs {cost}, {self.upgrade_cost(colour, 1)} in all"]
        if isinstance(order, Trade):
            offer = r.trades.offer(order.points) if r.trades is not None else None
            if offer is None:
                return []
            plus = [
                f"DEF +{offer.def_tenths / 10:g}" if offer.def_tenths else "",
                f"MIS +{offer.mis}" if offer.mis else "",
                f"SPY +{offer.spy}" if offer.spy else "",
                f"LEV +{offer.lev:g}" if offer.lev else "",
            ]
            every = ", ".join(g for g in plus if g)
            eff = f"EFF +{offer.eff}" if offer.eff else ""
            parts = [f"{every} in every province" if every else "", eff]
            return ["; ".join(p for p in parts if p)]
        if isinstance(order, Spy) and r.covert is not None:
            op = r.covert.ops.get(order.op)
            effect = {
                "SPY_PROVINCE": "see the province's full contents",
                "SPY_PLAYER": "see the owner's totals, EFF and tech",
            }.get(order.op, "")
            if op is not None and op.mis_per_spy:
                effect = f"{op.mis_per_spy * order.spies} missiles destroyed"
            elif op is not None and op.pop_per_spy:
                effect = f"{op.pop_per_spy * order.spies} POP stolen"
            elif op is not None and op.def_tenths_per_group:
                groups = order.spies // op.spies_per_group
                effect = f"DEF -{op.def_tenths_per_group * groups / 10:g}"
            return [f"{effect}; every spy sent is spent"] if effect else []
        if isinstance(order, Spy):
            sp = r.spying
            does = {
                "SPY_PROVINCE": "see the province's full contents",
                "SPY_PLAYER": "see the owner's totals, EFF, gold and tech",
                "PROPAGANDA": f"owner's EFF -{sp.propaganda_eff}",
                "FALSE_ORDERS": "the workers stop until their aim is changed",
                "STEAL_GOLD": f"{sp.gold_per_spy} gold for each spy that succeeds",
            }.get(order.op, order.op)
            return [does]
        return []

    def troop_order(self) -> tuple[str, ...]:
        """The order troops leave a province in (ARM only under Standard rules)."""
        tr = self.view.rules.troops
        return tr.order if tr is not None else ("ARM",)

    def after(self, colour: int) -> dict[int, dict[str, float]]:
        """Own provinces' units once the draft's bombing, attacks (troops leaving),
        transformations, troop upgrades and moves have run, in the order entered (no
        battles, working or growth). "TRO" is the sum of all troop types."""
        r = self.view.rules
        left: dict[int, dict[str, float]] = {}
        for p in self.own(colour):
            f = self.figures[p]
            left[p] = {
                "POP": f.pop,
                "WOK": f.wok,
                "ARM": f.arm,
                "PIK": f.pik,
                "ARC": f.arc,
                "KNI": f.kni,
                "CAT": f.cat,
                "MIS": f.mis,
                "SPY": f.spy,
                "LEV": f.lev,
            }
        caps = {"POP": r.caps.pop, "WOK": r.caps.wok, "MIS": r.caps.mis, "SPY": r.caps.spy}
        caps.update(dict.fromkeys(TROOP_UNITS, r.caps.arm))
        order = self.troop_order()
        for o in self.draft.of(colour, "bombs"):
            if isinstance(o, Bomb) and o.source in left:
                _take(left[o.source], "MIS", o.missiles)
        for o in self.draft.of(colour, "attacks"):
            if isinstance(o, Attack) and o.source in left:
                _take_troops(left[o.source], order, o.armies)
        for o in self.draft.of(colour, "transforms"):
            if isinstance(o, Transform) and o.province in left:
                src, dst = transform_units(o.kind)
                ratio = r.transform.ratios.get(o.kind, 1)
                used = _take(left[o.province], src, min(o.amount, r.limits.transform_amount))
                made = used // ratio
                here = left[o.province]
                if dst == "ARM" and made:
                    arm = here["ARM"]
                    lev = (arm * here["LEV"] + made * r.transform.new_arm_lev) / (arm + made)
                    here["LEV"] = round(lev, 3)
                here[dst] = min(caps.get(dst, r.caps.pop), here.get(dst, 0) + made)
        for o in self.draft.of(colour, "troops"):
            if isinstance(o, TroopUpgrade) and o.province in left:
                moved = _take(left[o.province], o.source, o.amount)
                left[o.province][o.target] = left[o.province].get(o.target, 0) + moved
        for o in self.draft.of(colour, "moves"):
            if isinstance(o, Move) and o.source in left and o.target in left:
                kinds = order if o.unit == ALL_TROOPS else (o.unit,)
                amount = min(o.amount, r.limits.move_amount)  # 99 = all that may move
                for kind in kinds:
                    moved = _take(left[o.source], kind, amount)
                    amount -= moved
                    there = left[o.target]
                    room = caps.get(kind, r.caps.pop) - there.get(kind, 0)
                    there[kind] = there.get(kind, 0) + min(moved, room)
                    left[o.source][kind] += max(0, moved - room)
        for units in left.values():
            units[ALL_TROOPS] = sum(units[k] for k in TROOP_UNITS)
        return left


def _take_troops(units: dict[str, float], order: Sequence[str], amount: int) -> int:
    """Remove up to `amount` troops, type by type in `order`; returns how many."""
    taken = 0
    for kind in order:
        taken += _take(units, kind, amount - taken)
    return taken


def _take(units: dict[str, float], unit: str, amount: int) -> int:
    """Remove up to `amount` of `unit`; returns what was taken."""
    have = int(units.get(unit, 0))
    taken = max(0, min(have, amount))
    units[unit] = have - taken
    return taken


def _provinces_of(order: Order) -> Iterable[int]:
    if isinstance(order, Transform | SetAim | TroopUpgrade):
        return (order.province,)
    if isinstance(order, Upgrade | Trade):
        return ()
    return (order.source, order.target)


def _ends(order: Order) -> tuple[int, int]:
    assert isinstance(order, Bomb | Attack | Move | Spy)
    return order.source, order.target


def _source(order: Order) -> int | None:
    if isinstance(order, Transform | TroopUpgrade):
        return order.province
    if isinstance(order, Bomb | Attack | Move | Spy):
        return order.source
    return None


def _amount(order: Order) -> int:
    if isinstance(order, Bomb):
        return order.missiles
    if isinstance(order, Attack):
        return order.armies
    if isinstance(order, Transform | Move | TroopUpgrade):
        return order.amount
    if isinstance(order, Spy):
        return order.spies
    return 0


def _unit(phase: Phase, order: Order) -> str:
    if isinstance(order, Transform):
        return transform_units(order.kind)[0]
    if isinstance(order, TroopUpgrade):
        return order.source
    if isinstance(order, Move):
        return order.unit
    return {"bombs": "MIS", "attacks": ALL_TROOPS, "spies": "SPY"}.get(phase, "")


def build_order(
    phase: Phase, source: int | None, target: int | None, amount: int, kind: str
) -> Order | str:
    """The order the form's fields describe, or what is missing."""
    if phase == "upgrades":
        return msgspec.convert({"kind": kind}, Upgrade)
    if phase == "trades":
        return Trade(int(kind)) if kind.isdigit() else "no trade to pick"
    if source is None:
        return "pick a province on the map"
    if phase == "aims":
        return msgspec.convert({"province": source, "aim": kind}, SetAim)
    if phase == "transforms":
        return msgspec.convert({"province": source, "kind": kind, "amount": amount}, Transform)
    if phase == "troops":
        src, dst = troop_pair(kind)
        data = {"province": source, "source": src, "target": dst, "amount": amount}
        return msgspec.convert(data, TroopUpgrade)
    if target is None:
        return "pick the target on the map"
    if phase == "bombs":
        return Bomb(source, target, amount)
    if phase == "attacks":
        return Attack(source, target, amount)
    if phase == "moves":
        return msgspec.convert(
            {"source": source, "target": target, "unit": kind, "amount": amount}, Move
        )
    return msgspec.convert({"source": source, "target": target, "op": kind, "spies": amount}, Spy)
