// WoK's map as SVG, drawn once from the room's `room_data` map (provinces' outlines,
// labels, land neighbours and far reach) and updated from each view: the owner's colour,
// the troops where the seat knows them (its own provinces, what its spies saw, dated),
// fog where it does not, the terrain initial under Intermediate rules, the start
// provinces, and the marks of the order being entered (source, target, where a click
// may go; a far target of a bombing shows dashed). Provinces are focusable buttons
// (Enter or Space picks one, as a click or a tap does).

import { UNOWNED, seatColour } from "../colours";
import { on, s } from "../dom";
import type * as W from "./types.gen";

export type Mark = "source" | "target" | "pickable" | "far";

interface Drawn {
  readonly group: SVGGElement;
  readonly shape: SVGElement;
  readonly count: SVGTextElement;
  readonly terrain: SVGTextElement;
  key: string;
}

function centroid(points: readonly (readonly [number, number])[]): [number, number] {
  let x = 0;
  let y = 0;
  for (const [px, py] of points) {
    x += px;
    y += py;
  }
  return [x / Math.max(1, points.length), y / Math.max(1, points.length)];
}

/** The troops a province's figures hold (every troop type). */
export function troops(f: W.Figures): number {
  return f.arm + f.pik + f.arc + f.kni + f.cat;
}

export class ProvinceMap {
  readonly el: SVGSVGElement;
  private readonly drawn: Drawn[] = [];
  private readonly box: { minX: number; width: number };
  readonly centres: [number, number][] = [];

  constructor(
    private readonly map: W.WokMap,
    onPick: (index: number) => void,
  ) {
    const provinces = map.provinces;
    provinces.forEach((p, i) => {
      if (p.label !== null) this.centres.push([p.label[0], p.label[1]]);
      else if (p.polygon.length > 0) this.centres.push(centroid(p.polygon));
      else {
        const angle = (2 * Math.PI * i) / provinces.length;
        this.centres.push([500 + 400 * Math.cos(angle), 500 + 400 * Math.sin(angle)]);
      }
    });
    const xs: number[] = [];
    const ys: number[] = [];
    for (const p of provinces) for (const [x, y] of p.polygon) xs.push(x), ys.push(y);
    for (const [x, y] of this.centres) xs.push(x), ys.push(y);
    const pad = 20;
    const [minX, minY] = [Math.min(...xs) - pad, Math.min(...ys) - pad];
    const width = Math.max(...xs) - minX + pad;
    const height = Math.max(...ys) - minY + pad;
    const scale = Math.max(width, height) / 900;
    this.box = { minX, width };
    this.el = s("svg", { viewBox: `${minX} ${minY} ${width} ${height}`, class: "board wok-map", role: "group", "aria-label": map.name, preserveAspectRatio: "xMidYMid meet" });
    const font = 15 * scale;
    provinces.forEach((p, i) => {
      const [cx, cy] = this.centres[i] ?? [0, 0];
      const shape: SVGElement =
        p.polygon.length > 2
          ? s("polygon", { points: p.polygon.map(([x, y]) => `${x},${y}`).join(" "), class: "land" })
          : s("circle", { cx, cy, r: 30 * scale, class: "land" });
      const name = s("text", { x: cx, y: cy - font * 0.9, class: "pname", "font-size": font * 0.8 }, p.name);
      const count = s("text", { x: cx, y: cy + font * 0.5, class: "count", "font-size": font * 1.2 });
      const terrain = s("text", { x: cx, y: cy + font * 1.6, class: "terrain", "font-size": font * 0.75 });
      const group = s("g", { class: "territory province", tabindex: 0, role: "button", "data-index": i, "aria-label": p.name }, s("title", {}, p.name), shape, name, count, terrain);
      on(group, "click", () => onPick(i));
      on(group, "keydown", (event) => {
        const key = (event as KeyboardEvent).key;
        if (key === "Enter" || key === " ") {
          event.preventDefault();
          onPick(i);
        }
      });
      this.el.append(group);
      this.drawn.push({ group, shape, count, terrain, key: "" });
    });
  }

  /** Scroll the map's box (a phone's, which scrolls sideways) so that the provinces
   * `indices` are in the middle of what shows; whether the map had a size to do it. */
  lookAt(indices: readonly number[]): boolean {
    const box = this.el.parentElement;
    const shown = this.el.getBoundingClientRect().width;
    if (box === null || shown === 0) return false;
    if (indices.length === 0 || box.scrollWidth <= box.clientWidth) return true;
    const x = indices.reduce((sum, i) => sum + (this.centres[i]?.[0] ?? 0), 0) / indices.length;
    box.scrollLeft = ((x - this.box.minX) / this.box.width) * shown - box.clientWidth / 2;
    return true;
  }

  /** Owners, troops (or fog), terrain and the marks of the order being entered. */
  update(provinces: readonly W.ProvinceView[], turn: number, marks: ReadonlyMap<number, Mark>): void {
    this.drawn.forEach((d, i) => {
      const p = provinces[i];
      const geo = this.map.provinces[i];
      if (p === undefined || geo === undefined) return;
      const f = p.figures;
      const mark = marks.get(i) ?? "";
      const shown = f === null ? "?" : String(troops(f));
      const old = f !== null && p.seen !== null && p.seen < turn;
      const key = `${p.owner}|${shown}|${old}|${mark}|${p.home}`;
      if (key === d.key) return;
      d.key = key;
      d.shape.setAttribute("fill", p.owner >= 0 ? seatColour(p.owner) : UNOWNED);
      d.count.textContent = shown;
      d.terrain.textContent = geo.terrain === "" ? "" : geo.terrain;
      d.group.classList.toggle("fog", f === null);
      d.group.classList.toggle("old", old);
      d.group.classList.toggle("home", p.home >= 0);
      for (const m of ["source", "target", "pickable", "far"] as const) d.group.classList.toggle(m, mark === m);
      const who = p.owner >= 0 ? `colour ${p.owner + 1}` : "neutral";
      const what = f === null ? "troops unknown" : `${troops(f)} troops${old ? ` (seen turn ${p.seen})` : ""}`;
      d.group.setAttribute("aria-label", `${geo.name}: ${who}, ${what}${geo.terrain === "" ? "" : `, ${geo.terrain}`}`);
    });
  }
}
