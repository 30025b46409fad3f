// WoK's turn reports and the match so far: each of the seat's colours' report of the
// last turn (battles with their powers and losses, bombings, spying, upgrades, trades,
// orders cancelled and why, RIPs), the Top Ten, charts of provinces and scores per turn,
// and the history of every turn (pick a turn to read its report and its Top Ten again).
// Past turns come from the server (`wok_history`: each as this seat's view held it, or a
// spectator's: the Top Ten only), so a page opened late or reloaded has them all; it asks
// one turn at a time. Everything is from what the server sent; no rule lives here.

import { lineChart } from "../chart";
import { seatColour } from "../colours";
import { fill, h, on } from "../dom";
import type { RoomContext } from "../game";
import type * as P from "../protocol.gen";
import type * as W from "./types.gen";

type AnyView = W.WokView | W.WokSpectatorView;

export class ReportPanel {
  readonly el = h("section", { class: "wok-report", id: "wok-report" });
  readonly charts = h("section", { class: "wok-charts", id: "wok-charts" });
  /** By turn: the seat's reports of that turn, the Top Ten, provinces and scores per
   * colour at its end. */
  private readonly reports = new Map<number, readonly W.Report[]>();
  private readonly tops = new Map<number, readonly W.TopTen[]>();
  private readonly provinces = new Map<number, readonly number[]>();
  private readonly scores = new Map<number, readonly number[]>();
  /** The newest turn with a report (-1 before the first view). */
  private newest = -1;
  /** The turn picked (null: the newest, following the game). */
  private shown: number | null = null;
  /** The turn asked of the server, while its answer has not come. */
  private asked: number | null = null;
  private seriesAsked = false;
  private failure = "";
  private view: AnyView | null = null;

  constructor(private readonly ctx: RoomContext) {}

  take(view: AnyView): void {
    this.view = view;
    this.newest = view.turn - 1; // turn N's report comes with the view of turn N + 1
    if (view.kind === "wok" && view.reports.length > 0) this.reports.set(view.reports[0].turn, view.reports);
    this.tops.set(this.newest, view.top_ten);
    this.provinces.set(this.newest, view.players.map((p) => p.provinces));
    this.scores.set(this.newest, view.players.map((p) => view.top_ten.find((t) => t.colour === p.colour)?.score ?? 0));
    if (!this.seriesAsked && this.newest > 0 && !this.provinces.has(this.newest - 1)) {
      // Opened late or reloaded: the charts' earlier turns come with the newest turn's answer.
      this.seriesAsked = true;
      this.ask(this.newest);
    }
  }

  /** A `wok_history_turn` answer; true when it was this room's. */
  takeHistory(m: P.WokHistoryTurn): boolean {
    if (m.code !== this.ctx.code) return false;
    this.asked = null;
    this.failure = "";
    if (m.seat !== null && m.seat === this.ctx.seat()) this.reports.set(m.turn, m.reports as W.Report[]);
    this.tops.set(m.turn, m.top_ten as W.TopTen[]);
    m.provinces.forEach((row, i) => {
      if (!this.provinces.has(m.series_from + i)) this.provinces.set(m.series_from + i, row);
    });
    m.scores.forEach((row, i) => {
      if (!this.scores.has(m.series_from + i)) this.scores.set(m.series_from + i, row);
    });
    if (this.shown !== null && !this.held(this.shown)) this.ask(this.shown);
    return true;
  }

  /** A refusal of this page's `wok_history`; true when it was one. */
  refused(m: P.Error): boolean {
    if (m.ref !== "wok_history") return false;
    this.asked = null;
    this.failure = m.message;
    return true;
  }

  private held(turn: number): boolean {
    return this.view?.kind === "wok" ? this.reports.has(turn) : this.tops.has(turn);
  }

  private ask(turn: number): void {
    if (this.asked !== null || this.ctx.replaying()) return;
    this.asked = turn;
    const token = this.ctx.token();
    this.ctx.net.send(token === null ? { type: "wok_history", turn } : { type: "wok_history", turn, token });
  }

  private pick(turn: number): void {
    this.shown = turn === this.newest ? null : turn;
    this.failure = "";
    if (!this.held(turn)) this.ask(turn);
    this.ctx.render();
  }

  private name(colour: number): string {
    return this.view?.players[colour]?.name ?? `colour ${colour + 1}`;
  }

  private place(i: number): string {
    return this.view?.map.provinces[i]?.name ?? String(i);
  }

  render(): void {
    this.renderReport();
    this.renderCharts();
  }

  private renderReport(): void {
    const v = this.view;
    if (v === null || this.newest < 0 || (v.kind !== "wok" && this.ctx.replaying())) {
      fill(this.el); // a replay is stepped with its own buttons
      return;
    }
    const shown = this.shown ?? this.newest;
    const turns = Array.from({ length: this.newest + 1 }, (_, t) => t);
    const pick = h(
      "select",
      { id: "wok-history", "aria-label": "Turn to read" },
      ...turns.map((t) => h("option", { value: t, selected: t === shown }, t === this.newest ? `Turn ${t} (latest)` : `Turn ${t}`)),
    );
    on(pick, "change", () => this.pick(Number(pick.value)));
    const items: (HTMLElement | null)[] = [];
    if (!this.held(shown)) {
      items.push(h("p", { class: "muted", id: "wok-history-wait" }, this.failure === "" ? `Asking the server for turn ${shown}…` : `Turn ${shown}: ${this.failure}`));
    } else {
      const reports = this.reports.get(shown) ?? [];
      items.push(...reports.flatMap((r) => this.reportItems(r, reports.length > 1)));
      if (shown !== this.newest) items.push(h("h3", {}, `Top Ten after turn ${shown}`), this.topTen(this.tops.get(shown) ?? []));
      else if (v.kind !== "wok") items.push(h("p", { class: "muted" }, "Pick a turn to see its Top Ten."));
    }
    fill(this.el, h("div", { class: "row" }, h("h2", {}, v.kind === "wok" ? "Report" : "History"), pick), ...items);
  }

  private topTen(top: readonly W.TopTen[]): HTMLElement {
    return h(
      "ol",
      { class: "top-ten" },
      ...top.map((t) => {
        const swatch = h("span", { class: "swatch" });
        swatch.style.background = seatColour(t.colour);
        return h("li", {}, swatch, `${t.name}: ${t.score}`);
      }),
    );
  }

  private reportItems(r: W.Report, named: boolean): HTMLElement[] {
    const out: HTMLElement[] = [];
    if (named) out.push(h("h3", {}, this.name(r.colour)));
    const before = Object.keys(r.provinces_before).length;
    const after = Object.keys(r.provinces_after).length;
    const provinces = (n: number): string => `${n} ${n === 1 ? "province" : "provinces"}`;
    out.push(h("p", {}, `Turn ${r.turn}: ${provinces(before)} before, ${provinces(after)} after.`));
    if (r.battles.length > 0) {
      const items = r.battles.map((b) => {
        const who = b.attacker === r.colour ? "You" : this.name(b.attacker);
        const against = b.defender < 0 ? "a neutral" : b.defender === r.colour ? "you" : this.name(b.defender);
        return h(
          "li",
          { class: b.won ? "won" : "lost" },
          h("b", {}, `${this.place(b.source)} → ${this.place(b.target)}: ${b.won ? "taken" : "held"}`),
          h("br", {}),
          `${who} attacked ${against} with ${b.sent} against ${b.defenders} (PATT ${b.patt.toFixed(0)}, PDEF ${b.pdef.toFixed(0)}, ${b.rounds} rounds): attackers lost ${b.a_lost}, defenders ${b.d_lost}.`,
        );
      });
      out.push(h("h3", {}, "Battles"), h("ul", { class: "battles" }, ...items));
    }
    const lines: string[] = [];
    for (const b of r.bombings) {
      const from = b.source === null ? "" : ` from ${this.place(b.source)}`;
      const who = b.by === null ? "" : ` by ${this.name(b.by)}`;
      lines.push(`Bombing of ${this.place(b.target)}${from}${who}: ${b.fired} fired, ${b.hits} hits`);
    }
    for (const sp of r.spying) {
      const op = sp.op.replace(/_/g, " ").toLowerCase();
      const result = `${sp.success ? "success" : "failed"}${sp.caught ? `, ${sp.caught} caught` : ""}`;
      if (sp.owner === r.colour) lines.push(`Spies against your ${this.place(sp.target)} (${op})${sp.by === null ? "" : ` from ${this.name(sp.by)}`}: ${result}`);
      else lines.push(`Your spies, ${op} on ${this.place(sp.target)}: ${result}`);
    }
    for (const i of r.intel) lines.push(`Intel on ${this.place(i.target)}: ${Object.entries(i.seen).map(([k, v]) => `${k} ${String(v)}`).join(", ")}`);
    for (const u of r.upgrades) lines.push(`Upgrade ${u.kind}${u.amount === null ? "" : ` x${u.amount}`}: cost ${u.cost}`);
    for (const t of r.trades) lines.push(`Trade of ${t.points} tech points (${t.tech_left} left)`);
    for (const c of r.cancelled) lines.push(`Cancelled: ${c.phase} order ${c.order} (${c.reason})`);
    for (const rip of r.rips) lines.push(`${this.name(rip.colour)} is out (RIP by ${this.name(rip.by)})`);
    if (lines.length > 0) out.push(h("ul", { class: "report-lines" }, ...lines.map((l) => h("li", {}, l))));
    return out;
  }

  /** The Top Ten and the charts of provinces and scores at the end of each turn. */
  private renderCharts(): void {
    const v = this.view;
    if (v === null) {
      fill(this.charts);
      return;
    }
    const turns = [...this.provinces.keys()].sort((a, b) => a - b);
    const colours = v.players.length;
    const charted = turns.length > 1;
    fill(
      this.charts,
      h("h2", {}, "Top Ten"),
      this.topTen(v.top_ten),
      charted ? h("p", { class: "muted" }, `Provinces at the end of turns ${turns[0]} to ${turns[turns.length - 1]}`) : null,
      charted ? lineChart(turns.map((t) => this.provinces.get(t) ?? []), colours, "Provinces per turn") : null,
      charted ? h("p", { class: "muted" }, "Scores per turn") : null,
      charted ? lineChart(turns.map((t) => this.scores.get(t) ?? []), colours, "Scores per turn") : null,
    );
  }
}
