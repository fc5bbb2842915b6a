"""A figure a release or deck states in a sentence and in no table: "Headcount was 72,404 as of September 30, 2024,
an increase of 9% year-over-year." answers "META headcount at end of 3Q24?".

Read only when the question asks one quarter's (or one date's) figure and no row answers it. A sentence answers when
- the words before its figure name the item asked, in the clause that holds it ("Headcount was", "Family daily
  active people (DAP) was"): every word of the question's item, and no word of a change or share of it ("growth",
  "increase", "margin") the question does not ask;
- a verb that states a level stands before the figure ("was", "were", "totaled", "reached"), never a bound ("more
  than", "over");
- its period is the one asked: the date it names is that quarter's end, the month it names that quarter's last, or
  it names no period and its document is that quarter's release or deck; a forward-looking sentence never answers;
- every sentence that answers states the same figure: two that differ leave the question unanswered.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vera_core.answer.compose import Piece
from vera_core.answer.figures.gates import as_fiscal_quarter
from vera_core.answer.contract import Figure, FigureCell
from vera_core.answer.numbers import NumberMention, find_numbers
from vera_core.answer.units import Unit
from vera_core.documents.identity import Identity
from vera_core.finance.dates import MONTH_YEAR, MONTH_WORD, MONTHS, QUARTER_ORDINALS, YEAR_WORD
from vera_core.questions.stated import terms
from vera_core.text import FIGURE_ASK_WORDS
from vera_core.records import Period
from vera_core.tables.periods import dates_in

__all__ = ["SentenceFigure", "sentence_figure", "stated_piece"]

_LEVEL_VERB = re.compile(r"(?:^|\s)(?:was|were|is|are|totall?ed|reached|stood\s+at|came\s+in\s+at|amounted\s+to|of|delivered|"
                         r"generated|"
                         r"ended\s+(?:the\s+(?:quarter|period|year)\s+)?at)\s+(?:approximately\s+|about\s+|roughly\s+)?$",
                         re.I)
"""The words right before a stated level ("Headcount was 72,404"); a bound ("more than 3 billion") is not one."""
_DERIVED = {"growth", "grow", "increas", "decreas", "declin", "chang", "margin", "rate", "percent", "percentag",
            "share", "ratio", "yoy", "mix", "guidanc", "outlook", "expect"}
"""Words that make a figure a change, share or forecast of an item rather than the item."""
_FORWARD = re.compile(r"\b(?:expect\w*|anticipat\w*|outlook|guidance|forecast\w*|project\w*|will|would|could|"
                      r"should|(?-i:may)|plan\w*|intend\w*|target\w*|range)\b", re.I)
_QUARTER_WORDS = re.compile(r"\b(?:quarter|Q[1-4]|[1-4]Q|three\s+months|year|annual|full[\s-]year|nine\s+months|"
                            r"six\s+months|half|(?:19|20)\d\d)\b", re.I)


@dataclass(frozen=True)
class SentenceFigure:
    """A figure one sentence states for the item and period asked."""

    unit: Unit
    mention: NumberMention
    subject: str
    """The words naming it, as printed ("Headcount")."""
    period: str
    """The period it is of, as the sentence or its document names it ("as of September 30, 2024")."""

    @property
    def amount(self) -> float:
        return self.mention.value


def sentence_figure(question: str, asked: Period, asked_words: Sequence[str], company: set[str] | frozenset[str],
                    units: Sequence[Unit], identities: Mapping[str, Identity]
                    ) -> tuple[SentenceFigure | None, list[SentenceFigure]]:
    """The figure the sentences of `units` state for the item `question` names in the period `asked`, and every
    sentence found; (None, found) when none is found or two disagree."""
    item = _item_terms(question, asked_words, company)
    if not item:
        return None, []
    found: list[SentenceFigure] = []
    seen: set[tuple[str, int]] = set()
    for unit in units:
        if unit.chunk.kind == "table" or (unit.chunk.chunk_id, unit.order) in seen:
            continue
        seen.add((unit.chunk.chunk_id, unit.order))
        identity = identities.get(unit.chunk.doc_id)
        if identity is None:
            continue
        text = " ".join(unit.text.split())
        if _FORWARD.search(text):
            continue
        for mention in find_numbers(text):
            if mention.is_year:
                continue
            # NOTE: "... products delivered $341 million of revenue in the second quarter": the noun after the figure
            # names it too
            of = _OF_NOUN.match(text, mention.end)
            named_after = terms(of.group("noun")) if of else set()
            subject = next((s for s in _subjects(text[:mention.start]) if item <= terms(s) | named_after), None)
            if subject is None or (terms(subject) & _DERIVED) - item:
                continue
            subject = f"{subject} ({of.group('noun')})" if of and not named_after <= terms(subject) else subject
            period = _period_of(text, mention, asked, identity, of.end() if of else mention.end)
            if period:
                found.append(SentenceFigure(unit, mention, subject, period))
            break  # NOTE: only the first figure after the item is its level ("72,404 ..., an increase of 9%")
    values = {round(f.amount, 6) for f in found}
    return (found[0] if len(values) == 1 else None), found


def _item_terms(question: str, asked_words: Sequence[str], company: set[str] | frozenset[str]) -> set[str]:
    """The words of the item a question asks, without its period, company and asking words."""
    text = question
    for words in asked_words:
        text = text.replace(words, " ")
    return {t for t in terms(text) if t not in FIGURE_ASK_WORDS and t not in company and not re.search(r"\d", t)}


def _subjects(before: str) -> list[str]:
    """The words naming a figure, shortest first: its clause's words before the level verb ("Headcount"), then the
    words back to the last strong break, a list of items included ("Cash, cash equivalents, and marketable
    securities"); none when no level verb stands there."""
    verb = _LEVEL_VERB.search(before)
    if not verb:
        return []
    head = before[:verb.start()]
    # NOTE: "eBay's first-party advertising products, primarily driven by Promoted Listings, delivered": the clause an
    # aside between commas interrupts
    unset = _ASIDE.sub(" ", head)
    out = [part.strip() for part in (_CLAUSE.split(head)[-1], _STRONG_BREAK.split(head)[-1], _CLAUSE.split(unset)[-1])]
    return [p for i, p in enumerate(out) if 0 < len(p.split()) <= 10 and p not in out[:i]]


_ASIDE = re.compile(r",\s*(?:primarily|mainly|largely|partly|led|driven|including|excluding|which|as|such)\b[^,]{0,80},\s*$", re.I)
"""An aside between commas just before a level's verb ("..., primarily driven by Promoted Listings, delivered")."""
_OF_NOUN = re.compile(r"\s+(?:of|in)\s+(?P<noun>revenues?|sales|net\s+revenues?|gross\s+merchandise\s+volume|GMV|"
                      r"operating\s+income|net\s+income|free\s+cash\s+flow|bookings)\b", re.I)
"""The noun a figure is of, printed after it ("$341 million of revenue")."""
_STRONG_BREAK = re.compile(r"[;:•●▪\u2013\u2014()]|\s-\s")
_CLAUSE = re.compile(rf"{_STRONG_BREAK.pattern}|,|\b(?:and|while|with|whereas)\s")


def _period_of(text: str, mention: NumberMention, asked: Period, identity: Identity, end: int | None = None) -> str:
    """The period words of the sentence when they are the period asked, '' when they name another or none that can
    be placed; a sentence naming no period is its document's, and "in the second quarter" right after the figure (and
    the noun it is of, ending at `end`) is the document's when its quarter is the second."""
    after = text[mention.end:]
    own = _OWN_PERIOD.match(after)  # the words right after the figure ("as of September 30, 2024")
    asked = as_fiscal_quarter(asked, identity)  # NOTE: "the June 2024 quarter": the company's fiscal quarter
    quarter_asked = asked.kind == "quarter" and (identity.fiscal_year, identity.fiscal_quarter) == (asked.year, asked.quarter)
    ordinal = _OWN_QUARTER.match(text, end if end is not None else mention.end)
    if ordinal:
        said = QUARTER_ORDINALS.get((ordinal.group("o") or "").lower(), identity.fiscal_quarter)
        rest = text[ordinal.end():]
        return ordinal.group(0).strip() if quarter_asked and said == identity.fiscal_quarter and not dates_in(rest) \
            and not _QUARTER_WORDS.search(_COMPARED.sub(" ", rest)) else ""
    target = identity.period_end if asked.kind == "quarter" else asked.end
    if own:
        dates = dates_in(own.group(0))
        if dates:
            return own.group(0).strip() if target and dates[0] == target and (quarter_asked or asked.kind != "quarter") else ""
        month = MONTH_YEAR.search(own.group(0))  # "on average for September 2024": the quarter's last month
        if month and quarter_asked and identity.period_end and \
                identity.period_end[:7] == f"{month.group('y')}-{MONTHS[month.group('m').lower().rstrip('.')[:3]]:02d}":
            return own.group(0).strip()
        return ""
    if dates_in(text) or _QUARTER_WORDS.search(_COMPARED.sub(" ", text)):
        return ""  # NOTE: a period the sentence names elsewhere may not be the figure's: not taken
    return f"Q{asked.quarter} {asked.year}" if quarter_asked else ""


_OWN_QUARTER = re.compile(r"\s*(?:in|for|during)\s+the\s+(?:(?P<o>first|second|third|fourth)\s+)?quarter\b"
                          r"(?!\s+(?:of\s+)?(?:fiscal\s+)?(?:19|20)\d\d)", re.I)
"""The quarter printed right after a figure without its year ("in the second quarter", "in the quarter"): the document's."""
_COMPARED = re.compile(r"\b(?:year|quarter)[\s-]+(?:over|on)[\s-]+(?:year|quarter)\b", re.I)
"""A comparison ("an increase of 9% year-over-year"), not a period."""
_OWN_PERIOD = re.compile(rf"\s*(?:(?:on\s+)?average\s+)?(?:as\s+of|at|on|for|in)\s+(?:the\s+(?:end\s+of\s+)?)?"
                         rf"(?=(?-i:[A-Z])){MONTH_WORD}\s+(?:\d{{1,2}},?\s+)?{YEAR_WORD}\b", re.I)
"""The period printed right after a figure: a date ("as of September 30, 2024") or a month ("on average for
September 2024")."""


def stated_piece(found: SentenceFigure, doc_name: str) -> tuple[Piece, Figure]:
    """One plain sentence for the figure, citing the sentence that states it, and its record."""
    mention, chunk = found.mention, found.unit.chunk
    percent = mention.is_percent
    currency = "%" if percent else (mention.currency or "")
    scale = 1.0 if percent else mention.scale
    text = (f"{found.subject[:1].upper()}{found.subject[1:]}, {found.period}: {mention.text} "
            f"(stated in a sentence of {doc_name}, page {chunk.page_start}; no table prints it).")
    quote = found.unit.quote
    piece = Piece(text, chunk, quote, checked=quote)
    figure = Figure(line_item=found.subject, row_label=found.subject, period=found.period, period_end="",
                    value=round(mention.value / scale, 6), unit=currency, scale=scale, printed=mention.text,
                    printed_scale=scale, cell=FigureCell(chunk_id=chunk.chunk_id, row=-1, col=-1, page=chunk.page_start),
                    source="sentence")
    return piece, figure
