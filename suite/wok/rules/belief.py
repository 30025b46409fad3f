"""What a seat believes the world to be, built from its `view` for bots.

Own provinces are exact; provinces with intel take what was seen; the rest are
estimated: a neutral from the rule set's start figures and its per-turn gains (W3: +2
armies a turn, its 16 workers' DEF); an enemy province holds the average armies per
province of that colour's last Spy Player result, or else (a mirror guess) the seat's own
average, at the seat's own average level and a home's DEF; a province the seat attacked
last turn without taking it holds what the battle report showed (the defenders left and
a level matching the defence power met). EFF of other colours comes from Spy Player
intel, else the start EFF.
"""

from __future__ import annotations

from suite.core.board import Board, Node, Region
from suite.wok.rules.ruleset import RuleSet
from suite.wok.rules.views import WokView
from suite.wok.rules.world import NEUTRAL, Colour, World

_BOARDS: dict[tuple[tuple[int, ...], ...], Board] = {}
_LETTER = {"": 0, "A": 0, "B": 1, "C": 2}


def _board(view: WokView) -> Board:
    """A board with the view's adjacency (province i is node "p<i>"), cached per map."""
    key = tuple(m.neighbours for m in view.map.provinces)
    board = _BOARDS.get(key)
    if board is None:
        nodes = [
            Node(f"p{m.id}", f"p{m.id}", "r", tuple(f"p{j}" for j in m.neighbours))
            for m in view.map.provinces
        ]
        board = Board(nodes, [Region("r", "r")], name="belief", require_connected=False)
        if len(_BOARDS) > 16:
            _BOARDS.clear()
        _BOARDS[key] = board
    return board


def neutral_estimate(rules: RuleSet, turn: int) -> tuple[int, int]:
    """(armies, DEF tenths) of an untouched neutral at the start of `turn`."""
    n = rules.start.neutral
    arm = n.arm + rules.start.neutral.arm_per_turn * turn
    dfn = n.def_tenths + (n.wok // rules.working.def_per) * max(0, turn - 1)
    return min(rules.caps.arm, arm), min(rules.caps.def_tenths, dfn)


def believed_world(view: WokView) -> World:
    """A `World` holding the seat's best knowledge (see the module docstring)."""
    rules = view.rules
    turn = view.turn
    mine = {c.colour: c for c in view.colours}
    intel = {i.colour: i for i in view.player_intel}
    colours = []
    for pl in view.players:
        c = pl.colour
        wood = mine[c].wood if c in mine else 0
        if c in mine:
            eff, gold, tech = mine[c].eff, mine[c].gold, mine[c].tech
        elif c in intel:
            eff, gold, tech = intel[c].eff, intel[c].gold, intel[c].tech
        else:
            eff, gold, tech = rules.start.eff, 0, 0
        colours.append(
            Colour(
                name=pl.name,
                seat=pl.seat,
                eff=eff,
                gold=gold,
                tech=tech,
                letter=_LETTER.get(pl.letter, 0),
                alive=pl.alive,
                ally=mine[c].ally if c in mine else pl.ally,
                wood=wood,
            )
        )
    w = World(_board(view), rules, colours)
    n_arm, n_def = neutral_estimate(rules, turn)
    home = rules.start.home
    own = [p.figures for p in view.provinces if p.owner in mine and p.figures is not None]
    own_arm = sum(f.arm for f in own)
    mirror_arm = round(own_arm / len(own)) if own else home.arm
    mirror_lev = round(sum(f.arm * f.lev for f in own) / own_arm, 3) if own_arm else home.lev
    for entry in view.provinces:
        p = entry.id
        w.terrain[p] = view.map.provinces[p].terrain
        w.owner[p] = entry.owner
        w.home[p] = entry.home
        f = entry.figures
        if f is not None:
            w.pop[p], w.wok[p], w.arm[p] = f.pop, f.wok, f.arm
            w.pik[p], w.arc[p], w.kni[p], w.cat[p] = f.pik, f.arc, f.kni, f.cat
            w.lev[p], w.dfn[p] = f.lev, round(f.def_ * 10)
            w.mis[p], w.spy[p], w.aim[p] = f.mis, f.spy, f.aim
            w.false_orders[p] = f.false_orders
            if w.owner[p] == NEUTRAL and entry.seen is not None and entry.seen < turn:
                gap = turn - entry.seen
                w.arm[p] = min(rules.caps.arm, w.arm[p] + rules.start.neutral.arm_per_turn * gap)
        elif w.owner[p] == NEUTRAL:
            w.pop[p], w.wok[p], w.arm[p], w.dfn[p] = (
                rules.start.neutral.default_pop,
                rules.start.neutral.wok,
                n_arm,
                n_def,
            )
        else:
            seen = intel.get(w.owner[p])
            arm = round(seen.arm / seen.provinces) if seen and seen.provinces else mirror_arm
            w.pop[p], w.wok[p] = rules.start.neutral.default_pop, home.wok
            w.arm[p], w.lev[p] = min(rules.caps.arm, arm), w.bound_lev(mirror_lev)
            if seen and seen.arm:
                w.lev[p] = w.bound_lev(seen.lev)
            w.dfn[p], w.spy[p] = home.def_tenths, home.spy
    _learn_from_battles(w, view)
    return w


def _learn_from_battles(w: World, view: WokView) -> None:
    """Unseen provinces the seat failed to take last turn: survivors and their level."""
    a = w.rules.attack
    mine = view.own()
    for report in view.reports:
        if report.turn != view.turn - 1:
            continue
        for b in report.battles:
            t = b.target
            if b.won or b.attacker not in mine or view.provinces[t].figures is not None:
                continue
            if w.owner[t] != b.defender:
                continue
            w.arm[t] = max(0, b.defenders - b.d_lost)
            eff = max(1, w.eff_of(t)) * a.eff_factor
            lev = (b.pdef / eff - a.def_def_factor * w.dfn[t] / 10) / a.def_level_factor
            w.lev[t] = w.bound_lev(lev)
