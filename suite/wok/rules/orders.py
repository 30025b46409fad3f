"""Typed WoK orders, the actions that carry them, and their entry checks.

Provinces are named by their integer index on the board (0..N-1). Entry checks
(`check_order_set`) refuse what breaks a limit, names what does not exist or has a bad
amount; everything that depends on the world when the order runs (ownership, adjacency,
protection) is checked at run time and cancelled with a reason (RULINGS W7).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from suite.core.match import Action
from suite.wok.rules.ruleset import RuleSet

TransformKind = Literal["POP_WOK", "POP_ARM", "WOK_POP", "POP_SPY"]
TroopKind = Literal["ARM", "PIK", "ARC", "KNI", "CAT"]
UnitKind = Literal["POP", "WOK", "ARM", "MIS", "SPY", "PIK", "ARC", "KNI", "CAT", "TRO"]
AimKind = Literal["DEF", "LEV", "MIS", "SPY", "MIN", "EFF", "CHO", "TECH"]
UpgradeKind = Literal["TECH", "EFF", "DEF", "LEV", "MIS", "SPY"]
SpyOp = Literal[
    "SPY_PROVINCE",
    "SPY_PLAYER",
    "PROPAGANDA",
    "FALSE_ORDERS",
    "STEAL_GOLD",
    "SABOTAGE_MIS",
    "SABOTAGE_DEF",
    "STEAL_POP",
]


class Bomb(msgspec.Struct, frozen=True):
    """Fire up to `missiles` from `source` at `target` (short or long range, S2)."""

    source: int
    target: int
    missiles: int


class Attack(msgspec.Struct, frozen=True, omit_defaults=True):
    """Send up to `armies` from `source` into the adjacent `target` (S3, W7), leaving at
    least `keep` armies behind ("all but 2" stays all but 2 after bombing)."""

    source: int
    target: int
    armies: int
    keep: int = 0


class Transform(msgspec.Struct, frozen=True):
    """Convert up to `amount` units of the source kind in `province` (S6)."""

    province: int
    kind: TransformKind
    amount: int


class Move(msgspec.Struct, frozen=True):
    """Move up to `amount` of `unit` between two adjacent own provinces (S8)."""

    source: int
    target: int
    unit: UnitKind
    amount: int


class SetAim(msgspec.Struct, frozen=True):
    """Set the workers' aim of `province` (S9); also lifts False Orders."""

    province: int
    aim: AimKind


class Upgrade(msgspec.Struct, frozen=True):
    """Buy one upgrade (S10); the n-th bought in a turn costs the n-th cost."""

    kind: UpgradeKind


class Spy(msgspec.Struct, frozen=True):
    """Send up to `spies` from `source` on operation `op` against `target` (S11)."""

    source: int
    target: int
    op: SpyOp
    spies: int


class TroopUpgrade(msgspec.Struct, frozen=True):
    """Convert up to `amount` troops of `source` type into `target` type in `province`
    (Intermediate's Upgrade Troops phase, I5)."""

    province: int
    source: TroopKind
    target: TroopKind
    amount: int


class Trade(msgspec.Struct, frozen=True):
    """Trade `points` tech points for one of the rule set's trades (WoK IV Phase V)."""

    points: int


class OrderSet(msgspec.Struct, frozen=True):
    """One colour's orders for one turn, phase by phase, in the order entered."""

    colour: int
    bombs: tuple[Bomb, ...] = ()
    attacks: tuple[Attack, ...] = ()
    transforms: tuple[Transform, ...] = ()
    moves: tuple[Move, ...] = ()
    aims: tuple[SetAim, ...] = ()
    upgrades: tuple[Upgrade, ...] = ()
    spies: tuple[Spy, ...] = ()
    troops: tuple[TroopUpgrade, ...] = ()
    trades: tuple[Trade, ...] = ()


class SubmitOrders(Action, frozen=True, tag="orders"):
    """Replace the order sets of the named colours (all must be the seat's).

    `ready` marks the seat ready (the turn runs once every living seat is ready);
    with ready False the seat may revise again later.
    """

    sets: tuple[OrderSet, ...]
    ready: bool = True


class SetReady(Action, frozen=True, tag="ready"):
    """Mark the seat ready or not ready without changing its orders."""

    ready: bool


class Vote(Action, frozen=True, tag="vote"):
    """Vote to end the game now (W13: a unanimous vote of the living seats ends it)."""

    end: bool


class DeclareAlly(Action, frozen=True, tag="ally"):
    """Declare `colour`'s ally (W13); `partner` None withdraws. One ally at a time."""

    colour: int
    partner: int | None


class Quit(Action, frozen=True, tag="quit"):
    """Leave the game: the seat's colours keep their provinces but give no more orders."""


WokAction = SubmitOrders | SetReady | Vote | DeclareAlly | Quit


def _province(p: int, n: int, what: str) -> str | None:
    if not 0 <= p < n:
        return f"{what}: no such province {p} (the map has 0..{n - 1})"
    return None


def _amount(v: int, top: int, what: str) -> str | None:
    if not 1 <= v <= top:
        return f"{what}: bad amount {v} (1..{top})"
    return None


def _count(items: tuple[object, ...], top: int, what: str) -> str | None:
    if len(items) > top:
        return f"{len(items)} {what} orders, at most {top}"
    return None


def _troop_problem(orders: OrderSet, rules: RuleSet, n: int) -> str | None:
    """Entry checks of Upgrade Troops orders (I5); a rule set without troops has none."""
    if not orders.troops:
        return None
    tr = rules.troops
    if tr is None:
        return f"{rules.title} has no troop upgrades"
    if len(orders.troops) > tr.orders:
        return f"{len(orders.troops)} troop upgrade orders, at most {tr.orders}"
    kinds = ("ARM", *tr.kinds)
    for i, u in enumerate(orders.troops, 1):
        what = f"troop upgrade {i}"
        problem = _province(u.province, n, what) or _amount(u.amount, tr.amount, what)
        if problem:
            return problem
        if u.source not in kinds or u.target not in kinds or u.source == u.target:
            return f"{what}: cannot change {u.source} into {u.target}"
    return None


def _trade_problem(orders: OrderSet, rules: RuleSet) -> str | None:
    """Entry checks of tech trades (WoK IV); a rule set without trades has none."""
    if not orders.trades:
        return None
    tr = rules.trades
    if tr is None:
        return f"{rules.title} has no tech trades"
    if len(orders.trades) > tr.orders:
        return f"{len(orders.trades)} trade orders, at most {tr.orders}"
    for i, t in enumerate(orders.trades, 1):
        if tr.offer(t.points) is None:
            known = ", ".join(str(o.points) for o in tr.offers)
            return f"trade {i}: no trade for {t.points} tech points (have {known})"
    return None


def check_order_set(orders: OrderSet, rules: RuleSet, provinces: int) -> str | None:
    """The first entry-limit problem of `orders` as a reason, or None when it may be entered.

    Checks the number of orders per phase, province numbers, amounts, kinds (those of the
    rule set: a Standard order set may not name CHO, TRO or POP->SPY) and the three
    POP->ARM transformations; not ownership or adjacency (run-time, W7).
    """
    lim = rules.limits
    n = provinces
    problems = [
        _count(orders.bombs, lim.bomb_orders, "bombing"),
        _count(orders.attacks, lim.attack_orders, "attack"),
        _count(orders.transforms, lim.transform_orders, "transformation"),
        _count(orders.moves, lim.move_orders, "move"),
        _count(orders.aims, lim.aim_orders, "aim"),
        _count(orders.upgrades, lim.upgrade_orders, "upgrade"),
        _count(orders.spies, lim.spy_orders, "spy"),
    ]
    pop_arm = sum(1 for t in orders.transforms if t.kind == "POP_ARM")
    if pop_arm > lim.transform_pop_arm_orders:
        problems.append(
            f"{pop_arm} POP->ARM transformations, at most {lim.transform_pop_arm_orders}"
        )
    for i, b in enumerate(orders.bombs, 1):
        what = f"bombing order {i}"
        problems += [_province(b.source, n, what), _province(b.target, n, what)]
        problems.append(_amount(b.missiles, lim.bomb_missiles, what))
    for i, a in enumerate(orders.attacks, 1):
        what = f"attack order {i}"
        problems += [_province(a.source, n, what), _province(a.target, n, what)]
        problems.append(_amount(a.armies, rules.caps.arm, what))
        if not 0 <= a.keep <= rules.caps.arm:
            problems.append(f"{what}: bad number of armies to keep {a.keep} (0..{rules.caps.arm})")
    for i, t in enumerate(orders.transforms, 1):
        what = f"transformation {i}"
        problems.append(_province(t.province, n, what))
        problems.append(_amount(t.amount, lim.transform_amount, what))
        if t.kind not in rules.transform.ratios:
            problems.append(f"{what}: unknown kind {t.kind!r}")
    for i, m in enumerate(orders.moves, 1):
        what = f"move {i}"
        problems += [_province(m.source, n, what), _province(m.target, n, what)]
        if not (lim.move_all and m.amount == lim.move_all):
            problems.append(_amount(m.amount, lim.move_amount, what))
        if m.unit not in rules.movement.kinds:
            problems.append(f"{what}: unknown unit {m.unit!r}")
    seen_aims: set[int] = set()
    for i, s in enumerate(orders.aims, 1):
        what = f"aim order {i}"
        problems.append(_province(s.province, n, what))
        if s.aim not in rules.working.aims:
            problems.append(f"{what}: unknown aim {s.aim!r}")
        if s.province in seen_aims:
            problems.append(f"{what}: province {s.province} already has an aim order")
        seen_aims.add(s.province)
    for i, u in enumerate(orders.upgrades, 1):
        if u.kind not in rules.upgrades.kinds:
            problems.append(f"upgrade {i}: unknown upgrade {u.kind!r}")
    problems.append(_troop_problem(orders, rules, n))
    problems.append(_trade_problem(orders, rules))
    for i, sp in enumerate(orders.spies, 1):
        what = f"spy order {i}"
        problems += [_province(sp.source, n, what), _province(sp.target, n, what)]
        problems.append(_amount(sp.spies, lim.spy_amount, what))
        if sp.op not in rules.spying.operations:
            problems.append(f"{what}: unknown operation {sp.op!r}")
    for p in problems:
        if p is not None:
            return p
    return None
