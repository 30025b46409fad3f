// The board, drawn as SVG from the server's `board` pages: territory shapes (or discs
// where a map gives none), a Domination map's own picture under them, sea lanes as
// dashed lines, and per territory its owner's colour and its armies. Territories are
// focusable buttons (Enter or Space picks one, as a click or a tap does). Drawing
// happens only when `update` is called with something new: nothing animates.

import { s, on } from "../dom";
import type * as P from "../protocol.gen";
import { UNOWNED, seatColour } from "../colours";

export type Mark = "source" | "target" | "pickable";

interface Drawn {
  readonly group: SVGGElement;
  readonly shape: SVGElement;
  readonly disc: SVGCircleElement;
  readonly count: SVGTextElement;
  key: string;
}

function centroid(points: readonly (readonly [number, number])[]): [number, number] {
  let x = 0;
  let y = 0;
  for (const [px, py] of points) {
    x += px;
    y += py;
  }
  return [x / points.length, y / points.length];
}

export class BoardView {
  readonly el: SVGSVGElement;
  readonly territories: P.BoardTerritory[];
  private readonly drawn: Drawn[] = [];
  private readonly centres: [number, number][] = [];

  constructor(pages: readonly P.Board[], onPick: (index: number) => void) {
    const first = pages[0];
    if (first === undefined) throw new Error("a board has at least one page");
    this.territories = pages.flatMap((page) => page.territories);
    const n = this.territories.length;
    // Where each territory's armies go: its label, the middle of its shape, or a ring.
    this.territories.forEach((t, i) => {
      if (t.label !== null && t.label !== undefined) this.centres.push([t.label[0], t.label[1]]);
      else if (t.polygon !== undefined && t.polygon.length > 0) this.centres.push(centroid(t.polygon));
      else {
        const angle = (2 * Math.PI * i) / n;
        this.centres.push([500 + 400 * Math.cos(angle), 500 + 400 * Math.sin(angle)]);
      }
    });
    const xs: number[] = [];
    const ys: number[] = [];
    for (const t of this.territories) for (const [x, y] of t.polygon ?? []) xs.push(x), ys.push(y);
    for (const [x, y] of this.centres) xs.push(x), ys.push(y);
    const art = first.artwork ?? null;
    let [minX, minY, maxX, maxY] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    if (art !== null) [minX, minY, maxX, maxY] = [0, 0, art.width, art.height];
    const pad = art === null ? 20 : 0;
    const width = maxX - minX + 2 * pad;
    const height = maxY - minY + 2 * pad;
    const scale = Math.max(width, height) / 900;
    this.el = s("svg", {
      viewBox: `${minX - pad} ${minY - pad} ${width} ${height}`,
      class: "board",
      role: "group",
      "aria-label": first.name,
      preserveAspectRatio: "xMidYMid meet",
    });
    if (art !== null) this.el.append(s("image", { href: art.url, x: 0, y: 0, width: art.width, height: art.height }));
    const index = new Map(this.territories.map((t, i) => [t.id, i]));
    const lanes = s("g", { class: "lanes" });
    this.territories.forEach((t, i) => {
      for (const other of t.sea_lanes ?? []) {
        const j = index.get(other);
        if (j === undefined || j < i) continue;
        const [x1, y1] = this.centres[i] ?? [0, 0];
        const [x2, y2] = this.centres[j] ?? [0, 0];
        lanes.append(s("line", { x1, y1, x2, y2, "stroke-width": 2 * scale }));
      }
    });
    this.el.append(lanes);
    const radius = 14 * scale;
    this.territories.forEach((t, i) => {
      const [cx, cy] = this.centres[i] ?? [0, 0];
      const shape: SVGElement =
        t.polygon !== undefined && t.polygon.length > 2
          ? s("polygon", { points: t.polygon.map(([x, y]) => `${x},${y}`).join(" "), class: "land" })
          : s("circle", { cx, cy, r: radius * 1.8, class: "land" });
      if (art !== null) shape.classList.add("over-art");
      const disc = s("circle", { cx, cy, r: radius, class: "disc" });
      const count = s("text", { x: cx, y: cy, class: "count", "font-size": radius * 1.15, dy: "0.35em" });
      const group = s("g", {
        class: "territory",
        tabindex: 0,
        role: "button",
        "data-id": t.id,
        "data-index": i,
        "aria-label": t.name,
      }, s("title", {}, t.name), shape, disc, count);
      on(group, "click", () => onPick(i));
      on(group, "keydown", (event) => {
        const key = (event as KeyboardEvent).key;
        if (key === "Enter" || key === " ") {
          event.preventDefault();
          onPick(i);
        }
      });
      this.el.append(group);
      this.drawn.push({ group, shape, disc, count, key: "" });
    });
  }

  /** Show owners, armies, capitals and the marks of the current choice. */
  update(owner: readonly number[], armies: readonly number[], marks: ReadonlyMap<number, Mark>, capitals: readonly number[]): void {
    this.drawn.forEach((d, i) => {
      const who = owner[i] ?? -1;
      const mark = marks.get(i) ?? "";
      const capital = capitals.includes(i);
      const key = `${who}|${armies[i] ?? 0}|${mark}|${capital}`;
      if (key === d.key) return;
      d.key = key;
      const colour = who >= 0 ? seatColour(who) : UNOWNED;
      d.shape.setAttribute("fill", colour);
      d.disc.setAttribute("fill", colour);
      d.count.textContent = String(armies[i] ?? 0);
      d.group.classList.toggle("source", mark === "source");
      d.group.classList.toggle("target", mark === "target");
      d.group.classList.toggle("pickable", mark === "pickable");
      d.group.classList.toggle("capital", capital);
      const t = this.territories[i];
      const owned = who >= 0 ? `, seat ${who + 1}` : "";
      d.group.setAttribute("aria-label", `${t?.name ?? ""}: ${armies[i] ?? 0} armies${owned}${capital ? ", capital" : ""}`);
    });
  }
}
