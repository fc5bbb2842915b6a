"""Periods as filings print them ("Year ended December 31" over "2018", "12 Weeks Ended March 25,
2023", "as at 31 December 2024") -> `Period`, and back to the words an analyst reads.

One reader serves both sides: table columns at ingestion and questions at answer time, so "FY2018",
"year end FY2018" and "as of December 31, 2018" resolve against the same records.
"""

from __future__ import annotations

import calendar
import re
from collections import Counter
from collections.abc import Iterable
from datetime import date

from vera_core.finance.dates import (_MONTH, _NUMBER_WORDS, _ORDINALS, _YEAR, DATE_DMY, DATE_MDY, DATE_NUM,  # noqa: F401
                                     DURATION, FISCAL_YEAR, MONTH_DAY, MONTHS, QUARTER, YEAR, quarter_number)
from vera_core.records import Period

YEAR_FLOW = re.compile(r"\b(?:(?:fiscal\s+)?years?\s+(?:ended|ending)|for\s+the\s+year|fiscal\s+years?|annual|"
                       r"statements?\s+of\s+(?:income|operations|earnings|cash\s*flows?|comprehensive)|"
                       r"income\s+statements?|cash\s*flows?)\b", re.I)
COMPARISON = re.compile(r"\b(?:vs\.?|versus|compared\s+(?:to|with)|change|growth|variance|increase|decrease)\b", re.I)
"""A column comparing periods ("Change 2022 vs. 2021", "% Increase (Decrease)"): not a period of its own."""
INSTANT = re.compile(r"\b(?:as\s+(?:of|at)|at\s+(?:the\s+)?(?:end\s+of|year[\s-]end)|balance\s+sheets?|"
                     r"statements?\s+of\s+financial\s+(?:position|condition)|year[\s-]end)\b", re.I)


def _iso(year: int, month: int, day: int) -> str:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return ""


def _full_year(text: str) -> int:
    year = int(text)
    return year + 2000 if year < 100 else year


def dates_in(text: str) -> list[str]:
    """ISO dates printed in `text`, in order ("December 31, 2018", "31 December 2024", "3/25/2023")."""
    found: list[tuple[int, str]] = []
    for pattern in (DATE_MDY, DATE_DMY, DATE_NUM):
        for m in pattern.finditer(text):
            month = m.group("m")
            month_n = int(month) if month.isdigit() else MONTHS.get(month.lower().rstrip(".")[:3], 0)
            iso = _iso(_full_year(m.group("y")), month_n, int(m.group("d")))
            if iso:
                found.append((m.start(), iso))
    return [iso for _, iso in sorted(found)]


def _month_day(text: str) -> tuple[int, int] | None:
    """A month and day printed without a year ("Years ended December 31")."""
    m = MONTH_DAY.search(text)
    if not m:
        return None
    month = (m.group("m") or m.group("m2")).lower().rstrip(".")[:3]
    return MONTHS.get(month, 0), int(m.group("d") or m.group("d2"))


QUARTERS_ENDED = re.compile(r"\bquarters?\s+(?:ended|ending)\b", re.I)
"""A quarter's column without its length in words ("Quarters Ended June 30,"): three months."""


def _months(text: str) -> int | None:
    m = DURATION.search(text)
    if not m:
        return 3 if QUARTERS_ENDED.search(text) else None
    n = m.group("n").lower()
    count = int(n) if n.isdigit() else _NUMBER_WORDS[n]
    unit = m.group("u").lower()
    if unit.startswith("week"):  # NOTE: 52/53-week years: 12 or 16 weeks are a quarter, 36 weeks three (13 a quarter)
        return 3 * round(count / 13) if count >= 10 else max(1, round(count / 4.33))
    return count * 3 if unit.startswith("quarter") else count


def column_period(header: str, context: str, statement: str = "") -> Period | None:
    """The period of one table column from its header text, read with the table's caption and
    heading (`context`) for what the header leaves out ("Years ended December 31" above "2018").
    `statement` ("balance", "income", ...) decides instant vs flow when no words do. None when the
    header names no year or date (a label, "Note", "Change %"), or compares two ("2022 vs. 2021")."""
    if COMPARISON.search(header):
        return None
    own_dates = dates_in(header)
    # NOTE: a year over its group's share column ("2022 % of Total") is the year, not a percentage
    probe = re.sub(r"(?<=\d)\s+%(?=\s*of\b)", " ", header)
    year_match = FISCAL_YEAR.search(probe) or YEAR.search(probe)
    quarter = QUARTER.search(header)
    short = quarter.group("y") or quarter.group("y5") if quarter else None  # "Q4'24", "3Q24": a slide's quarter
    if not own_dates and not year_match and not short:
        return None
    if own_dates:
        end = own_dates[-1]
        year = int(end[:4])
    else:
        year = _full_year(year_match.group("y") if year_match else short)
        end = _end_from_context(year, context)
    if FISCAL_YEAR.search(header) and own_dates:
        year = _full_year(FISCAL_YEAR.search(header).group("y"))
    words = f"{header} {context}"
    months = _months(header) or _months(context)
    if quarter:
        return Period("quarter", end, year, 3, quarter_number(quarter))
    if INSTANT.search(header) or (statement == "balance" and not months):
        return Period("instant", end, year)
    if months and months < 12:
        return Period("months", end, year, months, _quarter_of(end) if months == 3 else None)
    if months or YEAR_FLOW.search(words) or FISCAL_YEAR.search(header) \
            or statement in ("income", "cash_flow", "comprehensive_income", "equity"):
        return Period("fiscal_year", end, year, 12)
    if INSTANT.search(context):
        return Period("instant", end, year)
    return Period("year", end, year)


def _end_from_context(year: int, context: str) -> str:
    """A year's end date from the caption: a full date of that year, or a month and day printed
    without a year ("Years ended December 31"); '' when the caption has neither."""
    printed = dates_in(context)
    for iso in printed:
        if int(iso[:4]) == year:
            return iso
    if printed:  # "for the year ended 31 December 2024" also dates the 2023 column: 31 December 2023
        return _iso(year, int(printed[0][5:7]), int(printed[0][8:10]))
    month_day = _month_day(context)
    return _iso(year, *month_day) if month_day else ""


def document_year_ends(periods: Iterable[Period | None]) -> dict[int, str]:
    """Fiscal year -> the date it ends on, from the dated year columns of a document's tables (the
    statements print "Years ended December 31" or "Fiscal years ended December 25, 2021, ...")."""
    seen = Counter((p.year, p.end) for p in periods if p and p.kind == "fiscal_year" and p.end and p.year)
    ends: dict[int, str] = {}
    for (year, end), _ in seen.most_common():
        ends.setdefault(year, end)
    return ends


def dated(period: Period | None, year_ends: dict[int, str]) -> Period | None:
    """A period with what the document's fiscal years tell: a bare year ("2024" over a table that
    names no period words) is that fiscal year; a year column without an end date ends on the day
    the document's fiscal year of that number ends. A year the document does not date ends on its
    usual month and day when at least two dated fiscal years share it (52/53-week years never do)."""
    if period is None or period.end or period.year is None or period.kind not in ("year", "fiscal_year", "instant"):
        return period
    if not year_ends:
        return period
    end = year_ends.get(period.year, "")
    month_days = {e[5:] for e in year_ends.values()}
    if not end and len(month_days) == 1 and len(year_ends) >= 2:
        month, day = next(iter(month_days)).split("-")
        # NOTE: a fiscal year ending early in a calendar year may be named for the year before its
        # end (retail "fiscal 2018" ending 2019-02-03) or for its end; keep the offset the dated years show.
        offset = {int(e[:4]) - y for y, e in year_ends.items()}
        end = _iso(period.year + offset.pop(), int(month), int(day)) if len(offset) == 1 else ""
    if period.kind == "year":
        return Period("fiscal_year", end, period.year, 12)
    return Period(period.kind, end, period.year, 12 if period.kind == "fiscal_year" else period.months,
                  period.quarter)


def _quarter_of(end: str) -> int | None:
    """Calendar quarter of an end date (fiscal years ending in December: the common case)."""
    return (int(end[5:7]) - 1) // 3 + 1 if end else None


def _long_date(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def period_label(period: Period) -> str:
    """FY2018 (year ended December 31, 2018); December 31, 2018; Q1 2023 (quarter ended ...)."""
    if period.end.startswith("--") or len(period.end) == 7:  # a quarter named by the month it ends in
        month = calendar.month_name[int(period.end[-2:])]
        return f"the {month} quarter of fiscal {period.year}" if period.end.startswith("--") else \
            f"the quarter ended {month} {period.year}"
    end = _long_date(period.end) if period.end else ""
    if period.kind == "fiscal_year":
        return f"FY{period.year}" + (f" (year ended {end})" if end else "")
    if period.kind == "instant":
        return f"as of {end}" if end else f"year-end {period.year}"
    if period.kind == "quarter":
        return f"Q{period.quarter} {period.year}" + (f" (quarter ended {end})" if end else "")
    if period.kind in ("months", "fiscal_months"):
        words = {3: "three", 6: "six", 9: "nine"}.get(period.months or 0, str(period.months))
        if period.kind == "fiscal_months":
            return f"the first {words} months of fiscal {period.year}"
        return f"{words} months ended {end}" if end else f"{words} months of {period.year}"
    return str(period.year)
