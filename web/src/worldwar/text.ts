// Words for what happened: one line per game event (null for those not worth a line).

import type * as P from "../protocol.gen";

/** The name of territory `index` (or id) as the view's map names it. */
export function territoryName(v: P.WorldWarView, territory: number | string): string {
  const index = typeof territory === "number" ? territory : v.map.territories.indexOf(territory);
  return v.map.names[index] ?? String(territory);
}

export function describeEvent(
  event: P.WorldWarEvent,
  v: P.WorldWarView,
  seat: (index: number) => string,
): string | null {
  switch (event.kind) {
    case "turn_began":
      return `Turn ${event.turn}: ${seat(event.seat)} gets ${event.reinforcements} armies.`;
    case "battle_fought":
      return `${seat(event.seat)} attacked ${territoryName(v, event.target)}: lost ${event.attacker_loss}, killed ${event.defender_loss}.`;
    case "dice_rolled":
      return `${seat(event.seat)} rolled ${event.attacker_dice.join(" ")} against ${event.defender_dice.join(" ")}.`;
    case "conquered":
      return `${seat(event.seat)} took ${territoryName(v, event.target)}.`;
    case "eliminated":
      return `${seat(event.seat)} is out (by ${seat(event.by)}).`;
    case "fortified":
      return `${seat(event.seat)} moved ${event.armies} to ${territoryName(v, event.target)}.`;
    case "cards_turned_in":
      return `${seat(event.seat)} turned in a set for ${event.armies} armies.`;
    case "time_ran_out":
      return `${seat(event.seat)}'s time ran out.`;
    case "game_over":
      return `Game over: ${event.outcome.reason}.`;
    default:
      return null;
  }
}
