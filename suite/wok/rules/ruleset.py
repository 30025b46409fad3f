"""A WoK rule set read from its data file (assets/wok/rules/<name>.toml).

Every number the phases use comes from a `RuleSet`; a missing or mistyped entry raises
`RuleSetError` naming the file and the key, so a modder's typo never reaches a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from suite.core.datafile import read_toml
from suite.paths import asset


class RuleSetError(ValueError):
    """A rule-set file that cannot be used; the message names the file and the key."""


class _Reader:
    """Typed access to a TOML table with errors that name the file and dotted key."""

    def __init__(self, data: dict[str, Any], source: str, prefix: str = "") -> None:
        self.data = data
        self.source = source
        self.prefix = prefix

    def _raw(self, key: str) -> Any:
        if key not in self.data:
            raise RuleSetError(f"{self.source}: missing key {self.prefix}{key}")
        return self.data[key]

    def _bad(self, key: str, want: str) -> RuleSetError:
        return RuleSetError(f"{self.source}: {self.prefix}{key} must be {want}")

    def integer(self, key: str) -> int:
        v = self._raw(key)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self._bad(key, "an integer")
        return v

    def number(self, key: str) -> float:
        v = self._raw(key)
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise self._bad(key, "a number")
        return float(v)

    def flag(self, key: str) -> bool:
        v = self._raw(key)
        if not isinstance(v, bool):
            raise self._bad(key, "true or false")
        return v

    def text(self, key: str) -> str:
        v = self._raw(key)
        if not isinstance(v, str):
            raise self._bad(key, "a string")
        return v

    def texts(self, key: str) -> tuple[str, ...]:
        v = self._raw(key)
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise self._bad(key, "a list of strings")
        return tuple(v)

    def integers(self, key: str) -> tuple[int, ...]:
        v = self._raw(key)
        if not isinstance(v, list) or not all(isinstance(x, int) for x in v):
            raise self._bad(key, "a list of integers")
        return tuple(v)

    def table(self, key: str) -> _Reader:
        v = self._raw(key)
        if not isinstance(v, dict):
            raise self._bad(key, "a table")
        return _Reader(v, self.source, f"{self.prefix}{key}.")

    def tables(self, key: str) -> list[_Reader]:
        v = self._raw(key)
        if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
            raise self._bad(key, "an array of tables")
        return [_Reader(x, self.source, f"{self.prefix}{key}[{i}].") for i, x in enumerate(v)]


@dataclass(frozen=True, slots=True)
class StartFigures:
    """What a province holds at the start (W2 home, W3 neutral)."""

    wok: int
    arm: int
    lev: float
    def_tenths: int
    mis: int
    spy: int
    aim: str


@dataclass(frozen=True, slots=True)
class Variant:
    """Set-up and victory figures of one variant (S12-S15)."""

    name: str
    protect_home_until: int
    alliances: bool
    seats: int  # 0: one colour per seat, as many as players
    colours_per_seat: int
    robots: int
    rips_to_win: int  # 0: last standing wins
    nap_until: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Clock:
    """Turn-clock preset (W12), in seconds."""

    deadline: int
    run_now_after_poke: int


@dataclass(frozen=True)
class RuleSet:
    """All numbers of one rule set. Attribute groups mirror the TOML tables."""

    name: str
    title: str
    source: str
    # caps (W1)
    cap_pop: int
    cap_wok: int
    cap_arm: int
    lev_min: float
    lev_max: float
    cap_def: int
    cap_mis: int
    cap_spy: int
    eff_min: int
    eff_max: int
    # start
    start_eff: int
    start_gold: int
    start_tech: int
    home: StartFigures
    neutral: StartFigures
    neutral_eff: int
    neutral_arm_per_turn: int
    default_pop: int
    # limits
    limits: dict[str, int]
    # bombing
    bomb_short: float
    bomb_long: float
    bomb_kinds: tuple[str, ...]
    bomb_arm: int
    bomb_spy: int
    bomb_def: int
    bomb_neutrals: bool
    # attack
    base_attacks: int
    attacks_per_tech: int
    max_attacks: int
    att_level_factor: float
    def_level_factor: float
    def_def_factor: float
    gain_att_won: float
    gain_def_won: float
    empty_gain: float
    injured_fraction: float
    capture_pop: float
    capture_wok: float
    capture_mis: float
    capture_spy: float
    capture_keeps_false_orders: bool
    # entropy, working, transform, growth
    entropy_per_province: int
    def_per: int
    mis_per: int
    spy_per: int
    eff_per: int
    gold_per_wok: int
    lev_max_gain: float
    aims: tuple[str, ...]
    ratios: dict[str, int]
    new_arm_lev: float
    growth: tuple[tuple[int, int], ...]
    move_kinds: tuple[str, ...]
    # upgrades
    upgrade_costs: tuple[int, ...]
    up_tech: int
    up_eff: int
    up_def: int
    up_lev: float
    up_mis: int
    up_spy: int
    # spying
    gold_per_spy: int
    propaganda_eff: int
    spy_ops: tuple[str, ...]
    # score (W11)
    score: dict[str, int]
    # clock, end, robots, variants
    clocks: dict[str, Clock]
    missed_turns_to_quit: int
    alliance_min_players: int
    vote_shared_victory: bool
    default_max_turns: int
    robot_pop_arm_orders: int
    robot_min_armies: int
    robot_ratio: float
    robot_keep: int
    robot_home_aim: str
    robot_other_aim: str
    variants: dict[str, Variant]

    def attacks_allowed(self, tech: int) -> int:
        """S3: attacks per turn = min(max, base + per_tech * tech)."""
        return min(self.max_attacks, self.base_attacks + self.attacks_per_tech * tech)

    def growth_percent(self, pop: int) -> int:
        """S7: the growth rate of a province holding `pop`."""
        for upto, percent in self.growth:
            if pop < upto:
                return percent
        return 0

    def variant(self, name: str) -> Variant:
        if name not in self.variants:
            known = ", ".join(sorted(self.variants))
            raise RuleSetError(f"{self.source}: unknown variant {name!r} (have {known})")
        return self.variants[name]


def _start(t: _Reader) -> StartFigures:
    return StartFigures(
        wok=t.integer("wok"),
        arm=t.integer("arm"),
        lev=t.number("lev"),
        def_tenths=t.integer("def_tenths"),
        mis=t.integer("mis"),
        spy=t.integer("spy"),
        aim=t.text("aim") if "aim" in t.data else "DEF",
    )


def _variant(name: str, t: _Reader) -> Variant:
    def opt_int(key: str, default: int) -> int:
        return t.integer(key) if key in t.data else default

    return Variant(
        name=name,
        protect_home_until=t.integer("protect_home_until"),
        alliances=t.flag("alliances"),
        seats=opt_int("seats", 0),
        colours_per_seat=opt_int("colours_per_seat", 1),
        robots=opt_int("robots", 0),
        rips_to_win=opt_int("rips_to_win", 0),
        nap_until=t.integers("nap_until") if "nap_until" in t.data else (),
    )


def parse_ruleset(data: dict[str, Any], source: str) -> RuleSet:
    """Build a RuleSet from parsed TOML; RuleSetError names `source` and the key."""
    r = _Reader(data, source)
    caps, start, lim = r.table("caps"), r.table("start"), r.table("limits")
    bomb, att, work = r.table("bombing"), r.table("attack"), r.table("working")
    tr, up, spy, sc = r.table("transform"), r.table("upgrades"), r.table("spying"), r.table("score")
    end, rob, var = r.table("end"), r.table("robots"), r.table("variants")
    neutral = start.table("neutral")
    growth = tuple((g.integer("upto"), g.integer("percent")) for g in r.tables("growth"))
    clocks_t = r.table("clock")
    clocks = {
        k: Clock(
            clocks_t.table(k).integer("deadline"), clocks_t.table(k).integer("run_now_after_poke")
        )
        for k in clocks_t.data
    }
    aims = work.texts("aims")
    for who in ("home", "neutral"):
        aim = start.table(who).data.get("aim", "DEF")
        if aim not in aims:
            raise RuleSetError(f"{source}: start.{who}.aim {aim!r} is not one of {aims}")
    return RuleSet(
        name=r.text("name"),
        title=r.text("title"),
        source=source,
        cap_pop=caps.integer("pop"),
        cap_wok=caps.integer("wok"),
        cap_arm=caps.integer("arm"),
        lev_min=caps.number("lev_min"),
        lev_max=caps.number("lev_max"),
        cap_def=caps.integer("def_tenths"),
        cap_mis=caps.integer("mis"),
        cap_spy=caps.integer("spy"),
        eff_min=caps.integer("eff_min"),
        eff_max=caps.integer("eff_max"),
        start_eff=start.integer("eff"),
        start_gold=start.integer("gold"),
        start_tech=start.integer("tech"),
        home=_start(start.table("home")),
        neutral=_start(neutral),
        neutral_eff=neutral.integer("eff"),
        neutral_arm_per_turn=neutral.integer("arm_per_turn"),
        default_pop=neutral.integer("default_pop"),
        limits={k: lim.integer(k) for k in lim.data},
        bomb_short=bomb.number("short_chance"),
        bomb_long=bomb.number("long_chance"),
        bomb_kinds=bomb.texts("hit_kinds"),
        bomb_arm=bomb.integer("arm_per_hit"),
        bomb_spy=bomb.integer("spy_per_hit"),
        bomb_def=bomb.integer("def_tenths_per_hit"),
        bomb_neutrals=bomb.flag("bomb_neutrals"),
        base_attacks=att.integer("base_attacks"),
        attacks_per_tech=att.integer("attacks_per_tech"),
        max_attacks=att.integer("max_attacks"),
        att_level_factor=att.number("att_level_factor"),
        def_level_factor=att.number("def_level_factor"),
        def_def_factor=att.number("def_def_factor"),
        gain_att_won=att.number("gain_attacker_won"),
        gain_def_won=att.number("gain_defender_won"),
        empty_gain=att.number("empty_gain"),
        injured_fraction=att.number("injured_fraction"),
        capture_pop=att.number("capture_pop"),
        capture_wok=att.number("capture_wok"),
        capture_mis=att.number("capture_mis"),
        capture_spy=att.number("capture_spy"),
        capture_keeps_false_orders=att.flag("capture_keeps_false_orders"),
        entropy_per_province=r.table("entropy").integer("eff_per_province"),
        def_per=work.integer("def_per"),
        mis_per=work.integer("mis_per"),
        spy_per=work.integer("spy_per"),
        eff_per=work.integer("eff_per"),
        gold_per_wok=work.integer("gold_per_wok"),
        lev_max_gain=work.number("lev_max_gain"),
        aims=aims,
        ratios={k: tr.integer(k) for k in ("POP_WOK", "POP_ARM", "WOK_POP")},
        new_arm_lev=tr.number("new_arm_lev"),
        growth=growth,
        move_kinds=r.table("movement").texts("kinds"),
        upgrade_costs=up.integers("costs"),
        up_tech=up.integer("tech"),
        up_eff=up.integer("eff"),
        up_def=up.integer("def_tenths"),
        up_lev=up.number("lev"),
        up_mis=up.integer("mis"),
        up_spy=up.integer("spy"),
        gold_per_spy=spy.integer("gold_per_spy"),
        propaganda_eff=spy.integer("propaganda_eff"),
        spy_ops=spy.texts("operations"),
        score={k: sc.integer(k) for k in sc.data},
        clocks=clocks,
        missed_turns_to_quit=r.table("clock_rules").integer("missed_turns_to_quit"),
        alliance_min_players=end.integer("alliance_min_players"),
        vote_shared_victory=end.flag("vote_shared_victory"),
        default_max_turns=end.integer("default_max_turns"),
        robot_pop_arm_orders=rob.integer("pop_arm_orders"),
        robot_min_armies=rob.integer("min_armies"),
        robot_ratio=rob.number("power_ratio"),
        robot_keep=rob.integer("keep_armies"),
        robot_home_aim=rob.text("home_aim"),
        robot_other_aim=rob.text("other_aim"),
        variants={k: _variant(k, var.table(k)) for k in var.data},
    )


def load_ruleset_file(path: str | Path) -> RuleSet:
    """Read a rule-set TOML file; RuleSetError names the file (and line for syntax errors)."""
    return parse_ruleset(read_toml(path, RuleSetError), str(Path(path)))


@cache
def load_ruleset(name: str = "standard") -> RuleSet:
    """The shipped rule set `name` (assets/wok/rules/<name>.toml), cached."""
    return load_ruleset_file(asset("wok", "rules", f"{name}.toml"))
