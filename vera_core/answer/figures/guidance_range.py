"""A range management guides to, as a release states it in a sentence ("Initiates Second Quarter FY24 Revenue Guidance of
$8.51 Billion to $8.53 Billion"): the range, or its low or high end, for the item and period a question asks
("What range did Salesforce give for full-year fiscal 2024 revenue in its guidance?", "What was the low end of Q2 FY24
revenue guidance?").

A sentence answers when it is forward-looking (guidance, outlook, expects, range), holds every word of the item asked
and two figures joined as a range ("$8.51 Billion to $8.53 Billion", "$0.79 - $0.80"), and names the period asked
before them: the quarter asked (its fiscal year named, or the document's own), or a full fiscal year ("Full Year FY24",
"fiscal 2024") when a year is asked. Every sentence that answers states the same range; two that differ leave the
question unanswered. A range is never stated as a single figure unless an end of it is asked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from vera_core.answer.compose import Piece
from vera_core.answer.figures.gates import as_fiscal_quarter
from vera_core.answer.contract import Calculation, CalculationOperand, Figure, FigureCell
from vera_core.answer.numbers import NumberMention, find_numbers
from vera_core.answer.units import Unit
from vera_core.documents.identity import Identity, quarter_labels
from vera_core.finance.money import money, scale_name
from vera_core.questions.stated import terms
from vera_core.records import Period
from vera_core.tables.periods import _full_year

__all__ = ["GuidedRange", "asks_guided_range", "guided_range", "item_subject", "midpoint", "range_pieces"]

_GUIDED = re.compile(r"\b(?:guidance|guided?|guiding|outlook|forecast\w*|expect\w*|projected|range)\b", re.I)
"""Words that make a sentence, or a question, forward-looking."""
_LOW = re.compile(r"\blow(?:er)?[\s-]+end\b|\bbottom\s+(?:end|of\s+the\s+range)\b|\bminimum\b", re.I)
_HIGH = re.compile(r"\bhigh(?:er)?[\s-]+end\b|\btop\s+(?:end|of\s+the\s+range)\b|\bmaximum\b", re.I)
_MID = re.compile(r"\bmid[\s-]?point\b|\bmiddle\s+of\b|\bmid[\s-]range\b", re.I)
_JOINED = re.compile(r"^\s*(?:to|-|\u2013|\u2014|and)\s*$", re.I)
"""What joins a range's two ends ("$8.51 Billion to $8.53 Billion", "$0.79 - $0.80")."""
_FULL_YEAR = re.compile(r"\bfull[\s-]+(?:fiscal\s+)?year\b|\bfiscal\s+(?:year\s+)?(?:20\d\d|\d\d)\b|\bFY\s?'?\d\d\b|\bannual\b", re.I)
_FISCAL_YEAR = re.compile(r"\bFY\s?'?(?P<yy>\d\d)\b|\bfiscal\s+(?:year\s+)?(?P<y>20\d\d)\b|\b(?P<y2>20\d\d)\b", re.I)
_ASKING = frozenset(terms("what which how range give gave guid guidance guided outlook forecast expect expected low lower "
                          "high higher end bottom top minimum maximum midpoint its their the company management say said "
                          "full year fiscal quarter gave given provided issued mid point middle bn billion billions million millions mm usd "
                          "dollar dollars"))
"""Words of a question that ask for the range, never the item's."""


@dataclass(frozen=True)
class GuidedRange:
    """The range one or more sentences state for the item and period asked."""

    unit: Unit
    low: NumberMention
    high: NumberMention
    period: str
    """The period as the sentence names it ("Second Quarter FY24")."""
    end: str
    """'low', 'high', 'mid' (its midpoint) or '' (the whole range) as asked."""


def asks_guided_range(question: str) -> bool:
    """Whether a question asks for a range management guided to, or an end of it."""
    return bool(_GUIDED.search(question)) and bool(re.search(r"\brange\b|\blow(?:er)?[\s-]+end\b|\bhigh(?:er)?[\s-]+end\b|"
                                                              r"\bguid\w*|\boutlook\b|\bforecast\w*", question, re.I))


def guided_range(question: str, asked: Period, asked_words: Sequence[str], company: set[str] | frozenset[str],
                 units: Sequence[Unit], identities: Mapping[str, Identity]) -> GuidedRange | None:
    """The range the sentences of `units` guide to for the item `question` names in the period `asked`; None when no
    sentence states one, or two state different ranges."""
    item = _item(question, asked_words, company)
    if not item:
        return None
    end = "low" if _LOW.search(question) else "high" if _HIGH.search(question) else "mid" if _MID.search(question) else ""
    found: list[GuidedRange] = []
    for unit in units:
        if unit.chunk.kind == "table":
            continue
        text = " ".join(unit.text.split())
        if not _GUIDED.search(text):
            continue
        numbers = [n for n in find_numbers(text) if not n.is_year]
        for low, high in zip(numbers, numbers[1:]):
            if not _JOINED.match(text[low.end:high.start]) or low.is_percent != high.is_percent:
                continue
            if low.scale == 1 and high.scale > 1 and not low.is_percent:
                # NOTE: "$45-48 billion": the low end in the high end's scale
                low = replace(low, value=low.value * high.scale, scale=high.scale,
                              text=f"{low.text} {scale_name(high.scale)}".strip())
            if low.value > high.value:
                continue
            before = text[:low.start]
            if not item <= set(terms(before)):
                continue
            period = _period_named(before, asked, identities.get(unit.chunk.doc_id))
            if period:
                found.append(GuidedRange(unit, low, high, period, end))
            break  # NOTE: the first range after the item is its guidance; a later one is another item's
    ranges = {(round(f.low.value, 6), round(f.high.value, 6)) for f in found}
    return found[0] if len(ranges) == 1 else None


def item_subject(question: str, asked_words: Sequence[str], company: set[str] | frozenset[str]) -> str:
    """The item as the question writes it ("full-year fiscal 2024 revenue" -> "Revenue")."""
    item = _item(question, asked_words, company)
    words = [w for w in re.findall(r"[A-Za-z][\w&'-]*", question) if set(terms(w)) and set(terms(w)) <= item]
    subject = " ".join(dict.fromkeys(words))
    return subject[:1].upper() + subject[1:]


_GIVEN_WITH = re.compile(r"\b(?:gave|given|provided|issued|offered|shared|announced|published)\s+(?:with|in|alongside|at|on)\b"
                         r"[^?,;]*", re.I)
"""Where the guidance was given ("the outlook Meta gave with its Q3 2024 results"): no words of the item."""


def _item(question: str, asked_words: Sequence[str], company: set[str] | frozenset[str]) -> set[str]:
    text = _GIVEN_WITH.sub(" ", question)
    for words in asked_words:
        text = text.replace(words, " ")
    return {t for t in terms(text) if t not in _ASKING and t not in company and not t.isdigit()}


def _period_named(before: str, asked: Period, identity: Identity | None) -> str:
    """The words naming the asked period in the words before a range, or '' when they name another (or none)."""
    asked = as_fiscal_quarter(asked, identity)
    quarters = quarter_labels(before)
    year = _FISCAL_YEAR.search(before)
    named_year = _full_year(year.group("y") or year.group("y2") or year.group("yy")) if year else None
    if asked.kind == "quarter":
        if len(quarters) != 1 or quarters[0][1] != asked.quarter:
            return ""
        fiscal = quarters[0][0] or named_year or (identity.fiscal_year if identity else None)
        return f"Q{asked.quarter} FY{str(fiscal)[-2:]}" if fiscal == asked.year else ""
    if asked.kind in ("year", "fiscal_year"):
        if quarters or not _FULL_YEAR.search(before):
            return ""
        fiscal = named_year or (identity.fiscal_year if identity else None)
        return f"full year FY{str(fiscal)[-2:]}" if fiscal == asked.year else ""
    return ""


def range_pieces(found: GuidedRange, doc_name: str, subject: str) -> tuple[list[Piece], list[Figure]]:
    """The claims for the range (one per end) or the end asked, each citing the sentence, with a figure record each."""
    chunk = found.unit.chunk
    where = f"stated in a sentence of {doc_name}, page {chunk.page_start}"
    span = f"{found.low.text} to {found.high.text}"
    if found.end:
        mention = found.low if found.end == "low" else found.high
        texts = [f"{subject} guidance, {found.period}, {found.end} end: {mention.text} (of the range {span}; {where})."]
        stated = [mention]
    else:  # NOTE: one claim per end, each with its figure record (an answer's pieces and figures run in step)
        texts = [f"{subject} guidance, {found.period}: from {found.low.text} (low end)",
                 f"to {found.high.text} (high end), {where}."]
        stated = [found.low, found.high]
    quote = found.unit.quote
    figures = [Figure(line_item=f"{subject} guidance", row_label=f"{subject} guidance", period=found.period, period_end="",
                      value=round(m.value / (1.0 if m.is_percent else m.scale), 6), unit="%" if m.is_percent else (m.currency or ""),
                      scale=1.0 if m.is_percent else m.scale, printed=m.text, printed_scale=1.0 if m.is_percent else m.scale,
                      cell=FigureCell(chunk_id=chunk.chunk_id, row=-1, col=-1, page=chunk.page_start), source="sentence")
               for m in stated]
    return [Piece(text, chunk, quote, checked=quote) for text in texts], figures


def midpoint(found: GuidedRange, doc_name: str, subject: str) -> tuple[str, list[Piece], Calculation]:
    """The lead stating a guided range's midpoint, computed over its two ends, the claims citing each end, and the
    calculation."""
    pieces, _ = range_pieces(replace(found, end=""), doc_name, subject)
    low, high = found.low, found.high
    percent = low.is_percent
    value = (low.value + high.value) / 2
    scale = 1.0 if percent else high.scale
    plain = lambda v: f"{v / scale:,.4f}".rstrip("0").rstrip(".")  # noqa: E731
    shown = plain(value)
    said = f"{shown}%" if percent else money(value / scale, high.currency or low.currency or "", scale,
                                            len(shown.partition(".")[2]))
    expression = f"({plain(low.value)} + {plain(high.value)}) / 2 = {shown}"
    lead = (f"{subject} guidance, {found.period}, midpoint: {said} (the middle of the range {low.text} to {high.text}). "
            f"Calculation: {expression}.")
    operands = [CalculationOperand(name=f"{end} end", row_label=f"{subject} guidance", value=m.value,
                                   period=found.period, unit="%" if percent else (m.currency or high.currency or ""),
                                   printed=m.text, cell=None) for end, m in (("low", low), ("high", high))]
    calculation = Calculation(metric=f"{subject} guidance midpoint", definition="(low end + high end) / 2",
                              source="text", expression=expression, result=round(value, 10), rounded=said,
                              unit="percent" if percent else "amount", period=found.period, operands=operands)
    return lead, pieces, calculation
