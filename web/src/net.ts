// The connection to the server: one websocket to the page's own origin, the hello, and
// reconnection. A dropped connection (also a server restart: close codes 1001 and 1012,
// docs/protocol.md) is retried with back-off; after every (re)connect the page's `enter`
// runs again (rejoin with the seat token, or spectate), so play goes on by itself.

import type * as P from "./protocol.gen";

export type Status = "connecting" | "open" | "reconnecting";

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 4000;

export class Net {
  private ws: WebSocket | null = null;
  private retries = 0;
  private greeted = false;
  private queue: P.ClientMessage[] = [];
  /** Runs after each welcome: the page (re)enters its room here. */
  enter: (() => void) | null = null;

  constructor(
    private readonly name: () => string,
    private readonly onMessage: (m: P.ServerMessage) => void,
    private readonly onStatus: (s: Status) => void,
  ) {}

  /** Open the connection (again); messages sent meanwhile wait for the welcome. */
  connect(): void {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${window.location.host}/`);
    this.ws = ws;
    this.greeted = false;
    this.onStatus(this.retries === 0 ? "connecting" : "reconnecting");
    ws.addEventListener("open", () => {
      // `lean`: a room's unchanging view fields come once (`room_data`); the room page
      // puts them back into every view.
      const hello: P.Hello = { type: "hello", name: this.name(), protocol: 1, client: "web", lean: true };
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (event: MessageEvent) => {
      if (typeof event.data !== "string") return;
      let message: P.ServerMessage;
      try {
        message = JSON.parse(event.data) as P.ServerMessage;
      } catch {
        return;
      }
      if (message.type === "welcome") {
        this.greeted = true;
        this.onStatus("open");
        if (this.enter !== null) this.enter();
        for (const queued of this.queue.splice(0)) this.send(queued);
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.retry();
    });
  }

  /** Reconnect after a growing pause (after a drop). */
  private retry(): void {
    const delay = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** this.retries);
    this.retries += 1;
    this.onStatus("reconnecting");
    window.setTimeout(() => this.connect(), delay);
  }

  /** Drop the connection and come back after the back-off (a refused rejoin: the
   * room may not be rebuilt yet). The retries count on until a welcome. */
  restart(): void {
    if (this.ws !== null) this.ws.close();
  }

  /** The room was entered: the next drop starts the back-off from the beginning. */
  entered(): void {
    this.retries = 0;
  }

  get open(): boolean {
    return this.ws !== null && this.greeted;
  }

  send(message: P.ClientMessage): void {
    if (this.ws === null || !this.greeted || this.ws.readyState !== WebSocket.OPEN) {
      if (message.type !== "hello") this.queue.push(message);
      return;
    }
    this.ws.send(JSON.stringify(message));
  }
}
