// The games the page can set up and play, by the server's game name. A game the server
// offers but the page does not know is listed and watchable by code, not playable here.

import type { GameModule } from "./game";
import { wok } from "./wok/game";
import { worldWar } from "./worldwar/game";

export const GAMES: readonly GameModule[] = [worldWar, wok];

/** The page's module for `name`, or null. */
export function gameModule(name: string): GameModule | null {
  return GAMES.find((g) => g.name === name) ?? null;
}
