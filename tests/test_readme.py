"""The README's Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

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
