"""The words of the WoK help (F1), written from a rule set's data.

`help_sections(rules)` gives (title, paragraphs): the turn's phases in the rule set's
order with their limits and figures, tech (levels or points), the tech trades and the spy
or covert operations the rule set has, and the robots' doctrine (S16). Every number comes
from `RuleSet`, so WoK IV's help describes WoK IV and a modded file describes itself.
"""

from __future__ import annotations

from collections.abc import Callable

from suite.wok.rules.ruleset import CovertOp, RuleSet, TradeOffer

Section = tuple[str, list[str]]


def _joined(parts: list[str]) -> str:
    return ", ".join(p for p in parts if p)


def _upgrades(r: RuleSet) -> str:
    u = r.upgrades
    gives = {
        "TECH": f"tech +{u.tech}",
        "EFF": f"EFF +{u.eff}",
        "DEF": f"DEF +{u.def_tenths / 10:g} in every province",
        "LEV": f"LEV +{u.lev:g} for every army",
        "MIS": f"MIS +{u.mis} in every province",
        "SPY": f"SPY +{u.spy} in every province",
    }
    costs = ", ".join(str(c) for c in u.costs)
    kinds = _joined([gives.get(k, k) for k in u.kinds])
    return (
        f"Upgrades: up to {r.limits.upgrade_orders} a turn, costing {costs} gold in the order "
        f"bought: {kinds}."
    )


def _bombing(r: RuleSet) -> str:
    b = r.bombing
    far = (
        f"any province numbered within {b.number_reach} of the source"
        if b.range_model == "number"
        else "a neighbour of a neighbour"
    )
    amounts = {
        "ARM": _span(b.arm_per_hit, b.arm_per_hit_max, "ARM"),
        "SPY": _span(b.spy_per_hit, b.spy_per_hit_max, "SPY"),
        "DEF": f"{b.def_tenths_per_hit / 10:g} DEF",
        "TECH": f"{b.tech_per_hit[0]}-{b.tech_per_hit[1]} tech points",
    }
    if b.hit_model == "def_then_proportional":
        hit = (
            f"a hit strikes DEF with {b.def_hit_percent_per_def:g} x DEF % chance, otherwise "
            "one unit picked in proportion"
        )
    else:
        hit = "a hit destroys one of " + " / ".join(amounts.get(k, k) for k in b.hit_kinds)
    sees = {
        "none": "the bombed player learns nothing of the source",
        "province": "the bombed player sees the province the missiles came from",
        "player": "the bombed player sees the source province and its player",
        "detected": (
            f"the bombed province detects the source (province and player) with "
            f"{b.detect_percent_per_spy:g}% per spy there, at least {b.detect_min_percent:g}%"
        ),
    }[b.target_sees]
    neutrals = "neutrals can be bombed" if b.bomb_neutrals else "neutrals cannot be bombed"
    return (
        f"Bombing: up to {r.limits.bomb_orders} orders of at most {r.limits.bomb_missiles} "
        f"missiles. Each missile hits with {b.short_chance:g} x EFF % at short range (a "
        f"neighbour) and {b.long_chance:g} x EFF % at long range ({far}); missiles are spent "
        f"either way; {hit}; {sees}; {neutrals}."
    )


def _span(low: int, high: int, unit: str) -> str:
    return f"{low}-{high} {unit}" if high > low else f"{low} {unit}"


def _attacking(r: RuleSet) -> str:
    a = r.attack
    if a.tech_steps:
        steps = ", ".join(str(s) for s in a.tech_steps)
        allowed = f"{a.base_attacks} attacks a turn, +1 at {steps} tech points"
    else:
        allowed = f"{a.base_attacks} attacks a turn, +{a.attacks_per_tech} per tech level"
    orders = r.limits.attack_orders
    spent = (
        f"the first attack orders, as many as you are allowed, are spent whether they can "
        f"run or not (up to {orders} may be entered)"
        if a.count_invalid
        else f"up to {orders} orders; one that cannot run does not count"
    )
    wear = (
        f"; each round wears {a.def_wear_tenths / 10:g} DEF with {a.def_wear_percent:g}% chance"
        if a.def_wear_percent
        else ""
    )
    return (
        f"Attacking: {allowed} (at most {a.max_attacks}); {spent}. Fights go round by round "
        f"until one side is gone{wear}; the winner keeps {a.capture_pop:.0%} of POP and "
        f"WOK and {a.capture_mis:.0%} of MIS and SPY."
    )


def _working(r: RuleSet) -> str:
    w = r.working
    makes = {
        "DEF": f"DEF +0.1 per {w.def_per} workers",
        "LEV": f"LEV +{w.lev_per_wok:g} a worker" if w.lev_per_wok else "LEV for the armies",
        "MIS": f"1 MIS per {w.mis_per}",
        "SPY": f"1 SPY per {w.spy_per}",
        "MIN": f"{w.gold_per_wok} gold a worker",
        "EFF": f"1 EFF per {w.eff_per}",
        "TECH": f"{w.tech_per_wok} tech point a worker",
        "CHO": f"{w.wood_per_wok} wood a worker",
    }
    aims = "; ".join(f"{a}: {makes.get(a, a)}" for a in w.aims)
    return f"Working: the workers (at most {r.caps.wok} a province) work for their aim: {aims}."


def _transformations(r: RuleSet) -> str:
    lim = r.limits
    ratios = _joined(
        [
            f"{n} {kind.split('_')[0]} -> 1 {kind.split('_')[1]}"
            for kind, n in r.transform.ratios.items()
        ]
    )
    return (
        f"Transformations: up to {lim.transform_orders} orders ({lim.transform_pop_arm_orders} of "
        f"them POP->ARM) of at most {lim.transform_amount} units: {ratios}."
    )


def _troop_upgrades(r: RuleSet) -> str:
    t = r.troops
    if t is None:
        return ""
    kinds = "/".join(t.kinds)
    return (
        f"Troop upgrades: up to {t.orders} orders of at most {t.amount}: ARM to {kinds} costs "
        f"{t.upgrade_wood} wood each, back to ARM returns {t.downgrade_refund}, from one "
        f"type to another {t.change_wood}."
    )


def _growth(r: RuleSet) -> str:
    if r.growth_model == "exponential":
        return f"Growth: POP grows by POP x e^(-POP/{r.growth_scale:g})."
    tiers = _joined([f"{t.percent}% below {t.upto}" for t in r.growth])
    return f"Growth: POP grows by {tiers}."


def _movement(r: RuleSet) -> str:
    m = r.movement
    anywhere = f"; from tech {m.anywhere_at_tech} between any two" if m.anywhere_at_tech else ""
    every = f" Enter {r.limits.move_all} to move all that may move." if r.limits.move_all else ""
    return (
        f"Movement: up to {r.limits.move_orders} moves of at most {r.limits.move_amount} "
        f"{'/'.join(m.kinds)} between neighbouring own provinces{anywhere}.{every}"
    )


def _aims(r: RuleSet) -> str:
    return f"Aims: up to {r.limits.aim_orders} provinces change their workers' aim."


def _trading(r: RuleSet) -> str:
    n = r.trades.orders if r.trades is not None else 0
    return f"Trading: up to {n} trade{'s' if n != 1 else ''} of tech points a turn (below)."


def _spying(r: RuleSet) -> str:
    ops = _joined([op.replace("_", " ").capitalize() for op in r.spying.operations])
    return (
        f"Spying: up to {r.limits.spy_orders} operations of at most {r.limits.spy_amount} "
        f"spies: {ops}."
    )


def _covert_ops(r: RuleSet) -> str:
    return (
        f"Spying and covert operations: up to {r.limits.spy_orders} orders of at most "
        f"{r.limits.spy_amount} spies (below)."
    )


def _entropy(r: RuleSet) -> str:
    return f"Entropy: you lose {r.entropy.eff_per_province} EFF for every province you hold."


PHASES: dict[str, Callable[[RuleSet], str]] = {
    "upgrades": _upgrades,
    "bombing": _bombing,
    "attacking": _attacking,
    "entropy": _entropy,
    "working": _working,
    "transformations": _transformations,
    "troop_upgrades": _troop_upgrades,
    "growth": _growth,
    "movement": _movement,
    "aims": _aims,
    "trading": _trading,
    "spying": _spying,
    "covert_ops": _covert_ops,
}
"""What each phase (`ruleset.PHASE_NAMES`) does, in the rule set's figures."""


def tech_label(rules: RuleSet) -> str:
    """What a colour's tech is called on screen: "Tech points" (WoK IV) or "Tech" (levels)."""
    return "Tech points" if rules.tech_kind == "points" else "Tech"


def _offer(o: TradeOffer) -> str:
    every = _joined(
        [
            f"DEF +{o.def_tenths / 10:g}" if o.def_tenths else "",
            f"MIS +{o.mis}" if o.mis else "",
            f"SPY +{o.spy}" if o.spy else "",
            f"LEV +{o.lev:g}" if o.lev else "",
        ]
    )
    parts = [f"{every} in every province" if every else "", f"EFF +{o.eff}" if o.eff else ""]
    return f"{o.points} tech points: " + "; ".join(p for p in parts if p) + "."


def _tech(r: RuleSet) -> Section:
    if r.tech_kind == "points":
        aim = "the TECH aim makes them" if "TECH" in r.working.aims else "you earn them"
        cap = f"at most {r.caps.tech} are kept (more are lost)" if r.caps.tech else ""
        text = _joined([f"Tech points: {aim}", cap])
        return ("Tech points", [text + "; they raise your attacks and pay for the trades."])
    return (
        "Tech",
        [f"Tech levels: each level gives +{r.attack.attacks_per_tech} attack a turn."],
    )


def _trades(r: RuleSet) -> Section | None:
    t = r.trades
    if t is None:
        return None
    notes = _joined(
        [
            "MIS only where there are workers" if t.mis_needs_wok else "",
            "SPY only where there is population" if t.spy_needs_pop else "",
        ]
    )
    head = f"Up to {t.orders} a turn, paid with tech points, everything up to the caps"
    return ("Tech trades", [f"{head}{'; ' + notes if notes else ''}.", *map(_offer, t.offers)])


def _op_chance(op: CovertOp) -> str:
    chance = f"{op.eff_factor:g} x EFF"
    if op.eff_offset:
        chance += f" {op.eff_offset:+g}"
    if op.per_spy:
        chance += f" + {op.per_spy:g} per spy"
    where = (
        f"any province (a neighbour of the source; farther: {op.far_eff_factor:g} x EFF)"
        if op.far
        else "a neighbour of the source"
    )
    return f"{chance} %, at {where}"


def _op_effect(name: str, op: CovertOp) -> str:
    if op.mis_per_spy:
        return f"destroys {op.mis_per_spy} MIS per spy"
    if op.pop_per_spy:
        return f"steals {op.pop_per_spy} POP per spy"
    if op.def_tenths_per_group:
        return f"DEF -{op.def_tenths_per_group / 10:g} per {op.spies_per_group} spies"
    return {
        "SPY_PROVINCE": "shows the province's contents",
        "SPY_PLAYER": "shows the owner's totals, EFF and tech",
    }.get(name, "")


def _covert(r: RuleSet) -> Section | None:
    cv = r.covert
    if cv is None:
        return None
    lines = [
        f"{name.replace('_', ' ').capitalize()}: {_op_chance(cv.ops[name])}; "
        f"{_op_effect(name, cv.ops[name])}."
        for name in r.spying.operations
        if name in cv.ops
    ]
    lines.append(
        f"One roll an order, the chance held between {cv.chance_min:g}% and {cv.chance_max:g}%; "
        f"every spy used is spent. The target province catches the spies with "
        f"{cv.catch_percent_per_spy:g}% and detects the source with "
        f"{cv.detect_percent_per_spy:g}% per spy there."
    )
    lines.append(
        f"EFF: a success gives you +{cv.success_eff} and costs the target's owner "
        f"{cv.target_loss} (less {cv.catch_relief} if it catches, {cv.detect_relief} if it "
        f"detects); a failure costs you {cv.fail_eff} (Spy player: {cv.player_fail_eff}, "
        f"and its target gains {cv.player_fail_target_gain})."
    )
    return ("Covert operations", lines)


def terrain_note(rules: RuleSet, terrain: str) -> str:
    """What `terrain` changes (I2/I3): "Hills: DEF work +50 %; PIK fight at +0.05 LEV";
    "" without terrains."""
    t = rules.terrain
    if t is None or not terrain:
        return ""
    parts = []
    aim = t.favoured_aim.get(terrain)
    if aim:
        parts.append(f"{aim} work +{t.aim_bonus:.0%}")
    troops = [k for k, home in t.preferred_by.items() if home == terrain]
    if troops:
        parts.append(f"{'/'.join(troops)} fight at +{t.bonus_level:g} LEV")
    return f"{terrain}: {'; '.join(parts) or 'no bonus'}"


def _terrains(r: RuleSet) -> Section | None:
    t = r.terrain
    if t is None:
        return None
    aims = _joined([f"{k} {t.favoured_aim[k]}" for k in t.kinds if k in t.favoured_aim])
    troops = _joined([f"{k} in {home}" for k, home in t.preferred_by.items()])
    return (
        "Terrains",
        [
            f"Every province has a terrain ({', '.join(t.kinds)}); its initial is on the map.",
            f"Workers make +{t.aim_bonus:.0%} when the terrain favours their aim: {aims}.",
            f"Troops fight better at home: {troops}. A side's level rises by "
            f"{t.bonus_level:g} x the share of its fighting troops at home in the battle's "
            "province (all of them: the full bonus).",
        ],
    )


def doctrine(rules: RuleSet) -> list[str]:
    """The robots' published doctrine (S16) in words, with the rule set's figures."""
    r = rules.robots
    keep = r.keep_armies
    return [
        f"1. Converts POP to ARM with its {r.pop_arm_orders} allowed orders in its "
        f"{r.pop_arm_orders} most populous provinces.",
        f"2. Keeps workers on {r.other_aim}, except {r.home_aim} in its home province.",
        f"3. Attacks in province order from each province with at least {r.min_armies} armies "
        f"the neighbouring province with the lowest defence power, when its attack power "
        f"times the armies it sends is at least {r.power_ratio:g} times the defence power "
        f"times the defenders; it sends all but {keep} armies.",
        "4. Fires all its missiles at the neighbouring enemy province with the most armies "
        "(never at neutrals).",
        "5. Never spies, never upgrades, obeys every protection rule. Ties go to the lowest "
        "province number; the same position always gives the same orders.",
    ]


def help_sections(rules: RuleSet) -> list[Section]:
    """The help's sections for `rules` (see the module docstring)."""
    turn = [f"{i}. {PHASES[p](rules)}" for i, p in enumerate(rules.phases, 1) if PHASES[p](rules)]
    intro = (
        f"{rules.title}: everyone's orders run together, phase by phase, players in the "
        "Order of Play; entropy, working and growth need no orders."
    )
    sections: list[Section] = [("A turn", [intro, *turn]), _tech(rules)]
    for extra in (_terrains(rules), _trades(rules), _covert(rules)):
        if extra is not None:
            sections.append(extra)
    sections.append(("The robots' doctrine", doctrine(rules)))
    return sections
