"""The battle engine on the default pack: setup, turns, rest, attacks, levels, the end."""

from __future__ import annotations

import json

import pytest

from suite.core.match import IllegalAction, new_game
from suite.tactics.rules import actions as A
from suite.tactics.rules import combat
from suite.tactics.rules.armies import ArmyError
from suite.tactics.rules.packs import PackError
from suite.tactics.rules.state import ATTACK, MOVE, OVER, SELECT, TacticsState, Unit

SWORDSMAN, ARCHER, HARPY, OGRE, KING, MAGE, CATAPULT = 1, 2, 3, 6, 7, 9, 11


def battle(seed: int = 1, **config: object) -> TacticsState:
    base: dict[str, object] = {"players": 2, "map": 1, "armies": [[SWORDSMAN] * 3] * 2}
    base.update(config)
    return TacticsState.create(base, seed)


def place(state: TacticsState, unit: Unit, x: int, y: int) -> None:
    state.occupied[unit.cell] = 0
    unit.cell = state.terrain.index(x, y)
    assert not state.occupied[unit.cell]
    state.occupied[unit.cell] = unit.uid + 1


def mine(state: TacticsState, seat: int | None = None) -> list[Unit]:
    return state.alive_units(state.current if seat is None else seat)


def test_same_seed_same_battle_and_snapshots_round_trip() -> None:
    one, two = battle(5), battle(5)
    assert one.to_dict() == two.to_dict()
    for _ in range(40):
        if one.outcome():
            break
        action = one.legal(one.current)[0]
        one.apply(one.current, action)
        two.apply(two.current, action)
    snap = one.to_dict()
    assert snap == two.to_dict()
    assert TacticsState.from_dict(json.loads(json.dumps(snap))).to_dict() == snap


def test_registered_game_and_default_config_play_each_map() -> None:
    state = new_game("tactics", {"players": 4}, 3)
    assert state.game == "tactics" and len(state.awaiting()) == 1
    maps = {TacticsState.create({"players": 2}, seed).map_id for seed in range(7)}
    assert maps == set(range(1, 8))


def test_formation_stands_around_the_start_on_legal_free_cells() -> None:
    state = battle(2, armies=[[SWORDSMAN] * 2 + [ARCHER] * 7] * 2)
    cells = [u.cell for u in state.units]
    assert len(set(cells)) == len(cells) == 18
    for unit in state.units:
        assert state.terrain.can_hold(unit.cell, state.pieces[unit.kind].movement)
        sx, sy = state.terrain.starts[state.colours[unit.seat]]  # type: ignore[misc]
        x, y = state.terrain.cell(unit.cell)
        assert abs(x - sx) + abs(y - sy) <= 4
    centre = [u for u in state.units if u.uid % 9 == 4]
    for unit in centre:
        assert state.terrain.cell(unit.cell) == state.terrain.starts[state.colours[unit.seat]]


@pytest.mark.parametrize(
    ("army", "profile", "message"),
    [
        ([SWORDSMAN] * 10, None, "slots"),
        ([HARPY] * 4, None, "max#"),
        ([KING, KING], None, "max#"),
        ([CATAPULT], {"level": 4, "tokens": [1]}, "L5"),
        ([MAGE], {"level": 1}, "L2"),
        ([99], None, "no playable piece"),
        ([0, 0], None, "at least one"),
    ],
)
def test_bad_armies_are_refused(army: list[int], profile: object, message: str) -> None:
    with pytest.raises(ArmyError, match=message):
        battle(armies=[army, [SWORDSMAN]], profiles=[profile, None])


def test_requirements_met_and_max_pieces_of_the_host() -> None:
    battle(armies=[[CATAPULT, MAGE], [SWORDSMAN]], profiles=[{"level": 5, "tokens": [1]}])
    with pytest.raises(ArmyError, match="at most 2"):
        battle(armies=[[SWORDSMAN] * 3, [SWORDSMAN]], max_pieces=2)
    with pytest.raises(PackError):
        battle(map=42)
    with pytest.raises(PackError, match="host needs 'L3'"):
        battle(map=4, profiles=[{"level": 2}])
    assert battle(map="the crags", profiles=[{"level": 3}]).map_id == 4
    with pytest.raises(ValueError, match="pieces_per_turn"):
        battle(pieces_per_turn=5)
    with pytest.raises(ValueError, match="max_rounds"):
        battle(max_rounds=-3)
    with pytest.raises(ValueError, match="2-4 players"):
        battle(players=5)


def test_turn_order_follows_colours_from_a_random_first_player() -> None:
    firsts = set()
    for seed in range(12):
        state = TacticsState.create({"players": 4, "map": 1}, seed)
        by_colour = sorted(range(4), key=lambda s: state.colours[s])
        at = by_colour.index(state.order[0])
        assert state.order == by_colour[at:] + by_colour[:at]
        firsts.add(state.order[0])
    assert len(firsts) > 1


def _walk(state: TacticsState, unit: Unit) -> None:
    state.apply(state.current, A.Select(unit.uid))
    goal = sorted(state.reachable(unit))[0]
    state.apply(state.current, A.Move(*state.terrain.cell(goal)))


@pytest.mark.parametrize("mode", [1, 2, 3, 4, 0])
def test_rest_across_turns_in_every_mode(mode: int) -> None:
    state = battle(pieces_per_turn=mode)
    seat = state.current
    unit = mine(state)[0]
    assert unit.rest == 2
    _walk(state, unit)
    assert unit.rest == 1
    state.apply(seat, A.SkipAttack())
    if state.current == seat:
        state.apply(seat, A.EndTurn())
    state.apply(state.current, A.EndTurn())
    assert state.current == seat and unit.rest == 2
    unit.rest = 0  # as after a move and an attack
    state.apply(seat, A.EndTurn())
    state.apply(state.current, A.EndTurn())
    assert unit.rest == 1
    assert state.can_command(unit) == (mode != 0)


def test_pieces_per_turn_limits_then_passes_the_turn() -> None:
    state = battle(pieces_per_turn=2)
    seat = state.current
    for unit in mine(state)[:2]:
        state.apply(seat, A.Select(unit.uid))
        state.apply(seat, A.SkipMove())
        state.apply(seat, A.SkipAttack())
    assert state.current != seat and state.phase == SELECT


def test_a_piece_acts_once_per_turn_and_phases_are_enforced() -> None:
    state = battle()
    seat = state.current
    unit = mine(state)[0]
    with pytest.raises(IllegalAction):
        state.apply(seat, A.SkipMove())
    state.apply(seat, A.Select(unit.uid))
    assert state.phase == MOVE
    state.apply(seat, A.SkipMove())
    assert state.phase == ATTACK
    state.apply(seat, A.SkipAttack())
    with pytest.raises(IllegalAction, match="cannot act"):
        state.apply(seat, A.Select(unit.uid))
    with pytest.raises(IllegalAction, match="turn"):
        state.apply(1 - seat, A.EndTurn())


def _face_off(state: TacticsState) -> tuple[Unit, Unit]:
    attacker = mine(state)[0]
    target = state.alive_units(1 - state.current)[0]
    place(state, attacker, 5, 5)
    place(state, target, 6, 5)
    return attacker, target


def test_attack_spends_rest_and_matches_the_forecast() -> None:
    state = battle(4)
    seat = state.current
    attacker, target = _face_off(state)
    numbers = state.forecast(attacker, target)
    state.apply(seat, A.Select(attacker.uid))
    state.apply(seat, A.SkipMove())
    assert A.Attack(target.uid) in state.legal(seat)
    events = state.apply(seat, A.Attack(target.uid))
    resolved = next(e for e in events if isinstance(e, A.AttackResolved))
    assert (resolved.miss_chance, resolved.crit_chance) == (numbers.miss, numbers.crit)
    expect = {"miss": 0, "hit": numbers.hit_damage, "crit": numbers.crit_damage}[resolved.result]
    assert resolved.damage == expect and target.hp == 10 - expect
    assert attacker.rest == 1


def test_forecast_from_another_cell_costs_a_move_of_rest() -> None:
    state = battle(4)
    attacker, target = _face_off(state)
    here = state.forecast(attacker, target)
    there = state.forecast(attacker, target, state.terrain.index(7, 5))
    assert here.in_range and there.in_range
    far = state.forecast(attacker, target, state.terrain.index(9, 9))
    assert not far.in_range
    assert there.crit < here.crit


def test_out_of_reach_and_friendly_targets_are_illegal() -> None:
    state = battle(4)
    seat = state.current
    attacker, target = _face_off(state)
    friend = mine(state)[1]
    place(state, target, 9, 9)
    state.apply(seat, A.Select(attacker.uid))
    state.apply(seat, A.SkipMove())
    before = state.to_dict()
    for bad in (A.Attack(target.uid), A.Attack(friend.uid), A.Attack(999), A.Move(1, 1)):
        with pytest.raises(IllegalAction):
            state.apply(seat, bad)
        assert state.to_dict() == before


def test_level_up_refills_hp_mp_and_rest() -> None:
    state = battle(4)
    attacker, target = _face_off(state)
    attacker.hp, attacker.rest = 3, 0
    attacker.xp = combat.xp_to_level(1, state.rules) - 5
    events: list[object] = []
    state.resolve(attacker, target, "hit", state.forecast(attacker, target), events)  # type: ignore[arg-type]
    up = [e for e in events if isinstance(e, A.LevelUp)]
    assert up and attacker.level == 2 and attacker.xp == 0
    stats = combat.runtime(state.pieces[attacker.kind], 2, state.rules)
    assert (attacker.hp, attacker.mp, attacker.rest) == (stats.max_hp, stats.max_mp, 2)


def test_kills_eliminate_and_the_last_army_wins() -> None:
    state = battle(4)
    seat = state.current
    attacker = mine(state)[0]
    for target in state.alive_units(1 - seat):
        target.hp = 1
        events: list[object] = []
        state.resolve(attacker, target, "hit", state.forecast(attacker, target), events)  # type: ignore[arg-type]
        assert any(isinstance(e, A.PieceDied) for e in events)
        assert not state.occupied[target.cell]
    assert state.phase == OVER
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (seat,)
    assert outcome.places == ((seat,), (1 - seat,))
    assert attacker.level == 2  # three kills at 20 XP each passed 50
    assert state.score(1 - seat) == (0, 0) and state.score(seat) == (3, 32)
    assert state.legal(seat) == [] and state.awaiting() == frozenset()


def test_four_players_places_follow_elimination_order() -> None:
    state = TacticsState.create({"players": 4, "map": 1, "armies": [[SWORDSMAN]] * 4}, 8)
    killer = state.units[state.order[0]]
    victims = [s for s in state.order[1:]]
    for seat in victims:
        target = state.alive_units(seat)[0]
        target.hp = 1
        state.resolve(killer, target, "hit", state.forecast(killer, target), [])
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.places == ((killer.seat,), *((s,) for s in reversed(victims)))


def test_round_limit_ends_by_score() -> None:
    state = battle(6, max_rounds=2)
    state.units[state.alive_units(state.order[1])[0].uid].hp = 4
    while state.outcome() is None:
        state.apply(state.current, A.EndTurn())
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (state.order[0],)
    assert "rounds" in outcome.reason


def test_view_shows_score_lines_and_teams() -> None:
    state = battle()
    view = state.view(0)
    assert view.seat == 0
    assert [(s.pieces_left, s.total_hp) for s in view.seats] == [(3, 30), (3, 30)]
    assert {s.team for s in view.seats} <= {"red", "green", "yellow", "blue"}


def test_value_army_takes_the_best_kinds_within_max_count_and_requirements() -> None:
    state = battle(3, armies=["value", "random"], profiles=[{"level": 1}, None])
    kinds = [u.kind for u in state.units if u.seat == 0]
    assert len(kinds) == 9
    assert kinds.count(OGRE) == 2 and kinds.count(KING) == 1
    assert CATAPULT not in kinds and MAGE not in kinds  # L5+T1 and L2 are not met
    unlocked = battle(3, armies=["value", "random"], profiles=[{"level": 5, "tokens": [1]}])
    assert CATAPULT in [u.kind for u in unlocked.units if u.seat == 0]


def test_actions_travel_as_json_and_replays_rebuild_the_state() -> None:
    from suite.core.match import Recorder, decode_action, encode

    recorder = Recorder("tactics", {"players": 3, "map": 2, "pieces_per_turn": 2}, 21)
    state = recorder.state
    assert isinstance(state, TacticsState)
    for step in range(120):
        if state.outcome() is not None:
            break
        legal = state.legal(state.current)
        action = legal[(step * 7) % len(legal)]
        assert decode_action("tactics", json.loads(json.dumps(encode(action)))) == action
        recorder.apply(state.current, action)
    assert recorder.replay.play().to_dict() == state.to_dict()
    with pytest.raises(ValueError):
        decode_action("tactics", {"kind": "move", "x": "far"})
