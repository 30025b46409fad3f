"""Requirement strings (RULINGS T12): parser, evaluator, words."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.tactics.rules.requirements import (
    Profile,
    RequirementError,
    Term,
    describe,
    meets,
    parse_requirement,
)


def test_examples_of_the_text() -> None:
    assert parse_requirement("L3") == (Term("L", 3),)
    assert parse_requirement("L3+T23") == (Term("L", 3), Term("T", 23))
    assert parse_requirement("L34-T12") == (Term("L", 34), Term("T", 12, negated=True))
    assert parse_requirement("T668") == (Term("T", 668),)
    assert parse_requirement("") == ()
    assert parse_requirement(" l2 t5 ") == (Term("L", 2), Term("T", 5))


def test_evaluation_against_profiles() -> None:
    rookie = Profile(1)
    veteran = Profile(34, frozenset({23}))
    marked = Profile(40, frozenset({12, 23}))
    assert meets("", rookie)
    assert not meets("L3", rookie) and meets("L3", veteran)
    assert meets("L3+T23", veteran) and not meets("L3+T23", Profile(3))
    assert meets("L34-T12", veteran) and not meets("L34-T12", marked)
    assert meets("T668", Profile(1, frozenset({668})))
    assert describe("L34-T12") == "level 34 and not token 12"
    assert describe("") == "anyone"


@pytest.mark.parametrize("bad", ["X3", "L", "L3+", "3", "L3*T2", "--L3", "T-4"])
def test_malformed_strings_name_the_position(bad: str) -> None:
    with pytest.raises(RequirementError, match="requirement"):
        parse_requirement(bad)


@settings(max_examples=50, deadline=None)
@given(
    terms=st.lists(
        st.tuples(st.sampled_from("LT"), st.integers(0, 999), st.booleans()), max_size=4
    ),
    level=st.integers(0, 60),
    tokens=st.frozensets(st.integers(0, 999), max_size=5),
)
def test_and_of_terms(
    terms: list[tuple[str, int, bool]], level: int, tokens: frozenset[int]
) -> None:
    text = "".join(("-" if neg else "+") + kind + str(value) for kind, value, neg in terms)
    profile = Profile(level, tokens)
    expect = all(
        (level >= value if kind == "L" else value in tokens) != neg for kind, value, neg in terms
    )
    assert meets(text, profile) == expect
