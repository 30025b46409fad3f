"""Risky drafts (issue 23 item 1): what a newcomer should hear before the turn runs.

`draft_risks(plan, colour)` lists, for the colour's draft as the planner sees it:

- an own province the orders leave without troops, or with fewer than a neutral province
  starts with (`start.neutral.arm`, rules data): easy to take;
- an attack the form's odds give less than an even chance;
- a transformation that leaves a province so little POP that it stops growing (the rule
  set's growth, `RuleSet.grown`).

`order_risks(plan, colour, phase, order)` gives the risks one more order would add. The
texts are advice: nothing here stops an order or a Ready.
"""

from __future__ import annotations

from suite.wok.rules.draft import ALL_TROOPS, Order, Phase, Planner
from suite.wok.rules.orders import Attack


def draft_risks(plan: Planner, colour: int) -> list[str]:
    """The risks of `colour`'s draft (see the module docstring), province order."""
    rules = plan.view.rules
    keep = rules.start.neutral.arm
    out: list[str] = []
    left = plan.after(colour)
    for p, units in sorted(left.items()):
        fig = plan.figures.get(p)
        if fig is None:
            continue
        name = plan.names[p]
        before = fig.arm + fig.pik + fig.arc + fig.kni + fig.cat
        troops = int(units[ALL_TROOPS])
        if troops < before and troops == 0:
            out.append(f"{name} is left without troops: anyone may walk in")
        elif troops < before and troops < keep:
            out.append(f"{name} keeps only {troops} troops (a neutral has {keep}): easy to take")
        pop = int(units["POP"])
        if pop < fig.pop and rules.grown(pop) == pop and rules.grown(fig.pop) > fig.pop:
            out.append(f"{name} keeps {pop} POP: it stops growing")
    for a in plan.draft.of(colour, "attacks"):
        if isinstance(a, Attack):
            win = plan.chances(colour, "attacks", a).win
            if win is not None and win < 0.5:
                out.append(f"the attack on {plan.names[a.target]} has {win:.0%} to win")
    return out


def order_risks(plan: Planner, colour: int, phase: Phase, order: Order) -> list[str]:
    """The risks `order` would add to the draft."""
    before = set(draft_risks(plan, colour))
    trial = Planner(plan.view, plan.draft.with_order(colour, phase, order))
    return [r for r in draft_risks(trial, colour) if r not in before]
