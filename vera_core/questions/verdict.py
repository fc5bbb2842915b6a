"""Yes/no and which-one questions over figures (issue 18): "Does X have an improving gross margin
profile?", "Is working capital positive?", "Did revenue grow year over year?", "Did the store count
change?", "Which segment had the highest operating income?". The verdict is computed by VERA from
gated figures; the question says what to compute and what the verdict tests.

- compare: a metric or line item at two periods (the two named, else the period asked and the year
  before it) and whether it went up, down, or changed at all ("improve" is up, except for a number of
  days, where shorter is better);
- sign: a metric or line item at one period, positive or negative;
- which: the segment (business, region, division) with the highest or lowest measure at a period.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from vera_core.finance.line_items import concepts_in, label_terms
from vera_core.questions.expression import SHARE_OF, Item
from vera_core.questions.figure import asked_periods, asked_scale
from vera_core.questions.library import metric_named
from vera_core.questions.metric import MetricPlan, read_plan
from vera_core.questions.spans import shifted
from vera_core.records import Period

__all__ = ["VerdictRequest", "read_verdict"]

YES_NO = re.compile(r"^\s*(?:is|are|was|were|does|do|did|has|have|had|will)\b", re.I)
UP = re.compile(r"\b(?:improv\w*|increas\w*|grow\w*|grew|rise|rose|risen|rising|higher|expand\w*|gain\w*)\b", re.I)
DOWN = re.compile(r"\b(?:declin\w*|decreas\w*|fall|fell|fallen|falling|lower|deteriorat\w*|shr[iu]nk\w*|"
                  r"contract\w*|drop\w*|worsen\w*)\b", re.I)
CHANGED = re.compile(r"\bchang\w*\b", re.I)
SIGN = re.compile(r"\b(?P<sign>positive|negative)\b", re.I)
WHICH = re.compile(r"^\s*which\s+(?:of\s+(?:the|its)\s+)?(?:reportable\s+|operating\s+|business\s+)?"
                   r"(?P<unit>segments?|business(?:es)?|divisions?|regions?|units?|geograph\w*)\s+"
                   r"(?:had|has|have|generated|reported|earned|posted|delivered|was|were|is)\s+(?:the\s+)?"
                   r"(?P<rank>highest|largest|biggest|greatest|most|lowest|smallest|least)\s+(?P<measure>.+?)"
                   r"(?=\s+(?:for|of|in|during|at)\b|\?|$)", re.I)
_SUBJECT = re.compile(r"^\s*(?:is|are|was|were|does|do|did|has|have|had|will)\s+(?:the\s+)?(?:[\w&.,-]+['’]s\s+)?"
                      r"(?P<subject>.+?)\s*(?=\b(?:improv|increas|grow|grew|rise|rose|declin|decreas|fall|fell|"
                      r"deteriorat|chang|expand|shr|drop|worsen|be\s+positive|positive|negative)\w*)", re.I)
_FILLER = re.compile(r"\b(?:have|has|an?|the|its|their|total|number\s+of|gaap|year[\s-]over[\s-]year|yoy)\b", re.I)
LOWER_IS_BETTER = ("days",)
"""Units where an improvement is a decrease (days sales outstanding)."""


@dataclass(frozen=True)
class VerdictRequest:
    """What a verdict question asks VERA to compute and test."""

    kind: Literal["compare", "sign", "which"]
    test: Literal["up", "down", "changed", "positive", "negative", "highest", "lowest"]
    plan: MetricPlan | None = None
    """compare and sign: what to compute, at the periods compared (earlier first) or the one period."""
    measure: str = ""
    """which: the measure the segments are ranked by ("operating income")."""
    period: Period | None = None
    """which: the period ranked (None: the latest printed)."""
    unclear: str = ""
    """Why the question asks for more than the verdict VERA can compute ("did R&D rise though revenue
    fell?" tests two things; "loans as a share of total assets" a ratio VERA read as one item): the
    verdict is then withheld, never given on the wrong figure."""

    @property
    def basis(self) -> str:
        """What the verdict compares, in words ("gross margin, FY2018 vs FY2019")."""
        if self.kind == "which":
            return f"{self.measure} by segment" + (f", {self.period.label}" if self.period else "")
        periods = " vs ".join(f"FY{p.year}" if p.kind == "year" else p.label for p in self.plan.periods)
        return f"{self.plan.name}, {periods}"


def read_verdict(question: str) -> VerdictRequest | None:
    """The verdict a question asks for, or None when it is not a yes/no or which-one question over figures."""
    which = WHICH.search(question)
    if which:
        periods, _ = asked_periods(question)
        rank = which.group("rank").lower()
        test = "lowest" if rank in ("lowest", "smallest", "least") else "highest"
        measure = re.sub(r"\s+", " ", which.group("measure")).strip(" ,")
        return VerdictRequest("which", test, measure=measure, period=periods[-1] if periods else None)
    if not YES_NO.search(question):
        return None
    sign = SIGN.search(question)
    test = sign.group("sign").lower() if sign else "down" if DOWN.search(question) and not UP.search(question) \
        else "up" if UP.search(question) else "changed" if CHANGED.search(question) else ""
    if not test:
        return None
    plan = _subject_plan(question, one_period=bool(sign))
    if plan is None:
        return None
    if test == "up" and plan.unit in LOWER_IS_BETTER and re.search(r"\bimprov", question, re.I):
        test = "down"
    return VerdictRequest("sign" if sign else "compare", test, plan, unclear=_unclear(question, plan, bool(sign)))


_RATIO_ASKED = re.compile(rf"{SHARE_OF}|\bratio\b|\bmargins?\b|\bleverage\b|\bper\s+cent\s+of\b|\bshare\s+of\b", re.I)


def _unclear(question: str, plan: MetricPlan, sign: bool) -> str:
    """Why the verdict VERA would compute is not the one asked ('' when it is): a question that moves two
    things in opposite directions, or asks about a ratio or margin when VERA read one line item."""
    if not sign and UP.search(question) and DOWN.search(question):
        return "the question tests two movements (one up, one down); VERA computes one comparison at a time"
    if isinstance(plan.tree, Item) and _RATIO_ASKED.search(question) and not _RATIO_ASKED.search(plan.name):
        return (f"the question asks about a ratio or margin, but only {plan.name} was read from it; ask for the "
                f"ratio by its definition (for example 'A as a share of B')")
    return ""


def _subject_plan(question: str, one_period: bool) -> MetricPlan | None:
    """What the verdict computes: the library metric or defined formula the question names, else the
    line item it names; at one period (sign) or the two it compares."""
    periods, _ = asked_periods(question)
    plan = read_plan(question)
    if plan is None or plan.over != "at":
        item = _item(question)
        if item is None:
            return None
        plan = MetricPlan(item, None, item, "library", Item(item), "amount", tuple(periods), False, None,
                          asked_scale(question))
    dated = sorted(plan.periods or periods, key=lambda p: (p.year or 0, p.end))
    if not dated:
        return None
    if one_period:
        return replace(plan, periods=(dated[-1],), direction=False)
    compared = (dated[0], dated[-1]) if len(dated) > 1 else (shifted(dated[-1], 1), dated[-1])
    return replace(plan, periods=compared, direction=True)


def _item(question: str) -> str | None:
    """The line item a verdict question names ("net income", "GAAP diluted EPS", "total number of
    systemwide restaurants"): a known concept, else the subject's own words."""
    concepts = concepts_in(question)
    if concepts and metric_named(question) is None:
        return concepts[0].name
    found = _SUBJECT.search(question)
    if not found:
        return None
    words = re.sub(r"\s+", " ", _FILLER.sub(" ", found.group("subject"))).strip(" ,")
    return words if label_terms(words) else None
