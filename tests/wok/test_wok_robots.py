"""S16 robots, the bots' legality, and what turn reports and events say."""

from __future__ import annotations

from suite.core.rng import Rng
from suite.wok.rules import create
from suite.wok.rules.bots import GeneralBot, RobotBot, armies_needed
from suite.wok.rules.events import ProvinceTaken, Ripped, TurnRan
from suite.wok.rules.orders import Attack, Bomb, OrderSet, SetAim, Spy, SubmitOrders, Transform
from suite.wok.rules.robots import robot_orders


def _robot_world(make_world):
    # 0 robot home; 1, 2, 3 robot provinces; 4..7 others.   0-1-2-3 line, 0-4, 0-5, 1-6, 3-7
    w = make_world(8, [(0, 1), (1, 2), (2, 3), (0, 4), (0, 5), (1, 6), (3, 7)], colours=2)
    w.colours[0].seat = None
    for p in (0, 1, 2, 3):
        w.owner[p] = 0
    w.home[0] = 0
    w.pop[:4] = [90, 120, 120, 30]
    w.aim[:4] = ["DEF", "MIN", "DEF", "DEF"]
    w.arm[0], w.arm[1], w.arm[3] = 40, 9, 12
    w.owner[5], w.arm[5], w.mis[0] = 1, 30, 7
    w.owner[6], w.arm[6] = 1, 3
    w.arm[4] = 3  # neutral, weakest PDEF next to 0 but only 3 armies
    w.dfn[4] = 0
    w.arm[7] = 40  # neutral next to 3: too strong for 10 armies
    return w


def test_robot_doctrine(make_world):
    w = _robot_world(make_world)
    variant = w.rules.variant("skirmish")
    orders = robot_orders(w, variant, 0, turn=5)
    assert orders.transforms == (
        Transform(1, "POP_ARM", 50),
        Transform(2, "POP_ARM", 50),
        Transform(0, "POP_ARM", 50),
    )
    assert orders.aims == (SetAim(0, "MIN"), SetAim(1, "DEF"))
    # from 0 (40 armies): lowest PDEF among 4 (neutral, DEF 0) and 5 (player): 4; all but 2
    assert orders.attacks == (Attack(0, 4, 38, keep=2),)
    assert orders.bombs == (Bomb(0, 5, 7),)
    assert orders.spies == () and orders.upgrades == () and orders.moves == ()
    assert robot_orders(w, variant, 0, turn=5) == orders


def test_robot_obeys_protection(make_world):
    w = _robot_world(make_world)
    w.home[4] = 1
    w.home[5] = 1
    orders = robot_orders(w, w.rules.variant("duel"), 0, turn=2)
    assert orders.attacks == () and orders.bombs == ()


def test_bots_give_legal_orders_for_every_variant():
    for config in (
        {"players": 2},
        {"players": 2, "variant": "duel"},
        {"players": 3, "variant": "trinity"},
    ):
        state = create(config, 4)
        for bot in (RobotBot(), GeneralBot()):
            for seat in sorted(state.awaiting()):
                action = bot.choose(state.view(seat), state.legal(seat), Rng(1))
                assert state.refusal(seat, action) is None
                assert isinstance(action, SubmitOrders)
                assert {s.colour for s in action.sets} == set(state.seat_colours[seat])


def test_armies_needed_grows_with_defence():
    assert armies_needed(1000, 500, 0, 2.0) == 1
    weak = armies_needed(2000, 500, 10, 2.0)
    strong = armies_needed(1000, 2000, 10, 2.0)
    assert 1 < weak < 10 < strong


def test_reports_and_events_of_a_capture():
    state = create({"players": 2, "map": "trial"}, 8)
    w = state.world
    h0 = next(p for p in range(w.n) if w.home[p] == 0)
    h1 = next(p for p in range(w.n) if w.home[p] == 1)
    target = w.adj[h0][0]
    w.owner[target] = 1  # pretend colour 1 holds a province next to colour 0's home
    w.arm[h0] = 200
    w.owner[h1], w.home[h1] = 1, 1
    state.turn = 2  # past headhunting protection
    orders = OrderSet(
        0,
        attacks=(Attack(h0, target, 150), Attack(h0, target, 10)),
        spies=(Spy(h0, h1, "SPY_PROVINCE", 5),),
    )
    state.apply(0, SubmitOrders((orders,)))
    events = state.apply(1, SubmitOrders((OrderSet(1),)))
    assert any(isinstance(e, ProvinceTaken) and e.province == target for e in events)
    assert any(isinstance(e, TurnRan) and e.turn == 2 for e in events)
    mine, theirs = state.reports[0], state.reports[1]
    assert mine["turn"] == 2 and theirs["battles"] == mine["battles"][:1]
    assert mine["battles"][0]["won"] and str(target) in mine["provinces_after"]
    assert (
        str(target) in theirs["provinces_before"] and str(target) not in theirs["provinces_after"]
    )
    assert "already own" in mine["cancelled"][0]["reason"]
    assert mine["next_oop"] == state.oop and mine["top_ten"][0]["colour"] == 0
    spy = theirs["spying"]
    assert spy and all("source" not in s and "by" not in s for s in spy)
    if mine["spying"][0]["success"]:
        assert mine["intel"][0]["target"] == h1
        assert state.view(0)["provinces"][h1]["seen"] == 2


def test_rip_event():
    state = create({"players": 2, "map": "trial"}, 8)
    w = state.world
    h0 = next(p for p in range(w.n) if w.home[p] == 0)
    h1 = next(p for p in range(w.n) if w.home[p] == 1)
    for p in w.adj[h1]:
        w.owner[p] = 0
    src = w.adj[h1][0]
    w.arm[src] = 500
    w.arm[h1] = 1
    state.turn = 3
    state.apply(0, SubmitOrders((OrderSet(0, attacks=(Attack(src, h1, 500),)),)))
    events = state.apply(1, SubmitOrders((OrderSet(1),)))
    assert any(isinstance(e, Ripped) and e.colour == 1 and e.by == 0 for e in events)
    out = state.outcome()
    assert out is not None and out.winners == (0,)
    assert w.owner[h0] == 0 and w.owner[h1] == 0
