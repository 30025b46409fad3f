// The isometric battlefield on a canvas, drawn with the pack's own tiles and skins: the
// map turned by quarter turns and zoomed, each cell lifted by its height (as the desktop's
// suite/tactics/screens/iso.py projects it), the highlights the game asks for, the pieces
// farthest first with their life bars, and short animations (a piece walking its path, an
// attack, a floating number). A frame is drawn only when something changed or while an
// animation runs: an idle field asks for no frame at all. The static map is drawn once
// per zoom and rotation on an offscreen canvas.

import type { BattleArt } from "./art";

const TILE = 128; // a tile picture is 128 x 128: a 128 x 64 diamond over its cube sides
const LIFT = 60; // pixels (at 100 %) a cell of height 255 stands above height 0
const STEP_MS = 110; // a walking piece's time per cell
const ATTACK_MS = 420;
const FLOAT_MS = 800;
const MAX_STATIC_PIXELS = 12_000_000;
const BACKGROUND = "#0c0e16";
const MIN_START_TILE = 34; // a first view shows tiles at least this wide (CSS px): tappable

export type Cell = readonly [number, number];

export interface Figure {
  readonly uid: number;
  readonly kind: number;
  readonly army: number;
  readonly x: number;
  readonly y: number;
  readonly hp: number;
  readonly maxHp: number;
  readonly dim: boolean;
}

export type MarkKind = "reach" | "target" | "area" | "pick" | "selected";

const MARKS: Record<MarkKind, { fill: string; line: string }> = {
  area: { fill: "rgba(255, 214, 90, 0.13)", line: "rgba(255, 214, 90, 0.35)" },
  reach: { fill: "rgba(90, 170, 255, 0.30)", line: "rgba(150, 205, 255, 0.9)" },
  pick: { fill: "rgba(120, 255, 160, 0.20)", line: "rgba(150, 255, 180, 0.95)" },
  target: { fill: "rgba(255, 70, 60, 0.35)", line: "rgba(255, 120, 110, 1)" },
  selected: { fill: "rgba(255, 255, 255, 0.18)", line: "rgba(255, 255, 255, 1)" },
};
const MARK_ORDER: readonly MarkKind[] = ["area", "reach", "pick", "target", "selected"];
/** The (du, dv) steps of the turned grid in front of a cell whose tiles may hide a piece
 * standing there (as the desktop's field.py), nearest first. */
const FRONT: readonly Cell[] = [
  [0, 1],
  [1, 0],
  [1, 1],
  [1, 2],
  [2, 1],
  [2, 2],
  [2, 3],
  [3, 2],
  [3, 3],
];

interface Walk {
  kind: "walk";
  uid: number;
  path: readonly Cell[];
}
interface Strike {
  kind: "strike";
  attacker: number;
  target: number;
  text: string;
  colour: string;
}
type Motion = Walk | Strike;

export class FieldView {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private zoom = 0.5;
  private fitted = false;
  private cssW = 0;
  private cssH = 0;
  private looking: Cell | null = null;
  private rotation = 0;
  private panX = 0;
  private panY = 0;
  private staticMap: HTMLCanvasElement | null = null;
  private staticKey = "";
  private marksLayer: HTMLCanvasElement | null = null;
  private marksKey = "";
  private marksVersion = 0;
  private figures: Figure[] = [];
  private marks = new Map<string, MarkKind[]>();
  private picks: readonly { readonly label: string; readonly cell: Cell }[] = [];
  private picksFor = "";
  private queue: Motion[] = [];
  private motionStart = 0;
  private frameAsked = 0;
  private drag: { x: number; y: number; moved: boolean } | null = null;
  private cursor: Cell | null = null;
  /** Draws made (tests and the bench read it) and the time of the last, in ms. */
  draws = 0;
  lastDrawMs = 0;

  constructor(
    private readonly art: BattleArt,
    /** A click or a key picked `cells`, the most likely meant first (a piece's body, then
     * the tile under the pointer): the game takes the first it can use. */
    private readonly onPick: (cells: readonly Cell[]) => void,
    private readonly onHover: (cell: Cell | null) => void,
  ) {
    this.canvas = document.createElement("canvas");
    this.canvas.className = "tactics-field";
    this.canvas.setAttribute("role", "application");
    this.canvas.setAttribute("tabindex", "0");
    this.canvas.setAttribute("aria-label", `The battlefield: ${art.doc.name}. Arrow keys move the cursor, Enter picks the tile.`);
    const ctx = this.canvas.getContext("2d");
    if (ctx === null) throw new Error("no 2D canvas");
    this.ctx = ctx;
    this.canvas.addEventListener("pointerdown", (e) => {
      this.drag = { x: e.clientX, y: e.clientY, moved: false };
    });
    this.canvas.addEventListener("pointermove", (e) => {
      const drag = this.drag;
      if (drag !== null && (e.buttons & 1) === 1) {
        const dx = e.clientX - drag.x;
        const dy = e.clientY - drag.y;
        if (drag.moved || Math.abs(dx) + Math.abs(dy) > 6) {
          drag.moved = true;
          drag.x = e.clientX;
          drag.y = e.clientY;
          this.panX += dx;
          this.panY += dy;
          this.ask();
        }
        return;
      }
      this.onHover(this.cellAtEvent(e));
    });
    this.canvas.addEventListener("pointerup", (e) => {
      const drag = this.drag;
      this.drag = null;
      if (drag !== null && drag.moved) return;
      const box = this.canvas.getBoundingClientRect();
      const px = e.clientX - box.left;
      const py = e.clientY - box.top;
      const cells = [this.figureAt(px, py), this.cellAt(px, py)].filter((c): c is Cell => c !== null);
      if (cells.length > 0) this.onPick(cells);
    });
    this.canvas.addEventListener("pointerleave", () => this.onHover(this.cursor));
    this.canvas.addEventListener("keydown", (e) => this.key(e));
    this.canvas.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        this.zoomBy(e.deltaY < 0 ? 1.25 : 0.8);
      },
      { passive: false },
    );
    // The canvas's size is taken from the observer, never read while drawing: reading
    // layout in a frame would make the browser lay out the whole page there.
    new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect;
      if (box === undefined) return;
      this.cssW = box.width;
      this.cssH = box.height;
      this.resize();
    }).observe(this.canvas);
  }

  // -- geometry (the desktop's iso.py) -------------------------------------------------------

  private get n(): number {
    return this.art.size;
  }
  private get tileW(): number {
    return Math.max(8, Math.round(TILE * this.zoom));
  }
  private get liftMax(): number {
    return Math.round(LIFT * this.zoom);
  }
  private turned(x: number, y: number): Cell {
    const n = this.n;
    switch (this.rotation) {
      case 1:
        return [n - 1 - y, x];
      case 2:
        return [n - 1 - x, n - 1 - y];
      case 3:
        return [y, n - 1 - x];
      default:
        return [x, y];
    }
  }
  private lift(x: number, y: number): number {
    return Math.round((this.art.height(x, y) * this.liftMax) / 255);
  }
  /** Top-left of cell (x, y)'s tile picture in map pixels. */
  private imagePos(x: number, y: number): [number, number] {
    const [u, v] = this.turned(x, y);
    const w = this.tileW;
    return [((u - v + this.n - 1) * w) / 2, ((u + v) * (w / 2)) / 2 + this.liftMax - this.lift(x, y)];
  }
  /** The middle of a (possibly fractional) cell's top diamond, in map pixels. */
  private centre(x: number, y: number): [number, number] {
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const corner = (cx: number, cy: number): [number, number] => {
      const [px, py] = this.imagePos(cx, cy);
      return [px + this.tileW / 2, py + this.tileW / 4];
    };
    const a = corner(x0, y0);
    const fx = x - x0;
    const fy = y - y0;
    if (fx === 0 && fy === 0) return a;
    const b = fx > 0 ? corner(Math.min(this.n - 1, x0 + 1), y0) : a;
    const c = fy > 0 ? corner(x0, Math.min(this.n - 1, y0 + 1)) : a;
    return [a[0] + (b[0] - a[0]) * fx + (c[0] - a[0]) * fy, a[1] + (b[1] - a[1]) * fx + (c[1] - a[1]) * fy];
  }
  private depth(x: number, y: number): number {
    const [u, v] = this.turned(x, y);
    return u + v;
  }
  private mapSize(): [number, number] {
    const w = this.tileW;
    return [this.n * w, (this.n - 1) * (w / 2) + w + this.liftMax];
  }
  /** Where map pixel (0, 0) is on the canvas (CSS pixels). */
  private origin(): [number, number] {
    const [mw, mh] = this.mapSize();
    return [Math.round((this.cssW - mw) / 2 + this.panX), Math.round((this.cssH - mh) / 2 + this.panY)];
  }

  /** The cell under canvas point (px, py): the nearest top diamond holding it. */
  cellAt(px: number, py: number): Cell | null {
    const [ox, oy] = this.origin();
    const mx = px - ox;
    const my = py - oy;
    const hw = this.tileW / 2;
    const hh = this.tileW / 4;
    let best: Cell | null = null;
    let bestDepth = -1;
    for (let y = 0; y < this.n; y += 1) {
      for (let x = 0; x < this.n; x += 1) {
        if (this.art.tile(x, y) === 0) continue;
        const [cx, cy] = this.centre(x, y);
        if (Math.abs(cx - mx) / hw + Math.abs(cy - my) / hh <= 1) {
          const d = this.depth(x, y);
          if (d > bestDepth) {
            bestDepth = d;
            best = [x, y];
          }
        }
      }
    }
    return best;
  }

  /** The cell under a pointer: a piece's when the pointer is on its body (the nearest
   * piece first, as the desktop picks them), else the tile's. */
  private cellAtEvent(e: PointerEvent): Cell | null {
    const box = this.canvas.getBoundingClientRect();
    const px = e.clientX - box.left;
    const py = e.clientY - box.top;
    return this.figureAt(px, py) ?? this.cellAt(px, py);
  }

  private figureAt(px: number, py: number): Cell | null {
    const [ox, oy] = this.origin();
    let best: Cell | null = null;
    let bestDepth = -1;
    for (const f of this.figures) {
      const side = this.sideOf(f);
      const [cx, cy] = this.centre(f.x, f.y);
      const left = cx + ox - side / 2;
      const top = cy + oy + side / 6 - side;
      // the middle of the frame: a skin's picture rarely fills its corners
      const inside = px >= left + side / 6 && px <= left + (side * 5) / 6 && py >= top + side / 8 && py <= top + (side * 7) / 8;
      const depth = this.depth(f.x, f.y);
      if (inside && depth > bestDepth) {
        bestDepth = depth;
        best = [f.x, f.y];
      }
    }
    return best;
  }

  /** The side a piece's frame is drawn at: its skin at the zoom, at least 0.7 tile. */
  private sideOf(f: Figure): number {
    const w = this.tileW;
    const skin = this.art.skin(f.kind, f.army);
    // A small skin on a far zoom is drawn at least about two thirds of a tile wide.
    return skin === null ? w * 0.6 : Math.max(4, Math.round(skin.size * this.zoom), Math.round(w * 0.7));
  }

  /** Where cell (x, y)'s middle is on the canvas, in CSS pixels (for tests and tips). */
  screenOf(x: number, y: number): [number, number] {
    const [ox, oy] = this.origin();
    const [cx, cy] = this.centre(x, y);
    return [Math.round(cx + ox), Math.round(cy + oy)];
  }

  /** The keyboard: arrows move a cursor over the turned grid (as the field is seen),
   * Enter or Space picks its tile. */
  private key(e: KeyboardEvent): void {
    const steps: Record<string, Cell> = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
    const step = steps[e.key];
    if (step !== undefined) {
      e.preventDefault();
      e.stopPropagation();
      const start = this.cursor ?? this.cellAt(this.cssW / 2, this.cssH / 2) ?? [0, 0];
      const [u, v] = this.turned(start[0], start[1]);
      const nu = Math.max(0, Math.min(this.n - 1, u + step[0]));
      const nv = Math.max(0, Math.min(this.n - 1, v + step[1]));
      this.cursor = this.unturned(nu, nv);
      this.onHover(this.cursor);
      this.ask();
    } else if ((e.key === "Enter" || e.key === " ") && this.cursor !== null) {
      e.preventDefault();
      e.stopPropagation();
      this.onPick([this.cursor]);
    }
  }

  private unturned(u: number, v: number): Cell {
    const back = (4 - this.rotation) % 4;
    const n = this.n;
    switch (back) {
      case 1:
        return [n - 1 - v, u];
      case 2:
        return [n - 1 - u, n - 1 - v];
      case 3:
        return [v, n - 1 - u];
      default:
        return [u, v];
    }
  }

  // -- what is shown --------------------------------------------------------------------------

  setFigures(figures: Figure[]): void {
    this.figures = figures;
    this.ask();
  }

  setMarks(marks: ReadonlyMap<string, MarkKind[]>): void {
    const next = new Map(marks);
    const same = next.size === this.marks.size && [...next].every(([k, v]) => this.marks.get(k)?.join() === v.join());
    if (same) return;
    this.marks = next;
    this.marksVersion += 1;
    this.ask();
  }

  /** The cells a click may pick now, each with a label: they are written at once, and
   * again whenever the field moves, with where they are on the canvas, to the canvas's
   * `data-picks` ("label@x,y ...", those inside it), which tests read to click them, and
   * `stamp` (the state shown) to `data-picks-for`. */
  setPicks(picks: readonly { readonly label: string; readonly cell: Cell }[], stamp: string): void {
    this.picks = picks;
    this.picksFor = stamp;
    this.writePicks();
    this.ask();
  }

  private writePicks(): void {
    const inside = (x: number, y: number): boolean => x >= 4 && y >= 4 && x <= this.cssW - 4 && y <= this.cssH - 4;
    const text = this.picks
      .map((p) => [p.label, ...this.screenOf(p.cell[0], p.cell[1])] as const)
      .filter(([, x, y]) => inside(x, y))
      .map(([label, x, y]) => `${label}@${x},${y}`)
      .join(" ");
    if (this.canvas.dataset.picks !== text) this.canvas.dataset.picks = text;
    if (this.canvas.dataset.picksFor !== this.picksFor) this.canvas.dataset.picksFor = this.picksFor;
  }

  walk(uid: number, path: readonly Cell[]): void {
    if (path.length > 1) this.push({ kind: "walk", uid, path });
  }

  strike(attacker: number, target: number, text: string, colour: string): void {
    this.push({ kind: "strike", attacker, target, text, colour });
  }

  /** Whether an animation runs or waits. */
  get busy(): boolean {
    return this.queue.length > 0;
  }

  private push(motion: Motion): void {
    if (this.queue.length === 0) this.motionStart = performance.now();
    this.queue.push(motion);
    this.ask();
  }

  /** Zoom so that tiles can be tapped when the whole map cannot show at that size, and
   * centre `cell` (done at the first layout when the canvas has no size yet). */
  lookAt(cell: Cell): void {
    this.looking = cell;
    if (this.fitted) this.centreOn(cell);
  }

  private centreOn(cell: Cell): void {
    if (this.tileW >= MIN_START_TILE) return;
    this.zoom = Math.min(1, MIN_START_TILE / TILE);
    this.panX = 0;
    this.panY = 0;
    const [sx, sy] = this.screenOf(cell[0], cell[1]);
    this.panX = Math.round(this.cssW / 2 - sx);
    this.panY = Math.round(this.cssH / 2 - sy);
    this.ask();
  }

  /** A quarter turn, keeping the cell in the middle of the canvas there. */
  rotate(): void {
    this.keepCentre(() => (this.rotation = (this.rotation + 1) % 4));
  }

  /** Zoom by `factor` (between a far view of the whole map and 100 %), keeping the cell
   * in the middle of the canvas there. */
  zoomBy(factor: number): void {
    const [mw, mh] = this.mapSize();
    const fit = Math.min(this.cssW / mw, this.cssH / mh) * this.zoom;
    const most = Math.min(1, Math.sqrt(MAX_STATIC_PIXELS / (this.n * TILE * this.n * TILE * 0.6)));
    const next = Math.max(Math.min(fit, 0.1) * 0.5, Math.min(most, this.zoom * factor));
    this.keepCentre(() => (this.zoom = next));
  }

  private keepCentre(change: () => void): void {
    const centre = this.cellAt(this.cssW / 2, this.cssH / 2);
    const scale = this.zoom;
    change();
    if (centre === null) {
      this.panX *= this.zoom / scale;
      this.panY *= this.zoom / scale;
    } else {
      this.panX = 0;
      this.panY = 0;
      const [sx, sy] = this.screenOf(centre[0], centre[1]);
      this.panX = Math.round(this.cssW / 2 - sx);
      this.panY = Math.round(this.cssH / 2 - sy);
    }
    this.writePicks();
    this.ask();
  }

  private resize(): void {
    const ratio = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(this.cssW * ratio));
    const h = Math.max(1, Math.round(this.cssH * ratio));
    if (!this.fitted && this.cssW > 0 && this.cssH > 0) {
      this.fitted = true;
      this.zoom = 1;
      const [mw, mh] = this.mapSize();
      const fit = Math.min(this.cssW / mw, this.cssH / mh);
      this.zoom = Math.max(0.08, Math.min(1, fit * 0.98));
      if (this.looking !== null) this.centreOn(this.looking);
    }
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    this.ask();
  }

  /** Draw at the next animation frame (once, however often it is asked). */
  private ask(): void {
    if (this.frameAsked !== 0) return;
    this.frameAsked = window.requestAnimationFrame((now) => {
      this.frameAsked = 0;
      this.draw(now);
    });
  }

  // -- drawing --------------------------------------------------------------------------------

  private staticCanvas(): HTMLCanvasElement {
    const key = `${this.zoom}|${this.rotation}`;
    if (this.staticMap !== null && this.staticKey === key) return this.staticMap;
    const [mw, mh] = this.mapSize();
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.ceil(mw));
    canvas.height = Math.max(1, Math.ceil(mh));
    const ctx = canvas.getContext("2d");
    if (ctx !== null) {
      ctx.imageSmoothingQuality = "high";
      const w = this.tileW;
      const cells: [number, number, number][] = [];
      for (let y = 0; y < this.n; y += 1) for (let x = 0; x < this.n; x += 1) if (this.art.tile(x, y) !== 0) cells.push([this.depth(x, y), x, y]);
      cells.sort((a, b) => a[0] - b[0] || a[2] - b[2] || a[1] - b[1]);
      for (const [, x, y] of cells) {
        const image = this.art.tileImages.get(this.art.tile(x, y));
        const [px, py] = this.imagePos(x, y);
        if (image === undefined) {
          this.diamond(ctx, px + w / 2, py + w / 4, w);
          ctx.fillStyle = "#5a5a66";
          ctx.fill();
          continue;
        }
        this.drawTile(ctx, image, px, py);
      }
    }
    this.staticMap = canvas;
    this.staticKey = key;
    return canvas;
  }

  /** Tile `image` with its top-left at (px, py), `tileW` wide. A quarter turn mirrors its
   * top diamond so that its texture follows the map's axes; the lit cube sides below keep
   * their light (as the desktop draws it). */
  private drawTile(ctx: CanvasRenderingContext2D, image: HTMLImageElement, px: number, py: number): void {
    const w = this.tileW;
    if (this.rotation % 2 === 0) {
      ctx.drawImage(image, px, py, w, w);
      return;
    }
    ctx.save();
    ctx.translate(px + w, py);
    ctx.scale(-1, 1);
    ctx.drawImage(image, 0, 0, TILE, TILE / 2, 0, 0, w, w / 2);
    ctx.restore();
    ctx.drawImage(image, 0, TILE / 2, TILE, TILE / 2, px, py + w / 2, w, w / 2);
  }

  private diamond(ctx: CanvasRenderingContext2D, cx: number, cy: number, w: number, inset = 0): void {
    const hw = w / 2 - inset;
    const hh = w / 4 - inset / 2;
    ctx.beginPath();
    ctx.moveTo(cx, cy - hh);
    ctx.lineTo(cx + hw, cy);
    ctx.lineTo(cx, cy + hh);
    ctx.lineTo(cx - hw, cy);
    ctx.closePath();
  }

  private draw(now: number): void {
    const started = performance.now();
    const ctx = this.ctx;
    const ratio = this.canvas.width / Math.max(1, this.cssW);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = BACKGROUND;
    ctx.fillRect(0, 0, this.cssW, this.cssH);
    const [ox, oy] = this.origin();
    ctx.drawImage(this.staticCanvas(), ox, oy);
    if (this.marks.size > 0) ctx.drawImage(this.marksCanvas(), ox, oy);
    if (this.cursor !== null) {
      const [cx, cy] = this.centre(this.cursor[0], this.cursor[1]);
      this.diamond(ctx, cx + ox, cy + oy, this.tileW, 1);
      ctx.lineWidth = Math.max(2, this.tileW / 24);
      ctx.strokeStyle = "#ffffff";
      ctx.stroke();
    }
    const motion = this.advance(now);
    const moving = motion === null ? "0" : "1";
    if (this.canvas.dataset.moving !== moving) this.canvas.dataset.moving = moving;
    this.drawFigures(ox, oy, motion);
    this.draws += 1;
    this.lastDrawMs = performance.now() - started;
    this.canvas.dataset.draws = String(this.draws);
    this.writePicks();
    if (this.queue.length > 0) this.ask();
  }

  /** Draw again, inside a piece's rect, the tiles in front of its cell that stand higher
   * (with their highlights): a cliff in front hides the feet of a piece behind it. */
  private cover(x: number, y: number, left: number, top: number, side: number, ox: number, oy: number): void {
    const base = this.lift(x, y);
    const [u0, v0] = this.turned(x, y);
    const w = this.tileW;
    const ctx = this.ctx;
    let clipped = false;
    for (const [du, dv] of FRONT) {
      const u = u0 + du;
      const v = v0 + dv;
      if (u >= this.n || v >= this.n) continue;
      const [cx, cy] = this.unturned(u, v);
      const index = this.art.tile(cx, cy);
      if (index === 0 || this.lift(cx, cy) <= base) continue;
      const image = this.art.tileImages.get(index);
      if (image === undefined) continue;
      const [px, py] = this.imagePos(cx, cy);
      if (px + ox > left + side || px + ox + w < left || py + oy > top + side || py + oy + w < top) continue;
      if (!clipped) {
        ctx.save();
        ctx.beginPath();
        ctx.rect(left, top, side, side);
        ctx.clip();
        clipped = true;
      }
      this.drawTile(ctx, image, px + ox, py + oy);
      const kinds = this.marks.get(`${cx},${cy}`);
      for (const kind of MARK_ORDER) {
        if (kinds === undefined || !kinds.includes(kind)) continue;
        this.diamond(ctx, px + ox + w / 2, py + oy + w / 4, w, 2);
        ctx.fillStyle = MARKS[kind].fill;
        ctx.fill();
      }
    }
    if (clipped) ctx.restore();
  }

  /** The motion under way and how far it is (0 to 1); finished motions leave the queue. */
  private advance(now: number): { motion: Motion; t: number } | null {
    while (this.queue.length > 0) {
      const motion = this.queue[0]!;
      const length = motion.kind === "walk" ? STEP_MS * (motion.path.length - 1) : Math.max(ATTACK_MS, FLOAT_MS);
      const t = (now - this.motionStart) / length;
      if (t < 1) return { motion, t: Math.max(0, t) };
      this.queue.shift();
      this.motionStart = now;
    }
    return null;
  }

  /** The highlights on a canvas of the static map's size, drawn again only when they,
   * the zoom or the rotation change (a frame then copies it whole). */
  private marksCanvas(): HTMLCanvasElement {
    const key = `${this.zoom}|${this.rotation}|${this.marksVersion}`;
    if (this.marksLayer !== null && this.marksKey === key) return this.marksLayer;
    const [mw, mh] = this.mapSize();
    const layer = this.marksLayer ?? document.createElement("canvas");
    const w = Math.max(1, Math.ceil(mw));
    const h = Math.max(1, Math.ceil(mh));
    if (layer.width !== w || layer.height !== h) {
      layer.width = w;
      layer.height = h;
    }
    const ctx = layer.getContext("2d");
    if (ctx !== null) {
      ctx.clearRect(0, 0, w, h);
      this.drawMarks(ctx, 0, 0);
    }
    this.marksLayer = layer;
    this.marksKey = key;
    return layer;
  }

  private drawMarks(ctx: CanvasRenderingContext2D, ox: number, oy: number): void {
    const w = this.tileW;
    const cells = [...this.marks.entries()].map(([key, kinds]) => {
      const [x, y] = key.split(",").map(Number) as [number, number];
      return { x, y, kinds };
    });
    cells.sort((a, b) => this.depth(a.x, a.y) - this.depth(b.x, b.y));
    ctx.lineWidth = Math.max(1, w / 48);
    for (const { x, y, kinds } of cells) {
      const [cx, cy] = this.centre(x, y);
      for (const kind of MARK_ORDER) {
        if (!kinds.includes(kind)) continue;
        this.diamond(ctx, cx + ox, cy + oy, w, 2);
        ctx.fillStyle = MARKS[kind].fill;
        ctx.fill();
        ctx.strokeStyle = MARKS[kind].line;
        ctx.stroke();
      }
    }
  }

  private drawFigures(ox: number, oy: number, motion: { motion: Motion; t: number } | null): void {
    const ctx = this.ctx;
    const placed = this.figures.map((f) => {
      let x = f.x;
      let y = f.y;
      let frame = "stand";
      if (motion !== null && motion.motion.kind === "walk" && motion.motion.uid === f.uid) {
        const path = motion.motion.path;
        const at = motion.t * (path.length - 1);
        const i = Math.min(path.length - 2, Math.floor(at));
        const a = path[i]!;
        const b = path[i + 1]!;
        const k = at - i;
        x = a[0] + (b[0] - a[0]) * k;
        y = a[1] + (b[1] - a[1]) * k;
      } else if (motion !== null && motion.motion.kind === "walk") {
        // pieces not moving stand still
      }
      if (motion !== null && motion.motion.kind === "strike") {
        if (motion.motion.attacker === f.uid && motion.t < 0.5) frame = "attack";
        if (motion.motion.target === f.uid && motion.t >= 0.25 && motion.t < 0.75) frame = "pain";
      }
      return { f, x, y, frame };
    });
    placed.sort((a, b) => this.depth(Math.round(a.x), Math.round(a.y)) - this.depth(Math.round(b.x), Math.round(b.y)) || a.f.uid - b.f.uid);
    const w = this.tileW;
    for (const { f, x, y, frame } of placed) {
      const [cx, cy] = this.centre(x, y);
      const skin = this.art.skin(f.kind, f.army);
      const side = this.sideOf(f);
      const left = cx + ox - side / 2;
      const top = cy + oy + side / 6 - side;
      ctx.globalAlpha = f.dim ? 0.6 : 1;
      if (skin === null) {
        ctx.fillStyle = this.art.army(f.army);
        ctx.fillRect(left + side / 4, top + side / 3, side / 2, side / 2);
      } else {
        const index = Math.min(skin.frames - 1, this.art.frame(frame));
        // The source leaves out the frame's outer pixel: scaling would bleed the next
        // frame's edge in (the first row and column are the artist's guide, never drawn).
        ctx.drawImage(skin.image, index * skin.size + 1, 1, skin.size - 2, skin.size - 2, left, top, side, side);
      }
      ctx.globalAlpha = 1;
      this.cover(Math.round(x), Math.round(y), left, top, side, ox, oy);
      const barW = Math.max(12, w / 4);
      const barH = Math.max(3, Math.round(5 * this.zoom * 2));
      const bx = cx + ox - barW / 2;
      const by = top + side - side / 6 + 4;
      const share = Math.max(0, Math.min(1, f.hp / Math.max(1, f.maxHp)));
      ctx.fillStyle = "#141418";
      ctx.fillRect(bx - 1, by - 1, barW + 2, barH + 2);
      ctx.fillStyle = share > 0.5 ? "#5bd27a" : share > 0.25 ? "#f0b429" : "#ef5b5b";
      ctx.fillRect(bx, by, barW * share, barH);
    }
    if (motion !== null && motion.motion.kind === "strike") {
      const target = this.figures.find((f) => f.uid === (motion.motion as Strike).target);
      if (target !== undefined) {
        const [cx, cy] = this.centre(target.x, target.y);
        const size = Math.max(14, Math.round(30 * Math.max(this.zoom, 0.5)));
        ctx.font = `bold ${size}px system-ui, sans-serif`;
        ctx.textAlign = "center";
        const rise = motion.t * 40 * Math.max(this.zoom, 0.5);
        const ty = cy + oy - Math.round(100 * this.zoom) - rise;
        ctx.fillStyle = "#0a0a0e";
        ctx.fillText(motion.motion.text, cx + ox + 2, ty + 2);
        ctx.fillStyle = motion.motion.colour;
        ctx.fillText(motion.motion.text, cx + ox, ty);
      }
    }
  }
}
