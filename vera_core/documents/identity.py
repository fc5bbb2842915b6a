"""What a document is and when: its type (10-K, 10-Q, 8-K, release, transcript, slides, annual report,
policy, contract, other), the company, and the fiscal year, fiscal quarter and period end it covers,
read from the document itself (never from its file name), each with what it was read from.

- **Type**: an SEC cover page names its form ("FORM 10-Q"); a transcript calls itself one, or opens
  with a call's title and speakers ("Earnings Call", "Operator", "Corporate Participants", a
  question-and-answer section); a deck is printed on landscape pages with little text on each; a
  release announces results ("... Reports Third Quarter 2024 Results", "News Release", "Exhibit 99.1");
  a policy or contract is the kind `kinds.py` read.
- **Quarter and fiscal year**: as the company labels them ("Q1 FY24", "first quarter fiscal 2024",
  "1Q23", "Q4 / FY 2023", "Fourth-Quarter and Full-Year 2022"), from the title or the opening of the
  first page; a 10-Q's quarter from the longest period its statements print ("Nine Months Ended":
  the third quarter) when no label says it; a 10-K's fiscal year from its cover's "fiscal year ended".
- **Period end**: printed ("for the quarterly period ended July 1, 2023", "three months ended April
  30, 2023"), else the calendar quarter's end when the label is a calendar one and the document prints
  that date or was dated within four months after it (a call on 29 February cannot cover a March
  quarter: that quarter is a fiscal one, and its end is left unknown rather than guessed).
A field VERA cannot read is left empty (`basis` says "not printed"); a user's correction has basis `user`."""

from __future__ import annotations

import calendar
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from typing import TYPE_CHECKING

from vera_core.documents.kinds import KindReading
from vera_core.errors import VeraError
from vera_core.finance.dates import MONTHS, QUARTER_ORDINALS

if TYPE_CHECKING:
    from vera_core.records import ParsedDocument
    from vera_core.records import ChunkRecord, DocumentRecord

__all__ = ["DOC_TYPES", "FIELDS", "check_identity_fields", "dated_by_company", "Identity", "IdentitySource", "parsed_identity", "parsed_source", "quarter_label", "quarter_labels", "read_identity",
           "stored_identity", "with_user_fields"]

DOC_TYPES = ("10-K", "10-Q", "8-K", "release", "transcript", "slides", "annual_report", "policy", "contract", "other")
DECK_TYPE = "slides"
"""The `doc_type` of a slide deck."""
FIELDS = ("doc_type", "company", "fiscal_year", "fiscal_quarter", "period_end")

OPENING_CHARS = 1500
"""The first page's opening, where a title, a cover or a call's header is printed."""
FIRST_PAGES = 3
LANDSCAPE_SHARE = 0.6
"""A document most of whose pages are wider than tall is a deck."""
DECK_CHARS_PER_PAGE = 1500


@dataclass(frozen=True)
class IdentitySource:
    """What the identity is read from."""

    name: str
    title: str = ""
    """The PDF's title or the front matter's, as stored."""
    pages: Sequence[str] = ()
    """Each page's text in order (Markdown: one page)."""
    landscape: float | None = None
    """Share of pages wider than tall (None: not known, e.g. a store read before page sizes were kept)."""
    kind: KindReading | None = None
    furniture: Sequence[str] = ()
    """The page furniture's lines (running heads and footers), which the pages' text no longer holds."""


@dataclass(frozen=True)
class Identity:
    """A document's type and period."""

    doc_type: str = "other"
    """One of DOC_TYPES."""
    company: str = ""
    fiscal_year: int | None = None
    """The fiscal year as the company numbers it (Snowflake's year ended 31 January 2023 is fiscal 2023)."""
    fiscal_quarter: int | None = None
    """1-4 for a quarter's document; None for a year's (10-K, annual report) or one without a period."""
    period_end: str = ""
    """ISO date the covered period ends ('' when not printed and not derivable)."""
    basis: Mapping[str, str] = field(default_factory=dict)
    """For each field, what it was read from ("cover page: 'FORM 10-Q'", "title: 'Q1 FY24'", `user`)."""

    @property
    def quarter(self) -> str:
        """'2024-Q3' for a quarter, 'FY2024' for a year, '' when neither is known."""
        return quarter_label(self.fiscal_year, self.fiscal_quarter)

    def to_dict(self) -> dict:
        return {"doc_type": self.doc_type, "company": self.company, "fiscal_year": self.fiscal_year,
                "fiscal_quarter": self.fiscal_quarter, "quarter": self.quarter, "period_end": self.period_end,
                "basis": dict(self.basis)}

    @classmethod
    def from_dict(cls, data: Mapping) -> Identity:
        return cls(doc_type=str(data.get("doc_type") or "other"), company=str(data.get("company") or ""),
                   fiscal_year=data.get("fiscal_year"), fiscal_quarter=data.get("fiscal_quarter"),
                   period_end=str(data.get("period_end") or ""), basis=dict(data.get("basis") or {}))


def quarter_label(year: int | None, quarter: int | None) -> str:
    if year is None:
        return ""
    return f"{year}-Q{quarter}" if quarter else f"FY{year}"


def check_identity_fields(**fields) -> dict:
    """The fields a user set, checked and typed; a `VeraError` names a value that cannot be one."""
    out: dict = {}
    for name, value in fields.items():
        if value is None:
            continue
        if name not in FIELDS:
            raise VeraError(f"{name!r} is not a field of a document's identity; choose among {', '.join(FIELDS)}.")
        if name == "doc_type" and value not in DOC_TYPES:
            raise VeraError(f"{value!r} is not a document type; choose one of {', '.join(DOC_TYPES)}.")
        if name == "fiscal_year":
            if not (str(value).isdigit() and 1900 <= int(value) <= 2100):
                raise VeraError(f"fiscal year {value!r} is not a year such as 2024.")
            value = int(value)
        if name == "fiscal_quarter":
            if str(value).lower() in ("", "none", "year", "fy"):
                value = None
            elif str(value).upper().lstrip("Q") in ("1", "2", "3", "4"):
                value = int(str(value).upper().lstrip("Q"))
            else:
                raise VeraError(f"fiscal quarter {value!r} is not 1, 2, 3 or 4 (or 'year' for a whole year).")
            out[name] = value
            continue
        if name == "period_end" and value:
            try:
                value = date.fromisoformat(str(value)).isoformat()
            except ValueError as exc:
                raise VeraError(f"period end {value!r} is not a date such as 2024-09-30.") from exc
        out[name] = value
    return out


def with_user_fields(identity: Identity, **fields) -> Identity:
    """The identity with the fields a user set (basis `user`); None leaves a field as read."""
    chosen = dict(fields)
    unknown = set(chosen) - set(FIELDS)
    if unknown:
        raise ValueError(f"not a field of a document's identity: {', '.join(sorted(unknown))}")
    return replace(identity, **chosen, basis={**identity.basis, **{k: "user" for k in chosen}})


# -- type -------------------------------------------------------------------------------------------------

_COVER = re.compile(r"securities\s+and\s+exchange\s+commission|pursuant\s+to\s+section\s+1[35]", re.I)
_REGISTRANT_MARK = re.compile(r"exact\s+name\s+of\s+registrant|commission\s+file\s+number", re.I)
_FORMS = (("10-K", re.compile(r"\bform\s+10-?K(?:405)?\b", re.I)), ("10-Q", re.compile(r"\bform\s+10-?Q\b", re.I)),
          ("8-K", re.compile(r"\bform\s+8-?K\b", re.I)),
          ("annual_report", re.compile(r"\bform\s+(?:20|40)-?F\b", re.I)))
_TRANSCRIPT_SIGNS = (
    (2, re.compile(r"\btranscript\b", re.I)),
    (1, re.compile(r"\b(?:earnings|conference|analyst|investor)\s+(?:conference\s+)?call\b", re.I)),
    (1, re.compile(r"(?:^|\n)\s*operator\s*[:\n]|\boperator\b(?=\s*\n)", re.I)),
    (1, re.compile(r"\bquestions?[-\s]+(?:and|&)[-\s]+answers?\b|\bQ\s?&\s?A\b", re.I)),
    (1, re.compile(r"\b(?:corporate|conference\s+call)\s+participants\b|^\s*(?:speakers|participants|host)\s*:?\s*$"
                   r"|^\s*speakers\s*:", re.I | re.M)),
)
TRANSCRIPT_SCORE = 3
TRANSCRIPT_CHARS = 8000
"""A call's title, participants and first turns are printed within its opening (a Markdown file is one page:
a note that quotes a call further down is not one)."""
_RELEASE = re.compile(
    r"\b(?:news|press|earnings)\s+release\b|\bfor\s+immediate\s+release\b|\bexhibit\s+99\.?\s?1\b"
    r"|\b(?:reports?|announces?|posts?|delivers?)\b[^.\n]{0,80}?\b(?:results|earnings)\b", re.I)
_SPACED = re.compile(r"\b(?:[A-Z] ){3,}[A-Z]\b")
"""A heading printed letter-spaced ("T R A N S C R I P T")."""
COVER_CHARS = 1500
"""An SEC cover names its form within the first characters of its page."""
COVER_PAGES = 20
"""A 10-K bound inside an annual report to shareholders has its cover within these pages."""
_DECK = re.compile(r"\b(?:presentation|slides|deck)\b", re.I)
_ANNUAL = re.compile(r"\bannual\s+report\b", re.I)


def _doc_type(source: IdentitySource, opening: str, first: str) -> tuple[str, str]:
    kind = source.kind
    if kind is not None and kind.certain and kind.kind in ("policy", "contract"):
        return kind.kind, f"kind: {kind.kind} ({kind.basis})"
    for number, page in enumerate(source.pages[:COVER_PAGES], start=1):
        top = page[:COVER_CHARS]
        if _COVER.search(top) and _REGISTRANT_MARK.search(page):
            for doc_type, pattern in _FORMS:
                found = pattern.search(top)
                if found:
                    return doc_type, f"cover page{'' if number == 1 else f' (page {number})'}: {found.group(0)!r}"
    head = f"{source.title}\n{opening}"
    score = sum(weight for weight, pattern in _TRANSCRIPT_SIGNS if pattern.search(f"{source.title}\n{first[:TRANSCRIPT_CHARS]}"))
    if score >= TRANSCRIPT_SCORE and (re.search(r"\btranscript\b|\bcall\b", head, re.I)):
        return "transcript", "opening: a call's title, speakers and question-and-answer section"
    pages = [p for p in source.pages if p.strip()]
    sparse = bool(pages) and sum(len(p) for p in pages) / len(pages) < DECK_CHARS_PER_PAGE
    if source.landscape is not None and source.landscape >= LANDSCAPE_SHARE and (sparse or _DECK.search(head)):
        return DECK_TYPE, f"{source.landscape:.0%} of pages landscape"
    found = _RELEASE.search(head)
    if found:
        return "release", f"opening: {found.group(0)!r}"
    if _ANNUAL.search(head):
        return "annual_report", "title: 'annual report'"
    if kind is not None and kind.kind in ("policy", "contract"):
        return kind.kind, f"kind: {kind.kind} ({kind.basis})"
    return "other", "not printed"


# -- period -------------------------------------------------------------------------------------------------

_ORDINALS = QUARTER_ORDINALS
_ORD = r"(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)"
_YEAR = r"(?P<year>(?:19|20)\d{2})"
_LABELS = (
    re.compile(rf"\b{_ORD}[-\s]+(?:fiscal\s+)?quarter(?:\s+(?:and|&)\s+(?:full|fiscal)[-\s]+year)?"
               r"(?:\s+(?:and|&)\s+year[-\s]to[-\s]date(?:\s+(?:operating|financial))?\s+results)?"
               rf"(?:\s+(?:of|for|in))?\s+(?P<fiscal>fiscal\s+(?:year\s+)?|FY\s*)?{_YEAR}\b", re.I),
    re.compile(rf"\b(?P<fiscal>fiscal\s+(?:year\s+)?|FY\s*)(?P<year>(?:19|20)\d{{2}}|\d{{2}})\s+{_ORD}[-\s]+quarter\b", re.I),
    re.compile(r"\bQ(?P<q>[1-4])\s*(?:/\s*FY\s*|(?P<fiscal>FY|fiscal(?:\s+year)?))?\s*['\u2019]?"
               r"(?P<year>(?:19|20)\d{2}|\d{2})\b", re.I),
    re.compile(r"\b(?P<q>[1-4])Q\s*['\u2019]?(?P<fiscal>FY)?\s*(?P<year>(?:19|20)\d{2}|\d{2})\b", re.I),
)
_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DATE = rf"{_MONTH}\s+(?P<day>\d{{1,2}})\s?(?:st|nd|rd|th)?,?\s+(?P<y>(?:19|20)\d{{2}})"
_DATE_DMY = rf"(?P<day>\d{{1,2}})\s+{_MONTH}\s+(?P<y>(?:19|20)\d{{2}})"
_ENDED = re.compile(
    rf"\b(?:(?:quarterly|fiscal)\s+period|quarter(?:\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?)?(?:19|20)\d\d)?|three\s+months|thirteen\s+weeks|13\s+weeks|twelve\s+weeks|12\s+weeks"
    rf"|sixteen\s+weeks|16\s+weeks|seventeen\s+weeks|17\s+weeks)\s+(?:ended|ending)\s+(?:on\s+)?(?:{_DATE}|{_DATE_DMY.replace('?P<', '?P<d')})",
    re.I)
_YEAR_ENDED = re.compile(rf"\bfiscal\s+year\s+ended\s+(?:{_DATE})", re.I)
_ANY_YEAR_ENDED = re.compile(rf"\b(?:fiscal\s+)?year\s+(?:ended|ending)\s+(?:on\s+)?(?:{_DATE}|{_DATE_DMY.replace('?P<', '?P<d')})",
                             re.I)
_MONTHS_ENDED = re.compile(r"\b(?P<n>three|six|nine|twelve|3|6|9|12)\s+months\s+ended\b", re.I)
_FISCAL_YEAR_NAMED = re.compile(r"\bfiscal\s+(?:year\s+)?(?P<year>(?:19|20)\d{2})\b|\bFY\s*['\u2019]?(?P<yy>\d{2})\b", re.I)
_EVENT_DATE = re.compile(rf"{_DATE}|{_DATE_DMY.replace('?P<', '?P<d')}|\b(?P<m>\d{{1,2}})/(?P<dd>\d{{1,2}})/(?P<yyyy>20\d{{2}})\b",
                         re.I)
EVENT_WINDOW_DAYS = 120
"""A call or release is dated within this many days after the quarter it covers."""


@dataclass(frozen=True)
class _Label:
    year: int
    quarter: int
    fiscal: bool
    text: str


def _labels(text: str) -> list[tuple[int, _Label]]:
    found = []
    for pattern in _LABELS:
        for m in pattern.finditer(text):
            groups = m.groupdict()
            quarter = int(groups["q"]) if groups.get("q") else _ORDINALS[groups["ord"].lower()]
            year = int(groups["year"])
            year = year + 2000 if year < 100 else year
            found.append((m.start(), _Label(year, quarter, bool(groups.get("fiscal")), m.group(0))))
    return sorted(found, key=lambda f: f[0])


def _date(m: re.Match, prefix: str = "") -> date | None:
    groups = m.groupdict()
    month = groups.get(prefix + "month") or groups.get("month") or groups.get("dmonth")
    day = groups.get(prefix + "day") or groups.get("day") or groups.get("dday")
    year = groups.get(prefix + "y") or groups.get("y") or groups.get("dy")
    if groups.get("yyyy"):
        month, day, year = groups["m"], groups["dd"], groups["yyyy"]
        number = int(month)
    elif not (month and day and year):
        return None
    else:
        number = MONTHS[month.lower().rstrip(".")]
    try:
        return date(int(year), number, int(day))
    except ValueError:
        return None


def _quarter_end(year: int, quarter: int) -> date:
    month = quarter * 3
    return date(year, month, calendar.monthrange(year, month)[1])


def _printed_dates(text: str) -> set[date]:
    return {d for m in _EVENT_DATE.finditer(text) if (d := _date(m)) is not None}


def _period(doc_type: str, source: IdentitySource, opening: str, text: str) -> dict[str, tuple[object, str]]:
    """fiscal_year, fiscal_quarter and period_end, each with its basis (an 8-K is dated by its event,
    not by a period)."""
    out: dict[str, tuple[object, str]] = {}
    if doc_type in ("policy", "contract", "8-K"):
        return out
    if doc_type in ("10-K", "annual_report"):
        year_end = next((d for m in _YEAR_ENDED.finditer(text[:40000]) if (d := _date(m)) is not None), None)
        where = "cover page: fiscal year ended"
        if year_end is None:  # an annual report's "for the year ended 31 December 2024": the latest it compares
            year_end = max((d for m in _ANY_YEAR_ENDED.finditer(text[:40000]) if (d := _date(m)) is not None), default=None)
            where = "printed: year ended"
        if year_end is not None:
            out["period_end"] = (year_end.isoformat(), where)
            out["fiscal_year"] = (_fiscal_year_of(year_end, text), where)
        return out
    if doc_type == "10-Q":
        return _quarterly_report(text)
    labels = _labels(f"{source.title}\n{opening}") or _labels(text[:20000])
    event = next((d for m in _EVENT_DATE.finditer(opening) if (d := _date(m)) is not None), None)
    ended = [d for m in _ENDED.finditer(text[:30000]) if (d := _date(m)) is not None]
    if not labels:
        if ended:
            out["period_end"] = (ended[0].isoformat(), "printed: period ended")
        return out
    _, label = labels[0]
    where = "title" if _labels(source.title) else "opening"
    out["fiscal_year"] = (label.year, f"{where}: {label.text!r}")
    out["fiscal_quarter"] = (label.quarter, f"{where}: {label.text!r}")
    if label.quarter == 4:
        ended += [d for m in _ANY_YEAR_ENDED.finditer(text[:30000]) if (d := _date(m)) is not None]
    printed = _within(ended, event) if event is not None else [d for d in ended[:1] if _consistent(d, label)]
    if printed:
        out["period_end"] = (printed[0].isoformat(), "printed: quarter ended")
        return out
    end = _quarter_end(label.year, label.quarter)
    if label.fiscal:
        return out
    if end in _printed_dates(text):
        out["period_end"] = (end.isoformat(), "calendar quarter of the label; its end date is printed")
    elif event is not None and _within([end], event):
        out["period_end"] = (end.isoformat(), f"calendar quarter of the label, dated {event.isoformat()}")
    return out


def _within(ends: list[date], event: date) -> list[date]:
    """The period ends a document dated `event` can report on: within EVENT_WINDOW_DAYS before it."""
    return [d for d in ends if 0 <= (event - d).days <= EVENT_WINDOW_DAYS]


def _quarterly_report(text: str) -> dict[str, tuple[object, str]]:
    """A 10-Q: the period end from its cover, the quarter from the longest period its statements print
    ("Nine Months Ended": the third), the fiscal year from the labels of that quarter it prints most."""
    out: dict[str, tuple[object, str]] = {}
    ended = next((d for m in _ENDED.finditer(text[:20000]) if (d := _date(m)) is not None), None)
    if ended is not None:
        out["period_end"] = (ended.isoformat(), "cover page: quarterly period ended")
    months = Counter(int(_NUMBER.get(m.group("n").lower(), m.group("n"))) for m in _MONTHS_ENDED.finditer(text))
    longest = max((n for n, count in months.items() if n < 12 and count >= 2), default=0)
    quarter = longest // 3 if longest else None
    if quarter:
        out["fiscal_quarter"] = (quarter, f"its statements' longest period: {longest} months ended")
    counted = Counter(l.year for _, l in _labels(text) if l.quarter == quarter)
    if counted:
        out["fiscal_year"] = (counted.most_common(1)[0][0], "the label of its quarter printed most")
    elif ended is not None:
        out["fiscal_year"] = (_fiscal_year_of(ended, text), "period end")
    return out


_NUMBER = {"three": 3, "six": 6, "nine": 9, "twelve": 12}


def _consistent(ended: date, label: _Label) -> bool:
    """A printed quarter end can belong to the label: in the label's year or the one before (a fiscal
    year ending early in the next calendar year)."""
    return label.year - 1 <= ended.year <= label.year + 1


def _fiscal_year_of(end: date, text: str) -> int:
    """The fiscal year ending on `end`: its calendar year, or the year before when the year ends in the
    first weeks of January or February and the document names that fiscal year more often."""
    if end.month > 2:
        return end.year
    named = Counter(int(m.group("year")) if m.group("year") else 2000 + int(m.group("yy"))
                    for m in _FISCAL_YEAR_NAMED.finditer(text[:60000]))
    return end.year - 1 if named[end.year - 1] > named[end.year] else end.year


# -- company ------------------------------------------------------------------------------------------------

_REGISTRANT = re.compile(r"([^\n]{2,100})\n\s*\(?\s*exact\s+name\s+of\s+registrant", re.I)
_TICKER = re.compile(r"((?:[a-z](?=[A-Z]))?[A-Z][\w.,&'\- ]{1,60}?)\s*\((?:NYSE|NASDAQ|Nasdaq|TSX|LSE|NYSE\s+American)\s*:\s*[A-Z.]{1,6}\)")
_OWN_TICKER = re.compile(r"((?:[a-z](?=[A-Z]))?[A-Z][\w.,&'\- ]{1,60}?)\s*\([A-Z]{1,5}\)")
_ANNOUNCES = re.compile(r"((?:[a-z](?=[A-Z]))?[A-Z][\w.,&'\- ]{1,50}?)\s+(?:Reports?|Announces?|Posts?|Delivers?)\b")
_LEGAL = re.compile(r"((?:(?:[A-Z][\w&.'-]*|&)\s+){0,4}[A-Z][\w&.'-]*),?\s+(Inc\.|Corporation|Corp\.|Co\.|AG|plc|PLC|Ltd\.|"
                    r"Limited|N\.V\.|S\.A\.|SE)(?![\w])")
_TITLED = re.compile(r"^\s*(?:(?:Q[1-4]|[1-4]Q)\s*(?:FY\s*)?['\u2019]?\d{2,4}\s+)?(?P<name>[A-Z][\w.,&'\- ]{1,60}?)\s+"
                     r"(?:(?:Q[1-4]|[1-4]Q|first|second|third|fourth)\b|(?:earnings|results|analyst)\b)", re.I)
"""A call's or deck's title: "Citi First Quarter 2023 Earnings Review", "Q1 2023 Snowflake Inc. Earnings Call",
"Meta Earnings Presentation Q1 2024"."""
_WELCOME = re.compile(r"\bwelcome\s+(?:everyone\s+)?to\s+(?:the\s+)?(?P<name>(?:[a-z](?=[A-Z]))?[A-Z][\w.&'\- ]{1,50}?)(?:['\u2019]s)?\s+"
                      r"(?:(?:Q[1-4]|[1-4]Q|first|second|third|fourth|fiscal)\b|(?:19|20)\d\d)", re.I)
"""The operator's welcome names the company: "Welcome to JPMorgan Chase's First Quarter 2023 Earnings Call"."""
_COPYRIGHT = re.compile(r"(?:©|\(c\)|\bcopyright)\s*(?:(?:19|20)\d\d\s*)?(?P<name>[A-Z][\w&'\- ]{1,50}?,?\s+"
                        r"(?:Inc|Corp|Corporation|Co|Ltd|Limited|LLC|plc|AG|SE|N\.V|S\.A)\.?)(?![\w])", re.I)
"""A deck's footer names its owner: "©2023 TWILIO INC. ALL RIGHTS RESERVED"."""
_NOT_A_NAME = re.compile(r"^(?:news|press|exhibit|for\s+immediate|the|earnings|financial|results|quarterly|annual|transcript"
                         r"|first|second|third|fourth|fiscal|slide|page|q[1-4]|[1-4]q|fy)\b|\bstock\s+exchange\b|,\s*(?:head|chief|director|"
                         r"vice|senior|executive|president)\b", re.I)
"""Words that open a title or a heading, never a company's name; an exchange or a person's title."""


def _company(doc_type: str, source: IdentitySource, opening: str, first: str) -> tuple[str, str]:
    for page in source.pages[:COVER_PAGES]:
        for found in _REGISTRANT.finditer(page):
            if _name_ok(re.sub(r"^the\s+", "", found.group(1).strip(), flags=re.I)):
                return _clean(found.group(1)), "cover page: exact name of registrant"
    candidates = [(m.group(1), "opening: name and ticker") for m in _TICKER.finditer(opening)]
    candidates += [(m.group(1), "opening: name and ticker") for m in _OWN_TICKER.finditer(opening[:TITLE_CHARS])]
    candidates += [(m.group("name"), "title: the name before the period") for line in
                   (source.title, *opening[:TITLE_CHARS].splitlines()[:3]) if (m := _TITLED.match(line))]
    candidates += [(m.group("name"), "opening: the operator's welcome") for m in _WELCOME.finditer(first[:5000])]
    candidates += [(re.sub(r"^.*\b(?:news|press)\s+release\s+", "", m.group(1), flags=re.I),
                    "opening: who reports the results") for m in _ANNOUNCES.finditer(opening)]
    candidates += [(m.group("name"), "copyright line") for m in _COPYRIGHT.finditer("\n".join((first, *source.furniture)))]
    candidates += [(m.group("name"), "running head: the name before the period") for line in source.furniture
                   if (m := _TITLED.match(re.sub(r"\s[\u2013\u2014-]\s", " ", line)))]
    for name, where in candidates:
        if _name_ok(name):
            return _clean(name), where
    counted = Counter(" ".join(m.group(0).split()) for m in _LEGAL.finditer(first))
    for name, _ in counted.most_common():
        if _name_ok(name):
            return _clean(name), "the legal name printed most often on the first pages"
    return "", "not printed"


def _name_ok(name: str) -> bool:
    cleaned = _clean(name)
    return bool(cleaned) and len(cleaned) <= 60 and not _NOT_A_NAME.search(cleaned)


TITLE_CHARS = 300
PAGE_CHARS = 400_000
"""The most of one page the identity is read from: a printed page holds a few thousand characters; a Markdown
file (one page) is read from its first 400,000."""


def _clean(name: str) -> str:
    name = re.split(r"\s[-\u2013\u2014]\s?|\d{4}\s*[-\u2013\u2014]\s?", re.sub(r"\s+", " ", name))[-1]
    name = re.sub(r"\s+(?:FY\s*['\u2019]?\d{2,4}|Reports?|Announces?|Posts?|Delivers?)$", "", name.strip(" ,.-\u2013:"),
                  flags=re.I)
    if re.search(r"\b(?:Inc|Corp|Co|Ltd|S\.A|N\.V)$", name, re.I):
        name += "."
    return name[:1] + name[1:] if not name.isupper() else name.title().replace("'S", "'s")


# -- the reading -------------------------------------------------------------------------------------------


def read_identity(source: IdentitySource) -> Identity:
    """The document's type, company and period, each with its basis."""
    # NOTE: a page is read to PAGE_CHARS (a Markdown file is one page: a 60 MB one is read from its opening)
    pages = [_SPACED.sub(lambda m: m.group(0).replace(" ", ""), p[:PAGE_CHARS]) for p in source.pages]
    source = replace(source, pages=pages)
    opening = (pages[0] if pages else "")[:OPENING_CHARS]
    first = "\n".join(pages[:FIRST_PAGES])
    text = "\n".join(pages)
    doc_type, type_basis = _doc_type(source, opening, first)
    basis = {"doc_type": type_basis}
    company, basis["company"] = ("", "not read for this type") if doc_type in ("policy", "contract") \
        else _company(doc_type, source, opening, first)
    period = _period(doc_type, source, opening, text)
    for name in ("fiscal_year", "fiscal_quarter", "period_end"):
        basis[name] = period[name][1] if name in period else "not printed"
    return Identity(doc_type=doc_type, company=company,
                    fiscal_year=period["fiscal_year"][0] if "fiscal_year" in period else None,  # type: ignore[arg-type]
                    fiscal_quarter=period["fiscal_quarter"][0] if "fiscal_quarter" in period else None,  # type: ignore[arg-type]
                    period_end=str(period["period_end"][0]) if "period_end" in period else "", basis=basis)


def parsed_source(parsed: ParsedDocument, kind: KindReading | None = None) -> IdentitySource:
    """What a document just parsed is read from: its pages' text (blocks by the page they start on),
    its title and how many of its pages are landscape."""
    count = max(parsed.pages, 1)
    pages = [[] for _ in range(count)]
    for block in parsed.blocks:
        page = block.rects[0].page - 1 if block.rects else 0
        pages[min(max(page, 0), count - 1)].append(f"{block.caption}\n{block.text}" if block.caption else block.text)
    meta = parsed.metadata or {}
    front = meta.get("front_matter") or {}
    title = str(front.get("title") or front.get("name") or (meta.get("pdf") or {}).get("title") or "")
    return IdentitySource(name=parsed.name, title=title, pages=["\n".join(p) for p in pages],
                          landscape=meta.get("landscape_share"), kind=kind, furniture=tuple(meta.get("furniture") or ()))


def parsed_identity(parsed: ParsedDocument, kind: KindReading | None = None, earlier: Mapping | None = None) -> Identity:
    """The identity of a document just parsed; the fields a user set on an earlier ingestion of the same
    document are kept."""
    identity = read_identity(parsed_source(parsed, kind))
    if not earlier:
        return identity
    before = Identity.from_dict(earlier)
    chosen = {name: getattr(before, name) for name in FIELDS if before.basis.get(name) == "user"}
    return with_user_fields(identity, **chosen) if chosen else identity


def dated_by_company(identities: Mapping[str, Identity], others: Iterable[Identity]) -> dict[str, Identity]:
    """Each identity with no period end printed (Meta's decks date no quarter) given the end of its fiscal quarter on
    its company's fiscal calendar, as another document of the same company dates one of its quarters (a release's
    "three months ended September 30, 2024": the year ends in December); the others as they are."""
    ends: dict[str, set[int]] = {}
    for other in others:
        if other.company and other.fiscal_quarter and re.fullmatch(r"\d{4}-\d\d-\d\d", other.period_end or ""):
            month = int(other.period_end[5:7])
            ends.setdefault(_company_key(other.company), set()).add((month + 3 * (4 - other.fiscal_quarter) - 1) % 12 + 1)
    out: dict[str, Identity] = {}
    for doc_id, identity in identities.items():
        # NOTE: "Meta" (a deck's title) is "Meta Platforms, Inc." (its release's); two calendars under one name: neither
        found = ends.get(_company_key(identity.company or ""), set())
        year_end = next(iter(found)) if len(found) == 1 else None
        if identity.period_end or not identity.fiscal_year or not identity.fiscal_quarter or year_end is None:
            out[doc_id] = identity
            continue
        month = (year_end + 3 * identity.fiscal_quarter - 1) % 12 + 1
        year = identity.fiscal_year if month <= year_end else identity.fiscal_year - 1
        end = date(year, month, calendar.monthrange(year, month)[1]).isoformat()
        out[doc_id] = replace(identity, period_end=end, basis={**identity.basis, "period_end": (
            f"the fiscal calendar of {identity.company}'s other documents (quarter ending in month {month})")})
    return out


def _company_key(company: str) -> str:
    """A company's name by its first word, in lower case ("Meta" and "Meta Platforms, Inc.": "meta")."""
    words = re.findall(r"[A-Za-z][\w&'-]*", company)
    return words[0].lower() if words else ""


def stored_identity(doc: DocumentRecord, chunks: Callable[[], Sequence[ChunkRecord]],
                    kind: KindReading | None = None) -> Identity:
    """A stored document's identity: as the catalog holds it, else read now from its first chunks (a
    store ingested before identities were read: pages from the chunks, page shapes unknown)."""
    if doc.identity:
        return Identity.from_dict(doc.identity)
    first = chunks()
    count = max((c.page_end for c in first), default=1) or 1
    pages: list[list[str]] = [[] for _ in range(count)]
    for chunk in first:
        pages[max(chunk.page_start, 1) - 1].append(chunk.text)
    meta = doc.metadata or {}
    front = meta.get("front_matter") or {}
    title = str(front.get("title") or front.get("name") or (meta.get("pdf") or {}).get("title") or "")
    return read_identity(IdentitySource(name=doc.name, title=title, pages=["\n".join(p) for p in pages],
                                        landscape=meta.get("landscape_share"), kind=kind,
                                        furniture=tuple(meta.get("furniture") or ())))


_LISTED_QUARTERS = re.compile(r"\bQ[1-4](?:\s*,\s*Q[1-4])*(?:\s*,)?\s+(?:and|&)\s+(?=Q[1-4]\b)", re.I)
"""Bare quarters listed before the one that carries the year ("Q1, Q2 and " before "Q3 2023")."""


def quarter_labels(text: str) -> list[tuple[int | None, int]]:
    """The quarters a question names, as (fiscal year or None, quarter): "Q3 FY23", "1Q24", "the second
    quarter of 2023", or a quarter without its year ("the Q2 call")."""
    labelled = _labels(text)
    found = [(label.year, label.quarter) for _, label in labelled]
    if found:
        # NOTE: "on the Q1, Q2 and Q3 2023 calls": quarters listed before a labelled one are of its year
        for m in _LISTED_QUARTERS.finditer(text):
            year = next((label.year for at, label in labelled if at == m.end()), None)
            if year is not None:
                found[:0] = [(year, int(q)) for q in re.findall(r"[1-4]", m.group(0))
                             if (year, int(q)) not in found]
        return found
    bare = re.finditer(r"\bQ([1-4])\b|\b([1-4])Q\b|\b(first|second|third|fourth)[-\s]+quarter\b", text, re.I)
    return [(None, int(m.group(1) or m.group(2)) if (m.group(1) or m.group(2)) else _ORDINALS[m.group(3).lower()])
            for m in bare]
