// Words for what happened in a battle (one line per event worth one), and the reading of
// a view's packed tile areas (suite/tactics/rules/view.py `pack_area`: a hex bit mask over
// the diamond of step offsets 1..r around a tile, row by row). Reading a format is not a
// rule: which tiles are in range is the server's answer.

import type * as P from "../protocol.gen";

const DIAMONDS = new Map<number, [number, number][]>();

/** The (dx, dy) offsets 1..`radius` steps away, row by row: the bit order of an area. */
function diamond(radius: number): [number, number][] {
  let cells = DIAMONDS.get(radius);
  if (cells === undefined) {
    cells = [];
    for (let dy = -radius; dy <= radius; dy += 1) {
      const span = radius - Math.abs(dy);
      for (let dx = -span; dx <= span; dx += 1) if (dx !== 0 || dy !== 0) cells.push([dx, dy]);
    }
    DIAMONDS.set(radius, cells);
  }
  return cells;
}

/** The cells a packed area names around `origin` (none for a malformed mask). */
export function unpackArea(origin: readonly [number, number], mask: string, radius: number): [number, number][] {
  if (!/^[0-9a-f]{1,64}$/.test(mask) || radius < 0 || radius > 64) return [];
  const offsets = diamond(radius);
  const out: [number, number][] = [];
  let bits = BigInt(`0x${mask}`);
  for (let i = 0; bits > 0n && i < offsets.length; i += 1, bits >>= 1n) {
    const offset = offsets[i];
    if ((bits & 1n) === 1n && offset !== undefined) out.push([origin[0] + offset[0], origin[1] + offset[1]]);
  }
  return out;
}

export function describeEvent(event: P.TacticsEvent, piece: (uid: number) => string, seat: (index: number) => string): string | null {
  switch (event.kind) {
    case "turn_started":
      return `Round ${event.round}: ${seat(event.seat)} to play.`;
    case "piece_moved":
      return `${piece(event.piece)} moved ${event.path.length - 1} ${event.path.length === 2 ? "tile" : "tiles"}.`;
    case "attack_resolved":
      if (event.result === "miss") return `${piece(event.attacker)} missed ${piece(event.target)}.`;
      return `${piece(event.attacker)} ${event.result === "crit" ? "struck a critical blow on" : "hit"} ${piece(event.target)} for ${event.damage}.`;
    case "level_up":
      return `${piece(event.piece)} reached level ${event.level}.`;
    case "piece_died":
      return `${piece(event.piece)} fell.`;
    case "player_eliminated":
      return `${seat(event.seat)} is out.`;
    case "game_over":
      return `The battle is over: ${event.outcome.reason}.`;
    default:
      return null;
  }
}
