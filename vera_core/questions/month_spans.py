"""A quarter named by the months it runs over or by the month it ended in, as a reader who thinks in calendar months
writes it: "the July-September 2024 quarter", "April-June 2025", "the October to December 2022 quarter", "the three
months from April to June 2025", "the 12-week quarter that ended in early May 2023". Each is restated as the quarter of
the month it ends in ("the September 2024 quarter", "the May 2023 quarter"), which the period readers know
(`finance.dates.MONTH_QUARTER`; a yearless one gets its year from the documents in scope, `month_quarters`). A span of
six or nine months with its year ("January through the end of September 2025", "the six months to June 2023") is
restated as the months ended on that month's last day ("the nine months ended September 30, 2025"); other spans are left
as asked."""

from __future__ import annotations

import re
from calendar import monthrange

from vera_core.finance.dates import MONTH_NAMES, MONTH_WORD, YEAR_WORD, month_number

__all__ = ["month_spans_named"]

_SPAN = re.compile(
    rf"(?:\bthe\s+)?(?:(?:three|3)[\s-]+months?\s+(?:from\s+|of\s+)?)?\b(?P<m1>{MONTH_WORD})(?:\s+(?P<y1>{YEAR_WORD}))?"
    rf"\s*(?:-|\u2013|\u2014|\b(?:to|through|thru|until)(?:\s+the\s+end\s+of)?\b)\s*(?P<m2>{MONTH_WORD})"
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
_MONTHS_TO = re.compile(
    rf"(?:\bthe\s+)?\b(?P<n>three|six|nine|3|6|9)[\s-]+months?\s+(?:to|ended|ending|through|thru)\s+(?:the\s+end\s+of\s+)?"
    rf"(?P<m>{MONTH_WORD})(?:,?\s+(?P<y>{YEAR_WORD}))?\b(?![\s,]*\d)", re.I)
"""Months named by the month they run to, without its day ("the three months to the end of June 2025", "the nine
months ended September 2025")."""
_MONTHS_TO_DAY = re.compile(rf"\b(?P<n>three|six|nine|twelve|3|6|9|12)[\s-]+months?\s+(?:to|through|thru)\s+(?:the\s+end\s+of\s+)?"
                            rf"(?=(?:{MONTH_WORD})\s+\d{{1,2}},?\s+(?:{YEAR_WORD})\b)", re.I)
"""Months named by the day they run to ("the three months to September 30, 2024"): the months ended that day."""
_SHORT_MONTHS = re.compile(r"\b(?P<n>3|6|9|12)\s?M\s+(?=(?:ended|ending|to|thru|through)\b)")
"""Months written short in a note ("3M ended 9/30/24"): the three months ended that day (never "3M", the company, which
ends nothing)."""
_SHORT_SAID = {"3": "three", "6": "six", "9": "nine", "12": "twelve"}
QUARTER_MONTHS = 3
_SPAN_MONTHS = {3: "three", 6: "six", 9: "nine"}
_COUNTED = {"three": 3, "six": 6, "nine": 9, "3": 3, "6": 6, "9": 9}


def month_spans_named(question: str) -> tuple[str, dict[str, str]]:
    """The question with each quarter named by its months restated as "the <month> <year> quarter" of the month it ends
    in, and {as asked: as read}; (question, {}) when none is."""
    read: dict[str, str] = {}

    def spanned(m: re.Match) -> str:
        first, last = month_number(m.group("m1")), month_number(m.group("m2"))
        months = (last - first) % 12 + 1 if first and last else 0
        year = m.group("y")
        year = f"20{year}" if year and len(year) == 2 else year
        if months == QUARTER_MONTHS:
            return _restated(m, m.group("m2"), year, read)
        # NOTE: "January through the end of September 2025": the nine months ended September 30, 2025
        return _months_ended(m, months, m.group("m2"), year, read) if months in _SPAN_MONTHS and year else m.group(0)

    def ended(m: re.Match) -> str:
        return _restated(m, m.group("m"), m.group("y"), read)

    def counted(m: re.Match) -> str:
        months = _COUNTED[m.group("n").lower()]
        if months == QUARTER_MONTHS:
            return _restated(m, m.group("m"), m.group("y"), read)
        return _months_ended(m, months, m.group("m"), m.group("y"), read) if m.group("y") else m.group(0)

    def to_day(m: re.Match) -> str:
        text = f"{m.group('n')} months ended "
        read[m.group(0).strip()] = text.strip()
        return text

    def short(m: re.Match) -> str:
        text = f"{_SHORT_SAID[m.group('n')]} months "
        read[m.group(0).strip()] = text.strip()
        return text

    question = _SHORT_MONTHS.sub(short, question)
    out = _MONTHS_TO.sub(counted, _ENDED_IN.sub(ended, _SPAN.sub(spanned, _MONTHS_TO_DAY.sub(to_day, question))))
    return out, read


def _months_ended(m: re.Match, months: int, month: str, year: str, read: dict[str, str]) -> str:
    number = month_number(month)
    return _read_as(m, f"the {_SPAN_MONTHS[months]} months ended {MONTH_NAMES[number - 1]} "
                       f"{monthrange(int(year), number)[1]}, {year}", read)


def _restated(m: re.Match, month: str, year: str | None, read: dict[str, str]) -> str:
    name = MONTH_NAMES[month_number(month) - 1]
    return _read_as(m, f"the {name} {year} quarter" if year else f"the {name} quarter", read)


def _read_as(m: re.Match, text: str, read: dict[str, str]) -> str:
    """`text` in place of what `m` matched (its leading space kept), noted in `read` against the words asked."""
    lead = m.group(0)[:len(m.group(0)) - len(m.group(0).lstrip())]
    read[m.group(0).strip()] = text
    return lead + text
