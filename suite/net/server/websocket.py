"""The server's end of a websocket, trimmed for many small messages: `ServerSocket`
(what websockets' `serve` makes for each client, through `create_connection`) and
`text_frame`.

websockets' asyncio connection passes every message to the handler through an assembler
and a wake-up of the handler's task. The server handles a message in one synchronous call
(`MatchServer.receive`), so once `deliver_to` names that call, a `ServerSocket` hands it
each data message as soon as the frame is parsed: a text message as `str` (invalid UTF-8 closes the
connection with 1007, as websockets does), a binary one as `bytes`, fragments joined first
(the protocol bounds the whole message by `max_size`). Messages parsed before `deliver_to`
wait for it, in order (at most `MAX_EARLY`). Pings, pongs and the closing handshake
stay websockets'.

`text_frame` frames a text message the server writes itself, with the bytes websockets
would write: unmasked (a server's frames are) and not compressed (the server turns
compression off; were permessage-deflate ever negotiated, an uncompressed message would
still be valid, RFC 7692 section 6). Writing the frame directly costs a tenth of
`Protocol.send_text` and `data_to_send`, and a server writes four or more of them for
every action.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import Server, ServerConnection
from websockets.frames import BINARY, CONT, TEXT, CloseCode, Frame
from websockets.protocol import Event
from websockets.server import ServerProtocol

log = logging.getLogger("suite.net")

MessageHandler = Callable[[str | bytes], None]
"""Takes one whole data message (must not raise: a failure is logged and dropped)."""

MAX_EARLY = 32
"""Messages that may wait for `deliver_to` (a client waits for its `welcome` before it says
more; a flood before the server is ready closes the connection with 1008)."""


class ServerSocket(ServerConnection):
    """See the module docstring."""

    def __init__(self, protocol: ServerProtocol, server: Server, **options: Any) -> None:
        super().__init__(protocol, server, **options)
        self._on_message: MessageHandler | None = None
        self._early: list[str | bytes] = []
        """Messages parsed before `deliver_to` (at most `MAX_EARLY`)."""
        self._parts: list[bytes] = []
        self._text = False
        """The fragmented message being gathered is text."""
        self._failed = False

    def deliver_to(self, on_message: MessageHandler) -> None:
        """From now on every data message goes to `on_message` (those that came before,
        first)."""
        self._on_message = on_message
        early, self._early = self._early, []
        for message in early:
            self._hand(message)

    def process_event(self, event: Event) -> None:
        if self.request is None or not isinstance(event, Frame):
            super().process_event(event)  # the handshake request
            return
        opcode = event.opcode
        if opcode is TEXT or opcode is BINARY:
            if event.fin:
                self._message(opcode is TEXT, bytes(event.data))
            else:
                self._text, self._parts = opcode is TEXT, [bytes(event.data)]
        elif opcode is CONT:
            self._parts.append(bytes(event.data))
            if event.fin:
                whole, self._parts = b"".join(self._parts), []
                self._message(self._text, whole)
        else:
            super().process_event(event)  # pongs acknowledge pings

    def _message(self, text: bool, data: bytes) -> None:
        if self._failed:
            return
        message: str | bytes = data
        if text:
            try:
                message = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                self._failed = True
                reason = f"{exc.reason} at position {exc.start}"
                asyncio.ensure_future(self.close(CloseCode.INVALID_DATA, reason))
                return
        if self._on_message is None:
            if len(self._early) >= MAX_EARLY:
                self._failed = True
                asyncio.ensure_future(self.close(CloseCode.POLICY_VIOLATION, "too many messages"))
                return
            self._early.append(message)
        else:
            self._hand(message)

    def _hand(self, message: str | bytes) -> None:
        assert self._on_message is not None
        try:
            self._on_message(message)
        except Exception:  # the websocket's reader must go on whatever a message does
            log.exception("a message's handler failed")


def text_frame(data: bytes) -> bytes:
    """The frame a server writes for the text message `data` (see the module docstring)."""
    size = len(data)
    if size < 126:
        return bytes((0x81, size)) + data
    if size < 65536:
        return b"\x81\x7e" + size.to_bytes(2, "big") + data
    return b"\x81\x7f" + size.to_bytes(8, "big") + data
