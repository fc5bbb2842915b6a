"""The grammar of periods in a metric question: a year range is never subtraction.

- "FY2019 - FY2021 3 year average of X", "3 year average net profit margin FY2015 - FY2017": the mean of
  the N yearly values of X (of a ratio: the mean of the N yearly ratios);
- "FY2019 - FY2020 revenue growth rate", "year-over-year change in revenue from FY2016 to FY2017 (in
  percents)": X(b) / X(a) - 1;
- "change in inventory between FY2016 and FY2017": X(b) - X(a).
Without a range, a growth or change is over the year before the period asked, and an N-year average
over the N years that end with it. Of quarters: "from Q1 2023 to Q2 2023", "between 3Q24 and 4Q24" are the two
quarters named; "sequential", "quarter over quarter", "versus the prior quarter" with one quarter named is over the
quarter before it; otherwise over the same quarter a year earlier.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from vera_core.finance.dates import _ORDINALS, DATE_DMY, DATE_MDY, MONTH_QUARTER, QUARTER, quarter_number
from vera_core.records import Period
from vera_core.tables.periods import _full_year

__all__ = ["SEQUENTIAL", "Aggregate", "previous_quarter", "quarter_span", "read_aggregate", "shifted", "span_year",
           "summed_periods"]

_YEAR = r"(?:(?:FY\s?'?|fiscal\s+(?:year\s+)?)?(?:19|20)\d\d|FY\s?'?\d\d(?!\d))"
RANGE = re.compile(rf"(?P<a>{_YEAR})\s*(?:->|=>|\u2192|-|–|—|to|through|thru|vs\.?|versus|over)\s*(?P<b>{_YEAR})\b", re.I)
"""Two years joined by a dash, an arrow or "to": a span of years ("FY2019 - FY2021", "FY2020 -> FY2022"), not
an operation."""
SPAN = re.compile(rf"\b(?:from|between|over)\s+(?P<a>{_YEAR})\s+(?:to|and|through)\s+(?P<b>{_YEAR})\b", re.I)
LISTED = re.compile(rf"(?P<a>{_YEAR})(?:\s*,\s*{_YEAR})*\s*,?\s+(?:and|&)\s+(?P<b>{_YEAR})\b", re.I)
"""Years listed one by one ("across 2020, 2021 and 2022"): the span from the first to the last."""
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "ten": 10}
POINTS = re.compile(r"\bpercentage\s+points?\b|\b(?:pp|ppts?|bps|basis\s+points?)\b", re.I)
"""A rate's change asked "in percentage points": the difference of the two rates, never their growth."""
MEAN = re.compile(r"\b(?P<n>\d{1,2}|two|three|four|five|ten)[\s-]+years?\s+average(?:\s+of)?\b|"
                  r"\baverage\s+(?:annual\s+|yearly\s+)?(?=\w)", re.I)
COMPOUND = re.compile(r"(?:\b(?P<n>\d{1,2}|two|three|four|five|ten)[\s-]+years?\s+)?(?:\bCAGR\b|\bcompound(?:ed)?\s+annual"
                      r"(?:ized)?\s+growth(?:\s+rate)?\b)(?:\s+(?:of|in|for))?", re.I)
"""A compound annual growth rate: (last / first) ^ (1 / years) - 1."""
GROWTH = re.compile(r"\b(?:(?:year[\s-]over[\s-]year|yoy|y/y|annual|percent(?:age)?)\s+)?growth(?:\s+rate)?"
                    r"(?:\s+(?:year[\s-]over[\s-]year|yoy|y/y))?(?:\s+(?:of|in))?\b|"
                    r"\b(?:year[\s-]over[\s-]year|yoy|y/y)\s+(?:change|increase|decrease)(?:\s+(?:of|in))?\b|"
                    r"\bpercent(?:age)?\s+change(?:\s+(?:of|in))?\b|%\s*change(?:\s+(?:of|in))?\b|\b(?:year[\s-]over[\s-]year|yoy|y/y)\s*%", re.I)
CHANGE = re.compile(r"\b(?:the\s+)?change\s+(?:in|of)\b", re.I)
SEQUENTIAL = re.compile(r"\b(?:sequential(?:ly)?|q/q|qoq|quarter[\s-]+(?:over|on|to)[\s-]+quarter)\b|"
                        r"\b(?:versus|vs\.?|from|over|compared\s+(?:with|to)|against)\s+the\s+(?:prior|previous|preceding|"
                        r"last)\s+quarter\b|\b(?:versus|vs\.?|from|over|compared\s+(?:with|to)|against)\s+the\s+quarter\s+"
                        r"(?:before|earlier)\b", re.I)
"""A change over the quarter before the one asked, not the year-ago quarter."""
_PERIOD_TAIL = re.compile(r"\s+(?:for|in|during|over|of|from)\s+(?:the\s+)?(?:(?:three|six|nine|twelve|\d+)[\s-]+"
                          r"(?:months|weeks)|(?:first|second|third|fourth|last|latest|fiscal)\s+(?:quarter|year)|quarter|"
                          r"(?:fiscal\s+)?year)\b.*$|\s+(?:at|as\s+of)\s+(?:the\s+)?(?:end|close)\b.*$", re.I)
"""A period phrase left after the head ("... for the three months ended June 30, 2023", "... at the end of Q1 FY24")."""
_LEFT_OF_SPAN = re.compile(r"\b(?:from|between|over)\s+(?:to|and|through)\b|\s(?:vs\.?|versus|to|and)\s*$", re.I)
"""What a span of quarters leaves once its quarters are read apart ("from to")."""
_ARTICLE = re.compile(r"^\s*(?:the|of|in|for)\s+|\s+(?:the|of|in|for)\s*$", re.I)


@dataclass(frozen=True)
class Aggregate:
    """A metric taken over several years instead of at one period."""

    over: Literal["mean", "growth", "change"]
    head: str
    """The metric or line item the question aggregates, its period and aggregation words removed."""
    years: tuple[int, int] | None = None
    """The first and last fiscal year the question names; None: from the period asked."""
    count: int | None = None
    """N of "N year average" (or of an "N-year CAGR"); None: the years of the range."""
    compound: bool = False
    """A growth compounded per year (CAGR) rather than the growth from the first year to the last."""
    periods: tuple[Period, ...] = ()
    """The two quarters a change between quarters is over, earliest first ("from Q1 2023 to Q2 2023"); () otherwise."""


def span_year(text: str) -> int:
    """The fiscal year a span's end names ("FY2019", "fiscal 2020", "FY21")."""
    return _full_year(re.sub(r"\D", "", text)[-4:])  # NOTE: "FY21" is fiscal 2021


def read_aggregate(head: str, percent_asked: bool) -> Aggregate | None:
    """The aggregate a metric question's head asks for (`head` is the question's object, "FY2019 -
    FY2021 3 year average net profit margin"), None when it asks for one period's value."""
    span = SPAN.search(head) or RANGE.search(head) or LISTED.search(head)
    years = (span_year(span.group("a")), span_year(span.group("b"))) if span else None
    if years and years[0] > years[1]:
        years = (years[1], years[0])
    # NOTE: the words leading into the span go with it ("over fiscal 2020-2022"): "over" left alone would divide
    rest = re.sub(r"(?:\b(?:over|from|between|across|for|in|during)\s+(?:the\s+)?(?:fiscal\s+)?(?:years?\s+)?)?"
                  + re.escape(span.group(0)), " ", head, count=1, flags=re.I) if span else head
    compound = COMPOUND.search(rest)
    if compound:  # "revenue CAGR over FY2019 - FY2021", "3-year revenue CAGR"
        left = re.sub(r"\([^()]*\)", " ", rest.replace(compound.group(0), " "))
        left = re.sub(r"\s+(?:over|from|between|for|in|of|during|across)(?:\s+the)?(?:\s+(?:fiscal\s+)?years?)?\s*$", "",
                      re.sub(r"\s+", " ", left).strip(" ,-"), flags=re.I)
        left = re.sub(r"\s+", " ", _ARTICLE.sub(" ", _PERIOD_TAIL.sub("", left))).strip(" ,-")
        counted = re.search(r"\b(?P<n>\d{1,2}|two|three|four|five|ten)[\s-]+years?\b", rest, re.I)
        n = compound.group("n") or (counted.group("n") if counted and not years else None)
        if counted and not compound.group("n") and not years:
            left = re.sub(r"\s+", " ", left.replace(counted.group(0), " ")).strip(" ,-")
        count = int(n) if n and n.isdigit() else _NUMBER_WORDS.get((n or "").lower())
        return Aggregate("growth", left, years, count, compound=True)
    mean, growth = MEAN.search(rest), GROWTH.search(rest)
    if mean and growth and not mean.group("n") and not re.search(r"annual|yearly", mean.group(0), re.I) \
            and re.search(r"\b(?:per|price|prices|rate)\b", rest[mean.end():growth.start()] if mean.start() < growth.start()
                          else " ".join(rest[mean.end():].split()[:4]), re.I):
        # NOTE: "average billed revenue per kWh ... growth", "the YoY change in average price per ad": an average price is
        # the item, not a mean of years
        mean = None
    change = None if mean or growth else CHANGE.search(rest)
    found = mean or growth or change
    if found is None:
        return None
    rest = SEQUENTIAL.sub(" ", rest.replace(found.group(0), " "))  # NOTE: "sequential" says which periods, not what
    rest = DATE_DMY.sub(" ", DATE_MDY.sub(" ", rest))  # NOTE: "from April 30, 2023 to July 31, 2023": dates, read apart
    rest = _LEFT_OF_SPAN.sub(" ", QUARTER.sub(" ", MONTH_QUARTER.sub(" ", rest)))  # "from Q4 2022 to Q1 2023": the periods, read apart
    rest = _ARTICLE.sub(" ", _PERIOD_TAIL.sub("", re.sub(r"\([^()]*\)", " ", rest)))
    rest = re.sub(r"\s+", " ", rest).strip(" ,-")  # NOTE: "(negative if it fell)" is an instruction, not the item
    if mean and not mean.group("n") and not years:
        return None  # "average inventory" is a balance's average (begin and end of a year), not a mean of years
    if mean:
        n = mean.group("n")
        count = int(n) if n and n.isdigit() else _NUMBER_WORDS.get((n or "").lower())
        return Aggregate("mean", rest, years, count)
    over = "growth" if growth or percent_asked else "change"
    return Aggregate(over, rest, years)


def shifted(period: Period, years: int) -> Period:
    """The same kind of period `years` fiscal years earlier (a prior year-end for balances)."""
    if years == 0:
        return period
    if period.end.startswith("--"):  # "the July quarter of FY24": the July quarter of an earlier fiscal year
        return replace(period, year=(period.year or 0) - years)
    if len(period.end) == 7:  # "the July 2023 quarter"
        year = int(period.end[:4]) - years
        return replace(period, end=f"{year}{period.end[4:]}", year=year)
    return Period("year", "", (period.year or 0) - years) if period.kind in ("year", "fiscal_year", "instant") \
        else Period(period.kind, "", (period.year or 0) - years, period.months, period.quarter)


def previous_quarter(period: Period) -> Period:
    """The fiscal quarter before a quarter (Q4 of the year before Q1)."""
    quarter = period.quarter or 1
    year = period.year or 0
    return Period("quarter", "", year - 1, 3, 4) if quarter == 1 else Period("quarter", "", year, 3, quarter - 1)


def quarter_span(periods: list[Period], question: str) -> tuple[Period, ...]:
    """The two quarters a change is asked between (the two quarters named, earliest first, or the one named and
    the one before it when the question says "sequential"; two named by the month they end in), or the two dates of
    one year a balance's change is asked between ("from April 30, 2023 to July 31, 2023"); () when it names no such
    pair."""
    dates = list(dict.fromkeys(p for p in periods if p.kind == "instant" and p.end))
    if len(dates) == 2 == len(periods) and dates[0].year == dates[1].year:
        return tuple(sorted(dates, key=lambda p: p.end))
    months: dict[str, Period] = {}
    for p in periods:
        if p.kind == "months" and p.months == 3 and p.end:
            months.setdefault(p.end[:7], p)
    if len(months) == 2 and all(p.kind == "months" and p.months == 3 and p.end for p in periods):
        # NOTE: "from the July-September 2024 quarter to the October-December 2024 quarter": two quarters by the month
        # each ends in, earliest first ("the quarter ended December 31, 2024" set before them is one of the two)
        return tuple(sorted(months.values(), key=lambda p: p.end))
    quarters = list(dict.fromkeys(p for p in periods if p.kind == "quarter" and p.quarter))
    if len(quarters) != len(periods):
        return ()
    if len(quarters) == 2:
        return tuple(sorted(quarters, key=lambda p: (p.year or 0, p.quarter or 0)))
    if len(quarters) == 1 and SEQUENTIAL.search(question):
        return previous_quarter(quarters[0]), quarters[0]
    return ()


def aggregate_periods(agg: Aggregate, asked: Period | None) -> tuple[Period, ...]:
    """The periods an aggregate reads, earliest first: the quarters named (`quarter_span`), the named years, else
    the years before the period asked (a mean of N years ends with it; a growth or change starts a year before it)."""
    if agg.periods:
        return agg.periods
    if agg.years:
        first, last = agg.years
        if agg.over == "mean":
            first = last - agg.count + 1 if agg.count else first
            return tuple(Period("year", "", y) for y in range(first, last + 1))
        return Period("year", "", first), Period("year", "", last)
    if asked is None:
        return ()
    if agg.over == "mean":
        return tuple(shifted(asked, n) for n in range((agg.count or 3) - 1, -1, -1))
    if agg.compound and agg.count:
        return shifted(asked, agg.count), asked
    return shifted(asked, 1), asked


_SUMMED = re.compile(r"\b(?:add(?:ed|ing)?\s+(?:up|together)|sum(?:med)?|combined|cumulative|in\s+total(?!\s+(?!(?:for|over|across|during|in)\b)[a-z])|the\s+total\s+(?:of|for|across|over)|"
                     r"(?:what|how\s+much)\s+is\s+the\s+total|total\s+in)\b|\btotal\b(?=[^?]{0,60}\b(?:for|over|across)\s+"
                     r"(?:the\s+)?(?:fiscal\s+)?(?:years?\s+)?(?:FY\s?)?(?:19|20)\d\d\s*,)|"
                     r"\btotal\b(?=[^?]{0,60}\b(?:for|over|across|in)\s+(?:the\s+)?first\s+(?:two|three|2|3)\s+(?:fiscal\s+)?quarters\b)",
                     re.I)
"""A sum asked: "add up", "combined", "in total" (not "the change in total debt"), "the total of", "total ... for fiscal 2022,
2023 and 2024" or "total FCF for the first three quarters of 2025" (a line's own "total", "total stockholders' equity at
the end of 2022 and 2023", is no sum)."""
_NAMED_QUARTER = re.compile(r"\b(?:Q[1-4]|[1-4]Q)\b|\b(?:first|second|third|fourth)\s+quarter", re.I)


_TRAILING = re.compile(r"\b(?:TTM|LTM|trailing[\s-]+(?:twelve|12)[\s-]+months?|(?:last|past|trailing)\s+(?:twelve|12)\s+months|"
                       r"(?:last|past|trailing)\s+(?:four|4)\s+(?:fiscal\s+)?(?:qtrs|quarters))\b", re.I)
"""A trailing twelve months asked ("FCF TTM thru 3Q25", "the last four quarters through Q3 2025"): the four quarters that
end with the one named, added up."""


def _trailing_quarters(question: str) -> tuple[Period, ...]:
    """The four quarters a trailing twelve months runs over, ending with the one quarter (and year) the question names;
    () unless it asks one and names exactly one quarter with its year."""
    if not _TRAILING.search(question):
        return ()
    named = [m for m in QUARTER.finditer(question) if _year_of(m)]
    if len(named) != 1:
        return ()
    year, quarter = _year_of(named[0]), quarter_number(named[0])
    ends = [(year - (1 if quarter - k < 1 else 0), (quarter - k - 1) % 4 + 1) for k in range(3, -1, -1)]
    return tuple(Period("quarter", "", y, 3, q) for y, q in ends)


def _year_of(m: re.Match) -> int | None:
    """The year a `QUARTER` match names with its quarter, if any ("3Q25" -> 2025)."""
    digits = next((y for y in (m.group(g) for g in ("y", "y2", "y3", "y4", "y5")) if y), None)
    return _full_year(digits) if digits else None


def summed_periods(question: str) -> list[str]:
    """The periods a question asks a measure added up over ("Add up free cash flow for Q1, Q2 and Q3 2025 ... the
    total"; a trailing twelve months: the four quarters ending with the one named), [] when it asks no sum over two or
    more of them."""
    trailing = _trailing_quarters(question)
    if trailing:
        return [f"Q{p.quarter} {p.year}" for p in trailing]
    if not _SUMMED.search(question):
        return []
    ranged = _quarter_range(question)
    if ranged:  # NOTE: "for Q1-Q4 2024": every quarter between the ends, not the two ends
        return [f"Q{p.quarter} {p.year}" for p in ranged]
    named = list(dict.fromkeys(" ".join(m.group(0).upper().split()) for m in _NAMED_QUARTER.finditer(question)))
    if len(named) < 2 and LISTED.search(question):  # "for fiscal 2022, 2023 and 2024": every year listed
        named = list(dict.fromkeys(m.group(0) for m in re.finditer(r"\b(?:19|20)\d\d\b", question)))
    return named if len(named) >= 2 else []


_YEARED_RANGE = re.compile(r"\b(?:(?P<a>[1-4])Q|Q(?P<a2>[1-4]))\s*['\u2019]?(?P<ya>(?:19|20)\d\d|\d\d)\s*(?:\.\.\.?|-|\u2013|\u2014|to|through|thru)"
                           r"\s*(?:(?P<b>[1-4])Q|Q(?P<b2>[1-4]))\s*['\u2019]?(?P<yb>(?:19|20)\d\d|\d\d)\b", re.I)
"""A range of quarters each with its year ("1Q24..4Q24", "Q1'24-Q4'24")."""
_QUARTER_RANGE = re.compile(r"\bQ(?P<a>[1-4])\s*(?:-|\u2013|\u2014|to|through|thru)\s*Q(?P<b>[1-4])\b", re.I)
_RANGE_YEAR = re.compile(r"^\s*(?:of\s+)?(?:(?:fiscal|FY)\s?'?)?(?P<y>(?:19|20)\d\d|\d\d)\b|^[^.?]*?\b(?:(?:fiscal|FY)\s?'?)?"
                         r"(?P<y2>(?:19|20)\d\d)\b", re.I)


_EVERY_QUARTER = re.compile(r"\b(?:(?:each|every|all(?:\s+(?:four|4))?|the\s+(?:four|4))|(?:the\s+)?first\s+(?P<n>two|three|2|3))\s+"
                            r"(?:fiscal\s+)?quarters?\s+(?:of|in)\s+(?:(?:fiscal|FY)\s?'?)?(?P<y>(?:19|20)\d\d)\b", re.I)
"""'for each quarter of 2024', 'all four quarters of fiscal 2023': the year's four quarters; 'the first three quarters of
2025': its first three."""


def _quarter_range(question: str) -> tuple[Period, ...]:
    """Every quarter of a range of one year ("Q1-Q4 2024", "Q2 through Q4 of fiscal 2023", "each quarter of 2024"),
    earliest first; () when the question names none, or no year for it."""
    every = _EVERY_QUARTER.search(question)
    if every and _SUMMED.search(question):
        last = {"two": 2, "2": 2, "three": 3, "3": 3}.get((every.group("n") or "").lower(), 4)
        return tuple(Period("quarter", "", int(every.group("y")), 3, q) for q in range(1, last + 1))
    yeared = _YEARED_RANGE.search(question)
    if yeared and _SUMMED.search(question):
        # NOTE: "sum the 4 qtrs ... (1Q24..4Q24)": every quarter between the ends, one year at both
        a, b = int(yeared.group("a") or yeared.group("a2")), int(yeared.group("b") or yeared.group("b2"))
        years = {_full_year(yeared.group("ya")), _full_year(yeared.group("yb"))}
        if len(years) == 1 and a < b:
            year = years.pop()
            return tuple(Period("quarter", "", year, 3, q) for q in range(a, b + 1))
    m = _QUARTER_RANGE.search(question)
    if not m or not _SUMMED.search(question) or int(m.group("a")) >= int(m.group("b")):
        return ()
    year = _RANGE_YEAR.match(question[m.end():])
    if not year:
        return ()
    full = _full_year(year.group("y") or year.group("y2"))
    return tuple(Period("quarter", "", full, 3, q) for q in range(int(m.group("a")), int(m.group("b")) + 1))


def summed_quarter_periods(question: str) -> tuple[Period, ...]:
    """The quarters a sum is asked over, each with its year ("Q1, Q2 and Q3 2025": a bare quarter takes the year of
    the next quarter that names one), earliest first; () unless every quarter summed has a year."""
    ranged = _trailing_quarters(question) or _quarter_range(question)
    if ranged:
        return ranged
    named = list(_NAMED_QUARTER.finditer(question))
    if len(named) < 2:
        return ()
    periods = []
    for i, m in enumerate(named):
        quarter = int(re.sub(r"\D", "", m.group(0)) or 0) or _ORDINALS.get(m.group(0).split()[0].lower(), 0)
        after = question[m.end():named[i + 1].start() if i + 1 < len(named) else len(question)]
        year = re.match(r"\s*(?:of\s+|,\s*|\s)?(?:(?:fiscal|FY)\s?'?)?(?P<y>(?:19|20)\d\d|\d\d)\b", after, re.I) \
            or re.match(r"[^.?]*?\b(?:(?:fiscal|FY)\s?'?)?(?P<y>(?:19|20)\d\d)\b", question[m.end():], re.I)
        if not year or not quarter:
            return ()
        periods.append(Period("quarter", "", _full_year(year.group("y")), 3, quarter))
    unique = sorted(set(periods), key=lambda p: (p.year or 0, p.quarter or 0))
    return tuple(unique) if len(unique) == len(summed_periods(question)) else ()

