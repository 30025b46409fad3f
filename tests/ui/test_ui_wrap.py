"""Wrapped text: every line fits its width, and a word wider than a line (a folder path)
is broken after a path separator instead of running out of its panel."""

from __future__ import annotations

import pygame
import pytest

from suite.ui import theme
from suite.ui.widgets import wrap_text


@pytest.fixture(autouse=True)
def fonts() -> None:
    pygame.font.init()


PATH = "/home/someone-with-a-long-name/.local/share/warsuite/maps"


@pytest.mark.parametrize("width", [120, 200, 320])
def test_a_long_path_is_broken_after_separators_and_every_line_fits(width: int) -> None:
    text = f"Domination .map files go in {PATH}"
    lines = wrap_text(text, 14, width)
    font = theme.font(14)
    assert all(font.size(line)[0] <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    path_lines = [line for line in lines if "/" in line]
    assert len(path_lines) > 1
    assert all(line.endswith("/") for line in path_lines[:-1])


def test_ordinary_words_still_wrap_between_words() -> None:
    text = "Several humans play hot-seat: a 'pass to' screen hides each hand."
    lines = wrap_text(text, 14, 200)
    assert len(lines) > 1 and " ".join(lines) == text


def test_a_word_without_separators_is_cut_where_the_line_ends() -> None:
    word = "x" * 200
    lines = wrap_text(word, 14, 100)
    assert "".join(lines) == word
    assert all(theme.font(14).size(line)[0] <= 100 for line in lines)
