"""Computations over amounts the text states, not a table: "By how much did PepsiCo increase its
five year revolving credit agreement?" (a new $4.2bn agreement replaced a terminated $3.8bn one),
"by how many percentage points did it raise guidance?" ("9 percent (previously 8 percent)"), "what
is the total amount it may borrow under its credit agreements?" (the sum of each current one).

Each amount is read from one sentence, with the words around it naming what it is and whether it
is the earlier or the later amount; VERA does the arithmetic. When the passages read hold no
clear pair (or several that disagree), nothing is computed and the answer says what is missing."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from vera_core.answer.numbers import NumberMention, find_numbers
from vera_core.answer.units import Unit
from vera_core.questions.stated import VERBS, StatedAsk, terms

__all__ = ["MIN_MATCH", "StatedAmount", "StatedResult", "compute", "stated_amounts"]

MIN_MATCH = 0.6
"""An amount speaks of the subject asked when the words around it hold this share of the subject's terms."""

Role = Literal["before", "after", "change", ""]

_BEFORE_WORDS = re.compile(r"\b(?:terminat\w*|expir\w*|replaced|previous(?:ly)?|prior|former(?:ly)?|supersed\w*|"
                           r"retired|repaid|cancel\w*|old)\b", re.I)
_AFTER_WORDS = re.compile(r"\b(?:new|entered\s+into|amended|replacement|now|current(?:ly)?)\b", re.I)
_PAIR_NEW_OLD = re.compile(r"(?P<np>[^()\d;:.]{0,80}?)\s*[,(]?\s*(?:previously|prior(?:ly)?(?:\s+guidance)?(?:\s+of)?|formerly|up\s+from|"
                           r"down\s+from|compared\s+(?:with|to)|versus|vs\.?)\s*$", re.I)
_FROM_TO = re.compile(r"\s*(?:,\s*)?to\s*$", re.I)
_STATED_CHANGE = re.compile(rf"\b(?:{VERBS})\w*\s+(?:\w+\s+){{0,6}}?by\s*$|\b(?:{VERBS})\w*\s*$", re.I)
_TO_FROM = re.compile(r"\s*from\s*$", re.I)
_CLAUSE_END = re.compile(r"[(;:.]|,\s|\s(?:and|which|that)\s")
_WORDS = 12
"""Words read on each side of an amount for what it is."""


@dataclass(frozen=True)
class StatedAmount:
    """An amount printed in a sentence, with what the words around it say it is."""

    mention: NumberMention
    unit: Unit
    """The sentence it is printed in (its chunk and quote)."""
    role: Role
    """before / after the change, the change itself, or '' (a current amount)."""
    cue: str
    """The words that gave the role ("terminated", "previously", "new"), '' when none."""
    context: str
    """The words around the amount that name what it is."""
    name: str
    """What the amount is, in the text's words ("five year unsecured revolving credit agreement")."""
    match: float
    """Share of the subject's terms in `context`, in [0, 1]."""
    key: frozenset[str] = field(default_factory=frozenset)
    """What tells this amount's item from another of the same subject ("364 day" vs "five year")."""

    @property
    def value(self) -> float:
        return self.mention.value

    @property
    def percent(self) -> bool:
        return self.mention.is_percent


@dataclass(frozen=True)
class StatedResult:
    """A computed change or total with its operands, or why none was computed."""

    ask: StatedAsk
    operands: tuple[StatedAmount, ...] = ()
    result: float | None = None
    printed_change: bool = False
    """The text prints the change itself ("increased by $400 million"): nothing is computed."""
    missing: str = ""


def stated_amounts(units: Sequence[Unit], ask: StatedAsk) -> list[StatedAmount]:
    """Every amount (a figure with a currency, a scale or a percent sign) of `units`, with its role
    and how well the words around it name the subject asked (see `_matcher`)."""
    match = _matcher(units, ask)
    out: list[StatedAmount] = []
    for unit in units:
        text = " ".join(unit.text.split())
        numbers = [n for n in find_numbers(text) if _is_amount(n)]
        around = terms(f"{text} {' '.join(unit.chunk.heading_titles[-1:])}")
        for i, n in enumerate(numbers):
            nxt = numbers[i + 1] if i + 1 < len(numbers) else None
            role, cue, near = _role(text, numbers, i)
            after = _after(text[n.end:nxt.start if nxt else len(text)])
            context = " ".join(x for x in (near, after) if x)
            key = frozenset(terms(after) - ask.terms)
            name = after if ask.terms & terms(after) else near
            out.append(StatedAmount(n, unit, role, cue, context, _clean(name), match(terms(context), around), key))
    return out


def _matcher(units: Sequence[Unit], ask: StatedAsk):
    """Share of the subject's terms an amount's words hold: a term in the words naming the amount
    counts fully, one elsewhere in its sentence or section title half; each term weighted by how
    rare it is among the sentences read (the company's name, in every sentence, tells nothing)."""
    bags = [terms(u.text) for u in units]
    n = max(len(bags), 1)
    # NOTE: a term no sentence holds weighs as one that a single sentence holds: rare, not rarest
    weight = {t: math.log(1 + n / (1 + max(1, sum(1 for b in bags if t in b)))) for t in ask.terms}
    total = sum(weight.values()) or 1.0

    def match(near: set[str], around: set[str]) -> float:
        got = sum(w for t, w in weight.items() if t in near) + 0.5 * sum(
            w for t, w in weight.items() if t in around and t not in near)
        return round(got / total, 4)
    return match


def _is_amount(n: NumberMention) -> bool:
    return not n.is_year and bool(n.currency or n.is_percent or n.scale not in (None, 1.0))


def _role(text: str, numbers: list[NumberMention], i: int) -> tuple[Role, str, str]:
    """(role, the words that gave it, the words before the amount that name it)."""
    n = numbers[i]
    prev = numbers[i - 1] if i else None
    nxt = numbers[i + 1] if i + 1 < len(numbers) else None
    near = _tail_words(text[prev.end if prev else 0:n.start])
    if prev is not None and (pair := _pair(text, prev, n)):
        _, _, role, cue, named = pair
        return role, cue, named or _tail_words(text[numbers[i - 2].end if i > 1 else 0:prev.start])
    if nxt is not None and (pair := _pair(text, n, nxt)):
        role, cue, _, _, named = pair
        return role, cue, named or near
    lead = text[max(0, n.start - 60):n.start]
    if _STATED_CHANGE.search(lead):
        return "change", "by", near
    window = " ".join(lead.split()[-6:])
    befores, afters = list(_BEFORE_WORDS.finditer(window)), list(_AFTER_WORDS.finditer(window))
    last = max(befores + afters, key=lambda m: m.start(), default=None)
    if last is None:
        return "", "", near
    return ("before" if last in befores else "after"), last.group(0).lower(), near


def _pair(text: str, a: NumberMention, b: NumberMention) -> tuple[Role, str, Role, str, str] | None:
    """(role and cue of `a`, role and cue of `b`, the words between that name both) when the two are
    the after and before amounts of one change, in either order; None otherwise."""
    between = text[a.end:b.start]
    if m := _PAIR_NEW_OLD.match(between):  # "9 percent core EPS growth (previously 8 percent)"
        return "after", "now", "before", _cue(between[m.end("np"):]), m.group("np").strip()
    if _FROM_TO.fullmatch(between) and re.search(r"\bfrom\s*$", text[:a.start], re.I):
        return "before", "from", "after", "to", ""
    if _TO_FROM.fullmatch(between) and re.search(r"\bto\s*$", text[:a.start], re.I):  # "to $0.60 from $0.55"
        return "after", "to", "before", "from", ""
    return None


def _clean(words: str) -> str:
    """A name without the tail of an earlier clause ("percent), and core EPS growth" -> "core EPS growth")."""
    words = re.split(r"[()\[\];,“”\"]|\s(?:and|or)\s", words)[-1] if re.search(r"[A-Za-z]", words) else words
    return " ".join(re.sub(r"^(?:and|or|the|a|an|of)\s+", "", words.strip(), flags=re.I).split()[-_WORDS:])


def _cue(between: str) -> str:
    return re.sub(r"\s+", " ", between.strip(" ,(").lower())


def _tail_words(text: str) -> str:
    """The last words before an amount, within its clause."""
    words = text.split()[-_WORDS:]
    return " ".join(words)


def _after(text: str) -> str:
    """The words an amount qualifies ("$4,200,000,000 five year unsecured revolving credit agreement (the ..."):
    up to the clause's end."""
    m = _CLAUSE_END.search(text)
    return " ".join((text[:m.start()] if m else text).split()[:_WORDS])


def compute(ask: StatedAsk, units: Sequence[Unit]) -> StatedResult:
    """The change or total `ask` asks, over the amounts of `units` (best-ranked first) that name its
    subject; every operand from one document. Abstains when no clear set of operands is printed."""
    amounts = [a for a in stated_amounts(units, ask) if a.match >= MIN_MATCH]
    if not amounts:
        return StatedResult(ask, missing=f"no sentence read states an amount of the {ask.subject}")
    best = max(a.match for a in amounts)
    doc = next(a.unit.chunk.doc_id for a in amounts if a.match == best)
    amounts = [a for a in amounts if a.unit.chunk.doc_id == doc]
    return _change(ask, amounts) if ask.kind == "change" else _total(ask, amounts)


def _change(ask: StatedAsk, amounts: list[StatedAmount]) -> StatedResult:
    printed = _best(a for a in amounts if a.role == "change")
    before = _best(a for a in amounts if a.role == "before")
    after = _best(a for a in amounts if a.role == "after")
    top = max((a.match for a in (printed, before, after) if isinstance(a, StatedAmount)), default=0.0)
    if isinstance(printed, StatedAmount) and printed.match >= top:
        return StatedResult(ask, (printed,), printed.value, printed_change=True)
    for side, name in ((before, "the amount before the change"), (after, "the amount after it")):
        if side is None:
            return StatedResult(ask, missing=f"{name} is not stated in the sentences read about the {ask.subject}")
        if isinstance(side, list):
            shown = ", ".join(a.mention.text for a in side)
            return StatedResult(ask, missing=f"{name} is ambiguous ({shown} are each stated for the {ask.subject})")
    if before.percent != after.percent:
        return StatedResult(ask, missing=f"the amounts stated for the {ask.subject} are in different units "
                                         f"({before.mention.text}, {after.mention.text})")
    return StatedResult(ask, (before, after), after.value - before.value)


def _total(ask: StatedAsk, amounts: list[StatedAmount]) -> StatedResult:
    current = [a for a in amounts if a.role in ("after", "")]
    best = max((a.match for a in current), default=0.0)
    items: dict[frozenset[str], StatedAmount] = {}
    for a in sorted(current, key=lambda a: -a.match):
        if a.match < best:
            continue
        held = items.get(a.key)
        if held is not None and held.value != a.value:
            return StatedResult(ask, missing=f"the amounts of the {ask.subject} are ambiguous "
                                             f"({held.mention.text} and {a.mention.text} are both stated for one)")
        items.setdefault(a.key, a)
    operands = tuple(items.values())
    if len(operands) < 2:
        return StatedResult(ask, missing=f"fewer than two current amounts of the {ask.subject} are stated in the "
                                         f"sentences read, so no total is computed")
    if len({a.percent for a in operands}) > 1 or len({a.mention.currency for a in operands}) > 1:
        return StatedResult(ask, missing=f"the amounts stated for the {ask.subject} are in different units")
    return StatedResult(ask, operands, sum(a.value for a in operands))


def _best(amounts) -> StatedAmount | list[StatedAmount] | None:
    """The best-matching amount; a list of the tied ones when they disagree; None when there is none."""
    ranked = sorted(amounts, key=lambda a: -a.match)
    if not ranked:
        return None
    tied = [a for a in ranked if a.match == ranked[0].match]
    if len({(a.value, a.percent) for a in tied}) > 1:
        return tied
    return tied[0]
