"""What the order form says about a draft, as the server answers it (issue 33):
`suite.wok.rules.drafting` reads the seat's JSON, refuses what it may not ask about, and
reports with the desktop form's own `Planner` (one piece of logic for both)."""

from __future__ import annotations

from typing import Any

import pytest

from suite.wok.rules.draft import Draft, Planner, phases_of, round_loss, win_chance
from suite.wok.rules.drafting import (
    MAX_ORDERS,
    DraftError,
    read_draft,
    read_probe,
    report,
)
from suite.wok.rules.state import create
from suite.wok.rules.views import WokView


def _view(ruleset: str = "standard", seat: int = 0) -> WokView:
    view = create({"players": 3, "ruleset": ruleset, "map": 12}, 5).view(seat)
    assert isinstance(view, WokView)
    return view


def _home(view: WokView) -> tuple[int, int, int]:
    colour = view.colours[0]
    home = colour.homes[0]
    return colour.colour, home, view.map.provinces[home].neighbours[0]


@pytest.mark.parametrize("ruleset", ["standard", "intermediate", "wok4"])
def test_every_phase_of_the_rule_set_is_described(ruleset: str) -> None:
    view = _view(ruleset)
    r = report(view, read_draft(view, {"sets": []}))
    assert tuple(p.phase for p in r.phases) == phases_of(view)
    assert all(p.help and p.title for p in r.phases)
    assert set(r.quiet).isdisjoint(p.rules_phase for p in r.phases)
    (mine,) = r.colours
    assert [c.phase for c in mine.counts] == list(phases_of(view))
    assert mine.orders == () and mine.after == () and mine.problem is None
    kinds = {p.phase: [k.value for k in p.kinds] for p in r.phases}
    assert "MIS" in kinds["aims"] and kinds["attacks"] == []
    if ruleset == "intermediate":
        assert "ARM>PIK" in kinds["troops"]
    if ruleset == "wok4":
        assert kinds["trades"]


def test_each_order_is_checked_after_the_ones_before_it() -> None:
    view = _view()
    colour, home, target = _home(view)
    aims = [{"province": home, "aim": "MIS"}, {"province": home, "aim": "SPY"}]
    attack = {"source": home, "target": target, "armies": 5}
    draft = read_draft(view, {"sets": [{"colour": colour, "aims": aims, "attacks": [attack]}]})
    (mine,) = report(view, draft).colours
    first, second = (n for n in mine.orders if n.phase == "aims")
    assert first.problem is None and second.problem is not None
    assert "already has an aim order" in second.problem
    (fight,) = (n for n in mine.orders if n.phase == "attacks")
    assert fight.win is not None and fight.chances and fight.text.endswith("5 ARM")
    # What the home holds after: 5 armies fewer; only the provinces the orders change.
    (after,) = mine.after
    before = view.provinces[home].figures
    assert before is not None and after.province == home
    assert after.units["ARM"] == before.arm - 5
    # The desktop form's planner says the same.
    alone = Draft()
    alone.add(colour, "attacks", draft.sets[0].attacks[0])
    plan = Planner(view, alone)
    assert plan.after(colour)[home]["ARM"] == after.units["ARM"]


def test_the_order_being_composed() -> None:
    view = _view()
    colour, home, target = _home(view)
    draft = read_draft(view, {"sets": []})
    probe = read_probe(view, {"colour": colour, "phase": "attacks"})
    assert probe is not None
    p = report(view, draft, probe).probe
    assert p is not None and home in p.sources and p.missing and p.order is None
    probe = read_probe(view, {"colour": colour, "phase": "attacks", "source": home})
    p = report(view, draft, probe).probe
    assert p is not None and target in p.targets and p.maximum > 0 and p.order is None
    # Amount 0 names the most the order may send.
    probe = read_probe(
        view, {"colour": colour, "phase": "attacks", "source": home, "target": target}
    )
    p = report(view, draft, probe).probe
    assert p is not None and p.order == {"source": home, "target": target, "armies": p.maximum}
    assert p.problem is None and p.win is not None
    # Too many: the probe's problem says so, and the form cannot add it.
    probe = read_probe(
        view,
        {"colour": colour, "phase": "attacks", "source": home, "target": target, "amount": 10**4},
    )
    p = report(view, draft, probe).probe
    assert p is not None and p.problem is not None and "amount" in p.problem
    # An aim: no target, a kind; its preview says what the workers make.
    probe = read_probe(view, {"colour": colour, "phase": "aims", "source": home, "kind": "MIS"})
    p = report(view, draft, probe).probe
    assert p is not None and p.order == {"province": home, "aim": "MIS"} and p.preview


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ("nothing", "an object"),
        ({"sets": [{"colour": 99}]}, "not one of your"),
        ({"sets": [{"colour": 0}, {"colour": 0}]}, "two order sets"),
        ({"sets": [{"colour": 0, "attacks": [{"source": 1}]}]}, "bad draft"),
        (
            {
                "sets": [
                    {
                        "colour": 0,
                        "troops": [{"province": 1, "source": "ARM", "target": "PIK", "amount": 1}],
                    }
                ]
            },
            "at most 0",
        ),
    ],
)
def test_drafts_a_seat_may_not_ask_about(data: Any, why: str) -> None:
    view = _view()
    with pytest.raises(DraftError, match=why):
        read_draft(view, data)


def test_a_draft_is_bounded_by_the_rule_sets_limits() -> None:
    view = _view()
    colour, home, target = _home(view)
    limit = view.limits.aim_orders
    many = [{"province": home, "aim": "MIS"}] * (limit + 1)
    with pytest.raises(DraftError, match=f"at most {limit}"):
        read_draft(view, {"sets": [{"colour": colour, "aims": many}]})
    fields = ("bomb_orders", "attack_orders", "move_orders")
    assert sum(getattr(view.limits, f) for f in fields) <= MAX_ORDERS


@pytest.mark.parametrize(
    "probe",
    [
        {"colour": 99, "phase": "attacks"},
        {"colour": 0, "phase": "trades"},
        {"colour": 0, "phase": "attacks", "source": -1},
        {"colour": 0, "phase": "attacks", "kind": "x" * 33},
        {"colour": 0, "phase": "nonsense"},
    ],
)
def test_probes_a_seat_may_not_send(probe: dict[str, Any]) -> None:
    with pytest.raises(DraftError):
        read_probe(_view(), probe)


def _rounds(q: float, attackers: int, defenders: int) -> float:
    """The win chance round by round (the form's old dynamic programme, O(a*d))."""
    prev = [0.0] * (defenders + 1)
    for _ in range(attackers):
        row = [1.0] + [0.0] * defenders
        for j in range(1, defenders + 1):
            row[j] = q * row[j - 1] + (1 - q) * prev[j]
        prev = row
    return prev[defenders]


@pytest.mark.parametrize(("patt", "pdef"), [(1, 1), (3, 2), (17, 11), (1732, 1109), (0.5, 3)])
def test_the_win_chance_in_closed_form_is_the_round_by_round_one(patt: float, pdef: float) -> None:
    la, ld = round_loss(patt, pdef)
    q = ld / (la + ld)
    for a, d in [(1, 1), (5, 3), (12, 7), (40, 60), (3, 50), (200, 20)]:
        assert win_chance(patt, pdef, a, d) == pytest.approx(_rounds(q, a, d), abs=1e-12)
    assert 0.0 <= win_chance(patt, pdef, 400, 400) <= 1.0  # cheap at the largest sides
