"""A judgement asked with the yardstick in a sentence of its own: the measure is defined in one sentence and the
bar set in it or in another, in an analyst's words.

- "Can PayPal cover its short-term obligations as of June 30, 2023? Yardstick: current ratio (total current
  assets / total current liabilities) of at least 1.0."
- "Is the current ratio (total current assets / total current liabilities) comfortably above 1.0x?"
- "Would you call Intel capital-intensive on its 2020 numbers? Use additions to property, plant and equipment as a
  percentage of net revenue, and treat anything above 10% as capital-intensive."
- "Is Oracle highly levered at May 31, 2021? Use total debt (A plus B) over total equity, and call it highly
  levered if that exceeds 2x."

The yes/no words ("capital-intensive", "highly levered", "cover its interest bill") are the question's own
standard; the verdict is the measure, as defined, against the one number the question compares it with. A
question with no number to compare, or with two, is not read here.
"""

from __future__ import annotations

import re
from dataclasses import replace

from vera_core.questions.comparisons import _ABOVE, _CMP, _NUMBER, NOTE_LABEL, Comparison, _inclusive, _value, multiple_of
from vera_core.questions.figure import YES_NO_CLAUSE, asked_periods
from vera_core.questions.metric import MetricPlan, read_plan

__all__ = ["read_yardstick"]

_BAR = re.compile(rf"(?:\bcomfortably\s+|\bwell\s+|\bsafely\s+)?{_CMP}\s+(?:the\s+|a\s+)?{_NUMBER}"
                  r"(?:\s+of\s+(?:the\s+|its\s+)?(?P<whole>[a-z][\w\s&'-]{1,40}?)(?=\s*[,.;?()]|\s+as\b|$))?", re.I)
_SET_BARS = (re.compile(rf"\bwith\s+(?:a\s+)?{_NUMBER}\s+as\s+(?:the|a|our|my)\s+(?:bar|threshold|hurdle|minimum|floor|"
                        rf"cut-?off|test)\b", re.I),
             re.compile(rf"\ba\s+{_NUMBER}[\w-]*\s+(?:threshold|bar|hurdle|cut-?off)\b", re.I))
"""A bar set without a comparison word ("with 1.5x as the bar", "a 10%-of-revenue threshold"): the measure must reach it."""
_NOT_A_BAR = re.compile(r"^\s*(?:19|20)\d\d\b")
_LEAD = re.compile(r"^\s*(?:(?:my\s+)?(?:yardstick|rule\s+of\s+thumb|test|bar|benchmark|threshold|measure)\s*:\s*|"
                   r"(?:please\s+)?(?:use|using|judge\s+it\s+on|judge\s+it\s+by|measure\s+it\s+as|measure\s+it\s+by|"
                   r"based\s+on|take|taking|look\s+at)\s+)", re.I)
_TAIL = re.compile(r",?\s+(?:and\s+)?(?:treat|call|flag|consider|count|deem|regard|with)\b.*$|,\s+(?:is|are|was|were|does|do|"
                   r"did|would|can|could)\b.*$|,?\s+(?:and\s+)?a\s+[\d.]+\s*"
                   r"(?:%|x)?[\w-]*\s+(?:threshold|bar|cut-?off|hurdle)\b.*$", re.I)
"""What follows the measure in its sentence: how to judge it ("and treat anything above 10% as ...")."""
_PAREN_NAME = re.compile(r"\s*\((?P<body>[^()]*)\)")
_OPERATOR = re.compile(r"[/+\u00f7*]|\s-\s|\b(?:minus|less|plus|over|divided\s+by|times)\b", re.I)


def _sentences(question: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.?!])\s+(?=[A-Z])", question.strip()) if s.strip()]


def read_yardstick(question: str) -> tuple[MetricPlan, Comparison] | None:
    """The measure, at the period asked, and the bar a yes/no question sets for it; None when it sets none (or
    more than one), or the measure does not read as a metric."""
    if not YES_NO_CLAUSE.search(question):
        return None
    bars = [m for m in _BAR.finditer(question) if not _NOT_A_BAR.match(question, m.start("num"))]
    set_bars = [m for pattern in _SET_BARS for m in pattern.finditer(question)]
    if len(bars) + len(set_bars) != 1:
        return None
    bar = (bars or set_bars)[0]
    periods, texts = asked_periods(question)
    if not periods:
        return None
    measure = _measure(question, bar)
    if not measure:
        return None
    latest = max(zip(periods, texts), key=lambda x: (x[0].year or 0, x[0].end))
    value, unit = _value(bar)
    if not bar.groupdict().get("whole"):
        measure = multiple_of(measure, question[bar.end():], unit)
    defined = _PAREN_NAME.match(question, bar.end())
    if defined and _OPERATOR.search(defined.group("body")) and not _OPERATOR.search(measure):
        # NOTE: "One of our tests is EBIT interest cover above 5x (operating income / interest expense).": the measure's
        # formula follows the bar
        measure = f"{measure} ({defined.group('body').strip()})"
    plan = read_plan(f"What is the {measure} for {latest[1]}?")
    if plan is None or plan.over != "at" or plan.direction:
        return None
    cmp = (bar.groupdict().get("cmp") or "at least").lower()
    comparison = Comparison("threshold", bool(re.match(_ABOVE, cmp, re.I)), _inclusive(cmp), plan.name, threshold=value,
                            unit=unit, words=f"{cmp} {bar.group('num')}{bar.group('unit') or ''}".strip())
    return replace(plan, periods=(latest[0],)), comparison


def _measure(question: str, bar: re.Match) -> str:
    """The measure's words: the sentence that defines it ("Use A over B, and treat ...", "Yardstick: current ratio
    (A / B) of at least 1.0."), else the words before the bar in its own sentence; a percentage bar 'of revenues'
    makes it a share of that whole."""
    defining = [s for s in _sentences(question) if _LEAD.match(s)]
    if defining:
        text = _LEAD.sub("", defining[0])
        text = text.replace(bar.group(0), " ") if bar.group(0) in text else text
    else:
        sentence = next((s for s in _sentences(question) if bar.group(0) in s), question)
        text = sentence[:sentence.index(bar.group(0))]
        text = re.sub(r"^.*?\b(?:is|are|was|were|does|do|did|has|have)\s+(?:the\s+|its\s+)?", "", text, flags=re.I)
        text = NOTE_LABEL.sub("", text.strip())  # "Capital-light screen: capex under 5% of net sales"
    text = _TAIL.sub("", text)
    text = re.sub(r"\s+(?:of|at|is|be|was|stay|remain)\s*$", "", text.strip(" ,.?:;"), flags=re.I)
    # NOTE: a parenthesis that names the line ("capex (purchases of property and equipment, from the cash flow
    # statement)") is dropped; one that defines the measure ("current ratio (A / B)") is kept for read_plan
    text = _PAREN_NAME.sub(lambda m: m.group(0) if _OPERATOR.search(m.group("body")) else " ", text)
    if bar.groupdict().get("whole") and (bar.group("unit") or "").strip() in ("%", "percent"):
        text = f"{text.strip()} as a % of {bar.group('whole').strip()}"
    for words in asked_periods(text)[1]:
        text = text.replace(words, " ")
    return re.sub(r"\s+", " ", text).strip(" ,.;:")
