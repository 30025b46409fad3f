"""Intermediate WoK (issue 16 item 1): one test per rule that differs from Standard.

Rules: shared/rules/wok-intermediate.txt with RULINGS I1-I8; numbers from
assets/wok/rules/intermediate.toml.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from suite.core.match import IllegalAction
from suite.core.rng import Rng
from suite.wok.rules import create
from suite.wok.rules import phases as ph
from suite.wok.rules import troops as tp
from suite.wok.rules.orders import (
    Attack,
    Bomb,
    Move,
    OrderSet,
    SetAim,
    Spy,
    SubmitOrders,
    Transform,
    TroopUpgrade,
    Upgrade,
)
from suite.wok.rules.ruleset import load_ruleset
from suite.wok.rules.turn import PHASES

from .conftest import FixedRng  # noqa: TID252

RULES = "intermediate"


def _world(make_world, n=3, edges=None):
    w = make_world(n, edges if edges is not None else [(0, 1), (1, 2)], ruleset=RULES)
    w.owner[0] = 0
    return w


def test_rule_set_loads_and_differs_where_the_text_says():
    r = load_ruleset(RULES)
    assert r.phases[0] == "upgrades" and r.phases.index("troop_upgrades") == 6
    assert set(r.phases) == set(PHASES) - {"trading", "covert_ops"}  # WoK IV's own
    assert (r.start.gold, r.start.wood, r.start.tech, r.start.eff) == (100, 100, 0, 99)  # I1
    assert "SPY" not in r.working.aims and "CHO" in r.working.aims  # I4
    assert r.transform.ratios["POP_SPY"] == 5  # I5
    assert set(r.variants) == {"skirmish"}


def test_start_gold_wood_and_a_terrain_per_province():
    state = create({"players": 2, "ruleset": RULES}, 4)
    w = state.world
    assert all(c.gold == 100 and c.wood == 100 for c in w.colours)
    kinds = state.rules.terrain.kinds
    assert all(t in kinds for t in w.terrain)
    again = create({"players": 2, "ruleset": RULES}, 4)
    assert again.world.terrain == w.terrain
    view = state.view(0)
    assert [m.terrain for m in view.map.provinces] == w.terrain
    assert view.colours[0].wood == 100
    assert all(t == "" for t in create({"players": 2}, 4).world.terrain)


@pytest.mark.parametrize(("ruleset", "fired"), [(RULES, 5), ("standard", 0)])
def test_upgrades_run_first(ruleset, fired):
    # I1: an MIS upgrade in phase 1 arms a province that bombs in phase 2 of the same turn;
    # under Standard the upgrade comes after the bombing, which finds no missiles.
    state = create({"players": 2, "ruleset": ruleset, "map": "trial"}, 3)
    w = state.world
    home = w.owned(0)[0]
    target = next(t for t in w.adj[home] if w.owner[t] == -1)
    w.colours[0].gold = 100
    state.turn = 2
    orders = OrderSet(0, upgrades=(Upgrade("MIS"),), bombs=(Bomb(home, target, 5),))
    state.apply(0, SubmitOrders((orders,)))
    state.apply(1, SubmitOrders((OrderSet(1),)))
    runs = [b["fired"] for b in state.reports[0]["bombings"] if b["by"] == 0]
    assert runs == ([fired] if fired else [])


def test_terrain_bonus_level_follows_the_share_of_troops_at_home():
    # I3: 0.05 x (troops preferring the battle terrain) / (fighting troops).
    pref = load_ruleset(RULES).terrain.preferred_by
    assert tp.Side({"KNI": 10}).bonus(pref, "Plains", 0.05) == pytest.approx(0.05)
    assert tp.Side({"KNI": 5, "ARM": 5}).bonus(pref, "Plains", 0.05) == pytest.approx(0.025)
    assert tp.Side({"KNI": 10}).bonus(pref, "Hills", 0.05) == 0.0
    assert tp.Side({"ARM": 10}).bonus(pref, "Plains", 0.05) == 0.0


def test_typed_battle_keeps_every_troop_accounted_for(make_world, make_ctx):
    w = _world(make_world)
    w.arm[0], w.kni[0], w.lev[0] = 20, 20, 2.0
    w.owner[1], w.pik[1], w.arm[1], w.lev[1] = 1, 10, 5, 1.0
    w.terrain[1] = "Plains"
    ctx = make_ctx(w, rng=Rng(11))
    ph.attacking(w, ctx, 0, OrderSet(0, attacks=(Attack(0, 1, 30),)))
    b = ctx.log.battles[0]
    assert b["troops_sent"] == {"ARM": 20, "KNI": 10}  # ARM first (the TRO order)
    assert b["troops_defending"] == {"ARM": 5, "PIK": 10}
    assert (w.arm[0], w.kni[0]) == (0, 10)
    if b["won"]:
        assert w.owner[1] == 0 and w.troops(1) == 30 - b["a_lost"]
        assert w.pik[1] == 0
    else:
        assert w.owner[1] == 1 and w.troops(1) == 15 - b["d_lost"]


def test_losses_are_picked_in_proportion_to_troop_types():
    side = tp.Side({"ARM": 30, "KNI": 10})
    rng = Rng(5)
    for _ in range(20):
        side.lose_one(rng, injured=False)
    assert sum(side.dead.values()) == 20 and side.total() == 20
    many = tp.Side({"ARM": 3000, "KNI": 1000})
    for _ in range(400):
        many.lose_one(rng, injured=False)
    assert 0.65 < many.dead["ARM"] / 400 < 0.85


def test_missile_hits_strike_def_by_chance_then_units_in_proportion(make_world, make_ctx):
    # I3: a hit strikes DEF with chance 10 x DEF %, otherwise a unit picked in proportion.
    w = _world(make_world)
    w.mis[0] = 5
    w.owner[1], w.dfn[1], w.arm[1] = 1, 20, 10
    rng = FixedRng(hit=True)
    ctx = make_ctx(w, rng=rng)
    ph.bombing(w, ctx, 0, OrderSet(0, bombs=(Bomb(0, 1, 5),)))
    assert w.dfn[1] == 15 and w.arm[1] == 10
    assert rng.chances[:2] == [99, pytest.approx(20.0)]  # EFF %, then 10 x DEF 2.0 %
    w.mis[0], w.dfn[1], w.pik[1] = 5, 0, 10
    ph.bombing(w, make_ctx(w, rng=FixedRng(hit=True)), 0, OrderSet(0, bombs=(Bomb(0, 1, 5),)))
    assert w.arm[1] + w.pik[1] == 15 and w.dfn[1] == 0


def test_working_cho_terrain_and_tech_bonuses_and_carried_fractions(make_world, make_ctx):
    w = _world(make_world)
    w.wok[0], w.aim[0], w.terrain[0] = 10, "CHO", "Forest"
    w.colours[0].wood, w.colours[0].tech = 0, 2
    ph.working(w, make_ctx(w))
    assert w.colours[0].wood == math.floor(10 * 1.5 * 1.1)  # 16.5: 16 now, 0.5 carried
    assert w.carry[0] == Fraction(1, 2)
    ph.working(w, make_ctx(w))
    assert w.colours[0].wood == 33 and w.carry[0] == 0.0
    w.wok[1], w.aim[1], w.terrain[1] = 12, "DEF", "Plains"  # a neutral: no tech, no bonus
    ph.working(w, make_ctx(w))
    assert w.dfn[1] == 1 and w.carry[1] == Fraction(1, 2)  # 12 / 8 = 1.5 tenths
    ph.working(w, make_ctx(w))
    assert w.dfn[1] == 3


def test_an_aim_change_loses_the_carried_fraction(make_world, make_ctx):
    w = _world(make_world)
    w.carry[0], w.aim[0] = Fraction(3, 4), "DEF"
    ph.aiming(w, make_ctx(w), 0, OrderSet(0, aims=(SetAim(0, "CHO"),)))
    assert w.carry[0] == 0.0 and w.aim[0] == "CHO"


def test_pop_to_spy_five_to_one(make_world, make_ctx):
    w = _world(make_world)
    w.pop[0] = 50
    ph.transforming(w, make_ctx(w), 0, OrderSet(0, transforms=(Transform(0, "POP_SPY", 23),)))
    assert (w.pop[0], w.spy[0]) == (27, 4)


def test_upgrade_troops_costs_refunds_and_partial_payment(make_world, make_ctx):
    w = _world(make_world)
    w.arm[0] = 40
    w.colours[0].wood = 52
    ctx = make_ctx(w)
    orders = OrderSet(
        0,
        troops=(
            TroopUpgrade(0, "ARM", "KNI", 20),  # 5 WOOD each: only 10 paid
            TroopUpgrade(0, "KNI", "ARM", 4),  # refund 2 each
            TroopUpgrade(0, "KNI", "CAT", 3),  # 3 each
        ),
    )
    ph.troop_upgrading(w, ctx, 0, orders)
    assert (w.arm[0], w.kni[0], w.cat[0]) == (34, 3, 3)
    assert w.colours[0].wood == 52 - 50 + 8 - 9
    w.colours[0].wood = 0
    ph.troop_upgrading(w, ctx, 0, OrderSet(0, troops=(TroopUpgrade(0, "ARM", "PIK", 5),)))
    assert w.pik[0] == 0 and "needs 5 WOOD" in ctx.log.cancelled[0][-1]["reason"]


def test_growth_by_e_to_the_minus_pop_over_100(make_world, make_ctx):
    w = _world(make_world)
    w.pop[:3] = [50, 100, 300]
    ph.growth(w, make_ctx(w))
    expected = [p + math.floor(p * math.exp(-p / 100)) for p in (50, 100, 300)]
    assert w.pop[:3] == expected == [80, 136, 314]


def test_tro_moves_take_arm_first_and_tech_ten_moves_anywhere(make_world, make_ctx):
    w = _world(make_world, n=4, edges=[(0, 1), (1, 2), (2, 3)])
    for p in (1, 3):
        w.owner[p] = 0
    w.arm[0], w.kni[0], w.lev[0] = 3, 10, 3.0
    ctx = make_ctx(w)
    ph.movement(w, ctx, 0, OrderSet(0, moves=(Move(0, 1, "TRO", 8),)))
    assert (w.arm[1], w.kni[1], w.kni[0], w.lev[1]) == (3, 5, 5, 3.0)
    ph.movement(w, ctx, 0, OrderSet(0, moves=(Move(1, 3, "KNI", 2),)))
    assert w.kni[3] == 0 and "not adjacent" in ctx.log.cancelled[0][-1]["reason"]
    w.colours[0].tech = 10
    ph.movement(w, ctx, 0, OrderSet(0, moves=(Move(1, 3, "KNI", 2),)))
    assert w.kni[3] == 2


def test_each_spy_operation_once_per_target_per_turn(make_world, make_ctx):
    w = _world(make_world)
    w.spy[0], w.owner[1] = 10, 1
    ctx = make_ctx(w, rng=FixedRng(hit=True))
    spies = (Spy(0, 1, "PROPAGANDA", 1), Spy(0, 1, "PROPAGANDA", 1), Spy(0, 1, "SPY_PLAYER", 1))
    ph.spying(w, ctx, 0, OrderSet(0, spies=spies))
    assert [s["op"] for s in ctx.log.spying] == ["PROPAGANDA", "SPY_PLAYER"]
    assert "already used on province 1" in ctx.log.cancelled[0][0]["reason"]


def test_standard_refuses_intermediate_orders():
    state = create({"players": 2}, 1)
    for orders in (
        OrderSet(0, aims=(SetAim(0, "CHO"),)),
        OrderSet(0, moves=(Move(0, 1, "TRO", 5),)),
        OrderSet(0, transforms=(Transform(0, "POP_SPY", 5),)),
        OrderSet(0, troops=(TroopUpgrade(0, "ARM", "KNI", 5),)),
    ):
        with pytest.raises(IllegalAction):
            state.apply(0, SubmitOrders((orders,)))
    inter = create({"players": 2, "ruleset": RULES}, 1)
    with pytest.raises(IllegalAction, match="at most 7"):
        many = tuple(TroopUpgrade(0, "ARM", "KNI", 1) for _ in range(8))
        inter.apply(0, SubmitOrders((OrderSet(0, troops=many),)))
    with pytest.raises(IllegalAction, match="cannot change KNI into KNI"):
        inter.apply(0, SubmitOrders((OrderSet(0, troops=(TroopUpgrade(0, "KNI", "KNI", 1),)),)))


def test_bots_play_intermediate_to_the_end_keeping_the_invariants():
    from suite.core.bots import RandomBot
    from suite.wok.rules.bots import GeneralBot, RobotBot

    for seed in range(3):
        state = create({"players": 3, "ruleset": RULES, "map": "star-islands"}, seed)
        bots = [GeneralBot(), RobotBot(), RandomBot()]
        rng = Rng(seed)
        while state.outcome() is None and state.turn <= 60:
            for seat in sorted(state.awaiting()):
                action = bots[seat].choose(state.view(seat), state.legal(seat), rng)
                assert state.refusal(seat, action) is None
                state.apply(seat, action)
            state.check()
        assert state.outcome() is not None


def test_intermediate_views_carry_troops_terrain_and_wood_and_round_trip():
    import msgspec

    from suite.wok.rules.bots import GeneralBot
    from suite.wok.rules.views import WokViews

    state = create({"players": 2, "ruleset": RULES, "map": "trial"}, 106)
    bots = [GeneralBot(), GeneralBot()]
    rng = Rng(1)
    seen_types = False
    while state.outcome() is None and not seen_types:
        for seat in sorted(state.awaiting()):
            state.apply(seat, bots[seat].choose(state.view(seat), state.legal(seat), rng))
        view = state.view(0)
        assert msgspec.json.decode(msgspec.json.encode(view), type=WokViews) == view
        for report in view.reports:
            seen_types |= any(b.troops_sent for b in report.battles)
            seen_types |= any(u.amount for u in report.upgrades)
    assert seen_types
    own = [p.figures for p in state.view(0).provinces if p.figures and p.owner == 0]
    w = state.world
    assert sum(f.troops() for f in own) == sum(w.troops(p) for p in w.owned(0))


def test_the_action_space_describes_troop_upgrades_and_wood():
    import json

    desc = create({"players": 2, "ruleset": RULES}, 2).legal(0).describe()  # type: ignore[union-attr]
    json.dumps(desc)
    assert desc["troop_upgrades"]["kinds"] == ["ARM", "PIK", "ARC", "KNI", "CAT"]
    assert desc["troop_upgrades"]["upgrade_wood"] == 5 and desc["colours"][0]["wood"] == 100
    assert "CHO" in desc["aims"] and "TRO" in desc["move_units"]
    plain = create({"players": 2}, 2).legal(0).describe()  # type: ignore[union-attr]
    assert plain["troop_upgrades"] is None and "CHO" not in plain["aims"]


def test_carried_fractions_stay_below_one_unit(make_world):
    w = _world(make_world)
    w.carry[0] = Fraction(7, 10)
    assert ph._made(w, 0, Fraction(1, 10), Fraction(3)) == 1 and w.carry[0] == 0
    w.carry[0] = Fraction(1, 4)
    assert ph._made(w, 0, Fraction(5, 2), Fraction(11, 10)) == 3 and w.carry[0] == 0


def test_ten_workers_on_mis_make_a_third_more_each_turn_exactly(make_world, make_ctx):
    """Issue 23 item 4: 10 / 3 = 3.33 MIS a turn gives 3, 6, 10 (not 9, 13 a turn late)."""
    w = _world(make_world)
    w.wok[0], w.aim[0], w.terrain[0], w.mis[0] = 10, "MIS", "Plains", 0
    made = []
    for _ in range(6):
        ph.working(w, make_ctx(w))
        made.append(w.mis[0])
    assert made == [3, 6, 10, 13, 16, 20]
    assert w.carry[0] == 0


def test_carried_fractions_survive_a_save_and_refuse_bad_text(make_world):
    w = _world(make_world)
    w.carry[0] = Fraction(2, 3)
    w.load_provinces(w.provinces_dict())
    assert w.carry[0] == Fraction(2, 3)
    d = w.provinces_dict()
    d["carry"][1] = 0.333333  # a save from before exact fractions
    w.load_provinces(d)
    assert w.carry[1] == Fraction(333333, 1000000)
    for bad in ("1e999999999", "4/3", "1/0", [1], "-1/3"):
        d["carry"][1] = bad
        with pytest.raises(ValueError, match="province 1: carried fraction"):
            w.load_provinces(d)
