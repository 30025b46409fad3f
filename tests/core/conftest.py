"""Fixtures of the core tests: the tiny "race to 21" game, registered for one test."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from suite.core import match


def load_race21() -> ModuleType:
    """tests/core/race21_game.py, imported once under a fixed module name."""
    module = sys.modules.get("race21_game")
    if module is None:
        spec = importlib.util.spec_from_file_location(
            "race21_game", Path(__file__).with_name("race21_game.py")
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["race21_game"] = module
        spec.loader.exec_module(module)
    return module


@pytest.fixture
def race21(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The race21 module with its game registered; the registry is restored afterwards."""
    module = load_race21()
    match.registered_games()  # load the installed games into the real registry first
    monkeypatch.setattr(match, "_REGISTRY", dict(match._REGISTRY))
    match.register_game(module.SPEC)
    return module
