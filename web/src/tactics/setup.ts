// WoS Tactics' set-up form, as the Book of Tactics offers it, with every choice from the
// server's `tactics_setup` answer: the pack (the shipped one or the server's), the map
// (flat, drawn or generated bumpy maps), pieces per turn, the army size and round limit,
// per seat a person or a bot, its army (random, the value model's, or chosen slot by slot
// in the 3x3 formation) and its requirements profile (T12: level and tokens; a bot may
// be held to pieces without requirements). Whether an army or a map is allowed is the
// server's answer (a refused config says why); the form only shows each piece's max#
// and requirement.

import { fill, h, on } from "../dom";
import { field, seatChoices, seatPicker, select } from "../forms";
import type { SetupForm } from "../game";
import type { Net } from "../net";
import type * as P from "../protocol.gen";
import { ArmyPicker } from "./picker";

const ARMIES: Record<string, string> = { random: "Random army", value: "Strongest by value", chosen: "Chosen slot by slot" };

export class TacticsSetup implements SetupForm {
  private setup: P.TacticsSetup | null = null;
  private pack: string | null = null;
  private read_: (() => { config: Record<string, unknown>; bots: string[] }) | null = null;

  constructor(private readonly net: Net) {}

  ask(): void {
    this.net.send({ type: "tactics_setup_request", pack: this.pack });
  }

  receive(m: P.ServerMessage): boolean {
    if (m.type !== "tactics_setup") return false;
    const changed = JSON.stringify(m) !== JSON.stringify(this.setup);
    this.setup = m;
    return changed;
  }

  read(): { config: Record<string, unknown>; bots: string[] } {
    return this.read_?.() ?? { config: {}, bots: [] };
  }

  fields(info: P.GameInfo): HTMLElement | null {
    const s = this.setup;
    if (s === null) return null;
    const packPick = h("select", { id: "tactics-pack" }, h("option", { value: "" }, "Shipped pack"), ...s.packs.map((p) => h("option", { value: p, selected: p === s.pack }, p)));
    on(packPick, "change", () => {
      this.pack = packPick.value === "" ? null : packPick.value;
      this.ask();
    });
    const mapLabel = (m: P.TacticsMapEntry): string => `${m.name} · ${m.size}x${m.size} · ${m.elevation}${m.requirements === "" ? "" : ` · host needs ${m.requirements}`}`;
    const mapPick = h("select", { id: "tactics-map" }, h("option", { value: "" }, "Each map in turn"), ...s.maps.map((m) => h("option", { value: m.id }, mapLabel(m))));
    const [lo, hi] = info.players;
    const players = select("players", Array.from({ length: hi - lo + 1 }, (_, i) => lo + i));
    const perTurn = select("pieces-per-turn", s.pieces_per_turn, (v) => (v === "0" ? "all rested" : v));
    perTurn.value = String(s.default_pieces_per_turn);
    const armySize = select("army-size", Array.from({ length: s.max_pieces }, (_, i) => i + 1));
    armySize.value = String(s.max_pieces);
    const rounds = h("input", { type: "number", id: "max-rounds", min: 1, max: s.max_rounds, value: s.max_rounds });
    const checkNeeds = h("input", { type: "checkbox", id: "check-requirements" });
    const seatsBox = h("div", { class: "tactics-seats needs-off" });
    on(checkNeeds, "change", () => seatsBox.classList.toggle("needs-off", !checkNeeds.checked));
    const seatRows: SeatRow[] = [];
    const drawSeats = (): void => {
      const n = Number(players.value);
      seatRows.splice(0);
      for (let i = 0; i < n; i += 1) seatRows.push(new SeatRow(i, s, info.bots));
      fill(seatsBox, ...seatRows.map((r) => r.el));
    };
    on(players, "change", drawSeats);
    drawSeats();
    this.read_ = () => {
      const n = Number(players.value);
      const size = Number(armySize.value);
      const config: Record<string, unknown> = {
        players: n,
        pack: this.pack,
        map: mapPick.value === "" ? null : Number(mapPick.value),
        pieces_per_turn: Number(perTurn.value),
        armies: seatRows.map((r) => r.army()),
      };
      if (size < s.max_pieces) {
        config.max_pieces = size;
        config.army_size = size;
      }
      const limit = Number(rounds.value);
      if (Number.isInteger(limit) && limit >= 1 && limit < s.max_rounds) config.max_rounds = limit;
      if (checkNeeds.checked) config.profiles = seatRows.map((r) => r.profile());
      return { config, bots: seatChoices(seatsBox, n) };
    };
    const problems = s.problems.length === 0 ? null : h("div", { class: "notice" }, h("p", {}, "This pack has problems:"), h("ul", {}, ...s.problems.map((p) => h("li", {}, p))));
    return h(
      "div",
      { id: "tactics-form", "data-pack": s.pack ?? "" },
      h("div", { class: "grid" }, field("Pack", packPick), wide(field("Map", mapPick)), field("Players", players), field("Pieces per turn", perTurn), field("Army size", armySize), field("Round limit", rounds)),
      h("label", { class: "check" }, checkNeeds, " Check each seat's requirements (level and tokens)"),
      problems,
      seatsBox,
    );
  }
}

function wide(el: HTMLElement): HTMLElement {
  el.classList.add("wide");
  return el;
}

/** One seat's choices: who plays it, its army and its requirements profile. */
class SeatRow {
  readonly el: HTMLElement;
  private readonly armyPick: HTMLSelectElement;
  private readonly picker: ArmyPicker;
  private readonly level: HTMLInputElement;
  private readonly tokens: HTMLInputElement;
  private readonly freeOnly: HTMLInputElement;

  constructor(index: number, setup: P.TacticsSetup, bots: readonly string[]) {
    this.armyPick = select(`army-${index}`, Object.keys(ARMIES), (v) => ARMIES[v] ?? v);
    this.picker = new ArmyPicker(index, setup);
    const grid = this.picker.el;
    grid.hidden = true;
    on(this.armyPick, "change", () => (grid.hidden = this.armyPick.value !== "chosen"));
    this.level = h("input", { type: "number", id: `level-${index}`, min: 1, max: 99, value: 1, "aria-label": `Seat ${index + 1} level` });
    this.tokens = h("input", { type: "text", id: `tokens-${index}`, maxlength: 120, placeholder: "e.g. 23, 12", "aria-label": `Seat ${index + 1} tokens` });
    this.freeOnly = h("input", { type: "checkbox", id: `free-${index}` });
    const who = index === 0 ? h("p", { class: "seat-you" }, "Seat 1: you") : seatPicker(index, bots);
    this.el = h(
      "fieldset",
      { class: "tactics-seat" },
      h("legend", {}, `Seat ${index + 1}`),
      who,
      field("Army", this.armyPick),
      grid,
      h("div", { class: "row needs" }, field("Level", this.level), field("Tokens", this.tokens), h("label", { class: "check" }, this.freeOnly, " pieces without requirements only")),
    );
  }

  /** The config's army of this seat: a choice, or the formation row by row. */
  army(): string | number[] {
    if (this.armyPick.value !== "chosen") return this.armyPick.value;
    return this.picker.value();
  }

  /** The seat's requirements profile (T12). */
  profile(): Record<string, unknown> {
    const tokens = this.tokens.value
      .split(/[\s,]+/)
      .filter((t) => /^\d{1,6}$/.test(t))
      .map(Number)
      .slice(0, 64);
    return { level: Math.max(1, Math.min(99, Math.round(Number(this.level.value)) || 1)), tokens, free_only: this.freeOnly.checked };
  }
}
