"""An asyncio client of `suite serve`, and a bot that plays through it.

`Client` keeps what the server last said (room, seat and token, view, clock, game over)
and lets callers wait for a condition. `typed_view` / `typed_events` / `typed_actions`
turn the protocol's JSON into each game's typed records. `play_bot` plays a seat with one
of the game's bots, seeing only what the server sends that seat.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import ssl
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from suite.core.board import Board
from suite.core.bots import Bot, RandomBot
from suite.core.match import Action, Replay, decode_action, game_spec
from suite.core.rng import Rng
from suite.net import protocol as P
from suite.net.client.packs import FileBuffer, PackCache
from suite.net.client.replays import decode_replay
from suite.net.packsync import PackSyncError, Progress, describe

log = logging.getLogger("suite.net.client")
RATE_RETRIES = 12
"""Times one pack request is sent again after `rate_limited` refusals (backing off)."""


class ServerError(RuntimeError):
    """The server refused a request; `error` is its message."""

    def __init__(self, error: P.Error) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.error = error


async def _open(url: str, timeout: float, options: dict[str, Any]) -> ClientConnection:
    return await connect(
        url,
        max_size=2 * P.MAX_MESSAGE,
        compression=None,
        open_timeout=timeout,
        proxy=None,
        **options,
    )


def typed_view(game: str, raw: msgspec.Raw, static: dict[str, Any] | None = None) -> Any:
    """The game's typed view from its JSON, with the room's unchanging fields put back
    (`static`, from `room_data`, for a view that left them out); plain JSON data when
    the game has no view type or the view does not fit it."""
    view_type = getattr(game_spec(game), "view_type", None)
    if not static:
        if view_type is not None:
            with contextlib.suppress(msgspec.ValidationError):
                return msgspec.json.decode(raw, type=view_type)
        return msgspec.json.decode(raw)
    data = msgspec.json.decode(raw)
    if not isinstance(data, dict):
        return data
    whole = msgspec.json.encode({**static, **data})  # read exactly as a whole view is
    if view_type is not None:
        with contextlib.suppress(msgspec.ValidationError):
            return msgspec.json.decode(whole, type=view_type)
    return msgspec.json.decode(whole)


def typed_events(game: str, raw: msgspec.Raw) -> list[Any]:
    """The game's typed events from a JSON array (plain data for unknown kinds)."""
    event_type = getattr(game_spec(game), "event_type", None)
    items: list[Any] = msgspec.json.decode(raw)
    if event_type is None:
        return items
    out = []
    for item in items:
        try:
            out.append(msgspec.convert(item, type=event_type, strict=False))
        except msgspec.ValidationError:
            out.append(item)
    return out


def typed_actions(game: str, raw: msgspec.Raw) -> list[Action]:
    return [decode_action(game, item) for item in msgspec.json.decode(raw)]


class Client:
    """One connection to a match server. Build with `await Client.connect(url, name)`."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.url = ""
        """The address of the process this client is connected to now."""
        self.moved: P.Moved | None = None
        """The last `moved` answer (the room runs on another process of the server)."""
        self._options: dict[str, Any] = {}
        self._hello = P.Hello(name=name, client="warsuite", follows=True, lean=True)
        self.static: dict[str, Any] = {}
        """The room's unchanging view fields (`room_data`): views come without them."""
        self._timeout = 10.0
        self.welcome: P.Welcome | None = None
        self.code: str | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.host = False
        self.room: P.Room | None = None
        self.view: P.ViewMsg | None = None
        self.clock: P.ClockMsg | None = None
        self.game_over: P.GameOverMsg | None = None
        self.errors: list[P.Error] = []
        self.chat: list[P.ChatLine] = []
        self.missed: list[P.Events] = []
        self.received: list[P.ServerMessage] = []
        self.keep_received = False
        self.listeners: list[Callable[[P.ServerMessage], None]] = []
        self.closed = False
        self._changed = asyncio.Condition()
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def connect(
        cls,
        url: str,
        name: str,
        *,
        ssl_context: ssl.SSLContext | None = None,
        tactics_pack: P.PackRef | None = None,
        timeout: float = 10.0,
    ) -> Client:
        """Connect, say hello and wait for the welcome (ServerError if refused). A wss://
        address uses the system's certificate authorities unless `ssl_context` is given."""
        options: dict[str, Any] = {} if ssl_context is None else {"ssl": ssl_context}
        client = cls(await _open(url, timeout, options), name)
        client.url, client._options, client._timeout = url, options, timeout
        client._hello = P.Hello(
            name=name, client="warsuite", tactics_pack=tactics_pack, follows=True, lean=True
        )
        await client._greet()
        return client

    async def _greet(self) -> None:
        await self.send(self._hello)
        await self.wait(lambda c: c.welcome is not None, timeout=self._timeout, fail_on_error=True)

    async def _move(self, url: str) -> None:
        """Leave this connection for the server's process at `url` (it runs our room)."""
        await self.close()
        self.ws = await _open(url, self._timeout, self._options)
        self.url, self.closed, self.welcome = url, False, None
        self._reader = asyncio.ensure_future(self._read())
        await self._greet()

    async def _enter(self, message: P.Message, entered: Callable[[Client], bool]) -> None:
        """Send a join, rejoin or spectate and wait until `entered`; when the server
        answers that the room runs on another of its processes (`moved`), follow it there
        and ask again (ConnectionError when it keeps moving)."""
        for _ in range(3):
            self.moved = None
            await self.send(message)
            await self.wait(lambda c: entered(c) or c.moved is not None, fail_on_error=True)
            if self.moved is None:
                return
            await self._move(self.moved.url)
        raise ConnectionError("the room kept moving between the server's processes")

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                try:
                    message = P.decode_server(data)
                except P.ProtocolError as exc:
                    log.warning("bad message from the server: %s", exc)
                    continue
                self._note(message)
                async with self._changed:
                    self._changed.notify_all()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            async with self._changed:
                self._changed.notify_all()

    def _note(self, m: P.ServerMessage) -> None:
        if self.keep_received:
            self.received.append(m)
        if isinstance(m, P.Welcome):
            self.welcome = m
        elif isinstance(m, P.Seated):
            self.code, self.seat, self.token, self.host = m.code, m.seat, m.token, m.host
        elif isinstance(m, P.Room):
            self.room, self.code = m, m.code
        elif isinstance(m, P.ViewMsg):
            self.view = m
        elif isinstance(m, P.ClockMsg):
            self.clock = m
        elif isinstance(m, P.GameOverMsg):
            self.game_over = m
        elif isinstance(m, P.Error):
            self.errors.append(m)
            if m.code in ("kicked", "replaced"):
                self.seat = self.token = None
        elif isinstance(m, P.Events):
            self.missed.append(m)
        elif isinstance(m, P.ChatLine):
            self.chat.append(m)
        elif isinstance(m, P.Moved):
            self.moved = m
        elif isinstance(m, P.RoomData):
            data = msgspec.json.decode(m.data)
            self.static = data if isinstance(data, dict) else {}
        for listener in self.listeners:
            listener(m)

    async def send(self, message: P.Message) -> None:
        await self.ws.send(P.encode(message), text=True)

    async def send_raw(self, data: str | bytes) -> None:
        """Send anything as one frame: text for str, binary for bytes (robustness tests)."""
        await self.ws.send(data)

    async def wait(
        self,
        predicate: Callable[[Client], bool],
        *,
        timeout: float = 10.0,
        fail_on_error: bool = False,
    ) -> None:
        """Wait until `predicate(self)` holds (TimeoutError; ServerError on a new error when
        `fail_on_error`; ConnectionError when the connection closes first)."""
        errors = len(self.errors)

        def done() -> bool:
            if fail_on_error and len(self.errors) > errors:
                return True
            return predicate(self) or self.closed

        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(done)
        if fail_on_error and len(self.errors) > errors:
            raise ServerError(self.errors[errors])
        if not predicate(self):
            raise ConnectionError("the server closed the connection")

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader

    # -- requests ----------------------------------------------------------------------------

    async def create(self, game: str, config: dict[str, Any], *, public: bool = False) -> None:
        """Open a room (the server draws its seed); `public` lists it in `list_rooms`."""
        await self.send(P.Create(game=game, config=config, public=public))
        await self.wait(lambda c: c.token is not None and c.room is not None, fail_on_error=True)

    async def list_rooms(self, game: str | None = None) -> tuple[P.PublicRoom, ...]:
        """The server's public lobbies with a free seat (of `game` only, when given), at
        most `P.MAX_PUBLIC_ROOMS` of them (ServerError when the server refuses)."""
        answers: list[P.RoomList] = []

        def take(m: P.ServerMessage) -> None:
            if isinstance(m, P.RoomList):
                answers.append(m)

        since = len(self.errors)
        self.listeners.append(take)
        try:
            await self.send(P.ListRooms(game=game))
            await self.wait(lambda c: bool(answers) or _refusal(c, since, "rooms") is not None)
        finally:
            self.listeners.remove(take)
        refusal = _refusal(self, since, "rooms")
        if not answers and refusal is not None:
            raise ServerError(refusal)
        return answers[0].rooms[: P.MAX_PUBLIC_ROOMS]

    async def join(self, code: str, seat: int | None = None) -> None:
        await self._enter(
            P.Join(code=code, seat=seat), lambda c: c.token is not None and c.room is not None
        )

    async def rejoin(self, token: str, since: int | None = None) -> None:
        """Take the seat back; with `since` (the last state id seen) the server first sends
        the updates missed meanwhile (an `events` message)."""
        self.view = None
        await self._enter(
            P.Rejoin(token=token, since=since), lambda c: c.view is not None and c.token == token
        )

    async def spectate(self, code: str) -> None:
        await self._enter(
            P.Spectate(code=code), lambda c: c.view is not None and c.view.seat is None
        )

    def _token(self) -> str:
        if self.token is None:
            raise RuntimeError("this client holds no seat")
        return self.token

    async def ready(self, ready: bool = True) -> None:
        """Set the ready flag. In the lobby, wait until the room shows it (and, when this
        made every seat ready, until the match has begun)."""
        token = self._token()
        lobby = self.room is not None and self.room.phase == "lobby"
        await self.send(P.Ready(token=token) if ready else P.Unready(token=token))
        if lobby:
            await self.wait(lambda c: _ready_shown(c, ready), fail_on_error=True)

    async def seat_bot(self, seat: int, bot: str) -> None:
        await self.send(P.SeatBot(token=self._token(), seat=seat, bot=bot))

    async def act(self, action: Action | dict[str, Any], state_id: int | None = None) -> None:
        """Send an action on the last state seen (or `state_id`)."""
        if state_id is None:
            assert self.view is not None
            state_id = self.view.state_id
        data = action if isinstance(action, dict) else msgspec.to_builtins(action)
        await self.send(P.Act(token=self._token(), state_id=state_id, action=data))

    async def legal(self, view: P.ViewMsg) -> Sequence[Action] | RemoteSpace:
        """The legal actions that came with `view`, fetching pages when they did not fit."""
        assert self.room is not None
        game = self.room.game
        if P.present(view.legal):
            return typed_actions(game, view.legal)
        if view.choices is not None or not view.legal_pages:
            return RemoteSpace(game, view.choices or {})
        pages: dict[int, P.LegalPage] = {}

        def take(m: P.ServerMessage) -> None:
            if isinstance(m, P.LegalPage) and m.state_id == view.state_id:
                pages[m.page] = m

        self.listeners.append(take)
        try:
            for page in range(view.legal_pages):
                await self.send(
                    P.LegalRequest(token=self._token(), state_id=view.state_id, page=page)
                )
            await self.wait(
                lambda c: (
                    len(pages) == view.legal_pages
                    or (c.view is not None and c.view.state_id != view.state_id)
                ),
                fail_on_error=True,
            )
        finally:
            self.listeners.remove(take)
        out: list[Action] = []
        for page in sorted(pages):
            out += typed_actions(game, pages[page].actions)
        return out


def _answered(chunks: Mapping[int, object], offset: int, errors: int, c: Client) -> bool:
    """The answer at `offset` (a replay chunk's offset, a board's page) came, or an error
    since `errors` were counted (the answer may come before the wait begins)."""
    return offset in chunks or len(c.errors) > errors


async def fetch_replay(client: Client, code: str) -> Replay:
    """Room `code`'s replay, once its match is over (ServerError with the server's reason
    when there is none: `not_over`, `no_replay`, `no_room`; ValueError when malformed)."""
    code = code.strip().upper()  # as the server reads room codes
    chunks: dict[int, P.ReplayChunk] = {}

    def take(m: P.ServerMessage) -> None:
        if isinstance(m, P.ReplayChunk) and m.code == code:
            chunks[m.offset] = m

    client.listeners.append(take)
    try:
        data = bytearray()
        while True:
            offset, errors = len(data), len(client.errors)
            await client.send(P.ReplayRequest(code=code, offset=offset))
            await client.wait(partial(_answered, chunks, offset, errors))
            if offset not in chunks:
                raise ServerError(client.errors[errors])
            chunk = chunks.pop(offset)
            part = base64.b64decode(chunk.data)
            data += part
            if chunk.eof or not part or len(data) >= chunk.size:
                break
    finally:
        client.listeners.remove(take)
    return decode_replay(bytes(data))


async def fetch_board(client: Client, code: str) -> Board:
    """The board of World War room `code`, page by page from the server's `board`
    messages, as the engine's `Board` (ServerError with the server's reason: `no_room`,
    `not_worldwar`; BoardError when the pages do not make a valid board)."""
    code = code.strip().upper()
    pages: dict[int, P.Board] = {}

    def take(m: P.ServerMessage) -> None:
        if isinstance(m, P.Board) and m.code == code:
            pages[m.page] = m

    client.listeners.append(take)
    try:
        page, total = 0, 1
        while page < total:
            errors = len(client.errors)
            await client.send(P.BoardRequest(code=code, page=page))
            await client.wait(partial(_answered, pages, page, errors))
            if page not in pages:
                raise ServerError(client.errors[errors])
            total = pages[page].pages
            page += 1
    finally:
        client.listeners.remove(take)
    return board_from_pages([pages[i] for i in range(total)])


def board_from_pages(pages: Sequence[P.Board]) -> Board:
    """The `Board` that `board` pages describe (BoardError when they are not one)."""
    first = pages[0]
    nodes = []
    for page in pages:
        for t in page.territories:
            node: dict[str, Any] = {
                "id": t.id,
                "name": t.name,
                "region": t.region,
                "neighbours": list(t.neighbours),
                "sea_lanes": list(t.sea_lanes),
                "polygon": [list(xy) for xy in t.polygon],
            }
            if t.label is not None:
                node["label"] = list(t.label)
            nodes.append(node)
    regions = [P.to_json(r) for r in first.regions]
    return Board.from_json({"name": first.name, "regions": regions, "nodes": nodes}, "server")


async def sync_pack(
    client: Client,
    cache: PackCache,
    own: Path | None = None,
    progress: Progress | None = None,
) -> Path | None:
    """Make sure this client has the room's Tactics pack: its `own` pack folder or the
    cached copy when the content digest matches, else download it from the server into
    `cache`. None when the room has no pack.

    The whole file list (fetched page by page) is checked against the pack limits, its
    paths and the digest before any file is downloaded (`PackCache.check`); files go to a
    staging folder that is removed after any failure. Every failure (a refused or
    malformed list, a file that does not match, the server's refusal, a dropped
    connection, no answer in time) is a PackSyncError saying why. `progress` is called
    with (bytes downloaded, bytes in all) after each chunk."""
    room = client.room
    if room is None or room.pack is None:
        return None
    ref = room.pack
    with contextlib.suppress(OSError, PackSyncError):
        if own is not None and own.is_dir() and describe(own)[0].digest == ref.digest:
            return own
    if cache.has(ref):
        return cache.folder(ref)
    try:
        return await _download_pack(client, room.code, ref, cache, progress)
    except ServerError as exc:
        raise PackSyncError(f"the server refused the pack: {exc.error.message}") from None
    except TimeoutError:
        raise PackSyncError("the server did not send the pack in time") from None
    except (ConnectionError, OSError) as exc:
        raise PackSyncError(f"the connection dropped during the download ({exc})") from None


async def _download_pack(
    client: Client, code: str, ref: P.PackRef, cache: PackCache, progress: Progress | None
) -> Path:
    answers: dict[tuple[str | None, int], P.PackFiles | P.PackChunk] = {}
    wanted: list[tuple[str | None, int]] = []  # only the answer asked for is kept

    def take(m: P.ServerMessage) -> None:
        if isinstance(m, P.PackFiles | P.PackChunk) and m.code == code:
            key = (None, m.page) if isinstance(m, P.PackFiles) else (m.path, m.offset)
            if key in wanted:
                answers[key] = m

    async def ask(path: str | None, offset: int) -> P.PackFiles | P.PackChunk:
        """The answer to one request; a `rate_limited` refusal is waited out and the
        request sent again (the server's limit is not known here), the server's refusal
        of the request is a ServerError."""
        key = (path, offset)
        wanted[:] = [key]
        for attempt in range(RATE_RETRIES):
            since = len(client.errors)
            await client.send(P.PackRequest(code=code, path=path, offset=offset))
            await client.wait(partial(_answered_or_refused, answers, key, since))
            if key in answers:
                return answers.pop(key)
            refusal = _refusal(client, since, "pack_request")
            assert refusal is not None
            if refusal.code != "rate_limited":
                raise ServerError(refusal)
            await asyncio.sleep(min(2.0, 0.05 * 2**attempt))
        raise PackSyncError("the server keeps refusing: too many requests")

    async def listing(page: int) -> P.PackFiles:
        answer = await ask(None, page)
        assert isinstance(answer, P.PackFiles)
        if answer.pack.digest != ref.digest:
            raise PackSyncError("the server sent the file list of another pack")
        return answer

    client.listeners.append(take)
    try:
        first = await listing(0)
        cache.check_announced(first.total_files, first.total_bytes)
        if not 1 <= first.pages <= max(1, cache.bounds.files):
            raise PackSyncError(f"the server announces {first.pages} pages of files")
        files = list(first.files)
        for page in range(1, first.pages):
            more = await listing(page)
            if not more.files or more.pages != first.pages:
                raise PackSyncError(f"page {page} of the file list is malformed")
            files += more.files
            cache.check_announced(len(files), None)
        listed = tuple(files)
        total = cache.check(ref, listed)
        if first.total_files is not None and first.total_files != len(listed):
            raise PackSyncError("the file list does not hold the files it announced")
        if first.total_bytes is not None and first.total_bytes != total:
            raise PackSyncError("the file list does not add up to the size it announced")
        done = 0
        with cache.staging(ref) as stage:
            for entry in listed:
                buffer = FileBuffer(entry)
                while not buffer.complete:
                    chunk = await ask(entry.path, buffer.offset)
                    assert isinstance(chunk, P.PackChunk)
                    before = buffer.offset
                    buffer.take_base64(chunk.data)
                    done += buffer.offset - before
                    if progress is not None:
                        progress(done, total)
                stage.add(entry, buffer.data())
            return stage.commit()
    finally:
        client.listeners.remove(take)


def _answered_or_refused(
    answers: dict[Any, Any], key: tuple[str | None, int], since: int, client: Client
) -> bool:
    return key in answers or _refusal(client, since, "pack_request") is not None


def _refusal(client: Client, since: int, ref: str) -> P.Error | None:
    """The first error since `since` that refuses a request of type `ref` (or rate limits
    it: a `rate_limited` error names no request); errors about other requests are not."""
    for error in client.errors[since:]:
        if error.ref == ref or error.code == "rate_limited":
            return error
    return None


def _ready_shown(client: Client, ready: bool) -> bool:
    room, seat = client.room, client.seat
    if room is None or seat is None:
        return False
    if room.phase != "lobby":
        return True
    if room.seats[seat].ready != ready:
        return False
    return not (ready and all(s.kind != "open" and s.ready for s in room.seats))


class CannotSample(RuntimeError):
    """A remote action space was asked for a random action: only the server's state can
    draw one, so a client-side bot must build its orders from the view instead."""


class RemoteSpace:
    """A seat's action space as a client knows it: the server's description of the
    choices. Whether an action is in it only the server can say (it answers an `illegal`
    error), so `contains` accepts any well-formed action of the game; `sample` is not
    offered (sampling needs the state)."""

    def __init__(self, game: str, choices: dict[str, Any]) -> None:
        self.game = game
        self.choices = choices

    def contains(self, action: Action) -> bool:
        try:
            decode_action(self.game, msgspec.to_builtins(action))
        except ValueError:
            return False
        return True

    def sample(self, rng: Rng) -> Action:
        raise CannotSample("a remote action space cannot be sampled: use a view bot")

    def describe(self) -> dict[str, Any]:
        return self.choices


async def play_bot(client: Client, bot: Bot | None = None, *, seed: int = 0) -> None:
    """Play the client's seat with `bot` (the game's first bot) until the game is over.

    The bot sees only this seat's view and legal actions as the server sent them. After a
    refusal on the same state the bot tries again, picking at random among the legal
    actions when it has a list of them.
    """
    assert client.room is not None
    game = client.room.game
    spec = game_spec(game)
    if bot is None:
        bot = next(iter(spec.bots.values()))() if spec.bots else RandomBot()
    rng = Rng(seed)
    acted_on = -1
    errors = 0
    while client.game_over is None and not client.closed:

        def my_turn(c: Client, acted_on: int = acted_on, errors: int = errors) -> bool:
            if c.game_over is not None:
                return True
            return (
                c.view is not None
                and c.view.seat in c.view.awaiting
                and (c.view.state_id != acted_on or len(c.errors) != errors)
                and c.room is not None
                and c.room.phase == "playing"
            )

        await client.wait(my_turn, timeout=120.0)
        if client.game_over is not None:
            return
        if len(client.errors) != errors and client.errors[-1].code == "rate_limited":
            await asyncio.sleep(0.1)
        view = client.view
        assert view is not None
        errors = len(client.errors)
        legal = await client.legal(view)
        if client.view is not view:
            continue
        seen = typed_view(game, view.view, client.static)
        refused_here = view.state_id == acted_on
        if refused_here and isinstance(legal, Sequence) and legal:
            choice = RandomBot().choose(seen, legal, rng)
        else:
            choice = bot.choose(seen, legal, rng)
        acted_on = view.state_id
        await client.act(choice, view.state_id)
