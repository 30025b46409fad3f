// The board, drawn as SVG from the server's `board` pages: territory shapes (or discs
// where a map gives none), a Domination map's own picture under them, sea lanes as
// dashed lines, links (neighbours whose shapes do not touch, as the server found) as
// dashed lines over a dark one, and per territory its owner's colour and its armies.
// A Domination map with an index image is tinted and clicked by that image's exact
// pixels (`IndexImage`) instead of the importer's approximate cells. Territories are
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

/** A Domination map's index image: per pixel, the board index of the territory there
 * plus one (0: none), read from the same-origin PNG the server made. */
class IndexImage {
  private values: Uint8ClampedArray | null = null;
  private tintKey = "";

  constructor(
    url: string,
    readonly width: number,
    readonly height: number,
    private readonly tint: SVGImageElement,
    loaded: () => void,
  ) {
    const image = new Image();
    image.addEventListener("load", () => {
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext("2d", { willReadFrequently: true });
      if (context === null) return;
      context.drawImage(image, 0, 0);
      this.values = context.getImageData(0, 0, width, height).data;
      loaded();
    });
    image.src = url;
  }

  get ready(): boolean {
    return this.values !== null;
  }

  /** The territory at pixel (x, y), or -1 (none, or the image is not read yet). */
  at(x: number, y: number): number {
    const px = Math.floor(x);
    const py = Math.floor(y);
    if (this.values === null || px < 0 || py < 0 || px >= this.width || py >= this.height) return -1;
    return (this.values[(py * this.width + px) * 4] ?? 0) - 1;
  }

  /** Colour every territory's pixels: its owner's colour, stronger when it is marked. */
  paint(colours: readonly string[], strength: readonly number[]): void {
    const values = this.values;
    const key = `${colours.join()}|${strength.join()}`;
    if (values === null || key === this.tintKey) return;
    this.tintKey = key;
    const rgba = colours.map((hex, i) => {
      const n = Number.parseInt(hex.slice(1), 16);
      return [(n >> 16) & 255, (n >> 8) & 255, n & 255, Math.round(255 * (strength[i] ?? 0))];
    });
    const canvas = document.createElement("canvas");
    canvas.width = this.width;
    canvas.height = this.height;
    const context = canvas.getContext("2d");
    if (context === null) return;
    const out = context.createImageData(this.width, this.height);
    for (let p = 0; p < this.width * this.height; p += 1) {
      const colour = rgba[(values[p * 4] ?? 0) - 1];
      if (colour === undefined) continue;
      out.data.set(colour, p * 4);
    }
    context.putImageData(out, 0, 0);
    this.tint.setAttribute("href", canvas.toDataURL());
  }
}

export class BoardView {
  readonly el: SVGSVGElement;
  readonly territories: P.BoardTerritory[];
  private readonly drawn: Drawn[] = [];
  private readonly centres: [number, number][] = [];
  private readonly index: IndexImage | null = null;
  private last: { owner: readonly number[]; marks: ReadonlyMap<number, Mark> } | null = null;

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
    if (art !== null && typeof art.index === "string") {
      const tint = s("image", { class: "tint", x: 0, y: 0, width: art.width, height: art.height });
      this.el.append(tint);
      this.index = new IndexImage(art.index, art.width, art.height, tint, () => this.indexLoaded());
      this.el.classList.add("indexed");
      on(this.el, "click", (event) => {
        const i = this.territoryAt(event as MouseEvent);
        if (i >= 0) onPick(i);
      });
    }
    const radius = 14 * scale;
    const index = new Map(this.territories.map((t, i) => [t.id, i]));
    const lanes = s("g", { class: "lanes" });
    const links = s("g", { class: "links" });
    const joined = (ends: readonly string[], i: number, draw: (x1: number, y1: number, x2: number, y2: number) => void): void => {
      for (const other of ends) {
        const j = index.get(other);
        if (j === undefined || j < i) continue;
        const [x1, y1] = this.centres[i] ?? [0, 0];
        const [x2, y2] = this.centres[j] ?? [0, 0];
        draw(x1, y1, x2, y2);
      }
    };
    this.territories.forEach((t, i) => {
      joined(t.sea_lanes ?? [], i, (x1, y1, x2, y2) => lanes.append(s("line", { x1, y1, x2, y2, "stroke-width": 2 * scale })));
      joined(t.links ?? [], i, (x1, y1, x2, y2) => {
        const length = Math.hypot(x2 - x1, y2 - y1) || 1;
        const [dx, dy] = [((x2 - x1) / length) * radius, ((y2 - y1) / length) * radius];
        const ends = { x1: x1 + dx, y1: y1 + dy, x2: x2 - dx, y2: y2 - dy };
        links.append(s("line", { ...ends, class: "under", "stroke-width": 4 * scale }));
        links.append(s("line", { ...ends, class: "dash", "stroke-width": 2 * scale }));
      });
    });
    this.el.append(lanes);
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
      on(group, "click", (event) => {
        event.stopPropagation(); // not the index image's pick as well
        onPick(i);
      });
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
    // Links run over every territory's land, from disc to disc.
    this.el.append(links);
  }

  /** The territory under the pointer by the index image's pixel (-1: none). */
  private territoryAt(event: MouseEvent): number {
    const matrix = this.el.getScreenCTM();
    if (this.index === null || matrix === null) return -1;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return this.index.at(point.x, point.y);
  }

  private indexLoaded(): void {
    this.el.classList.add("index-ready");
    if (this.last !== null) this.tint(this.last.owner, this.last.marks);
  }

  private tint(owner: readonly number[], marks: ReadonlyMap<number, Mark>): void {
    if (this.index === null) return;
    const colours = this.territories.map((_, i) => ((owner[i] ?? -1) >= 0 ? seatColour(owner[i] ?? 0) : UNOWNED));
    const strength = this.territories.map((_, i) => {
      const mark = marks.get(i);
      return mark === "source" || mark === "target" ? 0.75 : mark === "pickable" ? 0.5 : 0.32;
    });
    this.index.paint(colours, strength);
  }

  /** Show owners, armies, capitals and the marks of the current choice. */
  update(owner: readonly number[], armies: readonly number[], marks: ReadonlyMap<number, Mark>, capitals: readonly number[]): void {
    this.last = { owner, marks };
    this.tint(owner, marks);
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
