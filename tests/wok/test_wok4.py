"""WoK IV v2.50 (issue 16 item 2): one test per rule that differs from Standard.

Rules: shared/rules/wok4-manual.txt with RULINGS K1-K2; numbers from
assets/wok/rules/wok4.toml.
"""

from __future__ import annotations

import pytest

from suite.core.dice import contest_range
from suite.core.match import IllegalAction
from suite.core.rng import Rng
from suite.wok.rules import create
from suite.wok.rules import phases as ph
from suite.wok.rules.contest import worn_contest
from suite.wok.rules.covert import covert_ops
from suite.wok.rules.orders import (
    Attack,
    Bomb,
    OrderSet,
    Quit,
    SetAim,
    Spy,
    SubmitOrders,
    Trade,
    Transform,
    Upgrade,
)
from suite.wok.rules.ruleset import load_ruleset
from suite.wok.rules.trading import trading
from suite.wok.rules.turn import PHASES

from .conftest import FixedRng  # noqa: TID252

RULES = "wok4"


class ScriptedRng(Rng):
    """An Rng whose percent checks answer from a script (then `rest`), recording chances."""

    def __init__(self, answers: list[bool], rest: bool = False) -> None:
        super().__init__(3)
        self.answers = list(answers)
        self.rest = rest
        self.chances: list[float] = []

    def percent(self, p: float) -> bool:
        self.chances.append(p)
        return self.answers.pop(0) if self.answers else self.rest


def _world(make_world, n=3, edges=None):
    w = make_world(n, edges if edges is not None else [(0, 1), (1, 2)], ruleset=RULES)
    w.owner[0] = 0
    return w


def test_rule_set_loads_with_the_manuals_six_phases():
    r = load_ruleset(RULES)
    assert set(r.phases) <= set(PHASES)
    assert r.phases == (
        "bombing",  # I
        "attacking",  # II
        "entropy",  # III (EFF first, then the workers)
        "working",
        "transformations",  # IV (the neutrals' +2 right after)
        "growth",
        "movement",
        "trading",  # V
        "aims",
        "covert_ops",  # VI
    )
    assert r.caps.tech == 999 and r.caps.wok == 125
    assert r.working.aims == ("DEF", "LEV", "MIS", "SPY", "TECH", "EFF")
    assert [o.points for o in r.trades.offers] == [100, 150, 200, 250, 350]
    assert set(r.variants) == {"standard", "skirmish"}
    assert all(v.protect_home_until == 0 for v in r.variants.values())


def test_tech_aim_gives_a_point_per_worker_up_to_999(make_world, make_ctx):
    w = _world(make_world)
    w.wok[0], w.aim[0] = 37, "TECH"
    ph.working(w, make_ctx(w))
    assert w.colours[0].tech == 37
    w.colours[0].tech = 990
    ph.working(w, make_ctx(w))
    assert w.colours[0].tech == 999  # "only 999 will be counted"


def test_working_rates_of_the_manual(make_world, make_ctx):
    # +DEF 0.1 per 8, +LEV 0.005 per worker, +MIS and +SPY 1 per 4, +EFF 1 % per 8.
    w = _world(make_world, n=5, edges=[(0, 1), (1, 2), (2, 3), (3, 4)])
    for p in range(5):
        w.owner[p], w.wok[p] = 0, 17
    w.aim = ["DEF", "LEV", "MIS", "SPY", "EFF"]
    w.arm[1], w.lev[1] = 10, 1.5
    w.colours[0].eff = 50
    ph.working(w, make_ctx(w))
    assert w.dfn[0] == 2 and w.lev[1] == pytest.approx(1.585)
    assert (w.mis[2], w.spy[3], w.colours[0].eff) == (4, 4, 52)
    w.arm[1], w.lev[1] = 0, 1.0
    ph.working(w, make_ctx(w))
    assert w.lev[1] == 1.0  # nothing to train without armies


@pytest.mark.parametrize(
    ("tech", "attacks"), [(0, 3), (49, 3), (50, 4), (99, 4), (100, 5), (150, 6), (200, 7), (999, 7)]
)
def test_attacks_by_tech_points(tech, attacks):
    assert load_ruleset(RULES).attacks_allowed(tech) == attacks


def test_the_first_n_attack_orders_are_spent_whether_they_run_or_not(make_world, make_ctx):
    w = _world(make_world, n=6, edges=[(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)])
    w.arm[0], w.lev[0] = 100, 2.0
    orders = OrderSet(
        0,
        attacks=(
            Attack(1, 0, 5),  # not ours: spent anyway
            Attack(0, 1, 5),
            Attack(0, 2, 5),
            Attack(0, 3, 5),  # fourth order of three attacks: never runs
        ),
    )
    ctx = make_ctx(w, rng=Rng(2))
    ph.attacking(w, ctx, 0, orders)
    assert [b["target"] for b in ctx.log.battles] == [1, 2]
    reasons = [c["reason"] for c in ctx.log.cancelled[0]]
    assert reasons[0] == "you do not own province 1"
    assert reasons[1].startswith("over your limit of 3 attacks")


def test_bombing_kills_1_5_arm_1_5_spy_a_tenth_of_def_or_5_13_tech(make_world, make_ctx):
    w = _world(make_world)
    w.owner[1], w.arm[1], w.spy[1], w.dfn[1] = 1, 900, 90, 90
    w.colours[1].tech = 900
    w.mis[0] = 99
    ctx = make_ctx(w, rng=FixedRng(hit=True, seed=4))
    ph.bombing(w, ctx, 0, OrderSet(0, bombs=(Bomb(0, 1, 99),)))
    b = ctx.log.bombings[0]
    d = b["destroyed"]
    assert b["hits"] == 99 and set(d) == {"ARM", "SPY", "DEF", "TECH"}
    assert d["ARM"] == 900 - w.arm[1] and d["SPY"] == 90 - w.spy[1]
    assert d["TECH"] == 900 - w.colours[1].tech
    assert d["DEF"] == pytest.approx((90 - w.dfn[1]) / 10)
    defs = round(d["DEF"] * 10)
    assert all(d[k] > 0 for k in d)  # 99 hits pick every kind
    # what the other hits killed fits 1-5 ARM, 1-5 SPY and 5-13 TECH per hit
    assert 99 - defs <= d["ARM"] + d["SPY"] + d["TECH"] / 5
    assert d["ARM"] + d["SPY"] + d["TECH"] <= 13 * (99 - defs)
    w2 = _world(make_world)
    w2.owner[1], w2.colours[1].tech = 1, 3
    w2.mis[0] = 40
    ctx2 = make_ctx(w2, rng=FixedRng(hit=True, seed=9))
    ph.bombing(w2, ctx2, 0, OrderSet(0, bombs=(Bomb(0, 1, 40),)))
    assert w2.colours[1].tech == 0  # never below 0; nothing else to hit
    assert ctx2.log.bombings[0]["destroyed"]["TECH"] == 3


@pytest.mark.parametrize("kind", ["ARM", "SPY", "TECH"])
def test_each_kind_of_bomb_hit_kills_within_its_range(make_world, make_ctx, kind):
    w = _world(make_world)
    w.owner[1], w.arm[1], w.spy[1] = 1, 500, 99
    w.colours[1].tech = 999
    low, high = {"ARM": (1, 5), "SPY": (1, 5), "TECH": (5, 13)}[kind]
    seen = set()
    for seed in range(40):
        ctx = make_ctx(w, rng=Rng(seed))
        before = {"ARM": w.arm[1], "SPY": w.spy[1], "TECH": w.colours[1].tech}
        got = ph._kill(w, ctx, kind, 1)
        after = {"ARM": w.arm[1], "SPY": w.spy[1], "TECH": w.colours[1].tech}
        assert before[kind] - after[kind] == got and low <= got <= high
        seen.add(got)
        w.arm[1], w.spy[1], w.colours[1].tech = 500, 99, 999
    assert seen == set(range(low, high + 1))


def test_long_range_is_province_number_plus_minus_three(make_world, make_ctx, line_edges):
    chain = [(0, 9), (9, 1), (1, 2), (2, 8), (8, 3), (3, 7), (7, 4), (4, 6), (6, 5)]
    w = make_world(10, chain, ruleset=RULES)  # numbers, not the map, decide
    assert w.far[0] == frozenset({1, 2, 3})
    assert w.far[9] == frozenset({6, 7, 8}) and w.far[1] == frozenset({0, 3, 4})
    w.owner[0], w.mis[0] = 0, 20
    w.owner[3], w.owner[4], w.arm[3], w.arm[4] = 1, 1, 50, 50
    rng = FixedRng(hit=False)
    ctx = make_ctx(w, rng=rng)
    ph.bombing(w, ctx, 0, OrderSet(0, bombs=(Bomb(0, 3, 5), Bomb(0, 4, 5), Bomb(0, 9, 5))))
    assert [b["range"] for b in ctx.log.bombings] == ["long", "short"]
    assert rng.chances[1] == pytest.approx(0.75 * 99)  # after the detection roll
    assert "out of range" in ctx.log.cancelled[0][0]["reason"]


def test_the_bombed_province_detects_the_source_with_three_times_its_spies(make_world, make_ctx):
    w = _world(make_world)
    w.owner[1], w.spy[1], w.mis[0] = 1, 7, 2
    rng = FixedRng(hit=False)
    ctx = make_ctx(w, rng=rng)
    ph.bombing(w, ctx, 0, OrderSet(0, bombs=(Bomb(0, 1, 1),)))
    assert rng.chances[0] == pytest.approx(21.0)
    w.spy[1] = 0
    rng = FixedRng(hit=True)
    ctx = make_ctx(w, rng=rng)
    ph.bombing(w, ctx, 0, OrderSet(0, bombs=(Bomb(0, 1, 1),)))
    assert rng.chances[0] == pytest.approx(1.0)  # "but is at least 1%"
    assert ctx.log.bombings[0]["detected"] is True


def test_reports_show_the_bombing_source_only_when_detected():
    for detect in (True, False):
        state = create({"players": 2, "ruleset": RULES, "map": "trial"}, 5)
        w = state.world
        home1 = w.owned(1)[0]
        src = next(p for p in sorted(w.adj_sets[home1] | w.far[home1]) if w.owner[p] != 1)
        w.owner[src], w.mis[src] = 0, 3
        state.rng = ScriptedRng([detect], rest=False)
        state.apply(0, SubmitOrders((OrderSet(0, bombs=(Bomb(src, home1, 3),)),)))
        state.apply(1, SubmitOrders((OrderSet(1),)))
        seen = state.reports[1]["bombings"][0]
        assert seen["detected"] is detect
        assert ("source" in seen) is detect and ("by" in seen) is detect
        assert state.view(1).reports[-1].bombings[0].detected is detect


def test_def_wears_away_with_three_percent_a_round():
    # every round wears 0.1 DEF at 100 %; never at 0 %; about 3 % of the rounds at 3 %.
    res = worn_contest(Rng(1), 30, 10.0, 30, lambda d: 10.0 + d, 50, (100.0, 1))
    assert res.def_tenths == max(0, 50 - res.result.rounds)
    res = worn_contest(Rng(1), 30, 10.0, 30, lambda d: 10.0 + d, 50, (0.0, 1))
    assert res.def_tenths == 50
    worn = rounds = 0
    for seed in range(20):
        r = worn_contest(Rng(seed), 200, 10.0, 200, lambda d: 10.0, 99, (3.0, 1))
        worn += 99 - r.def_tenths
        rounds += r.result.rounds
    assert 0.02 < worn / rounds < 0.04


def test_worn_def_lowers_the_defence_power_from_the_next_round():
    powers: list[int] = []

    def pdef(tenths: int) -> float:
        powers.append(tenths)
        return 10.0 + tenths

    worn_contest(Rng(4), 40, 10.0, 40, pdef, 20, (100.0, 1))
    assert powers[:3] == [20, 19, 18]


def test_powers_below_one_roll_zero_or_one(make_world, make_ctx):
    assert contest_range(0.3) == 1
    w = _world(make_world)
    w.colours[0].eff = 3  # PATT = 10 x 1.0 x 0.03 = 0.3
    w.arm[0] = 20
    w.owner[1], w.arm[1] = 1, 20
    w.colours[1].eff = 2
    ctx = make_ctx(w, rng=Rng(6))
    ph.attacking(w, ctx, 0, OrderSet(0, attacks=(Attack(0, 1, 20),)))
    b = ctx.log.battles[0]
    assert b["patt"] == pytest.approx(0.3) and b["pdef"] == pytest.approx(0.2)
    assert b["a_lost"] == 20 or b["d_lost"] == 20  # no stalemate


def test_powers_are_times_zero_point_eff(make_world, make_ctx):
    w = _world(make_world)
    w.arm[0], w.lev[0], w.colours[0].eff = 10, 2.0, 80
    w.owner[1], w.arm[1], w.lev[1], w.dfn[1] = 1, 1, 1.5, 20
    w.colours[1].eff = 50
    ctx = make_ctx(w, rng=Rng(6))
    ph.attacking(w, ctx, 0, OrderSet(0, attacks=(Attack(0, 1, 10),)))
    b = ctx.log.battles[0]
    assert b["patt"] == pytest.approx(16.0) and b["pdef"] == pytest.approx(11.5)


def test_level_bonus_per_round_and_for_an_unprotected_province(make_world, make_ctx):
    w = _world(make_world)
    w.arm[0], w.lev[0] = 50, 2.0
    w.owner[1], w.arm[1] = 1, 5
    ctx = make_ctx(w, rng=Rng(8))
    ph.attacking(w, ctx, 0, OrderSet(0, attacks=(Attack(0, 1, 40), Attack(1, 2, 10))))
    won, empty = ctx.log.battles
    assert won["won"] and won["rounds"] >= 5 and w.owner[1] == 0 and w.owner[2] == 0
    assert w.lev[1] == pytest.approx(2.0 + 0.003 * won["rounds"])
    assert empty["rounds"] == 0 and w.lev[2] == pytest.approx(w.lev[1] + 0.1)


def test_no_injuries_every_lost_round_kills(make_world, make_ctx):
    w = _world(make_world)
    w.arm[0] = 30
    w.owner[1], w.arm[1] = 1, 30
    ctx = make_ctx(w, rng=Rng(3))
    ph.attacking(w, ctx, 0, OrderSet(0, attacks=(Attack(0, 1, 30),)))
    b = ctx.log.battles[0]
    assert b["a_injured"] == 0 and b["d_injured"] == 0


def test_trades_and_their_conditions(make_world, make_ctx):
    w = _world(make_world)
    w.owner[1] = 0
    w.wok[0], w.pop[0], w.arm[0], w.lev[0], w.dfn[0] = 5, 0, 10, 1.5, 97
    w.wok[1], w.pop[1], w.arm[1], w.lev[1], w.dfn[1] = 0, 40, 0, 1.0, 10
    me = w.colours[0]
    me.tech, me.eff = 999, 30
    for points in (100, 150, 200, 250):
        ctx = make_ctx(w)
        trading(w, ctx, 0, OrderSet(0, trades=(Trade(points),)))
        assert ctx.log.trades[0][0]["points"] == points
    # 100: +0.3 DEF (up to 9.9); 150: +5 MIS only with workers, +2 SPY only with POP;
    # 200: +0.300 LEV where there are armies; 250: +60 EFF.
    assert me.tech == 999 - 700
    assert w.dfn[0] == 99 and w.dfn[1] == 13
    assert (w.mis[0], w.mis[1], w.spy[0], w.spy[1]) == (5, 0, 0, 2)
    assert w.lev[0] == pytest.approx(1.8) and w.lev[1] == 1.0
    assert me.eff == 90
    ctx = make_ctx(w)
    trading(w, ctx, 0, OrderSet(0, trades=(Trade(350),)))
    assert ctx.log.cancelled[0][0]["reason"] == "needs 350 tech points, you have 299"
    me.tech = 350
    trading(w, make_ctx(w), 0, OrderSet(0, trades=(Trade(350),)))  # +0.6 DEF, +0.500 LEV
    assert me.tech == 0 and w.dfn[1] == 19 and w.lev[0] == pytest.approx(2.3)


def test_trade_orders_are_checked_at_entry():
    state = create({"players": 2, "ruleset": RULES}, 1)
    with pytest.raises(IllegalAction, match="no trade for 120 tech points"):
        state.apply(0, SubmitOrders((OrderSet(0, trades=(Trade(120),)),)))
    with pytest.raises(IllegalAction, match="2 trade orders, at most 1"):
        state.apply(0, SubmitOrders((OrderSet(0, trades=(Trade(100), Trade(150))),)))
    with pytest.raises(IllegalAction, match="1 upgrade orders, at most 0"):
        state.apply(0, SubmitOrders((OrderSet(0, upgrades=(Upgrade("EFF"),)),)))
    with pytest.raises(IllegalAction, match="unknown aim 'MIN'"):
        state.apply(0, SubmitOrders((OrderSet(0, aims=(SetAim(0, "MIN"),)),)))
    with pytest.raises(IllegalAction, match="has no tech trades"):
        create({"players": 2}, 1).apply(0, SubmitOrders((OrderSet(0, trades=(Trade(100),)),)))
    with pytest.raises(IllegalAction, match="unknown aim 'TECH'"):
        create({"players": 2}, 1).apply(0, SubmitOrders((OrderSet(0, aims=(SetAim(0, "TECH"),)),)))


def _spy_world(make_world):
    w = _world(make_world, n=5, edges=[(0, 1), (1, 2), (2, 3), (3, 4)])
    w.owner[1], w.owner[3] = 1, 1
    w.spy[0] = 30
    w.colours[0].eff, w.colours[1].eff = 60, 60
    return w


@pytest.mark.parametrize(
    ("op", "target", "spies", "chance"),
    [
        ("SPY_PROVINCE", 1, 5, 70.0),  # a neighbour: EFF + 2 % per spy
        ("SPY_PROVINCE", 3, 5, 45.0),  # anywhere else: 3/4 EFF
        ("SPY_PLAYER", 1, 6, 33.0),  # 1/2 EFF + 0.5 % per spy
        ("SABOTAGE_MIS", 1, 5, 40.0),  # EFF - 20 %
        ("SABOTAGE_DEF", 1, 5, 40.0),
        ("STEAL_POP", 1, 5, 40.0),
    ],
)
def test_spy_operation_chances(make_world, make_ctx, op, target, spies, chance):
    w = _spy_world(make_world)
    rng = ScriptedRng([])
    ctx = make_ctx(w, rng=rng)
    covert_ops(w, ctx, 0, OrderSet(0, spies=(Spy(0, target, op, spies),)))
    assert rng.chances[0] == pytest.approx(chance)
    assert w.spy[0] == 30 - spies  # spent, though the operation failed


def test_spy_chances_are_capped_at_99(make_world, make_ctx):
    w = _spy_world(make_world)
    w.colours[0].eff = 95
    rng = ScriptedRng([])
    covert_ops(w, make_ctx(w, rng=rng), 0, OrderSet(0, spies=(Spy(0, 1, "SPY_PROVINCE", 20),)))
    assert rng.chances[0] == 99.0


def test_spy_operation_effects(make_world, make_ctx):
    w = _spy_world(make_world)
    w.mis[1], w.dfn[1], w.pop[1], w.pop[0] = 20, 15, 100, 990
    orders = OrderSet(
        0,
        spies=(
            Spy(0, 1, "SABOTAGE_MIS", 4),  # 12 missiles
            Spy(0, 1, "SABOTAGE_DEF", 7),  # two groups of 3: 0.4 DEF
            Spy(0, 1, "STEAL_POP", 5),  # 75 POP, only 9 fit under 999
            Spy(0, 1, "SPY_PLAYER", 1),
        ),
    )
    ctx = make_ctx(w, rng=ScriptedRng([], rest=True))  # no guards: one roll per order
    covert_ops(w, ctx, 0, orders)
    assert (w.mis[1], w.dfn[1], w.pop[1], w.pop[0]) == (8, 11, 25, 999)
    assert w.spy[0] == 30 - 17
    assert ctx.player_intel[0][1]["provinces"] == 2
    assert set(ctx.province_intel[0]) == {1, 3}  # all the player's provinces


def test_orders_that_cannot_run_cost_no_spies(make_world, make_ctx):
    w = _spy_world(make_world)
    orders = OrderSet(
        0,
        spies=(
            Spy(0, 2, "SPY_PROVINCE", 3),  # a neutral
            Spy(0, 0, "SPY_PROVINCE", 3),  # our own
            Spy(0, 3, "SABOTAGE_DEF", 3),  # not a neighbour
            Spy(0, 3, "SPY_PLAYER", 3),  # not a neighbour
        ),
    )
    ctx = make_ctx(w, rng=ScriptedRng([]))
    covert_ops(w, ctx, 0, orders)
    assert w.spy[0] == 30 and not ctx.log.spying
    assert len(ctx.log.cancelled[0]) == 4


@pytest.mark.parametrize(
    ("op", "rolls", "mine", "theirs"),
    [
        ("SPY_PROVINCE", [True, False, False], 2, -2),  # success: +2 / -2
        ("SPY_PROVINCE", [True, True, False], 2, -1),  # ... less if he catches a spy
        ("SPY_PROVINCE", [True, True, True], 2, 0),  # ... or detects the source
        ("SPY_PROVINCE", [False, False, False], -2, 0),  # failure: -2
        ("SPY_PROVINCE", [False, True, True], -2, 2),  # anti-spying pays the target
        ("SPY_PLAYER", [False, False, False], -6, 2),  # a failed Spy Player: -6 / +2
    ],
)
def test_spy_eff_effects_k2(make_world, make_ctx, op, rolls, mine, theirs):
    w = _spy_world(make_world)
    w.spy[1] = 10
    ctx = make_ctx(w, rng=ScriptedRng(rolls))
    covert_ops(w, ctx, 0, OrderSet(0, spies=(Spy(0, 1, op, 2),)))
    assert (w.colours[0].eff, w.colours[1].eff) == (60 + mine, 60 + theirs)
    rec = ctx.log.spying[0]
    assert rec["caught"] == (2 if rolls[1] else 0) and rec["detected"] is rolls[2]


def test_catch_and_detect_chances_follow_the_target_spies(make_world, make_ctx):
    w = _spy_world(make_world)
    w.spy[1] = 9
    rng = ScriptedRng([])
    covert_ops(w, make_ctx(w, rng=rng), 0, OrderSet(0, spies=(Spy(0, 1, "SPY_PROVINCE", 1),)))
    assert rng.chances[1:] == [9.0, 27.0]


def test_the_spied_player_sees_the_source_only_when_detected():
    for detect in (True, False):
        state = create({"players": 2, "ruleset": RULES, "map": "trial"}, 5)
        w = state.world
        home1 = w.owned(1)[0]
        src = w.adj[home1][0]
        w.owner[src], w.spy[src] = 0, 5
        w.spy[home1] = 10
        state.rng = ScriptedRng([True, False, detect], rest=False)
        state.apply(0, SubmitOrders((OrderSet(0, spies=(Spy(src, home1, "SPY_PROVINCE", 2),)),)))
        state.apply(1, SubmitOrders((OrderSet(1),)))
        seen = next(s for s in state.reports[1]["spying"] if s["owner"] == 1)
        assert ("source" in seen) is detect and "result" not in seen


def test_the_125_worker_cap(make_world, make_ctx):
    w = _world(make_world)
    w.pop[0], w.wok[0] = 200, 110
    orders = OrderSet(0, transforms=(Transform(0, "POP_WOK", 50),))
    ph.transforming(w, make_ctx(w), 0, orders)
    assert w.wok[0] == 125 and w.pop[0] == 150  # 25 workers made, 10 lost


def test_armies_past_999_still_count_in_the_level_mix(make_world, make_ctx):
    # "For the experts": (990 x 1.3 + 12 x 1.0) / 1002, not / 999.
    w = _world(make_world)
    w.pop[0], w.arm[0], w.lev[0] = 48, 990, 1.3
    ph.transforming(w, make_ctx(w), 0, OrderSet(0, transforms=(Transform(0, "POP_ARM", 48),)))
    assert w.arm[0] == 999
    assert w.lev[0] == pytest.approx(round((990 * 1.3 + 12) / 1002, 3))


def test_entropy_comes_before_the_workers(make_world, make_ctx):
    r = load_ruleset(RULES)
    assert r.phases.index("entropy") + 1 == r.phases.index("working")


def test_missed_turns_quit_and_the_provinces_dig_in():
    state = create({"players": 3, "ruleset": RULES, "map": "star-islands"}, 2)
    w = state.world
    home = w.owned(2)[0]
    w.aim[home] = "TECH"
    for _ in range(3):
        assert not state.seat_quit[2]
        state.apply(0, SubmitOrders((OrderSet(0),)))
        state.apply(1, SubmitOrders((OrderSet(1),)))
        state.run()  # the deadline passed without seat 2's orders
    assert state.seat_quit[2] and w.colours[2].quit
    assert w.owner[home] == 2 and w.colours[2].tech > 0  # the workers keep their orders


def test_five_quits_or_empty_slots_end_alliances():
    six = create({"players": 6, "ruleset": RULES, "variant": "standard", "map": "kaomaris"}, 1)
    assert six.alliances_allowed()  # 4 empty slots
    six.apply(5, Quit())
    assert not six.alliances_allowed()  # 4 empty + 1 quit
    five = create({"players": 5, "ruleset": RULES, "variant": "standard", "map": "kaomaris"}, 1)
    assert not five.alliances_allowed()


def test_reports_and_views_name_the_tech_trades():
    state = create({"players": 2, "ruleset": RULES, "map": "trial"}, 3)
    state.world.colours[0].tech = 260
    state.apply(0, SubmitOrders((OrderSet(0, trades=(Trade(250),)),)))
    state.apply(1, SubmitOrders((OrderSet(1),)))
    rep = state.view(0).reports[-1]
    assert rep.trades[0].points == 250 and rep.trades[0].tech_left == 10
    assert rep.trades[0].gave["EFF"] == 1 and state.world.colours[0].eff == 99  # 98 + 60, capped
    assert not state.view(1).reports[-1].trades


def test_bots_play_wok4_to_the_end_and_the_general_trades():
    import msgspec

    from suite.core.bots import RandomBot
    from suite.wok.rules.bots import GeneralBot, RobotBot
    from suite.wok.rules.views import WokViews

    trades = 0
    for seed in range(3):
        state = create({"players": 3, "ruleset": RULES, "map": "star-islands"}, seed)
        bots = [GeneralBot(), RobotBot(), RandomBot()]
        rng = Rng(seed)
        while state.outcome() is None and state.turn <= 80:
            for seat in sorted(state.awaiting()):
                action = bots[seat].choose(state.view(seat), state.legal(seat), rng)
                assert state.refusal(seat, action) is None
                state.apply(seat, action)
            state.check()
            trades += len(state.reports[0]["trades"])
            view = state.view(0)
            assert msgspec.json.decode(msgspec.json.encode(view), type=WokViews) == view
        assert state.outcome() is not None and state.outcome().winners == (0,)
        again = type(state).from_dict(state.to_dict())
        assert again.to_dict() == state.to_dict()
    assert trades > 0


def test_the_action_space_describes_trades_and_samples_them():
    import json

    state = create({"players": 2, "ruleset": RULES}, 2)
    state.world.colours[0].tech = 400
    space = state.legal(0)
    desc = space.describe()  # type: ignore[union-attr]
    json.dumps(desc)
    assert desc["trades"] == {"orders": 1, "points": [100, 150, 200, 250, 350]}
    assert "TECH" in desc["aims"] and "MIN" not in desc["aims"]
    assert "STEAL_POP" in desc["spy_operations"] and desc["upgrades"] == []
    rng = Rng(5)
    sampled = [space.sample(rng) for _ in range(40)]  # type: ignore[union-attr]
    assert all(space.contains(a) for a in sampled)  # type: ignore[union-attr]
    assert any(getattr(a, "sets", ()) and a.sets[0].trades for a in sampled)
    assert create({"players": 2}, 2).legal(0).describe()["trades"] is None  # type: ignore[union-attr]


def test_broken_wok4_data_is_refused_naming_the_key():
    import tomllib

    from suite.core.datafile import DataError
    from suite.paths import asset
    from suite.wok.rules.ruleset import parse_ruleset

    def data() -> dict:
        return tomllib.loads(asset("wok", "rules", "wok4.toml").read_text())

    broken = data()
    del broken["covert"]
    with pytest.raises(DataError, match="covert_ops needs a \\[covert\\] table"):
        parse_ruleset(broken, "x.toml")
    broken = data()
    del broken["covert"]["ops"]["STEAL_POP"]
    with pytest.raises(DataError, match="no entry for operation 'STEAL_POP'"):
        parse_ruleset(broken, "x.toml")
    broken = data()
    broken["phases"] = [p for p in broken["phases"] if p != "trading"]
    with pytest.raises(DataError, match="trading needs a \\[trades\\] table"):
        parse_ruleset(broken, "x.toml")
    broken = data()
    broken["trades"]["offers"][0]["points"] = "many"
    with pytest.raises(DataError, match="trades.offers"):
        parse_ruleset(broken, "x.toml")
    broken = data()
    broken["bombing"]["range_model"] = "anywhere"
    with pytest.raises(DataError, match="range_model"):
        parse_ruleset(broken, "x.toml")


def test_a_tech_hit_on_a_neutral_destroys_nothing(make_world, make_ctx):
    w = _world(make_world)
    assert w.owner[1] == -1
    assert ph._kill(w, make_ctx(w, rng=Rng(1)), "TECH", 1) == 0


def test_99_moves_all_that_may_move_and_standard_refuses_it(make_world, make_ctx):
    """Issue 23 item 5, M:344-347: "enter 99 ... you will be sure to move all of them";
    all that may move is at most `move_amount` and what the target can hold."""
    from suite.wok.rules.orders import Move, check_order_set

    r = load_ruleset(RULES)
    assert r.limits.move_all == 99
    every = OrderSet(0, moves=(Move(0, 1, "ARM", 99), Move(0, 1, "POP", 99)))
    assert check_order_set(every, r, 3) is None
    assert "bad amount 98" in (check_order_set(OrderSet(0, moves=(Move(0, 1, "ARM", 98),)), r, 3))
    standard = load_ruleset("standard")
    assert "bad amount 99 (1..50)" in (check_order_set(every, standard, 3) or "")
    w = _world(make_world)
    w.owner[1] = 0
    w.arm[0], w.pop[0], w.pop[1] = 37, 80, w.rules.caps.pop - 20
    ph.movement(w, make_ctx(w), 0, every)
    assert (w.arm[0], w.arm[1]) == (0, 37)  # all of them
    assert (w.pop[0], w.pop[1]) == (60, w.rules.caps.pop)  # what the target could hold
    w.arm[0], w.arm[1] = 80, 0
    ph.movement(w, make_ctx(w), 0, OrderSet(0, moves=(Move(0, 1, "ARM", 99),)))
    assert (w.arm[0], w.arm[1]) == (30, 50)  # never more than one order may move
