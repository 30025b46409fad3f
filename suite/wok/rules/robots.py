"""The S16 robot doctrine: deterministic orders from the start-of-turn world.

Every turn a robot colour (1) converts POP->ARM with its allowed orders in its most
populous provinces, (2) keeps aims DEF except MIN in its home, (3) attacks, in province
order, from each province with at least `min_armies` armies the adjacent non-own
province with the lowest PDEF when PATT*armies >= ratio*PDEF*defending armies, sending
all but `keep` armies (still keeping them when bombing has thinned the province first),
(4) fires all missiles at the adjacent enemy province with the most armies, (5) never
spies, never upgrades, and obeys every protection rule. Ties break by lowest province
index. The same world always gives the same orders.
"""

from __future__ import annotations

from suite.wok.rules.orders import Attack, Bomb, OrderSet, SetAim, Transform
from suite.wok.rules.phases import protection_reason
from suite.wok.rules.ruleset import Variant
from suite.wok.rules.world import NEUTRAL, World


def pdef_of(w: World, p: int) -> float:
    """Defence power of province p per defending army (PDEF)."""
    r = w.rules
    return (
        w.eff_of(p)
        * r.attack.eff_factor
        * (r.attack.def_level_factor * w.lev[p] + r.attack.def_def_factor * w.dfn[p] / 10)
    )


def robot_orders(w: World, variant: Variant, colour: int, turn: int) -> OrderSet:
    """The S16 orders of `colour` for `turn`, computed from the world as it stands."""
    r = w.rules
    lim = r.limits
    own = w.owned(colour)
    start_owner = list(w.owner)

    def allowed(target: int) -> bool:
        return protection_reason(w, variant, turn, start_owner, colour, target) is None

    by_pop = sorted((p for p in own if w.pop[p] > 0), key=lambda p: (-w.pop[p], p))
    transforms = tuple(
        Transform(p, "POP_ARM", min(lim.transform_amount, w.pop[p]))
        for p in by_pop[: min(r.robots.pop_arm_orders, lim.transform_pop_arm_orders)]
    )

    aims: list[SetAim] = []
    for p in own:
        want = r.robots.home_aim if w.home[p] == colour else r.robots.other_aim
        if w.aim[p] != want or w.false_orders[p]:
            aims.append(SetAim(p, want))  # type: ignore[arg-type]
    aims.sort(key=lambda s: (w.home[s.province] != colour, s.province))

    me = w.colours[colour]
    patt = me.eff * r.attack.eff_factor * r.attack.att_level_factor
    attacks: list[Attack] = []
    for p in own:
        if w.troops(p) < r.robots.min_armies:
            continue
        targets = [t for t in w.adj[p] if w.owner[t] != colour and allowed(t)]
        if not targets:
            continue
        target = min(targets, key=lambda t: (pdef_of(w, t), t))
        sent = w.troops(p) - r.robots.keep_armies
        if patt * w.lev[p] * sent >= r.robots.power_ratio * pdef_of(w, target) * w.troops(target):
            attacks.append(Attack(p, target, sent, keep=r.robots.keep_armies))

    bombs: list[Bomb] = []
    for p in own:
        if w.mis[p] == 0 or len(bombs) >= lim.bomb_orders:
            continue
        enemies = [t for t in w.adj[p] if w.owner[t] not in (colour, NEUTRAL) and allowed(t)]
        if enemies:
            target = min(enemies, key=lambda t: (-w.troops(t), t))
            bombs.append(Bomb(p, target, min(lim.bomb_missiles, w.mis[p])))

    return OrderSet(
        colour=colour,
        bombs=tuple(bombs),
        attacks=tuple(attacks[: lim.attack_orders]),
        transforms=transforms,
        aims=tuple(aims[: lim.aim_orders]),
    )
