// What the browser keeps between visits (localStorage): the player's name, and per room
// the seat token, so a reload or a dropped connection takes the same seat back. The seat
// is kept per tab too (sessionStorage, read first): two tabs of one browser holding two
// seats of one room each take their own seat back on a reload.

const NAME_KEY = "warsuite.name";
const SEAT_PREFIX = "warsuite.seat.";

export interface SeatMemo {
  readonly token: string;
  readonly seat: number;
  readonly since: number | null;
}

function read(key: string, store: "local" | "session" = "local"): string | null {
  try {
    return (store === "local" ? window.localStorage : window.sessionStorage).getItem(key);
  } catch {
    return null; // storage disabled: nothing is remembered
  }
}

function write(key: string, value: string | null, store: "local" | "session" = "local"): void {
  try {
    const where = store === "local" ? window.localStorage : window.sessionStorage;
    if (value === null) where.removeItem(key);
    else where.setItem(key, value);
  } catch {
    // storage full or disabled: the seat is simply not remembered
  }
}

export function savedName(): string {
  return read(NAME_KEY) ?? "";
}

export function saveName(name: string): void {
  write(NAME_KEY, name);
}

/** The seat this browser holds in room `code` (null: none). */
export function savedSeat(code: string): SeatMemo | null {
  const raw = read(SEAT_PREFIX + code, "session") ?? read(SEAT_PREFIX + code);
  if (raw === null) return null;
  try {
    const data: unknown = JSON.parse(raw);
    if (typeof data !== "object" || data === null) return null;
    const memo = data as Record<string, unknown>;
    if (typeof memo.token !== "string" || typeof memo.seat !== "number") return null;
    const since = typeof memo.since === "number" ? memo.since : null;
    return { token: memo.token, seat: memo.seat, since };
  } catch {
    return null;
  }
}

export function saveSeat(code: string, memo: SeatMemo | null): void {
  const value = memo === null ? null : JSON.stringify(memo);
  write(SEAT_PREFIX + code, value, "session");
  write(SEAT_PREFIX + code, value);
}
