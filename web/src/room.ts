// A room: its seats, host controls, chat, and World War played on the board. Everything
// shown comes from the server's messages (the seat's own view: only its own hand and
// mission); every action sent is one of the seat's legal actions as the server listed
// them, and an attack's odds are the server's (`odds_request`). No rule lives here.

import { BoardView, seatColour, type Mark } from "./board";
import { button, fill, h, on } from "./dom";
import type * as P from "./protocol.gen";
import type { Net } from "./net";
import { saveSeat, savedSeat } from "./store";
import { describeEvent, territoryName } from "./text";

type Action = P.WorldWarAction;
type Kind = Action["kind"];

const SIMPLE: Partial<Record<Kind, string>> = {
  auto_place: "Place the rest automatically",
  skip_turn_in: "Keep my cards",
  end_attack: "Stop attacking",
  end_turn: "End turn",
};
const REJOIN_TRIES = 8;
const LOG_KEEP = 60;

export class RoomPage {
  readonly el: HTMLElement;
  private room: P.Room | null = null;
  private seat: number | null = null;
  private token: string | null = null;
  private host = false;
  private view: P.WorldWarView | null = null;
  private stateId = 0;
  private legal: Action[] = [];
  private legalFor = -1;
  private clock: P.ClockMsg | null = null;
  private clockSkew = 0;
  private gameOver: P.GameOverMsg | null = null;
  private readonly chat: P.ChatLine[] = [];
  private readonly log: string[] = [];
  private readonly history: number[][] = [];
  private pages: P.Board[] = [];
  private board: BoardView | null = null;
  private source: number | null = null;
  private target: number | null = null;
  private odds: P.Odds | null = null;
  private placeAmount = 1;
  private refusals = 0;
  private notice = "";
  private status = "connecting";
  private ticker: number | null = null;
  private readonly parts: Record<string, HTMLElement>;

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
      board: part("boardbox", "div"),
      status: part("status"),
      actions: part("actions"),
      hand: part("hand"),
      seats: part("seats"),
      hostbar: part("hostbar"),
      stats: part("stats"),
      log: part("log"),
      chat: part("chat"),
    };
    const p = this.parts;
    const side = h("div", { class: "side" }, p.status!, p.actions!, p.hand!, p.seats!, p.hostbar!, p.stats!, p.log!, p.chat!);
    this.el = h("main", { class: "room" }, p.head!, h("div", { class: "play" }, p.board!, side));
    on(document.body, "keydown", (event) => this.key(event as KeyboardEvent));
    this.net.enter = () => this.enterRoom();
    this.render();
  }

  /** (Re)enter the room: rejoin the seat this browser holds here, else watch. */
  private enterRoom(): void {
    const memo = savedSeat(this.code);
    if (memo !== null && !this.watch) {
      // `since`: the last state seen here (before a reload, the one kept with the seat),
      // so the server sends what happened meanwhile first.
      this.net.send({ type: "rejoin", token: memo.token, since: this.view === null ? memo.since : this.stateId });
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
        if (this.pages.length === 0 && m.game === "worldwar") this.net.send({ type: "board_request", code: this.code, page: 0 });
        break;
      case "board":
        this.takeBoard(m);
        break;
      case "view":
        this.takeView(m);
        break;
      case "legal_page":
        if (m.state_id === this.stateId && m.page === this.legalFor + 1) {
          this.legal = this.legal.concat(m.actions as Action[]);
          this.legalFor = m.page;
          if (m.page + 1 < m.pages && this.token !== null) {
            this.net.send({ type: "legal", token: this.token, state_id: this.stateId, page: m.page + 1 });
          }
        }
        break;
      case "events":
        for (const update of m.updates) this.logEvents(update.events);
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
      case "odds":
        this.odds = m;
        break;
      case "error":
        this.refused(m);
        break;
      default:
        return;
    }
    this.render();
  }

  private refused(m: P.Error): void {
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

  private takeBoard(m: P.Board): void {
    if (m.code !== this.code || m.page !== this.pages.length) return;
    this.pages.push(m);
    if (this.pages.length < m.pages) {
      this.net.send({ type: "board_request", code: this.code, page: this.pages.length });
      return;
    }
    this.board = new BoardView(this.pages, (i) => this.pick(i));
    fill(this.parts.board!, this.board.el);
  }

  private takeView(m: P.ViewMsg): void {
    if (m.code !== this.code) return;
    const view = m.view as P.WorldWarView;
    if (view.kind !== "worldwar") return;
    const turnChanged = this.view === null || this.view.turn !== view.turn;
    this.view = view;
    this.stateId = m.state_id;
    this.logEvents(m.events);
    if (turnChanged) this.history.push([...view.territory_counts]);
    if (this.token !== null && this.seat !== null) {
      saveSeat(this.code, { token: this.token, seat: this.seat, since: m.state_id });
    }
    this.legal = Array.isArray(m.legal) ? (m.legal as Action[]) : [];
    this.legalFor = Array.isArray(m.legal) ? 0 : -1;
    if (!Array.isArray(m.legal) && (m.legal_pages ?? 0) > 0 && this.token !== null) {
      this.net.send({ type: "legal", token: this.token, state_id: m.state_id, page: 0 });
    }
    this.clearChoice();
  }

  private logEvents(events: unknown): void {
    if (!Array.isArray(events) || this.view === null) return;
    for (const event of events as P.WorldWarEvent[]) {
      const line = describeEvent(event, this.view, (seat) => this.seatName(seat));
      if (line !== null) this.log.push(line);
    }
    while (this.log.length > LOG_KEEP) this.log.shift();
  }

  private clearChoice(): void {
    this.source = this.target = null;
    this.odds = null;
  }

  private seatName(seat: number): string {
    const info = this.room?.seats[seat];
    if (info === undefined || info.name === "") return `Seat ${seat + 1}`;
    return info.name;
  }

  private index(id: string): number {
    return this.view === null ? -1 : this.view.map.territories.indexOf(id);
  }

  private myTurn(): boolean {
    return this.view !== null && this.seat !== null && this.view.awaiting.includes(this.seat) && this.room?.phase === "playing";
  }

  private act(action: Action): void {
    if (this.token === null) return;
    this.net.send({ type: "action", token: this.token, state_id: this.stateId, action: action as unknown as Record<string, unknown> });
    this.legal = [];
    this.clearChoice();
    this.render();
  }

  // -- choosing on the board -------------------------------------------------------------

  private of<K extends Kind>(kind: K): Extract<Action, { kind: K }>[] {
    return this.legal.filter((a): a is Extract<Action, { kind: K }> => a.kind === kind);
  }

  /** The territories a click may pick now, and how the current choice is marked. */
  private marks(): Map<number, Mark> {
    const marks = new Map<number, Mark>();
    if (!this.myTurn()) return marks;
    const add = (id: string, mark: Mark): void => {
      const i = this.index(id);
      if (i >= 0 && !marks.has(i)) marks.set(i, mark);
    };
    if (this.source !== null) marks.set(this.source, "source");
    if (this.target !== null) marks.set(this.target, "target");
    for (const a of this.of("place")) add(a.territory, "pickable");
    const moves = [...this.of("attack"), ...this.of("blitz"), ...this.of("fortify")];
    const src = this.source === null ? null : this.view?.map.territories[this.source];
    for (const a of moves) {
      if (src === null) add(a.source, "pickable");
      else if (a.source === src) add(a.target, "pickable");
    }
    return marks;
  }

  /** A territory was clicked, tapped or chosen with the keyboard. */
  private pick(i: number): void {
    if (!this.myTurn() || this.view === null) return;
    const id = this.view.map.territories[i];
    if (id === undefined) return;
    const places = this.of("place").filter((a) => a.territory === id);
    if (places.length > 0) {
      const most = Math.max(...places.map((a) => a.armies));
      const wanted = Math.min(this.placeAmount, most);
      const chosen = places.find((a) => a.armies === wanted) ?? places[0];
      if (chosen !== undefined) this.act(chosen);
      return;
    }
    const moves = [...this.of("attack"), ...this.of("blitz"), ...this.of("fortify")];
    if (this.source !== null && i === this.source) {
      this.clearChoice();
    } else if (this.source !== null && moves.some((a) => a.source === this.view?.map.territories[this.source ?? -1] && a.target === id)) {
      this.target = i;
      this.odds = null;
      const attacking = this.of("attack").some((a) => a.target === id) || this.of("blitz").some((a) => a.target === id);
      if (attacking) {
        this.net.send({
          type: "odds_request",
          code: this.code,
          attackers: this.view.armies[this.source] ?? 1,
          defenders: this.view.armies[i] ?? 1,
        });
      }
    } else if (moves.some((a) => a.source === id)) {
      this.source = i;
      this.target = null;
      this.odds = null;
    }
    this.render();
  }

  private key(event: KeyboardEvent): void {
    const tag = (event.target as HTMLElement | null)?.tagName ?? "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (event.key === "Escape" && (this.source !== null || this.target !== null)) {
      this.clearChoice();
      this.render();
    }
  }

  // -- drawing ---------------------------------------------------------------------------

  private render(): void {
    // What the tests read, as a person reads the turn line: the state shown.
    this.el.dataset.state = String(this.view === null ? -1 : this.stateId);
    this.el.dataset.turn = String(this.view?.turn ?? 0);
    this.renderHead();
    this.renderStatus();
    this.renderActions();
    this.renderHand();
    this.renderSeats();
    this.renderHostbar();
    this.renderStats();
    if (this.log.length === 0) fill(this.parts.log!);
    else fill(this.parts.log!, h("h2", {}, "Latest"), h("ol", { class: "events" }, ...this.log.slice(-12).map((line) => h("li", {}, line))));
    this.renderChat();
    if (this.board !== null && this.view !== null) {
      this.board.update(this.view.owner, this.view.armies, this.marks(), this.view.capitals ?? []);
    }
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

  private clockText(): string | null {
    const deadline = this.clock?.deadline;
    if (deadline === null || deadline === undefined || this.clock?.paused === true) return null;
    const left = Math.max(0, Math.ceil(deadline - (Date.now() / 1000 - this.clockSkew)));
    return `${left} s left`;
  }

  /** The turn clock's text changes once a second while a deadline runs; nothing else
   * runs on a timer. */
  private runTicker(): void {
    const running = this.clockText() !== null && this.room?.phase === "playing";
    if (running && this.ticker === null) {
      this.ticker = window.setInterval(() => {
        const el = document.getElementById("clock");
        const text = this.clockText();
        if (el !== null && text !== null) el.textContent = text;
      }, 1000);
    } else if (!running && this.ticker !== null) {
      window.clearInterval(this.ticker);
      this.ticker = null;
    }
  }

  private renderStatus(): void {
    const v = this.view;
    const items: (HTMLElement | null)[] = [];
    if (this.notice !== "") items.push(h("p", { class: "notice", role: "alert" }, this.notice));
    if (this.room?.phase === "lobby") {
      items.push(h("p", {}, "Waiting for every seat to be taken and ready."));
    } else if (v !== null && this.gameOver === null) {
      const who = v.awaiting[0];
      const whose = who === undefined ? "" : who === this.seat ? "Your turn" : `${this.seatName(who)}'s turn`;
      items.push(h("p", { class: "turn" }, h("span", { class: "swatch" }), `Turn ${v.turn} · ${whose} · ${v.phase}`));
      const text = this.clockText();
      if (text !== null) items.push(h("p", { id: "clock", class: "clock" }, text));
      if (this.room?.phase === "paused") items.push(h("p", { class: "notice" }, "Paused by the host."));
    }
    if (v !== null && v.seat === null) items.push(h("p", { class: "muted" }, "You are watching."));
    if (this.gameOver !== null) items.push(this.endPanel(this.gameOver));
    if (v !== null && this.seat !== null && this.room?.phase !== "lobby") {
      const colour = h("span", { class: "swatch" });
      colour.style.background = seatColour(this.seat);
      items.push(h("p", { class: "you" }, colour, `You are ${this.seatName(this.seat)}`));
    }
    const mission = v?.mission;
    if (mission !== null && mission !== undefined && v !== null) items.push(h("p", { class: "mission" }, `Your mission: ${this.missionText(mission, v)}`));
    if (v !== null && (v.capitals ?? []).length > 0 && this.seat !== null) {
      const capital = v.capitals?.[this.seat];
      if (capital !== undefined) items.push(h("p", {}, `Your capital: ${territoryName(v, capital)}`));
    }
    fill(this.parts.status!, ...items);
    const swatch = this.parts.status!.querySelector(".turn .swatch") as HTMLElement | null;
    const who = v?.awaiting[0];
    if (swatch !== null && who !== undefined) swatch.style.background = seatColour(who);
  }

  private missionText(mission: P.Mission, v: P.WorldWarView): string {
    if (mission.kind === "continents") {
      const names = (mission.continents ?? []).map((c) => v.map.continent_names[c] ?? "?");
      return `hold ${names.join(" and ")}`;
    }
    if (mission.kind === "territories") return `hold ${mission.territories ?? 0} territories with at least ${mission.min_armies ?? 1} armies each`;
    return `take the last territory of ${this.seatName(mission.target ?? -1)}`;
  }

  private endPanel(over: P.GameOverMsg): HTMLElement {
    const outcome = over.outcome as P.Outcome | null;
    const places = outcome === null ? [] : outcome.places;
    return h(
      "div",
      { class: "end", role: "status" },
      h("h2", {}, "Game over"),
      h("p", {}, over.reason),
      h("ol", { class: "places" }, ...places.map((seats) => h("li", {}, seats.map((s) => this.seatName(s)).join(", ")))),
    );
  }

  private renderActions(): void {
    const el = this.parts.actions!;
    const v = this.view;
    if (v === null || !this.myTurn()) {
      fill(el);
      return;
    }
    const items: HTMLElement[] = [];
    const places = this.of("place");
    if (places.length > 0) {
      const most = Math.max(...places.map((a) => a.armies));
      this.placeAmount = Math.min(Math.max(1, this.placeAmount), most);
      const amount = h("select", { id: "place-amount", "aria-label": "Armies per click" });
      for (let n = 1; n <= most; n += 1) amount.append(h("option", { value: n, selected: n === this.placeAmount }, String(n)));
      on(amount, "change", () => (this.placeAmount = Number(amount.value)));
      items.push(h("p", {}, `Place ${v.phase === "setup" ? v.step_left : v.pool} armies: pick your territories.`), h("label", {}, "Armies per click ", amount));
    }
    for (const turnIn of this.of("turn_in")) {
      const cards = turnIn.cards.map((id) => this.cardText(id)).join(" + ");
      items.push(button(`Turn in ${cards}`, () => this.act(turnIn), { class: "turn-in" }));
    }
    for (const defend of this.of("defend")) items.push(button(`Defend with ${defend.dice} ${defend.dice === 1 ? "die" : "dice"}`, () => this.act(defend)));
    const occupy = this.of("occupy");
    if (occupy.length > 0 && v.occupy !== null && v.occupy !== undefined) {
      const range = v.occupy;
      const input = h("input", { type: "number", id: "occupy-armies", min: range.min, max: range.max, value: range.max, "aria-label": "Armies to move in" });
      items.push(
        h("p", {}, `Move armies into ${territoryName(v, range.target)} (${range.min} to ${range.max}).`),
        input,
        button("Move in", () => {
          const n = Number(input.value);
          const chosen = occupy.find((a) => a.armies === n) ?? occupy[occupy.length - 1];
          if (chosen !== undefined) this.act(chosen);
        }, { id: "occupy" }),
      );
    }
    items.push(...this.choiceButtons(v));
    for (const [kind, label] of Object.entries(SIMPLE)) {
      const action = this.legal.find((a) => a.kind === kind);
      if (action !== undefined) items.push(button(label, () => this.act(action), { "data-kind": kind }));
    }
    fill(el, h("h2", {}, "Your move"), ...items);
  }

  /** The buttons for the attack or move picked on the board, with the server's odds. */
  private choiceButtons(v: P.WorldWarView): HTMLElement[] {
    const items: HTMLElement[] = [];
    const src = this.source === null ? undefined : v.map.territories[this.source];
    if (src === undefined) {
      if (this.of("attack").length + this.of("fortify").length > 0) items.push(h("p", { class: "hint" }, "Pick one of your territories to attack or move from."));
      return items;
    }
    const tgt = this.target === null ? undefined : v.map.territories[this.target];
    if (tgt === undefined) {
      items.push(h("p", { class: "hint" }, `From ${territoryName(v, this.source ?? 0)}: pick a territory.`));
      return items;
    }
    const attacks = this.of("attack").filter((a) => a.source === src && a.target === tgt);
    const blitz = this.of("blitz").filter((a) => a.source === src && a.target === tgt);
    if (attacks.length + blitz.length > 0) {
      items.push(h("p", {}, `${territoryName(v, this.source ?? 0)} attacks ${territoryName(v, this.target ?? 0)}`));
      if (this.odds !== null) {
        const o = this.odds;
        items.push(h("p", { class: "odds" }, `To the end: ${(o.win * 100).toFixed(1)} % to take it; you lose ${o.attacker_loss.toFixed(1)}, they lose ${o.defender_loss.toFixed(1)} on average`));
      }
      for (const a of attacks) items.push(button(`Roll ${a.dice} ${a.dice === 1 ? "die" : "dice"}`, () => this.act(a), { "data-kind": "attack" }));
      const all = blitz.find((a) => a.move_all === false) ?? blitz[0];
      if (all !== undefined) items.push(button("Attack until done", () => this.act(all), { "data-kind": "blitz" }));
    }
    const moves = this.of("fortify").filter((a) => a.source === src && a.target === tgt);
    if (moves.length > 0) {
      const most = Math.max(...moves.map((a) => a.armies));
      const input = h("input", { type: "number", id: "fortify-armies", min: 1, max: most, value: most, "aria-label": "Armies to move" });
      items.push(
        h("p", {}, `Move from ${territoryName(v, this.source ?? 0)} to ${territoryName(v, this.target ?? 0)}`),
        input,
        button("Move", () => {
          const chosen = moves.find((a) => a.armies === Number(input.value)) ?? moves[moves.length - 1];
          if (chosen !== undefined) this.act(chosen);
        }, { "data-kind": "fortify" }),
      );
    }
    return items;
  }

  private cardText(id: number): string {
    const card = this.view?.hand_cards?.find((c) => c.id === id);
    if (card === undefined) return `card ${id}`;
    return card.suit === "" ? card.rank : `${card.rank} ${card.suit}`;
  }

  private renderHand(): void {
    const v = this.view;
    const cards = v?.hand_cards ?? [];
    if (v === null || v.seat === null || !v.rules.has_cards) {
      fill(this.parts.hand!);
      return;
    }
    const next = v.next_set_value;
    fill(
      this.parts.hand!,
      h("h2", {}, "Your cards"),
      cards.length === 0 ? h("p", { class: "muted" }, "No cards.") : h("ul", { class: "cards" }, ...cards.map((c) => h("li", { class: "card" }, c.suit === "" ? c.rank : `${c.rank} ${c.suit}`))),
      next === null || next === undefined ? null : h("p", { class: "muted" }, `The next set is worth ${next}.`),
    );
  }

  private renderSeats(): void {
    const room = this.room;
    if (room === null) {
      fill(this.parts.seats!);
      return;
    }
    const v = this.view;
    const rows = room.seats.map((info) => {
      const swatch = h("span", { class: "swatch" });
      swatch.style.background = seatColour(info.seat);
      const name = info.kind === "open" ? "open seat" : info.name;
      const facts: string[] = [];
      if (info.kind === "human" && !info.connected) facts.push("away");
      if (room.phase === "lobby" && info.kind !== "open") facts.push(info.ready ? "ready" : "not ready");
      if (v !== null && room.phase !== "lobby") {
        facts.push(`${v.territory_counts[info.seat] ?? 0} terr.`);
        if (v.rules.has_cards) {
          const cards = v.hand_sizes?.[info.seat] ?? 0;
          facts.push(`${cards} ${cards === 1 ? "card" : "cards"}`);
        }
        if (v.alive[info.seat] === false) facts.push("out");
      }
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

  /** Territories per seat over the turns (a small chart), shown once the match runs. */
  private renderStats(): void {
    const v = this.view;
    if (v === null || this.history.length < 2) {
      fill(this.parts.stats!);
      return;
    }
    const width = 240;
    const height = 80;
    const most = Math.max(1, ...this.history.flat());
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("class", "chart");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Territories per player, turn by turn");
    for (let seat = 0; seat < v.players; seat += 1) {
      const points = this.history.map((counts, t) => `${(t / (this.history.length - 1)) * width},${height - ((counts[seat] ?? 0) / most) * (height - 4) - 2}`);
      const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
      line.setAttribute("points", points.join(" "));
      line.setAttribute("stroke", seatColour(seat));
      line.setAttribute("fill", "none");
      line.setAttribute("stroke-width", "2");
      svg.append(line);
    }
    fill(this.parts.stats!, h("h2", {}, "Territories by turn"), svg);
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
