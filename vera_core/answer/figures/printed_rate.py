"""A rate the company prints for each quarter, compared between two quarters in points: "By how many percentage
points did Meta's YoY ad impressions growth change between Q1 2024 and Q3 2024?", "avg price per ad growth: Q1
2024 vs Q3 2025 ... how many points did it move?". A deck's chart prints the rate itself ("Ad Impressions Delivered
YoY Percentage Change: Worldwide"); the question asks the difference of two of its figures, never a growth computed
from amounts.

The row is the printed rate whose own words (the rate's words aside) the question writes, three in four at least,
and only one such row may fit best ("Worldwide" against "US & Canada" is the question's to say). Each quarter's
figure is read as `printed_change` reads any printed measure, from the document that prints that quarter; the
difference is VERA's arithmetic, each operand a cited cell. No such row, or a quarter it does not print: no answer
here, and the question is answered as it was routed."""

from __future__ import annotations

import re
from collections.abc import Container, Mapping, Sequence

from vera_core.answer.figures.metric_answer import MetricEvidence
from vera_core.answer.figures.printed import printed_measure
from vera_core.answer.figures.figure_answer import FigureEvidence
from vera_core.answer.figures.printed_change import printed_change
from vera_core.finance.line_items import expand_abbreviations, label_terms
from vera_core.questions.expression import Item
from vera_core.questions.figure import asked_periods
from vera_core.questions.metric import MetricPlan
from vera_core.records import ChunkRecord, Period, TableGrid

__all__ = ["MIN_SHARE", "rate_at", "rate_at_period", "rate_change", "rate_change_periods", "rate_row"]

RATE = re.compile(r"\b(?:growth|y/?o/?y|year[-\s]over[-\s]year|percent(?:age)?\s+change)\b|%\s*change\b", re.I)
"""Words that make an item a rate ("YoY ad impressions growth", "Percentage Change")."""
POINTS_ASKED = re.compile(r"\bpoints?\b|\bpp\b|\bppts?\b|\bbps\b", re.I)
_RATE_TERMS = label_terms("growth yoy y/y year over year percentage percent change rate")
MIN_SHARE = 0.75
"""The share of a rate row's own words the question must write for the row to be the one asked."""


def rate_change_periods(question: str) -> tuple[Period, Period] | None:
    """The two quarters of a question asking in points how a rate moved from the earlier to the later; else None
    (a question naming the later first, "how many points higher was Q3 than Q1", is not read here)."""
    if not (POINTS_ASKED.search(question) and RATE.search(question)):
        return None
    # NOTE: a year named around the question ("growth slowed a lot during 2024") is its setting, not a third period
    periods = list(dict.fromkeys(p for p in asked_periods(question)[0] if p.kind == "quarter" and p.quarter))
    if len(periods) != 2 or (periods[0].year, periods[0].quarter) >= (periods[1].year, periods[1].quarter):
        return None
    return periods[0], periods[1]


_CLAUSE_END = re.compile(r"[.,;:?!()]")
_NOT_ITEM = re.compile(r"^(?:by|how|many|much|percentage|points?|did|does|do|was|were|is|the|its|their|in|of|for|"
                       r"what|which|change|move|moved)$", re.I)


def _asked_items(question: str, company: Container[str]) -> list[frozenset[str]]:
    """The words before each rate word of the question, in its clause, less asking words, possessives and the
    company's name ("Meta worldwide avg price per ad growth": worldwide average price per ad)."""
    out = []
    for m in RATE.finditer(question):
        clause = _CLAUSE_END.split(question[:m.start()])[-1].split()[-6:]
        words = [w for w in clause if not _NOT_ITEM.match(w) and not re.search(r"['\u2019]s$", w)]
        terms = frozenset(t for t in label_terms(expand_abbreviations(" ".join(words))) - _RATE_TERMS if t not in company)
        if terms:
            out.append(terms)
        after = _ITEM_AFTER.match(question, m.end())
        if after:  # NOTE: "the YoY change in average price per ad for Asia-Pacific": the item after the rate
            terms = frozenset(t for t in label_terms(expand_abbreviations(after.group("item"))) - _RATE_TERMS
                              if t not in company)
            if terms:
                out.append(terms)
    return out


_ITEM_AFTER = re.compile(r"\s+(?:(?:percent(?:age)?\s+)?(?:change|growth|increase|decline)\s+)?(?:in|of)\s+(?:the\s+|its\s+)?"
                         r"(?P<item>(?:[\w&'\u2019-]+\s+){0,5}?[\w&'\u2019-]+)(?=\s+(?:for|in|did|does|at|during|over|versus|vs|"
                         r"from|compared|between|was|were|is)\b|\s*[(,?]|\s*$)", re.I)
"""The item named after a rate word ("year-over-year growth in ad impressions delivered did Asia-Pacific show")."""


def rate_row(question: str, grids: Mapping[str, Sequence[TableGrid]], company: Container[str] = frozenset()) -> str | None:
    """The label of the printed rate the question names: a row of percentages whose label is a rate, whose own words
    the question writes (at least MIN_SHARE of them) and which prints every word the question puts before a rate
    word ("organic revenue growth" is no "Revenue growth" row), best fitting alone; None when none or two fit
    equally."""
    asked = label_terms(expand_abbreviations(question))
    items = _asked_items(question, company)
    fits: dict[str, tuple[float, int]] = {}
    for grid in (g for doc in grids.values() for g in doc if g.status == "parsed"):
        for _, cells in grid.rows().items():
            label = next((c.row_label for c in cells if c.col == 0), "")
            values = [c for c in cells if c.col and c.value is not None]
            if not values or not RATE.search(label) or any(c.unit != "%" for c in values):
                continue
            own = label_terms(label) - _RATE_TERMS
            share = len(own & asked) / len(own) if own else 0.0
            if share >= MIN_SHARE and any(item <= own for item in items):
                fits[label] = max(fits.get(label, (0.0, 0)), (share, len(own & asked)))
    if not fits:
        return None
    ranked = sorted(fits.items(), key=lambda kv: kv[1], reverse=True)
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1] and label_terms(ranked[0][0]) != label_terms(ranked[1][0]):
        return None
    return ranked[0][0]


def rate_change(question: str, grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord],
                hit_rank: Mapping[str, int], doc_names: Mapping[str, str],
                company: Container[str] = frozenset()) -> MetricEvidence | None:
    """The move in points of the printed rate the question names between its two quarters, else None."""
    periods = rate_change_periods(question)
    label = rate_row(question, grids, company) if periods else None
    if label is None:
        return None
    plan = MetricPlan(name=label, metric=None, definition="each period's printed figure", source="printed",
                      tree=Item(label), unit="percent", periods=periods, direction=False, digits=None, scale=None,
                      over="change")
    found = printed_change(f"What was the {label}?", plan, grids, chunks, hit_rank, doc_names)
    return found if found is not None and not found.missing and found.calculation is not None else None


def rate_at_period(question: str) -> Period | None:
    """The one quarter of a question asking a rate at that quarter ("APAC ad impressions growth y/y, Q2 2025"), not its
    move in points; else None."""
    if not RATE.search(question) or POINTS_ASKED.search(question):
        return None
    periods = list(dict.fromkeys(asked_periods(question)[0]))
    return periods[0] if len(periods) == 1 and periods[0].kind == "quarter" and periods[0].quarter else None


def rate_at(question: str, grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord],
            hit_rank: Mapping[str, int], doc_names: Mapping[str, str],
            company: Container[str] = frozenset()) -> FigureEvidence | None:
    """The printed rate the question names, at its quarter: the company's own year-over-year figure ("Ad Impressions
    Delivered YoY Percentage Change: Asia-Pacific", Q2'25: 16%), never a growth computed from its printed rates; None
    when no row fits alone or the quarter is not printed."""
    period = rate_at_period(question)
    label = rate_row(question, grids, company) if period else None
    if label is None:
        return None
    plan = MetricPlan(name=label, metric=None, definition="the printed figure", source="printed", tree=Item(label),
                      unit="percent", periods=(period,), direction=False, digits=None, scale=None, over="at")
    found = printed_measure(f"What was the {label}?", plan, grids, chunks, hit_rank, doc_names)
    return found if found is not None and found.figures and found.figures[0].row_label == label else None
