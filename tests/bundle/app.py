"""The bundled app as a player gets it: built once per run, started from a clean
environment, shown on a real X server (Xvfb) and driven by xdotool's clicks and keys.

- `built_bundle()` runs tools/build_bundle.py into build/bundle (the tool rebuilds only
  when an input changed, see its docstring) and returns where the app is.
- `clean_env(home)` is what a new user's session has: PATH without this project's .venv,
  no PYTHON* variables, HOME and the XDG folders in `home`.
- `XServer` starts Xvfb on a free display; `AppWindow` starts the app on it, finds its
  window, clicks, types, and takes screenshots with ImageMagick's `import`.
- `Mirror` keeps a headless `Harness` of the same code at the window's size in step with
  the real window: the harness says where a button is and what the game state is, the
  real app gets the same clicks by xdotool.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from suite.ui.harness import Harness, Target, position_of

ROOT = Path(__file__).resolve().parent.parent.parent
OUT = ROOT / "build" / "bundle"
X_TOOLS = ("Xvfb", "xdotool", "import")
SCREEN = (1320, 880)
"""Xvfb's screen: the app's 1280x800 window fits (it keeps 40 and 80 pixels free)."""
WINDOW = (1280, 800)
CLICK_PAUSE = 0.25
"""Seconds after a click or key for the app to take it (it sleeps in its event queue)."""


@dataclass(frozen=True)
class Bundle:
    folder: Path
    executable: Path
    archive: Path
    record: dict[str, Any]


def built_bundle() -> Bundle:
    """The app in build/bundle, built now unless it is up to date."""
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_bundle.py"), "--out", str(OUT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, f"the bundle did not build:\n{result.stdout}\n{result.stderr}"
    record = json.loads((OUT / "bundle.json").read_text(encoding="utf-8"))
    print(f"bundle: {result.stdout.strip()} ({time.monotonic() - started:.1f} s here)")
    folder = OUT / "warsuite"
    return Bundle(folder, folder / "warsuite", OUT / record["archive"], record)


def missing_x_tools() -> list[str]:
    return [tool for tool in X_TOOLS if shutil.which(tool) is None]


def require_x_tools() -> None:
    """Skip (naming them) when the X tools are absent: `make test` installs them as root."""
    missing = missing_x_tools()
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (make test installs them with apt-get)")


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """A new user's environment: no .venv on PATH, no PYTHON*, HOME and XDG in `home`."""
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and ".venv" not in p]
    env = {
        "PATH": os.pathsep.join(path) or "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "LANG": "C.UTF-8",
        "SDL_AUDIODRIVER": "dummy",  # no sound card on the test machine
    }
    env.update(extra)
    home.mkdir(parents=True, exist_ok=True)
    return env


def user_data(env: dict[str, str]) -> Path:
    """The app's user data folder in `env` (platformdirs on Linux: XDG_DATA_HOME)."""
    return Path(env["XDG_DATA_HOME"]) / "warsuite"


class XServer:
    """Xvfb on a display it picks itself (-displayfd), stopped on exit."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self.process = subprocess.Popen(
            [
                "Xvfb",
                "-displayfd",
                str(write),
                "-screen",
                "0",
                "x".join(map(str, SCREEN)) + "x24",
                "-nolisten",
                "tcp",
                "-noreset",
            ],  # fmt: skip
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        assert number, "Xvfb did not start"
        self.display = f":{number}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def xdotool(display: str, *args: str, timeout: float = 20) -> str:
    result = subprocess.run(
        ["xdotool", *args],
        env={**os.environ, "DISPLAY": display},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, f"xdotool {args}: {result.stderr}"
    return result.stdout


class AppWindow:
    """The bundled app started on `display` with `env`; its window, clicks and keys."""

    def __init__(self, executable: Path, display: str, env: dict[str, str], *args: str) -> None:
        self.display = display
        self.env = {**env, "DISPLAY": display}
        self.log = Path(env["HOME"]) / "app.log"
        self.started = time.monotonic()
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [str(executable), *args],
                cwd=env["HOME"],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.window = self._find_window()

    def _find_window(self, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"the app stopped: {self.output()}"
            found = subprocess.run(
                ["xdotool", "search", "--onlyvisible", "--pid", str(self.process.pid)],
                env={**os.environ, "DISPLAY": self.display},
                capture_output=True,
                text=True,
                check=False,
            ).stdout.split()
            if found:
                return found[0]
            time.sleep(0.05)
        raise AssertionError(f"no window within {timeout} s: {self.output()}")

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-3000:]

    def size(self) -> tuple[int, int]:
        text = xdotool(self.display, "getwindowgeometry", "--shell", self.window)
        values = dict(line.split("=", 1) for line in text.split())
        return int(values["WIDTH"]), int(values["HEIGHT"])

    def click(self, pos: tuple[int, int], pause: float = CLICK_PAUSE) -> None:
        """A left click at `pos` in the window (the pointer moves there first)."""
        x, y = pos
        xdotool(self.display, "mousemove", "--window", self.window, str(x), str(y))
        time.sleep(0.05)
        xdotool(self.display, "click", "1")
        time.sleep(pause)

    def type(self, text: str) -> None:
        """Type `text` into the focused field (keys go to the window under the pointer)."""
        xdotool(self.display, "type", "--delay", "60", text)
        time.sleep(CLICK_PAUSE)

    def key(self, name: str) -> None:
        xdotool(self.display, "key", name)
        time.sleep(CLICK_PAUSE)

    def screenshot(self, path: Path) -> Path:
        """The window as a PNG at `path` (ImageMagick's import, from the X server)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["import", "-window", self.window, str(path)],
            env={**os.environ, "DISPLAY": self.display},
            check=True,
            timeout=30,
            capture_output=True,
        )
        return path

    def children(self) -> list[list[str]]:
        """The command lines of the app's child processes (its bot workers)."""
        import psutil

        out = []
        for child in psutil.Process(self.process.pid).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                out.append(child.cmdline())
        return out

    def listening_ports(self) -> list[int]:
        """TCP ports the app listens on (a local server it started)."""
        import psutil

        return sorted(
            c.laddr.port
            for c in psutil.Process(self.process.pid).net_connections("tcp")
            if c.status == psutil.CONN_LISTEN
        )

    def close(self) -> int:
        """SIGTERM (SDL turns it into the window's quit): the exit code, killed after 15 s."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(15)
        except subprocess.TimeoutExpired:
            return -1
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)  # workers left behind, if any
            self.process.wait()


@contextlib.contextmanager
def running_app(
    executable: Path, display: str, env: dict[str, str], *args: str
) -> Iterator[AppWindow]:
    app = AppWindow(executable, display, env, *args)
    try:
        yield app
    finally:
        if app.process.poll() is None:
            app.close()


class Mirror:
    """A headless harness of the same code kept in step with the real window: `click`
    aims at a harness widget and clicks there in both."""

    def __init__(self, harness: Harness, app: AppWindow) -> None:
        self.h = harness
        self.app = app

    def click(self, target: Target, pause: float = CLICK_PAUSE) -> None:
        pos = position_of(target)
        self.h.click(pos)
        self.app.click(pos, pause)

    def click_until(self, target: Target, done: Callable[[], bool], limit: int = 12) -> int:
        """Click `target` until `done()` holds in the harness; how many clicks it took."""
        clicks = 0
        while not done():
            assert clicks < limit, f"{target} never reached the wanted state"
            self.click(target)
            clicks += 1
        return clicks


def wait_for(what: str, check: Callable[[], Any], timeout: float, step: float = 0.2) -> Any:
    """Poll `check()` until it returns something true; its value (AssertionError on time)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(step)


def window_brightness(display: str, window: str) -> float:
    """The mean brightness (0-1) of the launcher's title area in `window`: 0 while the
    window is still black, well above once a frame is drawn."""
    result = subprocess.run(
        [
            "import",
            "-window",
            window,
            "-crop",
            "400x80+100+20",
            "+repage",
            "-format",
            "%[fx:mean]",
            "info:-",
        ],  # fmt: skip
        env={**os.environ, "DISPLAY": display},
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    try:
        return float(result.stdout.strip() or 0)
    except ValueError:
        return 0.0


def seconds_to_first_frame(executable: Path, display: str, env: dict[str, str]) -> float:
    """Seconds from starting the app to its first drawn launcher frame (the window found
    by xdotool, then its title area polled with ImageMagick every few tens of ms)."""
    app = AppWindow(executable, display, env)
    try:
        while window_brightness(display, app.window) < 0.05:
            assert time.monotonic() - app.started < 60, "no frame within a minute"
            assert app.process.poll() is None, app.output()
        return time.monotonic() - app.started
    finally:
        app.close()
