"""The order form's logic without pygame: reasons, maxima, previews and odds (draft.py).

Views come from real matches through the session; the odds are checked against a direct
simulation of the W6 contest.
"""

from __future__ import annotations

import random

import pytest

from suite.core.session import LocalSession
from suite.wok.rules.draft import Draft, Planner, build_order, round_loss, win_chance
from suite.wok.rules.orders import Attack, Bomb, Move, SetAim, Spy, Transform, Upgrade
from suite.wok.rules.views import WokView


def view_of(seed: int = 4, **config: object) -> WokView:
    session = LocalSession.start("wok", {"map": "trial", **config}, seed, humans=frozenset({0, 1}))
    view = session.view(0)
    assert isinstance(view, WokView)
    return view


def simulate(patt: float, pdef: float, a: int, d: int, rng: random.Random) -> bool:
    """One W6 fight: draws from 0..round(P) (0..1 below 1), the lower draw loses a unit."""
    top_a = int(patt + 0.5) if patt >= 1 else 1
    top_d = int(pdef + 0.5) if pdef >= 1 else 1
    while a and d:
        x, y = rng.randint(0, top_a), rng.randint(0, top_d)
        if x < y:
            a -= 1
        elif y < x:
            d -= 1
    return d == 0


@pytest.mark.parametrize(
    ("patt", "pdef", "a", "d"), [(50, 80, 6, 4), (120, 90, 3, 5), (10, 10, 7, 7)]
)
def test_win_chance_matches_a_simulation_of_the_contest(
    patt: float, pdef: float, a: int, d: int
) -> None:
    rng = random.Random(1)
    runs = 20000
    won = sum(simulate(patt, pdef, a, d, rng) for _ in range(runs)) / runs
    assert win_chance(patt, pdef, a, d) == pytest.approx(won, abs=0.02)


def test_round_loss_is_symmetric_and_bounded() -> None:
    la, ld = round_loss(70, 70)
    assert la == pytest.approx(ld) and 0 < la < 0.5
    la, ld = round_loss(10, 1000)
    assert la > 0.95 and ld < 0.05
    assert win_chance(50, 50, 0, 3) == 0.0 and win_chance(50, 50, 3, 0) == 1.0
    assert win_chance(50, 50, 9, 3) > win_chance(50, 50, 6, 3) > win_chance(50, 50, 3, 3)


def test_reasons_for_orders_that_cannot_be_entered() -> None:
    v = view_of()
    home = v.colours[0].homes[0]
    enemy_home = next(p.id for p in v.provinces if p.home == 1)
    far = next(
        p.id for p in v.provinces if p.id != home and p.id not in v.map.provinces[home].neighbours
    )
    plan = Planner(v, Draft.from_view(v))
    assert "not a neighbour" in (plan.problem(0, "attacks", Attack(home, far, 5)) or "")
    assert "is not yours" in (plan.problem(0, "attacks", Attack(far, home, 5)) or "")
    assert "protected" in (plan.problem(0, "spies", Spy(home, enemy_home, "SPY_PROVINCE", 3)) or "")
    assert "is not yours" in (plan.problem(0, "bombs", Bomb(far, home, 3)) or "")
    reach = {home, *v.map.provinces[home].neighbours, *v.map.provinces[home].far}
    outside = next(p.id for p in v.provinces if p.id not in reach)
    assert "out of range" in (plan.problem(0, "bombs", Bomb(home, outside, 3)) or "")
    near = v.map.provinces[home].neighbours[0]
    assert "no missiles left" in (plan.problem(0, "bombs", Bomb(home, near, 3)) or "")
    assert plan.no_sources(0, "bombs") is not None and plan.no_sources(0, "attacks") is None
    assert "amount 1.." in (
        plan.problem(0, "attacks", Attack(home, v.map.provinces[home].neighbours[0], 0)) or ""
    )
    draft = Draft.from_view(v)
    draft.add(0, "aims", SetAim(home, "MIN"))
    plan = Planner(v, draft)
    assert "already has an aim" in (plan.problem(0, "aims", SetAim(home, "EFF")) or "")
    for _ in range(v.limits.transform_pop_arm_orders):
        draft.add(0, "transforms", Transform(home, "POP_ARM", 4))
    assert "POP->ARM" in (plan.problem(0, "transforms", Transform(home, "POP_ARM", 4)) or "")
    assert plan.problem(0, "transforms", Transform(home, "POP_WOK", 4)) is None
    for _ in range(v.limits.upgrade_orders):
        draft.add(0, "upgrades", Upgrade("TECH"))
    limit = f"limit reached: {v.limits.upgrade_orders} upgrades"
    assert limit in (plan.problem(0, "upgrades", Upgrade("EFF")) or "")


def test_maxima_and_what_the_orders_leave() -> None:
    v = view_of()
    home = v.colours[0].homes[0]
    fig = v.provinces[home].figures
    assert fig is not None
    draft = Draft.from_view(v)
    plan = Planner(v, draft)
    target = v.map.provinces[home].neighbours[0]
    assert plan.maximum(0, "attacks", home) == fig.arm
    ratio = v.rules.transform.ratios["POP_ARM"]
    top = plan.maximum(0, "transforms", home, "POP_ARM")
    assert top % ratio == 0 and top <= min(fig.pop, v.limits.transform_amount)
    draft.add(0, "attacks", Attack(home, target, 5))
    draft.add(0, "transforms", Transform(home, "POP_ARM", 18))  # 2 POP are lost (S6)
    left = plan.after(0)[home]
    assert left["ARM"] == fig.arm - 5 + 18 // ratio
    assert left["POP"] == fig.pop - 18
    assert plan.maximum(0, "attacks", home) == fig.arm - 5 + 18 // ratio
    # a chained attack may send at most what goes to the province it starts from
    onward = next(p for p in v.map.provinces[target].neighbours if p != home)
    assert plan.maximum(0, "attacks", target) == 5
    assert plan.problem(0, "attacks", Attack(target, onward, 5)) is None
    assert "runs only if you take" in (plan.warning(0, "attacks", Attack(target, onward, 5)) or "")
    assert "runs only if you take" in (plan.warning(0, "moves", Move(home, target, "POP", 5)) or "")
    assert "make" in plan.preview(0, "transforms", Transform(home, "POP_WOK", 9))[0]


def test_upgrade_costs_run_up_and_the_form_builds_orders() -> None:
    v = view_of()
    draft = Draft.from_view(v)
    plan = Planner(v, draft)
    costs = v.colours[0].upgrade_costs
    assert plan.upgrade_cost(0, 1) == costs[0]
    draft.add(0, "upgrades", Upgrade("TECH"))
    assert plan.upgrade_cost(0, 1) == costs[0] + costs[1]
    assert f"cost {costs[0]}" in plan.count_line(0, "upgrades")
    assert build_order("attacks", None, None, 3, "") == "pick a province on the map"
    assert build_order("attacks", 1, None, 3, "") == "pick the target on the map"
    assert build_order("moves", 1, 2, 3, "SPY") == Move(1, 2, "SPY", 3)
    assert build_order("upgrades", None, None, 0, "DEF") == Upgrade("DEF")
    sent = draft.submit(ready=True)
    assert sent.ready and sent.sets[0].upgrades == (Upgrade("TECH"),)


def test_the_form_takes_99_as_all_in_wok4_only() -> None:
    """Issue 23 item 5: the order form accepts WoK IV's 99 and previews what goes."""
    from suite.wok.rules.draft import moves_all, order_text

    for ruleset, ok in (("wok4", True), ("standard", False)):
        v = view_of(ruleset=ruleset)
        home = v.colours[0].homes[0]
        fig = v.provinces[home].figures
        assert fig is not None
        draft = Draft.from_view(v)
        plan = Planner(v, draft)
        target = v.map.provinces[home].neighbours[0]
        draft.add(0, "attacks", Attack(home, target, 1))  # a planned capture to move into
        every = Move(home, target, "POP", 99)
        problem = plan.problem(0, "moves", every)
        assert moves_all(v, every) is ok
        if ok:
            assert problem is None
            assert order_text(v, "moves", every, names=False).endswith("all POP")
            go = min(fig.pop, v.limits.move_amount)
            assert plan.preview(0, "moves", every)[0].startswith(f"{go} POP go")
            assert plan.problem(0, "moves", Move(home, target, "POP", 98)) == (
                "amount 1..50 or 99 (all)"
            )
        else:
            assert problem == "amount 1..50"
