"""The Tactics engine speaks the core contract (issue 11): typed config, typed views for
seats and spectators, JSON round trips, type-checked apply, `check()`, `GameOver`, T17."""

from __future__ import annotations

import msgspec
import pytest

from suite.cli import main
from suite.core.match import ConfigError, GameOver, IllegalAction, game_spec, parse_config
from suite.core.rng import Rng
from suite.tactics.rules import actions as A
from suite.tactics.rules.config import TacticsConfig
from suite.tactics.rules.state import MOVE, OVER, TacticsState
from suite.tactics.rules.view import TacticsView, pack_area, unpack_area

SPEC = game_spec("tactics")
SWORDSMAN, ARCHER = 1, 2


def battle(seed: int = 1, **config: object) -> TacticsState:
    base: dict[str, object] = {"players": 2, "map": 1, "armies": [[SWORDSMAN, ARCHER] * 2] * 2}
    base.update(config)
    return TacticsState.create(base, seed)


def roundtrip(view: TacticsView) -> None:
    data = msgspec.json.encode(view)
    assert msgspec.json.decode(data, type=SPEC.view_type) == view


def piece_cell(view: TacticsView, uid: int) -> tuple[int, int]:
    piece = next(p for p in view.pieces if p.uid == uid)
    return piece.x, piece.y


def test_areas_pack_compactly_and_bad_masks_are_refused() -> None:
    cells = {(4, 5), (2, 3), (3, 1), (9, 3)}
    mask = pack_area((3, 3), cells, 6)
    assert len(mask) <= 21 and unpack_area((3, 3), mask, 6) == cells
    assert pack_area((0, 0), (), 2) == "0" and not unpack_area((0, 0), "0", 2)
    with pytest.raises(ValueError, match="not 1..2 steps"):
        pack_area((0, 0), [(3, 0)], 2)
    with pytest.raises(ValueError):
        unpack_area((0, 0), "fff", 1)
    state = battle(2)
    seat = state.current
    state.apply(seat, next(a for a in state.legal(seat) if isinstance(a, A.Select)))
    view = state.view(seat)
    assert view.area != "0" and all(r.area for r in view.reach)
    data = msgspec.json.encode(view)
    for bad in ("zz", "f" * 40, "-1"):
        broken = data.replace(f'"area":"{view.area}"'.encode(), f'"area":"{bad}"'.encode())
        assert broken != data
        with pytest.raises(msgspec.ValidationError, match="area mask"):
            msgspec.json.decode(broken, type=SPEC.view_type)
    assert battle(2).view(0).area_at() == frozenset()


def test_spec_names_its_types_and_screens() -> None:
    assert SPEC.config_type is TacticsConfig
    assert SPEC.view_type is TacticsView
    assert SPEC.ui == "suite.tactics.screens:UI"
    assert SPEC.blurb and SPEC.save_kind


def test_views_round_trip_and_hide_other_seats_xp() -> None:
    state = battle(3)
    rng = Rng(4)
    saw_move = False
    for _ in range(300):
        if state.outcome() is not None:
            break
        seat = state.current
        for who in (0, 1, None):
            view = state.view(who)
            roundtrip(view)
            for piece in view.pieces:
                if who is not None and piece.owner == who:
                    assert piece.xp == state.units[piece.uid].xp and piece.xp_next
                else:
                    assert piece.xp is None and piece.xp_next is None
        view = state.view(seat)
        assert view.current == seat and view.phase == state.phase
        assert set(view.commandable) == {u.uid for u in state.commandable()}
        if state.phase == MOVE:
            saw_move = True
            unit = state.units[state.active]
            assert view.selected == unit.uid
            cells = {state.terrain.cell(c) for c in state.reachable(unit)}
            assert {(r.x, r.y) for r in view.reach} == cells
            assert set(view.targets) == {t.uid for t in state.targets(unit)}
            cells_of = state.terrain.cell
            assert view.area_at() == {cells_of(c) for c in state.shot_cells(unit)}
            for spot in view.reach:
                cell = state.terrain.index(spot.x, spot.y)
                shots = {cells_of(c) for c in state.shot_cells(unit, cell)}
                assert view.area_at((spot.x, spot.y)) == shots
                assert {piece_cell(view, t) for t in spot.targets} <= shots
            for odds in view.odds:
                numbers = state.forecast(unit, state.units[odds.target])
                assert (odds.miss, odds.hit_damage) == (numbers.miss, numbers.hit_damage)
        state.apply(seat, rng.choice(state.legal(seat)))
        state.check()
    assert saw_move


def test_view_carries_the_pack_identity_and_rule_numbers() -> None:
    view = battle(pieces_per_turn=2).view(0)
    assert view.map.map_id == 1 and view.map.size > 0 and len(view.map.digest) == 16
    assert view.pieces_per_turn == 2 and view.pieces_left_this_turn == 2
    assert view.rules.rest_full == 2 and view.rules.quiet_rounds == 20
    assert battle().view(1).pieces_left_this_turn is None


def test_from_view_rebuilds_what_the_seat_sees() -> None:
    state = battle(5)
    rng = Rng(1)
    for _ in range(40):
        seat = state.current
        rebuilt = TacticsState.from_view(state.view(seat))
        assert rebuilt.legal(seat) == state.legal(seat)
        mine = [u.to_dict(state.terrain.size) for u in state.units if u.seat == seat]
        assert [u.to_dict(state.terrain.size) for u in rebuilt.units if u.seat == seat] == mine
        state.apply(seat, rng.choice(state.legal(seat)))


def test_events_round_trip_and_the_battle_ends_with_game_over() -> None:
    state = battle(2, max_rounds=3)
    events = []
    while state.outcome() is None:
        events.extend(state.apply(state.current, A.EndTurn()))
    data = msgspec.json.encode(events)
    assert msgspec.json.decode(data, type=list[SPEC.event_type]) == events
    assert isinstance(events[-1], GameOver) and events[-1].outcome == state.outcome()
    assert sum(isinstance(e, GameOver) for e in events) == 1


@pytest.mark.parametrize(
    ("config", "words"),
    [
        ({"players": 2, "armies": 5}, "armies"),
        ({"players": 2, "armys": []}, "armys"),
        ({"players": "two"}, "players"),
        ({"players": 2, "profiles": [{"level": "high"}]}, "profiles"),
        ({"players": 2, "armies": [["x"]]}, "armies"),
        ({"players": 2, "max_rounds": 1.5}, "max_rounds"),
    ],
)
def test_bad_configs_name_the_key(config: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        TacticsState.create(config, 1)


def test_config_values_are_checked_against_the_rules() -> None:
    for bad in ({"pieces_per_turn": 9}, {"max_rounds": 0}, {"max_pieces": 10}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            battle(**bad)
    with pytest.raises(ValueError, match="armies names 3 seats"):
        battle(armies=["random"] * 3)
    assert parse_config("tactics", {"players": 3}).players == 3


def test_sim_set_with_a_bad_value_is_an_error_not_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["sim", "tactics", "--games", "1", "--set", "armies=5"]) == 2
    err = capsys.readouterr().err
    assert "armies" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("seat", "action"),
    [
        (1.0, A.EndTurn()),
        (True, A.EndTurn()),
        ("0", A.EndTurn()),
        (7, A.EndTurn()),
        (None, A.EndTurn()),
        (0, A.Select(1.5)),  # type: ignore[arg-type]
        (0, A.Select(True)),
        (0, A.Move("1", 2)),  # type: ignore[arg-type]
        (0, "end_turn"),
    ],
)
def test_apply_refuses_wrong_types_and_changes_nothing(seat: object, action: object) -> None:
    state = battle()
    seat_now = state.current
    if seat == 0:
        seat = seat_now
    elif seat == 7 or seat is True:
        pass
    before = state.to_dict()
    with pytest.raises(IllegalAction):
        state.apply(seat, action)  # type: ignore[arg-type]
    assert state.to_dict() == before


def onto_the_border(state: TacticsState) -> None:
    """Move piece 0 onto the map's corner, a border cell nothing may stand on."""
    unit = state.units[0]
    state.occupied[unit.cell] = 0
    unit.cell = 0
    state.occupied[0] = unit.uid + 1


def test_check_names_what_is_broken() -> None:
    state = battle()
    state.check()
    unit, other = state.units[0], state.units[1]
    cases = [
        (lambda s: setattr(s.units[unit.uid], "hp", 999), "HP"),
        (lambda s: setattr(s.units[unit.uid], "rest", 3), "rest"),
        (lambda s: setattr(s.units[unit.uid], "xp", -1), "XP"),
        (lambda s: setattr(s.units[other.uid], "cell", unit.cell), "cell|occupancy"),
        (lambda s: setattr(s, "eliminated", [s.current]), "eliminated"),
        (lambda s: setattr(s, "phase", "dance"), "phase"),
        (lambda s: setattr(s, "active", 0), "selected"),
        (onto_the_border, "cannot"),
    ]
    for corrupt, words in cases:
        broken = TacticsState.from_dict(state.to_dict())
        corrupt(broken)
        with pytest.raises(AssertionError, match=words):
            broken.check()
    snap = state.to_dict()
    snap["units"][0]["hp"] = 999
    with pytest.raises(ValueError, match="not a tactics state"):
        TacticsState.from_dict(snap)
    with pytest.raises(ValueError, match="not a tactics state"):
        TacticsState.from_dict({"config": {"map": 1}})
    snap = state.to_dict()
    snap["units"][0]["hp"] = "lots"
    with pytest.raises(ValueError, match="not a tactics state"):
        TacticsState.from_dict(snap)


def test_stalemate_ends_after_twenty_quiet_rounds_by_score() -> None:
    """T17: whole rounds without damage; ranking by pieces, total HP, total level."""
    state = battle(4)
    loser = state.order[1]
    state.units[state.alive_units(loser)[0].uid].hp -= 1
    rounds = state.rules.turn.quiet_rounds
    events = []
    while state.outcome() is None:
        state.check()
        events.extend(state.apply(state.current, A.EndTurn()))
    outcome = state.outcome()
    assert outcome is not None and state.phase == OVER
    assert outcome.reason == f"stalemate: {rounds} rounds without damage"
    assert outcome.places == ((state.order[0],), (loser,))
    assert state.round == rounds + 1


def test_levels_break_a_tie_of_pieces_and_hp() -> None:
    state = battle(4)
    first = state.order[0]
    state.units[state.alive_units(first)[0].uid].level = 2
    state.units[state.alive_units(first)[0].uid].hp = state.pieces[SWORDSMAN].hp
    while state.outcome() is None:
        state.apply(state.current, A.EndTurn())
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (first,)
    tie = battle(4)
    while tie.outcome() is None:
        tie.apply(tie.current, A.EndTurn())
    assert tie.outcome() is not None and tie.outcome().places == ((0, 1),)  # type: ignore[union-attr]


def test_views_stay_well_inside_a_network_message() -> None:
    """Four full armies of far movers and far shooters on the largest default map: the
    view, weapon-range areas included, stays under half of the net's message limit."""
    from suite.net.protocol import MAX_MESSAGE

    scout, catapult, harpy, wolf = 10, 11, 3, 12
    army = [scout, catapult, wolf, harpy, harpy, harpy, wolf, wolf, scout]
    state = battle(1, players=4, map=7, armies=[army] * 4)
    rng, largest = Rng(1), 0
    for _ in range(200):
        if state.outcome() is not None:
            break
        seat = state.current
        largest = max(largest, len(msgspec.json.encode(state.view(seat))))
        state.apply(seat, rng.choice(state.legal(seat)))
    assert 0 < largest < MAX_MESSAGE // 2, largest
