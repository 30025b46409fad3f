"""The wire protocol of `suite serve`: typed JSON messages, one per websocket text frame.

Every message is a JSON object whose ``type`` field names its kind. Client messages are
the `ClientMessage` union, server messages the `ServerMessage` union; both directions are
limited to `MAX_MESSAGE` bytes. `decode_client` never raises: anything that is not a
well-formed client message comes back as an `Error` to send to the peer (see
docs/protocol.md for the whole protocol with an example session).

Game actions, views and events travel as plain JSON objects inside these messages (each
game's own typed records, tagged by ``kind``); the server converts actions with
`suite.core.match.decode_action`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

PROTOCOL_VERSION = 1
"""Bumped on any incompatible change; a hello with another version is refused."""

MAX_MESSAGE = 64 * 1024
"""Largest message, in bytes of UTF-8 JSON, in either direction."""
CHUNK = 36 * 1024
"""Raw bytes per chunk of a pack file or a replay document (48 KiB once base64 encoded,
under `MAX_MESSAGE`)."""

CLOSE_MOVED = 1012
"""Websocket close code (service restart) telling a client its room moved to another
process or the server is restarting: reconnect and rejoin with the seat token."""

MAX_NAME = 32
MAX_CHAT = 300
MAX_PUBLIC_ROOMS = 100
"""Public lobbies one `rooms` answer lists at most."""
MAX_ODDS_ARMIES = 1000
"""The largest side an `odds_request` may ask about."""
MAX_MAPS = 200
"""Maps one `maps` answer lists at most (the host's folder may hold more)."""
MAX_PROBLEMS = 20
"""Pack problems one Tactics answer lists at most (each cut to `MAX_PROBLEM` characters)."""
MAX_PROBLEM = 200
MAX_SETUP_PIECES = 200
"""Pieces a `tactics_setup` answer lists at most (real packs hold about 100; fewer when
they would not fit in one message)."""
MAX_PACKS = 50
"""Server pack folders a `tactics_setup` answer lists at most."""

RoomCode = Annotated[str, msgspec.Meta(max_length=16)]
"""A room code as the newer requests take it (longer is refused: `bad_message`)."""
PackName = Annotated[str, msgspec.Meta(max_length=64)]
"""A server pack folder's name as a request names it (never a path)."""

MAX_TURN = 1_000_000
"""The largest turn number a `wok_history` may name."""
MAX_DRAFT = 16 * 1024
"""A `draft_check`'s draft and probe, at most, in bytes of JSON (the game's own limits on
the number of orders bound it further)."""


class Message(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every protocol message; subclasses set ``tag=`` to their ``type``."""


# -- shared records ------------------------------------------------------------------------


class PackRef(msgspec.Struct, frozen=True, kw_only=True):
    """A Tactics pack: its declared version and the content hash of all its files."""

    version: float
    digest: str


class GameInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A game the server runs: its name, title, seat range and the bots it can seat."""

    name: str
    title: str
    players: tuple[int, int]
    bots: tuple[str, ...]


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as everyone in the room sees it.

    `kind` is "open" (nobody yet), "human" or "bot"; `connected` says whether the human's
    connection is live (a held seat shows False after a drop).
    """

    seat: int
    kind: Literal["open", "human", "bot"]
    name: str = ""
    bot: str | None = None
    connected: bool = False
    ready: bool = False


class FileEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A file of a pack: its path inside the pack, size and sha256."""

    path: str
    size: int
    sha256: str


# -- client to server ------------------------------------------------------------------------


class Hello(Message, frozen=True, tag="hello"):
    """First message of a connection: who is there and what they run."""

    name: str
    protocol: int = PROTOCOL_VERSION
    client: str = ""
    tactics_pack: PackRef | None = None
    follows: bool = False
    """The client follows a `moved` answer to the process that runs its room (a client
    that leaves it out is forwarded there instead)."""
    lean: bool = False
    """The client takes a room's unchanging view fields once (`room_data`) and every
    `view` without them (a client that leaves it out gets whole views)."""


class Create(Message, frozen=True, tag="create", forbid_unknown_fields=True):
    """Open a room for `game` with `config`; the creator takes seat 0 and hosts it.

    The server draws the match's seed itself: a client never chooses it (an unknown field
    such as ``seed`` is refused). `public` lists the lobby in `rooms` answers.
    """

    game: str
    config: dict[str, Any] = {}
    public: bool = False


class Join(Message, frozen=True, tag="join"):
    """Take a seat in room `code` (the first open one when `seat` is None)."""

    code: str
    seat: int | None = None


class Rejoin(Message, frozen=True, tag="rejoin"):
    """Take back a held seat with its token (after a drop or a server restart).

    `since`: the last `state_id` this client saw; the server then sends an `events`
    message with the updates it missed (as many of the latest as it still keeps).
    """

    token: str
    since: int | None = None


class Spectate(Message, frozen=True, tag="spectate"):
    """Watch room `code`: spectators get the spectator view and the chat."""

    code: str


class Ready(Message, frozen=True, tag="ready"):
    """The seat is ready (lobby), or the WoK seat is done with its orders (W12)."""

    token: str


class Unready(Message, frozen=True, tag="unready"):
    token: str


class Act(Message, frozen=True, tag="action"):
    """Play `action` (the game's action as JSON) on the state `state_id` the client saw."""

    token: str
    state_id: int
    action: dict[str, Any]


class LegalRequest(Message, frozen=True, tag="legal"):
    """Ask for page `page` of the seat's legal actions (when the view did not carry them)."""

    token: str
    state_id: int
    page: int = 0


class Chat(Message, frozen=True, tag="chat"):
    """A chat line to the room; spectators send without a token."""

    text: str
    token: str | None = None


class Leave(Message, frozen=True, tag="leave"):
    """Leave the room: an open lobby seat is freed, a seat in play is held for a rejoin."""

    token: str | None = None


class Poke(Message, frozen=True, tag="poke"):
    """WoK: remind the late seats once the deadline has passed (W12)."""

    token: str


class RunNow(Message, frozen=True, tag="run_now"):
    """WoK: run the turn without the late seats, once the poke has waited (W12)."""

    token: str


class SeatBot(Message, frozen=True, tag="seat_bot"):
    """Host: put the server bot `bot` in `seat` (open, or a human's seat it takes over)."""

    token: str
    seat: int
    bot: str


class Kick(Message, frozen=True, tag="kick"):
    """Host: free `seat`; its token stops working and its connection leaves the room."""

    token: str
    seat: int


class Pause(Message, frozen=True, tag="pause"):
    token: str


class Resume(Message, frozen=True, tag="resume"):
    token: str


class End(Message, frozen=True, tag="end"):
    """Host: end the match now (no winner)."""

    token: str


class PackRequest(Message, frozen=True, tag="pack_request"):
    """Ask for the room's Tactics pack: a page of the file list (`path` None: `offset` is
    the page number, from 0) or the chunk of one file that starts at `offset`."""

    code: str
    path: str | None = None
    offset: int = 0


class ReplayRequest(Message, frozen=True, tag="replay_request"):
    """Ask for a finished match's replay (its game, config, seed and actions), a chunk of
    its JSON at `offset`."""

    code: str
    offset: int = 0


class ReplayStepRequest(Message, frozen=True, tag="replay_step"):
    """Ask for step `step` of a finished match (any game's) as a spectator saw it:
    answered by `replay_view`. Step 0 is the match before its first logged operation,
    step N the state after the N-th (the answer says how many there are). The one message
    for stepping through a replay in a client without the game's rules (the browser)."""

    code: str
    step: int = 0


class WokHistoryRequest(Message, frozen=True, tag="wok_history"):
    """WoK: ask for the report of past turn `turn` of the room the connection is in, as
    the seat `token` holds saw it (no token: as a spectator saw it). Answered by
    `wok_history_turn` to this connection only; refused with `bad_turn` unless that turn
    ran (0 to the newest report's turn), `busy` while this connection waits for another
    answer (see `suite.net.server.wok_history`)."""

    turn: Annotated[int, msgspec.Meta(ge=0, le=MAX_TURN)]
    token: str | None = None


class ListRooms(Message, frozen=True, tag="rooms"):
    """Ask for the public lobbies with a free seat (of `game` only, when given)."""

    game: str | None = None


class BoardRequest(Message, frozen=True, tag="board_request"):
    """Ask for page `page` of the board of World War room `code` (answered by `board`;
    page 0 says how many pages there are), so a client draws the room's map, generated or
    the host's own, without a copy of its files."""

    code: str
    page: int = 0


class MapsRequest(Message, frozen=True, tag="maps_request"):
    """Ask which maps a room of `game` may name (answered by `maps`)."""

    game: str


class OddsRequest(Message, frozen=True, tag="odds_request"):
    """Ask for the exact odds of an attack to the end in World War room `code`, under its
    dice rules: `attackers` armies in the attacking territory (those that must stay behind
    included) against `defenders` (both 1 to `MAX_ODDS_ARMIES`); answered by `odds`."""

    code: str
    attackers: int
    defenders: int


class TacticsSetupRequest(Message, frozen=True, tag="tactics_setup_request"):
    """Ask for the Book of Tactics' choices with pack `pack` (None: the shipped pack; else
    the name of a folder in the server's packs folder, never a path): answered by
    `tactics_setup`."""

    pack: PackName | None = None


class TacticsArtRequest(Message, frozen=True, tag="tactics_art_request"):
    """Ask what a browser needs to draw Tactics room `code` (answered by `tactics_art`)."""

    code: RoomCode


class TacticsResultRequest(Message, frozen=True, tag="tactics_result_request"):
    """Ask what finished Tactics room `code`'s battle changed on the server's ladder
    (answered by `tactics_result`, also sent to the room when the battle ends)."""

    code: RoomCode


class DraftCheck(Message, frozen=True, tag="draft_check"):
    """WoK: ask about the seat's own draft orders, `draft` (`{"sets": [...]}`, the order
    sets of a `SubmitOrders` action), and the order being composed, `probe` (its colour,
    phase, source, target, kind and amount so far). Answered by `draft_report` to this
    connection only; the room keeps the seat's last draft of the turn (in memory, never
    shown to anyone else) and sends it back when the seat rejoins."""

    token: str
    state_id: int
    draft: dict[str, Any]
    probe: dict[str, Any] | None = None
    ref: int = 0
    """The client's number for this question, given back in the answer."""


class SetPublic(Message, frozen=True, tag="set_public"):
    """Host: list the lobby in `rooms` answers (`public`) or stop listing it."""

    token: str
    public: bool


ClientMessage = (
    Hello
    | Create
    | Join
    | Rejoin
    | Spectate
    | Ready
    | Unready
    | Act
    | LegalRequest
    | Chat
    | Leave
    | Poke
    | RunNow
    | SeatBot
    | Kick
    | Pause
    | Resume
    | End
    | PackRequest
    | ReplayRequest
    | ReplayStepRequest
    | ListRooms
    | BoardRequest
    | MapsRequest
    | OddsRequest
    | DraftCheck
    | SetPublic
    | TacticsSetupRequest
    | TacticsArtRequest
    | TacticsResultRequest
    | WokHistoryRequest
)

SeatMessage = (
    Rejoin
    | Ready
    | Unready
    | Act
    | LegalRequest
    | Chat
    | Leave
    | Poke
    | RunNow
    | SeatBot
    | Kick
    | Pause
    | Resume
    | End
    | DraftCheck
    | SetPublic
    | WokHistoryRequest
)
"""The client messages that may carry a seat token."""


def token_of(message: ClientMessage) -> str | None:
    """The seat token `message` carries (None when it has none: a spectator's chat, or a
    message that is not a seat's)."""
    return message.token if isinstance(message, SeatMessage) else None


# -- server to client ------------------------------------------------------------------------


class Welcome(Message, frozen=True, tag="welcome"):
    """Answer to hello: the protocol spoken and the games on offer."""

    protocol: int
    server: str
    games: tuple[GameInfo, ...]


class Seated(Message, frozen=True, tag="seated"):
    """You hold `seat` of room `code`; keep `token` to act and to rejoin."""

    code: str
    seat: int
    token: str
    host: bool


class Room(Message, frozen=True, tag="room"):
    """The room as everyone sees it. `phase` is lobby, playing, paused or over."""

    code: str
    game: str
    title: str
    phase: Literal["lobby", "playing", "paused", "over"]
    seats: tuple[SeatInfo, ...]
    config: dict[str, Any]
    host_seat: int | None
    spectators: int
    pack: PackRef | None = None
    public: bool = False
    """Whether the server lists the room in `rooms` answers while it is a lobby."""


class ViewMsg(Message, frozen=True, tag="view"):
    """Your seat's view (spectator view when `seat` is None) after state `state_id`.

    `view` is the game's typed view as JSON. `events` (a JSON array) are the game events
    that led to this view; `actor` is the seat whose action (or clock) made them and
    `action` that action, when this client may know it (None for another seat's WoK
    orders). `legal` lists the seat's legal actions when they fit, else it is null and
    `legal_pages` says how many pages a `legal` request returns (0 when the seat is not
    awaited, or the game offers an action space, described in `choices`).
    """

    code: str
    seat: int | None
    state_id: int
    view: msgspec.Raw
    awaiting: tuple[int, ...]
    events: msgspec.Raw = msgspec.Raw(b"[]")
    actor: int | None = None
    action: msgspec.Raw = msgspec.Raw(b"null")
    legal: msgspec.Raw = msgspec.Raw(b"null")
    legal_pages: int = 0
    choices: dict[str, Any] | None = None


class Missed(msgspec.Struct, frozen=True, kw_only=True):
    """One update a rejoining client missed: the state it made, who acted (the action
    when this client may know it) and the events."""

    state_id: int
    actor: int | None
    action: msgspec.Raw = msgspec.Raw(b"null")
    events: msgspec.Raw = msgspec.Raw(b"[]")


class Events(Message, frozen=True, tag="events"):
    """The updates a rejoining client missed, oldest first, sent before its new view.

    `first` is the state id of the first one included: a gap after the client's last
    state id means older updates are no longer kept (the view is current anyway).
    """

    code: str
    state_id: int
    first: int
    updates: tuple[Missed, ...]


class LegalPage(Message, frozen=True, tag="legal_page"):
    """Page `page` of `pages` of the seat's legal actions (a JSON array) at `state_id`."""

    state_id: int
    page: int
    pages: int
    actions: msgspec.Raw


class Error(Message, frozen=True, tag="error"):
    """A refusal or a bad message: `code` is stable, `message` says why in words."""

    code: str
    message: str
    ref: str | None = None


class ClockMsg(Message, frozen=True, tag="clock"):
    """The room's clock (server time `now`, seconds since the epoch).

    `deadline` is when the current turn's time runs out (World War R7, WoK W12), `waiting`
    the seats the game waits for and `waiting_since` since when (the Tactics waiting timer
    shows once `show_after` has passed). WoK adds the poke and run-now state.
    """

    code: str
    now: float
    waiting: tuple[int, ...] = ()
    waiting_since: float | None = None
    show_after: float | None = None
    deadline: float | None = None
    poked_at: float | None = None
    can_poke: bool = False
    run_now_at: float | None = None
    can_run_now: bool = False
    paused: bool = False


class ChatLine(Message, frozen=True, tag="chat_line"):
    code: str
    seat: int | None
    name: str
    text: str
    at: float


class GameOverMsg(Message, frozen=True, tag="game_over"):
    """The match ended: the game's outcome (None when the host ended it) and why."""

    code: str
    outcome: dict[str, Any] | None
    reason: str


class PackFiles(Message, frozen=True, tag="pack_files"):
    """Page `page` of `pages` of the room's Tactics pack's file list (path, size, hash),
    in path order; `total_files` and `total_bytes` describe the whole pack, so a client
    refuses an oversized pack before fetching the other pages (None from a server that
    sends the whole list at once)."""

    code: str
    pack: PackRef
    files: tuple[FileEntry, ...]
    page: int = 0
    pages: int = 1
    total_files: int | None = None
    total_bytes: int | None = None


class PackChunk(Message, frozen=True, tag="pack_chunk"):
    """Part of one pack file, base64 encoded; `eof` on the last chunk."""

    code: str
    path: str
    offset: int
    data: str
    eof: bool


class ReplayChunk(Message, frozen=True, tag="replay_chunk"):
    """Part of a finished match's replay document (UTF-8 JSON of `suite.core.match.Replay`),
    base64 encoded; `size` is the whole document's, `eof` marks the last chunk."""

    code: str
    offset: int
    size: int
    data: str
    eof: bool


class ReplayView(Message, frozen=True, tag="replay_view"):
    """Step `step` (0 to `steps`) of finished room `code`'s match, as a spectator saw it:
    the spectator `view` after that many logged operations, the `events` the step made,
    its `actor` and `action` (when the game lets everyone see that kind), the seats
    `awaiting` and, once the match is decided, its `outcome`. `game` and the seats'
    `names` let a client that never saw the room show it."""

    code: str
    game: str
    step: int
    steps: int
    names: tuple[str, ...]
    view: msgspec.Raw
    awaiting: tuple[int, ...] = ()
    events: msgspec.Raw = msgspec.Raw(b"[]")
    actor: int | None = None
    action: msgspec.Raw = msgspec.Raw(b"null")
    outcome: dict[str, Any] | None = None


class WokHistoryTurn(Message, frozen=True, tag="wok_history_turn"):
    """WoK: the answer to a `wok_history`: turn `turn`'s `reports` (a list of
    `suite.wok.rules.views.Report`) exactly as the view of `seat` held them at that turn's
    end (empty for a spectator, `seat` None), the `top_ten` then, and for the charts the
    provinces and Top Ten scores of each colour (0 out of the Top Ten) at the end of
    turns `series_from` to `turn` (at most the last 100). `newest` is the newest turn with
    a report."""

    code: str
    turn: int
    newest: int
    seat: int | None
    reports: msgspec.Raw
    top_ten: msgspec.Raw
    series_from: int
    provinces: tuple[tuple[int, ...], ...]
    scores: tuple[tuple[int, ...], ...]


class PublicRoom(msgspec.Struct, frozen=True, kw_only=True):
    """A public lobby as a `rooms` answer lists it."""

    code: str
    game: str
    title: str
    seats_free: int
    players: int
    host: str
    config: dict[str, Any]


class RoomData(Message, frozen=True, tag="room_data"):
    """The fields of room `code`'s views that never change during its match (its game's
    `static_view`: a WoK map and rules, a World War map's tables), as one JSON object:
    sent once, before the first view, to a client whose hello said `lean`; its views
    then leave them out (put them back to read a view whole)."""

    code: str
    data: msgspec.Raw


class Moved(Message, frozen=True, tag="moved"):
    """Room `code` runs on another process of this server, at `url`: connect there, say
    hello and send the join, rejoin or spectate again (sent only to a client whose hello
    said `follows`, in answer to one of those)."""

    code: str
    url: str


class RoomList(Message, frozen=True, tag="rooms"):
    """The public lobbies with a free seat, newest first (at most `MAX_PUBLIC_ROOMS`)."""

    rooms: tuple[PublicRoom, ...]


class BoardRegion(msgspec.Struct, frozen=True, kw_only=True):
    """A continent: its id, name, the armies holding all of it gives, and its colour."""

    id: str
    name: str
    bonus: int
    colour: str


class BoardTerritory(msgspec.Struct, frozen=True, kw_only=True):
    """A territory as drawn: `region` is its continent's id, `neighbours` the territories
    it touches and `sea_lanes` those it reaches over the sea (ids); `polygon` its outline
    and `label` where its name and armies go, in the board's own units (empty / null when
    the map gives none). `links`: the neighbours whose shapes do not touch as drawn (the
    map's index image when it has one, else the outlines; every land neighbour when there
    are no shapes): a client draws a line to each, as it does for sea lanes."""

    id: str
    name: str
    region: str
    neighbours: tuple[str, ...]
    sea_lanes: tuple[str, ...] = ()
    polygon: tuple[tuple[float, float], ...] = ()
    label: tuple[float, float] | None = None
    links: tuple[str, ...] = ()


class BoardArtwork(msgspec.Struct, frozen=True, kw_only=True):
    """A Domination map's own picture: fetched over HTTP from `url` (content-addressed,
    on the server's port), `width` x `height` pixels in the board's units. `index`: the
    URL of its territory image when the map has a readable one: an 8-bit grey PNG of the
    same size whose pixel value is the board index of the territory there plus one (0:
    none), so a client picks the territory under the pointer by the exact pixel."""

    url: str
    width: int
    height: int
    index: str | None = None


class Board(Message, frozen=True, tag="board"):
    """Page `page` of `pages` of the board of room `code`: its territories in board order
    (the order of the view's territories) split so that each page fits in a message, with
    everything a client needs to draw them (the engine's `suite.core.board.Board.to_json`
    layout); every page repeats the name, the continents and the artwork."""

    code: str
    name: str
    page: int
    pages: int
    regions: tuple[BoardRegion, ...]
    territories: tuple[BoardTerritory, ...]
    artwork: BoardArtwork | None = None


class MapEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A map a room may name: `name` goes in the config's `map`; `kind` is "classic",
    "random", "tiled", "json" or "domination" (WoK: "shipped", "random", "tiled" or
    "json"); WoK's shipped maps say how many `provinces` they have and for how many
    `players` they have start provinces."""

    name: str
    title: str
    kind: str
    provinces: int | None = None
    players: int | None = None


class VariantEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A WoK variant (Skirmish, Duel, Trinity): `seats` 0 takes any number of players,
    else exactly that many, each giving orders for `colours_per_seat` colours; `robots`
    colours play by themselves; home provinces are safe through `protect_home_until`."""

    name: str
    summary: str
    seats: int
    colours_per_seat: int
    robots: int
    protect_home_until: int


class ClockEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A WoK turn-clock preset: its name (the config's `clock`) and seconds a turn."""

    name: str
    deadline: int


class RuleSetEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A WoK rule set (the config's `ruleset`), its variants and clock presets."""

    name: str
    title: str
    summary: str
    variants: tuple[VariantEntry, ...]
    clocks: tuple[ClockEntry, ...]


class MapList(Message, frozen=True, tag="maps"):
    """The set-up choices of a room of `game`: the maps it may name (at most `MAX_MAPS`:
    the shipped ones, the host's own, and for generated maps their range, `random:N:K`
    with N in `territories` and K in `continents`), and the values the engine takes for
    the config's `cards`, `clock` (seconds, 0: none), `mode` and `defender`. A WoK room
    names a generated map by its number of provinces (in `territories`) and picks among
    the `rulesets`, each with its variants and clocks; `max_turns` and `headhunting` are
    the ranges of those keys."""

    game: str
    maps: tuple[MapEntry, ...]
    territories: tuple[int, int] | None = None
    continents: tuple[int, int] | None = None
    cards: tuple[str, ...] = ()
    clocks: tuple[int, ...] = ()
    modes: tuple[str, ...] = ()
    defenders: tuple[str, ...] = ()
    rulesets: tuple[RuleSetEntry, ...] = ()
    max_turns: tuple[int, int] | None = None
    headhunting: tuple[int, int] | None = None
    names: tuple[str, ...] = ()
    """WoK: the kingdoms' names when the config names none (its `names`, one a seat)."""
    name_limit: int = 0
    """WoK: the longest name the config's `names` may give."""


class Odds(Message, frozen=True, tag="odds"):
    """The exact odds of attacking `defenders` with `attackers` to the end in room `code`:
    the chance of taking the territory and the armies each side loses on average."""

    code: str
    attackers: int
    defenders: int
    win: float
    attacker_loss: float
    defender_loss: float
    exact: bool = True
    """False only for battles too large to compute exactly (a normal approximation)."""


class TacticsMapEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A map of a Tactics pack as the set-up lists it: `id` goes in the config's `map`;
    `elevation` is "flat", "bumpy (roughness R)" (generated from its seed) or "elevation
    bitmap"; `starts` how many armies it holds; `requirements` what the host needs (T12)."""

    id: int
    name: str
    size: int
    elevation: str
    starts: int
    author: str = ""
    requirements: str = ""


class TacticsPieceEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A piece an army may hold: `short` is the original's "17/7" (HP + STR + DEF + AGI,
    then MOB + RANGE), `max_count` its max# in one army, `requirements` what a seat needs
    to field it (T12)."""

    id: int
    name: str
    short: str
    max_count: int
    requirements: str
    hp: int
    strength: int
    defense: int
    agility: int
    mobility: int
    range: int
    weapon: str
    portrait: str = ""
    """Its stand frame in red, a PNG under `/pack/` (empty when the server made none)."""


class TacticsSetup(Message, frozen=True, tag="tactics_setup"):
    """The Book of Tactics' choices with pack `pack` (None: the shipped one): the packs
    the server offers (`packs`, its folder names), the playable maps, the pieces an army
    may hold (at most `MAX_SETUP_PIECES`), the pieces-per-turn choices (0: all rested),
    the formation's side (3: a 3x3 army), the army size limit and the round cap, and the
    pack's problems (at most `MAX_PROBLEMS`)."""

    pack: str | None
    packs: tuple[str, ...]
    maps: tuple[TacticsMapEntry, ...]
    pieces: tuple[TacticsPieceEntry, ...]
    pieces_per_turn: tuple[int, ...]
    default_pieces_per_turn: int
    formation_side: int
    max_pieces: int
    max_rounds: int
    problems: tuple[str, ...] = ()


class TacticsArtMsg(Message, frozen=True, tag="tactics_art"):
    """Where a browser finds what it needs to draw Tactics room `code`: `url`, a
    content-addressed JSON document (`TacticsArt`) on the server's port, and the problems
    of the room's pack (broken files are drawn as placeholders or stay silent; at most
    `MAX_PROBLEMS`)."""

    code: str
    url: str
    problems: tuple[str, ...] = ()


class TileArt(msgspec.Struct, frozen=True, kw_only=True):
    """A tile of the map: its palette index (as in `TacticsArt.tiles`), name and picture
    (a 128 x 128 PNG: the top diamond over the cube sides)."""

    index: int
    name: str
    url: str


class SkinArt(msgspec.Struct, frozen=True, kw_only=True):
    """A piece kind's filmstrip recoloured for army `army` (0 red, 1 green, 2 yellow,
    3 blue), its shadow drawn in: a PNG of `frames` square frames `size` pixels high, side
    by side, named as `TacticsArt.frame_names` says."""

    piece: int
    army: int
    url: str
    size: int
    frames: int


class SoundSetArt(msgspec.Struct, frozen=True, kw_only=True):
    """A sound set of the pack: play any one of `urls` (checked PCM WAV files)."""

    id: int
    name: str
    urls: tuple[str, ...]


class PieceArt(msgspec.Struct, frozen=True, kw_only=True):
    """A piece kind on the field: its name and its sound sets by event (`ready`, `go`,
    `attack`, `pain`, `death` and its weapon's `hit`, `miss`, `crit`; 0 or absent:
    silent)."""

    kind: int
    name: str
    sets: dict[str, int]


class TacticsArt(msgspec.Struct, frozen=True, kw_only=True):
    """What a browser needs to draw one Tactics battle (served as JSON under the hash of
    its bytes): the map as the engine loaded it (`size` x `size` cells; `tiles` and
    `heights` base64, one byte per cell row by row: the tile's palette index, 0 the
    border, and the height 0-255), its tiles, the armies' colours (`#rrggbb`, 0 red to 3
    blue) and the palette indices the server recoloured with them, the skins of the
    pieces on the field, their sounds and the pack's named sets (`turn`, `win`,
    `lose`)."""

    name: str
    size: int
    tiles: str
    heights: str
    tile_table: tuple[TileArt, ...]
    armies: tuple[str, ...]
    team_indices: tuple[int, ...]
    frame_names: tuple[str, ...]
    skins: tuple[SkinArt, ...]
    pieces: tuple[PieceArt, ...]
    sound_sets: tuple[SoundSetArt, ...]
    named_sets: dict[str, int]


class TacticsResultLine(msgspec.Struct, frozen=True, kw_only=True):
    """What a finished battle changed for one seat on the server's ladder: its player's
    Elo after it (`rating`, None for a bot: bots are never rated, T10) and the `change`,
    the war points it earned (T11) and its total, its wins, losses and level, and the
    tokens it earned (T12)."""

    seat: int
    name: str
    human: bool
    rating: float | None
    change: float
    war_points: int
    war_total: int
    wins: int
    losses: int
    level: int
    new_tokens: tuple[int, ...] = ()


class TacticsResult(Message, frozen=True, tag="tactics_result"):
    """What Tactics room `code`'s battle changed on the server's ladder, seat by seat."""

    code: str
    lines: tuple[TacticsResultLine, ...]


class DraftReportMsg(Message, frozen=True, tag="draft_report"):
    """WoK: the answer to this seat's `draft_check` at state `state_id` (or, on a rejoin,
    about the draft the room kept): `draft` as the seat sent it and `report`, what the
    order form says about it (`suite.wok.rules.drafting.DraftReport`)."""

    code: str
    state_id: int
    draft: msgspec.Raw
    report: msgspec.Raw
    ref: int = 0
    """The `ref` of the `draft_check` answered (0 for the draft sent back on a rejoin)."""


ServerMessage = (
    TacticsSetup
    | TacticsArtMsg
    | TacticsResult
    | Board
    | DraftReportMsg
    | MapList
    | Odds
    | Welcome
    | Seated
    | Room
    | ViewMsg
    | Events
    | LegalPage
    | Error
    | ClockMsg
    | ChatLine
    | GameOverMsg
    | PackFiles
    | PackChunk
    | ReplayChunk
    | ReplayView
    | RoomList
    | Moved
    | RoomData
    | WokHistoryTurn
)

_client_decoder = msgspec.json.Decoder(ClientMessage)
_server_decoder = msgspec.json.Decoder(ServerMessage)
_encoder = msgspec.json.Encoder()


class ProtocolError(ValueError):
    """A message that cannot be read; `error` is what to send back."""

    def __init__(self, error: Error) -> None:
        super().__init__(error.message)
        self.error = error


def encode(message: Message) -> bytes:
    """A message as UTF-8 JSON."""
    return _encoder.encode(message)


def _size(data: str | bytes) -> int:
    return len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)


def decode_client(data: str | bytes, max_bytes: int = MAX_MESSAGE) -> ClientMessage:
    """Parse a client message; ProtocolError (never another exception) when it is bad.

    Refusals: ``too_large`` over `max_bytes` (at most `MAX_MESSAGE`), ``bad_json`` for
    text that is not JSON, ``bad_message`` for JSON that is not a known message of the
    right shape or that nests too deeply to read.
    """
    if _size(data) > max_bytes:
        raise ProtocolError(
            Error(code="too_large", message=f"messages are limited to {max_bytes} bytes")
        )
    try:
        message: ClientMessage = _client_decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise ProtocolError(Error(code="bad_message", message=str(exc)[:500])) from None
    except (msgspec.DecodeError, UnicodeError) as exc:
        raise ProtocolError(Error(code="bad_json", message=f"not JSON: {exc}"[:500])) from None
    except RecursionError:
        raise ProtocolError(
            Error(code="bad_message", message="that message nests too deeply")
        ) from None
    return message


def decode_server(data: str | bytes) -> ServerMessage:
    """Parse a server message (clients); ProtocolError when it is bad."""
    if _size(data) > MAX_MESSAGE:
        raise ProtocolError(Error(code="too_large", message="message over the size limit"))
    try:
        message: ServerMessage = _server_decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise ProtocolError(Error(code="bad_message", message=str(exc))) from None
    except (msgspec.DecodeError, UnicodeError) as exc:
        raise ProtocolError(Error(code="bad_json", message=f"not JSON: {exc}")) from None
    return message


NULL = msgspec.Raw(b"null")


def present(raw: msgspec.Raw) -> bool:
    """Whether an optional raw JSON field holds a value (it is ``null`` when absent)."""
    return bytes(raw) != b"null"


def to_json(record: Any) -> Any:
    """A game record (typed view, action, event, outcome or plain dict) as JSON builtins."""
    return msgspec.to_builtins(record, str_keys=True)
