// WoK's order form: the seat's draft orders for each of its colours, phase by phase (the
// phases its rule set has: bombing, attacks, transformations, troop upgrades, movement,
// tech trades, aims, upgrades, spying or covert operations), entered on the map (source,
// then target) and in the form (kind, amount). Everything the form says about the draft
// comes from the server's `draft_report` (`suite.wok.rules.drafting`, the desktop form's
// own checks): the provinces a click may pick, the most an order may name, why an order
// cannot be added, warnings, win chances, what an order does, what each province holds
// after, the risks a newcomer should hear of. The form asks (`draft_check`) after every
// change; only this seat's connection ever gets the answer. No rule lives here.

import { button, fill, h, on } from "../dom";
import type { RoomContext } from "../game";
import type * as P from "../protocol.gen";
import type { Mark } from "./map";
import type * as W from "./types.gen";

export type Phase = W.PhaseInfo["phase"];
type Order = Record<string, unknown>;
type Sets = Map<number, Map<Phase, Order[]>>;

const UNITS = ["POP", "WOK", "ARM", "PIK", "ARC", "KNI", "CAT", "MIS", "SPY", "LEV"];

function percent(win: number | null): string {
  return win === null ? "" : `${Math.round(win * 100)} %`;
}

export class OrderForm {
  readonly el = h("section", { class: "actions wok-orders", id: "wok-orders" });
  private view: W.WokView | null = null;
  private turn = -1;
  private sets: Sets = new Map();
  private report: W.DraftReport | null = null;
  private adopt = true;
  /** The number of the last question asked, and of the one the report answers. */
  private asked = 0;
  private answered = -1;
  private colour: number | null = null;
  private phase: Phase | null = null;
  private source: number | null = null;
  private target: number | null = null;
  private kind = "";
  private amount = 0;
  private readonly kindPick = h("select", { id: "wok-kind", "aria-label": "Kind" });
  private readonly amountBox = h("input", { type: "number", id: "wok-amount", min: 0, value: "", "aria-label": "Amount (empty: the most)" });

  constructor(private readonly ctx: RoomContext) {
    on(this.kindPick, "change", () => {
      this.kind = this.kindPick.value;
      this.target = null;
      this.check();
    });
    on(this.amountBox, "change", () => {
      this.amount = Math.max(0, Math.floor(Number(this.amountBox.value) || 0));
      this.check();
    });
    on(this.amountBox, "keydown", (event) => {
      if ((event as KeyboardEvent).key === "Enter") {
        this.amount = Math.max(0, Math.floor(Number(this.amountBox.value) || 0));
        this.add();
      }
    });
  }

  // -- what comes in --------------------------------------------------------------------

  /** A new view of this seat: a new turn starts from the orders it sent (none yet). */
  setView(view: W.WokView): void {
    this.view = view;
    if (view.turn !== this.turn) {
      this.turn = view.turn;
      this.sets = new Map();
      for (const os of view.orders) this.sets.set(os.colour, this.phasesOf(os));
      this.clear();
      const own = view.colours.filter((c) => c.alive).map((c) => c.colour);
      if (this.colour === null || !own.includes(this.colour)) this.colour = own[0] ?? null;
    }
    // Ask once per turn when the match runs (a lobby's view is not yet for orders).
    if (view.may_submit && this.ctx.phase() === "playing" && this.report?.turn !== view.turn) this.check();
  }

  /** The server's answer about this draft (after a rejoin: the draft it kept). */
  takeReport(m: P.DraftReportMsg): void {
    const report = m.report as W.DraftReport;
    if (this.view === null || report.turn !== this.view.turn) return;
    this.report = report;
    this.answered = m.ref;
    if (this.adopt) {
      this.adopt = false;
      const draft = m.draft as { sets?: W.OrderSet[] };
      const kept: Sets = new Map();
      for (const os of draft.sets ?? []) kept.set(os.colour, this.phasesOf(os));
      const before = JSON.stringify(this.draft());
      const old = this.sets;
      this.sets = kept;
      if (JSON.stringify(this.draft()) !== before) this.check();
      else this.sets = old;
    }
    if (this.phase === null || !report.phases.some((p) => p.phase === this.phase)) {
      this.phase = report.phases[0]?.phase ?? null;
      this.check();
    }
  }

  private phasesOf(os: W.OrderSet): Map<Phase, Order[]> {
    const phases = new Map<Phase, Order[]>();
    for (const p of ["bombs", "attacks", "transforms", "troops", "moves", "trades", "aims", "upgrades", "spies"] as const) {
      const list = (os[p] ?? []) as unknown as Order[];
      phases.set(p, [...list]);
    }
    return phases;
  }

  // -- the draft ------------------------------------------------------------------------

  private setOf(sets: Sets, colour: number): Record<string, unknown> {
    const out: Record<string, unknown> = { colour };
    for (const [phase, list] of sets.get(colour) ?? []) if (list.length > 0) out[phase] = list;
    return out;
  }

  /** The draft as the server reads it: `{sets: [...]}`, one set per colour with orders. */
  draft(): { sets: Record<string, unknown>[] } {
    // Every living colour has a set, an empty one too: a set sent replaces the one sent
    // before, so a deleted order goes.
    const own = (this.view?.colours ?? []).filter((c) => c.alive).map((c) => c.colour);
    return { sets: own.sort((a, b) => a - b).map((c) => this.setOf(this.sets, c)) };
  }

  private list(colour: number, phase: Phase): Order[] {
    let phases = this.sets.get(colour);
    if (phases === undefined) {
      phases = new Map();
      this.sets.set(colour, phases);
    }
    let list = phases.get(phase);
    if (list === undefined) {
      list = [];
      phases.set(phase, list);
    }
    return list;
  }

  /** Ask the server about the draft and the order being composed. */
  check(): void {
    const token = this.ctx.token();
    const v = this.view;
    if (token === null || v === null || this.colour === null || !v.may_submit) return;
    const probe: W.Probe | null =
      this.phase === null ? null : { colour: this.colour, phase: this.phase, source: this.source, target: this.target, kind: this.kindValue(), amount: this.amount };
    this.asked += 1;
    this.ctx.net.send({ type: "draft_check", token, state_id: this.ctx.stateId(), draft: this.draft(), probe: probe as Record<string, unknown> | null, ref: this.asked });
  }

  private kindValue(): string {
    const info = this.info();
    if (info === undefined || info.kinds.length === 0) return "";
    return info.kinds.some((k) => k.value === this.kind) ? this.kind : (info.kinds[0]?.value ?? "");
  }

  private clear(): void {
    this.source = this.target = null;
    this.amount = 0;
    this.amountBox.value = "";
  }

  private info(): W.PhaseInfo | undefined {
    return this.report?.phases.find((p) => p.phase === this.phase);
  }

  private probe(): W.ProbeReport | null {
    const p = this.report?.probe ?? null;
    return p !== null && p.phase === this.phase && p.colour === this.colour ? p : null;
  }

  private mine(): W.ColourReport | undefined {
    return this.report?.colours.find((c) => c.colour === this.colour);
  }

  /** Add the order the fields describe (when the server found nothing against it). */
  add(): void {
    const p = this.probe();
    if (p === null || p.order === null || p.problem !== null || this.colour === null || this.phase === null) {
      if (p?.problem) this.ctx.say(p.problem);
      return;
    }
    this.list(this.colour, this.phase).push(p.order);
    this.target = null;
    this.amount = 0;
    this.amountBox.value = "";
    this.check();
    this.ctx.render();
  }

  private remove(phase: Phase, index: number): void {
    if (this.colour === null) return;
    this.list(this.colour, phase).splice(index, 1);
    this.check();
    this.ctx.render();
  }

  private choosePhase(phase: Phase): void {
    if (phase === this.phase) return;
    this.phase = phase;
    this.kind = "";
    this.clear();
    this.check();
    this.ctx.render();
  }

  /** Show the phase `phase` (the guided turn opens each phase's tab). */
  showPhase(phase: Phase): void {
    this.choosePhase(phase);
  }

  /** The last report the server sent about this draft. */
  currentReport(): W.DraftReport | null {
    return this.report;
  }

  /** The orders of `phase` entered for the colour shown. */
  entered(phase: Phase): number {
    return this.colour === null ? 0 : (this.sets.get(this.colour)?.get(phase)?.length ?? 0);
  }

  // -- the map --------------------------------------------------------------------------

  /** A province was picked on the map: the order's source, then its target. */
  pick(i: number): void {
    const p = this.probe();
    const info = this.info();
    if (p === null || info === undefined || !info.needs_source || this.view?.may_submit !== true) return;
    if (this.source === i) this.clear();
    else if (this.source !== null && info.needs_target && p.targets.includes(i)) this.target = i;
    else if (p.sources.includes(i)) {
      this.source = i;
      this.target = null;
    } else {
      this.ctx.say(this.source === null ? (p.no_sources ?? "Pick one of the outlined provinces.") : (p.no_targets ?? "Pick one of the outlined provinces."));
      return;
    }
    this.check();
    this.ctx.render();
  }

  /** The marks the map shows for the order being composed. */
  marks(): Map<number, Mark> {
    const marks = new Map<number, Mark>();
    const p = this.probe();
    const v = this.view;
    if (p === null || v === null || !v.may_submit) return marks;
    if (this.source === null) for (const i of p.sources) marks.set(i, "pickable");
    else {
      const near = new Set(v.map.provinces[this.source]?.neighbours ?? []);
      for (const i of p.targets) marks.set(i, near.has(i) ? "pickable" : "far");
      marks.set(this.source, "source");
    }
    if (this.target !== null) marks.set(this.target, "target");
    return marks;
  }

  key(event: KeyboardEvent): boolean {
    if (event.key === "Escape" && (this.source !== null || this.target !== null)) {
      this.clear();
      this.check();
      return true;
    }
    const phases = this.report?.phases ?? [];
    const n = Number(event.key);
    if (Number.isInteger(n) && n >= 1 && n <= phases.length && !event.ctrlKey && !event.altKey) {
      this.choosePhase(phases[n - 1]!.phase);
      return true;
    }
    if (event.key === "a" && this.probe()?.order) {
      this.add();
      return true;
    }
    return false;
  }

  // -- drawing --------------------------------------------------------------------------

  private name(i: number | null): string {
    return i === null ? "" : (this.view?.map.provinces[i]?.name ?? String(i));
  }

  render(): void {
    const v = this.view;
    const report = this.report;
    // Whether the report shown answers the latest question (what the tests wait for).
    this.el.dataset.fresh = String(this.answered === this.asked);
    if (v === null || this.colour === null || this.ctx.seat() === null || this.ctx.phase() === "over") {
      fill(this.el);
      return;
    }
    if (!v.may_submit) {
      fill(this.el, h("h2", {}, `Your orders · turn ${v.turn}`), ...this.lockedLines(v));
      return;
    }
    if (report === null) {
      fill(this.el, h("h2", {}, `Your orders · turn ${v.turn}`), h("p", { class: "muted" }, "Asking the server about your orders…"));
      return;
    }
    const mine = this.mine();
    const colours =
      v.colours.filter((c) => c.alive).length > 1
        ? h(
            "div",
            { class: "row" },
            ...v.colours
              .filter((c) => c.alive)
              .map((c) =>
                button(c.name, () => {
                  this.colour = c.colour;
                  this.clear();
                  this.check();
                  this.ctx.render();
                }, { class: c.colour === this.colour ? "tab colour-tab chosen" : "tab colour-tab", "aria-pressed": c.colour === this.colour ? "true" : "false" }),
              ),
          )
        : null;
    const tabs = h(
      "div",
      { class: "row tabs", role: "tablist" },
      ...report.phases.map((p, i) => {
        const count = mine?.counts.find((c) => c.phase === p.phase);
        const label = `${i + 1} ${p.title}${count !== undefined && count.entered > 0 ? ` ${count.entered}` : ""}`;
        return button(label, () => this.choosePhase(p.phase), { class: p.phase === this.phase ? "tab chosen" : "tab", role: "tab", "aria-selected": p.phase === this.phase ? "true" : "false", "data-phase": p.phase });
      }),
    );
    fill(
      this.el,
      h("h2", {}, `Your orders · turn ${v.turn}`),
      colours,
      tabs,
      ...this.phaseBody(mine),
      ...this.afterLines(mine),
      ...this.buttons(),
    );
  }

  private lockedLines(v: W.WokView): HTMLElement[] {
    if (!v.alive) return [h("p", { class: "muted" }, "You are out of the game.")];
    const sent = v.orders.some((os) => [...this.phasesOf(os).values()].some((list) => list.length > 0));
    const lines: HTMLElement[] = [h("p", {}, v.is_ready ? "You are ready: your orders are locked until the turn runs." : "Orders cannot be given now.")];
    if (sent) lines.push(h("p", { class: "muted" }, "Your orders are with the server."));
    if (v.is_ready) lines.push(button("Not ready", () => this.ctx.act({ kind: "ready", ready: false }), { id: "wok-unready" }));
    return lines;
  }

  private phaseBody(mine: W.ColourReport | undefined): HTMLElement[] {
    const info = this.info();
    if (info === undefined) return [];
    const count = mine?.counts.find((c) => c.phase === info.phase);
    const p = this.probe();
    const out: HTMLElement[] = [];
    out.push(h("details", { class: "help" }, h("summary", {}, `${info.title}: how it works`), h("p", {}, info.help)));
    if (count !== undefined) out.push(h("p", { class: "muted count-line" }, count.line));
    // The fields: kind and amount, then the pick on the map.
    const fields: HTMLElement[] = [];
    if (info.kinds.length > 0) {
      const value = this.kindValue();
      fill(this.kindPick, ...info.kinds.map((k) => h("option", { value: k.value, selected: k.value === value }, k.label)));
      fields.push(h("label", { class: "field" }, h("span", {}, "Kind"), this.kindPick));
    }
    if (info.has_amount) {
      const most = p?.maximum ?? 0;
      this.amountBox.max = String(most);
      this.amountBox.placeholder = "most";
      fields.push(h("label", { class: "field" }, h("span", {}, `Amount (up to ${most})`), this.amountBox));
    }
    const addable = p !== null && p.order !== null && p.problem === null;
    fields.push(button("Add order", () => this.add(), { id: "wok-add", class: addable ? "primary" : "", disabled: !addable }));
    out.push(h("div", { class: "row fields" }, ...fields));
    if (info.needs_source && (p === null || p.sources.length > 0 || this.source !== null)) {
      const where = this.source === null ? "Pick a source province on the map (outlined)." : info.needs_target && this.target === null ? `From ${this.name(this.source)}: pick the target on the map.` : `${this.name(this.source)}${this.target === null ? "" : ` → ${this.name(this.target)}`}`;
      out.push(h("p", { class: "hint" }, where));
    }
    if (p !== null) out.push(...this.probeLines(p));
    const notes = (mine?.orders ?? []).filter((o) => o.phase === info.phase);
    if (notes.length > 0) {
      out.push(h("h3", {}, "Entered"));
      out.push(h("ol", { class: "entered" }, ...notes.map((n) => this.noteItem(n))));
    }
    return out;
  }

  private probeLines(p: W.ProbeReport): HTMLElement[] {
    const lines: (HTMLElement | null)[] = [];
    if (p.no_sources !== null && this.source === null) lines.push(h("p", { class: "muted" }, p.no_sources));
    if (p.no_targets !== null && this.source !== null) lines.push(h("p", { class: "muted" }, p.no_targets));
    if (p.text !== null) lines.push(h("p", { class: "order-text" }, p.text));
    if (p.problem !== null) lines.push(h("p", { class: "problem", role: "alert" }, p.problem));
    if (p.warning !== null) lines.push(h("p", { class: "warning" }, p.warning));
    for (const line of p.chances) lines.push(h("p", { class: "odds" }, line));
    for (const line of p.preview) lines.push(h("p", { class: "preview" }, line));
    for (const line of p.risks) lines.push(h("p", { class: "risk" }, `Risk: ${line}`));
    if (p.hint !== null && !p.preview.includes(p.hint)) lines.push(h("p", { class: "muted" }, p.hint));
    return lines.filter((x): x is HTMLElement => x !== null);
  }

  private noteItem(n: W.OrderNote): HTMLElement {
    const del = button("✕", () => this.remove(n.phase, n.index), { class: "delete", "aria-label": `Delete ${n.text}` });
    return h(
      "li",
      { class: n.problem === null ? "order" : "order bad" },
      h("div", { class: "row" }, h("span", { class: "order-text" }, n.text), n.win === null ? null : h("span", { class: "odds" }, percent(n.win)), del),
      n.problem === null ? null : h("p", { class: "problem" }, n.problem),
      n.warning === null ? null : h("p", { class: "warning" }, n.warning),
      ...n.chances.map((line) => h("p", { class: "muted" }, line)),
      ...n.preview.map((line) => h("p", { class: "preview" }, line)),
    );
  }

  private afterLines(mine: W.ColourReport | undefined): HTMLElement[] {
    if (mine === undefined) return [];
    const out: HTMLElement[] = [];
    if (mine.after.length > 0) {
      out.push(
        h("details", { class: "after", open: true }, h("summary", {}, "What your provinces hold after these orders"),
          h("ul", { class: "after-list" }, ...mine.after.map((a) => h("li", {}, h("b", {}, `${this.name(a.province)}: `), UNITS.filter((u) => (a.units[u] ?? 0) > 0 || u === "ARM").map((u) => `${Math.round((a.units[u] ?? 0) * 100) / 100} ${u}`).join(", ")))),
        ),
      );
    }
    for (const risk of mine.risks) out.push(h("p", { class: "risk" }, `Risk: ${risk}`));
    if (mine.problem !== null) out.push(h("p", { class: "problem" }, `The server would refuse these orders: ${mine.problem}`));
    return out;
  }

  private buttons(): HTMLElement[] {
    const send = (ready: boolean): void => this.ctx.act({ kind: "orders", sets: this.draft().sets, ready });
    const total = this.draft().sets.reduce((n, s) => n + Object.keys(s).length - 1, 0);
    return [
      h(
        "div",
        { class: "row" },
        button("Send orders", () => send(false), { id: "wok-send", title: "Send the orders without being ready: you may change them later" }),
        button(total === 0 ? "Ready (no orders)" : "Ready", () => send(true), { id: "wok-ready", class: "primary" }),
      ),
    ];
  }
}
