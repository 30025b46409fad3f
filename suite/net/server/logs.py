"""The server's log lines: level, time, room and client address on every line.

The address of the client whose message is being handled lives in a context variable
(`client_address`), set by the server around each message, so a room's log line names
who caused it without the room knowing about connections. `configure` sends the lines to
stderr or to a file.
"""

from __future__ import annotations

import contextvars
import logging
import sys
from pathlib import Path

client_address: contextvars.ContextVar[str] = contextvars.ContextVar("client_address", default="-")
"""The address of the client whose message the server is handling ("-" for none)."""

HANDLER_NAME = "suite.net.server"
FORMAT = "%(asctime)s %(levelname)s room=%(room)s client=%(client)s %(message)s"


class ContextFilter(logging.Filter):
    """Gives every record the `room` (from `extra`, else "-") and `client` fields."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "room"):
            record.room = "-"
        record.client = client_address.get()
        return True


def configure(level: str = "INFO", file: Path | None = None) -> logging.Handler:
    """Send the `suite.net` log to stderr (or `file`, appended) in `FORMAT`; returns the
    handler added (so tests can remove it)."""
    handler: logging.Handler
    if file is not None:
        file.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(file, encoding="utf-8")
    else:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(ContextFilter())
    handler.set_name(HANDLER_NAME)
    logger = logging.getLogger("suite.net")
    for old in [h for h in logger.handlers if h.get_name() == HANDLER_NAME]:
        logger.removeHandler(old)  # a server started again in one process logs once
        old.close()
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    return handler
