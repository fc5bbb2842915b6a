"""A question asking for a change or a total of amounts the text states ("By how much did it increase
its revolving credit agreement?", "the total amount it may borrow under its agreements") -> what to
compute (`StatedAsk`); the computation over the stated amounts is `vera_core.answer.figures.stated`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from vera_core.text import normalise

__all__ = ["VERBS", "StatedAsk", "read_ask", "terms"]

VERBS = (r"increas|rais|ris|rose|grow|grew|expand|boost|lift|decreas|reduc|lower|cut|fall|fell|declin|drop|"
          r"shrink|shrank|chang|improv|widen|narrow")
_VERB = re.compile(rf"\b(?:{VERBS})\w*\b", re.I)
_UNIT = (r"percentage\s+points?|basis\s+points?|points?|percent(?:age)?s?|(?:[A-Za-z.]+\s+)?dollars|"
         r"(?:[A-Za-z.]+\s+)?(?:thousands|millions|billions)")
_CHANGE_ASKS = (
    re.compile(rf"\bby\s+how\s+(?:much|many\s+(?P<unit>{_UNIT}))\s+(?:did|has|have|had|was|were|will|is|are|does|do)"
               rf"\s+(?P<body>.+)", re.I),
    re.compile(rf"\bhow\s+much\s+(?:did|has|have|had|does|do)\s+(?P<body>.+?\b(?:{VERBS})\w*\b.*)", re.I),
    re.compile(r"\bwhat\s+(?:was|is|were|are)\s+the\s+(?:size\s+of\s+the\s+|amount\s+of\s+the\s+)?"
               r"(?:increase|rise|decrease|reduction|change|decline|drop)\s+(?:in|of)\s+(?P<body>.+)", re.I),
)
_TOTAL_ASK = re.compile(r"\b(?:total|combined|aggregate)\s+(?:amount|sum|value|capacity)\b(?P<body>.+?\b"
                        r"(?:under|of|across|from|in)\s+.+)", re.I)
_PLURAL_TAIL = re.compile(r"\b\w{3,}s\b[^A-Za-z]*$")
_DATE = re.compile(r"\b(?:(?:on|as\s+of|at|by|in|during|for)\s+)?(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|"
                   r"Dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}|FY\s?\d{2,4}(?:\s?Q[1-4])?|Q[1-4]\s?\d{2,4}|\d{4})\b", re.I)
_FILLER = re.compile(r"\b(?:its|their|the|full\s+year|in\s+respect\s+of|with\s+respect\s+to|regarding)\b", re.I)


@dataclass(frozen=True)
class StatedAsk:
    """What a question asks to compute over stated amounts."""

    kind: Literal["change", "total"]
    subject: str
    """What changed or is totalled, as the question words it ("unsecured five year revolving credit agreement")."""
    terms: frozenset[str]
    """The subject's terms (`vera_core.text.terms`)."""
    points: bool = False
    """The question asks in percentage points."""


def terms(text: str) -> set[str]:
    """The content words of a text, stemmed so 'facilities' ~ 'facility' (`vera_core.text`'s `content` mode)."""
    return set(normalise(text, "content"))


def read_ask(question: str) -> StatedAsk | None:
    """The change or total a question asks of stated amounts, or None."""
    for pattern in _CHANGE_ASKS:
        m = pattern.search(question)
        if m:
            unit = (m.groupdict().get("unit") or "").lower()
            body = _VERB.sub(" ", m.group("body"), count=1) if pattern is not _CHANGE_ASKS[2] else m.group("body")
            return _ask("change", body, points="point" in unit and "basis" not in unit)
    m = _TOTAL_ASK.search(question)
    if m and _PLURAL_TAIL.search(_DATE.sub(" ", m.group("body")).rstrip(" ?.")):
        return _ask("total", re.sub(r"^.*?\b(?:under|of|across|from|in)\s+", "", m.group("body"), count=1), False)
    return None


def _ask(kind: Literal["change", "total"], body: str, points: bool) -> StatedAsk | None:
    subject = re.sub(r"\s+", " ", _FILLER.sub(" ", _DATE.sub(" ", body))).strip(" ?.,")
    wanted = frozenset(terms(subject))
    return StatedAsk(kind, subject, wanted, points) if wanted else None
