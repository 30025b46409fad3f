// Seat colours: the suite's colour-blind-safe palette, as the server's types carry it.

import { PLAYER_COLOURS } from "./protocol.gen";

/** The colour of nobody's territory, province or tile. */
export const UNOWNED = "#4b5568";

/** A seat's colour (the suite's colour-blind-safe palette). */
export function seatColour(seat: number): string {
  const colour = PLAYER_COLOURS[((seat % PLAYER_COLOURS.length) + PLAYER_COLOURS.length) % PLAYER_COLOURS.length];
  return colour === undefined ? UNOWNED : colour.hex;
}
