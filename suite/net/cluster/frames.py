"""The messages between server processes, sent over the presence (`Presence.send`)."""

from __future__ import annotations

import msgspec


class Frame(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One message between processes. Kinds: `open` (a client's process attaches a
    connection to the owner), `in` (a client message for the owner), `bye` (the client
    left or dropped), `out` (a server message for the client), `close` (the owner let
    the client go: close it so it reconnects), `adopt` (a process handed its rooms over:
    adopt now). `p` is the sender's process id, `c` the connection's id there, `d` the
    message (or the reason of a close), `n` and `a` the client's name and address."""

    k: str
    p: str
    c: int = 0
    d: str = ""
    n: str = ""
    a: str = ""


decode_frame = msgspec.json.Decoder(Frame).decode
encode_frame = msgspec.json.Encoder().encode
