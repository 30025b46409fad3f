// A Tactics battle's art as the server made it from the room's pack (`tactics_art`): the
// map (tiles and heights, one byte per cell), the tiles' and skins' pictures (PNGs the
// server decoded from the pack's 8-bit BMPs and recoloured per army) and the sounds
// (checked WAVs). Every file has a content-addressed URL on the page's own origin.

import type * as P from "../protocol.gen";

export interface Skin {
  readonly image: HTMLImageElement;
  readonly size: number;
  readonly frames: number;
}

export class BattleArt {
  readonly size: number;
  readonly tiles: Uint8Array;
  readonly heights: Uint8Array;
  readonly tileImages = new Map<number, HTMLImageElement>();
  readonly tileNames = new Map<number, string>();
  private readonly skins = new Map<string, Skin>();
  readonly frameNames: readonly string[];

  constructor(readonly doc: P.TacticsArt, images: ReadonlyMap<string, HTMLImageElement>) {
    this.size = doc.size;
    this.tiles = bytes(doc.tiles, doc.size * doc.size);
    this.heights = bytes(doc.heights, doc.size * doc.size);
    this.frameNames = doc.frame_names;
    for (const tile of doc.tile_table) {
      const image = images.get(tile.url);
      if (image !== undefined) this.tileImages.set(tile.index, image);
      this.tileNames.set(tile.index, tile.name);
    }
    for (const skin of doc.skins) {
      const image = images.get(skin.url);
      if (image !== undefined) this.skins.set(`${skin.piece}:${skin.army}`, { image, size: skin.size, frames: skin.frames });
    }
  }

  tile(x: number, y: number): number {
    return this.tiles[y * this.size + x] ?? 0;
  }

  height(x: number, y: number): number {
    return this.heights[y * this.size + x] ?? 0;
  }

  skin(kind: number, army: number): Skin | null {
    return this.skins.get(`${kind}:${army}`) ?? null;
  }

  /** The colour of army `army` (0 red, 1 green, 2 yellow, 3 blue). */
  army(army: number): string {
    return this.doc.armies[army] ?? "#888888";
  }

  frame(name: string): number {
    return Math.max(0, this.frameNames.indexOf(name));
  }
}

function bytes(b64: string, length: number): Uint8Array {
  const text = atob(b64);
  const out = new Uint8Array(length);
  for (let i = 0; i < Math.min(length, text.length); i += 1) out[i] = text.charCodeAt(i);
  return out;
}

function loadImage(url: string): Promise<HTMLImageElement | null> {
  const image = new Image();
  image.decoding = "async";
  image.src = url;
  return image.decode().then(
    () => image,
    () => null,
  );
}

/** The battle's art from its document's URL; rejects with a sentence for a person when
 * the document cannot be read. A picture that does not load is left out (drawn plain). */
export async function loadArt(url: string): Promise<{ art: BattleArt; missing: number }> {
  let doc: P.TacticsArt;
  try {
    const answer = await fetch(url);
    if (!answer.ok) throw new Error(String(answer.status));
    doc = (await answer.json()) as P.TacticsArt;
  } catch {
    throw new Error("The battle's pictures could not be loaded from the server.");
  }
  const urls = [...doc.tile_table.map((t) => t.url), ...doc.skins.map((s) => s.url)];
  const loaded = await Promise.all(urls.map((u) => loadImage(u)));
  const images = new Map<string, HTMLImageElement>();
  let missing = 0;
  urls.forEach((u, i) => {
    const image = loaded[i];
    if (image === null || image === undefined) missing += 1;
    else images.set(u, image);
  });
  return { art: new BattleArt(doc, images), missing };
}

/** The pack's sounds, played only after the page's first click or key (browsers allow
 * audio after a gesture); a sound that cannot be decoded stays silent. */
export class PackSounds {
  private context: AudioContext | null = null;
  private readonly buffers = new Map<string, Promise<AudioBuffer | null>>();
  private sets = new Map<number, readonly string[]>();
  private pieces = new Map<number, Readonly<Record<string, number>>>();
  private named: Readonly<Record<string, number>> = {};
  on = true;

  constructor() {
    const unlock = (): void => {
      if (this.context === null && typeof AudioContext !== "undefined") {
        try {
          this.context = new AudioContext();
        } catch {
          this.context = null;
        }
      }
      document.removeEventListener("pointerdown", unlock);
      document.removeEventListener("keydown", unlock);
    };
    document.addEventListener("pointerdown", unlock);
    document.addEventListener("keydown", unlock);
  }

  use(doc: P.TacticsArt): void {
    this.sets = new Map(doc.sound_sets.map((s) => [s.id, s.urls]));
    this.pieces = new Map(doc.pieces.map((p) => [p.kind, p.sets]));
    this.named = doc.named_sets;
  }

  /** Whether sound can play now (after a gesture, switched on). */
  get ready(): boolean {
    return this.on && this.context !== null;
  }

  piece(kind: number, event: string): void {
    this.playSet(this.pieces.get(kind)?.[event] ?? 0);
  }

  namedSet(event: string): void {
    this.playSet(this.named[event] ?? 0);
  }

  private playSet(id: number): void {
    const urls = this.sets.get(id);
    if (!this.ready || urls === undefined || urls.length === 0) return;
    const url = urls[Math.floor(Math.random() * urls.length)];
    if (url !== undefined) void this.play(url);
  }

  private async play(url: string): Promise<void> {
    const context = this.context;
    if (context === null) return;
    let pending = this.buffers.get(url);
    if (pending === undefined) {
      pending = fetch(url)
        .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error("gone"))))
        .then((data) => context.decodeAudioData(data))
        .catch(() => null);
      this.buffers.set(url, pending);
    }
    const buffer = await pending;
    if (buffer === null) return;
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    source.start();
  }
}
