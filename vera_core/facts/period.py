"""Reporting periods as a person reads them, and back to ISO dates.

A period fact's value is the wording a reader expects, built from the document's own words:
"fiscal year ended December 31, 2019", "financial year from 1 January 2024 to 31 December 2024",
"quarter ended March 25, 2023", "three months ended March 25, 2023". The dates keep the document's
order (day first for "31 December 2024", month first for "December 31, 2019"); the period's name
is the document's, lower-cased ("quarterly period" reads "quarter"). `period_dates` and
`period_iso` turn such a value back into dates, for JSON and for comparing statements.
"""

from __future__ import annotations

import re
from datetime import date

from vera_core.finance.dates import MONTH_NAMES

__all__ = ["day_first", "describe", "parse_date", "period_dates", "period_iso"]

_KIND_WORDS = {"quarterly period": "quarter"}
"""Period names a reader says differently."""
_FROM_TO = re.compile(r"\bfrom\s+(?P<start>.+?)\s+to\s+(?P<end>.+)$")
_ENDED = re.compile(r"\bended\s+(?P<end>.+)$")
_LEGACY = re.compile(r"(?P<start>\d{4}-\d{2}-\d{2})?/(?P<end>\d{4}-\d{2}-\d{2})")
"""The value stored by extractor `facts-1`: an ISO interval, the start possibly empty ("/2019-12-31")."""


def parse_date(text: str) -> date | None:
    """A calendar date from "31 December 2024", "December 31, 2018", "Dec. 31, 2018", ISO, or a
    numeric "3/25/2023" only when one part exceeds 12 (so day and month cannot be swapped)."""
    text = text.strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return date.fromisoformat(text)
        if numeric := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text):
            a, b, year = (int(g) for g in numeric.groups())
            if (a > 12) == (b > 12):
                return None
            return date(year, b, a) if a > 12 else date(year, a, b)
        parts = re.findall(r"\d+|[A-Za-z]+", text)
        numbers = [int(p) for p in parts if p.isdigit()]
        month = next(i for p in parts for i, name in enumerate(MONTH_NAMES, start=1)
                     if p.isalpha() and len(p) >= 3 and name.lower().startswith(p.lower()))
        return date(numbers[-1], month, numbers[0])
    except (ValueError, StopIteration, IndexError):
        return None


def day_first(text: str) -> bool:
    """Whether a date as written puts the day first ("31 December 2024", "25/3/2023")."""
    text = text.strip()
    if numeric := re.fullmatch(r"(\d{1,2})/\d{1,2}/\d{4}", text):
        return int(numeric.group(1)) > 12
    return bool(re.match(r"\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]", text))


def describe(kind: str, start: date | None, end: date, *, day_first: bool) -> str:
    """The readable period: "<kind> ended <end>" or, with a start, "<kind> from <start> to <end>".

    `kind` is the document's name for the period ("Fiscal Year", "Three Months", "12 Weeks").
    """
    kind = " ".join(kind.lower().split())
    kind = _KIND_WORDS.get(kind, kind)
    if start is None:
        return f"{kind} ended {_format(end, day_first)}"
    return f"{kind} from {_format(start, day_first)} to {_format(end, day_first)}"


def _format(day: date, day_first: bool) -> str:
    month = MONTH_NAMES[day.month - 1]
    return f"{day.day} {month} {day.year}" if day_first else f"{month} {day.day}, {day.year}"


def period_dates(value: str) -> tuple[date | None, date] | None:
    """(start, end) of a period value (start None when the document states only the end); None for
    a value that is not a period. Also reads the ISO interval stored by extractor `facts-1`."""
    if legacy := _LEGACY.fullmatch(value.strip()):
        start = date.fromisoformat(legacy["start"]) if legacy["start"] else None
        return start, date.fromisoformat(legacy["end"])
    if m := _FROM_TO.search(value):
        start, end = parse_date(m["start"]), parse_date(m["end"])
        return (start, end) if start and end else None
    if m := _ENDED.search(value):
        end = parse_date(m["end"])
        return (None, end) if end else None
    return None


def period_iso(value: str | None) -> dict[str, str | None] | None:
    """{"start": "YYYY-MM-DD" or None, "end": "YYYY-MM-DD"} for a period value, for JSON output;
    None when `value` is None or not a period."""
    dates = period_dates(value) if value else None
    if dates is None:
        return None
    start, end = dates
    return {"start": start.isoformat() if start else None, "end": end.isoformat()}
