"""One server per data folder: an exclusive lock on `DATA/server.lock`.

Two servers on one folder would both append to the same match logs; the second one is
refused at start, naming the folder. The operating system drops the lock when the
process ends, however it ends (even `kill -9`), so a stale lock never blocks a restart.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO

LOCK_NAME = "server.lock"


class DataFolderBusy(RuntimeError):
    """Another server process already uses this data folder."""


class DataLock:
    """Holds the folder's lock from `acquire()` until `release()` (or the process ends)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock; DataFolderBusy names the folder when another server holds it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        handle = open(self.folder / LOCK_NAME, "a+", encoding="utf-8")  # noqa: SIM115
        try:
            _lock(handle)
        except OSError:
            handle.close()
            raise DataFolderBusy(
                f"another server already uses the data folder {self.folder} "
                "(one folder, one server: give this one its own --data)"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing drops the lock
            self._file = None


def _lock(handle: IO[str]) -> None:
    """An exclusive, non-blocking lock on the open file (OSError when it is held)."""
    if sys.platform == "win32":
        import msvcrt

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        return
    import fcntl

    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
