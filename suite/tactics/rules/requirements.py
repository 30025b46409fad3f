"""Requirement strings of pieces and maps (RULINGS T12) and the profile they are checked on.

Grammar (case-blind, spaces ignored)::

    requirement := term*            ("" = anyone)
    term        := ["+" | "-"] ("L" | "T") digits

`L<n>` holds when the profile's level is at least n, `T<n>` when it holds token n. Terms
are joined by AND; "+" or nothing joins, "-" negates the term that follows it.
`parse_requirement` raises `RequirementError` naming the string and the position of the
first bad character.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class RequirementError(ValueError):
    """A requirement string that does not follow the T12 grammar."""


@dataclass(frozen=True)
class Term:
    """One condition: `kind` "L" (level at least `value`) or "T" (holds token `value`)."""

    kind: str
    value: int
    negated: bool = False

    def holds(self, profile: Profile) -> bool:
        ok = profile.level >= self.value if self.kind == "L" else self.value in profile.tokens
        return ok != self.negated

    def __str__(self) -> str:
        return f"{'-' if self.negated else '+'}{self.kind}{self.value}"


@dataclass(frozen=True)
class Profile:
    """What requirements are checked against: a player's level and tokens. `free_only`
    (a bot without the host's leave) meets no requirement at all: only pieces with an
    empty requirement are its to field."""

    level: int = 1
    tokens: frozenset[int] = field(default_factory=frozenset)
    free_only: bool = False


def parse_requirement(text: str) -> tuple[Term, ...]:
    """The terms of a requirement string (see the module docstring)."""
    source = text.replace(" ", "").upper()
    terms: list[Term] = []
    i = 0
    while i < len(source):
        negated = False
        if source[i] in "+-":
            negated = source[i] == "-"
            i += 1
        if i >= len(source) or source[i] not in "LT":
            raise RequirementError(
                f"requirement {text!r}: expected L<n> or T<n> at character {i + 1}"
            )
        kind = source[i]
        i += 1
        start = i
        while i < len(source) and source[i].isdigit():
            i += 1
        if start == i:
            raise RequirementError(f"requirement {text!r}: {kind} needs a number at {start + 1}")
        terms.append(Term(kind, int(source[start:i]), negated))
    return tuple(terms)


def meets(text: str, profile: Profile) -> bool:
    """True when `profile` meets the requirement string (RequirementError when malformed)."""
    terms = parse_requirement(text)
    if terms and profile.free_only:
        return False
    return all(term.holds(profile) for term in terms)


def satisfied(text: str, profile: Profile) -> bool:
    """`meets`, except that a malformed requirement is never met (no exception)."""
    try:
        return meets(text, profile)
    except RequirementError:
        return False


def describe(text: str) -> str:
    """A requirement in words, for greyed-out entries ("level 3 and token 23")."""
    words = []
    for term in parse_requirement(text):
        what = f"level {term.value}" if term.kind == "L" else f"token {term.value}"
        words.append(f"not {what}" if term.negated else what)
    return " and ".join(words) or "anyone"
