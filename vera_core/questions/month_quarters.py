"""A quarter named by the month it ends in with no year ("Salesforce Asia Pacific revenue growth y/y in the July quarter"),
read as the quarter of that month that the documents in scope cover: when their period ends fall in that month of one
year only ("the July quarter" over Salesforce's Q2 FY24 release, period end July 31, 2023: "the July 2023 quarter"). With
no such document, or two years of it, the question is left as asked (and names no period)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from vera_core.finance.dates import MONTH_QUARTER, MONTHS

__all__ = ["dated_month_quarters"]


def dated_month_quarters(question: str, period_ends: Iterable[str]) -> tuple[str, dict[str, str]]:
    """The question with each yearless "the <month> quarter" given the year of the one document period end in scope in
    that month, and {as asked: as read}; (question, {}) when none is."""
    ends = [e for e in period_ends if re.fullmatch(r"\d{4}-\d\d-\d\d", e or "")]
    read: dict[str, str] = {}

    def dated(m: re.Match) -> str:
        if m.group("y") or m.group("fy") or m.group("cy"):
            return m.group(0)
        month = MONTHS.get(m.group("m").lower().rstrip(".")[:3])
        years = {e[:4] for e in ends if month and int(e[5:7]) == month}
        if len(years) != 1:
            return m.group(0)
        lead = "the " if m.group(0).lower().startswith("the ") else ""
        text = f"{lead}{m.group('m')} {years.pop()} quarter"
        read[m.group(0)] = text
        return text

    out = MONTH_QUARTER.sub(dated, question)
    return out, read
