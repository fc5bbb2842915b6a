"""What a question asks of a row a filing prints under its own label, when its wording is one the router's
frames do not read ("What mortgage notes payable did the company show on its balance sheet at December 31,
2015?", "how fast did Boston Properties' base rent grow in 2015 vs 2014?", "What did PG&E spend on capex on
average per year over 2019-2021?").

The item is not read from the question's grammar but given: the label of a row the documents in scope print,
found in the question's words (`answer.figures.row_labels`). This module reads the rest: whether an amount is
asked at all, which periods, and whether it is the figure itself or its growth, compound growth, change or
mean over the periods named. A question that asks anything else (a ratio, a margin, a formula, a share of
another item, a yes/no) is not read here: None.
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass

from vera_core.finance.line_items import TABLE_NAMED, asks_non_gaap, concepts_in, label_sequence, label_terms
from vera_core.questions.figure import (FORWARD_ASKED, PER_SHARE_ASKED, PERCENT_ASKED, YES_NO_CLAUSE,
                                        FigureRequest, asked_periods, asked_scale, expand_abbreviations)
from vera_core.questions.metric import MetricPlan, item_aggregate_plan
from vera_core.questions.qualifiers import qualifier_around
from vera_core.questions.spans import COMPOUND, GROWTH, LISTED, MEAN, POINTS, RANGE, SPAN, Aggregate, quarter_span, span_year
from vera_core.finance.statements import named_statement
from vera_core.records import Period
from vera_core.text import LABEL_WORD_TOKEN

__all__ = ["LabelSpan", "asks_amount", "asks_count", "asked_of_row", "label_in_question"]

_AMOUNT = re.compile(r"\b(?:find|pull|fetch|grab|look\s+up)\b(?!\s+(?:out\s+)?(?:why|how|where))|\b(?:we|i)\s+need\b|"
                     r"\bgive\s+(?:me|us)\b|"
                     r"\bhow\s+(?:much|fast|quickly)\b|\bwhat\s+(?:is|was|were|are)\b|\bwhat'?s\b|\bwhat\s+[\w&' -]{2,60}?\s+"
                     r"(?:did|does|do)\b|\bwhat\s+did\b|\b(?:in|as)\s+(?:(?:USD|US\$|\$)\s*)?(?:thousands|millions|billions)\b|"
                     r"\(\s*(?:\$|USD|US\$)?\s*(?:mm|mn|m|bn|b|k|millions?|billions?|thousands?)\b|\bdecimals?\b|\b\d\s?dp\b|"
                     r"%|\bpercent(?:age)?\b|\bCAGR\b|\bgrowth\b|\bchange\b|\baverage\b|\b(?:ratio|margin|yield|rate)\b", re.I)
"""Words that ask for an amount (a figure, its growth, change or mean), in a question or a pasted note."""
_NOT_AMOUNT = re.compile(r"\bhow\s+many\b|\b(?:why|drove|drivers?|explain\w*|reasons?|caus\w*|say|said|says|discuss\w*|describe\w*|"
                         r"comment\w*|mention\w*|disclos\w*\s+about|risks?|polic\w+|how\s+(?:is|are|was|were|does|do|did)\s+"
                         r"(?:it|they|the)\s+(?:measured|calculated|defined|determined|recognized|accounted))\b", re.I)
_FORMULA = re.compile(r"\bdefined\s+as\b|\bdefine\b|\bdivided\b|\bminus\b|\bless\b|\bplus\b|\bif\s+(?:I|we|you)\s+(?:add|sum|combine)\b|"
                      r"\bshare\s+of\b|\bper\s*cent(?:age)?\s+of\b|%\s+of\b|\bas\s+a\s+%|\bturnover\b|\bcoverage\b|\bcover\b|"
                      r"\btimes\b|\bdays\b|\bper\s+share\b|=|\+|\s/\s|\bover\s+(?!(?:fiscal\s+)?(?:the\s+)?(?:years?|FY|\d))", re.I)
"""A formula over other items: not one row's figure or aggregate (a ratio or margin asked by name may be a row a bank's or
a retailer's release prints: "CET1 ratio", "Net interest margin")."""
_GROW = re.compile(r"\bhow\s+(?:fast|quickly)\b|\bgr[eo]w(?:s|n|ing)?\b|\byoy\b|\by/y\b|\byear[\s-]over[\s-]year\b", re.I)
_CHANGE = re.compile(r"\bchange[sd]?\b|\b(?:increase|decrease|decline|rise|fall|drop)(?:s|d)?\b|\brose\b|\bfell\b|"
                     r"\bgo(?:ne)?\s+(?:up|down)\b|\bwent\s+(?:up|down)\b", re.I)
_ON_AVERAGE = re.compile(r"\b(?:on\s+)?average\b|\bavg\b|\bmean\b|\bper\s+year\b", re.I)


@dataclass(frozen=True)
class LabelSpan:
    """A row's label as the question writes it: where it stands in the (abbreviation-expanded) question."""

    label: str
    text: str
    """The question with accounting abbreviations written out (`start`/`end` index it)."""
    start: int
    end: int


def asks_amount(question: str) -> bool:
    """Whether a question asks for an amount (a figure, or its growth, change or mean) and is not a yes/no, a
    question about causes or what was said, or a formula over other items. "How many" asks a count, which an
    amount row never answers ("How many iPhones did Apple sell?" is not the iPhone revenue row): see `asks_count`.
    A note with no question word ("Meta ARPP, Q2 2025", "EBAY GMV 2Q23, $bn") asks the figure it names."""
    # NOTE: a parenthesis in a note restates its period ("COST 3Q FY23 (12 wks to May 7 '23): interest income & other,
    # net?"): no word of its length
    terse = len(re.sub(r"\([^()]*\)", " ", question).split()) <= TERSE_WORDS
    asked = bool(_AMOUNT.search(question)) or (not _QUESTION_WORD.search(question) and terse)
    return asked and not (_NOT_AMOUNT.search(question) or YES_NO_CLAUSE.search(question) or _FORMULA.search(question))


def asks_count(question: str) -> bool:
    """Whether a question asks how many of something ("How many active buyers did eBay have in Q1 2023?"): a
    count row (people, accounts, units: no currency) answers it, never an amount row."""
    return bool(_HOW_MANY.search(question)) and not (YES_NO_CLAUSE.search(question) or _FORMULA.search(question)
                                                     or _CAUSES.search(question))


TERSE_WORDS = 12
"""A note without a question word asks a figure when it is this short."""
_QUESTION_WORD = re.compile(r"\b(?:what|whats|how|which|who|whom|why|when|where|did|does|do|is|was|were|are|can|could|"
                            r"should|would|list|name|describe|explain|summari[sz]e|tell|give|show)\b", re.I)
_HOW_MANY = re.compile(r"\bhow\s+many\b", re.I)
_CAUSES = re.compile(r"\b(?:why|drove|drivers?|explain\w*|reasons?|caus\w*|say|said|says|discuss\w*|describe\w*)\b", re.I)


def _asking_sentence(question: str) -> str:
    """The sentence that asks (a persona's sentence before it is context: "I'm reviewing secured debt at X.")."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", question.strip()) if s.strip()]
    asking = [s for s in sentences if s.rstrip().endswith("?")]
    return asking[0] if asking else question


_SUBJECT = frozenset(("they",))
"""The company as a pronoun the question's terms keep ("how much debt did they repay")."""


def label_in_question(question: str, label: str, company: Container[str] = frozenset()) -> LabelSpan | None:
    """Where the question names a row's label, word for word (its normalised words consecutive among the
    question's: "Base rent" in "how fast did Boston Properties' base rent grow"), in the asking sentence; else where
    it writes the label's words, every one and no other, in another order ("proceeds from LT debt issuance (net)" names
    "Proceeds from issuance of long-term debt, net"); else so with the company's name words (`company`) or "they"
    between them ("how much debt did eBay repay" names "Repayment of debt"). A hyphenated word is each of its words
    ("long-term"); another is its first ("PG&E" is no row "E")."""
    wanted = label_sequence(label)
    if not wanted:
        return None
    text = expand_abbreviations(_asking_sentence(question))
    # NOTE: "(full year, from the adjusted free cash flow reconciliation)": where to read names no row asked
    blanked = TABLE_NAMED.sub(lambda m: " " * len(m.group(0)), text)
    words = [(norm, m.start(), m.end()) for m in LABEL_WORD_TOKEN.finditer(blanked)
             for norm in label_sequence(m.group(0))[:None if "-" in m.group(0) else 1]]
    for seq in (words, [w for w in words if not (w[0] in company or w[0] in _SUBJECT) or w[0] in wanted]):
        for same in (lambda seen: seen == wanted, lambda seen: sorted(seen) == sorted(wanted)):
            for i in range(len(seq) - len(wanted) + 1):
                if same(tuple(w for w, _, _ in seq[i:i + len(wanted)])):
                    return LabelSpan(label, text, seq[i][1], seq[i + len(wanted) - 1][2])
    return None


def asked_of_row(question: str, named: LabelSpan) -> FigureRequest | MetricPlan | None:
    """The figure, or the growth, change or mean over the periods named, a question asks of the row
    `named`; None when it names no period or asks something else of it."""
    text = named.text
    periods, texts = asked_periods(text)
    if not periods:
        return None
    qualifier = qualifier_around(text, named.start, named.end)
    over = _over(text)
    if over is None:
        return FigureRequest(tuple(concepts_in(named.label)), label_terms(named.label), tuple(periods), tuple(texts),
                             asked_scale(text), bool(PERCENT_ASKED.search(text)) and asked_scale(text) is None,
                             named_statement(text), label_terms(text), asks_non_gaap(text), qualifier,
                             bool(PER_SHARE_ASKED.search(text)), bool(FORWARD_ASKED.search(text)))
    kind, compound = over
    span = SPAN.search(text) or RANGE.search(text) or LISTED.search(text)
    years = None
    if span:
        a, b = (span_year(span.group(g)) for g in ("a", "b"))
        years = (min(a, b), max(a, b))
    if kind == "mean" and not years:
        return None  # NOTE: an "average" balance without years is the balance's own average, not a mean of years
    counted = COMPOUND.search(text)
    count = int(counted.group("n")) if counted and counted.group("n") and counted.group("n").isdigit() else None
    aggregate = Aggregate(kind, named.label, years, count, compound)
    base = _latest(periods) if not years else None
    quarters = quarter_span(periods, text) if not years and kind != "mean" else ()
    if quarters:  # NOTE: "from 3Q24 to 4Q24", "sequentially in Q2 2023": the two quarters
        return item_aggregate_plan(text, aggregate, named.label, quarters, qualifier)
    if not years and len(periods) == 2 and periods[0].kind == periods[1].kind and kind != "mean":
        first, last = sorted(periods, key=lambda p: (p.year or 0, p.end, p.quarter or 0))
        return item_aggregate_plan(text, aggregate, named.label, (first, last), qualifier)
    return item_aggregate_plan(text, aggregate, named.label, None, qualifier, base)


def _over(text: str) -> tuple[str, bool] | None:
    """How the question aggregates the row: (`growth`, compound?), (`change`, False), (`mean`, False), or None
    for the figure itself."""
    if COMPOUND.search(text):
        return "growth", True
    if GROWTH.search(text) or _GROW.search(text):
        return "growth", False
    if MEAN.search(text) or _ON_AVERAGE.search(text):
        return "mean", False
    if _CHANGE.search(text):
        if POINTS.search(text):
            return "change", False  # NOTE: a rate's change "in percentage points" is the difference of the two rates
        return ("growth", False) if PERCENT_ASKED.search(text) or "%" in text else ("change", False)
    return None


def _latest(periods: list[Period]) -> Period:
    return max(periods, key=lambda p: (p.year or 0, p.end, p.quarter or 0))
