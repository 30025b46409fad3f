// What a game brings to the page: its set-up form (in the lobby) and its part of a room
// (the board or field, the turn's choices, the side panels). The room page keeps what every
// game shares (seats, host controls, chat, the clock, rejoining) and hands each game what
// it needs through a `RoomContext`. No rule lives in a game module: what it shows and
// offers comes from the server's views, legal actions and answers.

import type { Net } from "./net";
import type * as P from "./protocol.gen";

/** What a room gives its game. */
export interface RoomContext {
  readonly net: Net;
  readonly code: string;
  /** The seat this page holds, or null while watching. */
  seat(): number | null;
  /** The seat's token, or null while watching. */
  token(): string | null;
  /** The id of the state the last view showed. */
  stateId(): number;
  /** The room's phase (`lobby`, `playing`, `paused`, `over`). */
  phase(): string;
  /** A seat's name as the room lists it. */
  seatName(seat: number): string;
  /** Send `action` (one of the seat's legal actions) for the state shown. */
  act(action: unknown): void;
  /** Draw the page again after something of the game's changed. */
  render(): void;
  /** Show `text` to the player (a refusal, a hint). */
  say(text: string): void;
  /** Whether the views shown are a finished match's replay, step by step (each view
   * then comes with its own step's events only, and may go back in time). */
  replaying(): boolean;
  /** The room's last `clock` message (deadline, poke and run-now state), or null. */
  clock(): P.ClockMsg | null;
}

/** Where the game's parts go on the room page. */
export interface GameParts {
  /** The board or field: the main area. */
  readonly board: HTMLElement;
  /** The side panels between the shared status and the players (choices, hand...). */
  readonly side: readonly HTMLElement[];
  /** The side panels after the players and host controls, before the chat (charts, log...). */
  readonly after: readonly HTMLElement[];
}

/** One game's part of a room page. */
export interface GameRoom {
  readonly parts: GameParts;
  /** The room is known (called on each `room` message): ask for what the game needs once. */
  opened(room: P.Room): void;
  /** A server message about the room (views, boards, answers, and every `error`, so a
   * game hears the refusals of its own questions by their `ref`); true when it changed anything. */
  receive(m: P.ServerMessage): boolean;
  /** A new view with the seat's legal actions (more may follow in `legal_page`s). */
  takeView(m: P.ViewMsg, legal: readonly unknown[]): void;
  /** More legal actions for the view shown (a later `legal_page`). */
  moreLegal(actions: readonly unknown[]): void;
  /** Whether a view has come. */
  hasView(): boolean;
  /** The turn number shown, the seats the game waits for and the phase's name. */
  turn(): { readonly turn: number; readonly awaiting: readonly number[]; readonly phase: string } | null;
  /** Lines for the status panel after the shared ones (a mission, a capital...). */
  statusLines(): HTMLElement[];
  /** Facts shown beside a seat in the players' list (territories, cards, out...). */
  seatFacts(seat: number): string[];
  /** A seat's colour when the game has its own (Tactics' army colours); null or absent:
   * the suite's seat palette. */
  colour?(seat: number): string | null;
  /** Extra lines for the end panel (ratings, a top ten...). */
  endLines(over: P.GameOverMsg): HTMLElement[];
  /** Draw the game's parts. */
  render(): void;
  /** A key pressed outside a text field; true when the game used it. */
  key(event: KeyboardEvent): boolean;
}

/** A game's set-up form in the lobby. */
export interface SetupForm {
  /** Ask the server for the form's choices (sent after every welcome). */
  ask(): void;
  /** A server message; true when the form must be drawn again (its choices changed). */
  receive(m: P.ServerMessage): boolean;
  /** The form's fields for `info`, or null while the server has not answered. */
  fields(info: P.GameInfo): HTMLElement | null;
  /** The typed config and, per seat after the host's, "human" or a bot's name. */
  read(): { readonly config: Record<string, unknown>; readonly bots: readonly string[] };
}

/** What the page knows of one game. */
export interface GameModule {
  readonly name: string;
  setup(net: Net): SetupForm;
  room(context: RoomContext): GameRoom;
}
