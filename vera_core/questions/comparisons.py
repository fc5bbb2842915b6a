"""Yes/no questions that compare a figure with a yardstick or with another figure.

- threshold: "Is the debt-to-equity ratio above 2x at the end of 2022?", "Was operating margin at least 10%
  in FY2023?", "Is leverage high (debt-to-equity above 2.0)?": the measure at the period, against the number
  the question states, in the measure's unit (a percentage yardstick is never compared with a ratio);
- pair: "Was capex larger than depreciation in 2023?", "Did capital expenditures exceed D&A in FY2022?",
  "Could it cover its current liabilities with its current assets?": two measures at one period.

A judgement with no yardstick ("is the business capital-intensive?") is not read here: VERA states no
verdict on a standard the question does not give.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from vera_core.finance.line_items import concepts_in
from vera_core.questions.library import metric_named

__all__ = ["Comparison", "multiple_of", "read_bar", "read_comparison"]

_ASK = r"(?:is|are|was|were|does|do|did|has|have|had|will|can|could|would|should)"
_ABOVE = (r"(?:greater|larger|higher|bigger|more)\s+than|exceed(?:s|ed|ing)?|above|over|in\s+excess\s+of|"
          r"(?:at\s+least|no\s+(?:less|lower)\s+than)|>=?")
_BELOW = r"(?:less|lower|smaller|fewer)\s+than|below|under|(?:at\s+most|no\s+(?:more|higher)\s+than)|<=?"
_CMP = rf"(?P<cmp>{_ABOVE}|{_BELOW})"
_NUMBER = r"(?P<sign>-)?\$?\s?(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>%|percent\b|per\s?cent\b|x\b|×|times\b|days\b|" \
          r"(?:thousand|million|billion|bn|mm|m)\b)?"
_THRESHOLD = re.compile(rf"(?:\b{_ASK}\s+|[(\[,;:]\s*|(?<=[?.!])\s+(?:(?:use|using|take|apply|with)\s+)?|^)(?:the\s+)?"
                        rf"(?P<measure>[^(),;:?.]{{2,80}}?)\s+"
                        rf"(?:(?:stay|stayed|remain|remained|come\s+in|came\s+in|be|been|was|is|were|are)\s+)?{_CMP}\s+"
                        rf"(?:the\s+|a\s+)?{_NUMBER}(?:\s+of\s+(?:the\s+|its\s+)?(?P<whole>[^,.;?()]{{2,60}}?)"
                        rf"(?=\s+(?:as|in|for|at|during)\b|\s*[,.;?()]|$))?", re.I)
"""'debt-to-equity above 2x', 'operating margin at least 10%', and 'capex above 10% of total revenue' (a share
of a whole: capex as a % of total revenue, against 10%)."""
_PAIR_CMP = (r"(?P<cmp>(?:greater|larger|higher|bigger|more)\s+than|exceed(?:s|ed|ing)?|in\s+excess\s+of|at\s+least|"
             r"(?:less|lower|smaller)\s+than|at\s+most)")
"""Words comparing two measures ("over" and "under" compare with a number only: "grow year over year")."""
_PAIR = re.compile(rf"\b{_ASK}\s+(?:the\s+(?:company['’]s\s+)?|its\s+)?(?P<a>[^(),;:?]{{2,60}}?)\s+(?:(?:be|been)\s+)?{_PAIR_CMP}\s+"
                   rf"(?:the\s+|its\s+|that\s+of\s+)?(?P<b>[A-Za-z][^();:?]{{1,60}}?)"
                   rf"(?=\s+(?:in|for|during|at|as\s+of|on|over|from|by)\b|\s*[?;(.]|,(?!\s*and\b|\s*\w+\s+and\b)|$)", re.I)
_SPEND_MORE = re.compile(rf"\b{_ASK}\s+(?:it|the\s+company|they|[\w&.'-]+)\s+(?:spend|spent|invest|invested)\s+more\s+"
                         r"(?:on|in)\s+(?:its\s+|the\s+)?(?P<a>[^(),;:?]{2,60}?)(?:\s*\((?P<named>[^()]{2,80})\))?\s+than\s+(?:it\s+\w+\s+(?:in|on|as)\s+|"
                         r"(?:on|in)\s+)?(?:its\s+|the\s+)?(?P<b>[^(),;:?]{2,60}?)(?=\s+(?:in|for|during|at|as\s+of|on|by)\b|"
                         r"\s*[?,;(.]|$)", re.I)
""""Did eBay spend more on property and equipment than it booked in depreciation and amortization?": the
purchases of A against B; "more on capex (purchase of property and equipment) than ...": the line named in
parentheses."""
_COVER = re.compile(rf"\b{_ASK}\s+(?:it|the\s+company|they|\w+)\s+(?:have\s+)?(?:cover|meet|pay(?:\s+off)?)\s+"
                    rf"(?:all\s+(?:of\s+)?)?(?:its\s+|their\s+|the\s+)?(?P<b>[^(),;:?]{{2,60}}?)\s+(?:with|from|using|out\s+of)"
                    rf"\s+(?:its\s+|their\s+|the\s+)?(?P<a>[^(),;:?]{{2,60}}?)(?=\s+(?:in|for|during|at|as\s+of|on|by)\b|"
                    rf"\s*[?,;(.]|$)|\b{_ASK}\s+(?:its\s+|the\s+)?(?P<a2>[^(),;:?]{{2,60}}?)\s+(?:enough|sufficient|"
                    rf"adequate)\s+to\s+(?:cover|meet|pay)\s+(?:its\s+|their\s+|the\s+)?(?P<b2>[^(),;:?]{{2,60}}?)"
                    rf"(?=\s+(?:in|for|during|at|as\s+of|on|by)\b|\s*[?,;(.]|$)|"
                    rf"(?:^|[,.;:]\s+)\s*{_ASK}\s+(?:(?:[\w&.-]+\s+){{0,3}}?[\w&.-]+['\u2019]s|its|their)\s+(?P<a3>[^(),;:?]{{2,60}}?)\s+(?:cover|covered)\s+"
                    rf"(?:all\s+(?:of\s+)?)?(?:its\s+|their\s+|the\s+)?(?P<b3>[^(),;:?]{{2,60}}?)"
                    rf"(?=\s+(?:in|for|during|at|as\s+of|on|by)\b|\s*[?,;(.]|$)", re.I)
""""Could it cover its current liabilities with its current assets?", "Did Wheeler REIT's operating income cover
its interest expense in 2022?", "In 2022, did its operating income cover its interest expense?": A >= B."""
_BAR = re.compile(rf"\b(?:using|use|take|taking|apply|applying|with)\s+(?:the\s+|a\s+)?(?P<measure>[^(),;:?]{{2,60}}?)\s*"
                  rf"(?:\([^()]*\)\s*)?,?\s*(?:with|and|taking|setting)\s+(?:a\s+|the\s+)?{_NUMBER}\s*(?:as\s+(?:the\s+|a\s+|our\s+)?"
                  rf"(?:bar|threshold|hurdle|benchmark|cut-?off|yardstick|minimum|floor|test)|(?:bar|threshold|hurdle|"
                  rf"benchmark|cut-?off|minimum|floor))\b", re.I)
"""A bar the question sets for a measure it names, beside a yes/no in other words: "Using the current ratio
(total current assets / total current liabilities) with 1.0x as the bar, could the company cover its
short-term obligations out of current assets?" tests the current ratio against 1.0x."""
_SCALES = {"thousand": 1e3, "million": 1e6, "mm": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}
_PRONOUN = re.compile(r"^(?:it|its|they|their|the\s+company|this|that)\b", re.I)


@dataclass(frozen=True)
class Comparison:
    """What a comparison verdict tests."""

    kind: Literal["threshold", "pair"]
    above: bool
    """True: the measure (or A) must be above the yardstick (or B); False: below."""
    inclusive: bool
    """'at least' / 'at most' / 'cover': equality passes."""
    measure: str
    """threshold: the measure; pair: A."""
    other: str = ""
    """pair: B."""
    threshold: float | None = None
    """threshold: the yardstick in the measure's unit (a percentage in percent; an amount in units)."""
    unit: Literal["percent", "ratio", "days", "amount", ""] = ""
    """threshold: the unit the yardstick is written in ('' when the question gives none)."""
    words: str = ""
    """The comparison as the question words it ("above 2x", "larger than depreciation")."""


def read_comparison(clause: str) -> Comparison | None:
    """The comparison a yes/no clause asks, or None."""
    if not re.match(rf"^\s*(?:\w+[,:]?\s+){{0,12}}?{_ASK}\b", clause, re.I):
        return None
    threshold = _THRESHOLD.search(clause)
    if threshold and not _PRONOUN.match(threshold.group("measure")):
        return _threshold(threshold)
    spend = _SPEND_MORE.search(clause)
    if spend:
        named = (spend.group("named") or "").strip()
        a = named if re.match(r"(?:purchases?|payments?|additions?|acquisitions?)\b", named, re.I) \
            else f"purchases of {spend.group('a').strip()}"
        return Comparison("pair", True, False, a, spend.group("b").strip(), words=f"more than {spend.group('b').strip()}")
    cover = _COVER.search(clause)
    if cover:
        a = cover.group("a") or cover.group("a2") or cover.group("a3")
        b = cover.group("b") or cover.group("b2") or cover.group("b3")
        return Comparison("pair", True, True, a.strip(), b.strip(), words=cover.group(0).strip())
    pair = _PAIR.search(clause)
    if pair and not _PRONOUN.match(pair.group("a")) and not re.match(r"^\d", pair.group("b")):
        cmp = pair.group("cmp").lower()
        above = bool(re.match(_ABOVE, cmp, re.I))
        return Comparison("pair", above, _inclusive(cmp), pair.group("a").strip(), pair.group("b").strip(),
                          words=f"{pair.group('cmp')} {pair.group('b')}")
    return None


def read_bar(question: str) -> Comparison | None:
    """The bar a question sets for a measure it names ("Using the current ratio ... with 1.0x as the bar"), or None."""
    bar = _BAR.search(question)
    return _bar(bar) if bar else None


def _inclusive(cmp: str) -> bool:
    return bool(re.match(r"at\s+(?:least|most)|no\s+|>=|<=", cmp, re.I))


def _value(m: re.Match) -> tuple[float, str]:
    """The yardstick's value and unit as a threshold match writes them ("2x", "10%", "$5 billion")."""
    value = float(m.group("num").replace(",", "")) * (-1 if m.group("sign") else 1)
    unit_word = (m.group("unit") or "").lower().strip()
    unit = ""
    if unit_word in ("%", "percent") or unit_word.startswith("per"):
        unit = "percent"
    elif unit_word in ("x", "×", "times"):
        unit = "ratio"
    elif unit_word == "days":
        unit = "days"
    elif unit_word in _SCALES or "$" in m.group(0):
        unit, value = "amount", value * _SCALES.get(unit_word, 1.0)
    return value, unit


NOTE_LABEL = re.compile(r"^(?:[\w&'-]+\s+){0,3}[\w&'-]+\s*:\s+(?=\S)")
"""A note's label before the measure ("Capital-light screen: capex under 5% of net sales"): not the measure's name."""


def _measure(words: str) -> str:
    """The measure a comparison holds against its bar, without an article or a note's label."""
    return re.sub(r"^(?:the|a|an)\s+", "", NOTE_LABEL.sub("", words.strip()), flags=re.I)


def _bar(m: re.Match) -> Comparison:
    """'Using the current ratio (...) with 1.0x as the bar': the measure must reach the bar."""
    value, unit = _value(m)
    measure = _measure(m.group("measure"))
    return Comparison("threshold", True, True, measure, threshold=value, unit=unit,
                      words=f"at least {m.group('num')}{m.group('unit') or ''}".strip())


_COVERS = re.compile(r"^(?P<a>.+?)\s+(?:covers?|covered|covering)\s+(?:all\s+(?:of\s+)?)?(?:its\s+|their\s+|the\s+)?"
                     r"(?P<b>.+?)(?:\s+by)?$", re.I)
_AGAINST = re.compile(r"^(?P<a>.+?)\s+(?:against|relative\s+to)\s+(?:its\s+|their\s+|the\s+)?(?P<b>.+?)$", re.I)
"""'notes payable against total equity' held against a multiple: the quotient."""
_TIMES_BASE = re.compile(r"\s*(?!(?:in|for|at|as|during|on|by|over|and|or|of|to|from|when|than|while|if|with)\b)"
                         r"(?:(?:the|its|their|that)\s+)?(?:(?:year|quarter|period|company)['\u2019]s\s+)?"
                         r"(?P<base>[a-z][^,.;?()]{1,60}?)(?=\s+(?:in|for|at|as\s+of|during|on|by|over)\b|\s*[,.;?()]|$)", re.I)


def multiple_of(measure: str, after: str, unit: str) -> str:
    """A measure held against a multiple of another: "did operating income cover interest expense at least 1.0x" and
    "is total debt more than 3.0x the year's income from operations" (`after`: the words after the bar) test A / B
    against the multiple, not A."""
    if unit != "ratio":
        return measure
    covers = _COVERS.match(measure)
    if covers:
        # NOTE: "Our credit policy wants operating income to cover interest expense at least 1.5x": the measure's A is
        # what is to cover, not who wants it
        a = re.sub(r"^.*?\b(?:wants?|needs?|requires?|expects?|likes?)\s+(?:to\s+see\s+)?|\s+to$", "", covers.group("a").strip(),
                   flags=re.I)
        return f"{a.strip()} / {covers.group('b').strip()}"
    against = _AGAINST.match(measure)
    if against:
        return f"{against.group('a').strip()} / {against.group('b').strip()}"
    base = _TIMES_BASE.match(after)
    if base is None or not _names_line(base.group("base")) or _is_ratio(measure):
        return measure  # NOTE: "above 1.2x throughout 2022", "debt-to-EBITDA below 3.0x EBITDA": no second measure
    return f"{measure} / {base.group('base').strip()}"


def _names_line(words: str) -> bool:
    """Whether words name a line item or a library metric ("the year's income from operations", "EBITDA")."""
    return bool(concepts_in(words)) or metric_named(words) is not None


def _is_ratio(measure: str) -> bool:
    """Whether a measure is already a ratio by its name ("debt-to-EBITDA ratio", "current ratio")."""
    known = metric_named(measure)
    return (known is not None and known.unit != "amount") or bool(re.search(r"\bratio\b|\bcoverage\b|-to-", measure, re.I))


def _threshold(m: re.Match) -> Comparison | None:
    cmp = m.group("cmp").lower()
    value, unit = _value(m)
    measure = _measure(m.group("measure"))
    if not m.group("whole"):
        measure = multiple_of(measure, m.string[m.end():], unit)
    if m.group("whole") and unit == "percent":  # "capex above 10% of total revenue"
        measure = f"{measure} as a % of {m.group('whole').strip()}"
    return Comparison("threshold", bool(re.match(_ABOVE, cmp, re.I)), _inclusive(cmp), measure, threshold=value,
                      unit=unit, words=m.group(0)[m.start("cmp") - m.start():(m.start("whole") if m.group("whole") else m.end())
                                                  - m.start()].strip().removesuffix(" of").strip())
