// The Book of Tactics' army picker: the 3x3 formation, each slot a button showing its
// piece (its picture in the pack's own art, its name and "17/7"); a slot opens the piece
// menu (every piece an army may hold, with its max# and requirement) and a pick fills it.
// Whether the army is allowed (max#, requirements) is the server's answer when the room
// is created: the menu only shows what the pack says.

import { button, fill, h } from "../dom";
import type * as P from "../protocol.gen";

export class ArmyPicker {
  readonly el: HTMLElement;
  private readonly slots: number[];
  private open: number | null = null;
  private readonly grid: HTMLElement;
  private readonly menu: HTMLElement;
  private readonly pieces: ReadonlyMap<number, P.TacticsPieceEntry>;

  constructor(
    private readonly seat: number,
    private readonly setup: P.TacticsSetup,
  ) {
    const side = setup.formation_side;
    this.slots = Array.from({ length: side * side }, () => 0);
    this.pieces = new Map(setup.pieces.map((p) => [p.id, p]));
    this.grid = h("div", { class: "formation", role: "group", "aria-label": `Seat ${seat + 1}'s formation, front row first` });
    this.grid.style.gridTemplateColumns = `repeat(${side}, minmax(0, 1fr))`;
    this.menu = h("div", { class: "piece-menu", hidden: true });
    this.el = h("div", { class: "picker" }, this.grid, this.menu);
    this.render();
  }

  /** The formation, piece ids row by row (0: an empty slot). */
  value(): number[] {
    return [...this.slots];
  }

  private picture(piece: P.TacticsPieceEntry | undefined): HTMLElement | null {
    if (piece === undefined || piece.portrait === "") return null;
    return h("img", { src: piece.portrait, alt: "", width: 48, height: 48, loading: "lazy" });
  }

  private render(): void {
    const side = this.setup.formation_side;
    fill(
      this.grid,
      ...this.slots.map((id, i) => {
        const piece = this.pieces.get(id);
        const where = `row ${Math.floor(i / side) + 1}, column ${(i % side) + 1}`;
        const label = piece === undefined ? `Slot ${i + 1} (${where}): empty` : `Slot ${i + 1} (${where}): ${piece.name} ${piece.short}`;
        const slot = button("", () => this.toggle(i), { id: `slot-${this.seat}-${i}`, class: i === this.open ? "slot open" : "slot", "aria-label": label, "aria-expanded": i === this.open ? "true" : "false" });
        slot.append(...[this.picture(piece), h("span", { class: "name" }, piece?.name ?? "empty"), piece === undefined ? null : h("span", { class: "short" }, piece.short)].filter((x): x is HTMLElement => x !== null));
        return slot;
      }),
    );
    this.menu.hidden = this.open === null;
    if (this.open === null) {
      fill(this.menu);
      return;
    }
    const entries = [
      button("(empty)", () => this.choose(0), { "data-piece": 0, class: "entry" }),
      ...this.setup.pieces.map((p) => {
        const facts = [p.short, p.max_count > 0 ? `max ${p.max_count}` : "", p.requirements === "" ? "" : `needs ${p.requirements}`].filter((f) => f !== "").join(" · ");
        const entry = button("", () => this.choose(p.id), { "data-piece": p.id, class: "entry", title: `HP ${p.hp} · STR ${p.strength} · DEF ${p.defense} · AGI ${p.agility} · MOB ${p.mobility} · RNG ${p.range} · ${p.weapon}` });
        entry.append(...[this.picture(p), h("span", { class: "name" }, p.name), h("span", { class: "facts" }, facts)].filter((x): x is HTMLElement => x !== null));
        return entry;
      }),
    ];
    fill(this.menu, h("p", { class: "muted" }, `Slot ${this.open + 1}: pick a piece`), h("div", { class: "entries" }, ...entries));
  }

  private toggle(slot: number): void {
    this.open = this.open === slot ? null : slot;
    this.render();
  }

  private choose(piece: number): void {
    if (this.open === null) return;
    const slot = this.open;
    this.slots[slot] = piece;
    this.open = null;
    this.render();
    (this.grid.querySelector(`#slot-${this.seat}-${slot}`) as HTMLElement | null)?.focus();
  }
}
