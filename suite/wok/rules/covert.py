"""WoK IV Phase VI spying and covert operations (wok4-manual.txt point 7, RULINGS K1-K2).

Every operation is one chance roll: `eff_factor` x EFF + `eff_offset` + `per_spy` x spies
used (at a far target `far_eff_factor` x EFF), clamped to the rule set's bounds. An order
that cannot run (a neutral or own target, no spies, a far target for a neighbour-only
operation, protection) is cancelled and costs nothing; an order that runs spends every
spy it uses, whatever the result. The target province may catch the spies and detect the
source (chances per defending spy); EFF moves as K2 says (see `Covert`).
"""

from __future__ import annotations

from typing import Any

from suite.wok.rules.orders import OrderSet, Spy
from suite.wok.rules.phases import TurnContext
from suite.wok.rules.ruleset import Covert, CovertOp
from suite.wok.rules.world import NEUTRAL, World


def _refusal(w: World, ctx: TurnContext, colour: int, s: Spy, op: CovertOp) -> str | None:
    """Why the order cannot run (no spies are lost), or None."""
    owner = w.owner[s.target]
    if w.owner[s.source] != colour:
        return f"you do not own province {s.source}"
    if owner == colour:
        return "you cannot spy on your own province"
    if owner == NEUTRAL:
        return "spying only works on other players' provinces"
    if w.spy[s.source] == 0:
        return f"no spies in province {s.source}"
    if not op.far and s.target not in w.adj_sets[s.source]:
        return f"{s.op} needs a target next to province {s.source}"
    return ctx.protection(w, colour, s.target)


def _chance(cv: Covert, op: CovertOp, eff: int, spies: int, near: bool) -> float:
    if near:
        raw = op.eff_factor * eff + op.eff_offset + op.per_spy * spies
    else:
        raw = op.far_eff_factor * eff + op.eff_offset
    return min(cv.chance_max, max(cv.chance_min, raw))


def _effect(
    w: World, ctx: TurnContext, colour: int, s: Spy, op: CovertOp, sent: int
) -> dict[str, Any]:
    """What a successful operation does; returns the report's `result`."""
    r = w.rules
    t = s.target
    owner = w.owner[t]
    if s.op == "SPY_PROVINCE":
        seen = w.contents(t) | {"turn": ctx.turn}
        ctx.province_intel.setdefault(colour, {})[t] = seen
        return seen
    if s.op == "SPY_PLAYER":
        for p in w.owned(owner):
            ctx.province_intel.setdefault(colour, {})[p] = w.contents(p) | {"turn": ctx.turn}
        seen = w.totals(owner) | {"turn": ctx.turn, "provinces_seen": w.owned(owner)}
        ctx.player_intel.setdefault(colour, {})[owner] = seen
        return seen
    if s.op == "SABOTAGE_MIS":
        lost = min(w.mis[t], op.mis_per_spy * sent)
        w.mis[t] -= lost
        return {"mis_destroyed": lost}
    if s.op == "SABOTAGE_DEF":
        lost = min(w.dfn[t], op.def_tenths_per_group * (sent // op.spies_per_group))
        w.dfn[t] -= lost
        return {"def_destroyed": lost / 10}
    # STEAL_POP: the stolen POP go to the source; what passes its cap is lost (W1).
    taken = min(w.pop[t], op.pop_per_spy * sent)
    w.pop[t] -= taken
    w.pop[s.source] = min(r.caps.pop, w.pop[s.source] + taken)
    return {"pop_stolen": taken}


def covert_ops(w: World, ctx: TurnContext, colour: int, orders: OrderSet) -> None:
    """Run `colour`'s spy orders under WoK IV's rules (module docstring)."""
    cv = w.rules.covert
    if cv is None:
        return
    me = w.colours[colour]
    rng = ctx.rng
    for i, s in enumerate(orders.spies, 1):
        op = cv.ops.get(s.op)
        if op is None:  # refused at entry; a hand-edited save still loses nothing
            ctx.log.cancel(colour, "spying", i, s, f"{s.op} is not an operation here")
            continue
        reason = _refusal(w, ctx, colour, s, op)
        if reason:
            ctx.log.cancel(colour, "spying", i, s, reason)
            continue
        owner = w.owner[s.target]
        victim = w.colours[owner]
        sent = min(s.spies, w.spy[s.source])
        w.spy[s.source] -= sent
        near = s.target in w.adj_sets[s.source]
        success = rng.percent(_chance(cv, op, me.eff, sent, near))
        guards = w.spy[s.target]
        caught = guards > 0 and rng.percent(min(cv.chance_max, cv.catch_percent_per_spy * guards))
        detected = guards > 0 and rng.percent(
            min(cv.chance_max, cv.detect_percent_per_spy * guards)
        )
        relief = cv.catch_relief * caught + cv.detect_relief * detected
        result: dict[str, Any] = {}
        if success:
            result = _effect(w, ctx, colour, s, op, sent)
            my_change, their_change = cv.success_eff, min(0, relief - cv.target_loss)
        elif s.op == "SPY_PLAYER":
            my_change, their_change = -cv.player_fail_eff, cv.player_fail_target_gain + relief
        else:
            my_change, their_change = -cv.fail_eff, relief
        me.eff = w.bound_eff(me.eff + my_change)
        victim.eff = w.bound_eff(victim.eff + their_change)
        ctx.log.spying.append(
            {
                "by": colour,
                "owner": owner,
                "source": s.source,
                "target": s.target,
                "op": s.op,
                "sent": sent,
                "range": "short" if near else "long",
                "lost_on_way": 0,
                "caught_by_defence": 0,
                "caught": sent if caught else 0,
                "returned": 0,
                "success": success,
                "result": result,
                "detected": detected,
                "eff_change": {"by": my_change, "owner": their_change},
            }
        )
