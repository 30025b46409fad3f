"""`Refused`: a request the server turns down, with the protocol error code to send."""

from __future__ import annotations


class Refused(Exception):
    """A request the server or a room turns down; `code` is the protocol error code and
    `message` the reason shown to the client. Nothing changed when it is raised."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
