"""A WoK rule set read from its data file (assets/wok/rules/<name>.toml) as typed records.

The file is converted in one call by `suite.core.datafile.read_rules` into `RuleSet`; every
table is a record that refuses unknown or mistyped keys, so a modder's typo raises
`DataError` naming the file and the key and never reaches a game. The records mirror the
TOML tables (``rules.caps.pop`` is ``[caps] pop``). Rule sets are public knowledge, so
views may carry them whole.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Literal

import msgspec

from suite.core.datafile import DataError, convert_rules, read_rules
from suite.paths import asset


class _Table(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every rules-data table: typed, immutable, unknown keys refused."""


class Caps(_Table, frozen=True, kw_only=True):
    """W1 caps; DEF is kept in tenths (0..99)."""

    pop: int
    wok: int
    arm: int
    lev_min: float
    lev_max: float
    def_tenths: int
    mis: int
    spy: int
    eff_min: int
    eff_max: int
    tech: int = 0
    """Most tech points a colour may store (WoK IV: 999); 0: no cap (tech levels)."""


class StartFigures(_Table, frozen=True, kw_only=True):
    """What a province holds at the start (W2 home, W3 neutral)."""

    wok: int
    arm: int
    lev: float
    def_tenths: int
    mis: int
    spy: int
    aim: str = "DEF"


class NeutralStart(StartFigures, frozen=True, kw_only=True):
    """W3: a neutral's start figures, its EFF, its armies per turn and the default POP."""

    eff: int
    arm_per_turn: int
    default_pop: int


class Start(_Table, frozen=True, kw_only=True):
    """The beginning: player figures and the home and neutral provinces."""

    eff: int
    gold: int
    tech: int
    home: StartFigures
    neutral: NeutralStart
    wood: int = 0


class Limits(_Table, frozen=True, kw_only=True):
    """Order entry limits: orders per phase and the most units one order may name."""

    bomb_orders: int
    bomb_missiles: int
    attack_orders: int
    transform_orders: int
    transform_amount: int
    transform_pop_arm_orders: int
    move_orders: int
    move_amount: int
    aim_orders: int
    upgrade_orders: int
    spy_orders: int
    spy_amount: int
    move_all: int = 0
    """An amount a move order may name to mean "all that may move" (WoK IV's 99: up to
    `move_amount` and what the target can hold); 0 when the rule set has none."""


RevealSource = Literal["none", "province", "player", "detected"]

PHASE_NAMES = (
    "upgrades",
    "bombing",
    "attacking",
    "entropy",
    "working",
    "transformations",
    "troop_upgrades",
    "growth",
    "movement",
    "aims",
    "trading",
    "spying",
    "covert_ops",
)
"""Every phase a rule set's `phases` list may name (run in the listed order)."""


class Bombing(_Table, frozen=True, kw_only=True):
    """S2 bombing; chances are multiplied by the bombing player's EFF (percent).

    `hit_model` "equal" picks ARM, SPY or DEF with equal chance (S2); Intermediate's
    "def_then_proportional" strikes DEF with chance `def_hit_percent_per_def` x DEF %,
    otherwise one unit among the troops and spies picked in proportion (I3).

    `target_sees` is what the bombed player's report names of the source: nothing, the
    province the missiles came from, or the province and the player; "detected" (WoK IV)
    names both when the target province detects the source, with chance
    max(`detect_min_percent`, `detect_percent_per_spy` x its SPY) per bombing order.

    `range_model` "ring2" makes a neighbour of a neighbour long range (S2); "number"
    (WoK IV) makes any province whose number is within `number_reach` of the source's
    long range. A hit removes `arm_per_hit`..`arm_per_hit_max` ARM (and likewise SPY;
    a max of 0 means exactly the min), 0.1 DEF x `def_tenths_per_hit`, or TECH:
    `tech_per_hit` [min, max] tech points of the target's owner.
    """

    short_chance: float
    long_chance: float
    hit_kinds: tuple[str, ...]
    arm_per_hit: int
    spy_per_hit: int
    def_tenths_per_hit: int
    bomb_neutrals: bool
    target_sees: RevealSource
    hit_model: Literal["equal", "def_then_proportional"] = "equal"
    def_hit_percent_per_def: float = 0.0
    range_model: Literal["ring2", "number"] = "ring2"
    number_reach: int = 0
    arm_per_hit_max: int = 0
    spy_per_hit_max: int = 0
    tech_per_hit: tuple[int, int] = (0, 0)
    detect_percent_per_spy: float = 0.0
    detect_min_percent: float = 0.0


class AttackRules(_Table, frozen=True, kw_only=True):
    """S3 attacking, W6 contest, W8 capture.

    WoK IV: with `tech_steps` the attacks allowed are `base_attacks` plus one for every
    step the colour's tech points reach; with `count_invalid` the first N attack orders
    are spent whether they can run or not. Powers are multiplied by EFF x `eff_factor`
    (Standard 1: EFF as a whole number; WoK IV 0.01: "x 0,EFF"). With `empty_gain_flat`
    an empty province gives + `empty_gain` instead of + `empty_gain` / LEV. Every round
    of a fight destroys `def_wear_tenths` tenths of the defender's DEF with chance
    `def_wear_percent` %.
    """

    base_attacks: int
    attacks_per_tech: int
    max_attacks: int
    att_level_factor: float
    def_level_factor: float
    def_def_factor: float
    gain_attacker_won: float
    gain_defender_won: float
    empty_gain: float
    injured_fraction: float
    capture_pop: float
    capture_wok: float
    capture_mis: float
    capture_spy: float
    capture_keeps_false_orders: bool
    tech_steps: tuple[int, ...] = ()
    count_invalid: bool = False
    eff_factor: float = 1.0
    empty_gain_flat: bool = False
    def_wear_percent: float = 0.0
    def_wear_tenths: int = 1


class Entropy(_Table, frozen=True, kw_only=True):
    eff_per_province: int


class Working(_Table, frozen=True, kw_only=True):
    """S5 working: `*_per` workers make one unit; the aims workers may be given.

    Intermediate (I4): CHO makes `wood_per_wok` WOOD per worker, output is multiplied by
    (1 + `tech_bonus` x tech) and by the terrain bonus, and with `carry_fractions` the
    fraction of a unit is kept per province for the next turn.
    """

    def_per: int
    mis_per: int
    spy_per: int
    eff_per: int
    gold_per_wok: int
    lev_max_gain: float
    aims: tuple[str, ...]
    wood_per_wok: int = 0
    tech_bonus: float = 0.0
    carry_fractions: bool = False
    tech_per_wok: int = 0
    lev_per_wok: float = 0.0


class TransformRules(_Table, frozen=True, kw_only=True):
    """S6: `ratios` maps a transformation kind to its source units per target unit.

    With `mix_planned` (WoK IV, "for the experts") new armies that pass the ARM cap still
    count in the level mix: the level is mixed over the planned total, not the capped one.
    """

    ratios: dict[str, int]
    new_arm_lev: float
    mix_planned: bool = False


class GrowthTier(_Table, frozen=True, kw_only=True):
    """S7: POP below `upto` (exclusive) grows by `percent`."""

    upto: int
    percent: int


class Movement(_Table, frozen=True, kw_only=True):
    """Unit kinds a move may name; from tech `anywhere_at_tech` (0: never) a move may go
    between any two own provinces (I7)."""

    kinds: tuple[str, ...]
    anywhere_at_tech: int = 0


class Upgrades(_Table, frozen=True, kw_only=True):
    """S10: the n-th upgrade bought in a turn costs costs[n-1]; what each one gives."""

    costs: tuple[int, ...]
    kinds: tuple[str, ...]
    tech: int
    eff: int
    def_tenths: int
    lev: float
    mis: int
    spy: int


class Spying(_Table, frozen=True, kw_only=True):
    """S11 spying; with `once_per_target` an operation may be used once per target
    province per turn (I8)."""

    gold_per_spy: int
    propaganda_eff: int
    operations: tuple[str, ...]
    once_per_target: bool = False


class TradeOffer(_Table, frozen=True, kw_only=True):
    """One WoK IV tech trade: pay `points` tech points for what it gives every own
    province (DEF in tenths, MIS, SPY, LEV for provinces with armies) and EFF."""

    points: int
    def_tenths: int = 0
    mis: int = 0
    spy: int = 0
    lev: float = 0.0
    eff: int = 0


class Trades(_Table, frozen=True, kw_only=True):
    """WoK IV's Phase V tech trades: up to `orders` a turn, paid one after another.
    With `mis_needs_wok` MIS come only to provinces with workers, with `spy_needs_pop`
    SPY only to provinces with population."""

    orders: int
    offers: tuple[TradeOffer, ...]
    mis_needs_wok: bool
    spy_needs_pop: bool

    def offer(self, points: int) -> TradeOffer | None:
        """The trade that costs `points`, or None."""
        return next((o for o in self.offers if o.points == points), None)


class CovertOp(_Table, frozen=True, kw_only=True):
    """One WoK IV spy operation: chance % = `eff_factor` x EFF + `eff_offset` +
    `per_spy` x spies used (a far target: `far_eff_factor` x EFF); `far` says whether
    the target may lie anywhere (else it must be adjacent to the source). Effects per
    spy used: `mis_per_spy` missiles destroyed, `pop_per_spy` POP stolen, and
    `def_tenths_per_group` tenths of DEF per full `spies_per_group` spies."""

    eff_factor: float
    eff_offset: float = 0.0
    per_spy: float = 0.0
    far: bool = False
    far_eff_factor: float = 0.0
    mis_per_spy: int = 0
    pop_per_spy: int = 0
    def_tenths_per_group: int = 0
    spies_per_group: int = 1


class Covert(_Table, frozen=True, kw_only=True):
    """WoK IV Phase VI: chances are clamped to `chance_min`..`chance_max`; the target
    province catches spies with chance `catch_percent_per_spy` x its SPY and detects
    the source with `detect_percent_per_spy` x its SPY (both clamped the same way);
    every spy used is spent. EFF (K2): success gives the spy's owner `success_eff` and
    costs the target's owner `target_loss` less `catch_relief` if it caught a spy and
    `detect_relief` if it detected the source; a catch or a detection on a failure
    gives the target's owner the reliefs; a failure costs `fail_eff` (Spy Player:
    `player_fail_eff`, and gives the target's owner `player_fail_target_gain`)."""

    ops: dict[str, CovertOp]
    chance_min: float
    chance_max: float
    catch_percent_per_spy: float
    detect_percent_per_spy: float
    success_eff: int
    target_loss: int
    catch_relief: int
    detect_relief: int
    fail_eff: int
    player_fail_eff: int
    player_fail_target_gain: int


class Score(_Table, frozen=True, kw_only=True):
    """W11 score weights; `top` is the length of the Top Ten list."""

    province: int
    pop: int
    wok: int
    arm_lev: int
    def_per_point: int
    mis: int
    spy: int
    gold_divisor: int
    tech: int
    top: int


class Terrains(_Table, frozen=True, kw_only=True):
    """Intermediate terrains (I2): the aim each favours and its output bonus, and the
    extra fighting level of troops in their preferred terrain (I3)."""

    kinds: tuple[str, ...]
    favoured_aim: dict[str, str]
    aim_bonus: float
    preferred_by: dict[str, str]
    bonus_level: float


class Troops(_Table, frozen=True, kw_only=True):
    """Intermediate troop types (I5): ARM is the base type; `kinds` are the upgraded
    types; WOOD costs of the Upgrade Troops phase; the order troops fight and move in."""

    kinds: tuple[str, ...]
    upgrade_wood: int
    downgrade_refund: int
    change_wood: int
    orders: int
    amount: int
    order: tuple[str, ...]


class Clock(_Table, frozen=True, kw_only=True):
    """Turn-clock preset (W12), in seconds."""

    deadline: int
    run_now_after_poke: int


class ClockRules(_Table, frozen=True, kw_only=True):
    missed_turns_to_quit: int


class End(_Table, frozen=True, kw_only=True):
    """W13 and the end. With `quits_end_alliances` (WoK IV: 5), once that many of the
    `full_game` seats are empty or quit, alliances no longer win (last one standing)."""

    alliance_min_players: int
    vote_shared_victory: bool
    default_max_turns: int
    quits_end_alliances: int = 0
    full_game: int = 0


class Robots(_Table, frozen=True, kw_only=True):
    """S16 robot doctrine figures."""

    pop_arm_orders: int
    min_armies: int
    power_ratio: float
    keep_armies: int
    home_aim: str
    other_aim: str


class Variant(_Table, frozen=True, kw_only=True):
    """Set-up and victory figures of one variant (S12-S15); `name` is its table's key."""

    protect_home_until: int
    alliances: bool
    name: str = ""
    seats: int = 0  # 0: one colour per seat, as many as players
    colours_per_seat: int = 1
    robots: int = 0
    rips_to_win: int = 0  # 0: last standing wins
    nap_until: tuple[int, ...] = ()
    summary: str = ""
    """One line for the set-up: what playing this variant means (no figures: the set-up
    adds them from the fields above)."""


class RuleSet(_Table, frozen=True, kw_only=True):
    """All numbers of one rule set; the tables mirror the TOML file."""

    name: str
    title: str
    caps: Caps
    start: Start
    limits: Limits
    bombing: Bombing
    attack: AttackRules
    entropy: Entropy
    working: Working
    transform: TransformRules
    growth: tuple[GrowthTier, ...]
    movement: Movement
    upgrades: Upgrades
    spying: Spying
    score: Score
    clock: dict[str, Clock]
    clock_rules: ClockRules
    end: End
    robots: Robots
    variants: dict[str, Variant]
    phases: tuple[str, ...]
    tech_kind: Literal["level", "points"] = "level"
    """What a colour's `tech` counts: tech levels (Standard, Intermediate: upgrades buy
    them) or tech points (WoK IV: the TECH aim makes them, trades spend them)."""
    growth_model: Literal["tiers", "exponential"] = "tiers"
    growth_scale: float = 100.0
    terrain: Terrains | None = None
    troops: Troops | None = None
    trades: Trades | None = None
    covert: Covert | None = None
    source: str = ""
    """The rules file's name (set when read)."""
    summary: str = ""
    """One line for the set-up: what this rule set changes."""

    def attacks_allowed(self, tech: int) -> int:
        """S3: attacks per turn = min(max, base + per_tech * tech); WoK IV: base + the
        number of `tech_steps` the tech points reach."""
        a = self.attack
        if a.tech_steps:
            return min(a.max_attacks, a.base_attacks + sum(1 for s in a.tech_steps if tech >= s))
        return min(a.max_attacks, a.base_attacks + a.attacks_per_tech * tech)

    def uses_gold(self) -> bool:
        """Whether gold exists in this rule set (a start stock, mining or upgrades)."""
        return bool(self.start.gold or self.working.gold_per_wok or self.upgrades.kinds)

    def bound_tech(self, tech: int) -> int:
        """Tech within 0..caps.tech (no upper cap when caps.tech is 0)."""
        tech = max(0, tech)
        return min(self.caps.tech, tech) if self.caps.tech else tech

    def growth_percent(self, pop: int) -> int:
        """S7: the growth rate of a province holding `pop` (tiers model)."""
        for tier in self.growth:
            if pop < tier.upto:
                return tier.percent
        return 0

    def grown(self, pop: int) -> int:
        """POP after growth: S7 tiers, or I6 POP + floor(POP x e^(-POP/scale))."""
        if self.growth_model == "exponential":
            gain = math.floor(pop * math.exp(-pop / self.growth_scale) + 1e-9)
        else:
            gain = pop * self.growth_percent(pop) // 100
        return min(self.caps.pop, pop + gain)

    def variant(self, name: str) -> Variant:
        """The variant `name`; DataError lists the known ones."""
        if name not in self.variants:
            known = ", ".join(sorted(self.variants))
            raise DataError(f"{self.source}: unknown variant {name!r} (have {known})")
        return self.variants[name]


def _checked(rules: RuleSet, source: str) -> RuleSet:
    """Cross-table checks types cannot express; the variants learn their names."""
    aims = rules.working.aims
    for who, fig in (("home", rules.start.home), ("neutral", rules.start.neutral)):
        if fig.aim not in aims:
            raise DataError(f"{source}: at `start.{who}.aim`: {fig.aim!r} is not one of {aims}")
    for who, aim in (("home_aim", rules.robots.home_aim), ("other_aim", rules.robots.other_aim)):
        if aim not in aims:
            raise DataError(f"{source}: at `robots.{who}`: {aim!r} is not one of {aims}")
    if not rules.upgrades.costs:
        raise DataError(f"{source}: at `upgrades.costs`: at least one cost is needed")
    for i, phase in enumerate(rules.phases):
        if phase not in PHASE_NAMES:
            known = ", ".join(PHASE_NAMES)
            raise DataError(f"{source}: at `phases[{i}]`: unknown phase {phase!r} ({known})")
    if len(set(rules.phases)) != len(rules.phases):
        raise DataError(f"{source}: at `phases`: a phase is listed twice")
    t = rules.terrain
    if t is not None:
        for terrain, aim in t.favoured_aim.items():
            if terrain not in t.kinds or aim not in aims:
                raise DataError(f"{source}: at `terrain.favoured_aim.{terrain}`: {aim!r}")
        troop_kinds = rules.troops.kinds if rules.troops else ()
        for troop, terrain in t.preferred_by.items():
            if troop not in troop_kinds or terrain not in t.kinds:
                raise DataError(f"{source}: at `terrain.preferred_by.{troop}`: {terrain!r}")
    if ("troop_upgrades" in rules.phases) != (rules.troops is not None):
        raise DataError(f"{source}: at `phases`: troop_upgrades needs a [troops] table")
    if ("trading" in rules.phases) != (rules.trades is not None):
        raise DataError(f"{source}: at `phases`: trading needs a [trades] table")
    if ("covert_ops" in rules.phases) != (rules.covert is not None):
        raise DataError(f"{source}: at `phases`: covert_ops needs a [covert] table")
    if rules.covert is not None:
        for op in rules.spying.operations:
            if op not in rules.covert.ops:
                raise DataError(f"{source}: at `covert.ops`: no entry for operation {op!r}")
    variants = {k: msgspec.structs.replace(v, name=k) for k, v in rules.variants.items()}
    # The record keeps the file's name only: views carry the rules to every seat, and a
    # path on the host is nobody's business (errors above name the full path).
    return msgspec.structs.replace(rules, variants=variants, source=Path(source).name)


def parse_ruleset(data: object, source: str) -> RuleSet:
    """A RuleSet from parsed TOML; DataError names `source` and the key."""
    return _checked(convert_rules(data, RuleSet, source), source)


def load_ruleset_file(path: str | Path) -> RuleSet:
    """Read a rule-set TOML file; DataError names the file and the key (or line)."""
    return _checked(read_rules(path, RuleSet), str(Path(path)))


def ruleset_path(name: str) -> Path:
    """Where the shipped rule set `name` lives."""
    return asset("wok", "rules", f"{name}.toml")


@cache
def load_ruleset(name: str = "standard") -> RuleSet:
    """The shipped rule set `name` (assets/wok/rules/<name>.toml), cached."""
    return load_ruleset_file(ruleset_path(name))
