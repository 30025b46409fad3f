"""World War rules engine: dealing, set-up, turns, battles, cards, eliminations, R7."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from suite.core.board import Board
from suite.core.match import ConfigError, GameOver, IllegalAction
from suite.worldwar.rules import SPEC
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.actions import WorldWarEvent
from suite.worldwar.rules.engine import WorldWarState
from suite.worldwar.rules.views import WorldWarView

Position = Callable[..., WorldWarState]


def kinds(events: list[Any]) -> list[str]:
    return [e.__struct_config__.tag for e in events]


def refused(st: WorldWarState, seat: int, action: A.Action, words: str) -> None:
    before = st.to_dict()
    with pytest.raises(IllegalAction) as info:
        st.apply(seat, action)
    assert words in info.value.reason
    assert st.to_dict() == before


@pytest.mark.parametrize(("players", "start"), [(2, 40), (3, 35), (4, 30), (5, 25), (6, 20)])
def test_deal_and_starting_armies(small_board: Board, players: int, start: int) -> None:
    st = WorldWarState.new(small_board, {"players": players}, seed=players)
    counts = [st.owner.count(s) for s in range(players)]
    assert sorted(counts, reverse=True)[0] - min(counts) <= 1
    # The first players in turn order take the extra territories.
    order = [(st.first + k) % players for k in range(players)]
    assert counts[order[0]] >= counts[order[-1]]
    assert all(a == 1 for a in st.armies)
    assert st.setup_left == [start - c for c in counts]
    assert st.phase == "setup" and st.current == st.first
    assert st.start_events and kinds(st.start_events)[0] == "dealt"


def test_first_player_is_random_but_seeded(small_board: Board) -> None:
    firsts = {WorldWarState.new(small_board, {"players": 4}, seed=s).first for s in range(30)}
    assert firsts == {0, 1, 2, 3}
    a = WorldWarState.new(small_board, {"players": 4}, seed=9).to_dict()
    assert a == WorldWarState.new(small_board, {"players": 4}, seed=9).to_dict()


def test_setup_goes_three_at_a_time_then_first_turn(small_board: Board) -> None:
    st = WorldWarState.new(small_board, {"players": 2}, seed=3)
    first = st.first
    mine = [st.topo.ids[t] for t in range(6) if st.owner[t] == first]
    refused(st, 1 - first, A.Place(mine[0], 1), "not your turn")
    refused(st, first, A.Place(mine[0], 4), "1 to 3")
    st.apply(first, A.Place(mine[0], 2))
    assert st.current == first and st.step_left == 1
    st.apply(first, A.Place(mine[1], 1))
    assert st.current == 1 - first and st.step_left == 3
    while st.phase == "setup":
        seat = st.current
        own = next(st.topo.ids[t] for t in range(6) if st.owner[t] == seat)
        st.apply(seat, A.Place(own, st.step_left))
    assert sum(st.armies) == 80
    assert st.phase == "place" and st.current == first and st.turn == 1


def test_reinforcements_territories_and_continents(position: Position) -> None:
    st = position([0, 0, 0, 0, 1, 1], [1] * 6)
    assert st.reinforcements(0) == (3 + 2, 3, ("west",))
    st = position([0, 1, 0, 1, 1, 1], [1] * 6)
    assert st.reinforcements(1) == (3 + 3, 3, ("east",))


def test_reinforcements_at_least_three_and_divided(small_board: Board) -> None:
    nodes = [
        {"id": f"t{i}", "region": "r", "neighbours": [f"t{(i - 1) % 12}", f"t{(i + 1) % 12}"]}
        for i in range(12)
    ]
    board = Board.from_json({"regions": [{"id": "r", "bonus": 7}], "nodes": nodes})
    st = WorldWarState.new(board, {"players": 2}, seed=0)
    d = st.to_dict()
    d["owner"] = [0] * 11 + [1]
    st = WorldWarState.from_dict(d, board=board)
    assert st.reinforcements(0) == (3, 3, ())
    assert st.reinforcements(1) == (3, 3, ())
    d["owner"] = [0] * 12
    assert WorldWarState.from_dict(d, board=board).reinforcements(0) == (4 + 7, 4, ("r",))


def test_placing_then_attacking(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [3, 1, 5, 2, 1, 1], phase="place", pool=4)
    refused(st, 0, A.Place("b1", 1), "not yours")
    refused(st, 0, A.Place("zz", 1), "no territory")
    refused(st, 0, A.Place("a1", 5), "1 to 4")
    refused(st, 0, A.Attack("a3", "b1", 1), "attack phase")
    refused(st, 0, A.EndTurn(), "finish placing")
    st.apply(0, A.PlaceMany((("a1", 1), ("a3", 2), ("a1", 1))))
    assert st.armies[:3] == [5, 1, 7] and st.phase == "attack"


def test_attack_rules_and_dice_limits(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [3, 1, 3, 2, 1, 1])
    refused(st, 0, A.Attack("a1", "b2", 1), "not next to")
    refused(st, 0, A.Attack("a2", "a1", 1), "already yours")
    refused(st, 0, A.Attack("a2", "b1", 1), "not next to")
    refused(st, 0, A.Attack("a3", "b1", 3), "1 to 2 dice")
    refused(st, 0, A.Attack("b1", "a3", 1), "not yours")
    st2 = position([0, 0, 0, 1, 1, 1], [3, 1, 1, 2, 1, 1])
    refused(st2, 0, A.Blitz("a3", "b1"), "at least 2 armies")
    events = st.apply(0, A.Attack("a3", "b1", 2))
    rolled = events[0]
    assert isinstance(rolled, A.DiceRolled)
    assert len(rolled.attacker_dice) == 2 and len(rolled.defender_dice) == 2
    assert list(rolled.attacker_dice) == sorted(rolled.attacker_dice, reverse=True)
    assert rolled.attacker_loss + rolled.defender_loss == 2
    assert st.armies[2] == 3 - rolled.attacker_loss and st.armies[3] == 2 - rolled.defender_loss


def test_conquest_occupation_minimum_and_card(position: Position) -> None:
    for seed in range(40):
        st = position([0, 0, 0, 1, 1, 1], [1, 1, 9, 1, 2, 1], seed=seed)
        events = st.apply(0, A.Attack("a3", "b1", 3))
        if st.phase == "occupy":
            break
    else:
        pytest.fail("no conquest in 40 seeded single rolls of 3 dice against 1")
    assert "conquered" in kinds(events) and st.owner[3] == 0
    refused(st, 0, A.Occupy(2), "move 3 to")
    assert st.armies[2:4] == [6, 3]  # the minimum moved in at once
    refused(st, 0, A.Occupy(9), "move 3 to 8")
    refused(st, 0, A.EndTurn(), "finish")
    st.apply(0, A.Occupy(4))
    assert st.armies[2:4] == [5, 4] and st.phase == "attack" and st.conquered
    hand = len(st.hands[0])
    ev = st.apply(0, A.EndTurn())
    assert "card_drawn" in kinds(ev) and len(st.hands[0]) == hand + 1
    assert st.current == 1 and st.phase == "place"


def test_no_card_without_conquest_or_without_cards(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [2, 2, 2, 2, 2, 2])
    assert "card_drawn" not in kinds(st.apply(0, A.EndTurn()))
    st = position([0, 0, 0, 1, 1, 1], [1, 1, 9, 1, 2, 1], cards="none", conquered=True)
    assert "card_drawn" not in kinds(st.apply(0, A.EndTurn()))
    assert st.view(0).hand == ()


def test_blitz_move_all_and_last_army_stays(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [1, 1, 30, 1, 3, 1])
    events = st.apply(0, A.Blitz("a3", "b1", True))
    assert kinds(events)[:3] == ["battle_fought", "conquered", "occupied"]
    assert st.armies[2] == 1 and st.owner[3] == 0 and st.phase == "attack"
    lost = events[0]
    assert isinstance(lost, A.BattleFought)
    assert st.armies[3] == 30 - lost.attacker_loss - 1


def test_fortify_once_then_turn_passes(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [4, 1, 2, 2, 2, 2])
    refused(st, 0, A.Fortify("a1", "a2", 4), "1 to 3")
    refused(st, 0, A.Fortify("a2", "a1", 1), "last army")
    refused(st, 0, A.Fortify("a3", "b1", 1), "own territories")
    st.apply(0, A.EndAttack())
    refused(st, 0, A.Attack("a3", "b1", 1), "attack phase")
    events = st.apply(0, A.Fortify("a1", "a2", 3))
    assert kinds(events)[:2] == ["fortified", "turn_ended"]
    assert st.armies[:2] == [1, 4] and st.current == 1


def test_defender_chooses_dice_when_asked(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [1, 1, 6, 3, 1, 1], config={"defender": "ask"})
    events = st.apply(0, A.Attack("a3", "b1", 3))
    assert kinds(events) == ["defence_asked"] and st.awaiting() == frozenset({1})
    refused(st, 0, A.Defend(1), "not your turn")
    refused(st, 1, A.Defend(3), "1 to 2")
    events = st.apply(1, A.Defend(1))
    roll = events[0]
    assert isinstance(roll, A.DiceRolled) and len(roll.defender_dice) == 1
    assert st.phase == "attack" and st.awaiting() == frozenset({0})


def test_blitz_with_asked_defender_repeats_until_done(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [1, 1, 12, 2, 1, 1], config={"defender": "ask"})
    st.apply(0, A.Blitz("a3", "b1", True))
    rolls = 0
    while st.phase == "defend":
        st.apply(1, A.Defend(min(2, st.armies[3])))
        rolls += 1
    assert rolls >= 1 and st.phase == "attack"
    assert st.owner[3] == 0 or st.armies[2] == 1


def elimination_state(
    position: Position, mode: str, hand0: list[int], hand1: list[int]
) -> WorldWarState:
    return position(
        [0, 0, 0, 1, 0, 0],
        [1, 1, 40, 1, 1, 1],
        players=2,
        cards=mode,
        hands=[hand0, hand1],
        deck=[c for c in range(30 if mode == "increasing" else 52) if c not in hand0 + hand1],
    )


def test_last_territory_wins_the_game(position: Position) -> None:
    st = elimination_state(position, "increasing", [], [0, 1])
    on_board = sum(st.armies) + st.lost_total
    events = st.apply(0, A.Blitz("a3", "b1", False))
    assert "eliminated" in kinds(events) and "game_over" in kinds(events)
    outcome = st.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.places == ((0,), (1,))
    assert st.phase == "over" and st.awaiting() == frozenset()
    assert all(a > 0 for a in st.armies) and sum(st.armies) + st.lost_total == on_board
    refused(st, 0, A.EndTurn(), "game is over")


def test_elimination_hands_over_cards_and_forces_turn_in(position: Position) -> None:
    # Seat 2 holds only b1 and three cards; seat 0 holds three: six cards force a turn-in.
    st = position(
        [0, 0, 0, 2, 1, 1],
        [1, 1, 40, 1, 2, 2],
        players=3,
        hands=[[0, 10, 11], [], [1, 2, 20]],
        deck=[c for c in range(30) if c not in (0, 10, 11, 1, 2, 20)],
        alive=[True, True, True],
    )
    events = st.apply(0, A.Blitz("a3", "b1", True))
    assert "eliminated" in kinds(events)
    assert sorted(st.hands[0]) == [0, 1, 2, 10, 11, 20] and st.hands[2] == []
    assert st.phase == "cards" and st.view(0).must_turn_in
    refused(st, 0, A.SkipTurnIn(), "must turn in")
    refused(st, 0, A.Blitz("b1", "b2"), "attack phase")
    refused(st, 0, A.TurnIn((0, 10)), "not a set")
    st.apply(0, A.TurnIn((0, 1, 2)))  # card c has rank c % 3: three different
    assert st.pool == 3 and st.phase == "place" and st.mid_turn
    refused(st, 0, A.TurnIn((10, 11, 20)), "start of your turn")
    st.apply(0, A.Place("b1", 3))
    assert st.phase == "attack"


def test_poker_optional_turn_in_after_elimination(position: Position) -> None:
    st = position(
        [0, 0, 0, 2, 1, 1],
        [1, 1, 40, 1, 2, 2],
        players=3,
        cards="poker",
        hands=[[0], [], [13]],  # 2 of clubs and 2 of diamonds: a pair after the hand-over
        deck=[c for c in range(52) if c not in (0, 13)],
    )
    st.apply(0, A.Blitz("a3", "b1", True))
    assert st.phase == "cards" and not st.view(0).must_turn_in
    st.apply(0, A.SkipTurnIn())
    assert st.phase == "attack" and sorted(st.hands[0]) == [0, 13]


def test_start_of_turn_turn_in_and_forced_at_five(position: Position) -> None:
    st = position(
        [0, 0, 0, 1, 1, 1],
        [2] * 6,
        phase="place",
        pool=3,
        hands=[[0, 10, 20, 1, 11], []],
        deck=[c for c in range(30) if c not in (0, 10, 20, 1, 11)],
        sets_done=2,
    )
    assert st.view(0).must_turn_in
    refused(st, 0, A.Place("a1", 1), "turn in a set first")
    refused(st, 0, A.TurnIn((0, 1, 2)), "from your hand")
    events = st.apply(0, A.TurnIn((0, 10, 20)))
    turned = events[0]
    assert isinstance(turned, A.CardsTurnedIn) and turned.armies == 9  # the 3rd set: 9
    assert st.pool == 12 and st.sets_done == 3
    assert st.deck[-3:] == [0, 10, 20]  # used cards go to the bottom (R6)
    assert not st.view(0).must_turn_in


def test_poker_forced_turn_in_must_be_best_hand(position: Position) -> None:
    # 9s of three suits and two 2s: the full house (30) is the only allowed turn-in.
    nines = [7, 20, 33]
    twos = [0, 13]
    st = position(
        [0, 0, 0, 1, 1, 1],
        [2] * 6,
        cards="poker",
        phase="place",
        pool=3,
        hands=[nines + twos, []],
        deck=[c for c in range(52) if c not in nines + twos],
    )
    legal = list(st.legal(0))
    assert legal == [A.TurnIn(tuple(sorted(nines + twos)))]
    refused(st, 0, A.TurnIn((0, 13)), "best poker hand")
    st.apply(0, legal[0])
    assert st.pool == 33


def test_poker_sixth_card_without_pair_discards_lowest(position: Position) -> None:
    hand = [1, 16, 31, 46, 12]  # 3c 5d 7h 9s Ac: no pair
    deck = [c for c in range(52) if c not in hand]
    deck.remove(10)
    deck.insert(0, 10)  # next draw: Q of clubs
    st = position(
        [0, 0, 0, 1, 1, 1], [2] * 6, cards="poker", hands=[hand, []], deck=deck, conquered=True
    )
    events = st.apply(0, A.EndTurn())
    assert kinds(events)[:2] == ["card_drawn", "card_discarded"]
    assert len(st.hands[0]) == 5 and 1 not in st.hands[0] and 10 in st.hands[0]
    assert st.deck[-1] == 1


def test_time_up_places_on_most_threatened_and_passes(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [2] * 6, phase="place", pool=5, config={"clock": 60})
    events = st.apply(0, A.TimeUp())
    assert kinds(events)[0] == "time_ran_out"
    assert st.armies[2] == 7  # a3 has the only enemy neighbour
    assert st.current == 1 and st.phase == "place"


def test_time_up_during_occupation_moves_the_minimum(position: Position) -> None:
    for seed in range(40):
        st = position([0, 0, 0, 1, 1, 1], [1, 1, 9, 1, 2, 1], seed=seed, config={"clock": 90})
        st.apply(0, A.Attack("a3", "b1", 2))
        if st.phase == "occupy":
            break
    st.apply(0, A.TimeUp())
    assert st.armies[3] == 2 and st.current == 1


def test_time_up_in_setup(small_board: Board) -> None:
    st = WorldWarState.new(small_board, {"players": 2, "clock": 60}, seed=3)
    first = st.first
    st.apply(first, A.TimeUp())
    assert st.current == 1 - first and sum(st.armies) == 6 + 3


def test_time_up_is_refused_without_a_clock(small_board: Board) -> None:
    st = WorldWarState.new(small_board, {"players": 2}, seed=3)
    before = st.to_dict()
    with pytest.raises(IllegalAction, match="no turn clock"):
        st.apply(st.first, A.TimeUp())
    assert st.to_dict() == before


def test_time_up_of_a_defender_only_picks_the_most_dice(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [2, 2, 9, 3, 1, 1], config={"defender": "ask", "clock": 60})
    st.apply(0, A.Attack("a3", "b1", 3))
    assert st.phase == "defend"
    events = st.apply(1, A.TimeUp())
    rolled = [e for e in events if isinstance(e, A.DiceRolled)]
    assert len(rolled) == 1 and len(rolled[0].defender_dice) == 2
    assert st.current == 0 and st.phase in ("attack", "occupy")


@pytest.mark.parametrize(
    ("seat", "action"),
    [
        (1.0, A.EndAttack()),
        (True, A.EndAttack()),
        ("0", A.EndAttack()),
        (0, A.Attack("a3", "b1", 1.5)),  # type: ignore[arg-type]
        (0, A.Attack("a3", "b1", True)),
        (0, A.Fortify("a3", "a1", 2.0)),  # type: ignore[arg-type]
        (0, A.Blitz("a3", "b1", 1)),  # type: ignore[arg-type]
        (0, A.TurnIn((0, 1.0))),  # type: ignore[arg-type]
        (0, A.PlaceMany((("a1", 1.5),))),  # type: ignore[arg-type]
    ],
)
def test_wrongly_typed_seats_and_actions_change_nothing(
    position: Position, seat: object, action: A.Action
) -> None:
    st = position([0, 0, 0, 1, 1, 1], [3, 1, 4, 2, 1, 1])
    before = st.to_dict()
    with pytest.raises(IllegalAction):
        st.apply(seat, action)  # type: ignore[arg-type]
    assert st.to_dict() == before
    assert seat != 0 or action not in st.legal(0)


def test_place_of_a_fraction_is_refused(small_board: Board) -> None:
    st = WorldWarState.new(small_board, {"players": 2}, seed=3)
    t = st.topo.ids[st.owner.index(st.first)]
    before = st.to_dict()
    with pytest.raises(IllegalAction, match="armies"):
        st.apply(st.first, A.Place(t, 1.5))  # type: ignore[arg-type]
    assert st.to_dict() == before


def test_max_turns_ranks_by_territories(position: Position) -> None:
    st = position([0, 0, 0, 0, 1, 1], [2] * 6, config={"max_turns": 1}, turn=2)
    st.apply(0, A.EndTurn())
    outcome = st.outcome()
    assert outcome is not None and outcome.winners == (0,) and "turn limit" in outcome.reason


def test_bad_configs(small_board: Board) -> None:
    for cfg, words in [
        ({"players": 7}, "players must be"),
        ({"players": 2, "cards": "tarot"}, "cards must be"),
        ({"players": 2, "defender": "maybe"}, "defender"),
        ({"players": 2, "clock": 61}, "clock"),
        ({"players": 2, "max_turns": 0}, "max_turns"),
        ({"players": 2, "ruleset": "x"}, "unknown worldwar config key 'ruleset'.*known:.*cards"),
        ({"players": "2"}, "players"),
        ({"players": 2, "rules": {"battle": {"dice": 3}}}, "rules.*dice"),
    ]:
        with pytest.raises(ConfigError, match=words):
            WorldWarState.new(small_board, cfg, 0)


def test_view_hides_other_hands(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [2] * 6, hands=[[0, 1], [2, 3, 4]])
    v0, v1, spectator = st.view(0), st.view(1), st.view(None)
    assert v0.hand == (0, 1) and v1.hand == (2, 3, 4) and spectator.hand == ()
    assert v0.hand_sizes == (2, 3)
    assert not hasattr(v0, "hands") and not hasattr(v0, "deck")
    assert v0.deck_left == len(st.deck)
    assert v1.best_turn_in == ((2, 3, 4),)  # card c has rank c % 3: three different
    assert v0.best_turn_in == ()
    with pytest.raises(AttributeError):  # a view is immutable
        v0.owner = ()  # type: ignore[misc]
    st.apply(0, A.Blitz("a3", "b1", True))
    assert v0.armies == (2,) * 6 and v0.owner == (0, 0, 0, 1, 1, 1)
    decoded = msgspec.json.decode(msgspec.json.encode(v1), type=WorldWarView)
    assert decoded == v1


def test_game_over_is_the_core_event(position: Position) -> None:
    st = position([0, 0, 0, 0, 0, 1], [2, 2, 2, 2, 9, 1])
    events = st.apply(0, A.Blitz("b2", "b3", True))
    over = [e for e in events if isinstance(e, GameOver)]
    assert len(over) == 1 and over[0].outcome == st.outcome() and st.phase == "over"
    back = msgspec.json.decode(msgspec.json.encode(events), type=list[WorldWarEvent])
    assert back == events


def test_legal_lists_are_lazy_and_checked(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [3, 1, 4, 2, 1, 1])
    legal = st.legal(0)
    assert A.Attack("a3", "b1", 3) in legal and A.Attack("a3", "b1", 4) not in legal
    assert legal.kinds() == ["attack", "blitz", "fortify", "end_attack", "end_turn"]
    assert all(st.refusal(0, a) is None for a in legal)
    # 3 single rolls and 2 blitzes a3->b1; free moves a1->a2/a3 (2 each), a3->a1/a2 (3 each)
    assert len(legal) == 3 + 2 + (2 + 2 + 3 + 3) + 2
    assert list(st.legal(1)) == []
    old = st.legal(0)
    st.apply(0, A.EndAttack())
    # A list describes the moment it was made for, even once the state has moved on.
    assert old.kinds() == ["attack", "blitz", "fortify", "end_attack", "end_turn"]
    assert st.legal(0).kinds() == ["fortify", "end_turn"]


def test_auto_place_puts_every_setup_army_on_the_weakest_borders(small_board: Board) -> None:
    st = WorldWarState.new(small_board, {"players": 2}, seed=3)
    seat = st.first
    left = st.setup_left[seat]
    assert A.AutoPlace() in st.legal(seat)
    before = sum(st.armies)
    events = st.apply(seat, A.AutoPlace())
    placed = [e for e in events if isinstance(e, A.Placed)]
    assert sum(e.armies for e in placed) == left and sum(st.armies) == before + left
    assert st.setup_left[seat] == 0 and st.current == 1 - seat
    mine = [t for t in range(6) if st.owner[t] == seat]
    borders = [t for t in mine if any(st.owner[n] != seat for n in st.topo.adj[t])]
    assert {st.topo.index[e.territory] for e in placed} <= set(borders)
    assert len(placed) > 1  # spread, not one stack (R13)
    st.check()


def test_auto_place_only_during_deployment(position: Position) -> None:
    st = position([0, 0, 0, 1, 1, 1], [2] * 6)
    before = st.to_dict()
    with pytest.raises(IllegalAction, match="deployment"):
        st.apply(0, A.AutoPlace())
    assert st.to_dict() == before


@pytest.mark.parametrize("players", [2, 4, 6])
def test_auto_place_config_deals_and_places_everything(players: int) -> None:
    st = SPEC.create({"players": players, "map": "classic", "auto_place": True}, 5)
    assert isinstance(st, WorldWarState)
    start = st.rules.setup.starting(players)
    assert st.phase == "place" and st.turn == 1 and st.current == st.first
    assert sum(st.armies) == start * players and not any(st.setup_left)
    assert kinds(st.start_events)[0] == "dealt"
    st.check()
