// WoS Tactics in a room: the battlefield drawn with the room's own pack (`field.ts`, the
// art from `tactics_art`), the seat's choices from its legal actions as the server listed
// them (select a piece, walk it to a highlighted tile or stay, attack a highlighted enemy
// or not, end the turn), the forecast of an attack (hit, crit, damage, kill) from the
// view the server built with suite/tactics/rules/forecast.py, the pieces-per-turn count,
// the pack's sounds and the score lines; a finished battle's replay comes step by step
// through the room (`replay_step`), as every game's. No rule lives here.

import { button, fill, h } from "../dom";
import type { GameModule, GameRoom, RoomContext } from "../game";
import type * as P from "../protocol.gen";
import { BattleArt, PackSounds, loadArt } from "./art";
import { FieldView, type Cell, type Figure, type MarkKind } from "./field";
import { TacticsSetup } from "./setup";
import { describeEvent, unpackArea } from "./text";

type Action = P.TacticsAction;
type Kind = Action["kind"];
const LOG_KEEP = 60;

class TacticsRoom implements GameRoom {
  readonly parts;
  private view: P.TacticsView | null = null;
  /** The latest view of the match itself (the view shown may be a replay's step). */
  private live: P.TacticsView | null = null;
  private legal: Action[] = [];
  private art: BattleArt | null = null;
  private field: FieldView | null = null;
  private asked = false;
  private looked = false;
  private problems: readonly string[] = [];
  private artError = "";
  private hover: Cell | null = null;
  private readonly log: string[] = [];
  private readonly sounds = new PackSounds();
  private result: P.TacticsResult | null = null;
  private readonly stage = h("div", { class: "field-stage" });
  private readonly tools = h("div", { class: "field-tools row" });
  private readonly notes = h("div", { class: "pack-notes", id: "pack-problems", role: "status" });
  private readonly actions = h("section", { class: "actions", id: "room-actions" });
  private readonly info = h("section", { class: "piece-info", id: "tactics-info" });
  private readonly scores = h("section", { class: "scores", id: "tactics-scores" });
  private readonly logBox = h("section", { class: "log", id: "room-log" });

  constructor(private readonly ctx: RoomContext) {
    const board = h("div", { class: "boardbox tactics", id: "room-boardbox" }, this.notes, this.stage, this.tools);
    this.parts = { board, side: [this.actions, this.info], after: [this.scores, this.logBox] };
    this.stage.append(h("p", { class: "muted loading" }, "Loading the pack's pictures…"));
  }

  opened(room: P.Room): void {
    if (this.asked) return;
    this.asked = true;
    this.ctx.net.send({ type: "tactics_art_request", code: this.ctx.code });
    // A battle over before this page came: ask what it changed on the ladder (a battle
    // that ends while the page is here sends it by itself).
    if (room.phase === "over") this.ctx.net.send({ type: "tactics_result_request", code: this.ctx.code });
  }

  receive(m: P.ServerMessage): boolean {
    switch (m.type) {
      case "tactics_art":
        if (m.code !== this.ctx.code) return false;
        this.problems = m.problems;
        void this.takeArt(m.url);
        return true;
      case "tactics_result":
        if (m.code !== this.ctx.code) return false;
        this.result = m;
        return true;
      default:
        return false;
    }
  }

  private async takeArt(url: string): Promise<void> {
    try {
      const { art, missing } = await loadArt(url);
      this.art = art;
      this.sounds.use(art.doc);
      if (missing > 0) this.artError = `${missing} of the pack's pictures could not be shown.`;
      this.field = new FieldView(
        art,
        (cells) => cells.find((cell) => this.pick(cell)),
        (cell) => this.hovered(cell),
      );
      fill(this.stage, this.field.canvas);
      this.lookAtArmy();
    } catch (error) {
      this.artError = error instanceof Error ? error.message : String(error);
      fill(this.stage, h("p", { class: "notice" }, this.artError));
    }
    this.ctx.render();
  }

  takeView(m: P.ViewMsg, legal: readonly unknown[]): void {
    const view = m.view as P.TacticsView;
    if (view.kind !== "tactics") return;
    this.legal = [...(legal as Action[])];
    const replaying = this.ctx.replaying();
    if (replaying) this.log.length = 0; // a replay's step shows its own events
    else this.live = view;
    this.showView(view, m.events, replaying);
  }

  private showView(view: P.TacticsView, events: unknown, replaying: boolean): void {
    const before = this.view;
    this.view = view;
    this.lookAtArmy();
    this.hover = null;
    if (Array.isArray(events)) this.playEvents(events as P.TacticsEvent[], before ?? view, replaying);
  }

  /** Once the field and a view are there: turn the camera to this seat's army (or the
   * army to play), for a field too large to show whole at a size one can tap. */
  private lookAtArmy(): void {
    const v = this.view;
    if (this.field === null || v === null || this.looked) return;
    this.looked = true;
    const seat = this.ctx.seat() ?? v.current ?? 0;
    const mine = v.pieces.filter((p) => p.alive && p.owner === seat);
    if (mine.length === 0) return;
    const x = mine.reduce((sum, p) => sum + p.x, 0) / mine.length;
    const y = mine.reduce((sum, p) => sum + p.y, 0) / mine.length;
    this.field.lookAt([Math.round(x), Math.round(y)]);
  }

  moreLegal(actions: readonly unknown[]): void {
    this.legal = this.legal.concat(actions as Action[]);
  }

  hasView(): boolean {
    return this.view !== null;
  }

  turn(): { turn: number; awaiting: readonly number[]; phase: string } | null {
    const v = this.view;
    if (v === null) return null;
    return { turn: v.round, awaiting: v.current === null ? [] : [v.current], phase: v.phase };
  }

  // -- events: animations, sounds, the log --------------------------------------------------

  private piece(uid: number, view: P.TacticsView | null = this.view): P.PieceView | undefined {
    return view?.pieces.find((p) => p.uid === uid);
  }

  private army(seat: number): number {
    return this.view?.seats[seat]?.colour ?? seat;
  }

  private playEvents(events: readonly P.TacticsEvent[], before: P.TacticsView, replaying: boolean): void {
    const me = this.ctx.seat();
    for (const event of events) {
      const line = describeEvent(event, (uid) => this.pieceName(uid, before), (seat) => this.teamName(seat));
      if (line !== null) this.log.push(line);
      const field = this.field;
      switch (event.kind) {
        case "piece_selected":
          this.sounds.piece(this.piece(event.piece)?.kind ?? 0, "ready");
          break;
        case "piece_moved":
          field?.walk(event.piece, event.path);
          this.sounds.piece(this.piece(event.piece)?.kind ?? 0, "go");
          break;
        case "attack_resolved": {
          const text = event.result === "miss" ? "miss" : `-${event.damage}${event.result === "crit" ? "!" : ""}`;
          const colour = event.result === "miss" ? "#d6dae6" : event.result === "crit" ? "#ffb020" : "#ff6a5a";
          field?.strike(event.attacker, event.target, text, colour);
          const kind = this.piece(event.attacker)?.kind ?? 0;
          this.sounds.piece(kind, "attack");
          this.sounds.piece(kind, event.result);
          if (event.damage > 0 && event.target_hp > 0) this.sounds.piece(this.piece(event.target)?.kind ?? 0, "pain");
          break;
        }
        case "piece_died":
          this.sounds.piece(this.piece(event.piece)?.kind ?? 0, "death");
          break;
        case "turn_started":
          if (!replaying && event.seat === me) this.sounds.namedSet("turn");
          break;
        case "game_over":
          if (me !== null && !replaying) this.sounds.namedSet(event.outcome.winners.includes(me) ? "win" : "lose");
          break;
        default:
          break;
      }
    }
    while (this.log.length > LOG_KEEP) this.log.shift();
  }

  private pieceName(uid: number, view: P.TacticsView | null = this.view): string {
    const p = this.piece(uid, view) ?? this.piece(uid);
    if (p === undefined) return `piece ${uid}`;
    return `${this.teamName(p.owner)} ${p.name}`;
  }

  private teamName(seat: number): string {
    const team = this.view?.seats[seat]?.team ?? "";
    const name = this.ctx.seatName(seat);
    return team === "" ? name : `${name} (${team})`;
  }

  // -- choosing on the field ----------------------------------------------------------------

  private of<K extends Kind>(kind: K): Extract<Action, { kind: K }>[] {
    return this.legal.filter((a): a is Extract<Action, { kind: K }> => a.kind === kind);
  }

  private myTurn(): boolean {
    const seat = this.ctx.seat();
    return !this.ctx.replaying() && this.view !== null && seat !== null && this.view.current === seat && this.ctx.phase() === "playing";
  }

  private act(action: Action): void {
    this.ctx.act(action);
    this.legal = [];
    this.ctx.render();
  }

  private pieceAt(cell: Cell): P.PieceView | undefined {
    return this.view?.pieces.find((p) => p.alive && p.x === cell[0] && p.y === cell[1]);
  }

  /** A cell was clicked or tapped. */
  /** A cell was clicked, tapped or picked with the keyboard: act when it names one of the
   * seat's legal actions (whether it did). */
  private pick(cell: Cell): boolean {
    if (!this.myTurn() || this.view === null) return false;
    const here = this.pieceAt(cell);
    const selected = this.view.selected === null ? undefined : this.piece(this.view.selected);
    const mine = selected !== undefined && selected.x === cell[0] && selected.y === cell[1];
    const action =
      (here === undefined ? undefined : this.of("select").find((a) => a.piece === here.uid)) ??
      this.of("move").find((a) => a.x === cell[0] && a.y === cell[1]) ??
      (here === undefined ? undefined : this.of("attack").find((a) => a.target === here.uid)) ??
      (mine ? (this.of("skip_move")[0] ?? this.of("skip_attack")[0]) : undefined);
    if (action === undefined) return false;
    this.act(action);
    return true;
  }

  private hovered(cell: Cell | null): void {
    const same = cell === null ? this.hover === null : this.hover !== null && this.hover[0] === cell[0] && this.hover[1] === cell[1];
    if (same) return;
    this.hover = cell;
    this.renderField();
    this.renderInfo();
  }

  key(event: KeyboardEvent): boolean {
    if (this.field === null) return false;
    if (event.key === "r" || event.key === "R") this.field.rotate();
    else if (event.key === "+" || event.key === "=") this.field.zoomBy(1.25);
    else if (event.key === "-") this.field.zoomBy(0.8);
    else return false;
    return true;
  }

  // -- drawing ------------------------------------------------------------------------------

  render(): void {
    this.renderNotes();
    this.renderTools();
    this.renderActions();
    this.renderInfo();
    this.renderScores();
    if (this.log.length === 0) fill(this.logBox);
    else fill(this.logBox, h("h2", {}, "Latest"), h("ol", { class: "events" }, ...this.log.slice(-12).map((line) => h("li", {}, line))));
    this.renderField();
  }

  private renderNotes(): void {
    const items: HTMLElement[] = [];
    if (this.problems.length > 0) {
      items.push(
        h("p", { class: "notice" }, "This pack has problems: broken pictures are drawn as placeholders, broken sounds stay silent."),
        h("ul", { class: "problems" }, ...this.problems.map((p) => h("li", {}, p))),
      );
    }
    if (this.artError !== "" && this.art !== null) items.push(h("p", { class: "notice" }, this.artError));
    fill(this.notes, ...items);
  }

  private renderTools(): void {
    const field = this.field;
    if (field === null) {
      fill(this.tools);
      return;
    }
    const sound = button(this.sounds.on ? "Sound on" : "Sound off", () => {
      this.sounds.on = !this.sounds.on;
      this.renderTools();
    }, { "aria-pressed": this.sounds.on ? "true" : "false", id: "sound" });
    fill(
      this.tools,
      button("⟳ Rotate", () => field.rotate(), { id: "rotate", title: "Rotate the field (R)" }),
      button("−", () => field.zoomBy(0.8), { id: "zoom-out", "aria-label": "Zoom out", title: "Zoom out (-)" }),
      button("+", () => field.zoomBy(1.25), { id: "zoom-in", "aria-label": "Zoom in", title: "Zoom in (+)" }),
      sound,
    );
  }

  /** The pieces and highlights on the field. */
  private renderField(): void {
    const field = this.field;
    const v = this.view;
    if (field === null || v === null) return;
    const acting = new Set(v.commandable);
    const figures: Figure[] = v.pieces
      .filter((p) => p.alive)
      .map((p) => ({ uid: p.uid, kind: p.kind, army: this.army(p.owner), x: p.x, y: p.y, hp: p.hp, maxHp: p.max_hp, dim: v.current === p.owner && !acting.has(p.uid) && v.selected !== p.uid }));
    field.setFigures(figures);
    const marks = new Map<string, MarkKind[]>();
    const mark = (x: number, y: number, kind: MarkKind): void => {
      const key = `${x},${y}`;
      const list = marks.get(key) ?? [];
      if (!list.includes(kind)) list.push(kind);
      marks.set(key, list);
    };
    const selected = v.selected === null ? undefined : this.piece(v.selected);
    if (selected !== undefined) {
      const hoverReach = this.hover === null ? undefined : v.reach.find((r) => r.x === this.hover?.[0] && r.y === this.hover?.[1]);
      const from: Cell = hoverReach === undefined ? [selected.x, selected.y] : [hoverReach.x, hoverReach.y];
      const area = hoverReach === undefined ? v.area : hoverReach.area;
      for (const [x, y] of unpackArea(from, area, selected.range)) mark(x, y, "area");
      for (const r of v.reach) mark(r.x, r.y, "reach");
      for (const uid of hoverReach === undefined ? v.targets : hoverReach.targets) {
        const t = this.piece(uid);
        if (t !== undefined) mark(t.x, t.y, "target");
      }
      mark(selected.x, selected.y, "selected");
    }
    if (this.myTurn()) {
      for (const a of this.of("select")) {
        const p = this.piece(a.piece);
        if (p !== undefined) mark(p.x, p.y, "pick");
      }
    }
    field.setMarks(marks);
    const picks: { label: string; cell: Cell }[] = [];
    if (this.myTurn()) {
      for (const a of this.of("select")) {
        const p = this.piece(a.piece);
        if (p !== undefined) picks.push({ label: "select", cell: [p.x, p.y] });
      }
      for (const a of this.of("move")) picks.push({ label: "move", cell: [a.x, a.y] });
      for (const a of this.of("attack")) {
        const p = this.piece(a.target);
        if (p !== undefined) picks.push({ label: "attack", cell: [p.x, p.y] });
      }
      // where the enemies stand (not a pick: what a player sees, for the tests' choices)
      for (const p of v.pieces) if (p.alive && p.owner !== this.ctx.seat()) picks.push({ label: "foe", cell: [p.x, p.y] });
    }
    field.setPicks(picks, this.ctx.replaying() ? `replay-${v.round}` : String(this.ctx.stateId()));
    field.canvas.dataset.phase = this.myTurn() ? v.phase : "wait";
  }

  private renderActions(): void {
    const v = this.view;
    if (v === null || !this.myTurn()) {
      fill(this.actions);
      return;
    }
    const items: HTMLElement[] = [];
    const selected = v.selected === null ? undefined : this.piece(v.selected);
    if (v.phase === "select") items.push(h("p", { class: "hint" }, "Pick one of your highlighted pieces."));
    if (v.phase === "move" && selected !== undefined) items.push(h("p", { class: "hint" }, `Move ${selected.name} to a highlighted tile (or click it to stay).`));
    if (v.phase === "attack" && selected !== undefined) {
      items.push(h("p", { class: "hint" }, this.of("attack").length > 0 ? `${selected.name} may attack an enemy on a red tile:` : `${selected.name} has nobody in range.`));
      for (const a of this.of("attack")) {
        const target = this.piece(a.target);
        const odds = v.odds.find((o) => o.target === a.target);
        if (target === undefined) continue;
        const label = odds === undefined ? `Attack ${this.pieceName(target.uid)}` : `Attack ${target.name}: ${forecastText(odds)}`;
        items.push(button(label, () => this.act(a), { "data-kind": "attack", class: "attack" }));
      }
    }
    const simple: [Kind, string][] = [
      ["skip_move", "Stay here"],
      ["skip_attack", "Don't attack"],
      ["end_turn", "End turn"],
    ];
    for (const [kind, label] of simple) {
      const action = this.legal.find((a) => a.kind === kind);
      if (action !== undefined) items.push(button(label, () => this.act(action), { "data-kind": kind }));
    }
    const left = v.pieces_left_this_turn;
    items.push(h("p", { class: "muted" }, left === null ? "This turn: every rested piece may act." : `Pieces left this turn: ${left} of ${v.pieces_per_turn}`));
    fill(this.actions, h("h2", {}, "Your move"), ...items);
  }

  /** The piece under the pointer (or the selected one), and the forecast against an
   * enemy under the pointer, as the view gives them. */
  private renderInfo(): void {
    const v = this.view;
    if (v === null) {
      fill(this.info);
      return;
    }
    const hovered = this.hover === null ? undefined : this.pieceAt(this.hover);
    const selected = v.selected === null ? undefined : this.piece(v.selected);
    const shown = hovered ?? selected;
    const items: HTMLElement[] = [];
    if (shown !== undefined) {
      const swatch = h("span", { class: "swatch" });
      swatch.style.background = this.art?.army(this.army(shown.owner)) ?? "#888";
      items.push(h("h2", {}, swatch, `${shown.name} · level ${shown.level}`));
      const xp = shown.xp === null ? "" : ` · XP ${shown.xp}/${shown.xp_next ?? "?"}`;
      items.push(
        h("p", {}, `HP ${shown.hp}/${shown.max_hp} · rest ${shown.rest}${xp}`),
        h("p", { class: "muted" }, `STR ${shown.strength} · DEF ${shown.defense} · AGI ${shown.agility} · MOB ${shown.mobility} · range ${shown.min_range > 0 ? `${shown.min_range}-` : ""}${shown.range} · ${shown.weapon}`),
      );
      const odds = selected !== undefined && shown.owner !== selected.owner ? v.odds.find((o) => o.target === shown.uid) : undefined;
      if (odds !== undefined) items.push(h("p", { class: "odds" }, `${selected?.name ?? ""} against it: ${forecastText(odds)}`));
    }
    fill(this.info, ...items);
  }

  private renderScores(): void {
    const v = this.view;
    if (v === null) {
      fill(this.scores);
      return;
    }
    const rows = v.seats.map((line) => {
      const swatch = h("span", { class: "swatch" });
      swatch.style.background = this.art?.army(line.colour) ?? "#888";
      const current = v.current === line.seat ? "▶ " : "";
      return h("li", { class: line.eliminated ? "out" : "" }, swatch, `${current}${this.ctx.seatName(line.seat)}: ${line.pieces_left} ${line.pieces_left === 1 ? "piece" : "pieces"} · ${line.total_hp} HP${line.eliminated ? " · out" : ""}`);
    });
    const title = v.outcome === null ? `Round ${v.round} of ${v.rules.max_rounds}` : `Over after ${Math.max(1, v.round - 1)} ${v.round === 2 ? "round" : "rounds"}`;
    fill(this.scores, h("h2", {}, title), h("ul", { class: "score-lines" }, ...rows));
  }

  statusLines(): HTMLElement[] {
    const v = this.view;
    const seat = this.ctx.seat();
    if (v === null || seat === null || this.art === null) return [];
    const line = v.seats[seat];
    if (line === undefined) return [];
    const swatch = h("span", { class: "swatch" });
    swatch.style.background = this.art.army(line.colour);
    return [h("p", {}, swatch, `Your army: ${line.team}`)];
  }

  seatFacts(seat: number): string[] {
    const line = this.view?.seats[seat];
    if (line === undefined || this.ctx.phase() === "lobby") return [];
    return [line.team, `${line.pieces_left} ${line.pieces_left === 1 ? "piece" : "pieces"}`, ...(line.eliminated ? ["out"] : [])];
  }

  colour(seat: number): string | null {
    const line = this.view?.seats[seat];
    return line === undefined || this.art === null ? null : this.art.army(line.colour);
  }

  endLines(): HTMLElement[] {
    const v = this.live;
    if (v === null) return [];
    const ladder = this.result === null ? [] : [h("h3", {}, "Ratings and war points"), h("ul", { class: "ladder", id: "ladder" }, ...this.result.lines.map((l) => h("li", {}, ladderText(l))))];
    return [...ladder, h("p", { class: "muted" }, "Left standing: " + v.seats.map((l) => `${this.ctx.seatName(l.seat)} ${l.pieces_left} pieces, ${l.total_hp} HP`).join(" · "))];
  }
}

/** One seat's line of the server's ladder after the battle. */
function ladderText(l: P.TacticsResultLine): string {
  const sign = (n: number): string => (n >= 0 ? `+${n}` : String(n));
  const rating = l.rating === null ? "a bot: not rated" : `rating ${Math.round(l.rating)} (${sign(Math.round(l.change))})`;
  const tokens = l.new_tokens.length === 0 ? "" : ` · new tokens ${l.new_tokens.join(", ")}`;
  return `${l.name}: ${rating} · war points ${sign(l.war_points)} (${l.war_total} in all) · ${l.wins} won, ${l.losses} lost · level ${l.level}${tokens}`;
}

/** An attack's forecast in words, from the server's numbers. */
function forecastText(o: P.TacticsOdds): string {
  const hit = Math.round(100 - o.miss);
  return `${hit}% to hit · ${Math.round(o.crit)}% crit · ${o.hit_damage} damage (${o.crit_damage} on a crit) · ${Math.round(o.kill_chance)}% to kill`;
}

export const tactics: GameModule = {
  name: "tactics",
  setup: (net) => new TacticsSetup(net),
  room: (ctx) => new TacticsRoom(ctx),
};
