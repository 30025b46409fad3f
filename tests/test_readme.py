"""The README's Python examples run as written."""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_starts_with_the_two_commands() -> None:
    head = "\n".join(README.read_text(encoding="utf-8").splitlines()[:12])
    assert "make play" in head and "make test" in head


def test_readme_python_examples_run(capsys: object) -> None:
    blocks = _python_blocks()
    assert blocks, "the README lost its example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {"__name__": "readme_example"})


ROOT = README.parent


def _shell_commands() -> list[str]:
    """Every line of the README's ```sh blocks (comments and blank lines skipped)."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return [
        line.strip()
        for block in blocks
        for line in block.splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]


def test_the_readme_shows_shell_commands() -> None:
    commands = _shell_commands()
    assert any(c.startswith(".venv/bin/suite sim") for c in commands)
    assert all(c.startswith((".venv/bin/suite", "make ")) for c in commands), commands


@pytest.mark.parametrize("command", _shell_commands())
def test_every_readme_command_runs_as_written(command: str, tmp_path: Path) -> None:
    """`suite` commands run (they are kept small); `make` targets exist (dry run)."""
    args = shlex.split(command)
    if args[0] == "make":
        result = subprocess.run(["make", "-n", *args[1:]], cwd=ROOT, capture_output=True)
        assert result.returncode == 0, result.stderr.decode()
        return
    args[0] = str(ROOT / args[0])
    if not Path(args[0]).exists():
        pytest.skip("no .venv here: `make test` creates it")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    if args[1:2] == ["serve"]:
        serve_until_healthy(args, env, tmp_path)
        return
    # Paths the README names are the repository's; anything a command writes lands in tmp.
    args = [str(ROOT / a) if a.startswith("assets/") else a for a in args]
    result = subprocess.run(args, cwd=tmp_path, capture_output=True, timeout=240, env=env)
    assert result.returncode == 0, result.stderr.decode()[-2000:]


def serve_until_healthy(args: list[str], env: dict[str, str], folder: Path) -> None:
    """A server command runs until stopped: it must answer /healthz, then stop on SIGTERM."""
    port = free_port()
    args = [*args, "--port", str(port)] if "--port" not in args else args
    if "--port" in args:
        args[args.index("--port") + 1] = str(port)
    process = subprocess.Popen(
        args, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                assert process.poll() is None, (
                    process.stderr.read().decode() if process.stderr else ""
                )
                assert time.monotonic() < deadline, "the server never answered /healthz"
                time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
