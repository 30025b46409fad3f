"""WoK IV Phase V tech trades: tech points paid for bonuses in every own province.

A colour's trade orders run in the order entered; each is paid from the tech points it
has when it runs (a trade it cannot pay is cancelled with the reason). The trades and
their conditions (MIS only where workers are, SPY only where population is) are the rule
set's `[trades]` table (wok4-manual.txt point 6).
"""

from __future__ import annotations

from suite.wok.rules.orders import OrderSet
from suite.wok.rules.phases import TurnContext
from suite.wok.rules.world import World


def trading(w: World, ctx: TurnContext, colour: int, orders: OrderSet) -> None:
    """Run `colour`'s trades; the log's `trades[colour]` lists what each one gave."""
    r = w.rules
    tr = r.trades
    if tr is None:
        return
    me = w.colours[colour]
    for i, t in enumerate(orders.trades, 1):
        offer = tr.offer(t.points)
        if offer is None:  # refused at entry; a save edited by hand still loses nothing
            ctx.log.cancel(colour, "trading", i, t, f"no trade for {t.points} tech points")
            continue
        if me.tech < offer.points:
            reason = f"needs {offer.points} tech points, you have {me.tech}"
            ctx.log.cancel(colour, "trading", i, t, reason)
            continue
        me.tech -= offer.points
        gave: dict[str, float] = {"DEF": 0.0, "MIS": 0, "SPY": 0, "LEV": 0.0, "EFF": 0}
        for p in w.owned(colour):
            if offer.def_tenths:
                new = min(r.caps.def_tenths, w.dfn[p] + offer.def_tenths)
                gave["DEF"] += (new - w.dfn[p]) / 10
                w.dfn[p] = new
            if offer.mis and (w.wok[p] > 0 or not tr.mis_needs_wok):
                new = min(r.caps.mis, w.mis[p] + offer.mis)
                gave["MIS"] += new - w.mis[p]
                w.mis[p] = new
            if offer.spy and (w.pop[p] > 0 or not tr.spy_needs_pop):
                new = min(r.caps.spy, w.spy[p] + offer.spy)
                gave["SPY"] += new - w.spy[p]
                w.spy[p] = new
            if offer.lev and w.troops(p):
                w.lev[p] = w.bound_lev(w.lev[p] + offer.lev)
                gave["LEV"] = offer.lev
        if offer.eff:
            before = me.eff
            me.eff = w.bound_eff(me.eff + offer.eff)
            gave["EFF"] = me.eff - before
        gave["DEF"] = round(gave["DEF"], 1)
        record = {"points": offer.points, "tech_left": me.tech, "gave": gave}
        ctx.log.trades.setdefault(colour, []).append(record)
