"""Unit tests of every phase with hand-worked cases from wok-standard.txt and RULINGS."""

from __future__ import annotations

import pytest

from suite.core.rng import Rng
from suite.wok.rules import phases as ph
from suite.wok.rules.orders import (
    Attack,
    Bomb,
    Move,
    OrderSet,
    SetAim,
    Spy,
    Transform,
    Upgrade,
)
from suite.wok.rules.world import NEUTRAL

from .conftest import FixedRng  # noqa: TID252


# -- transformations (S6) -------------------------------------------------------------
def test_pop_arm_uses_all_pop_and_loses_the_remainder(make_world, make_ctx, line_edges):
    w = make_world(3, line_edges(3))
    w.owner[0] = 0
    w.pop[0] = 15
    ph.transforming(w, make_ctx(w), 0, OrderSet(0, transforms=(Transform(0, "POP_ARM", 16),)))
    assert (w.pop[0], w.arm[0]) == (0, 3)


def test_new_armies_mix_levels(make_world, make_ctx, line_edges):
    w = make_world(3, line_edges(3))
    w.owner[0] = 0
    w.arm[0], w.lev[0], w.pop[0] = 10, 1.3, 20
    ph.transforming(w, make_ctx(w), 0, OrderSet(0, transforms=(Transform(0, "POP_ARM", 20),)))
    assert (w.arm[0], w.lev[0]) == (15, 1.2)


def test_pop_wok_and_back_with_caps(make_world, make_ctx, line_edges):
    w = make_world(3, line_edges(3))
    w.owner[0] = 0
    w.pop[0], w.wok[0] = 60, 120
    ctx = make_ctx(w)
    ph.transforming(w, ctx, 0, OrderSet(0, transforms=(Transform(0, "POP_WOK", 50),)))
    assert (w.pop[0], w.wok[0]) == (10, 125)  # 25 made, 20 lost over the 125 cap
    ph.transforming(w, ctx, 0, OrderSet(0, transforms=(Transform(0, "WOK_POP", 7),)))
    assert (w.pop[0], w.wok[0]) == (13, 118)


def test_transform_in_foreign_province_is_cancelled(make_world, make_ctx, line_edges):
    w = make_world(3, line_edges(3))
    w.pop[1] = 40
    ctx = make_ctx(w)
    ph.transforming(w, ctx, 0, OrderSet(0, transforms=(Transform(1, "POP_ARM", 40),)))
    assert w.pop[1] == 40
    assert "do not own" in ctx.log.cancelled[0][0]["reason"]


# -- growth (S7) ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("pop", "after"),
    [
        (0, 0),
        (5, 6),
        (99, 118),
        (100, 115),
        (199, 228),
        (200, 220),
        (300, 318),
        (400, 412),
        (990, 999),
    ],
)
def test_growth_tiers(make_world, make_ctx, line_edges, pop, after):
    w = make_world(2, line_edges(2))
    w.pop[0] = pop
    ph.growth(w, make_ctx(w))
    assert w.pop[0] == after


# -- bombing (S2) ---------------------------------------------------------------------
def _bomb_world(make_world):
    # 0 - 1 - 2 - 3 : from 0, 1 is short range, 2 long range, 3 out of range
    w = make_world(4, [(0, 1), (1, 2), (2, 3)])
    w.owner[0] = 0
    w.mis[0] = 30
    for p in (1, 2, 3):
        w.owner[p] = 1
        w.arm[p], w.spy[p], w.dfn[p] = 50, 50, 50
    w.colours[0].eff = 80
    return w


def test_short_range_bombing_hits_with_eff(make_world, make_ctx):
    w = _bomb_world(make_world)
    rng = FixedRng(hit=True)
    ctx = make_ctx(w, rng)
    ph.bombing(w, ctx, 0, OrderSet(0, bombs=(Bomb(0, 1, 10),)))
    assert rng.chances == [80.0] * 10
    assert w.mis[0] == 20
    lost = (50 - w.arm[1]) + (50 - w.spy[1]) + (50 - w.dfn[1])
    assert lost == 10  # every hit removed 1 ARM, 1 SPY or 0.1 DEF
    assert ctx.log.bombings[0]["range"] == "short"


def test_long_range_bombing_uses_three_quarters(make_world, make_ctx):
    w = _bomb_world(make_world)
    rng = FixedRng(hit=False)
    ctx = make_ctx(w, rng)
    ph.bombing(w, ctx, 0, OrderSet(0, bombs=(Bomb(0, 2, 5),)))
    assert rng.chances == [60.0] * 5
    assert w.mis[0] == 25  # spent whether they hit or not
    assert (w.arm[2], w.spy[2], w.dfn[2]) == (50, 50, 50)


def test_bombing_out_of_range_or_own_is_cancelled(make_world, make_ctx):
    w = _bomb_world(make_world)
    ctx = make_ctx(w)
    ph.bombing(w, ctx, 0, OrderSet(0, bombs=(Bomb(0, 3, 5), Bomb(0, 0, 5))))
    reasons = [c["reason"] for c in ctx.log.cancelled[0]]
    assert "out of range" in reasons[0] and "own province" in reasons[1]
    assert w.mis[0] == 30


def test_bomb_hit_on_absent_kind_destroys_nothing(make_world, make_ctx):
    w = _bomb_world(make_world)
    w.arm[1] = w.spy[1] = w.dfn[1] = 0
    ph.bombing(w, make_ctx(w, FixedRng(hit=True)), 0, OrderSet(0, bombs=(Bomb(0, 1, 20),)))
    assert (w.arm[1], w.spy[1], w.dfn[1]) == (0, 0, 0)


# -- attacking (S3, W6-W8) ------------------------------------------------------------
def _star(make_world, leaves: int = 8):
    w = make_world(leaves + 1, [(0, i) for i in range(1, leaves + 1)])
    w.owner[0] = 0
    w.arm[0], w.lev[0] = 900, 2.0
    return w


@pytest.mark.parametrize(("tech", "allowed"), [(0, 3), (1, 4), (2, 5), (4, 7), (9, 7)])
def test_attacks_allowed_by_tech(make_world, make_ctx, tech, allowed):
    w = _star(make_world)
    w.colours[0].tech = tech
    ctx = make_ctx(w)
    orders = OrderSet(0, attacks=tuple(Attack(0, t, 5) for t in range(1, 8)))
    ph.attacking(w, ctx, 0, orders)
    taken = sum(1 for p in range(1, 9) if w.owner[p] == 0)
    assert taken == allowed
    over = [c for c in ctx.log.cancelled.get(0, []) if "limit" in c["reason"]]
    assert len(over) == 7 - allowed


def test_invalid_attacks_do_not_count_against_the_limit(make_world, make_ctx):
    w = _star(make_world)
    ctx = make_ctx(w)
    bad = Attack(5, 6, 5)  # not owned, not adjacent
    orders = OrderSet(0, attacks=(bad, bad, Attack(0, 1, 5), Attack(0, 2, 5), Attack(0, 3, 5)))
    ph.attacking(w, ctx, 0, orders)
    assert [w.owner[p] for p in (1, 2, 3)] == [0, 0, 0]


def test_attack_keeps_armies_when_bombing_thinned_the_source(make_world, make_ctx):
    # Issue 13 item 9: "all but 2" computed before bombing still keeps 2 afterwards.
    w = make_world(3, [(0, 1), (1, 2)])
    w.owner[0] = 0
    w.arm[0] = 6  # planned as Attack(0, 1, 10, keep=2) when it held 12
    ph.attacking(w, make_ctx(w), 0, OrderSet(0, attacks=(Attack(0, 1, 10, keep=2),)))
    assert w.arm[0] == 2 and w.owner[1] == 0 and w.arm[1] == 4
    w.owner[1], w.arm[0] = NEUTRAL, 2
    ctx = make_ctx(w)
    ph.attacking(w, ctx, 0, OrderSet(0, attacks=(Attack(0, 1, 10, keep=2),)))
    assert w.arm[0] == 2
    assert "2 to keep" in ctx.log.cancelled[0][0]["reason"]


def test_empty_province_gain_and_capture_shares(make_world, make_ctx):
    w = make_world(2, [(0, 1)])
    w.owner[0] = 0
    w.arm[0], w.lev[0] = 10, 1.6
    w.pop[1], w.wok[1], w.mis[1], w.spy[1], w.dfn[1], w.aim[1] = 101, 16, 11, 9, 7, "MIS"
    ph.attacking(w, make_ctx(w), 0, OrderSet(0, attacks=(Attack(0, 1, 20),)))
    assert w.owner[1] == 0
    assert (w.arm[0], w.arm[1]) == (0, 10)  # sends what it has; the source may be emptied
    assert w.lev[1] == 1.725  # 1.6 + 0.2 / 1.6
    assert (w.pop[1], w.wok[1], w.mis[1], w.spy[1]) == (80, 12, 6, 5)
    assert (w.dfn[1], w.aim[1]) == (7, "MIS")


def test_battle_losses_injuries_and_level_gain(make_world, make_ctx):
    for seed in range(30):
        w = make_world(2, [(0, 1)])
        w.owner[0] = 0
        w.arm[0], w.lev[0] = 40, 1.0
        w.arm[1], w.lev[1] = 40, 1.0
        ctx = make_ctx(w, Rng(seed))
        ph.attacking(w, ctx, 0, OrderSet(0, attacks=(Attack(0, 1, 40),)))
        b = ctx.log.battles[0]
        if b["won"]:
            assert w.owner[1] == 0
            assert w.arm[1] == 40 - b["a_lost"]  # injured attackers recovered
            assert w.lev[1] == round(1.0 + 0.006 * b["rounds"], 3)
            assert b["d_lost"] == 40
        else:
            assert w.owner[1] == NEUTRAL
            assert w.arm[1] == 40 - b["d_lost"]
            assert w.lev[1] == round(1.0 + 0.003 * b["rounds"], 3)
            assert b["a_lost"] == 40
        assert b["rounds"] >= 40


def test_injured_recover_sometimes(make_world, make_ctx):
    recovered = 0
    for seed in range(20):
        w = make_world(2, [(0, 1)])
        w.owner[0] = 0
        w.arm[0], w.lev[0], w.arm[1] = 60, 3.0, 20
        ctx = make_ctx(w, Rng(seed))
        ph.attacking(w, ctx, 0, OrderSet(0, attacks=(Attack(0, 1, 60),)))
        b = ctx.log.battles[0]
        if b["won"]:
            recovered += b["a_injured"]
    assert recovered > 0


def test_chained_attacks_from_provinces_taken_this_turn(make_world, make_ctx, line_edges):
    w = make_world(4, line_edges(4))
    w.owner[0] = 0
    w.arm[0] = 50
    orders = OrderSet(0, attacks=(Attack(0, 1, 50), Attack(1, 2, 50), Attack(2, 3, 50)))
    ph.attacking(w, make_ctx(w), 0, orders)
    assert w.owner == [0, 0, 0, 0]
    assert w.arm[3] == 50


def test_rip_is_credited_to_the_taker(make_world, make_ctx):
    w = make_world(2, [(0, 1)])
    w.owner[0], w.owner[1] = 0, 1
    w.arm[0] = 10
    ctx = make_ctx(w)
    ph.attacking(w, ctx, 0, OrderSet(0, attacks=(Attack(0, 1, 10),)))
    assert not w.colours[1].alive and w.colours[1].ripped_by == 0
    assert w.colours[0].rips == [1]
    assert ctx.log.rips == [{"colour": 1, "by": 0, "province": 1}]


def test_headhunting_protection_turn_one(make_world, make_ctx):
    w = make_world(2, [(0, 1)])
    w.owner[0], w.owner[1], w.home[1] = 0, 1, 1
    w.arm[0] = 10
    w.mis[0] = 5
    w.spy[0] = 5
    ctx = make_ctx(w, turn=1)
    orders = OrderSet(
        0,
        bombs=(Bomb(0, 1, 5),),
        attacks=(Attack(0, 1, 10),),
        spies=(Spy(0, 1, "SPY_PROVINCE", 5),),
    )
    ph.bombing(w, ctx, 0, orders)
    ph.attacking(w, ctx, 0, orders)
    ph.spying(w, ctx, 0, orders)
    assert w.owner[1] == 1
    assert len(ctx.log.cancelled[0]) == 3
    assert all("protected" in c["reason"] for c in ctx.log.cancelled[0])


# -- entropy and working (S4, S5) -----------------------------------------------------
def test_entropy_costs_one_eff_per_province(make_world, make_ctx, line_edges):
    w = make_world(5, line_edges(5))
    w.owner[:3] = [0, 0, 0]
    w.colours[0].eff = 50
    w.colours[1].eff = 1
    w.owner[3] = 1
    ph.entropy(w, make_ctx(w))
    assert (w.colours[0].eff, w.colours[1].eff) == (47, 1)


@pytest.mark.parametrize(
    ("aim", "field", "expected"),
    [("DEF", "dfn", 3), ("MIS", "mis", 8), ("SPY", "spy", 6), ("LEV", "lev", 1.5)],
)
def test_working_aims_in_the_province(make_world, make_ctx, aim, field, expected):
    w = make_world(2, [(0, 1)])
    w.owner[0] = 0
    w.wok[0], w.arm[0], w.aim[0] = 25, 50, aim
    ph.working(w, make_ctx(w))
    assert getattr(w, field)[0] == expected


def test_working_lev_gain_is_at_most_one(make_world, make_ctx):
    w = make_world(2, [(0, 1)])
    w.owner[0] = 0
    w.wok[0], w.arm[0], w.lev[0], w.aim[0] = 100, 2, 2.0, "LEV"
    ph.working(w, make_ctx(w))
    assert w.lev[0] == 3.0


def test_working_min_and_eff_and_false_orders(make_world, make_ctx):
    w = make_world(3, [(0, 1), (1, 2)])
    w.owner[:3] = [0, 0, 0]
    w.wok[:3] = [30, 17, 40]
    w.aim[:3] = ["MIN", "EFF", "DEF"]
    w.false_orders[2] = True
    w.colours[0].eff = 90
    ph.working(w, make_ctx(w))
    assert (w.colours[0].gold, w.colours[0].eff, w.dfn[2]) == (30, 94, 0)


def test_neutrals_work_and_gain_armies(make_world, make_ctx):
    w = make_world(2, [(0, 1)])
    w.wok[1], w.arm[1], w.dfn[1] = 16, 5, 3
    ctx = make_ctx(w)
    ph.working(w, ctx)
    ph.neutral_gain(w, ctx)
    assert (w.dfn[1], w.arm[1]) == (5, 7)


# -- movement and aims (S8, S9) -------------------------------------------------------
def test_movement_caps_and_levels(make_world, make_ctx, line_edges):
    w = make_world(3, line_edges(3))
    w.owner[:3] = [0, 0, 1]
    w.arm[0], w.lev[0], w.arm[1], w.lev[1] = 60, 2.0, 10, 1.0
    w.mis[0], w.mis[1] = 40, 90
    ctx = make_ctx(w)
    moves = (Move(0, 1, "ARM", 50), Move(0, 1, "MIS", 30), Move(1, 2, "ARM", 5))
    ph.movement(w, ctx, 0, OrderSet(0, moves=moves))
    assert (w.arm[0], w.arm[1], w.lev[1]) == (10, 60, 1.833)
    assert (w.mis[0], w.mis[1]) == (31, 99)  # what would pass the cap stays behind
    assert "do not own" in ctx.log.cancelled[0][0]["reason"]


def test_aim_order_lifts_false_orders(make_world, make_ctx):
    w = make_world(2, [(0, 1)])
    w.owner[0] = 0
    w.false_orders[0] = True
    ph.aiming(w, make_ctx(w), 0, OrderSet(0, aims=(SetAim(0, "MIS"),)))
    assert (w.aim[0], w.false_orders[0]) == ("MIS", False)


# -- upgrades (S10) -------------------------------------------------------------------
def test_upgrade_costs_rise_100_200_300(make_world, make_ctx, line_edges):
    w = make_world(3, line_edges(3))
    w.owner[:2] = [0, 0]
    w.arm[0], w.lev[0] = 5, 1.5
    w.colours[0].gold = 650
    w.colours[0].eff = 80
    ctx = make_ctx(w)
    ups = (Upgrade("TECH"), Upgrade("EFF"), Upgrade("LEV"))
    ph.upgrading(w, ctx, 0, OrderSet(0, upgrades=ups))
    c = w.colours[0]
    assert (c.gold, c.tech, c.eff, w.lev[0]) == (50, 1, 99, 1.8)
    assert [u["cost"] for u in ctx.log.upgrades[0]] == [100, 200, 300]


def test_upgrade_without_gold_is_cancelled(make_world, make_ctx, line_edges):
    w = make_world(3, line_edges(3))
    w.owner[:2] = [0, 0]
    w.colours[0].gold = 250
    ctx = make_ctx(w)
    ph.upgrading(w, ctx, 0, OrderSet(0, upgrades=(Upgrade("DEF"), Upgrade("MIS"), Upgrade("SPY"))))
    assert w.colours[0].gold == 150
    assert (w.dfn[0], w.dfn[1], w.mis[0]) == (5, 5, 0)
    assert len(ctx.log.cancelled[0]) == 2


# -- spying (S11) ---------------------------------------------------------------------
def _spy_world(make_world):
    # 0 (mine) - 1 (enemy) ; 2 (mine, cut off) - 3 - 4 (enemy, not adjacent to 2's part)
    w = make_world(5, [(0, 1), (1, 3), (2, 3), (3, 4)])
    w.owner[0], w.owner[1], w.owner[2], w.owner[3], w.owner[4] = 0, 1, 0, NEUTRAL, 1
    w.spy[0] = w.spy[2] = 10
    w.colours[1].gold = 35
    return w


def test_spy_province_gives_intel_and_spies_return(make_world, make_ctx):
    w = _spy_world(make_world)
    ctx = make_ctx(w, FixedRng(hit=True))
    ph.spying(w, ctx, 0, OrderSet(0, spies=(Spy(0, 1, "SPY_PROVINCE", 4),)))
    assert ctx.province_intel[0][1]["turn"] == 5
    assert w.spy[0] == 10
    assert ctx.log.spying[0]["range"] == "short"


def test_long_range_spies_may_be_lost(make_world, make_ctx):
    w = _spy_world(make_world)
    ctx = make_ctx(w, FixedRng(hit=False))
    ph.spying(w, ctx, 0, OrderSet(0, spies=(Spy(2, 4, "PROPAGANDA", 6),)))
    s = ctx.log.spying[0]
    assert s["range"] == "long" and s["lost_on_way"] == 6 and not s["success"]
    assert w.spy[2] == 4


def test_steal_gold_propaganda_false_orders(make_world, make_ctx):
    w = _spy_world(make_world)
    ctx = make_ctx(w, FixedRng(hit=True))
    orders = OrderSet(
        0,
        spies=(
            Spy(0, 1, "STEAL_GOLD", 5),
            Spy(0, 1, "PROPAGANDA", 1),
            Spy(0, 1, "FALSE_ORDERS", 1),
            Spy(0, 1, "SPY_PLAYER", 1),
        ),
    )
    ph.spying(w, ctx, 0, orders)
    assert (w.colours[0].gold, w.colours[1].gold) == (35, 0)
    assert w.colours[1].eff == 97
    assert w.false_orders[1]
    assert ctx.player_intel[0][1]["gold"] == 0


def test_failed_spies_are_caught(make_world, make_ctx):
    w = _spy_world(make_world)
    ctx = make_ctx(w, FixedRng(hit=False))
    ph.spying(w, ctx, 0, OrderSet(0, spies=(Spy(0, 1, "SPY_PROVINCE", 4),)))
    assert w.spy[0] == 6 and ctx.log.spying[0]["caught"] == 4


def test_counter_espionage_kills_attackers_not_defenders(make_world, make_ctx):
    w = _spy_world(make_world)
    w.spy[1] = 40
    w.colours[0].eff = 5
    ctx = make_ctx(w, Rng(3))
    ph.spying(w, ctx, 0, OrderSet(0, spies=(Spy(0, 1, "SPY_PROVINCE", 3),)))
    s = ctx.log.spying[0]
    assert w.spy[1] == 40
    assert s["caught_by_defence"] + s["caught"] + s["returned"] <= 3


def test_spying_on_neutral_is_cancelled(make_world, make_ctx):
    w = _spy_world(make_world)
    ctx = make_ctx(w)
    ph.spying(w, ctx, 0, OrderSet(0, spies=(Spy(2, 3, "SPY_PROVINCE", 4),)))
    assert "other players" in ctx.log.cancelled[0][0]["reason"]
    assert w.spy[2] == 10
