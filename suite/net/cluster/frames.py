"""The messages between server processes, sent over the presence (`Presence.send`).

A frame is a small JSON header, a newline, then its payload as it came: a client's
message or the owner's answer travels byte for byte, never escaped into JSON or decoded
on the way (the header holds no newline: JSON escapes it in strings).
"""

from __future__ import annotations

import msgspec


class Frame(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One message between processes. Kinds: `open` (a client's process attaches a
    connection to the owner), `in` (a client message for the owner), `bye` (the client
    left or dropped), `out` (a server message for the client), `close` (the owner let
    the client go: close it so it reconnects), `adopt` (a process handed its rooms over:
    adopt now). `p` is the sender's process id, `c` the connection's id there; `n`,
    `a` and `lean` the client's name, address and whether it takes lean views; `d` is
    the payload (the message, or the reason of a close), carried after the header."""

    k: str
    p: str
    c: int = 0
    n: str = ""
    a: str = ""
    lean: bool = False
    d: bytes = b""


class _Header(msgspec.Struct, kw_only=True, omit_defaults=True):
    k: str
    p: str
    c: int = 0
    n: str = ""
    a: str = ""
    lean: bool = False


_encode_header = msgspec.json.Encoder().encode
_decode_header = msgspec.json.Decoder(_Header).decode


def encode_frame(frame: Frame) -> bytes:
    """The header, a newline, the payload."""
    header = _Header(k=frame.k, p=frame.p, c=frame.c, n=frame.n, a=frame.a, lean=frame.lean)
    return _encode_header(header) + b"\n" + frame.d


def decode_frame(data: bytes) -> Frame:
    """A frame from `encode_frame`'s bytes (msgspec.DecodeError or ValidationError when
    malformed)."""
    header, newline, payload = data.partition(b"\n")
    if not newline:
        raise msgspec.DecodeError("a frame has a header line")
    h = _decode_header(header)
    return Frame(k=h.k, p=h.p, c=h.c, n=h.n, a=h.a, lean=h.lean, d=payload)
