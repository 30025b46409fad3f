// WoK in a room: the map from the room's `room_data` (put back into each view by the
// room page), the seat's own view (its figures, intel, reports; never another seat's
// orders), the order form checked by the server (`orders.ts`), the guided first turn,
// the turn's report and the match so far, alliances, the vote to end, and the turn
// clock's poke and run-now. A spectator sees the spectator view: owners, the Top Ten,
// the public events. No rule lives here.

import { seatColour } from "../colours";
import { button, fill, h } from "../dom";
import type { GameModule, GameRoom, RoomContext } from "../game";
import type * as P from "../protocol.gen";
import { Guide } from "./guide";
import { ProvinceMap } from "./map";
import { OrderForm } from "./orders";
import { ReportPanel } from "./report";
import { WokSetup } from "./setup";
import type * as W from "./types.gen";

type AnyView = W.WokView | W.WokSpectatorView;
const LOG_KEEP = 60;

class WokRoom implements GameRoom {
  readonly parts;
  private view: AnyView | null = null;
  private map: ProvinceMap | null = null;
  private readonly form: OrderForm;
  private readonly guide: Guide;
  private readonly report: ReportPanel;
  private readonly log: string[] = [];
  private readonly extras = h("section", { class: "wok-extras", id: "wok-extras" });
  private readonly mine = h("section", { class: "wok-mine", id: "wok-mine" });
  private readonly logBox = h("section", { class: "log", id: "room-log" });

  constructor(private readonly ctx: RoomContext) {
    this.form = new OrderForm(ctx);
    this.report = new ReportPanel(ctx);
    this.guide = new Guide(this.form, () => ctx.render());
    this.parts = {
      board: h("div", { class: "boardbox", id: "room-boardbox" }),
      side: [this.guide.el, this.form.el, this.mine, this.extras],
      after: [this.report.el, this.report.charts, this.logBox],
    };
  }

  opened(): void {
    // The map and rules come with the room (`room_data`): nothing to ask for.
  }

  receive(m: P.ServerMessage): boolean {
    switch (m.type) {
      case "draft_report":
        if (m.code !== this.ctx.code) return false;
        this.form.takeReport(m);
        return true;
      case "events":
        for (const update of m.updates) this.logEvents(update.events);
        return true;
      case "wok_history_turn":
        return this.report.takeHistory(m);
      case "error":
        return this.report.refused(m);
      default:
        return false;
    }
  }

  private looked = false;

  takeView(m: P.ViewMsg): void {
    const view = m.view as AnyView;
    if (view.kind !== "wok" && view.kind !== "wok_spectator") return;
    this.view = view;
    if (this.map === null && view.map !== undefined) {
      this.map = new ProvinceMap(view.map, (i) => this.form.pick(i));
      fill(this.parts.board, this.map.el);
    }
    this.report.take(view);
    if (view.kind === "wok") this.form.setView(view);
    this.logEvents(m.events);
  }

  moreLegal(): void {
    // WoK's seats act in an action space; the form builds its orders with the server.
  }

  hasView(): boolean {
    return this.view !== null;
  }

  turn(): { turn: number; awaiting: readonly number[]; phase: string } | null {
    const v = this.view;
    if (v === null) return null;
    return { turn: v.turn, awaiting: v.awaiting, phase: v.outcome === null ? "orders" : "over" };
  }

  private name(colour: number): string {
    return this.view?.players[colour]?.name ?? `colour ${colour + 1}`;
  }

  private place(i: number): string {
    return this.view?.map.provinces[i]?.name ?? String(i);
  }

  private logEvents(events: unknown): void {
    if (!Array.isArray(events) || this.view === null) return;
    for (const e of events as W.WokEvent[]) {
      const line = this.describe(e);
      if (line !== null) this.log.push(line);
    }
    while (this.log.length > LOG_KEEP) this.log.shift();
  }

  private describe(e: W.WokEvent): string | null {
    switch (e.kind) {
      case "turn_ran":
        return `Turn ${e.turn} ran.`;
      case "province_taken":
        return `${this.name(e.by)} took ${this.place(e.province)}${e.previous >= 0 ? ` from ${this.name(e.previous)}` : ""}.`;
      case "ripped":
        return `${this.name(e.colour)} is out (RIP by ${this.name(e.by)}).`;
      case "alliance_changed":
        return `${this.name(e.a)} and ${this.name(e.b)} ${e.allied ? "are allies" : "are no longer allies"}.`;
      case "seat_quit":
        return `${this.ctx.seatName(e.seat)} left: ${e.reason}.`;
      case "poked":
        return `${this.ctx.seatName(e.seat)} poked the late players.`;
      case "vote_cast":
        return `${this.ctx.seatName(e.seat)} ${e.end ? "votes to end the game" : "withdrew the vote"}.`;
      case "game_over":
        return `Game over: ${e.outcome.reason}.`;
      default:
        return null;
    }
  }

  key(event: KeyboardEvent): boolean {
    return this.form.key(event);
  }

  // -- drawing ---------------------------------------------------------------------------

  render(): void {
    const v = this.view;
    this.form.render();
    this.guide.render(v?.kind === "wok" ? v : null, this.form.currentReport());
    this.renderMine();
    this.renderExtras();
    this.report.render();
    if (this.log.length === 0) fill(this.logBox);
    else fill(this.logBox, h("h2", {}, "Latest"), h("ol", { class: "events" }, ...this.log.slice(-12).map((line) => h("li", {}, line))));
    if (this.map !== null && v !== null) {
      this.map.update(v.provinces, v.turn, this.form.marks());
      const seat = this.ctx.seat();
      // Once: a phone's map scrolls sideways; it opens on the seat's own provinces.
      if (!this.looked && seat !== null) {
        const mine = v.provinces.flatMap((p, i) => (p.owner === seat ? [i] : []));
        this.looked = this.map.lookAt(mine);
      }
    }
  }

  statusLines(): HTMLElement[] {
    const v = this.view;
    if (v === null) return [];
    const when = v.outcome === null ? `turn ${v.turn} of ${v.max_turns}` : `over after ${Math.min(v.turn, v.max_turns)} turns`;
    const lines = [h("p", { class: "muted" }, `${v.rules.title} · ${v.variant.name} · ${when}`)];
    if (v.kind === "wok" && v.is_ready && v.outcome === null) lines.push(h("p", {}, "You are ready."));
    return lines;
  }

  /** The seat's colours: EFF, gold, tech, score, attacks this turn, NAPs. */
  private renderMine(): void {
    const v = this.view;
    if (v === null || v.kind !== "wok") {
      fill(this.mine);
      return;
    }
    const rows = v.colours.map((c) => {
      const swatch = h("span", { class: "swatch" });
      swatch.style.background = seatColour(c.colour);
      const facts = [`${c.provinces} prov.`, `EFF ${c.eff}`, c.gold > 0 ? `gold ${c.gold}` : "", `${v.rules.tech_kind === "points" ? "tech points" : "tech"} ${c.tech}`, c.wood > 0 ? `wood ${c.wood}` : "", `score ${c.score}`, `${c.attacks_allowed} attacks`];
      return h(
        "li",
        {},
        swatch,
        h("b", {}, c.name),
        ` ${facts.filter((f) => f !== "").join(" · ")}`,
        c.nap === null ? null : h("span", { class: "muted" }, ` · NAP with ${c.nap.partner_name} until turn ${c.nap.until}`),
        c.alive ? null : h("span", { class: "muted" }, " · out"),
      );
    });
    fill(this.mine, h("h2", {}, "Your kingdom"), h("ul", { class: "lines" }, ...rows));
  }

  /** Poke and run now (the turn clock), alliances, the vote to end. */
  private renderExtras(): void {
    const v = this.view;
    const token = this.ctx.token();
    if (v === null || v.kind !== "wok" || token === null || v.outcome !== null || this.ctx.phase() === "over") {
      fill(this.extras);
      return;
    }
    const items: (HTMLElement | null)[] = [];
    const clock = this.ctx.clock();
    const clockRow: HTMLElement[] = [];
    if (clock?.can_poke === true) clockRow.push(button("Poke the late players", () => this.ctx.net.send({ type: "poke", token }), { id: "wok-poke" }));
    if (clock?.can_run_now === true) clockRow.push(button("Run the turn now", () => this.ctx.net.send({ type: "run_now", token }), { id: "wok-run-now", class: "danger" }));
    if (clockRow.length > 0) items.push(h("div", { class: "row" }, ...clockRow));
    if (v.variant.alliances) {
      for (const c of v.colours.filter((x) => x.alive)) {
        const others = v.players.filter((p) => p.alive && p.colour !== c.colour && !v.colours.some((o) => o.colour === p.colour));
        const pick = h("select", { "aria-label": `Ally of ${c.name}`, class: "ally-pick" }, h("option", { value: "" }, "nobody"), ...others.map((p) => h("option", { value: p.colour, selected: p.colour === c.ally }, p.name)));
        const mutual = c.ally !== null && v.players[c.ally]?.ally === c.colour;
        items.push(
          h(
            "div",
            { class: "row" },
            h("span", {}, `${c.name}'s ally: ${c.ally === null ? "none" : `${this.name(c.ally)}${mutual ? " (mutual)" : " (declared)"}`}`),
            pick,
            button("Declare", () => this.ctx.act({ kind: "ally", colour: c.colour, partner: pick.value === "" ? null : Number(pick.value) }), { class: "declare-ally" }),
          ),
        );
      }
    }
    const voted = v.votes.includes(this.ctx.seat() ?? -1);
    items.push(h("div", { class: "row" }, button(voted ? "Withdraw my vote to end" : "Vote to end the game", () => this.ctx.act({ kind: "vote", end: !voted }), { id: "wok-vote" })));
    fill(this.extras, h("h2", {}, "Diplomacy and clock"), ...items);
  }

  seatFacts(seat: number): string[] {
    const v = this.view;
    if (v === null || this.ctx.phase() === "lobby") return [];
    const colours = v.players.filter((p) => p.seat === seat);
    const facts = [`${colours.reduce((n, p) => n + p.provinces, 0)} prov.`];
    if (v.outcome === null) facts.push(v.ready.includes(seat) ? "ready" : "writing orders");
    if (colours.length > 0 && colours.every((p) => !p.alive)) facts.push("out");
    return facts;
  }

  endLines(): HTMLElement[] {
    const v = this.view;
    if (v === null) return [];
    return [h("h3", {}, "Final Top Ten"), h("ol", { class: "top-ten final" }, ...v.top_ten.map((t) => h("li", {}, `${t.name}: ${t.score}`)))];
  }
}

export const wok: GameModule = {
  name: "wok",
  setup: (net) => new WokSetup(net),
  room: (ctx) => new WokRoom(ctx),
};
