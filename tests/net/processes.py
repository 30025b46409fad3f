"""`suite serve` as a real process for the tests (`ServerProcess`), and its clean-up."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

STARTED: list[subprocess.Popen[str]] = []


class ServerProcess:
    """`python -m suite serve` on a free port, its log read until it is listening."""

    def __init__(self, data: Path, *extra: str) -> None:
        self.data = data
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "suite",
                "serve",
                "--port",
                "0",
                "--data",
                str(data),
                "--bot-delay",
                "0",
                "--rate",
                "1000",
                *extra,
            ],
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        STARTED.append(self.proc)
        self.log: list[str] = []
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.append(line)
            if "serving on" in line:
                self.port = int(line.split("serving on ")[1].split(" ")[0].rsplit(":", 1)[1])
                # keep reading the log, so the server never blocks on a full pipe
                self.drain = threading.Thread(target=self._drain, daemon=True)
                self.drain.start()
                return
        raise AssertionError("the server did not start: " + "".join(self.log))

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.append(line)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def finish(self, timeout: float = 10.0) -> tuple[int, str]:
        self.proc.wait(timeout=timeout)
        self.drain.join(timeout=timeout)
        return self.proc.returncode, "".join(self.log)


def stop_started() -> None:
    """Kill every server process a test started and left running."""
    while STARTED:
        proc = STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
