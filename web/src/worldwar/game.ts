// World War in a room: the board drawn from the server's `board` pages, the seat's own
// view (only its own hand and mission), the turn's choices built from the seat's legal
// actions as the server listed them, and an attack's odds from the server
// (`odds_request`). No rule lives here.

import { BoardView, type Mark } from "./board";
import { button, fill, h, on } from "../dom";
import type { GameModule, GameRoom, RoomContext } from "../game";
import type * as P from "../protocol.gen";
import { lineChart } from "../chart";
import { describeEvent, territoryName } from "./text";
import { WorldWarSetup } from "./setup";

type Action = P.WorldWarAction;
type Kind = Action["kind"];

const SIMPLE: Partial<Record<Kind, string>> = {
  auto_place: "Place the rest automatically",
  skip_turn_in: "Keep my cards",
  end_attack: "Stop attacking",
  end_turn: "End turn",
};
const LOG_KEEP = 60;

class WorldWarRoom implements GameRoom {
  readonly parts;
  private view: P.WorldWarView | null = null;
  private legal: Action[] = [];
  private readonly log: string[] = [];
  /** Territories per seat at the first view of each turn shown, in turn order. */
  private history: { turn: number; counts: number[] }[] = [];
  private pages: P.Board[] = [];
  private asked = false;
  private board: BoardView | null = null;
  private source: number | null = null;
  private target: number | null = null;
  private odds: P.Odds | null = null;
  private placeAmount = 1;
  private readonly actions = h("section", { class: "actions", id: "room-actions" });
  private readonly hand = h("section", { class: "hand", id: "room-hand" });
  private readonly stats = h("section", { class: "stats", id: "room-stats" });
  private readonly logBox = h("section", { class: "log", id: "room-log" });

  constructor(private readonly ctx: RoomContext) {
    this.parts = { board: h("div", { class: "boardbox", id: "room-boardbox" }), side: [this.actions, this.hand], after: [this.stats, this.logBox] };
  }

  opened(): void {
    if (this.asked) return;
    this.asked = true;
    this.ctx.net.send({ type: "board_request", code: this.ctx.code, page: 0 });
  }

  receive(m: P.ServerMessage): boolean {
    switch (m.type) {
      case "board":
        this.takeBoard(m);
        return true;
      case "events":
        for (const update of m.updates) this.logEvents(update.events);
        return true;
      case "odds":
        this.odds = m;
        return true;
      default:
        return false;
    }
  }

  private takeBoard(m: P.Board): void {
    if (m.code !== this.ctx.code || m.page !== this.pages.length) return;
    this.pages.push(m);
    if (this.pages.length < m.pages) {
      this.ctx.net.send({ type: "board_request", code: this.ctx.code, page: this.pages.length });
      return;
    }
    this.board = new BoardView(this.pages, (i) => this.pick(i));
    fill(this.parts.board, this.board.el);
  }

  takeView(m: P.ViewMsg, legal: readonly unknown[]): void {
    const view = m.view as P.WorldWarView;
    if (view.kind !== "worldwar") return;
    const turnChanged = this.view === null || this.view.turn !== view.turn;
    this.view = view;
    if (this.ctx.replaying()) this.log.length = 0; // a replay's step shows its own events
    this.logEvents(m.events);
    if (turnChanged) {
      // A replay may go back: the turns after the one shown are forgotten.
      this.history = this.history.filter((entry) => entry.turn < view.turn);
      this.history.push({ turn: view.turn, counts: [...view.territory_counts] });
    }
    this.legal = [...(legal as Action[])];
    this.clearChoice();
  }

  moreLegal(actions: readonly unknown[]): void {
    this.legal = this.legal.concat(actions as Action[]);
  }

  hasView(): boolean {
    return this.view !== null;
  }

  turn(): { turn: number; awaiting: readonly number[]; phase: string } | null {
    const v = this.view;
    return v === null ? null : { turn: v.turn, awaiting: v.awaiting, phase: v.phase };
  }

  private logEvents(events: unknown): void {
    if (!Array.isArray(events) || this.view === null) return;
    for (const event of events as P.WorldWarEvent[]) {
      const line = describeEvent(event, this.view, (seat) => this.ctx.seatName(seat));
      if (line !== null) this.log.push(line);
    }
    while (this.log.length > LOG_KEEP) this.log.shift();
  }

  private clearChoice(): void {
    this.source = this.target = null;
    this.odds = null;
  }

  private index(id: string): number {
    return this.view === null ? -1 : this.view.map.territories.indexOf(id);
  }

  private myTurn(): boolean {
    const seat = this.ctx.seat();
    return this.view !== null && seat !== null && this.view.awaiting.includes(seat) && this.ctx.phase() === "playing";
  }

  private act(action: Action): void {
    this.ctx.act(action);
    this.legal = [];
    this.clearChoice();
    this.ctx.render();
  }

  // -- choosing on the board -------------------------------------------------------------

  private of<K extends Kind>(kind: K): Extract<Action, { kind: K }>[] {
    return this.legal.filter((a): a is Extract<Action, { kind: K }> => a.kind === kind);
  }

  /** The territories a click may pick now, and how the current choice is marked. */
  private marks(): Map<number, Mark> {
    const marks = new Map<number, Mark>();
    if (!this.myTurn()) return marks;
    const add = (id: string, mark: Mark): void => {
      const i = this.index(id);
      if (i >= 0 && !marks.has(i)) marks.set(i, mark);
    };
    if (this.source !== null) marks.set(this.source, "source");
    if (this.target !== null) marks.set(this.target, "target");
    for (const a of this.of("place")) add(a.territory, "pickable");
    const moves = [...this.of("attack"), ...this.of("blitz"), ...this.of("fortify")];
    const src = this.source === null ? null : this.view?.map.territories[this.source];
    for (const a of moves) {
      if (src === null) add(a.source, "pickable");
      else if (a.source === src) add(a.target, "pickable");
    }
    return marks;
  }

  /** A territory was clicked, tapped or chosen with the keyboard. */
  private pick(i: number): void {
    if (!this.myTurn() || this.view === null) return;
    const id = this.view.map.territories[i];
    if (id === undefined) return;
    const places = this.of("place").filter((a) => a.territory === id);
    if (places.length > 0) {
      const most = Math.max(...places.map((a) => a.armies));
      const wanted = Math.min(this.placeAmount, most);
      const chosen = places.find((a) => a.armies === wanted) ?? places[0];
      if (chosen !== undefined) this.act(chosen);
      return;
    }
    const moves = [...this.of("attack"), ...this.of("blitz"), ...this.of("fortify")];
    if (this.source !== null && i === this.source) {
      this.clearChoice();
    } else if (this.source !== null && moves.some((a) => a.source === this.view?.map.territories[this.source ?? -1] && a.target === id)) {
      this.target = i;
      this.odds = null;
      const attacking = this.of("attack").some((a) => a.target === id) || this.of("blitz").some((a) => a.target === id);
      if (attacking) {
        this.ctx.net.send({
          type: "odds_request",
          code: this.ctx.code,
          attackers: this.view.armies[this.source] ?? 1,
          defenders: this.view.armies[i] ?? 1,
        });
      }
    } else if (moves.some((a) => a.source === id)) {
      this.source = i;
      this.target = null;
      this.odds = null;
    }
    this.ctx.render();
  }

  key(event: KeyboardEvent): boolean {
    if (event.key === "Escape" && (this.source !== null || this.target !== null)) {
      this.clearChoice();
      return true;
    }
    return false;
  }

  // -- drawing ---------------------------------------------------------------------------

  render(): void {
    this.renderActions();
    this.renderHand();
    this.renderStats();
    if (this.log.length === 0) fill(this.logBox);
    else fill(this.logBox, h("h2", {}, "Latest"), h("ol", { class: "events" }, ...this.log.slice(-12).map((line) => h("li", {}, line))));
    if (this.board !== null && this.view !== null) {
      this.board.update(this.view.owner, this.view.armies, this.marks(), this.view.capitals ?? []);
    }
  }

  statusLines(): HTMLElement[] {
    const v = this.view;
    const seat = this.ctx.seat();
    const items: HTMLElement[] = [];
    if (v === null) return items;
    const mission = v.mission;
    if (mission !== null && mission !== undefined) items.push(h("p", { class: "mission" }, `Your mission: ${this.missionText(mission, v)}`));
    if ((v.capitals ?? []).length > 0 && seat !== null) {
      const capital = v.capitals?.[seat];
      if (capital !== undefined) items.push(h("p", {}, `Your capital: ${territoryName(v, capital)}`));
    }
    return items;
  }

  seatFacts(seat: number): string[] {
    const v = this.view;
    if (v === null || this.ctx.phase() === "lobby") return [];
    const facts = [`${v.territory_counts[seat] ?? 0} terr.`];
    if (v.rules.has_cards) {
      const cards = v.hand_sizes?.[seat] ?? 0;
      facts.push(`${cards} ${cards === 1 ? "card" : "cards"}`);
    }
    if (v.alive[seat] === false) facts.push("out");
    return facts;
  }

  endLines(): HTMLElement[] {
    return [];
  }

  private missionText(mission: P.Mission, v: P.WorldWarView): string {
    if (mission.kind === "continents") {
      const names = (mission.continents ?? []).map((c) => v.map.continent_names[c] ?? "?");
      return `hold ${names.join(" and ")}`;
    }
    if (mission.kind === "territories") return `hold ${mission.territories ?? 0} territories with at least ${mission.min_armies ?? 1} armies each`;
    return `take the last territory of ${this.ctx.seatName(mission.target ?? -1)}`;
  }

  private renderActions(): void {
    const v = this.view;
    if (v === null || !this.myTurn()) {
      fill(this.actions);
      return;
    }
    const items: HTMLElement[] = [];
    const places = this.of("place");
    if (places.length > 0) {
      const most = Math.max(...places.map((a) => a.armies));
      this.placeAmount = Math.min(Math.max(1, this.placeAmount), most);
      const amount = h("select", { id: "place-amount", "aria-label": "Armies per click" });
      for (let n = 1; n <= most; n += 1) amount.append(h("option", { value: n, selected: n === this.placeAmount }, String(n)));
      on(amount, "change", () => (this.placeAmount = Number(amount.value)));
      items.push(h("p", {}, `Place ${v.phase === "setup" ? v.step_left : v.pool} armies: pick your territories.`), h("label", {}, "Armies per click ", amount));
    }
    if (v.must_turn_in && this.of("turn_in").length > 0) {
      const held = v.hand_cards?.length ?? 0;
      items.push(h("p", { class: "must-turn-in" }, `You hold ${held} cards: turn in a set first.`));
    }
    // Sets of cards that read the same (copies of one card) are one choice.
    const offered = new Set<string>();
    for (const turnIn of this.of("turn_in")) {
      const cards = turnIn.cards.map((id) => this.cardText(id)).sort().join(" + ");
      if (offered.has(cards)) continue;
      offered.add(cards);
      items.push(button(`Turn in ${cards}`, () => this.act(turnIn), { class: "turn-in" }));
    }
    for (const defend of this.of("defend")) items.push(button(`Defend with ${defend.dice} ${defend.dice === 1 ? "die" : "dice"}`, () => this.act(defend)));
    const occupy = this.of("occupy");
    if (occupy.length > 0 && v.occupy !== null && v.occupy !== undefined) {
      const range = v.occupy;
      const input = h("input", { type: "number", id: "occupy-armies", min: range.min, max: range.max, value: range.max, "aria-label": "Armies to move in" });
      items.push(
        h("p", {}, `Move armies into ${territoryName(v, range.target)} (${range.min} to ${range.max}).`),
        input,
        button("Move in", () => {
          const n = Number(input.value);
          const chosen = occupy.find((a) => a.armies === n) ?? occupy[occupy.length - 1];
          if (chosen !== undefined) this.act(chosen);
        }, { id: "occupy" }),
      );
    }
    items.push(...this.choiceButtons(v));
    for (const [kind, label] of Object.entries(SIMPLE)) {
      const action = this.legal.find((a) => a.kind === kind);
      if (action !== undefined) items.push(button(label, () => this.act(action), { "data-kind": kind }));
    }
    fill(this.actions, h("h2", {}, "Your move"), ...items);
  }

  /** The buttons for the attack or move picked on the board, with the server's odds. */
  private choiceButtons(v: P.WorldWarView): HTMLElement[] {
    const items: HTMLElement[] = [];
    const src = this.source === null ? undefined : v.map.territories[this.source];
    if (src === undefined) {
      if (this.of("attack").length + this.of("fortify").length > 0) items.push(h("p", { class: "hint" }, "Pick one of your territories to attack or move from."));
      return items;
    }
    const tgt = this.target === null ? undefined : v.map.territories[this.target];
    if (tgt === undefined) {
      items.push(h("p", { class: "hint" }, `From ${territoryName(v, this.source ?? 0)}: pick a territory.`));
      return items;
    }
    const attacks = this.of("attack").filter((a) => a.source === src && a.target === tgt);
    const blitz = this.of("blitz").filter((a) => a.source === src && a.target === tgt);
    if (attacks.length + blitz.length > 0) {
      items.push(h("p", {}, `${territoryName(v, this.source ?? 0)} attacks ${territoryName(v, this.target ?? 0)}`));
      if (this.odds !== null) {
        const o = this.odds;
        items.push(h("p", { class: "odds" }, `To the end: ${(o.win * 100).toFixed(1)} % to take it; you lose ${o.attacker_loss.toFixed(1)}, they lose ${o.defender_loss.toFixed(1)} on average`));
      }
      for (const a of attacks) items.push(button(`Roll ${a.dice} ${a.dice === 1 ? "die" : "dice"}`, () => this.act(a), { "data-kind": "attack" }));
      const all = blitz.find((a) => a.move_all === false) ?? blitz[0];
      if (all !== undefined) items.push(button("Attack until done", () => this.act(all), { "data-kind": "blitz" }));
    }
    const moves = this.of("fortify").filter((a) => a.source === src && a.target === tgt);
    if (moves.length > 0) {
      const most = Math.max(...moves.map((a) => a.armies));
      const input = h("input", { type: "number", id: "fortify-armies", min: 1, max: most, value: most, "aria-label": "Armies to move" });
      items.push(
        h("p", {}, `Move from ${territoryName(v, this.source ?? 0)} to ${territoryName(v, this.target ?? 0)}`),
        input,
        button("Move", () => {
          const chosen = moves.find((a) => a.armies === Number(input.value)) ?? moves[moves.length - 1];
          if (chosen !== undefined) this.act(chosen);
        }, { "data-kind": "fortify" }),
      );
    }
    return items;
  }

  private cardText(id: number): string {
    const card = this.view?.hand_cards?.find((c) => c.id === id);
    if (card === undefined) return `card ${id}`;
    return card.suit === "" ? card.rank : `${card.rank} ${card.suit}`;
  }

  private renderHand(): void {
    const v = this.view;
    const cards = v?.hand_cards ?? [];
    if (v === null || v.seat === null || !v.rules.has_cards) {
      fill(this.hand);
      return;
    }
    const next = v.next_set_value;
    fill(
      this.hand,
      h("h2", {}, "Your cards"),
      cards.length === 0 ? h("p", { class: "muted" }, "No cards.") : h("ul", { class: "cards" }, ...cards.map((c) => h("li", { class: "card" }, c.suit === "" ? c.rank : `${c.rank} ${c.suit}`))),
      next === null || next === undefined ? null : h("p", { class: "muted" }, `The next set is worth ${next}.`),
    );
  }

  /** Territories per seat over the turns (a small chart), shown once the match runs. */
  private renderStats(): void {
    const v = this.view;
    if (v === null || this.history.length < 2) {
      fill(this.stats);
      return;
    }
    const counts = this.history.map((entry) => entry.counts);
    fill(this.stats, h("h2", {}, "Territories by turn"), lineChart(counts, v.players, "Territories per player, turn by turn"));
  }
}

export const worldWar: GameModule = {
  name: "worldwar",
  setup: (net) => new WorldWarSetup(net),
  room: (ctx) => new WorldWarRoom(ctx),
};
