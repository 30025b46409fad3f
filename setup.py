"""Package list and compiled modules for setuptools (everything else is in pyproject.toml).

pyproject.toml maps the top-level ``assets/`` folder to the package ``suite.assets``, but
setuptools' package discovery only looks inside ``suite/``, so the mapped package and its
sub-folders are added here; without them the wheel ships no assets.

The modules in ``COMPILED`` (World War's hot path, the expert's playouts and the random
source) are also compiled with mypyc, which roughly doubles self-play speed. They stay
plain Python: where mypyc or a C compiler is missing, or ``SUITE_PURE_PYTHON=1`` is set,
the build goes on without them and the suite runs the same code uncompiled. None of them
may define a msgspec record (mypyc drops a record's class options), so records live in
other modules.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, find_namespace_packages, setup

COMPILED = [
    "suite/core/rng.py",
    "suite/core/selfplay.py",
    "suite/worldwar/rules/bots.py",
    "suite/worldwar/rules/engine.py",
    "suite/worldwar/rules/legal.py",
    "suite/worldwar/rules/odds.py",
    "suite/worldwar/rules/playout.py",
    "suite/worldwar/rules/seat_legal.py",
    "suite/worldwar/rules/seat_views.py",
    "suite/worldwar/rules/topology.py",
]


def compiled_modules() -> list[Extension]:
    """mypyc's extensions for COMPILED, each optional; none when they cannot be built."""
    if os.environ.get("SUITE_PURE_PYTHON", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify

        # One named group: its shared library is the module suite.compiled__mypyc, found
        # through the suite package wherever the project is installed or run from.
        extensions = mypycify(COMPILED, opt_level="3", separate=[(COMPILED, "suite.compiled")])
    except (ImportError, Exception, SystemExit) as error:  # mypy missing or refusing
        print(f"warsuite: building without compiled modules ({error})", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True  # no C compiler: the plain modules are used
    return extensions


code = find_namespace_packages(include=["suite", "suite.*"], exclude=["*.__pycache__"])
data = [
    "suite.assets",
    *(f"suite.assets.{p}" for p in find_namespace_packages("assets", exclude=["*__pycache__"])),
]
setup(packages=[*code, *data], ext_modules=compiled_modules())
