"""Package list for setuptools (everything else is in pyproject.toml).

pyproject.toml maps the top-level ``assets/`` folder to the package ``suite.assets``, but
setuptools' package discovery only looks inside ``suite/``, so the mapped package and its
sub-folders are added here; without them the wheel ships no assets.
"""

from setuptools import find_namespace_packages, setup

code = find_namespace_packages(include=["suite", "suite.*"], exclude=["*.__pycache__"])
data = [
    "suite.assets",
    *(f"suite.assets.{p}" for p in find_namespace_packages("assets", exclude=["*__pycache__"])),
]
setup(packages=[*code, *data])
