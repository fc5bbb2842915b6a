"""A quarter named by the months it runs over or by the month it ended in, as a reader who thinks in calendar months
writes it: "the July-September 2024 quarter", "April-June 2025", "the October to December 2022 quarter", "the three
months from April to June 2025", "the 12-week quarter that ended in early May 2023". Each is restated as the quarter of
the month it ends in ("the September 2024 quarter", "the May 2023 quarter"), which the period readers know
(`finance.dates.MONTH_QUARTER`; a yearless one gets its year from the documents in scope, `month_quarters`). A span of
months that is not three long ("January-June 2023") is left as asked."""

from __future__ import annotations

import re

from vera_core.finance.dates import MONTH_WORD, YEAR_WORD, month_number

__all__ = ["month_spans_named"]

_SPAN = re.compile(
    rf"(?:\bthe\s+)?(?:(?:three|3)[\s-]+months?\s+(?:from\s+|of\s+)?)?\b(?P<m1>{MONTH_WORD})(?:\s+(?P<y1>{YEAR_WORD}))?"
    rf"\s*(?:-|\u2013|\u2014|\bto\b|\bthrough\b|\bthru\b|\buntil\b)\s*(?P<m2>{MONTH_WORD})"
    rf"(?:(?:,?\s+|\s*')(?P<y>{YEAR_WORD}|(?<=')\d\d)(?!\d)(?:\s+(?:quarter|period|months)\b)?|\s+(?P<q>quarter)\b)",
    re.I)
"""Three months named by their first and last ("July-September 2024", "the October to December 2022 quarter", "the
April-June quarter")."""
_ENDED_IN = re.compile(
    rf"(?:\bthe\s+)?(?:\d{{1,2}}[\s-]+weeks?[\s-]+|(?:three|3)[\s-]+months?[\s-]+|fiscal\s+)?\b(?:quarter|qtr)\s+(?:that\s+|which\s+)?"
    rf"(?:ended|ending|ends|closed|closing)\s+(?:in\s+)?(?:(?:early|mid|late)[\s-]+)?(?P<m>{MONTH_WORD})"
    rf"(?:,?\s+(?P<y>{YEAR_WORD}))?\b(?![\s,]*\d)", re.I)
"""A quarter named by the month it ended in, without its day ("the 12-week quarter that ended in early May 2023", "the
quarter ending in early May")."""
QUARTER_MONTHS = 3
_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")


def month_spans_named(question: str) -> tuple[str, dict[str, str]]:
    """The question with each quarter named by its months restated as "the <month> <year> quarter" of the month it ends
    in, and {as asked: as read}; (question, {}) when none is."""
    read: dict[str, str] = {}

    def spanned(m: re.Match) -> str:
        first, last = month_number(m.group("m1")), month_number(m.group("m2"))
        if not first or not last or (last - first) % 12 != QUARTER_MONTHS - 1:
            return m.group(0)
        year = m.group("y")
        year = f"20{year}" if year and len(year) == 2 else year
        return _restated(m, m.group("m2"), year, read)

    def ended(m: re.Match) -> str:
        return _restated(m, m.group("m"), m.group("y"), read)

    out = _ENDED_IN.sub(ended, _SPAN.sub(spanned, question))
    return out, read


def _restated(m: re.Match, month: str, year: str | None, read: dict[str, str]) -> str:
    name = _MONTH_NAMES[month_number(month) - 1]
    text = f"the {name} {year} quarter" if year else f"the {name} quarter"
    lead = m.group(0)[:len(m.group(0)) - len(m.group(0).lstrip())]
    read[m.group(0).strip()] = text
    return lead + text
