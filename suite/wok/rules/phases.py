"""The ten phases of a WoK Standard turn, run on a `World` (wok-standard.txt, RULINGS).

Phases with orders take one colour's `OrderSet` and run its orders in the order entered;
the turn runner calls them for every colour in the Order of Play (W5). Every order that
cannot run is cancelled with a reason in the `TurnLog` (W7), never silently dropped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import msgspec

from suite.core.rng import Rng
from suite.wok.rules import troops
from suite.wok.rules.contest import WornContest, contest, worn_contest
from suite.wok.rules.orders import Attack, OrderSet
from suite.wok.rules.ruleset import Variant
from suite.wok.rules.world import NEUTRAL, TROOPS, World


@dataclass
class TurnLog:
    """What happened during one turn, for reports and events."""

    turn: int
    battles: list[dict[str, Any]] = field(default_factory=list)
    bombings: list[dict[str, Any]] = field(default_factory=list)
    spying: list[dict[str, Any]] = field(default_factory=list)
    cancelled: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    upgrades: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    captures: list[dict[str, Any]] = field(default_factory=list)
    rips: list[dict[str, Any]] = field(default_factory=list)
    trades: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    def cancel(self, colour: int, phase: str, index: int, order: Any, reason: str) -> None:
        entry = {
            "phase": phase,
            "order": index,
            "detail": msgspec.to_builtins(order),
            "reason": reason,
        }
        self.cancelled.setdefault(colour, []).append(entry)


@dataclass
class TurnContext:
    """The turn's fixed facts: number, chance, variant, start-of-turn owners, intel stores."""

    turn: int
    rng: Rng
    variant: Variant
    start_owner: list[int]
    log: TurnLog
    province_intel: dict[int, dict[int, dict[str, Any]]]
    player_intel: dict[int, dict[int, dict[str, Any]]]

    def protection(self, w: World, colour: int, target: int) -> str | None:
        """Why `colour` may not bomb, attack or spy on `target` now (S12, S14), or None."""
        return protection_reason(w, self.variant, self.turn, self.start_owner, colour, target)


def protection_reason(
    w: World, variant: Variant, turn: int, start_owner: list[int], colour: int, target: int
) -> str | None:
    """Headhunting protection (S12) and automatic NAPs (S14) as a reason, or None."""
    if turn <= variant.protect_home_until and w.home[target] != NEUTRAL:
        return (
            f"province {target} is a start province, protected during turns "
            f"1-{variant.protect_home_until}"
        )
    partner = nap_partner(w, variant, colour, turn)
    if partner is not None and start_owner[target] == partner:
        until = variant.nap_until[w.colours[colour].letter]
        return (
            f"napped with {w.colours[partner].name} until the start of turn {until}: "
            f"province {target} was theirs at the start of the turn"
        )
    return None


def nap_partner(w: World, variant: Variant, colour: int, turn: int) -> int | None:
    """The colour `colour` is automatically napped with this turn (S14), or None."""
    c = w.colours[colour]
    if c.seat is None or not variant.nap_until or c.letter >= len(variant.nap_until):
        return None
    if turn >= variant.nap_until[c.letter]:
        return None
    for i, other in enumerate(w.colours):
        if other.seat is not None and other.seat != c.seat and other.letter == c.letter:
            return i
    return None


def _frac(x: int, fraction: float) -> int:
    """floor(x * fraction) without float rounding surprises (fractions to 1/1000)."""
    return x * round(fraction * 1000) // 1000


# -- 1. bombing -------------------------------------------------------------
def _kill(w: World, ctx: TurnContext, kind: str, t: int) -> int:
    """One equal-chance hit on `kind` in province t (S2; WoK IV's ranges); what it removed
    (DEF in tenths, TECH in tech points of the owner)."""
    b = w.rules.bombing
    if kind == "TECH":
        o = w.owner[t]
        if o == NEUTRAL:
            return 0
        col = w.colours[o]
        lost = min(col.tech, ctx.rng.randint(*b.tech_per_hit))
        col.tech -= lost
        return lost
    if kind == "DEF":
        lost = min(b.def_tenths_per_hit, w.dfn[t])
        w.dfn[t] -= lost
        return lost
    low, high = (
        (b.arm_per_hit, b.arm_per_hit_max) if kind == "ARM" else (b.spy_per_hit, b.spy_per_hit_max)
    )
    units = w.units(kind)
    if units[t] == 0:
        return 0
    lost = min(units[t], ctx.rng.randint(low, high) if high > low else low)
    units[t] -= lost
    return lost


def _detected(w: World, ctx: TurnContext, t: int) -> bool | None:
    """WoK IV: whether the bombed province detects the source (None: no detection rule)."""
    b = w.rules.bombing
    if b.target_sees != "detected":
        return None
    chance = max(b.detect_min_percent, b.detect_percent_per_spy * w.spy[t])
    return ctx.rng.percent(min(100.0, chance))


def bombing(w: World, ctx: TurnContext, colour: int, orders: OrderSet) -> None:
    """S2: short range EFF%, long range 0.75*EFF% per missile; a hit removes ARM, SPY or DEF
    (WoK IV: 1-5 ARM, 1-5 SPY, 0.1 DEF or 5-13 tech points; detection of the source)."""
    r = w.rules
    for i, b in enumerate(orders.bombs, 1):
        reason = None
        if w.owner[b.source] != colour:
            reason = f"you do not own province {b.source}"
        elif w.mis[b.source] == 0:
            reason = f"no missiles in province {b.source}"
        elif w.owner[b.target] == colour:
            reason = "you cannot bomb your own province"
        elif w.owner[b.target] == NEUTRAL and not r.bombing.bomb_neutrals:
            reason = "neutral provinces cannot be bombed"
        elif b.target not in w.adj_sets[b.source] and b.target not in w.far[b.source]:
            reason = f"province {b.target} is out of range of province {b.source}"
        else:
            reason = ctx.protection(w, colour, b.target)
        if reason:
            ctx.log.cancel(colour, "bombing", i, b, reason)
            continue
        short = b.target in w.adj_sets[b.source]
        chance = w.colours[colour].eff * (
            r.bombing.short_chance if short else r.bombing.long_chance
        )
        fired = min(b.missiles, w.mis[b.source])
        w.mis[b.source] -= fired
        hits = 0
        destroyed = dict.fromkeys(r.bombing.hit_kinds, 0)
        t = b.target
        detected = _detected(w, ctx, t)
        for _ in range(fired):
            if not ctx.rng.percent(chance):
                continue
            hits += 1
            if r.bombing.hit_model == "def_then_proportional":
                _proportional_hit(w, ctx, t, destroyed)
                continue
            kind = ctx.rng.choice(r.bombing.hit_kinds)
            destroyed[kind] += _kill(w, ctx, kind, t)
        record: dict[str, Any] = {
            "by": colour,
            "owner": w.owner[t],
            "source": b.source,
            "target": t,
            "range": "short" if short else "long",
            "fired": fired,
            "hits": hits,
            "destroyed": {k: (n / 10 if k == "DEF" else n) for k, n in destroyed.items()},
        }
        if detected is not None:
            record["detected"] = detected
        ctx.log.bombings.append(record)


def _proportional_hit(w: World, ctx: TurnContext, t: int, destroyed: dict[str, int]) -> None:
    """I3: DEF with chance (per-DEF percent x DEF), else one troop or spy in proportion."""
    r = w.rules
    if w.dfn[t] > 0 and ctx.rng.percent(r.bombing.def_hit_percent_per_def * w.dfn[t] / 10):
        lost = min(r.bombing.def_tenths_per_hit, w.dfn[t])
        w.dfn[t] -= lost
        destroyed["DEF"] = destroyed.get("DEF", 0) + lost
        return
    kinds = [k for k in r.bombing.hit_kinds if k != "DEF"]
    total = sum(w.units(k)[t] for k in kinds)
    if not total:
        return
    pick = ctx.rng.randbelow(total)
    for k in kinds:
        n = w.units(k)[t]
        if pick < n:
            w.units(k)[t] -= 1
            destroyed[k] = destroyed.get(k, 0) + 1
            return
        pick -= n


# -- 2. attacking -----------------------------------------------------------
def _attack_problem(w: World, ctx: TurnContext, colour: int, a: Attack) -> str | None:
    """Why attack order `a` cannot run now (W7), or None."""
    if w.owner[a.source] != colour:
        return f"you do not own province {a.source}"
    if w.owner[a.target] == colour:
        return f"you already own province {a.target}"
    if a.target not in w.adj_sets[a.source]:
        return f"province {a.target} is not adjacent to province {a.source}"
    if w.troops(a.source) == 0:
        return f"no armies in province {a.source}"
    if w.troops(a.source) <= a.keep:
        return f"only {w.troops(a.source)} armies in province {a.source}, {a.keep} to keep"
    return ctx.protection(w, colour, a.target)


def attacking(w: World, ctx: TurnContext, colour: int, orders: OrderSet) -> None:
    """S3, W6-W8: attack orders in entry order; only valid ones count towards the limit
    (WoK IV, `count_invalid`: the first N orders are the attacks, whether they can run
    or not, and the later ones never run)."""
    r = w.rules
    allowed = r.attacks_allowed(w.colours[colour].tech)
    spent_anyway = r.attack.count_invalid
    used = 0
    for i, a in enumerate(orders.attacks, 1):
        if not w.colours[colour].alive:
            ctx.log.cancel(colour, "attacking", i, a, "your empire has fallen")
            continue
        over = f"over your limit of {allowed} attacks this turn"
        if spent_anyway:
            used += 1
        reason = over if spent_anyway and used > allowed else _attack_problem(w, ctx, colour, a)
        if reason is None and not spent_anyway and used >= allowed:
            reason = over
        if reason:
            ctx.log.cancel(colour, "attacking", i, a, reason)
            continue
        if not spent_anyway:
            used += 1
        sent = min(a.armies, w.troops(a.source) - a.keep)
        if r.troops is not None:
            typed_battle_order(w, ctx, colour, a.source, a.target, sent)
        else:
            battle(w, ctx, colour, a.source, a.target, sent)


def battle(w: World, ctx: TurnContext, colour: int, source: int, target: int, sent: int) -> None:
    """One attack of `sent` armies from `source` (already checked) into `target`."""
    r = w.rules
    w.arm[source] -= sent
    a_lev = w.lev[source]
    defender = w.owner[target]
    d_arm, d_lev, d_def = w.arm[target], w.lev[target], w.dfn[target] / 10
    a_eff = w.colours[colour].eff * r.attack.eff_factor
    d_eff = w.eff_of(target) * r.attack.eff_factor
    patt = a_eff * (r.attack.att_level_factor * a_lev)
    pdef = d_eff * (r.attack.def_level_factor * d_lev + r.attack.def_def_factor * d_def)
    record: dict[str, Any] = {
        "attacker": colour,
        "defender": defender,
        "source": source,
        "target": target,
        "sent": sent,
        "defenders": d_arm,
        "patt": round(patt, 1),
        "pdef": round(pdef, 1),
    }
    if d_arm == 0:
        gain = r.attack.empty_gain if r.attack.empty_gain_flat else r.attack.empty_gain / a_lev
        record.update(rounds=0, a_lost=0, a_injured=0, d_lost=0, d_injured=0, won=True)
        _capture(w, ctx, colour, target, sent, w.bound_lev(a_lev + gain))
    else:
        if r.attack.def_wear_percent > 0:
            worn = _worn(w, ctx, target, sent, patt, d_arm, d_eff)
            record["def_worn"] = (w.dfn[target] - worn.def_tenths) / 10
            w.dfn[target] = worn.def_tenths
            res = worn.result
        else:
            res = contest(ctx.rng, sent, patt, d_arm, pdef, r.attack.injured_fraction)
        won = res.attacker_won(sent)
        record.update(
            rounds=res.rounds,
            a_lost=res.a_lost - (res.a_injured if won else 0),
            a_injured=res.a_injured,
            d_lost=res.d_lost - (0 if won else res.d_injured),
            d_injured=res.d_injured,
            won=won,
        )
        if won:
            survivors = sent - res.a_lost + res.a_injured
            new_lev = w.bound_lev(a_lev + r.attack.gain_attacker_won * res.rounds)
            _capture(w, ctx, colour, target, survivors, new_lev)
        else:
            w.arm[target] = d_arm - res.d_lost + res.d_injured
            w.lev[target] = w.bound_lev(d_lev + r.attack.gain_defender_won * res.rounds)
    ctx.log.battles.append(record)


def _worn(
    w: World, ctx: TurnContext, target: int, sent: int, patt: float, d_arm: int, d_eff: float
) -> WornContest:
    """WoK IV's fight: each round may wear 0.1 DEF away, lowering PDEF from then on."""
    a = w.rules.attack
    d_lev = w.lev[target]

    def pdef_at(tenths: int) -> float:
        return d_eff * (a.def_level_factor * d_lev + a.def_def_factor * tenths / 10)

    wear = (a.def_wear_percent, a.def_wear_tenths)
    return worn_contest(ctx.rng, sent, patt, d_arm, pdef_at, w.dfn[target], wear)


def typed_battle_order(
    w: World, ctx: TurnContext, colour: int, source: int, target: int, sent: int
) -> None:
    """One attack with troop types (Intermediate, RULINGS I3) of `sent` troops."""
    r = w.rules
    assert r.troops is not None
    a_lev = w.lev[source]
    attackers = troops.Side(troops.take(w, source, sent, r.troops.order))
    defender = w.owner[target]
    d_lev, d_def = w.lev[target], w.dfn[target] / 10
    defenders = troops.Side({k: n for k, n in troops.counts(w, target).items() if n})
    a_eff, d_eff = w.colours[colour].eff, w.eff_of(target)
    terrain = w.terrain[target]
    record: dict[str, Any] = {
        "attacker": colour,
        "defender": defender,
        "source": source,
        "target": target,
        "sent": sent,
        "defenders": defenders.total(),
        "patt": round(a_eff * r.attack.att_level_factor * a_lev, 1),
        "pdef": round(
            d_eff * (r.attack.def_level_factor * d_lev + r.attack.def_def_factor * d_def), 1
        ),
        "troops_sent": dict(attackers.fighting),
        "troops_defending": dict(defenders.fighting),
    }
    if defenders.total() == 0:
        record.update(rounds=0, a_lost=0, a_injured=0, d_lost=0, d_injured=0, won=True)
        _capture_troops(
            w,
            ctx,
            colour,
            target,
            attackers.fighting,
            w.bound_lev(a_lev + r.attack.empty_gain / a_lev),
        )
        ctx.log.battles.append(record)
        return
    res = troops.typed_battle(
        ctx.rng,
        attackers,
        defenders,
        a_eff * r.attack.att_level_factor,
        (d_eff, r.attack.def_level_factor, r.attack.def_def_factor * d_def),
        (a_lev, d_lev),
        terrain,
        w,
    )
    won = res.attacker_won
    a_inj = sum(res.attacker.injured.values())
    d_inj = sum(res.defender.injured.values())
    a_dead = sum(res.attacker.dead.values())
    d_dead = sum(res.defender.dead.values())
    record.update(
        rounds=res.rounds,
        a_lost=a_dead + (0 if won else a_inj),
        a_injured=a_inj,
        d_lost=d_dead + (d_inj if won else 0),
        d_injured=d_inj,
        won=won,
    )
    if won:
        new_lev = w.bound_lev(a_lev + r.attack.gain_attacker_won * res.rounds)
        _capture_troops(w, ctx, colour, target, res.attacker.survivors(True), new_lev)
    else:
        for kind in TROOPS:
            w.units(kind)[target] = 0
        for kind, n in res.defender.survivors(True).items():
            w.units(kind)[target] = n
        w.lev[target] = w.bound_lev(d_lev + r.attack.gain_defender_won * res.rounds)
    ctx.log.battles.append(record)


def _capture_troops(
    w: World, ctx: TurnContext, colour: int, p: int, survivors: dict[str, int], lev: float
) -> None:
    """W8 with troop types: the surviving troops move in by type."""
    for kind in TROOPS:
        w.units(kind)[p] = 0
    _capture(w, ctx, colour, p, 0, lev)
    troops.put(w, p, survivors, lev)
    w.lev[p] = lev


def _capture(w: World, ctx: TurnContext, colour: int, p: int, armies: int, lev: float) -> None:
    """W8: the attacker moves in; the province keeps DEF and aim; shares of the rest stay."""
    r = w.rules
    old = w.owner[p]
    w.owner[p] = colour
    w.arm[p] = min(armies, r.caps.arm)
    w.lev[p] = lev
    w.pop[p] = _frac(w.pop[p], r.attack.capture_pop)
    w.wok[p] = _frac(w.wok[p], r.attack.capture_wok)
    w.mis[p] = _frac(w.mis[p], r.attack.capture_mis)
    w.spy[p] = _frac(w.spy[p], r.attack.capture_spy)
    if not r.attack.capture_keeps_false_orders:
        w.false_orders[p] = False
    ctx.log.captures.append({"province": p, "by": colour, "from": old})
    if old != NEUTRAL and not any(o == old for o in w.owner):
        loser = w.colours[old]
        loser.alive = False
        loser.rip_turn = ctx.turn
        loser.ripped_by = colour
        w.colours[colour].rips.append(old)
        ctx.log.rips.append({"colour": old, "by": colour, "province": p})


# -- 3. entropy -------------------------------------------------------------
def entropy(w: World, ctx: TurnContext) -> None:
    """S4: every living colour loses EFF per province owned."""
    counts = [0] * len(w.colours)
    for o in w.owner:
        if o != NEUTRAL:
            counts[o] += 1
    for i, c in enumerate(w.colours):
        if c.alive:
            c.eff = w.bound_eff(c.eff - counts[i] * w.rules.entropy.eff_per_province)


# -- 4. working -------------------------------------------------------------
def _exact(x: float) -> Fraction:
    """A rules-data decimal (0.05, 0.5) as the exact fraction its text names."""
    return Fraction(repr(x))


def exact_work_multiplier(w: World, p: int) -> Fraction:
    """I4: (1 + tech bonus x owner's tech) x (1 + terrain bonus when the terrain favours
    the aim), exactly; 1 under Standard rules."""
    r = w.rules
    o = w.owner[p]
    mult = 1 + (_exact(r.working.tech_bonus) * w.colours[o].tech if o != NEUTRAL else 0)
    t = r.terrain
    if t is not None and t.favoured_aim.get(w.terrain[p]) == w.aim[p]:
        mult *= 1 + _exact(t.aim_bonus)
    return Fraction(mult)


def work_multiplier(w: World, p: int) -> float:
    """`exact_work_multiplier` as a float (LEV, which carries no fraction, uses it)."""
    return float(exact_work_multiplier(w, p))


def _made(w: World, p: int, base: Fraction, mult: Fraction) -> int:
    """Whole units made from `base` x `mult`; with carried fractions (I4) the rest of a
    unit waits in the province, exactly (a Fraction), for the next turn."""
    value = base * mult
    if w.rules.working.carry_fractions:
        value += w.carry[p]
        units = math.floor(value)
        w.carry[p] = value - units
        return units
    return math.floor(value)


def working(w: World, ctx: TurnContext) -> None:
    """S5 / I4: every province's workers produce by aim (neutrals too); False Orders stop
    them."""
    r = w.rules
    wr = r.working
    for p in range(w.n):
        wok = w.wok[p]
        if wok == 0 or w.false_orders[p]:
            continue
        aim = w.aim[p]
        o = w.owner[p]
        mult = exact_work_multiplier(w, p)
        if aim == "DEF":
            w.dfn[p] = min(
                r.caps.def_tenths, w.dfn[p] + _made(w, p, Fraction(wok, wr.def_per), mult)
            )
        elif aim == "LEV":
            if w.troops(p) > 0 and wr.lev_per_wok:
                w.lev[p] = w.bound_lev(w.lev[p] + wok * wr.lev_per_wok)  # WoK IV
            elif w.troops(p) > 0:
                gain = min(wr.lev_max_gain, wok / (w.troops(p) * w.lev[p])) * mult
                w.lev[p] = w.bound_lev(w.lev[p] + gain)
        elif aim == "MIS":
            w.mis[p] = min(r.caps.mis, w.mis[p] + _made(w, p, Fraction(wok, wr.mis_per), mult))
        elif aim == "SPY":
            w.spy[p] = min(r.caps.spy, w.spy[p] + _made(w, p, Fraction(wok, wr.spy_per), mult))
        elif aim == "MIN":
            if o != NEUTRAL:
                w.colours[o].gold += _made(w, p, Fraction(wok * wr.gold_per_wok), mult)
        elif aim == "CHO":
            if o != NEUTRAL:
                w.colours[o].wood += _made(w, p, Fraction(wok * wr.wood_per_wok), mult)
        elif aim == "TECH" and o != NEUTRAL:
            col = w.colours[o]
            col.tech = r.bound_tech(col.tech + _made(w, p, Fraction(wok * wr.tech_per_wok), mult))
        elif aim == "EFF" and o != NEUTRAL:
            made = _made(w, p, Fraction(wok, wr.eff_per), mult)
            w.colours[o].eff = w.bound_eff(w.colours[o].eff + made)


# -- 5. transformations -----------------------------------------------------
_TRANSFORM = {
    "POP_WOK": ("POP", "WOK"),
    "POP_ARM": ("POP", "ARM"),
    "WOK_POP": ("WOK", "POP"),
    "POP_SPY": ("POP", "SPY"),
}


def transforming(w: World, ctx: TurnContext, colour: int, orders: OrderSet) -> None:
    """S6 / I5: ratios from the rules (2:1, 4:1, 2:1, POP->SPY 5:1); the remainder of an
    uneven amount is lost; caps lose more."""
    r = w.rules
    for i, t in enumerate(orders.transforms, 1):
        p = t.province
        src_kind, dst_kind = _TRANSFORM[t.kind]
        src = w.units(src_kind)
        if w.owner[p] != colour:
            ctx.log.cancel(colour, "transformations", i, t, f"you do not own province {p}")
            continue
        if src[p] == 0:
            ctx.log.cancel(colour, "transformations", i, t, f"no {src_kind} in province {p}")
            continue
        taken = min(t.amount, src[p])
        src[p] -= taken
        made = taken // r.transform.ratios[t.kind]
        if dst_kind == "ARM":
            w.add_arm(p, made, r.transform.new_arm_lev, planned=r.transform.mix_planned)
        else:
            dst = w.units(dst_kind)
            dst[p] = min(w.cap(dst_kind), dst[p] + made)


def neutral_gain(w: World, ctx: TurnContext) -> None:
    """W3: every neutral province gains armies at the new-army level."""
    r = w.rules
    for p in range(w.n):
        if w.owner[p] == NEUTRAL:
            w.add_arm(p, r.start.neutral.arm_per_turn, r.transform.new_arm_lev)


# -- 6. growth --------------------------------------------------------------
def growth(w: World, ctx: TurnContext) -> None:
    """S7 / I6: POP grows by the rule set's model (tiers or e^(-POP/100)), capped."""
    r = w.rules
    for p in range(w.n):
        pop = w.pop[p]
        if pop:
            w.pop[p] = r.grown(pop)


# -- Intermediate: upgrade troops --------------------------------------------
def troop_upgrading(w: World, ctx: TurnContext, colour: int, orders: OrderSet) -> None:
    """I5: ARM -> PIK/ARC/KNI/CAT for WOOD, back to ARM for a refund, between types for
    WOOD; without enough WOOD only what can be paid is converted."""
    r = w.rules
    tr = r.troops
    if tr is None:
        return
    me = w.colours[colour]
    for i, u in enumerate(orders.troops, 1):
        p = u.province
        src = w.units(u.source)
        reason = None
        if w.owner[p] != colour:
            reason = f"you do not own province {p}"
        elif u.source == u.target:
            reason = "a troop type cannot become itself"
        elif src[p] == 0:
            reason = f"no {u.source} in province {p}"
        if reason:
            ctx.log.cancel(colour, "troop_upgrades", i, u, reason)
            continue
        if u.source == "ARM":
            cost = tr.upgrade_wood
        elif u.target == "ARM":
            cost = -tr.downgrade_refund
        else:
            cost = tr.change_wood
        amount = min(u.amount, src[p])
        if cost > 0:
            amount = min(amount, me.wood // cost)
        if amount == 0:
            ctx.log.cancel(colour, "troop_upgrades", i, u, f"needs {cost} WOOD, you have {me.wood}")
            continue
        src[p] -= amount
        w.units(u.target)[p] += amount
        me.wood -= cost * amount
        ctx.log.upgrades.setdefault(colour, []).append(
            {"kind": f"{u.source}->{u.target}", "cost": cost * amount, "amount": amount}
        )


# -- 7. movement ------------------------------------------------------------
def _troop_kinds(unit: str) -> tuple[str, ...] | None:
    """The troop types a move of `unit` takes, in order (TRO: all, I7); None: not troops."""
    if unit == "TRO":
        return TROOPS
    if unit in TROOPS:
        return (unit,)
    return None


def movement(w: World, ctx: TurnContext, colour: int, orders: OrderSet) -> None:
    """S8 / I7: between adjacent own provinces (any two from the rules' tech level);
    troops move at their level and mix (W9); what would pass a cap stays behind."""
    anywhere = w.rules.movement.anywhere_at_tech
    far_ok = bool(anywhere) and w.colours[colour].tech >= anywhere
    for i, m in enumerate(orders.moves, 1):
        reason = None
        kinds = _troop_kinds(m.unit)
        if kinds is None:
            units = w.units(m.unit)
            have, room = units[m.source], w.cap(m.unit) - units[m.target]
        else:
            have = sum(w.units(k)[m.source] for k in kinds)
            room = w.rules.caps.arm - w.troops(m.target)
        if w.owner[m.source] != colour:
            reason = f"you do not own province {m.source}"
        elif w.owner[m.target] != colour:
            reason = f"you do not own province {m.target}"
        elif m.target not in w.adj_sets[m.source] and not (far_ok and m.target != m.source):
            reason = f"province {m.target} is not adjacent to province {m.source}"
        elif have == 0:
            reason = f"no {m.unit} in province {m.source}"
        elif room <= 0:
            reason = f"province {m.target} cannot hold more {m.unit}"
        if reason:
            ctx.log.cancel(colour, "movement", i, m, reason)
            continue
        amount = min(m.amount, w.rules.limits.move_amount, have, room)  # 99 = all (WoK IV)
        if kinds is None:
            units[m.source] -= amount
            units[m.target] += amount
        else:
            lev = w.lev[m.source]
            troops.put(w, m.target, troops.take(w, m.source, amount, kinds), lev)


# -- 8. workers' aim --------------------------------------------------------
def aiming(w: World, ctx: TurnContext, colour: int, orders: OrderSet) -> None:
    """S9: set aims in up to 4 own provinces; an aim order lifts False Orders."""
    for i, s in enumerate(orders.aims, 1):
        if w.owner[s.province] != colour:
            ctx.log.cancel(colour, "aims", i, s, f"you do not own province {s.province}")
            continue
        if w.aim[s.province] != s.aim:
            w.carry[s.province] = Fraction(0)  # Ruling: a fraction made for the old aim is lost
        w.aim[s.province] = s.aim
        w.false_orders[s.province] = False


# -- 9. upgrades ------------------------------------------------------------
def upgrading(w: World, ctx: TurnContext, colour: int, orders: OrderSet) -> None:
    """S10: the n-th upgrade bought this turn costs the n-th cost; all-province effects."""
    r = w.rules
    c = w.colours[colour]
    bought = 0
    for i, u in enumerate(orders.upgrades, 1):
        cost = r.upgrades.costs[min(bought, len(r.upgrades.costs) - 1)]
        if c.gold < cost:
            ctx.log.cancel(colour, "upgrades", i, u, f"needs {cost} gold, you have {c.gold}")
            continue
        c.gold -= cost
        bought += 1
        own = w.owned(colour)
        if u.kind == "TECH":
            c.tech += r.upgrades.tech
        elif u.kind == "EFF":
            c.eff = w.bound_eff(c.eff + r.upgrades.eff)
        elif u.kind == "DEF":
            for p in own:
                w.dfn[p] = min(r.caps.def_tenths, w.dfn[p] + r.upgrades.def_tenths)
        elif u.kind == "LEV":
            for p in own:
                if w.troops(p):
                    w.lev[p] = w.bound_lev(w.lev[p] + r.upgrades.lev)
        elif u.kind == "MIS":
            for p in own:
                w.mis[p] = min(r.caps.mis, w.mis[p] + r.upgrades.mis)
        elif u.kind == "SPY":
            for p in own:
                w.spy[p] = min(r.caps.spy, w.spy[p] + r.upgrades.spy)
        ctx.log.upgrades.setdefault(colour, []).append({"kind": u.kind, "cost": cost})


# -- 10. spying -------------------------------------------------------------
def spying(w: World, ctx: TurnContext, colour: int, orders: OrderSet) -> None:
    """S11: reach, counter-espionage, one-at-a-time success, the five operations."""
    r = w.rules
    me = w.colours[colour]
    rng = ctx.rng
    used: set[tuple[str, int]] = set()
    for i, s in enumerate(orders.spies, 1):
        owner = w.owner[s.target]
        reason = None
        if r.spying.once_per_target and (s.op, s.target) in used:
            reason = f"{s.op} was already used on province {s.target} this turn"
        elif w.owner[s.source] != colour:
            reason = f"you do not own province {s.source}"
        elif owner == colour:
            reason = "you cannot spy on your own province"
        elif owner == NEUTRAL:
            reason = "spying only works on other players' provinces"
        elif w.spy[s.source] == 0:
            reason = f"no spies in province {s.source}"
        else:
            reason = ctx.protection(w, colour, s.target)
        if reason:
            ctx.log.cancel(colour, "spying", i, s, reason)
            continue
        used.add((s.op, s.target))
        sent = min(s.spies, w.spy[s.source])
        w.spy[s.source] -= sent
        home_part = w.component(colour, s.source)
        short = any(n in home_part for n in w.adj[s.target])
        arrived = sent if short else sum(1 for _ in range(sent) if rng.percent(me.eff))
        caught_defence = 0
        if arrived and w.spy[s.target]:
            res = contest(rng, arrived, me.eff, w.spy[s.target], w.colours[owner].eff, 0.0)
            caught_defence = res.a_lost
            arrived -= res.a_lost
        success = False
        returned = 0
        caught = 0
        stolen = 0
        if s.op == "STEAL_GOLD":
            victim = w.colours[owner]
            for _ in range(arrived):
                if rng.percent(me.eff):
                    take = min(r.spying.gold_per_spy, victim.gold)
                    victim.gold -= take
                    me.gold += take
                    stolen += take
                    returned += 1
                    success = True
                else:
                    caught += 1
        else:
            for k in range(arrived):
                if rng.percent(me.eff):
                    success = True
                    returned = arrived - k
                    break
                caught += 1
        w.spy[s.source] = min(r.caps.spy, w.spy[s.source] + returned)
        result: dict[str, Any] = {}
        if success:
            result = _spy_effect(w, ctx, colour, s.op, s.target, owner)
        if s.op == "STEAL_GOLD":
            result = {"gold": stolen}
        ctx.log.spying.append(
            {
                "by": colour,
                "owner": owner,
                "source": s.source,
                "target": s.target,
                "op": s.op,
                "sent": sent,
                "range": "short" if short else "long",
                "lost_on_way": sent - arrived - caught_defence,
                "caught_by_defence": caught_defence,
                "caught": caught,
                "returned": returned,
                "success": success,
                "result": result,
            }
        )


def _spy_effect(
    w: World, ctx: TurnContext, colour: int, op: str, target: int, owner: int
) -> dict[str, Any]:
    r = w.rules
    if op == "SPY_PROVINCE":
        seen = w.contents(target) | {"turn": ctx.turn}
        ctx.province_intel.setdefault(colour, {})[target] = seen
        return seen
    if op == "SPY_PLAYER":
        seen = w.totals(owner) | {"turn": ctx.turn}
        ctx.player_intel.setdefault(colour, {})[owner] = seen
        return seen
    if op == "PROPAGANDA":
        victim = w.colours[owner]
        victim.eff = w.bound_eff(victim.eff - r.spying.propaganda_eff)
        return {"eff_lost": r.spying.propaganda_eff}
    w.false_orders[target] = True
    return {"false_orders": True}
