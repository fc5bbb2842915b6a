"""Dates and periods as filings and analysts write them: month names, dates in either order, years,
fiscal years, quarters and durations ("three months ended", "52 weeks ended", "quarters ended").
Defined once: table headers, questions, facts and the PDF parser read periods with these patterns."""

from __future__ import annotations

import re

MONTHS = {m: i for i, m in enumerate(
    "january february march april may june july august september october november december".split(), start=1)}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December")
"""Each month's name as written out, January first (`MONTH_NAMES[month_number(word) - 1]`)."""
_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_YEAR = r"(?:19|20)\d\d"
MONTH_WORD = _MONTH
"""A month's name or its abbreviation, as a pattern to build others from ("Sept.", "March")."""
YEAR_WORD = _YEAR
"""A year of this century or the last, as a pattern to build others from."""
MONTH_NAME = re.compile(rf"\b{_MONTH}(?![a-z])", re.I)
MONTH_YEAR = re.compile(rf"\b(?P<m>{_MONTH})\s+(?:\d{{1,2}},?\s+)?(?P<y>{_YEAR})\b", re.I)
"""A month of a year, with or without its day ("September 2024", "Sept. 30, 2024")."""
DATE_MDY = re.compile(rf"\b(?P<m>{_MONTH})\s+(?P<d>\d{{1,2}}),?\s+(?P<y>{_YEAR})\b", re.I)
DATE_DMY = re.compile(rf"\b(?P<d>\d{{1,2}})\s+(?P<m>{_MONTH}),?\s+(?P<y>{_YEAR})\b", re.I)
DATE_NUM = re.compile(rf"\b(?P<m>\d{{1,2}})/(?P<d>\d{{1,2}})/(?P<y>{_YEAR}|\d\d)\b")
MONTH_DAY = re.compile(rf"\b(?P<m>{_MONTH})\s+(?P<d>\d{{1,2}})\b(?!,?\s*{_YEAR})|\b(?P<d2>\d{{1,2}})\s+(?P<m2>{_MONTH})\b(?!,?\s*{_YEAR})", re.I)
YEAR = re.compile(rf"(?<![\d,.$])(?:FY\s?|fiscal\s+(?:year\s+)?)?(?P<y>{_YEAR})(?![\d,.]\d|\s*%)", re.I)
FISCAL_YEAR = re.compile(rf"\b(?:FY\s?'?|fiscal\s+(?:year\s+)?)(?P<y>{_YEAR}|\d\d)\b", re.I)
QUARTER = re.compile(rf"\b(?:Q(?P<q>[1-4])\s*(?:FY\s?)?['\u2019]?(?P<y>{_YEAR}|\d\d)?|(?P<y2>{_YEAR})\s*Q(?P<q2>[1-4])|"
                     rf"(?P<q4>[1-4])Q\s?(?:FY\s?)?['\u2019]?(?P<y5>{_YEAR}|\d\d)|"
                     rf"FY\s?(?P<y3>{_YEAR})\s*Q(?P<q3>[1-4])|"
                     rf"(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal\s+)?quarter(?:\s+(?:of\s+)?(?:fiscal\s+)?['\u2019]?"
                     rf"(?P<y4>{_YEAR}|(?<=['\u2019])\d\d))?)\b",
                     re.I)
MONTH_QUARTER = re.compile(rf"\b(?:the\s+)?(?P<m>{_MONTH})\s+(?:(?P<y>{_YEAR})\s+)?quarter\b(?:\s+of\s+(?:(?:FY\s?'?|fiscal\s+"
                           rf"(?:year\s+)?)(?P<fy>{_YEAR}|\d\d)|(?P<cy>{_YEAR}))\b|,?\s+(?P<cy2>{_YEAR})\b)?", re.I)
"""A quarter named by the month it ends in, as analysts of companies with non-calendar years say it: "the July
quarter of FY24" (of fiscal year 2024), "the July 2023 quarter", "the June quarter of 2023" and "Sept quarter 2025"
(ending in that month of that calendar year)."""
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
QUARTER_ORDINALS = _ORDINALS
"""A quarter's number by the ordinal that names it ("third quarter" -> 3)."""


def month_number(word: str) -> int | None:
    """A month's number by its name or abbreviation as printed ("Sept." -> 9, "may" -> 5); None for another word."""
    return MONTHS.get(word.lower().rstrip(".")[:3])


def quarter_number(m: re.Match) -> int:
    """The quarter a `QUARTER` match names, by its digit or its ordinal ("Q3", "3Q25", "the third quarter" -> 3)."""
    digit = next((q for q in (m.group(g) for g in ("q", "q2", "q3", "q4")) if q), None)
    return int(digit) if digit else _ORDINALS[m.group("ord").lower()]
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "nine": 9, "twelve": 12, "twenty-four": 24,
                 "thirty-six": 36, "forty": 40, "fifty-two": 52, "fifty-three": 53, "sixteen": 16, "twenty-eight": 28}
ENDED = r"(?:that\s+|which\s+)?(?:ended|ending)"
"""How a question says a span ends ("ended", "that ended", "ending"): the date after it is the span's end."""
DURATION = re.compile(r"\b(?P<n>\d{1,2}|one|two|three|four|six|nine|twelve|sixteen|twenty-four|twenty-eight|"
                      rf"thirty-six|forty|fifty-two|fifty-three)[\s-]+(?P<u>months?|weeks?|quarters?)\s+{ENDED}\b",
                      re.I)

PERIOD_HEADING = re.compile(rf"{DURATION.pattern}|\b(?:fiscal\s+)?(?:years?|quarters?)\s+(?:ended|ending)\b|"
                            rf"\b{_MONTH}\s+\d{{1,2}},?(?:\s+{_YEAR})?\s*$|^\s*(?:as\s+(?:of|at)\s+)?{_MONTH}\s+\d{{1,2}}\b",
                            re.I)
"""A column header naming a period ("Three Months Ended", "Years ended", "December 31,"): never page furniture."""

PERIOD_LEAD = re.compile(rf"(?:{DURATION.pattern.replace('(?P<n>', '(?:').replace('(?P<u>', '(?:')}|"
                         rf"\b(?:fiscal\s+)?(?:years?|quarters?)\s+(?:ended|ending))(?:\s+{_MONTH}\s+\d{{1,2}},?)?", re.I)
"""The words a column group's header puts before its years ("Three Months Ended April 30,", "Years ended")."""
