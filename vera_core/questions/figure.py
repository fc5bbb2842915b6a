"""What a figure question asks for: line items, periods, the statement it names and the unit.

"What is the FY2018 capital expenditure amount (in USD millions) for 3M? ... cash flow statement."
-> capital expenditure, FY2018, cash_flow, 1e6. Periods are read with the same patterns as table
headers (`vera_core.tables.periods`), so "FY2018", "year end FY2018", "as of December 31, 2022",
"Q1 2023" and "FY2023Q1" land on the same `Period` fields a column carries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from vera_core.finance.line_items import NON_GAAP, Concept, concepts_in, label_terms
from vera_core.records import Period
from vera_core.tables.periods import (DATE_DMY, DATE_MDY, DURATION, FISCAL_YEAR, QUARTER, YEAR, _ORDINALS,
                                      _full_year, _months, dates_in)
from vera_core.finance.statements import named_statement
from vera_core.questions.qualifiers import Qualifier, qualifier_around

UNIT_ASKED = re.compile(r"\b(?:in|as)\s+(?:(?:USD|US\$|\$|EUR|GBP|dollars|euros)\s*)?(?:in\s+)?"
                        r"(?P<scale>thousands|millions|billions)\b|\b(?:USD|EUR|GBP|\$)\s*(?P<scale2>thousands|millions|"
                        r"billions)\b|\b(?:thousands|millions|billions)\s+of\s+(?:dollars|euros)\b", re.I)
PERCENT_ASKED = re.compile(r"\b(?:as\s+a\s+)?percent(?:age)?\b|\bin\s+%|\bunits\s+of\s+percents?\b", re.I)
METRIC_CUE = re.compile(
    r"\bratios?\b|\bmargins?\b|\bdefined\s+as\b|\bdefine\b|\bcalculat\w*|\bcompute\w*|\bgrowth\b|\bgrew\b|"
    r"\bchanged?\b|\bchanges\b|\bincrease[sd]?\b|\bdecrease[sd]?\b|\baverage\b|\bturnover\b|\bdays\b|"
    r"\bless\b|\bminus\b|\bdivided\b|\bEBITDA\b|\bfree\s+cash\s+flow\b|\bdrove\b|\bwhy\b|\bexplain\b|"
    r"\bimprov\w*|\bdifference\b|\bCAGR\b|\bas\s+a\s+%\s+of\b|\bper\s+cent\s+of\b|\bshare\s+of\b|\bcompared?\b|"
    r"\bpercent(?:age)?\s+of\b|"
    r"\bvs\.?\b|\bversus\b|\btrend\b|\bbetween\b|\bgrow\w*", re.I)
ASKS_FIGURE = re.compile(r"\b(?:what\s+(?:is|was|were|are)|how\s+much|quantity|amount|figure|value|report(?:ed)?|"
                         r"state|give|provide)\b", re.I)
_YES_NO = re.compile(r"^\s*(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b", re.I)
SCALE_OF = {"thousands": 1e3, "millions": 1e6, "billions": 1e9}


@dataclass(frozen=True)
class FigureRequest:
    """One figure question, resolved into what to look up."""

    concepts: tuple[Concept, ...]
    """Known line items the question names, in order."""
    item_terms: frozenset[str]
    """The question's own words for the item when it names no known concept."""
    periods: tuple[Period, ...]
    """Periods asked, in order (empty: the latest the statements show)."""
    period_texts: tuple[str, ...]
    """Each period as the question words it ("FY2018")."""
    scale: float | None
    """The unit asked: 1e3, 1e6, 1e9; None when not asked."""
    percent: bool
    """The question asks for a percentage."""
    statement: str
    """The statement the question names (`cash_flow`, `balance`, `income`...), or ''."""
    question_terms: frozenset[str] = frozenset()
    """Every normalised word of the question (a row it names, e.g. a segment, qualifies the item)."""
    non_gaap: bool = False
    """The question names an adjusted measure ("non-GAAP EPS", "core earnings"): only rows or columns
    the filing labels so answer it, and no GAAP row does."""
    qualifier: Qualifier = Qualifier()
    """Words the question puts on the item that make it another line ("automotive revenues", "the Data
    Center and AI segment's revenue"): only a row, table or column carrying them answers it."""


_MEASURE = re.compile(r"(?P<m>(?:non-?\s?GAAP|adjusted|core)\s+[\w\s&'-]{2,60}?)\s*(?:\b(?:for|in|of|during|from|"
                      r"as\s+of|per|according)\b|\(|\?|$)", re.I)
"""The adjusted measure a question names, up to the period or the source ("non-GAAP core earnings for ...")."""


def is_figure_question(question: str) -> bool:
    """A question asking for printed figures of named line items (not a computed metric, not yes/no),
    or for an adjusted measure the filing prints ("What were PG&E's non-GAAP core earnings ...?")."""
    if _YES_NO.search(question) or METRIC_CUE.search(question) or not ASKS_FIGURE.search(question):
        return False
    return bool(concepts_in(question)) or bool(NON_GAAP.search(question) and _MEASURE.search(question))


def measure_terms(question: str) -> frozenset[str]:
    """The words of the adjusted measure a question names ("non-GAAP core earnings"), else none."""
    found = _MEASURE.search(question) if NON_GAAP.search(question) else None
    return label_terms(found.group("m")) if found else frozenset()


def read_request(question: str, focus: str = "") -> FigureRequest:
    """The figure request of a question; `focus` is the router's search focus (used when the
    question names no known line item)."""
    concepts = tuple(concepts_in(question))
    periods, texts = asked_periods(question)
    scale = asked_scale(question)
    free = frozenset() if concepts else (measure_terms(question) or label_terms(focus or question))
    first = concepts[0].asked.search(question) if concepts else None
    return FigureRequest(concepts, free, tuple(periods), tuple(texts), scale,
                         bool(PERCENT_ASKED.search(question)) and scale is None, named_statement(question),
                         label_terms(question), bool(NON_GAAP.search(question)),
                         qualifier_around(question, first.start(), first.end()) if first else Qualifier())


def asked_scale(question: str) -> float | None:
    """The unit a question asks an amount in ("in USD billions" -> 1e9), None when it asks none."""
    unit = UNIT_ASKED.search(question)
    if not unit:
        return None
    return SCALE_OF[re.search(r"thousands|millions|billions", unit.group(0), re.I).group(0).lower()]


def asked_periods(question: str) -> tuple[list[Period], list[str]]:
    """Periods a question names, in order, with the words naming each."""
    found: list[tuple[int, int, Period, str]] = []

    def free(start: int, end: int) -> bool:
        return not any(s < end and start < e for s, e, _, _ in found)

    for m in QUARTER.finditer(question):
        q = m.group("q") or m.group("q2") or m.group("q3")
        quarter = int(q) if q else _ORDINALS[m.group("ord").lower()]
        year_text = m.group("y") or m.group("y2") or m.group("y3") or m.group("y4")
        if not year_text:
            after = YEAR.search(question, m.end())
            year_text = after.group("y") if after and after.start() - m.end() < 12 else None
        if year_text:
            found.append((m.start(), m.end(), Period("quarter", "", _full_year(year_text), 3, quarter), m.group(0)))
    for pattern in (DATE_MDY, DATE_DMY):
        for m in pattern.finditer(question):
            if free(*m.span()):
                iso = dates_in(m.group(0))
                if iso:
                    window = question[max(0, m.start() - 40):m.start()]
                    months = _months(window) if DURATION.search(window) else None
                    kind = "months" if months and months < 12 else "fiscal_year" if months else "instant"
                    found.append((m.start(), m.end(), Period(kind, iso[0], int(iso[0][:4]), months), m.group(0)))
    for pattern in (FISCAL_YEAR, YEAR):
        for m in pattern.finditer(question):
            if free(*m.span()):
                found.append((m.start(), m.end(), Period("year", "", _full_year(m.group("y"))), m.group(0).strip()))
    found.sort(key=lambda x: x[0])
    periods: list[Period] = []
    texts: list[str] = []
    for _, _, period, text in found:
        if period not in periods:
            periods.append(period)
            texts.append(text)
    return periods, texts
