// The lobby: the player's name, the public rooms (filtered by game), joining or watching
// a room by its code, and a new room of any game the page knows, set up with that game's
// own form (`games.ts`): every choice the server offers for it.

import { button, fill, h, on } from "./dom";
import { field } from "./forms";
import type { SetupForm } from "./game";
import { GAMES } from "./games";
import type * as P from "./protocol.gen";
import type { Net } from "./net";
import { saveName, savedName } from "./store";

export interface LobbyHooks {
  /** Open room `code` (watching at once when `watch`). */
  open(code: string, watch: boolean): void;
  /** Create a room; `bots` are seated by the host once it is open. */
  create(game: string, config: Record<string, unknown>, isPublic: boolean, bots: string[]): void;
}

export class LobbyPage {
  readonly el: HTMLElement;
  private welcome: P.Welcome | null = null;
  private readonly forms: ReadonlyMap<string, SetupForm>;
  private chosen = "worldwar";
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
    this.forms = new Map(GAMES.map((g) => [g.name, g.setup(net)]));
    const p = this.parts;
    this.el = h("main", { class: "lobby" }, h("h1", {}, "warsuite"), p.notice!, p.name!, p.create!, p.code!, p.rooms!);
    this.net.enter = () => {
      this.net.send({ type: "rooms", game: this.filter === "" ? null : this.filter });
      for (const form of this.forms.values()) form.ask();
    };
    this.renderName();
    this.renderCode();
    this.renderRooms();
    this.renderCreate();
  }

  receive(m: P.ServerMessage): void {
    // Every form sees the message; the form shown is drawn again only when its own
    // choices change (another game's answer, or a reconnection saying hello and asking
    // again, leaves what the player chose so far as it is).
    const changed = [...this.forms.entries()].filter(([, form]) => form.receive(m)).map(([name]) => name);
    if (changed.includes(this.chosen)) this.renderCreate();
    if (m.type === "welcome") {
      const changed = JSON.stringify(m.games) !== JSON.stringify(this.welcome?.games);
      this.welcome = m;
      this.renderRooms();
      if (changed) this.renderCreate();
    } else if (m.type === "rooms") {
      this.rooms = m.rooms;
      this.renderRooms();
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
    const offered = (this.welcome?.games ?? []).filter((g) => this.forms.has(g.name));
    if (offered.length === 0) {
      fill(this.parts.create!, h("h2", {}, "New room"), h("p", { class: "muted" }, "Asking the server…"));
      return;
    }
    const info = offered.find((g) => g.name === this.chosen) ?? offered[0]!;
    this.chosen = info.name;
    const form = this.forms.get(info.name)!;
    const gamePick = h("select", { id: "game" }, ...offered.map((g) => h("option", { value: g.name, selected: g.name === info.name }, g.title)));
    on(gamePick, "change", () => {
      this.chosen = gamePick.value;
      this.renderCreate();
    });
    const fields = form.fields(info);
    const isPublic = h("input", { type: "checkbox", id: "public" });
    const create = (): void => {
      const { config, bots } = form.read();
      saveName(this.name());
      this.hooks.create(info.name, config, isPublic.checked, [...bots]);
    };
    fill(
      this.parts.create!,
      h("h2", {}, `New ${info.title} room`),
      offered.length > 1 ? field("Game", gamePick) : null,
      fields ?? h("p", { class: "muted" }, "Asking the server…"),
      h("label", { class: "check" }, isPublic, " List it in the public rooms"),
      fields === null ? null : button("Create room", create, { id: "create-room", class: "primary" }),
    );
  }
}
