// A room: its seats, host controls, chat, the turn clock and rejoining, shared by every
// game; the game's own part (board, choices, panels) comes from its module (`games.ts`).
// A finished match replays step by step from the server (`replay_step`), for any game:
// the game's part shows each step's spectator view.
// Everything shown comes from the server's messages; every action sent is one of the
// seat's legal actions as the server listed them. No rule lives here.

import { seatColour as paletteColour } from "./colours";
import { button, fill, h, on } from "./dom";
import type { GameRoom, RoomContext } from "./game";
import { gameModule } from "./games";
import type * as P from "./protocol.gen";
import type { Net } from "./net";
import { saveSeat, savedSeat } from "./store";

const REJOIN_TRIES = 8;

export class RoomPage {
  readonly el: HTMLElement;
  private room: P.Room | null = null;
  private seat: number | null = null;
  private token: string | null = null;
  private host = false;
  private game: GameRoom | null = null;
  private stateId = 0;
  private legalFor = -1;
  private clock: P.ClockMsg | null = null;
  private clockSkew = 0;
  private gameOver: P.GameOverMsg | null = null;
  /** The replay shown (its step and how many), or null while the room is shown live. */
  private replay: { step: number; steps: number; outcome: P.Outcome | null } | null = null;
  /** The last live view, shown again when the replay is closed. */
  private liveView: P.ViewMsg | null = null;
  /** The room is gone from the server (finished and forgotten): its replay may be there. */
  private gone = false;
  /** The view fields the room sent once (`room_data`): put back into every view. */
  private staticData: Record<string, unknown> = {};
  private readonly chat: P.ChatLine[] = [];
  private refusals = 0;
  private notice = "";
  private status = "connecting";
  private ticker: number | null = null;
  private readonly parts: Record<string, HTMLElement>;
  private readonly side: HTMLElement;
  private readonly play: HTMLElement;

  constructor(
    private readonly net: Net,
    private readonly code: string,
    private readonly watch: boolean,
    private readonly leave: () => void,
    private readonly welcome: () => P.Welcome | null,
  ) {
    const part = (name: string, tag: "section" | "div" = "section"): HTMLElement =>
      h(tag, { class: name, id: `room-${name}` });
    this.parts = {
      head: part("head", "div"),
      status: part("status"),
      seats: part("seats"),
      hostbar: part("hostbar"),
      chat: part("chat"),
    };
    const p = this.parts;
    this.side = h("div", { class: "side" }, p.status!, p.seats!, p.hostbar!, p.chat!);
    this.play = h("div", { class: "play" }, h("div", { class: "boardbox", id: "room-boardbox" }), this.side);
    this.el = h("main", { class: "room" }, p.head!, this.play);
    on(document.body, "keydown", (event) => this.key(event as KeyboardEvent));
    this.net.enter = () => this.enterRoom();
    this.render();
  }

  /** The game's part, made once the room says which game it is. */
  private startGame(room: P.Room): void {
    if (this.game !== null) return;
    const module = gameModule(room.game);
    if (module === null) {
      this.notice = `This page cannot show ${room.title} yet: open it in the desktop suite.`;
      return;
    }
    const page = this;
    const context: RoomContext = {
      net: this.net,
      code: this.code,
      seat: () => page.seat,
      token: () => page.token,
      stateId: () => page.stateId,
      phase: () => page.room?.phase ?? "",
      seatName: (seat) => page.seatName(seat),
      act: (action) => page.act(action),
      render: () => page.render(),
      say: (text) => {
        page.notice = text;
        page.renderStatus();
      },
      replaying: () => page.replay !== null,
      clock: () => page.clock,
    };
    this.game = module.room(context);
    const p = this.parts;
    this.play.replaceChildren(this.game.parts.board, this.side);
    this.side.replaceChildren(p.status!, ...this.game.parts.side, p.seats!, p.hostbar!, ...this.game.parts.after, p.chat!);
  }

  /** (Re)enter the room: rejoin the seat this browser holds here, else watch. */
  private enterRoom(): void {
    const memo = savedSeat(this.code);
    if (memo !== null && !this.watch) {
      // `since`: the last state seen here (before a reload, the one kept with the seat),
      // so the server sends what happened meanwhile first.
      this.net.send({ type: "rejoin", token: memo.token, since: this.game?.hasView() === true ? this.stateId : memo.since });
    } else {
      this.net.send({ type: "spectate", code: this.code });
    }
  }

  setStatus(status: string): void {
    this.status = status;
    this.renderHead();
  }

  /** A message from the server. */
  receive(m: P.ServerMessage): void {
    switch (m.type) {
      case "seated":
        this.seat = m.seat;
        this.token = m.token;
        this.host = m.host;
        this.refusals = 0;
        saveSeat(m.code, { token: m.token, seat: m.seat, since: null });
        this.net.entered();
        break;
      case "room":
        if (m.code !== this.code) return;
        this.room = m;
        if (this.seat === null) this.net.entered();
        this.startGame(m);
        this.game?.opened(m);
        break;
      case "view":
        this.takeView(m);
        break;
      case "legal_page":
        if (m.state_id === this.stateId && m.page === this.legalFor + 1) {
          this.game?.moreLegal(Array.isArray(m.actions) ? m.actions : []);
          this.legalFor = m.page;
          if (m.page + 1 < m.pages && this.token !== null) {
            this.net.send({ type: "legal", token: this.token, state_id: this.stateId, page: m.page + 1 });
          }
        }
        break;
      case "clock":
        this.clock = m;
        this.clockSkew = Date.now() / 1000 - m.now;
        break;
      case "chat_line":
        this.chat.push(m);
        if (this.chat.length > 100) this.chat.shift();
        break;
      case "game_over":
        this.gameOver = m;
        break;
      case "replay_view":
        this.takeReplay(m);
        break;
      case "room_data":
        if (m.code === this.code && typeof m.data === "object" && m.data !== null) this.staticData = m.data as Record<string, unknown>;
        break;
      case "error":
        this.refused(m);
        this.game?.receive(m); // a refusal of the game's own question (by its `ref`)
        break;
      default:
        if (this.game === null || !this.game.receive(m)) return;
    }
    this.render();
  }
  private refused(m: P.Error): void {
    if (m.ref === "spectate" && m.code === "no_room") {
      // A finished room the server no longer runs: its replay may still be stored.
      this.gone = true;
      this.notice = "This room is not open on the server any more.";
      return;
    }
    if (m.ref === "replay_step") {
      this.notice = `No replay: ${m.message}`;
      return;
    }
    if (m.ref === "rejoin") {
      // The room may not be rebuilt yet (a restart): come back after the back-off, and
      // after several refusals give the seat up and watch.
      this.refusals += 1;
      if (this.refusals >= REJOIN_TRIES) {
        saveSeat(this.code, null);
        this.notice = "Your seat is gone: you are watching.";
        this.net.send({ type: "spectate", code: this.code });
      } else {
        this.net.restart();
      }
      return;
    }
    if (m.code === "kicked" || m.code === "replaced") {
      // The seat is gone and this connection left the room: go on watching it.
      saveSeat(this.code, null);
      this.seat = this.token = null;
      this.host = false;
      this.net.send({ type: "spectate", code: this.code });
    }
    this.notice = m.message;
  }

  /** Ask for step `step` of the finished match (from its first step, to start). */
  private replayStep(step: number): void {
    const steps = this.replay?.steps ?? 0;
    if (this.replay !== null && (step < 0 || step > steps || step === this.replay.step)) return;
    this.notice = "";
    this.net.send({ type: "replay_step", code: this.code, step });
  }

  private takeReplay(m: P.ReplayView): void {
    if (m.code !== this.code) return;
    if (this.room === null) {
      // Never seen live: the room as the replay tells it.
      const seats = m.names.map((name, seat): P.SeatInfo => ({ seat, kind: "human", name, bot: null, connected: false, ready: false }));
      this.room = { type: "room", code: m.code, game: m.game, title: gameTitle(this.welcome(), m.game), phase: "over", seats, config: {}, host_seat: null, spectators: 0, pack: null, public: false };
      this.startGame(this.room);
      this.game?.opened(this.room);
    }
    if (this.game === null) return;
    this.replay = { step: m.step, steps: m.steps, outcome: m.outcome as P.Outcome | null };
    const view: P.ViewMsg = { type: "view", code: m.code, seat: null, state_id: m.step, view: m.view, awaiting: m.awaiting, events: m.events, actor: m.actor, action: m.action, legal: null, legal_pages: 0, choices: null };
    this.game.takeView(view, []);
  }

  private closeReplay(): void {
    this.replay = null;
    if (this.liveView !== null) this.game?.takeView(this.liveView, []);
    this.render();
  }

  private takeView(lean: P.ViewMsg): void {
    if (lean.code !== this.code || this.game === null) return;
    const m: P.ViewMsg = typeof lean.view === "object" && lean.view !== null ? { ...lean, view: { ...this.staticData, ...(lean.view as Record<string, unknown>) } } : lean;
    this.liveView = m;
    if (this.replay !== null) return; // shown again when the replay closes
    this.stateId = m.state_id;
    if (this.token !== null && this.seat !== null) {
      saveSeat(this.code, { token: this.token, seat: this.seat, since: m.state_id });
    }
    this.legalFor = Array.isArray(m.legal) ? 0 : -1;
    this.game.takeView(m, Array.isArray(m.legal) ? m.legal : []);
    if (!Array.isArray(m.legal) && (m.legal_pages ?? 0) > 0 && this.token !== null) {
      this.net.send({ type: "legal", token: this.token, state_id: m.state_id, page: 0 });
    }
  }

  /** A seat's colour: the game's own (Tactics' armies) or the suite's palette. */
  private seatColour(seat: number): string {
    return this.game?.colour?.(seat) ?? paletteColour(seat);
  }

  private seatName(seat: number): string {
    const info = this.room?.seats[seat];
    if (info === undefined || info.name === "") return `Seat ${seat + 1}`;
    return info.name;
  }

  private act(action: unknown): void {
    if (this.token === null) return;
    this.net.send({ type: "action", token: this.token, state_id: this.stateId, action: action as Record<string, unknown> });
  }

  private key(event: KeyboardEvent): void {
    const tag = (event.target as HTMLElement | null)?.tagName ?? "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const replay = this.replay;
    if (replay !== null) {
      const to: Record<string, number> = { ArrowLeft: replay.step - 1, ArrowRight: replay.step + 1, Home: 0, End: replay.steps };
      const step = to[event.key];
      if (step !== undefined) {
        event.preventDefault();
        this.replayStep(step);
        return;
      }
    }
    if (this.game?.key(event) === true) this.render();
  }

  // -- drawing ---------------------------------------------------------------------------

  private render(): void {
    // What the tests read, as a person reads the turn line: the state shown.
    const turn = this.game?.turn() ?? null;
    this.el.dataset.state = String(turn === null ? -1 : this.stateId);
    if (this.replay === null) delete this.el.dataset.replay;
    else this.el.dataset.replay = String(this.replay.step);
    this.el.dataset.turn = String(turn?.turn ?? 0);
    this.renderHead();
    this.renderStatus();
    this.game?.render();
    this.renderSeats();
    this.renderHostbar();
    this.renderChat();
    this.runTicker();
  }
  private renderHead(): void {
    const link = `${window.location.origin}/r/${this.code}`;
    const linkBox = h("input", { class: "link", readonly: true, value: link, "aria-label": "Link to this room", size: 28 });
    on(linkBox, "focus", () => linkBox.select());
    const banner = this.status === "open" ? null : h("span", { class: "banner", role: "status" }, this.status === "reconnecting" ? "Reconnecting…" : "Connecting…");
    fill(
      this.parts.head!,
      button("← Lobby", () => this.quit(), { class: "back" }),
      h("h1", {}, `${this.room?.title ?? "Room"} · ${this.code}`),
      h("span", { class: "phase" }, this.room?.phase ?? ""),
      linkBox,
      banner,
    );
  }

  private quit(): void {
    if (this.token !== null && this.room?.phase === "lobby") this.net.send({ type: "leave", token: this.token });
    else if (this.token === null) this.net.send({ type: "leave", token: null });
    this.leave();
  }

  /** The turn clock's text: the time left before a deadline, or how long the room has
   * waited for its seats once that passes the server's `show_after` (Tactics' waiting
   * timer); null when neither shows. */
  private clockText(): string | null {
    const clock = this.clock;
    if (clock === null || clock.paused) return null;
    const now = Date.now() / 1000 - this.clockSkew;
    if (clock.deadline !== null) return `${Math.max(0, Math.ceil(clock.deadline - now))} s left`;
    if (clock.waiting_since === null || clock.show_after === null || clock.waiting.length === 0) return null;
    const waited = Math.floor(now - clock.waiting_since);
    if (waited < clock.show_after) return null;
    const who = clock.waiting.map((s) => (s === this.seat ? "you" : this.seatName(s))).join(", ");
    return `Waiting for ${who}: ${waited} s`;
  }

  /** Whether the clock may show text later without a new message (a waiting timer not
   * shown yet). */
  private clockPending(): boolean {
    const clock = this.clock;
    return clock !== null && !clock.paused && clock.deadline === null && clock.waiting_since !== null && clock.show_after !== null && clock.waiting.length > 0;
  }

  /** The turn clock's text changes once a second while a deadline runs; nothing else
   * runs on a timer. */
  private runTicker(): void {
    const running = (this.clockText() !== null || this.clockPending()) && this.room?.phase === "playing";
    if (running && this.ticker === null) {
      this.ticker = window.setInterval(() => {
        const el = document.getElementById("clock");
        const text = this.clockText();
        if (el !== null && text !== null) el.textContent = text;
        else if (el === null && text !== null) this.renderStatus();
      }, 1000);
    } else if (!running && this.ticker !== null) {
      window.clearInterval(this.ticker);
      this.ticker = null;
    }
  }

  private renderStatus(): void {
    const turn = this.game?.turn() ?? null;
    const items: (HTMLElement | null)[] = [];
    if (this.notice !== "") items.push(h("p", { class: "notice", role: "alert" }, this.notice));
    if (this.replay !== null) {
      items.push(this.replayPanel(this.replay));
    } else if (this.gone && this.room === null) {
      items.push(button("Watch its replay", () => this.replayStep(0), { id: "replay-open" }));
    } else if (this.room?.phase === "over" && this.gameOver === null) {
      // Opened after its end (the server tells the end only to those who were there).
      items.push(h("div", { class: "end", role: "status" }, h("h2", {}, "Game over"), h("p", {}, "This match is over."), button("Watch the replay", () => this.replayStep(0), { id: "replay-open" })));
    }
    if (this.replay !== null && turn !== null) {
      const who = turn.awaiting[0];
      items.push(h("p", { class: "turn" }, who === undefined ? null : h("span", { class: "swatch" }), turnLine(turn.turn, who === undefined ? "" : `${this.seatName(who)}'s turn`, turn.phase)));
    } else if (this.room?.phase === "lobby") {
      items.push(h("p", {}, "Waiting for every seat to be taken and ready."));
    } else if (turn !== null && this.gameOver === null) {
      const who = turn.awaiting[0];
      const whose = who === undefined ? "" : who === this.seat ? "Your turn" : turn.awaiting.length > 1 ? "Orders due" : `${this.seatName(who)}'s turn`;
      items.push(h("p", { class: "turn" }, whose === "" ? null : h("span", { class: "swatch" }), turnLine(turn.turn, whose, turn.phase)));
      const text = this.clockText();
      if (text !== null) items.push(h("p", { id: "clock", class: "clock" }, text));
      if (this.room?.phase === "paused") items.push(h("p", { class: "notice" }, "Paused by the host."));
    }
    if (turn !== null && this.seat === null && this.replay === null) items.push(h("p", { class: "muted" }, "You are watching."));
    if (this.gameOver !== null && this.replay === null) items.push(this.endPanel(this.gameOver));
    if (turn !== null && this.seat !== null && this.room?.phase !== "lobby") {
      const colour = h("span", { class: "swatch" });
      colour.style.background = this.seatColour(this.seat);
      items.push(h("p", { class: "you" }, colour, `You are ${this.seatName(this.seat)}`));
    }
    items.push(...(this.game?.statusLines() ?? []));
    fill(this.parts.status!, ...items);
    const swatch = this.parts.status!.querySelector(".turn .swatch") as HTMLElement | null;
    const who = turn?.awaiting[0];
    if (swatch !== null && who !== undefined) swatch.style.background = this.seatColour(who);
  }

  private endPanel(over: P.GameOverMsg): HTMLElement {
    const outcome = over.outcome as P.Outcome | null;
    return h(
      "div",
      { class: "end", role: "status" },
      h("h2", {}, "Game over"),
      h("p", {}, over.reason),
      this.places(outcome),
      ...(this.game?.endLines(over) ?? []),
      button("Watch the replay", () => this.replayStep(0), { id: "replay-open" }),
    );
  }

  private places(outcome: P.Outcome | null): HTMLElement {
    const places = outcome === null ? [] : outcome.places;
    return h("ol", { class: "places" }, ...places.map((seats) => h("li", {}, seats.map((s) => this.seatName(s)).join(", "))));
  }

  /** The replay's controls: step by step (← and → too), to either end (Home, End). */
  private replayPanel(replay: { step: number; steps: number; outcome: P.Outcome | null }): HTMLElement {
    const { step, steps } = replay;
    const control = (label: string, to: number, id: string, name: string): HTMLButtonElement => {
      const b = button(label, () => this.replayStep(to), { id, "aria-label": name, title: name });
      b.disabled = to < 0 || to > steps || to === step;
      return b;
    };
    return h(
      "div",
      { class: "replay", role: "group", "aria-label": "Replay" },
      h("h2", {}, "Replay"),
      h("p", { id: "replay-step", "aria-live": "polite" }, step === 0 ? `The start · ${steps} steps` : `Step ${step} of ${steps}`),
      h(
        "div",
        { class: "row" },
        control("«", 0, "replay-first", "First step (Home)"),
        control("◀", step - 1, "replay-back", "Step back (←)"),
        control("▶", step + 1, "replay-forward", "Step forward (→)"),
        control("»", steps, "replay-last", "Last step (End)"),
      ),
      h("p", { class: "muted" }, "← and → step; Home and End go to either end."),
      step === steps && replay.outcome !== null ? this.places(replay.outcome) : null,
      this.liveView === null ? null : button("Close the replay", () => this.closeReplay(), { id: "replay-close" }),
    );
  }

  private renderSeats(): void {
    const room = this.room;
    if (room === null) {
      fill(this.parts.seats!);
      return;
    }
    const rows = room.seats.map((info) => {
      const swatch = h("span", { class: "swatch" });
      swatch.style.background = this.seatColour(info.seat);
      const name = info.kind === "open" ? "open seat" : info.name;
      const facts: string[] = [];
      if (info.kind === "human" && !info.connected) facts.push("away");
      if (room.phase === "lobby" && info.kind !== "open") facts.push(info.ready ? "ready" : "not ready");
      facts.push(...(this.game?.seatFacts(info.seat) ?? []));
      const controls: HTMLElement[] = [];
      if (this.host && info.seat !== this.seat && room.phase !== "over") {
        const bots = this.welcome()?.games.find((g) => g.name === room.game)?.bots ?? [];
        const pick = h("select", { "aria-label": `Bot for seat ${info.seat + 1}`, class: "bot-pick" }, ...bots.map((b) => h("option", { value: b }, b)));
        controls.push(pick, button("Seat bot", () => this.hostSend({ type: "seat_bot", token: this.token ?? "", seat: info.seat, bot: pick.value }), { class: "seat-bot" }));
        if (info.kind !== "open") controls.push(button("Kick", () => this.hostSend({ type: "kick", token: this.token ?? "", seat: info.seat })));
      }
      if (info.kind === "open" && this.seat === null && room.phase !== "over") {
        controls.push(button("Take this seat", () => this.net.send({ type: "join", code: this.code, seat: info.seat }), { class: "take" }));
      }
      return h("li", { class: info.seat === this.seat ? "seat mine" : "seat" }, swatch, h("span", { class: "name" }, name), h("span", { class: "facts" }, facts.join(" · ")), ...controls);
    });
    const ready = this.token !== null && room.phase === "lobby" ? this.readyButton(room) : null;
    fill(this.parts.seats!, h("h2", {}, `Players · ${room.spectators} watching`), h("ul", {}, ...rows), ready);
  }

  private readyButton(room: P.Room): HTMLElement {
    const me = room.seats[this.seat ?? -1];
    const isReady = me?.ready === true;
    return button(isReady ? "Not ready" : "Ready", () => this.net.send({ type: isReady ? "unready" : "ready", token: this.token ?? "" }), { id: "ready" });
  }

  private hostSend(message: P.ClientMessage): void {
    this.notice = "";
    this.net.send(message);
  }

  private renderHostbar(): void {
    const room = this.room;
    if (!this.host || room === null || this.token === null || room.phase === "over") {
      fill(this.parts.hostbar!);
      return;
    }
    const token = this.token;
    const items: HTMLElement[] = [];
    if (room.phase === "playing") items.push(button("Pause", () => this.hostSend({ type: "pause", token })));
    if (room.phase === "paused") items.push(button("Resume", () => this.hostSend({ type: "resume", token })));
    items.push(button("End the match", () => this.hostSend({ type: "end", token }), { class: "danger" }));
    const isPublic = room.public === true;
    items.push(button(isPublic ? "Make private" : "Make public", () => this.hostSend({ type: "set_public", token, public: !isPublic }), { id: "public" }));
    fill(this.parts.hostbar!, h("h2", {}, "Host"), h("div", { class: "row" }, ...items));
  }

  private renderChat(): void {
    const input = h("input", { type: "text", maxlength: 300, id: "chat-text", "aria-label": "Chat message", placeholder: "Say something" });
    const form = h("form", { class: "chat-form" }, input, h("button", { type: "submit" }, "Send"));
    on(form, "submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text === "") return;
      this.net.send({ type: "chat", text, token: this.token });
      input.value = "";
    });
    const old = this.parts.chat!.querySelector("#chat-text") as HTMLInputElement | null;
    const typing = old !== null && document.activeElement === old;
    const lines = h("ol", { class: "lines", "aria-live": "polite" }, ...this.chat.slice(-30).map((line) => h("li", {}, h("b", {}, `${line.name}: `), line.text)));
    if (typing && old !== null) {
      const list = this.parts.chat!.querySelector(".lines");
      if (list !== null) list.replaceWith(lines);
      return;
    }
    fill(this.parts.chat!, h("h2", {}, "Chat"), lines, form);
  }
}

/** A game's title as the server's welcome names it (its name when it does not). */
function gameTitle(welcome: P.Welcome | null, game: string): string {
  return welcome?.games.find((g) => g.name === game)?.title ?? game;
}

/** "Turn N · whose turn · phase", leaving out what is empty (nobody awaited: no "· ·"). */
function turnLine(turn: number, whose: string, phase: string): string {
  return [`Turn ${turn}`, whose, phase].filter((part) => part !== "").join(" · ");
}
