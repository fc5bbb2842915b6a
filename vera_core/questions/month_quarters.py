"""A quarter named by the month it ends in with no year ("Salesforce Asia Pacific revenue growth y/y in the July quarter"),
read as the quarter of that month that the documents in scope cover: when their period ends fall in that month of one
year only ("the July quarter" over Salesforce's Q2 FY24 release, period end July 31, 2023: "the July 2023 quarter"); a
month that ends an earlier quarter of the one document in scope, in the twelve months to its period end, named beside the
document's own ("from the September quarter to the December quarter" of Twilio's Q4 2023 deck: "the September 2023
quarter"). With no such document, or two years of it, the question is left as asked (and names no period)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from vera_core.finance.dates import MONTH_QUARTER, month_number

__all__ = ["dated_month_quarters"]


def dated_month_quarters(question: str, period_ends: Iterable[str]) -> tuple[str, dict[str, str]]:
    """The question with each yearless "the <month> quarter" given the year of the one document period end in scope in
    that month, and {as asked: as read}; (question, {}) when none is."""
    ends = [e for e in period_ends if re.fullmatch(r"\d{4}-\d\d-\d\d", e or "")]
    read: dict[str, str] = {}
    # NOTE: an earlier quarter is read only beside the document's own ("from the September quarter to the December quarter")
    asked = {month_number(m.group("m")) for m in MONTH_QUARTER.finditer(question)
             if not (m.group("y") or m.group("fy") or m.group("cy") or m.group("cy2"))}
    own = len(set(ends)) == 1 and int(ends[0][5:7]) in asked

    def dated(m: re.Match) -> str:
        if m.group("y") or m.group("fy") or m.group("cy") or m.group("cy2"):
            return m.group(0)
        month = month_number(m.group("m"))
        years = {e[:4] for e in ends if month and int(e[5:7]) == month}
        if not years and month and own and (int(ends[0][5:7]) - month) % 3 == 0:
            # NOTE: "from the September quarter to the December quarter" of Twilio's Q4 2023 deck (period end December 31,
            # 2023): the quarter of that month before the one the document reports, in the twelve months to its end
            years = {str(int(ends[0][:4]) - (1 if month > int(ends[0][5:7]) else 0))}
        if len(years) != 1:
            return m.group(0)
        lead = "the " if m.group(0).lower().startswith("the ") else ""
        text = f"{lead}{m.group('m')} {years.pop()} quarter"
        read[m.group(0)] = text
        return text

    out = MONTH_QUARTER.sub(dated, question)
    return out, read
