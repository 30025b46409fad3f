"""Rules-data files: a clear error names the file (and the line of a syntax error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from suite.core.datafile import read_toml


class RulesError(ValueError):
    pass


def test_reads_a_toml_document(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text('[battle]\ndice = 3\nname = "x"\n', encoding="utf-8")
    assert read_toml(path) == {"battle": {"dice": 3, "name": "x"}}


def test_broken_toml_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text("[battle]\ndice = = 3\n", encoding="utf-8")
    with pytest.raises(RulesError) as err:
        read_toml(path, RulesError)
    assert str(path) in str(err.value) and "line 2" in str(err.value)


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="missing.toml: cannot read"):
        read_toml(tmp_path / "missing.toml", RulesError)


def test_binary_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(RulesError, match="rules.toml: not UTF-8"):
        read_toml(path, RulesError)
