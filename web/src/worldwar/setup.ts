// World War's set-up form: every choice the server offers in its `maps` answer (maps,
// card modes, clocks, victory modes, defender dice), as the desktop set-up has them.

import { fill, h, on } from "../dom";
import type { SetupForm } from "../game";
import { field, seatChoices, seatPicker, select } from "../forms";
import type { Net } from "../net";
import type * as P from "../protocol.gen";

const LABELS: Record<string, string> = {
  increasing: "Increasing sets",
  royalty: "Royalty",
  poker: "Poker",
  none: "No cards",
  domination: "Conquest",
  capital: "Capitals",
  mission: "Secret mission",
  auto: "Automatic",
  ask: "Defender chooses",
};

function label(value: string): string {
  return LABELS[value] ?? value;
}

export class WorldWarSetup implements SetupForm {
  private maps: P.MapList | null = null;
  private read_: (() => { config: Record<string, unknown>; bots: string[] }) | null = null;

  constructor(private readonly net: Net) {}

  ask(): void {
    this.net.send({ type: "maps_request", game: "worldwar" });
  }

  receive(m: P.ServerMessage): boolean {
    if (m.type !== "maps" || m.game !== "worldwar") return false;
    const changed = JSON.stringify(m) !== JSON.stringify(this.maps);
    this.maps = m;
    return changed;
  }

  read(): { config: Record<string, unknown>; bots: string[] } {
    return this.read_?.() ?? { config: {}, bots: [] };
  }

  fields(info: P.GameInfo): HTMLElement | null {
    const maps = this.maps;
    if (maps === null) return null;
    const [lo, hi] = info.players;
    const mapPick = h("select", { id: "map" }, ...maps.maps.map((m) => h("option", { value: m.name }, m.title)));
    const [tLo, tHi] = maps.territories ?? [12, 42];
    const [cLo, cHi] = maps.continents ?? [1, 8];
    const territories = h("input", { type: "number", id: "territories", min: tLo, max: tHi, value: Math.min(tHi, Math.max(tLo, 24)) });
    const continents = h("input", { type: "number", id: "continents", min: cLo, max: cHi, value: Math.min(cHi, 4) });
    const generated = h("div", { class: "row generated", hidden: true }, field("Territories", territories), field("Continents", continents));
    on(mapPick, "change", () => (generated.hidden = mapPick.value !== "random"));
    const players = select("players", Array.from({ length: hi - lo + 1 }, (_, i) => lo + i));
    const seatsBox = h("div", { class: "bots" });
    const drawSeats = (): void => fill(seatsBox, ...Array.from({ length: Number(players.value) - 1 }, (_, i) => seatPicker(i + 1, info.bots)));
    on(players, "change", drawSeats);
    drawSeats();
    const cards = select("cards", maps.cards, label);
    const mode = select("mode", maps.modes, label);
    const clock = select("clock", maps.clocks, (v) => (v === "0" ? "off" : `${v} s`));
    const defender = select("defender", maps.defenders, label);
    const deploy = select("deploy", ["hand", "auto"], (v) => (v === "auto" ? "Automatic" : "By hand"));
    const turns = h("input", { type: "number", id: "max-turns", min: 0, max: 1000, value: 0, "aria-label": "Turn limit (0: none)" });
    this.read_ = () => {
      const n = Number(players.value);
      const config: Record<string, unknown> = {
        players: n,
        map: mapPick.value === "random" ? `random:${territories.value}:${continents.value}` : mapPick.value,
        cards: cards.value,
        mode: mode.value,
        clock: Number(clock.value),
        defender: defender.value,
        auto_place: deploy.value === "auto",
      };
      if (Number(turns.value) > 0) config.max_turns = Number(turns.value);
      return { config, bots: seatChoices(seatsBox, n) };
    };
    return h(
      "div",
      {},
      h("div", { class: "grid" }, field("Map", mapPick), field("Players", players), field("Cards", cards), field("Victory", mode), field("Turn clock", clock), field("Defender dice", defender), field("Deployment", deploy), field("Turn limit (0: none)", turns)),
      generated,
      seatsBox,
    );
  }
}
