"""Figures in answers and sources: find them as written, normalise them, and check each figure
of an answer against the figures of the chunks it cites."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from vera_core.answer.contract import NumberCheck
from vera_core.finance.money import CURRENCY_CODES, CURRENCY_OF, CURRENCY_WORDS

__all__ = ["NumberMention", "find_numbers", "source_scale", "values_match", "verify_numbers"]

TOLERANCE = 0.001
"""Relative tolerance of a match: |a - b| <= 0.1% of the larger magnitude (exact for zero)."""
ROUNDING_MAX_REL = 0.05
"""A rounded answer figure must also lie within 5% of the source figure ('$2 billion' is not
an acceptable rounding of 1,577 million, '1.6 billion' is)."""

SCALE_WORDS = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "mln": 1e6, "m": 1e6, "mm": 1e6,
               "billion": 1e9, "bn": 1e9, "bln": 1e9, "b": 1e9, "trillion": 1e12, "tn": 1e12}

_SP = r"[ \u00a0\u2009\u202f]"  # space, no-break space, thin spaces
_SYMBOLS = "|".join(re.escape(s) for s in sorted({s for s, _ in CURRENCY_OF.items() if not s.isalpha()}, key=len,
                                                 reverse=True))
_CODES = "|".join(CURRENCY_CODES)
# NOTE: one pattern for every format; atomic group on the digits so '12.5x' is not read as '12'.
_SCALE = (rf"{_SP}?(?i:thousands?|millions?|billions?|trillions?|mln|bln|mn|bn|tn)(?![^\W\d_])"
          rf"|{_SP}?MM(?![^\W\d_])|[kKmMbB](?![^\W\d_])")
_NUMBER = re.compile(rf"""
    (?<![\w.])                                   # not glued to a word or another number
    (?P<open0>\()?
    (?P<neg>[-\u2212])?
    (?P<cur>(?:{_SYMBOLS}){_SP}?|(?:{_CODES}){_SP}?)?
    (?P<open>\()?
    (?P<neg2>[-\u2212])?
    (?P<num>(?>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?(?!\d)|\d+(?:\.\d+)?))
    (?P<scale>{_SCALE})?
    (?P<pct1>{_SP}?%)?
    (?(open)\)|(?(open0)\)|))                     # a parenthesis opened must close
    (?(scale)|(?P<scale2>{_SCALE})?)             # '(1.2 million)' or '(1.2) million'
    (?P<pct2>{_SP}?%|{_SP}(?i:percent(?:age{_SP}points?)?|per{_SP}cent|pct)(?![^\W\d_]))?
    (?P<cur2>{_SP}(?:{_CODES})(?![^\W\d_])|{_SP}(?i:dollars|euros)(?![^\W\d_]))?
    (?![^\W_])                                   # not followed by a letter or digit (2nd, 3Q)
""", re.VERBOSE)
# Spans that hold digits but no figure: citation markers, list ordinals, form names.
_CITATION = re.compile(r"\[\^?\d+(?:\s*[,;\u2013-]\s*\^?\d+)*\]")
_ORDINAL = re.compile(r"(?m)^[ \t]*(?:(?:[-*+>]|#+)[ \t]*)?(?:\(?\d{1,3}[.)]|\([A-Za-z]{1,4}\))(?=[ \t])")
_FORM = re.compile(r"\b(?:10-K|10-Q|8-K|6-K|20-F|40-F|S-1|S-3|S-4|F-1|11-K)\b")

_SCALE_DECL = [
    re.compile(rf"\bin{_SP}+(?:(?:{_CODES}|US\$|[$€£¥])\s*)?(thousands?|millions?|billions?)\b", re.I),
    re.compile(rf"(?:\b(?:{_CODES})|US\$|[$€£¥])\s*(thousands?|millions?|billions?|mn|bn|m|k)\b", re.I),
    re.compile(r"\(\s*(thousands?|millions?|billions?)\b[^)]*\)", re.I),
    re.compile(r"\b(thousands?|millions?|billions?)\s+of\s+(?:U\.?S\.?\s+)?(?:dollars|euros|pounds|yen|francs|"
               rf"{_CODES})\b", re.I),
    re.compile(rf"(?:[$€£¥]\s?|\b(?:in|{_CODES})\s+|\(|(?<![\d,.])(?=['’]))(['’]?000s?)(?![\d,.])"),
]


@dataclass(frozen=True)
class NumberMention:
    """One figure in a text, as written and normalised."""

    text: str
    """The figure as written, e.g. '$(1,577.0) million' or '(5.9)%'."""
    value: float
    """Normalised value: scale word applied, parentheses or minus sign negative; percents stay in
    percent units (3.4% -> 3.4)."""
    is_percent: bool
    """Written with %, 'percent', 'per cent' or 'percentage points'."""
    currency: str | None
    """ISO 4217 code of a currency symbol or code next to the figure ($ -> USD), else None."""
    scale: float
    """Multiplier of its scale word: 1, 1e3, 1e6, 1e9 or 1e12."""
    start: int
    """Offset of the first character of `text` in the searched text."""
    end: int
    """Offset just past the last character of `text`."""
    is_year: bool
    """A bare 4-digit number in 1900-2100: no separator, decimals, currency, sign, scale or percent."""

    @property
    def decimals(self) -> int:
        """Digits shown after the decimal point (the precision the figure was rounded to)."""
        body = re.search(r"\d[\d,]*(?:\.(\d+))?", self.text)
        return len(body.group(1)) if body and body.group(1) else 0


def _mask(text: str) -> str:
    """The text with citation markers, list ordinals and form names blanked (offsets kept)."""
    for pattern in (_CITATION, _ORDINAL, _FORM):
        text = pattern.sub(lambda m: " " * len(m.group()), text)
    return text


def _mention(text: str, m: re.Match) -> NumberMention:
    start, end = m.start(), m.end()
    scale_word = (m.group("scale") or m.group("scale2") or "").strip()
    currency = None
    if m.group("cur"):
        cur = m.group("cur").strip()
        currency = CURRENCY_OF.get(cur, cur)
    elif m.group("cur2"):
        cur = m.group("cur2").strip()
        currency = CURRENCY_WORDS.get(cur.lower(), CURRENCY_OF.get(cur.upper(), cur.upper()))
    key = scale_word.lower().rstrip("s") if len(scale_word) > 2 else scale_word.lower()
    scale = SCALE_WORDS.get(key, 1.0)
    is_percent = bool(m.group("pct1") or m.group("pct2"))
    num = m.group("num")
    parenthesised = bool(m.group("open0") or m.group("open"))
    plain_year = (len(num) == 4 and num.isdigit() and 1900 <= int(num) <= 2100 and not currency
                  and not is_percent and scale == 1.0 and not m.group("neg") and not m.group("neg2"))
    negative = bool(m.group("neg") or m.group("neg2")) or (parenthesised and not plain_year)
    value = float(num.replace(",", "")) * scale
    return NumberMention(text=text[start:end], value=-value if negative and value else value,
                         is_percent=is_percent, currency=currency, scale=scale, start=start, end=end,
                         is_year=plain_year)


@lru_cache(maxsize=4096)
def _mentions(text: str) -> tuple[NumberMention, ...]:
    masked = _mask(text)
    return tuple(_mention(text, m) for m in _NUMBER.finditer(masked))


def find_numbers(text: str) -> list[NumberMention]:
    """Every figure of `text` in order: amounts, percents, years, note and page numbers.

    Reads '1,577', '$1,577.00', '(1,577)' and '−12.4' (negative), 'EUR 2.1 million', '€48.5m',
    '3.4%', '(5.9)%', '12.5 percent'. Skips citation markers ('[3]'), list ordinals at the start
    of a line ('1.', '(a)') and SEC form names ('10-K'). A 4-digit year in parentheses stays a
    positive year.
    """
    return list(_mentions(text))


def source_scale(text: str) -> float | None:
    """The unit scale a source chunk declares in its caption, header or prose ('in thousands',
    'EUR thousand', '(Millions)', 'Dollars in millions', '$ in billions', "£'000"): 1e3, 1e6
    or 1e9, or None when it declares none. The first declaration in the text wins."""
    found = [(m.start(), m.group(1)) for p in _SCALE_DECL for m in p.finditer(text)]
    if not found:
        return None
    word = min(found)[1].lower().lstrip("'’")
    if word.startswith("000"):
        return 1e3
    key = word.rstrip("s") if len(word) > 2 else word
    return SCALE_WORDS[key]


def _close(a: float, b: float) -> bool:
    if a == 0 or b == 0:
        return a == b
    return abs(a - b) <= TOLERANCE * max(abs(a), abs(b))


def _rounds_to(answer: NumberMention, a: float, b: float) -> bool:
    """`a` (the answer's value) is `b` rounded to the decimals the answer shows, in its own units."""
    unit = answer.scale or 1.0
    half_step = 0.5 * 10 ** -answer.decimals
    near = abs(b / unit - a / unit) <= half_step * (1 + 1e-9)
    return near and abs(a - b) <= ROUNDING_MAX_REL * max(abs(a), abs(b))


def _candidates(answer: NumberMention, source: NumberMention, scale: float | None) -> list[tuple[float, str]]:
    """Source values to compare with: as printed, and times the chunk's declared scale."""
    out = [(source.value, "")]
    if source.is_percent or source.scale != 1.0:
        return out
    if scale and scale != 1.0:
        out.append((source.value * scale, ""))
    elif scale is None and answer.scale != 1.0:
        # NOTE: a table chunk may have lost its caption; the answer's scale word cannot be checked.
        out.append((source.value * answer.scale, "scale not declared in source"))
    return out


def _compare(answer: NumberMention, source: NumberMention,
             scale: float | None) -> tuple[tuple[bool, bool, bool], float, str] | None:
    """How `answer` matches `source`: (sign differs, rounded, scale unchecked), the source value
    used and a message; None when it does not match."""
    if answer.is_percent != source.is_percent:
        return None
    if answer.is_year or source.is_year:
        ok = answer.is_year and source.is_year and answer.value == source.value
        return ((False, False, False), source.value, "") if ok else None
    best = None
    for b, note in _candidates(answer, source, scale):
        a = answer.value
        for signed, rounded, ok in ((False, False, _close(a, b)), (True, False, _close(abs(a), abs(b))),
                                    (False, True, _rounds_to(answer, a, b)),
                                    (True, True, _rounds_to(answer, abs(a), abs(b)))):
            if not ok:
                continue
            sign_differs = signed and (a < 0) != (b < 0)
            rank = (sign_differs, rounded, bool(note))
            message = "; ".join(x for x in (note, "rounded" if rounded else "",
                                             "sign differs" if sign_differs else "") if x)
            if best is None or rank < best[0]:
                best = (rank, b, message)
    return best


def values_match(answer: NumberMention, source: NumberMention, source_scale: float | None) -> bool:
    """Whether an answer figure is the source figure: within 0.1%, as printed or times the
    chunk's declared scale; on absolute value (sign differs); or rounded to the answer's shown
    decimals. A percent matches only a percent, a year only the same year."""
    return _compare(answer, source, source_scale) is not None


def _relative_gap(a: float, b: float) -> float:
    a, b = abs(a), abs(b)
    return 0.0 if a == b else abs(a - b) / max(a, b)


def verify_numbers(claim_text: str, sources: dict[int, str]) -> list[NumberCheck]:
    """Check every figure of a claim against its cited chunks (`sources`: citation n -> chunk text).

    'match' names the citation and source figure that agree (exact before scale-unchecked, rounded
    or sign-differing agreement, then the closest value, then the lowest citation); 'mismatch'
    names the closest figure of the same kind (amount or percent, years excluded) and says both
    values; 'not_found' when no cited chunk has a comparable figure.
    """
    cited = sorted(sources)
    parsed = {n: (_mentions(sources[n]), source_scale(sources[n])) for n in cited}
    refs = ", ".join(f"[{n}]" for n in cited)
    exact = {n: _exact_index(parsed[n][0]) for n in cited}
    checks: list[NumberCheck] = []
    for mention in find_numbers(claim_text):
        # NOTE: the figure as printed is the best match there can be (extractive answers quote it);
        # looking it up first spares comparing it with every figure of a long table.
        hit = next(((n, exact[n][key]) for n in cited
                    if (key := (mention.value, mention.is_percent, mention.is_year)) in exact[n]), None)
        if hit:
            figure = parsed[hit[0]][0][hit[1]]
            checks.append(NumberCheck(text=mention.text, value=mention.value, status="match", citation=hit[0],
                                      source_text=figure.text, source_value=figure.value, message=""))
            continue
        best = None
        for n in cited:
            figures, scale = parsed[n]
            for i, figure in enumerate(figures):
                result = _compare(mention, figure, scale)
                if result is None:
                    continue
                key = (result[0], _relative_gap(mention.value, result[1]), n, i)
                if best is None or key < best[0]:
                    best = (key, n, figure, result[1], result[2])
        if best:
            _, n, figure, used, message = best
            checks.append(NumberCheck(text=mention.text, value=mention.value, status="match", citation=n,
                                      source_text=figure.text, source_value=used, message=message))
            continue
        checks.append(_unmatched(mention, cited, parsed, refs))
    return checks


def _exact_index(figures: Sequence[NumberMention]) -> dict[tuple[float, bool, bool], int]:
    """Position of the first figure with each (value, is_percent, is_year) as printed."""
    index: dict[tuple[float, bool, bool], int] = {}
    for i, figure in enumerate(figures):
        index.setdefault((figure.value, figure.is_percent, figure.is_year), i)
    return index


def _unmatched(mention: NumberMention, cited: list[int],
               parsed: dict[int, tuple[tuple[NumberMention, ...], float | None]], refs: str) -> NumberCheck:
    """A 'mismatch' against the closest comparable source figure, or 'not_found'."""
    base = {"text": mention.text, "value": mention.value}
    if not cited:
        return NumberCheck(**base, status="not_found", message=f"no cited source to check {mention.text} against")
    if mention.is_year:
        return NumberCheck(**base, status="not_found", message=f"the year {mention.text} does not appear in {refs}")
    closest = None
    for n in cited:
        figures, scale = parsed[n]
        for i, figure in enumerate(figures):
            if figure.is_year or figure.is_percent != mention.is_percent:
                continue
            for value, _ in _candidates(mention, figure, scale):
                key = (_relative_gap(mention.value, value), n, i)
                if closest is None or key < closest[0]:
                    closest = (key, n, figure, value)
    if closest is None:
        kind = "percentage" if mention.is_percent else "amount"
        return NumberCheck(**base, status="not_found", message=f"no {kind} in {refs} to check {mention.text} against")
    _, n, figure, value = closest
    return NumberCheck(**base, status="mismatch", citation=n, source_text=figure.text, source_value=value,
                       message=f"answer says {mention.text} but [{n}] says {figure.text}")
