"""Analysts' ways of asking for a growth or a share, restated in the form the metric reader reads.

- "How fast did revenue grow in 2022?", "How quickly did net sales grow from 2021 to 2022?", "By what
  percentage did net income decline in 2023?", "By how much did revenue increase from 2022 to 2023, in
  percent?" -> "What was the revenue growth ...?" (a decline is a negative growth);
- "What was the percentage increase in revenue ...?" -> "What was the revenue growth ...?";
- "What share of total revenues came from automotive sales in 2023?", "What percentage of revenue did
  the Americas account for?", "Data Center's share of total revenue" -> "What is automotive sales as a % of
  total revenues in 2023?".

A restatement keeps every other word of the question (its periods, units, rounding and company), so
the readers read them as before; a question none of these forms fits is returned unchanged. A parenthesis that
names the line as printed ("(the Long-Term Debt line on the balance sheet)") becomes where it is printed ("on the
balance sheet").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vera_core.finance.dates import DATE_MDY, MONTH_NAMES, MONTH_QUARTER, MONTH_WORD, QUARTER, month_number
from vera_core.finance.line_items import concepts_in, expand_abbreviations, label_terms
from vera_core.questions.spans import POINTS
from vera_core.tables.periods import _full_year

__all__ = ["blank_asked", "line_asides_dropped", "line_names_dropped", "loss_asked", "nicknamed_quarters_named", "restated",
           "same_quarter_dated", "spoken_years_written", "yearless_ends_dated"]

_LEAD = r"(?P<lead>^|.*?[.?!:;]\s+|.*?,\s*)"
"""What may come before the asking clause: a persona or a label ("I'm a credit analyst. ", "For AES, ")."""
_GROW_VERB = r"(?:grow|grew|increase|rise|rose|expand|climb|decline|decrease|fall|fell|drop|shrink|shrank|change|move(?!ment)|" \
             r"jump|surge|soar|slip|dip(?!lo)|plunge|plummet|tumble|sink|sank|rebound|" \
             r"widen|narrow|deepen|go\s+up|" \
             r"went\s+up|gone\s+up|go\s+down|went\s+down|gone\s+down|come\s+(?:up|down)|came\s+(?:up|down))\w*"

_HOW_FAST = re.compile(rf"{_LEAD}how\s+(?:fast|quickly|rapidly|much)\s+(?:did|has|have|had|does|do)\s+(?:the\s+)?"
                       rf"(?P<x>.+?)\s+{_GROW_VERB}\b(?P<rest>.*)$", re.I | re.S)
""""How fast did X grow ...": a growth ("how much" only when a percentage is asked)."""
_HEDGE = r"(?:(?:roughly|approximately|approx\.?|about|around|nearly|exactly|precisely)\s+)?"
"""A hedge before what is asked ("by roughly what percent", "by about how much"): no word of the item."""
_BY_PERCENT = re.compile(rf"{_LEAD}by\s+{_HEDGE}(?:what|how\s+many)\s+(?:percent(?:age)?|%)(?:\s+points?)?\s+"
                         rf"(?:did|has|have|had|does|do|was|were|is|are)\s+(?:the\s+)?(?P<x>.+?)\s+{_GROW_VERB}\b"
                         rf"(?P<rest>.*)$", re.I | re.S)
"""'By what percentage did X decline ...'."""
_HOW_MANY_POINTS = re.compile(rf"{_LEAD}how\s+many\s+(?:percentage\s+points?|pp|ppts?|points|bps|basis\s+points)\s+"
                              rf"(?:did|has|have|had|does|do|was|were|is|are)\s+(?:the\s+)?(?P<x>.+?)\s+{_GROW_VERB}\b"
                              rf"(?P<rest>.*)$", re.I | re.S)
"""'How many percentage points did it move from Q1 2023 to Q2 2023?': a rate's change in points."""
_HOW_DID = re.compile(rf"{_LEAD}how\s+(?:did|has|have|had|does|do)\s+(?:the\s+)?(?P<x>.+?)\s+{_GROW_VERB}\b(?P<rest>.*)$",
                      re.I | re.S)
"""'How did U.S. GMV change sequentially, in percent?': a growth when a percentage is asked."""
_RATE_ASKED = re.compile(r"\b(?:year[\s-]+(?:over|on)[\s-]+year|yoy|y/y|sequential(?:ly)?|quarter[\s-]+(?:over|on)[\s-]+quarter|"
                         r"q/q|qoq)\b|\b(?:compared\s+(?:with|to)|versus|vs\.?|from|than)\s+(?:a\s+year\s+(?:ago|earlier|before)|"
                         r"(?:the\s+)?(?:same\s+(?:quarter|\d{1,2}\s+weeks|period)\s+(?:a\s+year\s+(?:ago|earlier)|last\s+year|"
                         r"(?:of\s+)?the\s+(?:year|previous\s+year|prior\s+year)\s+(?:before|earlier)|(?:of\s+)?the\s+(?:previous|prior)\s+year)|"
                         r"year[\s-]ago\s+quarter))\b", re.I)
_AMOUNT_ASKED = re.compile(r"\$|\b(?:dollars?|millions?|billions?|thousands?|amount)\b", re.I)
"""'How much did DCAI revenue decline year over year?' asks a rate (unless an amount is asked: 'in $ millions')."""
_BY_HOW_MUCH = re.compile(rf"{_LEAD}by\s+{_HEDGE}how\s+much\s+(?:(?:did|has|have|had|does|do|was|were|is|are)\s+)?(?:the\s+)?"
                          rf"(?P<x>.+?)\s+{_GROW_VERB}\b(?P<rest>.*)$", re.I | re.S)
"""'By how much did X increase ...' (or, within a request, "tell me by how much X changed ..."): a growth only when a
percentage is asked (else a change, read elsewhere)."""
_DAY = rf"(?:(?:the\s+)?(?:{MONTH_WORD}\s+\d{{1,2}},?\s+|\d{{1,2}}/\d{{1,2}}/))?"
_TWO_YEARS = re.compile(rf"\b(?:from|between)\s+(?P<da>{_DAY})(?P<a>(?:FY\s?'?)?(?:19|20)?\d\d)\s+(?:to|and)\s+(?P<db>{_DAY})"
                        rf"(?P<b>(?:FY\s?'?)?(?:19|20)?\d\d)\b(?:\s+balance\s+sheets?(?:\s+dates?)?)?", re.I)
"""A change asked between two named years or year-end dates ("between the Dec 31, 2020 and Dec 31, 2021 balance sheets");
two dates of one year are the dates ("between April 30, 2023 and July 31, 2023")."""


def _span_words(two: re.Match) -> str:
    """'from A to B' of a span read by `_TWO_YEARS` or `_TWO_QUARTERS`: the years, or two dates whole unless they are one
    day of two years (year ends: "between Dec 31, 2020 and Dec 31, 2021")."""
    dated = [DATE_MDY.fullmatch((two.groupdict().get(g) or "").strip()) for g in ("pa", "pb")]
    if all(dated) and not any(re.search(r"\d", two.group(g)) for g in ("a", "b")):
        # NOTE: "between the end of the first quarter (Nov 20, 2022) and the end of the third quarter (May 7, 2023)": a
        # quarter named without its year is the date that restates its end
        return f"from {dated[0].group(0)} to {dated[1].group(0)}"
    days = two.groupdict().get("da"), two.groupdict().get("db")
    # NOTE: "between Nov 20, 2022 and May 7, 2023": two quarter ends, never the years 2022 and 2023
    if all(days) and (two.group("a") == two.group("b") or _day(days[0]) != _day(days[1])):
        return f"from {days[0].strip()} {two.group('a')} to {days[1].strip()} {two.group('b')}"
    return f"from {two.group('a')} to {two.group('b')}"


def _day(words: str) -> str:
    """A date's month and day as written, normalised ("Dec 31," -> "dec 31")."""
    m = re.search(r"(?P<m>[a-z]{3})[a-z]*\.?\s+(?P<d>\d{1,2})|(?P<n>\d{1,2}/\d{1,2})/", words.lower())
    return (m.group("n") or f"{m.group('m')} {int(m.group('d'))}") if m else words


def _unnamed(pattern: re.Pattern) -> str:
    """A pattern's text with its named groups made plain, to be written inside another pattern."""
    return re.sub(r"\(\?P<\w+>", "(?:", pattern.pattern)


_QUARTER_WORDS = f"(?:{_unnamed(QUARTER)}|{_unnamed(MONTH_QUARTER)})"
"""A quarter by its label ("Q3 2024", "3Q23") or by the month it ends in ("the September 2024 quarter", which
`month_spans` makes of "the July-September 2024 quarter")."""
_BALANCE_SHEET = r"(?:\s+(?:balance\s+sheet|one|release|report))?"
_TWO_QUARTERS = re.compile(rf"\b(?:from|between)\s+(?:the\s+end\s+of\s+(?:the\s+)?|the\s+)?(?P<a>{_QUARTER_WORDS}){_BALANCE_SHEET}"
                           rf"(?:\s*\((?P<pa>[^()]*)\))?\s+(?:to|and)\s+(?:the\s+end\s+of\s+(?:the\s+)?|the\s+)?"
                           rf"(?P<b>{_QUARTER_WORDS}){_BALANCE_SHEET}(?:\s*\((?P<pb>[^()]*)\))?", re.I)
"""A change asked between two named quarters or their ends ("between the end of Q1 FY23 (Nov 20, 2022) and the end of
Q3 FY23 (May 7, 2023)", "between the Q1 FY23 balance sheet (Nov 20, 2022) and the Q3 FY23 one (May 7, 2023)"): the date
a parenthesis gives restates the quarter's end."""
_COMPARING = re.compile(r",?\s*\b(?:comparing|looking\s+at)\s+(?:the\s+)?(?:two\s+)?(?:balance\s+sheet|year[\s-]end)[^?.,]*", re.I)
"""'comparing the two balance sheet dates': how the change is taken, not part of the item."""
_ONE_YEAR = re.compile(r"^\s*(?:over|in|during)\s+(?:fiscal\s+|FY\s?)?(?P<y>(?:19|20)\d\d)\b", re.I)
"""'How much did its cash go up over 2022': a change across that year, from the year before."""
_PERCENT_CHANGE = re.compile(r"(?:\b(?:percent(?:age)?)|%)\s+(?:increase|decrease|decline|rise|drop|gain|growth|change)\s+(?:in|of)\s+"
                             r"(?:the\s+)?", re.I)
"""'the percentage increase in X' names a growth."""
_NOTED_GROWTH = re.compile(r"^(?![^?]*\b(?:what|how|which|who|why|did|does|is|was|were|are)\b)\s*(?P<x>[^?:;,]{2,80}?)\s+"
                           r"(?:q/q|qoq|y/y|yoy|sequential)?\s*(?:%\s*(?:chg|change|growth)|(?:chg|change|growth)\s*%)"
                           r"(?P<rest>\s*[,:]\s*[^?]*?(?:\bvs\.?|\bversus|\bv\.?|\bto|\bover)\s[^?]*?)\s*\??\s*$", re.I)
"""A note that asks a growth between two periods it names ("ebay GMV q/q % chg, Q2 23 vs Q1 23")."""
_LABELLED_GROWTH = re.compile(r"^(?P<x>[^?:;]{2,80}?)\s*(?::|\s[\u2013\u2014-])\s*(?:the\s+)?(?:percent(?:age)?|%)\s+(?:change|growth|chg)\b"
                              r"(?:\s+(?:sequentially|q/q|qoq|y/y|yoy))?(?P<rest>\s+(?:from|between)\s[^?]*?)\s*\??\s*$", re.I)
"""A label, then the growth asked of it between two periods ("eBay U.S. GMV: percentage change sequentially from 1Q23 to
2Q23")."""
_PERCENT_ASKED = re.compile(r"\bin\s+(?:percent(?:age)?s?|%)|\bas\s+a\s+(?:percent(?:age)?|%)|\(\s*%|%\s*\)|"
                            r"\b(?:percent(?:age)?|%)\s*(?:,|\)|\?|$)|\bin\s+percentage\s+terms\b", re.I)

_PERCENT_WORDS = re.compile(r",?\s*\b(?:in|as\s+a)\s+(?:percent(?:age)?s?|%)(?:\s+terms)?\b", re.I)

_SHARE = r"(?:share|percent(?:age)?|proportion|portion|fraction|%)"
_SHARE_CAME = re.compile(rf"{_LEAD}(?:what|which)\s+(?:was|is|were)?\s*(?:the\s+)?(?:approximate\s+|rough\s+)?{_SHARE}\s+of\s+"
                         rf"(?:the\s+)?(?:company['’]s\s+|its\s+)?(?P<whole>.+?)\s+(?:came|comes|come|was|were|is|are|went|goes|go)\s+"
                         rf"(?:derived\s+|generated\s+|contributed\s+|earned\s+|spent\s+)?(?:from|by|in|to|on|into)\s+(?:the\s+)?"
                         rf"(?P<part>.+?)(?P<rest>(?:\s+(?:in|for|during|of|at|as\s+of|over)\s+.*|\s*[,(?].*)?)$",
                         re.I | re.S)
"""'What share of total revenues came from automotive sales in 2023?', 'What share of Intel's 2020 net revenue went to
research and development?'."""
_SHARE_DID = re.compile(rf"{_LEAD}(?:roughly\s+|approximately\s+|about\s+)?(?:what|which)\s+(?:approximate\s+|rough\s+)?"
                        rf"{_SHARE}\s+of\s+(?:the\s+)?(?:company['’]s\s+|its\s+)?(?P<whole>.+?)\s+"
                        rf"(?:did|does|do|was|is)\s+(?:the\s+)?(?P<part>.+?)\s+(?:account\s+for|represent|make\s+up|"
                        rf"contribute|generate|comprise|constitute)\b(?P<rest>.*)$", re.I | re.S)
"""'Roughly what share of revenue did the Americas account for in FY2022?'."""
_SHARE_WAS = re.compile(rf"{_LEAD}(?:what|which)\s+{_SHARE}\s+of\s+(?:the\s+)?(?:company['’]s\s+|its\s+)?(?P<whole>.+?)\s+"
                        rf"(?:was|is|were|are)\s+(?:the\s+)?(?P<part>.+?)(?P<rest>(?:\s+(?:in|for|during|at|as\s+of|over)\s+.*|"
                        rf"\s*[,(?].*)?)$", re.I | re.S)
"""'What percentage of net sales was R&D in 2023?'."""
_SHARE_OWN = re.compile(rf"{_LEAD}(?P<ask>what\s+(?:was|is|were)\s+(?:the\s+)?)(?P<part>[A-Z][\w&.\- ]{{1,60}}?)['’]s?\s+"
                        rf"(?:share|percentage)\s+of\s+(?:the\s+)?(?:company['’]s\s+|its\s+)?(?P<whole>.+?)"
                        rf"(?P<rest>(?:\s+(?:in|for|during|at|as\s+of|over)\s+.*|\s*[,(?].*)?)$", re.I | re.S)
"""'What was Data Center's share of total revenue in fiscal 2024?'."""
_SHORT_WORDS = {"rev": "revenue", "revs": "revenue", "avg": "average", "yr": "year", "yrs": "years"}
_SHORT = re.compile(r"\b(?:revs?(?![.\d])|avg\.?|yrs?(?![.\d]))(?=\W|$)", re.I)
"""An analyst's shorthand ("INTC rev CAGR FY2018-FY2020", "SNX 3-yr avg operating margin")."""
_ROUGHLY = re.compile(r"^\s*(?:roughly|approximately|about)\s+", re.I)


_LINE_NAMED = re.compile(r"\s*\((?:the\s+|its\s+)?[^()]{2,60}?\s+(?:line|row|caption)\s+(?P<where>(?:on|in|of|from)\s+"
                         r"(?:the\s+)?[^()]{2,40}?)\)", re.I)
"""'long-term debt (the Long-Term Debt line on the balance sheet)': the line's printed name said again, with where it
is printed; the item is read once, with its statement."""


_SLASHED_RATE = re.compile(r"(?<![\w/])(?:y/y|q/q)(?![\w/])", re.I)
"""'y/y', 'q/q': the rates written with a slash, whose letters are no words of the item."""


_LINE_ASIDE = re.compile(r"\s*\((?:i\.?e\.?,?\s+)?(?:the|its)\s+(?![^()]*\b(?:line|row)\s+(?:on|in|of|from)\b)[^()]{2,60}?\s+"
                         r"(?:line|row)\)", re.I)
"""'Data subscription and support revenue (the Tableau + MuleSoft line)': the line named again in other words, an aside
(its "+" no formula)."""


def line_names_dropped(question: str) -> str:
    """The question with each parenthesis that names a line as printed replaced by where it is printed."""
    return _LINE_NAMED.sub(lambda m: f" {m.group('where')}", question)


_LOSE = re.compile(r"^(?P<lead>.*?)\bhow\s+much(?:\s+money)?\s+did\s+(?P<x>[^?]{2,80}?)\s+(?:lose|lost)\b(?P<rest>[^?]*)\?*(?P<tail>[^?]*)$",
                   re.I | re.S)
"""'How much money did Meta's Reality Labs unit lose in the third quarter of 2024?': the loss of what lost it."""


def loss_asked(question: str) -> str:
    """'How much (money) did X lose ...?' as 'What was the loss of X ...?' (the row of its loss, never the row that
    names X first, its revenue); the question itself otherwise."""
    m = _LOSE.match(question)
    if not m:
        return question
    # NOTE: "...? in millions pls": what follows the question mark stays
    return f"{m.group('lead')}What was the loss of {m.group('x').strip()}{m.group('rest').rstrip()}?{m.group('tail').rstrip()}"


_BLANK_ASKED = re.compile(r"\s*=\s*(?:\?+|_+|\.{3})\s*$")
"""A note that asks with a blank ("DB Q4 2023 call - head of IR = ?")."""


def blank_asked(question: str) -> str:
    """'X = ?' as 'X?'; the question itself otherwise."""
    return _BLANK_ASKED.sub("?", question) if _BLANK_ASKED.search(question) else question


_NOTED_SUM = re.compile(r"^(?![^?]*\b(?:what|how|which|who|why|when|where|did|does|do|is|was|were|are|can|could|give|show|"
                        r"list|tell|find|over|divided|ratio|with|where)\b)(?![^?]*(?:[=:]|\s/\s))(?=[^?]*[A-Za-z]\s*\+\s*[A-Za-z])"
                        # NOTE: "host of Citi 4Q23 earnings call + their title?": a person and their title, no sum
                        r"(?![^?]*\+\s*(?:(?:their|his|her|the|its)\s+)?(?:titles?|roles?|firms?|names?|jobs?|positions?)\b)"
                        r"\s*(?P<note>[^?]+?)\s*\??\s*$", re.I)
"""A note that adds two lines with no question word ("CRM cash + marketable securities @ 4/30/23 ($m)"); never a note
that defines a ratio or a name ("leverage: total debt ... over EBITDA, with EBITDA = A + B + C")."""


def noted_sum_asked(question: str) -> str:
    """A note adding two lines asked as a question ("What was CRM cash + marketable securities at 4/30/23 ($m)?"), so
    the sum is read as the question's own definition, never one of its lines; the question itself otherwise."""
    m = _NOTED_SUM.match(question)
    if not m:
        return question
    note = re.sub(r"\s@\s*", " at ", m.group("note"))
    return f"What was {note}?"


def short_words_written(question: str) -> str:
    """The question with an analyst's short words written out ("Q2 rev" as "Q2 revenue", "avg" as "average"), as every
    reader of it knows them."""
    question = _WEIGHTED_AVERAGE.sub("weighted average", question)  # NOTE: "diluted wtd-avg share count"
    question = _PERCENT_WISE.sub(" in percent", question)  # NOTE: "..., percentage-wise?"
    question = _DASHED_DATE.sub(_date_written, question)  # NOTE: "at 30-Apr-23 vs 31-Jul-23"
    question = _STATEMENT_SHORT.sub(lambda m: "cash flow statement" if m.group(1) else "statement", question)
    question = _MONEY_SHORT.sub(lambda m: "$ billions" if m.group(1).lower() == "bn" else "$ millions", question)
    return _SHORT.sub(lambda m: _SHORT_WORDS[m.group(0).lower().rstrip(".")], question)


_WEIGHTED_AVERAGE = re.compile(r"\bwtd\.?[\s-]*avg\b\.?", re.I)
_DASHED_DATE = re.compile(r"\b(?P<d>\d{1,2})-(?P<m>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)[a-z]*\.?-(?P<y>(?:19|20)\d\d|\d\d)\b",
                          re.I)
"""A date as a note writes it ("20-Nov-22"): written out ("November 20, 2022") as the period readers read dates."""


def _date_written(m: re.Match) -> str:
    return f"{MONTH_NAMES[month_number(m.group('m')) - 1]} {int(m.group('d'))}, {_full_year(m.group('y'))}"


_STATEMENT_SHORT = re.compile(r"\b(CF\s+)?stmts?\b\.?", re.I)
"""A statement as a note writes it ("per CF stmt", "BS stmt"): written out, so the statement named is read as one."""
_MONEY_SHORT = re.compile(r"\$\s?(mm|mn|bn)\b", re.I)
"""A scale as a note writes it ("chg in $mm", "$bn"): "$ millions", "$ billions"."""
_PERCENT_WISE = re.compile(r"[,\s]\s*(?:percent(?:age)?[\s-]?wise|in\s+(?:percent(?:age)?|%)\s+terms)\b", re.I)
"""A percentage asked in other words ("how much did X grow ..., percentage-wise?", "in percentage terms")."""

_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_UNDER_THIRTY = {**{w: i + 1 for i, w in enumerate(_UNITS)}, **{w: i + 10 for i, w in enumerate(_TEENS)},
                 "twenty": 20, **{f"twenty {w}": 21 + i for i, w in enumerate(_UNITS)}}
_TWO_DIGITS = "|".join(sorted((w.replace(" ", r"[\s-]") for w in _UNDER_THIRTY), key=len, reverse=True))
_TENS_ON = "|".join(sorted((w.replace(" ", r"[\s-]") for w, n in _UNDER_THIRTY.items() if n >= 10), key=len, reverse=True))
_SPOKEN_YEAR = re.compile(rf"\b(?:twenty[\s-]+(?P<a>{_TENS_ON})|two[\s-]+thousand(?:[\s-]+and)?[\s-]+(?P<b>{_TWO_DIGITS}))\b",
                          re.I)
"""A year said as it is spoken ("twenty twenty-five", "two thousand and twenty-three"), as a dictated question writes it."""


def spoken_years_written(question: str) -> str:
    """The question with each year said in words written in digits ("the three months to the end of June twenty
    twenty-five": "June 2025"), as every period reader knows them."""
    def written(m: re.Match) -> str:
        said = re.sub(r"[\s-]+", " ", (m.group("a") or m.group("b")).lower())
        return str(2000 + _UNDER_THIRTY[said])
    return _SPOKEN_YEAR.sub(written, question)


_YEARLESS_END = re.compile(rf"\b(?P<span>(?:weeks?|months?|wks|mos)\s+(?:to|ended|ending|through|thru)\s+(?:the\s+)?)"
                           rf"(?P<date>{MONTH_WORD}\s+\d{{1,2}})\b(?!(?:st|nd|rd|th)?,?\s*(?:'?\d\d\b|(?:19|20)\d\d))", re.I)
"""A span's end date written without its year ("the spring quarter of 2023 (12 weeks to May 7)")."""
_CALENDAR_YEAR = re.compile(r"(?<![\w'])(?<!FY)(?<!FY\s)(?<!fiscal\s)(?P<y>(?:19|20)\d\d)\b", re.I)
"""A calendar year the question names (never a fiscal one: "FY2023", "fiscal 2023")."""


def yearless_ends_dated(question: str) -> str:
    """The question with a span's yearless end date ("12 weeks to May 7") given the one calendar year it names ("the
    spring quarter of 2023"); as asked when it names no year, several, or a fiscal one (a fiscal year's quarter may end in
    the calendar year before)."""
    years = {m.group("y") for m in _CALENDAR_YEAR.finditer(question)}
    if len(years) != 1 or re.search(r"\b(?:FY|fiscal)\b", question, re.I):
        return question
    year = years.pop()
    return _YEARLESS_END.sub(lambda m: f"{m.group('span')}{m.group('date')}, {year}", question)


_NICKNAMED_QUARTER = re.compile(r"\b(?:the\s+)?(?:holiday|christmas|spring|summer|fall|autumn|winter|back[\s-]to[\s-]school)\s+"
                                r"quarter\s*\(\s*(?P<q>[^()]{2,20}?)\s*\)", re.I)
"""A quarter's nickname with the quarter in parentheses ("the holiday quarter (Q4'24)"): the quarter."""


def nicknamed_quarters_named(question: str) -> str:
    """The question with each nicknamed quarter written as the quarter its parenthesis names ("from the holiday quarter
    (Q4'24) to Q1'25": "from Q4'24 to Q1'25")."""
    return _NICKNAMED_QUARTER.sub(lambda m: m.group("q") if QUARTER.search(m.group("q")) else m.group(0), question)


_SAME_QUARTER_OF = re.compile(r"\b(?:the\s+)?same\s+quarter\s+(?:of|in)\s+(?P<y>(?:19|20)\d\d)\b", re.I)
"""A quarter named again by its year only ("from the July-September quarter of 2024 to the same quarter of 2025")."""


def same_quarter_dated(question: str) -> str:
    """The question with "the same quarter of <year>" written as the quarter named before it, in that year ("the
    September 2024 quarter ... the same quarter of 2025": "the September 2025 quarter"); as asked when no quarter with
    its year is named before it."""
    m = _SAME_QUARTER_OF.search(question)
    if not m:
        return question
    month = [q for q in MONTH_QUARTER.finditer(question, 0, m.start()) if q.group("y") or q.group("cy") or q.group("cy2")]
    if month:
        return f"{question[:m.start()]}the {month[-1].group('m')} {m.group('y')} quarter{question[m.end():]}"
    quarters = [q for q in QUARTER.finditer(question, 0, m.start()) if q.group("q") and q.group("y")]
    if quarters:
        return f"{question[:m.start()]}Q{quarters[-1].group('q')} {m.group('y')}{question[m.end():]}"
    return question


def line_asides_dropped(question: str) -> str:
    """The question without a parenthesis that names the line asked again in other words ("(the Tableau + MuleSoft
    line)") or lists the products a named line holds ("Data (Tableau + MuleSoft)"); the question itself when it has
    none."""
    dropped = _LINE_ASIDE.sub(" ", question)
    dropped = _MEMBERS.sub(lambda m: m.group(0) if any(concepts_in(expand_abbreviations(p))
                                                       for p in re.split(r"\s*(?:\+|&|,|/|\band\b)\s*", m.group("members")))
                           else f"{m.group('name')} ", dropped)
    return " ".join(dropped.split()) if dropped != question else question


_MEMBERS = re.compile(r"(?P<name>\b[A-Za-z][a-z]+)\s*\((?P<members>[A-Z][A-Za-z]+(?:\s*(?:\+|&)\s*[A-Z][A-Za-z]+)+)\)")
"""A parenthesis after a name that adds up the products it holds, each one word in capitals ("Data (Tableau + MuleSoft)"):
an aside, its "+" no formula; never a list of line items ("(Revenue + Other)" names a concept), nor the members a
question compares ("segments (Express, Ground, Freight)")."""


_IF_ADDED = re.compile(r"(?P<name>\b[\w&'\u2019 -]{2,40}?)\s*,?\s+if\s+(?:I|we|you|one)\s+(?:add|sum|combine)\s+(?:up\s+)?(?:the\s+)?"
                       r"(?P<a>[^?;]{2,80}?)\s+(?:to|and|with)\s+(?:the\s+)?(?P<b>[^?;]{2,80}?)(?=\s*(?:\?|;|$))", re.I)
"""A sum told as an instruction ("what is total debt if I add the current portion of long-term debt to long-term debt
excluding the current portion?"): the item defined as its two operands added."""


_ARROW = re.compile(r"(?<=\w)\s*(?:-{1,2}>|={1,2}>|\u2192|\u27f6)\s*(?=\w)")
"""An arrow between two periods, as a note writes a change ("q3->q4 2023", "FY22 → FY23")."""


_BASIS_ASIDE = re.compile(r"\s+[-\u2013\u2014]{1,2}\s+(?:i\s+mean\s+|so\s+)?(?:the|a|an)\s+(?:non-GAAP|GAAP|adjusted|reported|as[\s-]reported|"
                          r"printed|company['\u2019]s)\s+(?:figure|number|measure|one|line|version|metric)\b[^?]*(?=\?|$)", re.I)
"""An aside after a dash that says which basis is asked ("revenue excluding the foreign exchange effect - the non-GAAP
figure, not reported GAAP revenue?"): no term of a formula (its dash is no minus)."""


_INITIALS = re.compile(r"(?<![\w&])(?P<a>[A-Z])&(?P<b>[A-Z])(?![\w&])")
"""An abbreviation of two initials joined by '&' ("S&S", "R&D")."""


def _spelt_initials(question: str) -> str:
    """The question with each two-initial abbreviation it spells out elsewhere written out as spelt ("subscription &
    support gross margin ... (S&S revenue minus S&S cost of revenues ...)": "subscription & support revenue ...")."""
    for m in list(dict.fromkeys(x.group(0) for x in _INITIALS.finditer(question))):
        a, b = m[0].lower(), m[2].lower()
        spelt = re.search(rf"\b({a}[a-z]{{2,}})\s*(?:&|and)\s*({b}[a-z]{{2,}})\b", question, re.I)
        if spelt:
            question = re.sub(rf"(?<![\w&]){re.escape(m)}(?![\w&])", f"{spelt.group(1)} & {spelt.group(2)}", question)
    return question


_DOCUMENT_HEAD = re.compile(r"^\s*(?!(?:using|from|in|per|according|based|with|on)\b)(?P<who>[A-Za-z][\w.&-]*)\s+"
                            r"(?:Q[1-4]\s*'?\d{2,4}\s+|[1-4]Q\s*'?\d{2,4}\s+)?(?:earnings\s+)?"
                            r"(?:deck|release|press\s+release|presentation|slides|call|transcript|10-[KQ])\s*:\s*", re.I)
"""A note headed by the company and the document it reads ("meta deck: ARPP Q3'25 vs Q3'24, % chg?")."""


_WORK_IT_OUT = re.compile(r"\s*[-\u2013\u2014,;:]+\s*(?:please\s+)?(?:work\s+it\s+out|calculate\s+it|compute\s+it|derive\s+it|"
                          r"figure\s+it\s+out|do\s+the\s+math)\b[^?]*", re.I)
"""An instruction after a dash saying how to get the figure ("— work it out from the dollar amounts"): no item's words."""


_MARGIN_MADE = re.compile(r"\bwhat\s+(?P<m>(?:[\w-]+\s+){0,2}?margins?)\s+did\s+(?P<the>the\s+)?(?P<x>[^?()]{2,60}?)\s+(?:make|earn|post|"
                          r"generate|deliver|have|achieve|report|produce)\b(?:\s+on\s+(?:its|their)\s+(?:own\s+)?(?:revenues?|sales)\b)?"
                          r"(?!\s+on\b)", re.I)
"""'what operating margin did the Family of Apps segment make on its own revenue?': the segment's margin (a margin is on
its own revenue); never "did Tesla make on the Cybertruck", "did Apple earn on its Services business" (what it was made
on is the question's), nor "did the Data cloud (Tableau/MuleSoft) post" (a unit named with its products is read as the
qualifier reader reads it, `questions.qualifiers`)."""


_LEFT_AS = re.compile(r"\bwhat\s+(?:share|portion|percentage|percent|fraction|part)\s+of\s+(?:the\s+|its\s+)?(?P<x>[^?()]{0,50}?)\s*"
                      r"(?:revenues?|sales)(?:\s*\([^()]*\))?\s+(?:was|is|were|got)\s+(?:left(?:\s+over)?|kept|retained|turned\s+into)\s+"
                      r"(?:as\s+)?(?P<kind>operating|net|gross)\s+(?:profit|income|earnings)", re.I)
"""'what share of the Family of Apps revenue (Facebook, Instagram, ...) was left over as operating profit?': that margin."""


def restated(question: str) -> str:
    """The question in the form the metric reader reads, or the question itself."""
    question = _LEFT_AS.sub(lambda m: f"what was the {m.group('x').strip()} {m.group('kind').lower()} margin".replace("  ", " "),
                            question)
    question = _spelt_initials(_ARROW.sub(" to ", question))  # NOTE: "q3->q4 2023 sequential growth": from Q3 to Q4
    question = _MARGIN_MADE.sub(lambda m: f"what was {m.group('the') or ''}{m.group('x')} {m.group('m')}", question)
    question = _BASIS_ASIDE.sub("", question)  # NOTE: "... effect - the non-GAAP figure, not reported GAAP revenue?"
    question = _DOCUMENT_HEAD.sub(r"\g<who> ", question)  # NOTE: "meta deck: ARPP Q3'25 vs Q3'24": the document, no item
    question = _WORK_IT_OUT.sub("", question)  # NOTE: "... in Q1 2023 — work it out from the dollar amounts": how, not what
    question = _IF_ADDED.sub(lambda m: f"{m.group('name')} ({m.group('a')} plus {m.group('b')})", question)
    question = _SHORT.sub(lambda m: _SHORT_WORDS[m.group(0).lower().rstrip(".")], line_names_dropped(question))
    question = _SLASHED_RATE.sub(lambda m: m.group(0).replace("/", "o").lower(), question)  # "y/y" is "yoy"; "q/q" "qoq"
    question = _taken_from(question)
    question = _between_first(question)
    question = _DATED_STATEMENT.sub(r"\g<date>", question)  # NOTE: "between the November 20, 2022 balance sheet and ..."
    question = _shed_or_added(question)
    for shape in (_more_than_by, _it_moved, _noted_change, _exceeded, _difference_between, _share_spent, _up_or_down, _versus_then_ask, _period_vs_period, _noted_span, _how_much_more, _how_many_fewer, _claim_then_ask, _claimed_span, _growth,
                  _share, _noted_rate):
        found = shape(question)
        if found:
            return _LABEL_FOR_PRONOUN.sub(r"\g<ask>\g<label>", found)
    return question


_LABEL_FOR_PRONOUN = re.compile(r"^\s*(?P<label>[^.?!:;]{2,80}?):\s+(?P<ask>What\s+was\s+the\s+(?:percent\s+)?change\s+in\s+)"
                                r"(?:it|they|them|this|that|these|those)\b", re.I)
"""'Costco merchandise inventories: by how much did they come down ...?' restated: the label is what "they" are."""


_TAKING = re.compile(r"^\s*(?:taking|using|with|given|based\s+on)\s+(?:the\s+)?(?P<x>[^,?]{2,80}?)\s+(?:from|in|as\s+"
                     r"(?:printed|reported)\s+in)\s+(?P<src>[^,?]{2,120}),\s*(?P<ask>(?:what|how|by|which)\b[^?]+)\?*\s*$",
                     re.I)
"""An instruction that names the item and the documents before the ask ("Taking net revenue from Intel's Q4 2022
release and from its Q1 2023 release, what was the quarter-over-quarter change in revenue, in percent?")."""


def _taken_from(question: str) -> str:
    """The ask first, the item it names as the instruction names it, the documents after it in parentheses (their
    "from" read as no unit of the item: "revenue from the Data offering")."""
    m = _TAKING.match(question)
    if not m:
        return question
    item, ask = " ".join(m.group("x").split()), m.group("ask").strip()
    last = item.split()[-1]
    if not re.search(rf"\b{re.escape(item)}\b", ask, re.I):  # NOTE: "change in revenue" asks the item as named
        named = re.search(rf"\b{re.escape(last)}\b", ask, re.I)
        ask = f"{ask[:named.start()]}{item}{ask[named.end():]}" if named else f"{ask} of {item}"
    sources = re.sub(r"\b(?:from|and\s+from)\s+", lambda k: "and " if k.group(0).lower().startswith("and") else "",
                     m.group("src"))
    return f"{ask} ({' '.join(sources.split())})?"


_DATED_STATEMENT = re.compile(rf"\b(?:the\s+)?(?P<date>{MONTH_WORD}\s+\d{{1,2}},\s+(?:19|20)\d\d)"
                              r"\s+(?:consolidated\s+)?(?:balance\s+sheets?|statements?\s+of\s+financial\s+position)\b", re.I)
"""A balance sheet named by its date ("the May 7, 2023 balance sheet"): the date is the period, the statement no item."""
_BETWEEN_FIRST = re.compile(r"^\s*between\s+(?P<span>[^?]{5,200}?),\s*(?P<ask>(?:by\s+)?how\s+(?:much|many)\b[^?]*)\?"
                            r"(?P<rest>.*)$", re.I | re.S)
"""The span before the ask ("Between the end of Costco's first fiscal quarter of 2023 (November 20, 2022) and the end of
its third fiscal quarter (May 7, 2023), by how much did merchandise inventories ... go down?")."""
_DATED = re.compile(r"\(\s*([A-Z][a-z]+\.?\s+\d{1,2},\s+(?:19|20)\d\d|\d{1,2}/\d{1,2}/(?:19|20)?\d\d)\s*\)")


def _between_first(question: str) -> str:
    """The ask first, then "between" the span (the two dates its parentheses give the ends, when they give both)."""
    m = _BETWEEN_FIRST.match(question)
    if not m:
        return question
    dates = _DATED.findall(m.group("span"))
    span = f"{dates[0]} and {dates[1]}" if len(dates) == 2 else m.group("span").strip()
    ask = m.group("ask").strip()
    return f"{ask[:1].upper()}{ask[1:]} between {span}?{m.group('rest')}"


_UP_OR_DOWN = re.compile(
    r"^(?:[^?]*?[.!:;]\s+)?(?:did|has|have|had|does|do)\s+(?P<x>.{2,100}?)\s+(?:go(?:ne)?\s+up\s+or\s+down|(?:increase|rise|grow)\s+or\s+"
    r"(?:decrease|fall|decline|shrink))\s+(?P<when>[^,?]*?),?\s+and\s+(?:by\s+)?"
    # NOTE: "I follow eBay as a small hobby investor. Did ... go up or down ..., and by roughly what percent?"
    r"(?:(?:roughly|approximately|about|around)\s+)?(?:what|how\s+much)\s+(?:in\s+)?(?:percent(?:age)?|%)"
    r"(?P<rest>[^?]*)\?*\s*$", re.I)
"""A direction asked with its rate ("Did Salesforce's marketing and sales expense go up or down from Q1 FY24 to Q2 FY24,
and by what percent?"): the growth, whose sign says which."""


_VERSUS_THEN_ASK = re.compile(
    r"^\s*(?P<x>[^?]{2,80}?)\s+(?:in|for)\s+(?P<when>[^?]{2,30}?)\s+(?:vs\.?|versus|compared\s+(?:with|to)|against)\s+"
    r"(?:the\s+)?(?P<base>prior|previous|preceding|year[\s-]ago|same)\s+(?:quarter|year|period|quarter\s+a\s+year\s+ago)"
    r"\s*[-\u2013\u2014:,;?]+\s*(?:so\s+)?(?:what(?:['\u2019]s|s|\s+is|\s+was)|whats|give\s+me)\s+(?:the\s+)?"
    r"(?:%|percent(?:age)?)\s+(?:change|growth|increase|decrease)(?P<rest>[^?]*)\?*\s*$", re.I)
"""The item and its period against a base, then the ask of the change ("Meta's FCF in Q1 2025 vs the prior quarter -
what's the % change?")."""


_PERIOD_VS_PERIOD = re.compile(
    rf"^\s*(?P<x>[^?]{{2,80}}?),?\s+(?P<a>{_QUARTER_WORDS})\s+(?:vs\.?|versus|v\.?|against|compared\s+(?:with|to))\s+"
    rf"(?P<b>{_QUARTER_WORDS})\s*[-\u2013\u2014:,;(]*\s*(?:(?:what(?:['\u2019]s|s|\s+is|\s+was)|whats|give\s+me)\s+(?:the\s+)?)?"
    r"(?:(?:sequential|seq\.?|yoy|y/y|qoq|q/q|year[\s-]over[\s-]year|quarter[\s-]over[\s-]quarter)\s+)?(?:%|percent(?:age)?|pct)\s*"
    r"(?:chg|change|growth|increase|decrease|decline|drop|fall|rise|gain)?(?:\s*\b(?:qoq|yoy|sequential(?:ly)?|"
    r"year[\s-]over[\s-]year|quarter[\s-]over[\s-]quarter))?(?P<rest>[^?]*?)\)?\?*\s*(?:\([^()]*\)\s*)?"
    r"(?P<tail>(?:(?:to\s+|in\s+|,\s*)?(?:(?:one|two|three|zero)\s+|\d\s*)(?:decimals?|dp|d\.p\.)(?:\s+places?)?)?)\.?\s*$", re.I)
"""An item's quarter against another, then the percent change asked, as a note ("eBay US GMV Q2'23 vs Q1'23, % chg q/q",
"Intel DCAI revenue Q1'23 vs Q1'22, % decline? one decimal"): the change from the second quarter named to the first."""


_HOW_MUCH_MORE = re.compile(
    rf"{_LEAD}how\s+much\s+(?:bigger|larger|higher|greater|lower|smaller|wider|narrower|deeper)\s+(?:was|were|is|are)\s+"
    rf"(?:the\s+)?(?P<x>[^?]{{2,80}}?)\s+(?:in|for|at)\s+(?:the\s+)?(?P<b>{_QUARTER_WORDS})\s+(?:than|vs\.?|versus|compared\s+"
    rf"(?:with|to))\s+(?:back\s+|it\s+was\s+|they\s+were\s+)?(?:(?:in|for|at)\s+)?"
    rf"(?:the\s+)?(?P<a>{_QUARTER_WORDS})(?P<rest>[^?]*)\?(?P<after>.*)$", re.I | re.S)
"""'How much bigger was Meta's quarterly total revenue in Q3 2025 than back in Q1 2022? Give me the % increase.', 'how much
wider was the Reality Labs operating loss in Q3 2024 vs Q3 2023, in percent?': the percent change from the second
quarter named to the first when a percentage is asked."""


_AT_END = r"(?:(?:at|by)\s+(?:the\s+)?end\s+of\s+|in\s+|for\s+|at\s+)?(?:the\s+)?"
_HOW_MANY_FEWER = re.compile(
    rf"{_LEAD}how\s+(?:many|much)\s+(?P<dir>fewer|less|more)\s+(?P<x>[^?]{{2,60}}?)\s+(?:did|does|do|had|has|have)\s+"
    rf"(?P<who>[^?]{{1,40}}?)\s+(?:report|have|had|employ|show|count|print|list)\s+{_AT_END}(?P<b>{_QUARTER_WORDS})\s+"
    rf"(?:than|vs\.?|versus|compared\s+(?:with|to))\s+(?:it\s+did\s+|they\s+did\s+)?{_AT_END}(?P<a>{_QUARTER_WORDS})"
    rf"(?P<rest>[^?]*)\?(?P<after>.*)$", re.I | re.S)
"""'How many fewer employees did Intel report at the end of Q1 2023 than at the end of Q4 2022?': the change from the
second quarter named to the first (`metric.FALL_ASKED` states a fall as its size)."""


def _how_many_fewer(question: str) -> str | None:
    m = _HOW_MANY_FEWER.match(question)
    if not m:
        return None
    after = m.group("after").strip()
    # NOTE: "in the December 2024 quarter than in the September 2024 quarter": a quarter named by its month keeps "the"
    a, b = (f"the {q}" if MONTH_QUARTER.fullmatch(f"the {q}") and not q.lower().startswith("the ") else q
            for q in (m.group("a"), m.group("b")))
    return f"{m.group('lead')}What was the change in {m.group('who').strip()}'s {m.group('x').strip()} from {a} to " \
           f"{b}{m.group('rest').rstrip()}?" + (f" {after}" if after else "")


_YEAR_END = r"(?:(?:fiscal\s+)?year[\s-]end(?:\s+of)?\s+(?:fiscal\s+|FY\s*)?(?:19|20)\d\d|(?:fiscal\s+|FY\s*)?(?:19|20)\d\d\s+year[\s-]end)"
_SHED = re.compile(
    rf"{_LEAD}how\s+many\s+(?P<x>[^?]{{2,60}}?)\s+did\s+(?P<who>[^?]{{1,40}}?)\s+(?P<verb>shed|cut|lose|eliminate|lay\s+off|"
    rf"add|hire|gain)\s+(?:between|from)\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?(?P<a>{_QUARTER_WORDS}|{_YEAR_END})\s+(?:and|to)\s+"
    rf"(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?(?P<b>{_QUARTER_WORDS}|{_YEAR_END})(?P<rest>[^?]*)\?(?P<after>.*)$", re.I | re.S)
"""'How many employees did Intel shed between year-end 2022 and the end of Q1 2023?': how many fewer it reported at the
end of the second than at the end of the first (a year's end the end of its fourth quarter); "add" or "hire" asks how
many more."""


def _shed_or_added(question: str) -> str:
    m = _SHED.match(question)
    if not m:
        return question

    def quarter(said: str) -> str:  # NOTE: "year-end 2022" is the end of Q4 2022 ("fiscal 2022 year-end": Q4 FY2022)
        year = re.search(r"(?:19|20)\d\d", said)
        if not re.search(r"year[\s-]end", said, re.I) or not year:
            return said
        return f"Q4 FY{year.group(0)}" if re.search(r"\bfiscal\b|\bFY", said, re.I) else f"Q4 {year.group(0)}"
    more = m.group("verb").lower() in ("add", "hire", "gain")
    after = m.group("after").strip()
    return f"{m.group('lead')}How many {'more' if more else 'fewer'} {m.group('x').strip()} did {m.group('who').strip()} " \
           f"report at the end of {quarter(m.group('b'))} than at the end of {quarter(m.group('a'))}{m.group('rest').rstrip()}?" \
           + (f" {after}" if after else "")


_ANY_PERCENT = re.compile(r"%|\bpercent", re.I)
"""A percentage asked anywhere in the question: a size compared or a change noted is then a percent change."""


def _how_much_more(question: str) -> str | None:
    m = _HOW_MUCH_MORE.match(question)
    if not m:
        return None
    item = re.sub(r"\bquarterly\s+", "", m.group("x").strip(), flags=re.I)  # NOTE: each quarter's figure is the item's
    # NOTE: "How much lower was Costco's diluted EPS in Q3 FY23 than in Q1 FY23?": the change between them, a fall
    # stated as its size (`metric.FALL_ASKED`); a percentage asked, the percent change
    change = "percent change" if _ANY_PERCENT.search(question) else "change"
    after = m.group("after").strip()
    return f"{m.group('lead')}What was the {change} in {item} from {m.group('a')} to {m.group('b')}" \
           f"{m.group('rest').rstrip()}?" + (f" {after}" if after and change == "change" else "")


_NOTED_SPAN = re.compile(
    rf"^\s*(?P<x>[^?]{{2,80}}?)\s+(?:sequential|qoq|q/q|quarter[\s-]over[\s-]quarter)\s+(?:%\s*)?(?:change|chg|growth)\s+"
    rf"(?:from\s+)?(?P<a>Q[1-4])\s*(?:->|\u2192|to|-)\s*(?P<b>Q[1-4]\s*(?P<year>'?(?:FY\s?)?(?:19|20)?\d\d))(?P<rest>[^?]*)\??\s*$",
    re.I)
"""A sequential change noted with its quarters as an arrow ("ebay US GMV sequential change Q1 -> Q2 2023, % to 2dp"): the
percent change from the first quarter to the second, the year the second's."""


_NOTED_SPAN_FIRST = re.compile(
    rf"^\s*(?P<x>[^?]{{2,80}}?)[\s,]+(?:from\s+)?(?P<a>Q[1-4])\s*(?:->|\u2192|to|-)\s*(?P<b>Q[1-4]\s*(?P<year>'?(?:FY\s?)?"
    rf"(?:19|20)?\d\d))\s+(?:sequential|qoq|q/q|quarter[\s-]over[\s-]quarter)\s+(?:%\s*)?(?:change|chg|growth)\b(?P<rest>[^?]*)\??\s*$",
    re.I)
"""The same note with its quarters before the change asked ("communications non-gaap income from ops, q3->q4 2023
sequential growth %")."""


def _noted_span(question: str) -> str | None:
    m = _NOTED_SPAN.match(question) or _NOTED_SPAN_FIRST.match(question)
    if not m or not _ANY_PERCENT.search(question):
        return None
    rest = m.group("rest").strip(" ,")  # NOTE: the note's instructions ("% to 2dp") follow the question, not the item
    return f"What was the percent change in {m.group('x').strip()} from {m.group('a')} {m.group('year')} to {m.group('b')}?" \
           + (f" {rest}" if rest else "")


_GROWTH_WORD_LAST = re.compile(r"\s+(?:growth|chg|change|increase|rise|gain)(?:\s+(?:in|of|for|during))?$", re.I)
"""A note's item that ends in the change asked ("total rev growth")."""


def _period_vs_period(question: str) -> str | None:
    m = _PERIOD_VS_PERIOD.match(question)
    if not m:
        return None
    tail = f" {m.group('tail')}" if m.group("tail") else ""  # NOTE: "..., % decline? one decimal": the digits asked
    # NOTE: "META total rev growth 2Q25 vs 1Q25, %": the item's growth between the two quarters, not the change in a
    # growth rate
    item = _GROWTH_WORD_LAST.sub("", m.group("x").strip()) or m.group("x").strip()
    rest = m.group("rest").rstrip()
    rest = f" {rest}" if rest[:1].isalnum() else rest  # NOTE: "% to 1dp": never "Q2'23to 1dp"
    return f"What was the percent change in {item} from {m.group('b')} to {m.group('a')}{rest}?{tail}"


_NOTED_RATE = re.compile(
    rf"^\s*(?P<x>[^?,:;]{{2,80}}?)\s+(?P<r>yoy|qoq)(?!\s+(?:growth|chg|change)\b)(?:\s+%)?\s*,?\s*(?:in\s+|for\s+)?"
    rf"(?P<p>{_QUARTER_WORDS})\s*(?P<rest>\([^()]*\)|[-\u2013\u2014,:;][^?]*)?\s*\??\s*$", re.I)
"""A note of an item's rate for a quarter ("Intel CCG notebook rev y/y, Q1'23 (%, 1dp)"): the item's growth then. One that
names its change ("y/y change in Q1 2023 - exact %") the metric reader reads as it is."""


_NOTED_RATE_AFTER = re.compile(
    rf"^\s*(?P<x>[^?,:;]{{2,80}}?)\s+(?P<p>{_QUARTER_WORDS})\s+(?P<r>yoy|qoq)\s*(?:%\s*)?(?:growth|chg|change)?\s*"
    rf"(?P<rest>\([^()]*\)[^?]*|[-\u2013\u2014,:;][^?]*)?\s*\??\s*$", re.I)
"""The same note with the rate after the quarter ("FoA rev 2Q25 q/q % chg (Meta Q2'25 deck), 1dp")."""


def _noted_rate(question: str) -> str | None:
    m = _NOTED_RATE.match(question) or _NOTED_RATE_AFTER.match(question)
    if not m or _GROWTH_WORD_LAST.search(m.group("x")):
        return None
    rest = f" {m.group('rest').lstrip(' -,:;' + chr(0x2013) + chr(0x2014))}" if m.group("rest") else ""
    return f"What was the {m.group('x').strip()} growth {m.group('r')} in {m.group('p')}?{rest}"


def _versus_then_ask(question: str) -> str | None:
    m = _VERSUS_THEN_ASK.match(question)
    if not m:
        return None
    base = m.group(0).lower()
    sequential = "quarter" in base[m.start("base") - m.start(0):] and m.group("base").lower() in ("prior", "previous",
                                                                                                 "preceding")
    over = "quarter over quarter" if sequential else "year over year"
    return f"What was {m.group('x').strip()} growth {over} in {m.group('when').strip()}{m.group('rest').rstrip()}?"


def asks_rate_of_direction(question: str) -> bool:
    """Whether a question asks a direction with its rate ("go up or down ..., and by what percent?")."""
    return bool(_UP_OR_DOWN.match(question))


def _up_or_down(question: str) -> str | None:
    m = _UP_OR_DOWN.match(question)
    if not m:
        return None
    return f"What was the percentage change in {m.group('x').strip()} {m.group('when').strip()}{m.group('rest').rstrip()}?"


_CLAIM_THEN_ASK = re.compile(
    r"^(?P<x>[^?.!]{2,80}?)\s+(?:(?:roughly|about|around|nearly|almost|more\s+than|over|approximately|~)\s+)?"
    r"(?:doubled|tripled|halved|grew|rose|jumped|surged|soared|fell|dropped|declined|increased|decreased|"
    r"(?:was|were)\s+(?:up|down))\b(?P<when>[^?.!]*)[?.!]+\s+"
    r"(?:so\s+)?(?:what(?:['\u2019]s|s|\s+is|\s+was)|whats)\s+(?:the\s+|it\s+)?(?:exact|actual|precise|real)?\s*"
    r"(?:yoy|y/y|year[\s-]+over[\s-]+year|growth|(?:%|percent(?:age)?)\s+(?:change|increase|growth))"
    r"(?:\s*%|\s+growth|\s+(?:%|percent(?:age)?)?\s*(?:change|increase)|\s+percent(?:age)?)?"
    r"(?P<rest>[^?.!]*)[?.!]*\s*$", re.I)
"""A claim, then the ask of its growth in the next sentence ("meta capex roughly doubled in 1Q25? whats the exact
yoy % from the deck"): the item and its period are in the claim, the ask has neither."""


_CLAIMED_SPAN = re.compile(
    rf"^(?P<x>[^?.!]{{2,80}}?)\s+(?P<verb>{_GROW_VERB})\s+(?P<span>(?:between|from)\s+[^?]{{4,80}}?)\s*[-\u2013\u2014,;:]+\s*"
    r"(?:by\s+)?how\s+(?:much|many(?:\s+[a-z]+)?)\b(?P<rest>[^?]*)\?(?P<after>.*)$", re.I | re.S)
"""A change told, then its size asked ("Salesforce full time equivalent headcount droped between the end of Q1 FY24 and the
end of Q2 FY24 - by how many people?"): asked as "By how much did X drop between ...?"."""


def _claimed_span(question: str) -> str | None:
    m = _CLAIMED_SPAN.match(question.strip())
    if not m or re.search(r"\b(?:what|which|how|who|why|did|does|is|was)\b", m.group("x"), re.I):
        return None
    return _growth(f"By how much did {m.group('x').strip()} {m.group('verb')} {m.group('span').strip()}"
                   f"{m.group('rest').rstrip()}?{m.group('after')}")


def _claim_then_ask(question: str) -> str | None:
    m = _CLAIM_THEN_ASK.match(question.strip())
    if not m or re.search(r"\b(?:what|which|how|who|why|did|does|is|was)\b", m.group("x"), re.I):
        return None
    return f"What was the {m.group('x').strip()} growth{m.group('when').rstrip()}{m.group('rest').rstrip()}?"


_PRONOUN = re.compile(r"it|this|that|they|these|those", re.I)
_LABELLED = re.compile(r"\s*(?P<label>[^.?!:;]{2,80}?)\s*(?::|\s[-\u2013\u2014])\s*")
"""A note's label before what it asks of it ("Twilio Communications revenue: how much did it grow ...")."""


_NOTED_CHANGE = re.compile(
    rf"^\s*(?P<x>[^?]{{2,60}}?)\s+(?:from\s+|(?:at|by)\s+(?:the\s+)?end\s+of\s+)(?:the\s+)?(?P<a>{_QUARTER_WORDS})\s+"
    rf"(?:to|vs\.?|versus|against)\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?(?P<b>{_QUARTER_WORDS})(?:\s*\([^()]*\))?\s*[-\u2013\u2014:,;]+\s*"
    r"how\s+(?:many|much)\s+(?:(?P<scale>thousand|million|billion)s?\s+)?(?P<dir>more|fewer|less|higher|lower|bigger|smaller)\b"
    r"[^?]*\?*\s*(?P<after>.*)$", re.I | re.S)
"""A note's item between two quarters, then how much more or fewer ("meta DAP from 1Q25 to 2Q25 - how many million more
people?", "intel employee count at the end of Q4 2022 vs end of Q1 2023 (one from each release), how many fewer
people?"): the change from the first to the second, in the scale said."""


def _after(m: re.Match) -> str:
    """What a question goes on with after its asking sentence ("(using the Q2 2025 deck)"), kept after the restatement."""
    return f" {m.group('after').strip()}" if m.group("after").strip() else ""


_IT_MOVED = re.compile(r"^(?P<lead>[^?]{0,80}?:\s*)?(?P<x>(?:[^?:,]|,(?=\s*(?:19|20)\d\d\b)){3,100}?)(?:,|\s+[-\u2013\u2014]{1,2})\s*"
                       r"how\s+much\s+(?:was|did|has)\s+(?:it|that|this)\s+"
                       r"(?:(?:go|went|gone)\s+)?(?:down|up|fall|fell|drop|dropped|decline|declined|rise|rose|grow|grew|change|changed|"
                       r"move|moved)\s+(?P<vs>(?:versus|vs\.?|against|compared\s+(?:with|to)|from)\s+[^?,]{2,50}?)"
                       r"(?P<pct>\s*,?\s*(?:in\s+)?(?:%|percent(?:age)?(?:\s+terms)?))?\s*(?:\?+|$)\s*(?P<after>.*)$", re.I | re.S)
"""A note's item, then how much "it" moved against another period ("Intel Q4 2022: notebook revenue inside Client
Computing, how much was it down versus Q4 2021 in %?")."""


_PERCENT_AFTER = re.compile(r"\bpercent(?:age)?\b|%", re.I)
"""A percentage asked in the words after the question ("? a percentage to one decimal is fine")."""


def _it_moved(question: str) -> str | None:
    """'LEAD: X, how much was it down versus P in %?' as 'LEAD: What was the percent change in X versus P?'."""
    m = _IT_MOVED.match(question)
    if not m:
        return None
    # NOTE: "... how much did it grow versus the same 12 weeks a year earlier? a percentage to one decimal is fine"
    percent = bool(m.group("pct") or _PERCENT_AFTER.search(m.group("after")))
    what = "the percent change" if percent else "the change"
    return f"{m.group('lead') or ''}What was {what} in {m.group('x').strip()} {m.group('vs').strip()}?{_after(m)}"


_DATE_WORDS = _unnamed(DATE_MDY)
_DATE_NUM_WORDS = r"\d{1,2}/\d{1,2}/(?:(?:19|20)\d\d|\d\d)\b"
_CHANGE_WORDS = r"chg|change|delta|draw[-\s]?down|build(?:[-\s]?up)?|increase|decrease|decline|reduction"
"""The words a note names a balance's change by ("chg", "drawdown", "build")."""
_NOTED_DATES_CHANGE = re.compile(
    rf"^\s*(?:[^?:]{{2,40}}?\s[-\u2013\u2014]\s+)?(?P<x>[^?():]{{2,60}}?)\s+(?:(?:at|as\s+of|on)\s+)?"
    rf"(?P<a>{_DATE_WORDS}|{_DATE_NUM_WORDS})(?:\s*\([^()]*\))?\s+(?:vs\.?|versus|to|->|\u2192)\s+"
    rf"(?P<b>{_DATE_WORDS}|{_DATE_NUM_WORDS})(?:\s*\([^()]*\))?\s*[-\u2013\u2014:,;]+\s*(?:the\s+|net\s+)?"
    rf"(?:{_CHANGE_WORDS}|diff(?:erence)?)\b"
    r"(?P<rest>[^?]*)\?*\s*(?P<after>.*)$", re.I | re.S)
"""A note's item at two dates, then its change ("COST merch inventories November 20, 2022 (1Q FY23 rel) vs May 7, 2023
(3Q FY23 rel) - chg in $mm?"): the change from the first date to the second; a parenthesis after a date names its
document."""


_MOVE_WORDS = rf"(?:{_CHANGE_WORDS}|rise|fall|movement|swing)"
_NOTED_MOVE_BETWEEN = re.compile(
    rf"^\s*(?:[^?:]{{2,40}}?\s[-\u2013\u2014]\s+)?(?![^?():]*\b(?:how|what|which|did|does|do|was|were|is|are|by)\b)"
    rf"(?P<x>[^?():]{{2,60}}?)\s+{_MOVE_WORDS}\s+(?:from|between)\s+(?:the\s+)?"
    rf"(?P<a>{_DATE_WORDS}|{_DATE_NUM_WORDS})(?:\s+balance\s+sheet)?(?:\s*\([^()]*\))?\s+(?:to|and)\s+(?:the\s+)?"
    rf"(?P<b>{_DATE_WORDS}|{_DATE_NUM_WORDS})(?:\s+balance\s+sheet)?(?:\s*\([^()]*\))?(?P<rest>[^?]*)\?*\s*(?P<after>.*)$",
    re.I | re.S)
"""A note's item, its move, then the two dates ("COST cash & equivalents build from the 11/20/22 balance sheet (1Q23
release) to 5/7/23 (3Q23 release)? $m"): the change from the first date to the second; a parenthesis after a date names
its document."""


def _noted_change(question: str) -> str | None:
    moved = _NOTED_MOVE_BETWEEN.match(question)
    if moved:
        rest = moved.group("rest").strip(" ,")
        return f"What was the change in {moved.group('x').strip()} from {moved.group('a')} to {moved.group('b')}" \
               f"{', ' + rest if rest else ''}?{_after(moved)}"
    dated = _NOTED_DATES_CHANGE.match(question)
    if dated:
        rest = dated.group("rest").strip(" ,")
        return f"What was the change in {dated.group('x').strip()} from {dated.group('a')} to {dated.group('b')}" \
               f"{', ' + rest if rest else ''}?{_after(dated)}"
    m = _NOTED_CHANGE.match(question)
    if not m:
        return None
    scale = f", in {m.group('scale').lower()}s" if m.group("scale") else ""
    return f"What was the change in {m.group('x').strip()} from {m.group('a')} to {m.group('b')}{scale}?{_after(m)}"


_PERIOD_TAIL = r"(?P<rest>(?:,?\s+(?:in|for|during|at|as\s+of|over)\s+[^?]*?)?)"
_EXCEEDED = re.compile(
    rf"{_LEAD}(?:by\s+)?how\s+much\s+(?:did|does|do|had|has|have)\s+(?:the\s+)?(?P<a>[^?]{{2,80}}?)\s+"
    rf"(?:exceed|top|outstrip|surpass|outrun)\s+(?:the\s+|its\s+|their\s+)?(?P<b>[^?]{{2,80}}?){_PERIOD_TAIL}\s*\?+\s*(?P<after>.*)$",
    re.I | re.S)
"""'By how much did advertising revenue exceed other revenue in Q3 2024?': the first item less the second, one period."""
_DIFFERENCE = re.compile(
    rf"{_LEAD}what\s+(?:was|is|were|are)\s+the\s+(?:difference|gap|spread)\s+between\s+(?:the\s+|its\s+)?(?P<a>[^?]{{2,80}}?)\s+"
    rf"and\s+(?:the\s+|its\s+)?(?P<b>[^?]{{2,80}}?){_PERIOD_TAIL}\s*\?+\s*(?P<after>.*)$", re.I | re.S)
"""'What was the difference between income from operations and net income in Q3 2024?': the first less the second."""
_SHARE_SPENT = re.compile(
    rf"{_LEAD}what\s+(?:percentage|percent|share|portion|fraction|%)\s+of\s+(?:its\s+|their\s+|the\s+company['\u2019]s\s+|"
    rf"[A-Z][\w&.'\u2019-]*['\u2019]s\s+)?(?P<whole>[^?]{{2,60}}?)\s+(?:did|does|do)\s+(?:[\w&.'\u2019-]+\s+){{1,3}}?"
    rf"(?:spend|spent|put|pay)\s+on\s+(?:the\s+|its\s+)?(?P<part>[^?]{{2,60}}?){_PERIOD_TAIL}\s*\?+\s*(?P<after>.*)$", re.I | re.S)
"""'What percentage of revenue did Meta spend on research and development in Q3 2024?': the part as a percentage of
the whole."""
_PERIOD_WORDS = re.compile(rf"{_QUARTER_WORDS}|\b(?:19|20)\d\d\b|\bFY\s?'?\d\d\b|\b(?:first|second|third|fourth)\s+quarter\b|"
                           r"\bquarters?\b|\byears?\b|\bperiods?\b", re.I)


_NOT_AN_ITEM = re.compile(r"\b(?:expectations?|guidance|estimates?|consensus|targets?|forecasts?|outlook|plan|budget)\b", re.I)
"""What an amount may exceed that no document prints as a line ("how much did revenue exceed expectations?")."""


def _two_items(a: str, b: str) -> bool:
    """Whether two phrases name two line items, not two periods ("between Q1 and Q2 revenue") nor one item's two bases
    ("between GAAP and non-GAAP net income": a word that shares the other's noun)."""
    return not (_PERIOD_WORDS.search(a) or _PERIOD_WORDS.search(b) or _NOT_AN_ITEM.search(b)) \
        and (len(a.split()) >= 2 or bool(concepts_in(a)))


def _less(pattern: re.Pattern) -> Callable[[str], str | None]:
    """The shape of `pattern`'s question restated as its first item minus its second, one period."""
    def shape(question: str) -> str | None:
        m = pattern.match(question)
        if not m:
            return None
        if not _two_items(m.group("a"), m.group("b")):
            # NOTE: "By how much did Costco's Q3 FY23 net sales exceed its Q1 FY23 net sales?": one item in two
            # quarters, the change from the second to the first
            quarters = [list(QUARTER.finditer(m.group(k))) for k in ("a", "b")]
            if not all(len(q) == 1 for q in quarters):
                return None
            items = [_OWNER.sub("", QUARTER.sub(" ", m.group(k))).strip() for k in ("a", "b")]
            if not items[0] or label_terms(items[0]) != label_terms(items[1]):
                return None
            return (f"{m.group('lead')}What was the change in {items[0]} from {quarters[1][0].group(0)} to "
                    f"{quarters[0][0].group(0)}{m.group('rest')}?{_after(m)}")
        return f"{m.group('lead')}What was {m.group('a').strip()} minus {m.group('b').strip()}{m.group('rest')}?{_after(m)}"
    return shape


_OWNER = re.compile(r"^\s*(?:the\s+|its\s+|their\s+|[A-Z][\w&.'\u2019-]*['\u2019]s\s+)|\s+(?:in|for|of)\s*$")
"""A phrase's owner, or a preposition its quarter left behind ("Costco's Q3 FY23 net sales", "net sales in Q1")."""


_exceeded = _less(_EXCEEDED)
_difference_between = _less(_DIFFERENCE)


def _share_spent(question: str) -> str | None:
    m = _SHARE_SPENT.match(question)
    if not m or _PERIOD_WORDS.search(m.group("part")):
        return None
    return (f"{m.group('lead')}What was {m.group('part').strip()} as a percentage of {m.group('whole').strip()}"
            f"{m.group('rest')}?{_after(m)}")


_NAMED_AFTER = re.compile(r"\((?P<name>[A-Za-z][\w.&' -]{1,40})\)\s*$")
"""A line's name in parentheses after the words that describe it ("... sold by U.S. users on eBay (U.S. GMV)")."""
SHORT_SUBJECT = 5
"""An item described in more words than this is read by the name in parentheses after it, when there is one."""


_MORE_THAN_BY = re.compile(
    r"\b(?:did|does|do|was|were)\s+(?P<who>[^?]{2,60}?)\s+(?:bring\s+in|make|earn|generate|have|post|report|book|record|see)\s+"
    r"(?:more|less|higher|lower)\s+(?P<item>[^?]{2,40}?)\s+in\s+(?P<a>[^?]{2,40}?)\s+than\s+(?:in\s+)?(?P<b>[^?,]{2,40}?)\s*,?\s*"
    r"and\s+by\s+(?:what|how\s+much|how\s+many)\s+(?:percent(?:age)?|%)\s*\?*\s*(?P<after>.*)$", re.I | re.S)
"""'did Twilio's Communications business bring in more revenue in the December 2023 quarter than in the September 2023
quarter, and by what percent?': the percent change from the second period to the first."""
_UNIT_WORD = re.compile(r"\s+(?:business|segment|division|unit|side)$", re.I)


def _more_than_by(question: str) -> str | None:
    m = _MORE_THAN_BY.search(question)
    if not m:
        return None
    who = _UNIT_WORD.sub("", m.group("who").strip())
    return f"What was the percent change in {who} {m.group('item').strip()} from {m.group('b').strip()} to " \
           f"{m.group('a').strip()}?{_after(m)}"


def _growth(question: str) -> str | None:
    for pattern in (_HOW_FAST, _BY_PERCENT, _BY_HOW_MUCH, _HOW_MANY_POINTS, _HOW_DID):
        m = pattern.search(question)
        if not m:
            continue
        # NOTE: "by how many percentage points did opex as a % of revenue move from Q1 to Q2?": the difference of two
        # rates, never their growth
        points = pattern is _HOW_MANY_POINTS or pattern is _BY_PERCENT and bool(POINTS.search(question[m.start():m.start("x")]))
        # NOTE: "... change ..., in percentage points?": the difference of two rates, never their growth
        asks_percent = pattern is _BY_PERCENT and not points or (bool(_PERCENT_ASKED.search(m.group("rest")))
                                                  and not POINTS.search(m.group("rest")))
        asks_percent = asks_percent or (pattern is not _HOW_DID and bool(_RATE_ASKED.search(m.group("rest")))
                                        and not _AMOUNT_ASKED.search(m.group("rest")) and not POINTS.search(m.group("rest")))
        # NOTE: "How did U.S. GMV change ...? Give the % change.": a percentage asked after the question
        after = m.group("rest").split("?", 1)[1] if "?" in m.group("rest") else ""
        asks_percent = asks_percent or (pattern is _HOW_DID and bool(_PERCENT_AFTER.search(after)) and not POINTS.search(after))
        if pattern is _HOW_DID and not asks_percent:
            return None  # NOTE: "how did margins change?" without a percentage is a direction, read elsewhere
        how = re.search(r"how\s+(?P<w>fast|quickly|rapidly|much)", m.group(0), re.I)
        if (pattern is _BY_HOW_MUCH or points or (how and how.group("w").lower() == "much")) and not asks_percent:
            # NOTE: "by how much did X change from FY2022 to FY2023, in $ millions": a change between the two
            # years; without two years it is an amount the text states ("by how much did it raise its facility?")
            subject = re.sub(r"^[^'\u2019]{1,40}['\u2019]s?\s+", "", m.group("x").strip())  # the company's possessive
            labelled = _LABELLED.fullmatch(re.sub(r"\s*\([^()]*\)", "", m.group("lead")))
            if labelled and _PRONOUN.fullmatch(subject):  # NOTE: "opex as % of rev (...): how many points did it move ...?"
                subject = labelled.group("label").strip()
            if not 0 < len(subject.split()) <= 10:
                return None
            rest = _COMPARING.sub("", m.group("rest"))
            # NOTE: two quarters only as the span the change is asked over ("change between the end of Q1 FY23 and ..."),
            # never quarters named further on ("did X move revenue between Q1 and Q3": not a change in X)
            two = _TWO_YEARS.search(rest) or (_TWO_QUARTERS.match(rest, len(rest) - len(rest.lstrip()))
                                              if re.match(r"\s*(?:from|between)\b", rest) else None)
            if two:
                rest = f"{rest[:two.start()]}{_span_words(two)}{rest[two.end():]}"
                return f"{m.group('lead')}What was the change in {subject}{rest}"
            one = _ONE_YEAR.match(rest)
            if one and concepts_in(subject):  # NOTE: a line item the vocabulary knows, not a stated amount
                year = int(one.group("y"))
                return f"{m.group('lead')}What was the change in {subject} from {year - 1} to {year}{rest[one.end():]}"
            return None
        subject, lead = m.group("x").strip(), m.group("lead")
        labelled = _LABELLED.fullmatch(lead)
        if labelled and _PRONOUN.fullmatch(subject):  # NOTE: "Twilio Communications revenue: how much did it grow ...?"
            subject, lead = labelled.group("label").strip(), ""
        # NOTE: "the value of goods sold by U.S. users on eBay (U.S. GMV)": the line is the name in parentheses
        # (never a short name's own spelling out, "U.S. Gross Merchandise Volume (GMV)": the words before are the line)
        named = _NAMED_AFTER.search(subject)
        subject = named.group("name").strip() if named and len(subject[:named.start()].split()) > SHORT_SUBJECT \
            else subject
        if not subject or len(subject.split()) > 10:
            return None
        rest = _PERCENT_WORDS.sub("", m.group("rest"))  # a growth is a percentage: "in percent" names no item
        return f"{lead}What was {subject} growth{rest}"
    m = _NOTED_GROWTH.match(question) or _LABELLED_GROWTH.match(question)
    if m:  # NOTE: "ebay GMV q/q % chg, Q2 23 vs Q1 23": a note that asks a growth between the periods it names
        # NOTE: the periods say which growth; ", using the Q2 release's supplemental data" says where, no word of the item
        rest = re.sub(r",\s*(?:using|based\s+on|per|according\s+to)\s[^?]*$", "", m.group("rest").rstrip())
        return f"What was {m.group('x').strip()} growth{rest}?"
    m = _PERCENT_CHANGE.search(question)
    if m:
        after = question[m.end():]
        item = re.match(r"(?P<item>[^,?()]+?)(?=\s+(?:from|between|in|for|during|over|of|at)\s+|\s*[,?(]|$)", after)
        if item and item.group("item").strip():
            subject = re.sub(r"^[^'\u2019]{1,40}['\u2019]s\s+", "", item.group("item").strip())  # the company's possessive
            return f"{question[:m.start()]}{subject} growth{after[item.end():]}"
    return None


def _share(question: str) -> str | None:
    for pattern in (_SHARE_CAME, _SHARE_DID, _SHARE_WAS, _SHARE_OWN):
        m = pattern.search(_ROUGHLY.sub("", question))
        if not m:
            continue
        part, whole = m.group("part").strip(" ,"), m.group("whole").strip(" ,")
        if not part or not whole or len(part.split()) > 8 or len(whole.split()) > 8:
            continue
        return f"{m.group('lead')}What is {part} as a % of {whole}{m.group('rest')}"
    return None
