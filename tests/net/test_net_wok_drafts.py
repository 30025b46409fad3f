"""WoK's `draft_check` (issue 33): a seat asks about its own draft orders; nobody else
ever hears of them. And the `maps` answer of a WoK room's set-up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from suite.net import protocol as P

from .fakes import FakeConn, make_server, open_room, spectator

CONFIG = {"players": 3, "variant": "skirmish", "map": "star-islands", "max_turns": 3}


def _draft_of(room: Any, seat: int) -> tuple[dict[str, Any], int, int]:
    """A draft attacking a neighbour of the seat's home; the home and its target."""
    view = room.state.view(seat)
    colour = view.colours[0]
    home = colour.homes[0]
    target = view.map.provinces[home].neighbours[0]
    sets = [
        {
            "colour": colour.colour,
            "attacks": [{"source": home, "target": target, "armies": 3}],
            "aims": [{"province": home, "aim": "MIS"}],
        }
    ]
    return {"sets": sets}, home, target


def _report(conn: FakeConn) -> dict[str, Any]:
    msg = conn.last(P.DraftReportMsg)
    return msgspec.json.decode(msg.report)  # type: ignore[no-any-return]


def test_a_seat_hears_about_its_draft_and_nobody_else_does(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "wok", CONFIG, humans=3)
    watcher = spectator(server, room)
    marks = [len(c.raw) for c in [*conns, watcher]]
    draft, home, target = _draft_of(room, 0)
    probe = {"colour": draft["sets"][0]["colour"], "phase": "attacks", "source": home}
    answer = conns[0].say(
        P.DraftCheck(token=conns[0].token, state_id=room.state_id, draft=draft, probe=probe)
    )
    assert [type(m) for m in answer] == [P.DraftReportMsg]
    report = _report(conns[0])
    (mine,) = report["colours"]
    (attack, aim) = mine["orders"]
    assert attack["problem"] is None and attack["win"] is not None
    assert any("win" in line for line in attack["chances"])
    assert aim["preview"] and mine["after"][0]["province"] == home
    # The planned capture is no longer a target; its other neighbours are.
    assert report["probe"]["maximum"] > 0 and report["probe"]["targets"]
    assert target not in report["probe"]["targets"]
    assert {p["phase"] for p in report["phases"]} >= {"attacks", "aims", "moves"}
    assert all(p["help"] for p in report["phases"])
    # Nothing reached the other seats or the watcher: not a byte.
    for conn, mark in zip([*conns[1:], watcher], marks[1:], strict=True):
        assert conn.raw[mark:] == []
    # ...and the orders never show in anyone else's later messages either.
    conns[1].say(
        P.Act(token=conns[1].token, state_id=room.state_id, action={"kind": "ready", "ready": True})
    )
    needle = b'"aim":"MIS"'
    for conn in [*conns[1:], watcher]:
        assert not any(needle in raw for raw in conn.raw)


def test_a_rejoining_seat_gets_its_draft_back_and_a_new_turn_drops_it(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "wok", CONFIG, humans=3)
    draft, _, _ = _draft_of(room, 1)
    conns[1].say(P.DraftCheck(token=conns[1].token, state_id=room.state_id, draft=draft))
    again = FakeConn(server, "p1 again")
    again.say(P.Hello(name="p1 again"))
    answer = again.say(P.Rejoin(token=conns[1].token))
    kinds = [type(m) for m in answer]
    assert P.DraftReportMsg in kinds and kinds.index(P.DraftReportMsg) > kinds.index(P.ViewMsg)
    kept = msgspec.json.decode(again.last(P.DraftReportMsg).draft)
    assert kept["sets"][0]["attacks"] == draft["sets"][0]["attacks"]
    # Another seat rejoining gets no draft at all.
    other = FakeConn(server, "p2 again")
    other.say(P.Hello(name="p2 again"))
    assert not any(
        isinstance(m, P.DraftReportMsg) for m in other.say(P.Rejoin(token=conns[2].token))
    )
    # The turn runs: the kept draft is of an old turn and is not sent back.
    for conn in (conns[0], again, other):
        conn.say(
            P.Act(token=conn.token, state_id=room.state_id, action={"kind": "ready", "ready": True})
        )
    assert room.state.view(1).turn == 2
    third = FakeConn(server, "p1 third")
    third.say(P.Hello(name="p1 third"))
    assert not any(
        isinstance(m, P.DraftReportMsg) for m in third.say(P.Rejoin(token=conns[1].token))
    )


def test_drafts_are_bounded_and_refused_with_reasons(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "wok", CONFIG, humans=3)
    c = conns[0]
    draft, home, target = _draft_of(room, 0)
    colour = draft["sets"][0]["colour"]

    def refusal(draft: Any, probe: Any = None, token: str | None = None) -> P.Error:
        answer = c.say(
            P.DraftCheck(token=token or c.token, state_id=room.state_id, draft=draft, probe=probe)
        )
        (error,) = [m for m in answer if isinstance(m, P.Error)]
        assert error.ref == "draft_check"
        return error

    other_colour = room.state.view(1).colours[0].colour
    assert "not one of your" in refusal({"sets": [{"colour": other_colour}]}).message
    limit = room.state.view(0).limits.attack_orders
    many = [{"source": home, "target": target, "armies": 1}] * (limit + 1)
    error = refusal({"sets": [{"colour": colour, "attacks": many}]})
    assert error.code == "bad_draft" and f"at most {limit}" in error.message
    assert refusal({"sets": [{"colour": colour, "attacks": [{"x": 1}]}]}).code == "bad_draft"
    assert refusal(draft, {"colour": colour, "phase": "trades"}).code == "bad_draft"
    assert (
        refusal(draft, {"colour": colour, "phase": "attacks", "source": 10**6}).code == "bad_draft"
    )
    huge = {"sets": [{"colour": colour}], "pad": "x" * (P.MAX_DRAFT + 1)}
    assert "at most" in refusal(huge).message
    assert refusal(draft, token="nobody").code == "bad_token"
    # A spectator has no token to ask with; a World War room has no drafts.
    ww, ww_conns = open_room(server, "worldwar", {"players": 2, "map": "classic"}, humans=2)
    answer = ww_conns[0].say(
        P.DraftCheck(token=ww_conns[0].token, state_id=ww.state_id, draft={"sets": []})
    )
    assert [m.code for m in answer if isinstance(m, P.Error)] == ["no_drafts"]


def test_the_wok_set_up_choices(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    c = FakeConn(server, "host")
    c.say(P.Hello(name="host"))
    (maps,) = c.say(P.MapsRequest(game="wok"))
    assert isinstance(maps, P.MapList)
    names = [m.name for m in maps.maps]
    assert names[:3] == ["trial", "star-islands", "kaomaris"] and names[-1] == "random"
    assert maps.maps[0].players == 2 and maps.maps[0].provinces == 20
    assert maps.territories == (8, 36) and maps.headhunting == (0, 99)
    titles = [r.title for r in maps.rulesets]
    assert len(titles) == 3 and maps.rulesets[0].name == "standard"
    assert [v.name for v in maps.rulesets[0].variants][:3] == ["skirmish", "duel", "trinity"]
    for rules in maps.rulesets:
        assert rules.variants[0].name == "skirmish"
        assert rules.clocks and all(k.deadline > 0 for k in rules.clocks)
    # Every choice listed makes a room.
    trinity = next(v for v in maps.rulesets[0].variants if v.name == "trinity")
    config = {"variant": "trinity", "map": 36, "players": trinity.seats}
    config["clock"] = maps.rulesets[0].clocks[0].name
    answer = c.say(P.Create(game="wok", config=config))
    assert not [m for m in answer if isinstance(m, P.Error)], answer


def test_draft_checks_count_against_the_connections_rate(tmp_path: Path) -> None:
    from suite.net.server.connection import RateLimit

    server = make_server(tmp_path)
    room, conns = open_room(server, "wok", CONFIG, humans=3)
    c = conns[0]
    c.limit = RateLimit(5, 5, lambda: 0.0)  # five at once, then none (time stands still)
    draft, _, _ = _draft_of(room, 0)
    answers = [
        c.say(P.DraftCheck(token=c.token, state_id=room.state_id, draft=draft, ref=i))
        for i in range(8)
    ]
    kinds = [type(a[0]) if a else None for a in answers]
    assert kinds[:5] == [P.DraftReportMsg] * 5
    assert all(k is P.Error for k in kinds[5:])
    assert {a[0].code for a in answers[5:]} == {"rate_limited"}  # type: ignore[union-attr]
    assert [a[0].ref for a in answers[:5]] == [0, 1, 2, 3, 4]  # type: ignore[union-attr]
