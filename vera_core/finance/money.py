"""Money as filings print it and analysts write it, defined once: currencies by name and sign, scale
words, printed figures and scale lines ("(1,577)" -> -1577, "—" -> nil, "(5.9)%" -> -5.9 %, "(In millions,
except per share amounts)" -> 1e6 USD), and amounts written back ("-$1,577 million")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

SCALES = {"units": 1.0, "thousands": 1e3, "millions": 1e6, "billions": 1e9}
SCALE_NAMES = {1.0: "", 1e3: "thousand", 1e6: "million", 1e9: "billion", 1e12: "trillion"}
_NIL = re.compile(r"^[-–—]+$|^(?:n/?a|nm|n/m|nil)$", re.I)
_FIGURE = re.compile(r"^(?P<cur0>[$€£¥])?\s*(?P<open>\()?\s*(?P<sign>[-–—−+])?\s*(?P<cur>[$€£¥])?\s*"
                     r"(?P<sign2>[-–—−])?\s*"
                     r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
                     r"(?:(?<=\d)(?P<suffix>(?-i:[KMB])|bn|mn|mm)(?![A-Za-z]))?\s*(?P<close>\))?\s*"
                     r"(?P<pct>%|pts?|bps)?\s*(?P<close2>\))?\s*(?P<mark>\*+|\(\w\)|[¹²³⁴⁵⁶⁷⁸⁹])?$", re.I)
_PAREN_SCALE = re.compile(r"\(\s*(?:[$€£]\s*)?(?:in\s+)?(?:thousands|millions|billions)\b[^)]*\)|"
                          r"\b(?:in|amounts\s+in|dollars\s+in|(?:USD|EUR|GBP|US\$|\$|€|£)\s*(?:in\s+)?)\s*"
                          r"(?:thousands|millions|billions)\b|\b(?:USD|EUR|GBP|CHF|JPY)\s+(?:thousands?|millions?|billions?)\b|"
                          r"^\s*\(?(?:thousands|millions|billions)\)?\s*$", re.I)


@dataclass(frozen=True)
class Currency:
    """One currency as documents and questions write it."""

    code: str
    """ISO 4217."""
    names: str
    """How it is named in words, as a pattern ("Canadian\\s+dollars?")."""
    symbols: tuple[str, ...] = ()
    """Signs printed before an amount ("C$"), longest first."""
    aliases: tuple[str, ...] = ()
    """Other codes written for it ("RMB")."""
    sign: str = ""
    """The sign an answer writes before an amount ("$"); the code otherwise ("CAD 1,204 million")."""


CURRENCIES: tuple[Currency, ...] = (
    Currency("USD", r"U\.\s?S\.\s?dollars?|US\s?dollars?|United\s+States\s+dollars?|U\.S\.\s?\$", ("US$", "$"), sign="$"),
    Currency("CAD", r"Canadian\s+dollars?", ("C$",)),
    Currency("AUD", r"Australian\s+dollars?", ("A$",)),
    Currency("HKD", r"Hong\s+Kong\s+dollars?", ("HK$",)),
    Currency("SGD", r"Singapore\s+dollars?", ("S$",)),
    Currency("NZD", r"New\s+Zealand\s+dollars?"),
    Currency("EUR", r"euros?", ("€",), sign="€"),
    Currency("GBP", r"pounds?\s+sterling|sterling|British\s+pounds?", ("£",), sign="£"),
    Currency("CHF", r"Swiss\s+francs?"),
    Currency("JPY", r"Japanese\s+yen|yen", ("¥",), sign="¥"),
    Currency("SEK", r"Swedish\s+kron(?:a|or)"),
    Currency("NOK", r"Norwegian\s+kron(?:e|er)"),
    Currency("DKK", r"Danish\s+kron(?:e|er)"),
    Currency("CZK", r"Czech\s+korun(?:a|y)"),
    Currency("PLN", r"Polish\s+zloty"),
    Currency("CNY", r"Chinese\s+yuan|renminbi", aliases=("RMB",)),
    Currency("INR", r"Indian\s+rupees?", ("₹",)),
    Currency("KRW", r"(?:South\s+)?Korean\s+won", ("₩",)),
    Currency("BRL", r"Brazilian\s+reais"),
    Currency("MXN", r"Mexican\s+pesos?"),
    Currency("ZAR", r"South\s+African\s+rand"),
)
"""Every currency VERA reads, once: the scale lines' names below, the answers' signs and the figure reader's codes
and symbols (`answer/numbers.py`) are all read from here."""
CURRENCY_SIGNS = {c.code: c.sign for c in CURRENCIES if c.sign}
"""The sign an answer writes before an amount, by code."""
CURRENCY_CODES: tuple[str, ...] = tuple(code for c in CURRENCIES for code in (c.code, *c.aliases))
"""Codes as printed beside figures ("USD 5.2 billion", "RMB 3bn")."""
CURRENCY_OF: dict[str, str] = {**{s: c.code for c in CURRENCIES for s in c.symbols},
                               **{a: c.code for c in CURRENCIES for a in c.aliases}}
"""The currency a symbol or another code stands for ("C$" -> CAD, "RMB" -> CNY)."""
CURRENCY_WORDS = {"dollars": "USD", "euros": "EUR"}
"""A bare currency word printed after a figure ("5 dollars")."""
# NOTE: longer names first, so "Canadian dollars" is not read as the bare "dollars"; the bare "$" is the last resort.
CURRENCY_NAMES: tuple[tuple[str, str], ...] = tuple(
    (c.code, "|".join([c.names, *(rf"{re.escape(code)}" for code in (c.code, *c.aliases)),
                       *(re.escape(s) for s in c.symbols if s != "$")])) for c in CURRENCIES) + (("USD?", r"dollars?"),)
_SIGNS = (("USD", r"\$"),)
SCALE_WORDS = r"thousands?|millions?|billions?|'000s?|000s|mn|bn"
"""Scale words of a legend ("in thousands", "EUR '000", "$bn")."""


def parse_figure(text: str) -> tuple[float | None, str]:
    """(value, unit) of a printed cell: unit '%' for percentages and points, '' for amounts.
    Parentheses or a leading minus make it negative, wherever the currency sign sits ("$(1,577)",
    "($1,577)"). A figure printed with its scale's letter ("$75M") gives its printed number (`printed_scale` gives the
    scale). A dash, n/a, a multiple ("1.2x") or any other text gives (None, '')."""
    t = text.strip().replace("\u2212", "-")
    if not t or _NIL.match(t):
        return None, ""
    m = _FIGURE.match(t)
    if not m:
        return None, ""
    value = float(m.group("num").replace(",", ""))
    negative = bool(m.group("open") and (m.group("close") or m.group("close2"))) or \
        (m.group("sign") or m.group("sign2") or "") in ("-", "–", "—")
    if m.group("open") and not (m.group("close") or m.group("close2")):
        return None, ""
    if m.group("suffix") and m.group("pct"):
        return None, ""
    return (-value if negative else value), ("%" if m.group("pct") else "")


def printed_scale(text: str) -> float:
    """The scale a cell prints on its own figure ("$1,076M" -> 1e6, "($18M)" -> 1e6, "$4.2bn" -> 1e9), 1.0 when none:
    decks and release highlights print each figure with its letter instead of a table's "(in millions)"."""
    m = _FIGURE.match(text.strip().replace("\u2212", "-"))
    suffix = (m.group("suffix") or "").lower() if m and not m.group("pct") else ""
    return _SUFFIX_SCALES.get(suffix, 1.0)


_SUFFIX_SCALES = {"k": 1e3, "m": 1e6, "mm": 1e6, "mn": 1e6, "b": 1e9, "bn": 1e9}


def scale_statement(text: str) -> tuple[float, str, str] | None:
    """The scale a caption or header line states, with its currency and the words that state it:
    "(In millions, except per share amounts)" -> (1e6, "USD"?, ...). None when the text states none.
    A bare "million" inside a sentence is not a scale line: only a parenthesised or "in millions"-style
    phrase, or a line that is nothing else, counts."""
    m = _PAREN_SCALE.search(text)
    if not m:
        return None
    phrase = m.group(0)
    scale_word = re.search(r"thousands?|millions?|billions?", phrase, re.I).group(0).lower().rstrip("s") + "s"
    return SCALES[scale_word], currency_in(text), phrase.strip()


_LABEL_SCALE = re.compile(r"\(\s*(?:in\s+)?(?:US)?(?:[$€£]\s*(?P<s>B|bn|billions?|M|mn|millions?|K|thousands?)"
                          r"|(?P<t>(?-i:B|M|K)|bn|billions?|mn|millions?|thousands?))\s*\)\s*$", re.I)
"""A row's own scale: "($B)", "(in millions)", "(B)"; a lower-case letter alone is a footnote's mark ("Europe(b)")."""
_LABEL_SCALES = {"b": 1e9, "bn": 1e9, "billion": 1e9, "billions": 1e9, "m": 1e6, "mn": 1e6, "million": 1e6,
                 "millions": 1e6, "k": 1e3, "thousand": 1e3, "thousands": 1e3}


_EXCEPTED = re.compile(r"\bexcept\s+(?:for\s+)?(?P<what>[^,();]{3,80}?),?\s+which\s+(?:is|are)\s+(?:presented|stated|shown|"
                       r"expressed|reported|disclosed)?\s*in\s+(?P<s>thousands|millions|billions)\b", re.I)


def scale_exceptions(text: str) -> list[tuple[str, float]]:
    """Rows a scale line excepts with a scale of their own: "(in millions, except remaining performance
    obligation, which is presented in billions)" -> [("remaining performance obligation", 1e9)]."""
    return [(m.group("what").strip(), _LABEL_SCALES[m.group("s").lower()]) for m in _EXCEPTED.finditer(text)]


def label_scale(label: str, letters: bool = True) -> float | None:
    """The scale a row label states for its own figures ("Revenue ($B)", "Net income (in millions)"),
    None when it states none. `letters=False`: not a bare capital letter ("(B)" may be a footnote's mark)."""
    m = _LABEL_SCALE.search(label)
    if m and not letters and re.fullmatch(r"[BMK]", m.group("t") or ""):
        return None
    return _LABEL_SCALES[(m.group("s") or m.group("t")).lower()] if m else None


def currency_in(text: str) -> str:
    """The ISO code of the first currency a scale line or header names ("U.S. dollars", "€", "CAD"),
    '' when none; a bare "dollars" or "$" is USD."""
    best: tuple[int, str] | None = None
    for code, pattern in CURRENCY_NAMES + _SIGNS:
        m = re.search(rf"(?<!\w)(?:{pattern})(?![A-Za-z])", text, re.I)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), code.rstrip("?"))
    return best[1] if best else ""


def scale_name(scale: float) -> str:
    """'million' for 1e6, '' for units."""
    return SCALE_NAMES.get(scale, "")


def exact(value: float) -> Decimal:
    """A float as the decimal it stands for, read at 15 significant digits: float noise below a
    tie is the tie (51 / 80 is 63.75% though the division gives 63.74999999999999)."""
    return Decimal(f"{value:.15g}")


def half_up(value: float, digits: int) -> str:
    """`value` rounded half up at `digits` decimals, with thousands separators."""
    return f"{exact(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP):,.{digits}f}"


def unit_words(currency: str, scale: float) -> str:
    """How a table's unit reads: "USD millions", "EUR thousands", "millions", "USD", ''."""
    word = scale_name(scale)
    return " ".join(x for x in (currency, f"{word}s" if word else "") if x)


def money_as_read(shown: float, currency: str, scale: float) -> str:
    """An amount already divided by `scale`, to two decimals below 100 and none from 100 ("$4,132 million", "$8.55
    billion"): how an answer states a figure it added or took away."""
    return money(shown, currency, scale, 2 if abs(shown) < 100 else 0)


def money(shown: float, currency: str, scale: float, digits: int) -> str:
    """An amount already divided by `scale`, as an analyst writes it: "-$1,577 million", "€980.5 million"."""
    sign = "-" if shown < 0 else ""
    word = scale_name(scale)
    symbol = CURRENCY_SIGNS.get(currency, f"{currency} " if currency else "")
    return f"{sign}{symbol}{half_up(abs(shown), digits)}" + (f" {word}" if word else "")
