"""The layout of `suite.net` (issue 31): no import circle, and a client that needs no
server code and no server backend.

Edges are read from the sources: every `import` and `from ... import` of a `suite.net`
module, at module level or inside a function (a lazy import is still an arrow), except
those under `if TYPE_CHECKING:`. Importing `a.b.c` also runs `a/__init__` and
`a/b/__init__`, so those packages count as imported too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import suite.net

NET = Path(suite.net.__file__).parent
ROOT = "suite.net"


def module_name(path: Path) -> str:
    parts = path.relative_to(NET.parent.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in NET.rglob("*.py")}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(tree: ast.AST, here: str) -> set[str]:
    """The `suite.net` modules and packages a module's source imports (see the module
    docstring)."""
    found = set()
    for name in _names(tree, here):
        if not name.startswith(ROOT):
            continue
        if name in MODULES:
            found.add(name)
        parts = name.split(".")
        found.update(
            ".".join(parts[:i]) for i in range(3, len(parts)) if ".".join(parts[:i]) in MODULES
        )
    found.discard(here)
    return found


def _names(tree: ast.AST, here: str) -> set[str]:
    """Every dotted name the source imports outside `if TYPE_CHECKING:` (for `from m
    import x`, both `m` and `m.x`)."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = here.rsplit(".", node.level)[0]
                base = f"{package}.{base}" if base else package
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return names


def import_graph() -> dict[str, set[str]]:
    return {
        name: _imported(ast.parse(path.read_text(encoding="utf-8")), name)
        for name, path in MODULES.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle found by a depth-first walk (one per back edge)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if state.get(other) == 1:
                found.append(stack[stack.index(other) :] + [other])
            elif other not in state:
                walk(other)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node)
    return found


def test_the_graph_reader_sees_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "from suite.net.server import app\n"
        "if TYPE_CHECKING:\n    from suite.net.client import client\n"
        "def f():\n    import suite.net.protocol\n"
    )
    assert _imported(tree, "suite.net.x") == {
        "suite.net.server",
        "suite.net.server.app",
        "suite.net.protocol",
    }


def test_no_import_circle_inside_suite_net() -> None:
    graph = import_graph()
    assert len(graph) > 30
    assert cycles(graph) == []


def test_only_the_screens_import_pygame_or_the_ui_and_the_client_no_server_code() -> None:
    graph = import_graph()
    for name, path in MODULES.items():
        names = _names(ast.parse(path.read_text(encoding="utf-8")), name)
        if not name.startswith("suite.net.screens"):
            drawn = [n for n in names if n.split(".")[0] in ("pygame", "pygame_gui")]
            assert not drawn and not [n for n in names if n.startswith("suite.ui")], name
    layers_below_client = ("suite.net.server", "suite.net.backends", "suite.net.cluster")
    for name, imported in graph.items():
        if name.startswith("suite.net.client"):
            assert not [m for m in imported if m.startswith(layers_below_client)], name


BLOCKER = """
import importlib.abc, sys
class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"psycopg", "psycopg_pool", "redis"}:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)")
        return None
sys.meta_path.insert(0, Missing())
import importlib
for name in sys.argv[1:]:
    importlib.import_module(name)
below = ("suite.net.server", "suite.net.backends", "suite.net.cluster")
print("server code loaded:", sorted(m for m in sys.modules if m.startswith(below)))
"""


def test_every_client_module_imports_without_psycopg_or_redis() -> None:
    client = sorted(n for n in MODULES if n.startswith("suite.net.client"))
    shared = ["suite.net.protocol", "suite.net.packsync"]
    done = subprocess.run(
        [sys.executable, "-c", BLOCKER, *shared, *client],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "server code loaded: []" in done.stdout
    screens = sorted(n for n in MODULES if n.startswith("suite.net.screens"))
    done = subprocess.run(
        [sys.executable, "-c", BLOCKER, *screens],
        capture_output=True,
        text=True,
        timeout=120,
        env={**__import__("os").environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    assert done.returncode == 0, done.stderr


def test_the_blocker_does_block() -> None:
    done = subprocess.run(
        [sys.executable, "-c", BLOCKER, "suite.net.backends.postgres"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "blocked by the test" in done.stderr
