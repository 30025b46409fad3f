// The lobby: the player's name, the public rooms (filtered by game), joining or watching
// a room by its code, and a World War room with every set-up choice the server offers
// (its `maps` answer: maps, card modes, clocks, victory modes, defender dice).

import { button, fill, h, on } from "./dom";
import type * as P from "./protocol.gen";
import type { Net } from "./net";
import { saveName, savedName } from "./store";

export interface LobbyHooks {
  /** Open room `code` (watching at once when `watch`). */
  open(code: string, watch: boolean): void;
  /** Create a room; `bots` are seated by the host once it is open. */
  create(game: string, config: Record<string, unknown>, isPublic: boolean, bots: string[]): void;
}

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

function select(id: string, values: readonly (string | number)[], text: (v: string) => string = label): HTMLSelectElement {
  return h("select", { id }, ...values.map((v) => h("option", { value: v }, text(String(v)))));
}

function field(text: string, control: HTMLElement): HTMLElement {
  return h("label", { class: "field" }, h("span", {}, text), control);
}

export class LobbyPage {
  readonly el: HTMLElement;
  private welcome: P.Welcome | null = null;
  private maps: P.MapList | null = null;
  private rooms: readonly P.PublicRoom[] = [];
  private notice = "";
  private filter = "";
  private readonly parts: Record<string, HTMLElement>;

  constructor(
    private readonly net: Net,
    private readonly hooks: LobbyHooks,
  ) {
    this.parts = {
      name: h("section", { class: "card", id: "you" }),
      rooms: h("section", { class: "card", id: "public-rooms" }),
      code: h("section", { class: "card", id: "by-code" }),
      create: h("section", { class: "card", id: "create" }),
      notice: h("p", { class: "notice", role: "alert" }),
    };
    const p = this.parts;
    this.el = h("main", { class: "lobby" }, h("h1", {}, "warsuite"), p.notice!, p.name!, p.create!, p.code!, p.rooms!);
    this.net.enter = () => {
      this.net.send({ type: "rooms", game: this.filter === "" ? null : this.filter });
      this.net.send({ type: "maps_request", game: "worldwar" });
    };
    this.renderName();
    this.renderCode();
    this.renderRooms();
    this.renderCreate();
  }

  receive(m: P.ServerMessage): void {
    // The form is drawn again only when its choices change (a reconnection says hello
    // again and asks again): what the player chose so far stays.
    if (m.type === "welcome") {
      const changed = JSON.stringify(m.games) !== JSON.stringify(this.welcome?.games);
      this.welcome = m;
      this.renderRooms();
      if (changed) this.renderCreate();
    } else if (m.type === "rooms") {
      this.rooms = m.rooms;
      this.renderRooms();
    } else if (m.type === "maps") {
      const changed = JSON.stringify(m) !== JSON.stringify(this.maps);
      this.maps = m;
      if (changed) this.renderCreate();
    } else if (m.type === "error") {
      this.notice = m.message;
      this.parts.notice!.textContent = this.notice;
    }
  }

  /** The name typed (or kept from an earlier visit), at most 32 characters. */
  name(): string {
    const input = this.parts.name!.querySelector("input");
    const typed = input?.value.trim() ?? "";
    return (typed === "" ? savedName() || "guest" : typed).slice(0, 32);
  }

  private renderName(): void {
    const input = h("input", { type: "text", id: "name", maxlength: 32, value: savedName(), autocomplete: "nickname" });
    on(input, "change", () => {
      // The server knows a connection by the name its hello gave: say hello again.
      saveName(input.value.trim());
      this.net.restart();
    });
    fill(this.parts.name!, h("h2", {}, "You"), field("Your name", input));
  }

  private renderCode(): void {
    const input = h("input", { type: "text", id: "code", maxlength: 16, autocapitalize: "characters", placeholder: "ABC123" });
    const go = (watch: boolean): void => {
      const code = input.value.trim().toUpperCase();
      if (/^[A-Z0-9]{1,16}$/.test(code)) this.hooks.open(code, watch);
    };
    fill(
      this.parts.code!,
      h("h2", {}, "Join by code"),
      field("Room code", input),
      h("div", { class: "row" }, button("Join", () => go(false), { id: "join-code" }), button("Watch", () => go(true), { id: "watch-code" })),
    );
  }

  private renderRooms(): void {
    const games = this.welcome?.games ?? [];
    const filter = h("select", { id: "room-filter", "aria-label": "Game" }, h("option", { value: "" }, "All games"), ...games.map((g) => h("option", { value: g.name, selected: g.name === this.filter }, g.title)));
    on(filter, "change", () => {
      this.filter = filter.value;
      this.net.send({ type: "rooms", game: this.filter === "" ? null : this.filter });
    });
    const refresh = button("Refresh", () => this.net.send({ type: "rooms", game: this.filter === "" ? null : this.filter }));
    const rows = this.rooms.map((r) =>
      h(
        "li",
        { class: "public-room" },
        h("span", { class: "title" }, `${r.title} · ${r.code}`),
        h("span", { class: "host" }, r.host),
        h("span", { class: "facts" }, `${r.seats_free} of ${r.players} seats free`),
        button("Join", () => this.hooks.open(r.code, false)),
        button("Watch", () => this.hooks.open(r.code, true)),
      ),
    );
    fill(
      this.parts.rooms!,
      h("h2", {}, "Public rooms"),
      h("div", { class: "row" }, filter, refresh),
      rows.length === 0 ? h("p", { class: "muted" }, "No public room is waiting for players.") : h("ul", { class: "room-list" }, ...rows),
    );
  }

  private renderCreate(): void {
    const ww = this.welcome?.games.find((g) => g.name === "worldwar");
    const maps = this.maps;
    if (ww === undefined || maps === null) {
      fill(this.parts.create!, h("h2", {}, "New World War room"), h("p", { class: "muted" }, "Asking the server…"));
      return;
    }
    const [lo, hi] = ww.players;
    const mapPick = h("select", { id: "map" }, ...maps.maps.map((m) => h("option", { value: m.name }, m.title)));
    const [tLo, tHi] = maps.territories ?? [12, 42];
    const [cLo, cHi] = maps.continents ?? [1, 8];
    const territories = h("input", { type: "number", id: "territories", min: tLo, max: tHi, value: Math.min(tHi, Math.max(tLo, 24)) });
    const continents = h("input", { type: "number", id: "continents", min: cLo, max: cHi, value: Math.min(cHi, 4) });
    const generated = h("div", { class: "row generated", hidden: true }, field("Territories", territories), field("Continents", continents));
    on(mapPick, "change", () => (generated.hidden = mapPick.value !== "random"));
    const players = select("players", Array.from({ length: hi - lo + 1 }, (_, i) => lo + i), (v) => v);
    const seatsBox = h("div", { class: "bots" });
    const botChoices = ["human", ...ww.bots];
    const drawSeats = (): void => {
      const n = Number(players.value);
      fill(seatsBox, ...Array.from({ length: n - 1 }, (_, i) => field(`Seat ${i + 2}`, select(`seat-${i + 1}`, botChoices, (v) => (v === "human" ? "a person" : `${v} bot`)))));
    };
    on(players, "change", drawSeats);
    drawSeats();
    const cards = select("cards", maps.cards);
    const mode = select("mode", maps.modes);
    const clock = select("clock", maps.clocks, (v) => (v === "0" ? "off" : `${v} s`));
    const defender = select("defender", maps.defenders);
    const deploy = select("deploy", ["hand", "auto"], (v) => (v === "auto" ? "Automatic" : "By hand"));
    const turns = h("input", { type: "number", id: "max-turns", min: 0, max: 1000, value: 0, "aria-label": "Turn limit (0: none)" });
    const isPublic = h("input", { type: "checkbox", id: "public" });
    const create = (): void => {
      const n = Number(players.value);
      const map = mapPick.value === "random" ? `random:${territories.value}:${continents.value}` : mapPick.value;
      const config: Record<string, unknown> = {
        players: n,
        map,
        cards: cards.value,
        mode: mode.value,
        clock: Number(clock.value),
        defender: defender.value,
        auto_place: deploy.value === "auto",
      };
      if (Number(turns.value) > 0) config.max_turns = Number(turns.value);
      const bots = Array.from({ length: n - 1 }, (_, i) => (seatsBox.querySelector(`#seat-${i + 1}`) as HTMLSelectElement | null)?.value ?? "human");
      saveName(this.name());
      this.hooks.create("worldwar", config, isPublic.checked, bots);
    };
    fill(
      this.parts.create!,
      h("h2", {}, "New World War room"),
      h("div", { class: "grid" }, field("Map", mapPick), field("Players", players), field("Cards", cards), field("Victory", mode), field("Turn clock", clock), field("Defender dice", defender), field("Deployment", deploy), field("Turn limit (0: none)", turns)),
      generated,
      seatsBox,
      h("label", { class: "check" }, isPublic, " List it in the public rooms"),
      button("Create room", create, { id: "create-room", class: "primary" }),
    );
  }
}
