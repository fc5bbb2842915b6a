"""How a guided range moved between two of a company's releases ("Between the Q1 FY24 and Q2 FY24 Salesforce releases, by
how much did the midpoint of full-year FY24 non-GAAP EPS guidance move?"): the range each release guides to for the item
and period asked (`figures.guidance_range`), the end asked of each (its midpoint, low or high end), and VERA's
difference, later less earlier, every end cited. Read only when the question asks a move of one end of the guidance over
two or more releases in scope; when either release states no range, no figure is stated."""

from __future__ import annotations

import re
from dataclasses import replace

from vera_core.answer.contract import Calculation, CalculationOperand, PeriodResult
from vera_core.answer.figures.guidance_range import GuidedRange, guided_range, item_subject, range_pieces
from vera_core.answer.figures.metric_answer import significant
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.strategies.search import company_of
from vera_core.answer.units import split_units
from vera_core.documents.identity import Identity
from vera_core.finance.money import money
from vera_core.questions.figure import asked_periods

__all__ = ["MOVED_RULE", "guidance_move"]

_MOVED = re.compile(r"\b(?:mov(?:e|ed|es)|chang(?:e|ed|es)|shift(?:ed|s)?|rais(?:e|ed|es)|lower(?:ed|s)?|revis(?:e|ed|es|ion)|"
                    r"(?:go|went|gone)\s+(?:up|down))\b", re.I)
"""A move asked of the guidance between releases ("by how much did the midpoint ... move", "how was it raised")."""
_NOT_THE_ITEM = re.compile(r"\b(?:between|from|across)\s+(?:the\s+|its\s+)?[^,?]{0,80}?\b(?:releases?|decks?|documents?|reports?|"
                           r"presentations?)\b\s*,?|\b(?:by\s+)?how\s+much\b|\b(?:releases?|decks?|documents?)\b", re.I)
"""The words of a move that name the documents it runs across and ask how much: none of the guided item."""
_END = {"mid": "midpoint", "low": "low end", "high": "high end"}
MOVED_RULE = "metric:guidance-move"
MOVED_NOTICE = "Each end is the range a release states in a sentence; the move is VERA's difference, later less earlier."


def guidance_move(plan: Plan, services: Services) -> tuple[Plan, Evidence] | None:
    """The change of the end of guidance asked between the earliest and latest release in scope that state a range for the
    item and period asked; None when the question asks no move of one end over two releases."""
    periods, words = asked_periods(plan.question)
    scope = list(plan.intent.doc_scope or ())
    if not _MOVED.search(plan.question) or len(periods) != 1 or len(scope) < 2:
        return None
    identities = {doc_id: Identity.from_dict(doc.identity) for doc_id in scope
                  if (doc := services.ws.catalog.document(doc_id)) is not None and doc.identity}
    ordered = sorted((d for d in identities if identities[d].fiscal_year and identities[d].fiscal_quarter),
                     key=lambda d: (identities[d].fiscal_year, identities[d].fiscal_quarter))
    company = company_of(services, scope).words
    asked = " ".join(_MOVED.sub(" ", _NOT_THE_ITEM.sub(" ", plan.question)).split())
    found = []
    for doc_id in ordered:
        units = [u for c in services.ws.doc_chunks(doc_id) if c.kind != "table" for u in split_units(c)]
        one = guided_range(asked, periods[0], words, company, units, {doc_id: identities[doc_id]})
        if one is not None:
            found.append(one)
    if len(found) < 2 or found[0].end not in _END:
        return None
    first, last = found[0], found[-1]
    names = services.doc_names()
    subject = item_subject(asked, words, company)
    pieces = [p for f in (first, last) for p in range_pieces(replace(f, end=""), _name(names, f), subject)[0]]
    before, after = _at(first), _at(last)
    change = after - before
    scale = 1.0 if first.low.is_percent else first.high.scale
    unit = "%" if first.low.is_percent else first.high.currency or ""
    shown = money(change / scale, unit, scale, 2) if unit != "%" else f"{change:+.2f} percentage points"
    end = _END[first.end]
    plain = f"{change / scale:,.4f}".rstrip("0").rstrip(".")
    lead = (f"{subject} guidance, {first.period}, {end}: moved by {shown} from {_name(names, first)} "
            f"({money(before / scale, unit, scale, 2)}) to {_name(names, last)} ({money(after / scale, unit, scale, 2)}). "
            f"Calculation: {_expression(last, scale)} - {_expression(first, scale)} = {plain}.")
    operands = [CalculationOperand(name=f"{which} end ({_name(names, f)})", row_label=f"{subject} guidance", value=m.value,
                                   period=f.period, unit=unit, printed=m.text, cell=None)
                for f in (first, last) for which, m in (("low", f.low), ("high", f.high))]
    calculation = Calculation(metric=f"{subject} guidance {end} move", definition=f"later {end} less earlier {end}",
                              source="library", expression=f"{_expression(last, scale)} - {_expression(first, scale)}",
                              result=significant(change / scale), rounded=shown, unit="amount", period=first.period,
                              operands=operands, results=[PeriodResult(period=first.period, result=significant(change / scale),
                                                                       rounded=shown)])
    intent = plan.intent.model_copy(update={"type": "metric", "rule": MOVED_RULE, "numeric": True})
    return replace(plan, intent=intent), Evidence(pieces=tuple(pieces), lead=lead, calculation=calculation,
                                                  notices=(MOVED_NOTICE,))


def _at(found: GuidedRange) -> float:
    """The end asked of a range: its midpoint, low or high end."""
    return (found.low.value + found.high.value) / 2 if found.end == "mid" else \
        found.low.value if found.end == "low" else found.high.value


def _expression(found: GuidedRange, scale: float) -> str:
    low, high = f"{found.low.value / scale:,.4g}", f"{found.high.value / scale:,.4g}"
    return f"({low} + {high}) / 2" if found.end == "mid" else low if found.end == "low" else high


def _name(names, found: GuidedRange) -> str:
    return names.get(found.unit.chunk.doc_id, found.unit.chunk.doc_id)
