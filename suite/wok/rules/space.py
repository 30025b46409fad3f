"""The action space of a seat, built from that seat's view only.

`WokActionSpace(view)` answers membership with the same `refusal` the engine uses, draws
random valid order sets, and describes the choices for screens (`describe()`: JSON-safe
limits, sources and targets per colour). It holds the view and nothing else, so it
gives no access to what the seat may not see.
"""

from __future__ import annotations

from typing import Any

from suite.core.match import Action
from suite.core.rng import Rng
from suite.wok.rules.legality import SeatFacts, refusal
from suite.wok.rules.orders import (
    Attack,
    Bomb,
    Move,
    OrderSet,
    SetAim,
    SetReady,
    Spy,
    SubmitOrders,
    Trade,
    Transform,
    TroopUpgrade,
    Upgrade,
)
from suite.wok.rules.views import WokView
from suite.wok.rules.world import NEUTRAL


def view_facts(view: WokView) -> SeatFacts:
    """The `SeatFacts` of the view's seat."""
    return SeatFacts(
        rules=view.rules,
        provinces=len(view.provinces),
        over=view.outcome is not None,
        alive=view.alive,
        ready=view.is_ready,
        colours=tuple(c.colour for c in view.colours),
        colour_names=tuple(p.name for p in view.players),
        living=frozenset(p.colour for p in view.players if p.alive),
        alliances=view.variant.alliances,
    )


class WokActionSpace:
    """What the view's seat may do now: any action `refusal` accepts.

    `sample` draws a random order set for each of the seat's living colours and marks the
    seat ready; a ready seat's sample is `SetReady(False)` (its only way to change
    orders).
    """

    def __init__(self, view: WokView) -> None:
        self.view = view
        self._facts = view_facts(view)

    def contains(self, action: Action) -> bool:
        return refusal(self._facts, action) is None

    def why_not(self, action: Action) -> str | None:
        """The reason `action` would be refused, or None (for live validation)."""
        return refusal(self._facts, action)

    def sample(self, rng: Rng) -> Action:
        if self.view.is_ready:
            return SetReady(False)
        sets = tuple(random_orders(self.view, c.colour, rng) for c in self.view.colours if c.alive)
        return SubmitOrders(sets=sets, ready=True)

    def describe(self) -> dict[str, Any]:
        """Limits and, per living colour, the provinces each kind of order may use now."""
        v = self.view
        lim = v.limits
        return {
            "seat": v.seat,
            "may_submit": v.may_submit,
            "ready": v.is_ready,
            "actions": ["orders", "ready", "vote", "quit"]
            + (["ally"] if v.variant.alliances else []),
            "limits": {
                "bomb_orders": lim.bomb_orders,
                "bomb_missiles": lim.bomb_missiles,
                "attack_orders": lim.attack_orders,
                "transform_orders": lim.transform_orders,
                "transform_amount": lim.transform_amount,
                "transform_pop_arm_orders": lim.transform_pop_arm_orders,
                "move_orders": lim.move_orders,
                "move_amount": lim.move_amount,
                "aim_orders": lim.aim_orders,
                "upgrade_orders": lim.upgrade_orders,
                "spy_orders": lim.spy_orders,
                "spy_amount": lim.spy_amount,
                "attack_armies": v.rules.caps.arm,
            },
            "transforms": sorted(v.rules.transform.ratios),
            "move_units": list(v.rules.movement.kinds),
            "aims": list(v.rules.working.aims),
            "upgrades": list(v.rules.upgrades.kinds),
            "spy_operations": list(v.rules.spying.operations),
            "troop_upgrades": _describe_troops(v),
            "trades": (
                {
                    "orders": v.rules.trades.orders,
                    "points": [o.points for o in v.rules.trades.offers],
                }
                if v.rules.trades is not None
                else None
            ),
            "colours": [_describe_colour(v, c.colour) for c in v.colours if c.alive],
        }


def _describe_troops(v: WokView) -> dict[str, Any] | None:
    """Intermediate's Upgrade Troops choices and WOOD prices (None without troop types)."""
    tr = v.rules.troops
    if tr is None:
        return None
    return {
        "kinds": ["ARM", *tr.kinds],
        "orders": tr.orders,
        "amount": tr.amount,
        "upgrade_wood": tr.upgrade_wood,
        "downgrade_refund": tr.downgrade_refund,
        "change_wood": tr.change_wood,
    }


def _describe_colour(v: WokView, colour: int) -> dict[str, Any]:
    owner = [p.owner for p in v.provinces]
    figs = {p.id: p.figures for p in v.provinces if p.owner == colour and p.figures}
    own = sorted(figs)
    mp = v.map.provinces
    me = next(c for c in v.colours if c.colour == colour)

    def reach(p: int) -> list[int]:
        return sorted(t for t in {*mp[p].neighbours, *mp[p].far} if owner[t] != colour)

    return {
        "colour": colour,
        "attacks_allowed": me.attacks_allowed,
        "upgrade_costs": list(me.upgrade_costs),
        "gold": me.gold,
        "wood": me.wood,
        "provinces": own,
        "attack": {
            str(p): [t for t in mp[p].neighbours if owner[t] != colour] for p in own if figs[p].arm
        },
        "bomb": {str(p): reach(p) for p in own if figs[p].mis},
        "spy": {
            str(p): [t for t in mp[p].neighbours if owner[t] not in (colour, NEUTRAL)]
            for p in own
            if figs[p].spy
        },
        "move": {str(p): [t for t in mp[p].neighbours if owner[t] == colour] for p in own},
    }


def random_orders(v: WokView, colour: int, rng: Rng) -> OrderSet:
    """A random order set for `colour` that passes the entry checks (from the view only)."""
    owner = [p.owner for p in v.provinces]
    figs = {p.id: p.figures for p in v.provinces if p.owner == colour and p.figures}
    own = sorted(figs)
    if not own:
        return OrderSet(colour=colour)
    mp = v.map.provinces
    rules = v.rules
    lim = v.limits
    attacks = []
    for _ in range(rng.randint(0, 3)):
        p = rng.choice(own)
        targets = [t for t in mp[p].neighbours if owner[t] != colour]
        if figs[p].arm and targets:
            attacks.append(Attack(p, rng.choice(targets), rng.randint(1, figs[p].arm)))
    transforms = []
    kinds = sorted(rules.transform.ratios)
    for _ in range(rng.randint(0, 3)):
        p = rng.choice(own)
        kind = rng.choice(kinds)
        transforms.append(Transform(p, kind, rng.randint(1, lim.transform_amount)))  # type: ignore[arg-type]
    if sum(1 for t in transforms if t.kind == "POP_ARM") > lim.transform_pop_arm_orders:
        transforms = [t for t in transforms if t.kind != "POP_ARM"]
    moves = []
    for _ in range(rng.randint(0, 2)):
        p = rng.choice(own)
        dest = [t for t in mp[p].neighbours if owner[t] == colour]
        if dest:
            unit = rng.choice(rules.movement.kinds)
            moves.append(Move(p, rng.choice(dest), unit, rng.randint(1, lim.move_amount)))  # type: ignore[arg-type]
    aim_list = [
        SetAim(p, rng.choice(rules.working.aims))  # type: ignore[arg-type]
        for p in sorted({rng.choice(own) for _ in range(rng.randint(0, 2))})
    ]
    me = next(c for c in v.colours if c.colour == colour)
    upgrades = []
    if rules.upgrades.kinds and me.gold >= rules.upgrades.costs[0] and rng.randbelow(2):
        upgrades.append(Upgrade(rng.choice(rules.upgrades.kinds)))  # type: ignore[arg-type]
    bombs: list[Bomb] = []
    for p in own:
        if figs[p].mis and len(bombs) < lim.bomb_orders:
            reach = sorted(t for t in {*mp[p].neighbours, *mp[p].far} if owner[t] != colour)
            if reach:
                bombs.append(Bomb(p, rng.choice(reach), min(figs[p].mis, lim.bomb_missiles)))
    spies: list[Spy] = []
    for p in own:
        if figs[p].spy and not spies:
            enemies = [t for t in mp[p].neighbours if owner[t] not in (colour, NEUTRAL)]
            if enemies:
                op = rng.choice(rules.spying.operations)
                spies.append(Spy(p, rng.choice(enemies), op, rng.randint(1, figs[p].spy)))  # type: ignore[arg-type]
    trades: list[Trade] = []
    if rules.trades is not None and rng.randbelow(2):
        affordable = [o.points for o in rules.trades.offers if o.points <= me.tech]
        if affordable:
            trades.append(Trade(rng.choice(affordable)))
    troops: list[TroopUpgrade] = []
    tr = rules.troops
    if tr is not None and rng.randbelow(2):
        p = rng.choice(own)
        troop_kinds = ("ARM", *tr.kinds)
        source, target = rng.choice(troop_kinds), rng.choice(troop_kinds)
        if source != target:
            troops.append(TroopUpgrade(p, source, target, rng.randint(1, tr.amount)))  # type: ignore[arg-type]
    return OrderSet(
        colour=colour,
        troops=tuple(troops),
        bombs=tuple(bombs),
        attacks=tuple(attacks[: lim.attack_orders]),
        transforms=tuple(transforms[: lim.transform_orders]),
        moves=tuple(moves),
        aims=tuple(aim_list[: lim.aim_orders]),
        upgrades=tuple(upgrades),
        spies=tuple(spies),
        trades=tuple(trades),
    )
