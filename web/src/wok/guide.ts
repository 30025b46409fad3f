// The guided first turn: on turn 1 a newcomer is walked through the turn, one box at a
// time: how a turn runs, then each phase that takes orders in the order it runs (the rule
// set's own words on it, from the server's draft report, with its tab opened), then what
// Ready does. Next moves on, Skip ends it; once ended it is not offered again in this
// browser.

import { button, fill, h } from "../dom";
import type { OrderForm, Phase } from "./orders";
import type * as W from "./types.gen";

const DONE_KEY = "warsuite.wok.guide";

function done(): boolean {
  try {
    return window.localStorage.getItem(DONE_KEY) === "done";
  } catch {
    return false;
  }
}

function remember(): void {
  try {
    window.localStorage.setItem(DONE_KEY, "done");
  } catch {
    // storage disabled: the guide is offered again next time
  }
}

interface Step {
  readonly title: string;
  readonly text: string;
  readonly phase?: Phase;
}

export class Guide {
  readonly el = h("section", { class: "wok-guide", id: "wok-guide", role: "dialog", "aria-label": "Guided first turn" });
  private step = 0;
  private active = !done();

  constructor(
    private readonly form: OrderForm,
    private readonly redraw: () => void,
  ) {}

  private steps(view: W.WokView, report: W.DraftReport): Step[] {
    const quiet = report.quiet.length > 0 ? ` (${report.quiet.join(", ")} need no orders)` : "";
    return [
      {
        title: "Your first turn",
        text: `${view.rules.title}: every player writes secret orders; when all are ready the turn runs for everyone at once, phase by phase, in the order of the tabs${quiet}. Pick a province on the map to start an order; the form says what it may do and what it risks.`,
      },
      ...report.phases.map((p) => ({ title: p.title, text: p.help, phase: p.phase })),
      { title: "Ready", text: "When your orders are in, press Ready: they are locked until the turn runs (Not ready unlocks them). Nobody else sees them." },
    ];
  }

  render(view: W.WokView | null, report: W.DraftReport | null): void {
    if (!this.active || view === null || report === null || view.turn !== 1 || !view.may_submit) {
      fill(this.el);
      return;
    }
    const steps = this.steps(view, report);
    const step = steps[Math.min(this.step, steps.length - 1)]!;
    const last = this.step >= steps.length - 1;
    const entered = step.phase === undefined ? 0 : this.form.entered(step.phase);
    fill(
      this.el,
      h("h2", {}, `Guide ${this.step + 1}/${steps.length}: ${step.title}`),
      h("p", {}, step.text),
      entered > 0 ? h("p", { class: "muted" }, `You entered ${entered}.`) : null,
      h(
        "div",
        { class: "row" },
        button(last ? "Done" : "Next", () => this.next(steps), { id: "guide-next", class: "primary" }),
        last ? null : button("Skip tour", () => this.close(), { id: "guide-skip" }),
      ),
    );
  }

  private next(steps: readonly Step[]): void {
    this.step += 1;
    if (this.step >= steps.length) {
      this.close();
      return;
    }
    const phase = steps[this.step]?.phase;
    if (phase !== undefined) this.form.showPhase(phase);
    this.redraw();
  }

  private close(): void {
    this.active = false;
    remember();
    this.redraw();
  }
}
