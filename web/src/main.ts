// The page: one connection, and the lobby or a room by the address (`/` the lobby,
// `/r/CODE` a room, `/r/CODE/watch` watching it). Moving between them changes the
// address without reloading, so the connection stays.

import { byId, fill } from "./dom";
import { LobbyPage } from "./lobby";
import { Net, type Status } from "./net";
import type * as P from "./protocol.gen";
import { RoomPage } from "./room";
import { saveSeat, savedName } from "./store";

const ROOM_PATH = /^\/r\/([A-Za-z0-9]{1,16})(\/watch)?\/?$/;

let page: LobbyPage | RoomPage | null = null;
let lobby: LobbyPage | null = null;
let welcome: P.Welcome | null = null;
let pendingBots: string[] | null = null;
let status: Status = "connecting";

const net = new Net(
  () => lobby?.name() ?? (savedName() || "guest"),
  (m) => receive(m),
  (s) => {
    status = s;
    if (page instanceof RoomPage) page.setStatus(s);
  },
);

function receive(m: P.ServerMessage): void {
  if (m.type === "welcome") welcome = m;
  if (m.type === "seated" && page instanceof LobbyPage) {
    // A room this page created: go to it (the seat is kept for reloads).
    saveSeat(m.code, { token: m.token, seat: m.seat, since: null });
    show(m.code, false);
    const bots = pendingBots ?? [];
    pendingBots = null;
    bots.forEach((bot, i) => {
      if (bot !== "human") net.send({ type: "seat_bot", token: m.token, seat: i + 1, bot });
    });
  }
  if (page instanceof LobbyPage) page.receive(m);
  else if (page instanceof RoomPage) page.receive(m);
  if (m.type === "welcome" && lobby !== null) lobby.receive(m);
}

function show(code: string | null, watch: boolean, push = true): void {
  const path = code === null ? "/" : `/r/${code}${watch ? "/watch" : ""}`;
  if (push && window.location.pathname !== path) window.history.pushState(null, "", path);
  const root = byId("app");
  if (code === null) {
    lobby ??= new LobbyPage(net, {
      open: (c, w) => {
        show(c, w);
        if (net.open && page instanceof RoomPage) net.enter?.();
      },
      create: (game, config, isPublic, bots) => {
        pendingBots = bots;
        net.send({ type: "create", game, config, public: isPublic });
      },
    });
    page = lobby;
    fill(root, lobby.el);
    document.title = "warsuite";
    if (net.open) net.enter?.();
  } else {
    const room = new RoomPage(net, code.toUpperCase(), watch, () => show(null, false), () => welcome);
    page = room;
    room.setStatus(status);
    fill(root, room.el);
    document.title = `warsuite · ${code.toUpperCase()}`;
  }
}

function route(push: boolean): void {
  const match = ROOM_PATH.exec(window.location.pathname);
  if (match === null) show(null, false, push);
  else show(match[1] ?? "", match[2] !== undefined, push);
}

window.addEventListener("popstate", () => route(false));
route(false);
net.connect();
