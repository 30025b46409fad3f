// WoK's set-up form: every choice the desktop set-up has, from the server's `maps`
// answer for WoK: the rule set (Standard, Intermediate, WoK IV), its variants (Skirmish,
// Duel, Trinity), the map (shipped, the host's, generated with a number of provinces),
// the players and which seats the server's bots take, the kingdoms' names, the turn clock,
// the headhunting turns and the turn limit. (The server draws the seed: no seed here.)

import { fill, h, on } from "../dom";
import { field, seatChoices, seatPicker } from "../forms";
import type { SetupForm } from "../game";
import type { Net } from "../net";
import type * as P from "../protocol.gen";

const ORDER = ["skirmish", "duel", "trinity"];

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function options(select: HTMLSelectElement, values: readonly { value: string; text: string }[], keep: string): void {
  fill(select, ...values.map((v) => h("option", { value: v.value, selected: v.value === keep }, v.text)));
  if (!values.some((v) => v.value === keep) && values[0] !== undefined) select.value = values[0].value;
}

function span(seconds: number): string {
  return seconds < 3600 ? `${Math.round(seconds / 60)} min` : `${Math.round(seconds / 3600)} h`;
}

export class WokSetup implements SetupForm {
  private choices: P.MapList | null = null;
  private read_: (() => { config: Record<string, unknown>; bots: string[] }) | null = null;

  constructor(private readonly net: Net) {}

  ask(): void {
    this.net.send({ type: "maps_request", game: "wok" });
  }

  receive(m: P.ServerMessage): boolean {
    if (m.type !== "maps" || m.game !== "wok") return false;
    const changed = JSON.stringify(m) !== JSON.stringify(this.choices);
    this.choices = m;
    return changed;
  }

  read(): { config: Record<string, unknown>; bots: string[] } {
    return this.read_?.() ?? { config: {}, bots: [] };
  }

  fields(info: P.GameInfo): HTMLElement | null {
    const c = this.choices;
    if (c === null || c.rulesets.length === 0) return null;
    const [lo, hi] = info.players;
    const ruleset = h("select", { id: "wok-ruleset" }, ...c.rulesets.map((r) => h("option", { value: r.name }, r.title)));
    const variant = h("select", { id: "wok-variant" });
    const map = h("select", { id: "map" });
    const [pLo, pHi] = c.territories ?? [8, 36];
    const provinces = h("input", { type: "number", id: "provinces", min: pLo, max: pHi, value: Math.min(pHi, Math.max(pLo, 24)) });
    const generated = field("Provinces", provinces);
    const players = h("select", { id: "players" });
    const clock = h("select", { id: "clock" });
    const [hLo, hHi] = c.headhunting ?? [0, 99];
    const headhunting = h("input", { type: "number", id: "headhunting", min: hLo, max: hHi, value: 0 });
    const [tLo, tHi] = c.max_turns ?? [0, 999];
    const turns = h("input", { type: "number", id: "max-turns", min: tLo, max: tHi, value: 0 });
    const summary = h("p", { class: "muted", id: "wok-summary" });
    const seatsBox = h("div", { class: "bots" });
    const namesBox = h("div", { class: "bots names" });
    const rules = (): P.RuleSetEntry => c.rulesets.find((r) => r.name === ruleset.value) ?? c.rulesets[0]!;
    const chosenVariant = (): P.VariantEntry | undefined => rules().variants.find((v) => v.name === variant.value);
    let headhuntingFor = "";

    const changed = (): void => {
      const r = rules();
      const variants = [...r.variants].sort((a, b) => (ORDER.indexOf(a.name) + 10) % 10 - ((ORDER.indexOf(b.name) + 10) % 10));
      options(variant, variants.map((v) => ({ value: v.name, text: capital(v.name) })), variant.value);
      const v = chosenVariant();
      if (v === undefined) return;
      // Colours on the map: a variant made for n seats also plays its robots' colours.
      const colours = v.seats > 0 ? v.seats * v.colours_per_seat + v.robots : 2;
      const fits = c.maps.filter((m) => m.kind !== "shipped" || (m.players ?? 0) >= colours);
      options(map, fits.map((m) => ({ value: m.name, text: m.kind === "shipped" ? `${m.title} (${m.provinces} provinces, ${m.players} pl.)` : m.title })), map.value);
      generated.hidden = map.value !== "random";
      const chosenMap = c.maps.find((m) => m.name === map.value);
      const top = v.seats > 0 ? v.seats : Math.min(hi, chosenMap?.players ?? hi);
      const counts = v.seats > 0 ? [v.seats] : Array.from({ length: Math.max(0, top - lo + 1) }, (_, i) => lo + i);
      options(players, counts.map((n) => ({ value: String(n), text: `${n} players` })), players.value || String(counts[counts.length - 1] ?? lo));
      options(clock, r.clocks.map((k) => ({ value: k.name, text: `${capital(k.name)}: ${span(k.deadline)} a turn` })), clock.value);
      if (headhuntingFor !== `${r.name}/${v.name}`) {
        headhuntingFor = `${r.name}/${v.name}`;
        headhunting.value = String(v.protect_home_until);
      }
      summary.textContent = [r.summary, v.summary].filter((t) => t !== "").join(" ");
      drawSeats();
    };
    const drawNames = (n: number): void => {
      const typed = [...namesBox.querySelectorAll("input")].map((i) => i.value);
      fill(
        namesBox,
        ...Array.from({ length: n }, (_, i) =>
          field(`Kingdom ${i + 1}`, h("input", { type: "text", id: `kingdom-${i}`, maxlength: c.name_limit || 16, value: typed[i] ?? c.names[i % Math.max(1, c.names.length)] ?? `Kingdom ${i + 1}` })),
        ),
      );
    };
    const drawSeats = (): void => {
      const n = Number(players.value);
      drawNames(n);
      const kept = seatChoices(seatsBox, n);
      fill(seatsBox, ...Array.from({ length: n - 1 }, (_, i) => seatPicker(i + 1, info.bots)));
      kept.forEach((value, i) => {
        const pick = seatsBox.querySelector(`#seat-${i + 1}`) as HTMLSelectElement | null;
        if (pick !== null && [...pick.options].some((o) => o.value === value)) pick.value = value;
      });
    };
    for (const el of [ruleset, variant, map]) on(el, "change", changed);
    on(players, "change", drawSeats);
    changed();
    this.read_ = () => {
      const n = Number(players.value);
      const config: Record<string, unknown> = {
        ruleset: ruleset.value,
        variant: variant.value,
        map: map.value === "random" ? Number(provinces.value) : map.value,
        players: n,
        clock: clock.value,
        headhunting_turns: Number(headhunting.value),
        max_turns: Number(turns.value),
        names: [...namesBox.querySelectorAll("input")].map((i) => i.value.trim()),
      };
      return { config, bots: seatChoices(seatsBox, n) };
    };
    return h(
      "div",
      {},
      h(
        "div",
        { class: "grid" },
        field("Rule set", ruleset),
        field("Variant", variant),
        field("Map", map),
        generated,
        field("Players", players),
        field("Turn clock", clock),
        field("Headhunting: homes safe through turn", headhunting),
        field("Turn limit (0: the rule set's)", turns),
      ),
      summary,
      seatsBox,
      namesBox,
    );
  }
}
