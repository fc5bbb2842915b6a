"""The checks a cell passes before VERA states it as a figure (issue 18): otherwise VERA abstains and
names the cells it found and why none was used.

- Statement: a primary line item comes from the statement the question names, else from a primary
  statement that prints it (`Concept.home`); notes, segment, quarterly and selected-data tables and
  another entity's statements corroborate, never answer (`sources.py`).
- Period: the column's period is the one asked, read from its headers: fiscal years ending in any
  month, 52/53-week years, quarters of a fiscal year that does not follow the calendar, year to date
  vs three months, "as of" dates for balances.
- Scale: a table that states no scale of its own (it inherits the document's) must agree with the
  same figure printed under an explicit legend elsewhere.
- Identity: a balance sheet column whose total assets differ from its total liabilities and equity
  was misread; nothing is taken from it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import date, timedelta

from vera_core.answer.figures.sources import Source
from vera_core.finance.line_items import Concept, label_terms
from vera_core.finance.statements import STATEMENT_NAMES
from vera_core.records import GridCell, Period, TableGrid

__all__ = ["fiscal_year_end_month", "identity_gate", "needed_statements", "period_matches", "scale_gate",
           "statement_gate"]

BALANCE_TOLERANCE = 0.005
"""Total assets and total liabilities and equity agree within half a percent (rounded statements)."""
_TOTAL_ASSETS = re.compile(r"^\s*total\s+assets\s*$", re.I)
_TOTAL_CLAIMS = re.compile(r"^\s*total\s+liabilities(?:,)?\s+(?:[\w'’]+\s+){0,4}?(?:and|&)\s+(?:[\w'’,()-]+\s*){0,6}"
                           r"(?:equity|deficit|capital|investment)\b", re.I)
EARLY_DAYS = 7
"""A 52/53-week period ends up to a week before or after its month's end ("July 1, 2023" closes June)."""


def needed_statements(statement_named: str, concept: Concept | None, non_gaap: bool = False) -> tuple[str, ...]:
    """The statements a cell must come from: the one the question names, else the primary statements
    of a primary line item; () when any table may answer (an item no statement carries, an adjusted
    measure: statements print GAAP figures only)."""
    if non_gaap:
        return ()
    if statement_named:
        return (statement_named,)
    return concept.home if concept is not None else ()


def statement_gate(source: Source, needed: tuple[str, ...]) -> str:
    """'' when a table may answer for a statement in `needed`, else why not."""
    if not needed:
        return ""
    wanted = " or ".join(STATEMENT_NAMES.get(k, k) for k in needed)
    if source.role == "statement" and source.statement in needed:
        return ""
    if source.role == "other_entity":
        return f"it is {source.why}, not the reporting entity's {wanted}"
    if source.statement and source.why:
        return f"it is {source.why}, not the {wanted}"
    if source.statement:
        return f"it is the {STATEMENT_NAMES.get(source.statement, source.statement)}, not the {wanted}"
    return f"it is a note or other table, not the {wanted}"


def _shifted(day: date) -> date:
    return day - timedelta(days=EARLY_DAYS)


def fiscal_year_end_month(periods: Iterable[Period | None]) -> int | None:
    """The month a document's fiscal year ends in: from its year columns' end dates, else from its
    balance sheets' earlier date (the last year-end, beside a quarter's end), else from its year-to-date columns;
    None when none shows."""
    periods = [p for p in periods if p is not None and p.end]
    years = Counter(_shifted(date.fromisoformat(p.end)).month for p in periods if p.kind == "fiscal_year")
    if years:
        return years.most_common(1)[0][0]
    quarter_ends = {p.end for p in periods if p.kind in ("months", "quarter")}
    instants = Counter(_shifted(date.fromisoformat(p.end)).month for p in periods
                       if p.kind == "instant" and p.end not in quarter_ends)
    if instants and quarter_ends:
        return instants.most_common(1)[0][0]
    # NOTE: a release prints no year-end: its year-to-date columns start the fiscal year ("36 Weeks Ended May 7, 2023"
    # ends nine months in: the year ends in August), so the longest of them places its end. Counted in days: 36 weeks
    # are 8.3 months, and a year of 52/53 weeks starts a few days either side of a month's turn
    to_date = [p for p in periods if p.kind == "months" and p.months and 3 < p.months < 12]
    if to_date:
        longest = max(to_date, key=lambda p: p.months)
        return (date.fromisoformat(longest.end) - timedelta(days=round(longest.months * _MONTH_DAYS) + _YEAR_TURN)).month
    return None


_MONTH_DAYS = 365.25 / 12
_YEAR_TURN = 3
"""Days before a year-to-date period's first day its fiscal year is taken to turn (a 52/53-week year starting
January 2 turned in December)."""


def fiscal_quarter(end: str, year_end_month: int) -> tuple[int, int]:
    """(fiscal year, quarter) of a three-month period ending on `end` in a fiscal year ending in
    `year_end_month` (Salesforce's quarter ended April 30, 2023 is Q1 of fiscal 2024)."""
    day = _shifted(date.fromisoformat(end))
    months_in = (day.month - year_end_month - 1) % 12 + 1
    return (day.year if day.month <= year_end_month else day.year + 1), (months_in - 1) // 3 + 1


def as_fiscal_quarter(asked: Period, identity) -> Period:
    """A quarter asked by the month it ends in ("the December 2024 quarter") as the fiscal quarter of the document's
    company it is (`identity`: the document's `documents.identity.Identity`; its fiscal year ends three months after the
    document's quarter ends, times the quarters left); else as asked."""
    if asked.kind != "months" or asked.months != 3 or not re.fullmatch(r"\d{4}-\d\d", asked.end or "") or identity is None \
            or not identity.fiscal_quarter or not re.fullmatch(r"\d{4}-\d\d-\d\d", identity.period_end or ""):
        return asked
    year_end_month = (int(identity.period_end[5:7]) + 3 * (4 - identity.fiscal_quarter) - 1) % 12 + 1
    fiscal_year, quarter = fiscal_quarter(f"{asked.end}-28", year_end_month)
    return Period("quarter", "", fiscal_year, 3, quarter)


def _quarter_end(end: str, year_end_month: int) -> bool:
    """Whether a date is the last of a fiscal quarter (within the days a 52/53-week year moves it)."""
    day = _shifted(date.fromisoformat(end))
    return (day.month - year_end_month) % 3 == 0


def period_matches(asked: Period, column: Period | None, year_end_month: int | None = None,
                   quarter_ends: Mapping[str, tuple[int, int]] | None = None) -> bool:
    """Whether a column's period is the one asked. A fiscal year asked ("FY2018", "2018") matches that
    year's flow column or its year-end balance column; a date asked matches that date; a quarter asked
    matches a three-month column of that fiscal quarter (the document's fiscal year, else the calendar's), or a
    balance column dated at its end (a date a document in scope names as its quarter's end, `quarter_ends`, else a
    quarter month's last day), and a part of a year asked by its length and fiscal year a column of that length ending
    in that fiscal year."""
    if column is None:
        return False
    if asked.kind == "year":
        if column.year != asked.year or column.kind not in ("fiscal_year", "instant", "year"):
            return False
        if column.kind == "instant" and len(column.end) == 10 and year_end_month:
            # NOTE: a year asked is its year-end balance, never a balance at the end of an earlier quarter ("COST FY23 YTD
            # membership fees" is no "Deferred membership fees" as of May 7, 2023, the end of fiscal Q3)
            quarter = quarter_ends[column.end][1] if quarter_ends and column.end in quarter_ends else \
                fiscal_quarter(column.end, year_end_month)[1]
            return quarter == 4
        return True
    if asked.kind in ("instant", "fiscal_year"):
        if column.kind not in ("instant", "fiscal_year", "year"):
            return False
        return column.end == asked.end if column.end else column.year == asked.year
    if asked.kind == "quarter":
        if column.kind == "quarter":  # printed as "Q1 2023": the company's own fiscal naming
            return column.year == asked.year and column.quarter == asked.quarter
        if column.kind in ("instant", "year") and quarter_ends and column.end in quarter_ends:
            return quarter_ends[column.end] == (asked.year, asked.quarter)
        if column.kind in ("instant", "year") and len(column.end) == 10:
            # NOTE: a column dated at the quarter's last day ("January 31, 2023" among Salesforce's additional
            # metrics) holds the balance or count at that quarter's end ("headcount at the end of Q4 FY23")
            return _quarter_end(column.end, year_end_month or 12) and \
                fiscal_quarter(column.end, year_end_month or 12) == (asked.year, asked.quarter)
        if column.kind != "months" or column.months != 3:
            return False
        if column.end:
            return fiscal_quarter(column.end, year_end_month or 12) == (asked.year, asked.quarter)
        return column.year == asked.year and column.quarter == asked.quarter
    if column.kind == "instant" and asked.end:
        return column.end == asked.end  # NOTE: "cash at the end of the quarter ended October 31, 2022": its balance
    if column.kind not in ("months", "quarter") or (column.months or 3) != asked.months:
        return False
    if column.kind == "quarter" and column.quarter and not column.end and asked.months == 3 and len(asked.end) >= 7 \
            and not asked.end.startswith("--"):
        # NOTE: "the March 2025 quarter" of a deck's "Q1'25" column: the fiscal quarter that ends in that month
        return fiscal_quarter(f"{asked.end[:7]}-28", year_end_month or 12) == (column.year, column.quarter)
    if asked.end.startswith("--") and column.end:
        # NOTE: "the July quarter of FY24": the three months ending in July that fall in fiscal 2024 (Salesforce's
        # quarter ended July 31, 2023)
        return column.end[5:7] == asked.end[2:4] and fiscal_quarter(column.end, year_end_month or 12)[0] == asked.year
    if len(asked.end) == 7 and column.end:  # "the July 2023 quarter": the three months ending in July 2023
        # NOTE: a 52/53-week quarter ending a few days into the next month is that month's ("the March 2023 quarter" of
        # Intel's three months ended April 1, 2023)
        return column.end.startswith(asked.end) or \
            len(column.end) == 10 and _shifted(date.fromisoformat(column.end)).strftime("%Y-%m") == asked.end
    if asked.kind == "fiscal_months" and column.end:
        # NOTE: a part of a fiscal year asked by its year ("the first half of fiscal 2024"): the months ending in
        # that fiscal year (Salesforce's six months ended July 31, 2023 are fiscal 2024's)
        return fiscal_quarter(column.end, year_end_month or 12)[0] == asked.year
    return column.end == asked.end if column.end and asked.end else column.year == asked.year


def identity_gate(grid: TableGrid, cell: GridCell, statement: str) -> str:
    """'' unless the cell's balance sheet column does not balance (a misread column), else why."""
    if statement != "balance":
        return ""
    column = [c for c in grid.cells if c.col == cell.col and c.value is not None]
    assets = [c for c in column if _TOTAL_ASSETS.match(c.row_label)]
    claims = [c for c in column if _TOTAL_CLAIMS.match(c.row_label)]
    if not assets or not claims:
        return ""
    a, b = assets[0].value, claims[-1].value
    if abs(a - b) <= BALANCE_TOLERANCE * max(abs(a), abs(b)):
        return ""
    return (f"its column does not balance (total assets {assets[0].printed} against {claims[-1].row_label} "
            f"{claims[-1].printed}), so the column was misread")


def scale_gate(grid: TableGrid, cell: GridCell, elsewhere: Iterable[tuple[TableGrid, GridCell]]) -> str:
    """'' unless the cell's table states no scale of its own and the same item and period printed
    under an explicit legend elsewhere disagrees with it by a factor of a thousand or more."""
    if grid.scale_source not in ("", "document") or cell.unit:
        return ""
    amount = abs(cell.value * cell.scale)
    for other_grid, other in elsewhere:
        if other_grid.scale_source in ("", "document") or other.unit or other.value is None:
            continue
        theirs = abs(other.value * other.scale)
        if amount and theirs and abs(other.value) == abs(cell.value) and max(amount, theirs) / min(amount, theirs) >= 999:
            return (f"its table states no scale and the same figure is printed in "
                    f"{'thousands' if other.scale == 1e3 else 'millions' if other.scale == 1e6 else 'another scale'} "
                    f"elsewhere ({other.row_label}: {other.printed})")
    return ""


def same_item(a: GridCell, b: GridCell) -> bool:
    """Two rows printing the same line item (their labels' words are the same)."""
    return label_terms(a.row_label) == label_terms(b.row_label)
