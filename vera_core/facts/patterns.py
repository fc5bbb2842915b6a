"""The wording that counts as an explicit statement of a document fact, and the value it states.

Pure text -> values (chunks, scope and pages are `extract.py`'s). Wording comes in tiers
(`TIER_*`): a *sentence* about the document (`TIER_SENTENCE`; `TIER_INDIRECT` for an indirect one)
outranks *title* wording (`TIER_TITLE`), which is read only in headings, table captions, short
title-like lines and, for units and currency only, table footnotes and the unit cell of a table's
stub column. `extract.py` raises the titles of the primary financial statements to
`TIER_STATEMENT`. Title lines are also read for sentence wording: a 10-K cover line "For the fiscal
year ended ..." is both.

What counts (decided on the dev filings: 3M, American Express and PepsiCo 10-Ks, an earnings
release and 8-Ks, plus the sample report):

- default_currency: a sentence naming the currency of the statements or of their amounts
  ("the presentation currency is ...", "financial statements are presented / denominated in U.S.
  dollars", "all amounts are in thousands of euro"); the functional currency of the parent or
  company, one tier lower so a presentation currency wins; as titles, a legend naming a currency
  ("(Dollars in millions, except per share amounts)", "(EUR thousand)"). Never a "$", "€" or
  "EUR" next to a figure, in prose or in a table, nor subsidiaries' functional currencies.
- units: a sentence giving the scale of the amounts ("all amounts are in thousands of euro
  (EUR thousand)", PepsiCo's "tabular dollars are in millions, except per share amounts"). 10-Ks
  state units mostly as statement and table legends ("(Millions)", "(in millions except per share
  amounts, unaudited)", "(Dollars in millions, ...)"): those count, as titles (confidence ~0.6),
  so any sentence outranks them, and legends that disagree make the fact ambiguous. The legends of
  the primary statements ("(In millions, except per share data)", "$ in millions", "EUR thousand")
  outrank other tables' legends; a "$" standing alone there names the dollar like a bare "dollars".
  A figure such as "$1.4 billion" is not a statement of units; "(Shares in thousands)" is not money.
- a bare "dollars" is read as USD less `BARE_DOLLAR_PENALTY`: that is what a 10-K means by it,
  but the words do not say which dollar.
- reporting_period: "the reporting period is the financial year from <date> to <date>"; the cover
  line "For the fiscal year / quarterly period ended <date>"; as titles "Year / Three Months /
  12 Weeks Ended <date>" (first date of the line). Comparatives and references to other reports
  ("our Annual Report on Form 10-K for the fiscal year ended ...") are skipped. The value reads as
  the document words it ("fiscal year ended December 31, 2018", see `period.py`).
- accounting_framework: IFRS or US GAAP right after "in accordance / conformity / compliance with",
  "comply with", "prepared under"; not when negated ("not in accordance with U.S. GAAP") or in a
  non-GAAP sentence. A bare "GAAP" only where the document defines it as U.S. GAAP.
- consolidation_basis: "the consolidated financial statements include ... subsidiaries (affiliates
  that we control)", "All subsidiaries are consolidated", "We consolidate entities ..."; "these
  separate / standalone financial statements" (standalone); "parent company only" (parent only);
  as titles, statement titles ("Consolidated Balance Sheet", "(Parent Company Only)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from vera_core.facts import period
from vera_core.finance.dates import _MONTH
from vera_core.finance.money import CURRENCY_NAMES, SCALE_WORDS

# -- vocabulary -----------------------------------------------------------------------------------

BARE_DOLLAR_PENALTY = 0.15
"""Confidence taken off when the currency is named only as "dollars" (read as USD, see `currency_code`)."""

_CUR_ALT = "|".join(alt for _, alt in CURRENCY_NAMES)
_SCALE_ALT = SCALE_WORDS
_MONTH_ALT = _MONTH
_DATE = (rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH_ALT},?\s+\d{{4}}"
         rf"|{_MONTH_ALT}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}/\d{{1,2}}/\d{{4}})")
_IFRS = r"International\s+Financial\s+Reporting\s+Standards|IFRSs?|International\s+Accounting\s+Standards"
_US_GAAP = (r"accounting\s+principles\s+generally\s+accepted\s+in\s+the\s+United\s+States(?:\s+of\s+America)?"
            r"|generally\s+accepted\s+accounting\s+principles\s+in\s+the\s+United\s+States(?:\s+of\s+America)?"
            r"|(?:U\.\s?S\.|US|United\s+States)\s+generally\s+accepted\s+accounting\s+principles"
            r"|U\.\s?S\.\s?GAAP|US\s?GAAP")
GAAP_DEFINITION = re.compile(rf"(?:{_US_GAAP})\s*\(\s*[“\"]?(?:U\.\s?S\.\s?)?GAAP[”\"]?\s*\)", re.IGNORECASE)
"""A document's own definition of "GAAP" as U.S. GAAP, e.g. "U.S. Generally Accepted Accounting Principles (GAAP)"."""
BARE_GAAP = "GAAP?"
"""Placeholder value for a statement naming just "GAAP"; `extract` turns it into US GAAP only when the
document defines GAAP that way (`GAAP_DEFINITION`), and drops it otherwise."""


_DOLLAR = r"(?<![\w$])(?P<cur>\$)(?!\s*[\d(])"
"""A "$" standing for the currency in a scale line ("($ in millions)", "$ in thousands"), never before a figure."""


def cur(group: str = "cur") -> str:
    """A currency name as a named group."""
    return rf"(?:(?<![\w$])(?P<{group}>{_CUR_ALT})(?![\w$]))"


def currency_code(name: str) -> tuple[str, float]:
    """ISO 4217 code of a currency name and the confidence penalty for it.

    NOTE: a bare "dollars" (as in a 10-K's "(Dollars in millions)") is read as USD with a
    penalty: SEC filings use it for U.S. dollars, but the wording does not say which dollar. So is
    a "$" standing alone in a scale line ("$ in millions").
    """
    if name.strip() == "$":
        return "USD", BARE_DOLLAR_PENALTY
    for code, alt in CURRENCY_NAMES:
        if re.fullmatch(alt, name.strip(), re.IGNORECASE):
            return (code[:3], BARE_DOLLAR_PENALTY) if code.endswith("?") else (code, 0.0)
    raise ValueError(f"not a currency name: {name!r}")


def scale_word(token: str) -> str:
    """`thousand`, `million` or `billion` for a scale token ("thousands", "mn", "'000")."""
    token = token.lower()
    if token.startswith(("thousand", "'000", "000")):
        return "thousand"
    return "million" if token.startswith(("million", "mn")) else "billion"


# -- statements -----------------------------------------------------------------------------------

TIER_SENTENCE = 4
"""A sentence stating the fact directly ("the financial statements are presented in euro")."""
TIER_INDIRECT = 3
"""A sentence implying it ("the functional currency of the parent company is ...")."""
TIER_STATEMENT = 2
"""A title or legend of a primary financial statement (assigned by `extract.py`, which knows the chunk)."""
TIER_TITLE = 1
"""Any other title or legend: a heading, a caption, a note table's "(in millions)"."""


@dataclass(frozen=True)
class Statement:
    """One explicit statement of a fact inside a piece of text."""

    value: str
    """The normalised value (ISO code, readable period, `US GAAP`, `EUR thousand`...)."""
    confidence: float
    """How explicit the wording is, in [0, 1]."""
    start: int
    """Offset of the matched wording in the text."""
    end: int
    """End offset (exclusive) of the matched wording."""
    tier: int
    """Strength of the wording, one of `TIER_*` (higher is stronger)."""


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    confidence: float
    value: str = ""
    """Fixed value (framework, consolidation); empty when the value comes from the match."""
    tier: int = TIER_SENTENCE


def _rule(regex: str, confidence: float, value: str = "", tier: int = TIER_SENTENCE) -> _Rule:
    return _Rule(re.compile(regex, re.IGNORECASE), confidence, value, tier)


def _title(regex: str, confidence: float, value: str = "") -> _Rule:
    return _rule(regex, confidence, value, tier=TIER_TITLE)


_TEXT = r"(?:[^.;]|\.(?!\s+(?-i:[A-Z])|\s*$)|(?<=\b(?-i:[A-Z]))\.)"
"""Any character of the same sentence, including the period of "Inc." before lower case or of "U.S."."""
_SUBJECT = r"\b(?:financial\s+statements|financial\s+information|(?:all\s+)?amounts|figures|accounts)\b"
_BE = r"\b(?:are|is|were|have\s+been|has\s+been)\s+"
_VERBED = r"(?:presented|expressed|reported|stated|prepared|denominated|shown|given|rounded)\s+"

CURRENCY_RULES = {
    "sentence": (
        _rule(rf"\b(?:presentation|reporting)\s+currency\b[^.;]{{0,40}}?\b(?:is|was|are)\s+(?:the\s+)?{cur()}", 0.95),
        _rule(rf"{cur()}[^.;]{{0,80}}?\b(?:which|that)\s+is\s+(?:also\s+)?(?:the|its|our)\b[^.;]{{0,40}}?"
              r"\b(?:presentation|reporting)\s+currency", 0.95),
        _rule(rf"{_SUBJECT}[^.;]{{0,60}}?{_BE}{_VERBED}in\s+(?:(?:thousands|millions|billions)\s+of\s+)?"
              rf"(?:the\s+)?{cur()}", 0.9),
        _rule(rf"\bamounts\b[^.;]{{0,40}}?{_BE}in\s+(?:(?:thousands|millions|billions)\s+of\s+)?(?:the\s+)?{cur()}",
              0.85),
        _rule(rf"\bfunctional\s+currency\s+of\s+(?:the\s+)?(?:parent(?:\s+company)?|company|group|registrant)\b"
              rf"[^.;]{{0,30}}?\b(?:is|was)\s+(?:the\s+)?{cur()}", 0.75, tier=TIER_INDIRECT),
        _rule(rf"\bin\s+(?:thousands|millions|billions)\s+of\s+{cur()}", 0.8),
        _rule(rf"\b(?:tabular\s+)?{cur()}\s+(?:amounts\s+)?{_BE}(?:{_VERBED})?in\s+(?:{_SCALE_ALT})\b", 0.8),
    ),
    "title": (
        _title(rf"\(\s*(?:amounts\s+)?(?:in\s+)?(?:(?:thousands|millions|billions)\s+of\s+)?{cur()}"
               rf"[^()]{{0,60}}\)", 0.6),
        _title(rf"^\s*{cur()}\s*(?:{_SCALE_ALT})\s*$", 0.6),
        _title(rf"\(\s*{_DOLLAR}\s*(?:in\s+)?(?:{_SCALE_ALT})\b[^()]{{0,60}}\)", 0.6),
        _title(rf"^\s*{_DOLLAR}\s*(?:in\s+)?(?:{_SCALE_ALT})\s*$", 0.6),
    ),
}

_SCALE = rf"(?P<scale>{_SCALE_ALT})\b"
UNITS_RULES = {
    "sentence": (
        _rule(rf"{_SUBJECT}[^.;]{{0,60}}?{_BE}(?:{_VERBED})?(?:in|to\s+the\s+nearest)\s+(?:the\s+)?{cur('cur1')}?\s*"
              rf"{_SCALE}(?:\s+of\s+(?:the\s+)?{cur('cur2')})?", 0.85),
        _rule(rf"\b(?:expressed|presented|stated|reported)\s+in\s+{_SCALE}\s+of\s+{cur()}", 0.85),
        _rule(rf"\b(?:tabular\s+)?{cur()}\s+(?:amounts\s+)?{_BE}(?:{_VERBED})?in\s+{_SCALE}", 0.85),
    ),
    "title": (
        _title(rf"\(\s*(?:{cur('cur1')}\s+|{_DOLLAR}\s*)?(?:amounts\s+)?(?:in\s+)?{_SCALE}(?:\s+of\s+{cur('cur2')})?"
              rf"(?:\s*(?:[,;]|except|and)[^()]{{0,60}})?\)", 0.6),
        _title(rf"^\s*(?:{cur('cur1')}|{_DOLLAR})?\s*(?:in\s+)?{_SCALE}\s*$", 0.6),
        _title(rf"^\W*(?:\(\w\)\s*)?amounts\s+(?:are\s+)?(?:stated\s+)?in\s+{cur('cur1')}?\s*{_SCALE}", 0.6),
    ),
}

PERIOD_RULES = {
    "sentence": (
        _rule(rf"\b(?:period|year)\b[^.;]{{0,60}}?\b(?:from|beginning(?:\s+on)?|commencing(?:\s+on)?|covering)\s+"
              rf"(?P<start>{_DATE})\s*(?:to|through|until|–|-|and\s+ending(?:\s+on)?)\s*(?P<end>{_DATE})", 0.95),
        _rule(rf"\bfor\s+the\s+(?P<kind>(?:fiscal|financial)\s+(?:year|quarter|half-year|period)|quarterly\s+period)"
              rf"\s+ended\s+(?P<end>{_DATE})", 0.9),
    ),
    "title": (
        _title(rf"\b(?P<kind>(?:(?:fiscal|financial)\s+)?(?:year|quarter|period|(?:three|six|nine|twelve|\d{{1,2}})"
              rf"[\s-](?:months?|weeks?)))\s+end(?:ed|ing)\s+(?P<end>{_DATE})", 0.6),
    ),
}

_FRAMEWORK = rf"(?P<fw>{_IFRS}|{_US_GAAP}|(?<![\w-])GAAP(?![\w-]))"
FRAMEWORK_RULES = {
    "sentence": (
        _rule(r"\b(?:in\s+accordance\s+with|in\s+conformity\s+with|in\s+compliance\s+with|compl(?:y|ies|iant)\s+with"
              r"|(?:prepared|presented|reported|drawn\s+up)\s+(?:under|on\s+the\s+basis\s+of|using))\s+(?:the\s+)?"
              rf"(?:requirements\s+of\s+)?(?:[\w-]+\s+){{0,2}}?{_FRAMEWORK}", 0.85),
    ),
    "title": (),
}

_CONTROLLED = (r"(?:subsidiar(?:y|ies)|(?:affiliates|entities|companies)\s+(?:that|which)\s+"
               r"(?:we|it|the\s+\w+)\s+controls?|controlled\s+(?:entities|affiliates|companies))")
_STATEMENT_TITLE = (r"^\W*(?:[^()]{0,60}?\band\s+subsidiaries\s+|index\s+to\s+(?:the\s+)?|notes\s+to\s+(?:the\s+)?"
                    r"|[A-Z]-\d+\s*[-–—]\s*)?(?:condensed\s+)?consolidated\s+"
                    r"(?:income\s+statements?|balance\s+sheets?|statements?\s+of\s+\w|financial\s+statements)")
CONSOLIDATION_RULES = {
    "sentence": (
        _rule(rf"\bconsolidated\s+financial\s+statements\b{_TEXT}{{0,80}}?\b(?:include|includes|comprise|comprises"
              rf"|incorporate|incorporates|present|presents|consolidate)\b{_TEXT}{{0,160}}?\b{_CONTROLLED}\b",
              0.95, "consolidated"),
        _rule(r"\bsubsidiaries\b[^.;]{0,60}?\b(?:are|have\s+been|were)\s+(?:fully\s+)?consolidated\b", 0.9,
              "consolidated"),
        _rule(r"\b(?:we|the\s+company|the\s+group)\s+consolidates?\s+(?:all\s+)?(?:entities|subsidiaries|affiliates)\b",
              0.9, "consolidated"),
        _rule(r"\b(?:these|the\s+accompanying)\s+(?:separate|stand-?alone|individual|unconsolidated)\s+financial\s+"
              r"statements\b", 0.9, "standalone"),
        _rule(r"\bparent[\s-]+(?:company[\s-]+)?only\s+financial\s+(?:statements|information)\b", 0.9, "parent only"),
    ),
    "title": (
        _title(_STATEMENT_TITLE, 0.6, "consolidated"),
        _title(r"\(\s*parent[\s-]+(?:company[\s-]+)?only\s*\)", 0.6, "parent only"),
    ),
}

RULES = {"default_currency": CURRENCY_RULES, "units": UNITS_RULES, "reporting_period": PERIOD_RULES,
         "accounting_framework": FRAMEWORK_RULES, "consolidation_basis": CONSOLIDATION_RULES}
"""The wording of each fact, by tier."""

_NEGATED = re.compile(r"\bnot\b[^.;]{0,30}$", re.IGNORECASE)
_NON_GAAP = re.compile(r"\bnon-?\s?(?:GAAP|IFRS)\b", re.IGNORECASE)
_OTHER_REPORT = re.compile(r"\b(?:report|reports)\s+on\s+form\s+10-?[kq]\b|\bform\s+10-?[kq]\s+for\b"
                           r"|\bcomparative\b|\bprior\s+(?:fiscal\s+)?year\b|\bprevious\s+(?:financial\s+)?year\b",
                           re.IGNORECASE)
_NOT_MONEY = re.compile(r"\b(?:shares|options|units|employees|people|barrels|tonnes|tons|customers)\b", re.IGNORECASE)


def find(fact: str, text: str, *, title: bool) -> list[Statement]:
    """Every explicit statement of `fact` in `text`: a sentence (sentence wording only), or a title
    line (title wording too, since a cover line such as "For the fiscal year ended ..." is both)."""
    rules = (*RULES[fact]["sentence"], *RULES[fact]["title"]) if title else RULES[fact]["sentence"]
    found: list[Statement] = []
    for rule in rules:
        for m in rule.pattern.finditer(text):
            value, confidence = _value(fact, rule, m, text)
            if value:
                found.append(Statement(value, confidence, m.start(), m.end(), rule.tier))
    return found


def _value(fact: str, rule: _Rule, m: re.Match[str], text: str) -> tuple[str | None, float]:
    groups = {k: v for k, v in m.groupdict().items() if v}
    before = text[:m.start()]
    if fact == "default_currency":
        code, penalty = currency_code(groups["cur"])
        return code, rule.confidence - penalty
    if fact == "units":
        if _NOT_MONEY.search(m.group(0)):
            return None, 0.0
        name = groups.get("cur1") or groups.get("cur2") or groups.get("cur")
        scale = scale_word(groups["scale"])
        if not name:
            return scale, rule.confidence
        code, penalty = currency_code(name)
        return f"{code} {scale}", min(1.0, rule.confidence + 0.1 - penalty)
    if fact == "reporting_period":
        if _OTHER_REPORT.search(before) or _OTHER_REPORT.search(m.group(0)):
            return None, 0.0
        end = period.parse_date(groups["end"])
        start = period.parse_date(groups["start"]) if "start" in groups else None
        if end is None or (start is not None and start >= end):
            return None, 0.0
        kind = groups.get("kind") or _period_kind(text[m.start():m.start("start")])
        return period.describe(kind, start, end, day_first=period.day_first(groups["end"])), rule.confidence
    if fact == "accounting_framework":
        if _NEGATED.search(before) or _NON_GAAP.search(text):
            return None, 0.0
        # NOTE: "the financial statements are prepared in accordance with" is the statement itself;
        # "the preparation of financial statements in conformity with ... requires estimates" only implies it.
        statements = re.search(r"\bfinancial\s+statements\b[^.;]*\b(?:prepared|presented)\b|\b(?:prepare|prepared"
                               r"|presented)\b[^.;]*\bfinancial\s+statements\b", text, re.IGNORECASE)
        confidence = 0.95 if statements else rule.confidence
        if groups["fw"].upper() == "GAAP":
            return BARE_GAAP, confidence - 0.1
        return "IFRS" if re.match(_IFRS, groups["fw"], re.IGNORECASE) else "US GAAP", confidence
    if _NEGATED.search(before[-40:]):
        return None, 0.0
    return rule.value, rule.confidence


def _period_kind(text: str) -> str:
    """The name of a period stated "from <date> to <date>": the last one before the dates
    ("the reporting period is the financial year from" -> "financial year")."""
    names = re.findall(r"\b(?:(?:fiscal|financial|calendar)\s+)?(?:half-year|year|quarter|period)\b", text,
                       re.IGNORECASE)
    return names[-1] if names else "period"


def reconcile(fact: str, values: list[str]) -> str | None:
    """The one value a set of statements agrees on (the most specific), or None when they conflict.

    `values` come in order of preference: among equally specific values the first wins. Units agree
    when their scales match and no two name different currencies ("thousand" and "EUR thousand" ->
    "EUR thousand"); periods agree when their ends match and no two state different starts ("year
    ended 31 December 2024" and "financial year from 1 January 2024 to 31 December 2024" -> the latter).
    """
    distinct = list(dict.fromkeys(values))
    if len(distinct) <= 1:
        return distinct[0] if distinct else None
    if fact == "units":
        parts = [v.split(" ") if " " in v else ["", v] for v in distinct]
        currencies = {c for c, _ in parts if c}
        if len({s for _, s in parts}) > 1 or len(currencies) > 1:
            return None
        return f"{currencies.pop()} {parts[0][1]}" if currencies else parts[0][1]
    if fact == "reporting_period":
        dates = [period.period_dates(v) for v in distinct]
        if None in dates:
            return None
        starts = {s for s, _ in dates if s}
        if len({e for _, e in dates}) > 1 or len(starts) > 1:
            return None
        return next((v for v, (s, _) in zip(distinct, dates) if s), distinct[0])
    return None
