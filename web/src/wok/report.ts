// WoK's turn reports and the match so far: each of the seat's colours' report of the
// last turn (battles with their powers and losses, bombings, spying, upgrades, trades,
// orders cancelled and why, RIPs), the Top Ten, charts of provinces and scores per turn,
// and the history of the turns seen in this tab (pick a turn to read its report again;
// kept in the tab's sessionStorage, so a reload keeps it, at most `KEEP_TURNS` turns).
// Everything is from the views the server sent; a spectator sees the public part.

import { lineChart } from "../chart";
import { seatColour } from "../colours";
import { fill, h, on } from "../dom";
import type * as W from "./types.gen";

type AnyView = W.WokView | W.WokSpectatorView;
const KEEP_TURNS = 40;

interface Kept {
  readonly reports: [number, W.Report[]][];
  readonly provinces: [number, number[]][];
  readonly scores: [number, number[]][];
}

export class ReportPanel {
  readonly el = h("section", { class: "wok-report", id: "wok-report" });
  readonly charts = h("section", { class: "wok-charts", id: "wok-charts" });
  /** The seat's reports by turn (those seen on this page). */
  private readonly reports = new Map<number, readonly W.Report[]>();
  private readonly provinces = new Map<number, number[]>();
  private readonly scores = new Map<number, number[]>();
  private shown: number | null = null;
  private view: AnyView | null = null;
  private loaded = false;

  constructor(private readonly code: string) {}

  private key(view: AnyView): string {
    return `warsuite.wok.history.${this.code}.${view.kind === "wok" ? view.seat : "watch"}`;
  }

  /** What this tab saw of the match before a reload. */
  private load(view: AnyView): void {
    this.loaded = true;
    try {
      const raw = window.sessionStorage.getItem(this.key(view));
      if (raw === null) return;
      const kept = JSON.parse(raw) as Kept;
      for (const [t, r] of kept.reports) this.reports.set(t, r);
      for (const [t, c] of kept.provinces) this.provinces.set(t, c);
      for (const [t, c] of kept.scores) this.scores.set(t, c);
    } catch {
      // nothing kept, or storage disabled: the history starts now
    }
  }

  private save(view: AnyView): void {
    const last = <T>(m: Map<number, T>): [number, T][] => [...m.entries()].sort((a, b) => a[0] - b[0]).slice(-KEEP_TURNS);
    const kept: Kept = { reports: last(this.reports) as [number, W.Report[]][], provinces: last(this.provinces), scores: last(this.scores) };
    try {
      window.sessionStorage.setItem(this.key(view), JSON.stringify(kept));
    } catch {
      // storage full or disabled: the history is not kept over a reload
    }
  }

  take(view: AnyView): void {
    if (!this.loaded) this.load(view);
    this.view = view;
    const reports = view.kind === "wok" ? view.reports : [];
    const turn = reports[0]?.turn;
    if (turn !== undefined && !this.reports.has(turn)) {
      this.reports.set(turn, reports);
      this.shown = turn;
    }
    const fresh = !this.provinces.has(view.turn);
    const counts = view.players.map((p) => p.provinces);
    this.provinces.set(view.turn, counts);
    const scores = view.players.map((p) => view.top_ten.find((t) => t.colour === p.colour)?.score ?? 0);
    this.scores.set(view.turn, scores);
    if (fresh) this.save(view); // once a turn: the scores at its start
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
    const turns = [...this.reports.keys()].sort((a, b) => a - b);
    const shown = this.shown ?? turns[turns.length - 1];
    const reports = shown === undefined ? [] : (this.reports.get(shown) ?? []);
    if (reports.length === 0) {
      fill(this.el);
      return;
    }
    const pick = h("select", { id: "wok-history", "aria-label": "Turn to read" }, ...turns.map((t) => h("option", { value: t, selected: t === shown }, `Turn ${t}`)));
    on(pick, "change", () => {
      this.shown = Number(pick.value);
      this.renderReport();
    });
    fill(this.el, h("div", { class: "row" }, h("h2", {}, "Report"), pick), ...reports.flatMap((r) => this.reportItems(r, reports.length > 1)));
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

  /** The Top Ten and the charts of provinces and scores per turn. */
  private renderCharts(): void {
    const v = this.view;
    if (v === null) {
      fill(this.charts);
      return;
    }
    const turns = [...this.provinces.keys()].sort((a, b) => a - b);
    const colours = v.players.length;
    const top = h(
      "ol",
      { class: "top-ten" },
      ...v.top_ten.map((t) => {
        const swatch = h("span", { class: "swatch" });
        swatch.style.background = seatColour(t.colour);
        return h("li", {}, swatch, `${t.name}: ${t.score}`);
      }),
    );
    fill(
      this.charts,
      h("h2", {}, "Top Ten"),
      top,
      turns.length > 1 ? h("p", { class: "muted" }, "Provinces per turn") : null,
      turns.length > 1 ? lineChart(turns.map((t) => this.provinces.get(t) ?? []), colours, "Provinces per turn") : null,
      turns.length > 1 ? h("p", { class: "muted" }, "Scores per turn") : null,
      turns.length > 1 ? lineChart(turns.map((t) => this.scores.get(t) ?? []), colours, "Scores per turn") : null,
    );
  }
}
