"""A change or total over amounts the text states -> the answer's lead, one cited piece per operand
(the sentence it is printed in) and the calculation ("Increase: $400,000,000 (from $3,800,000,000,
terminated, to $4,200,000,000, new). Calculation: 4,200,000,000 - 3,800,000,000 = 400,000,000")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vera_core.answer.compose import Piece
from vera_core.answer.contract import Calculation, CalculationOperand
from vera_core.answer.units import Unit
from vera_core.answer.figures.stated import StatedAmount, compute
from vera_core.questions.stated import StatedAsk
from vera_core.finance.money import half_up, money

__all__ = ["DEFINITIONS", "StatedEvidence", "stated_evidence"]

DEFINITIONS = {
    "change": "the amount after the change - the amount before it, both as the text states them",
    "total": "the sum of the current amounts the text states for each item",
}
_ROLE_WORDS = {"before": "before", "after": "after", "change": "change", "": "current"}


@dataclass(frozen=True)
class StatedEvidence:
    """The lead sentence, one cited piece per operand and the calculation; or what is missing."""

    lead: str = ""
    pieces: tuple[Piece, ...] = ()
    calculation: Calculation | None = None
    missing: str = ""


def stated_evidence(ask: StatedAsk, units: Sequence[Unit], doc_names: Mapping[str, str]) -> StatedEvidence:
    """The change or total `ask` asks, computed over the amounts `units` state (best-ranked first)."""
    found = compute(ask, units)
    metric = f"{'change in' if ask.kind == 'change' else 'total of'} {ask.subject}"
    if found.result is None:
        where = _where(units, doc_names)
        return StatedEvidence(missing=f"No {ask.kind} is computed: {found.missing} (read {where}).",
                              calculation=Calculation(metric=metric, definition=DEFINITIONS[ask.kind], source="text",
                                                      expression="", unit="amount", missing=[found.missing]))
    ops = found.operands
    percent = ops[0].percent
    shown = _shown(found.result, ops, ask)
    if found.printed_change:
        lead = f"The text states the {ask.kind} itself: {shown}."
        expression = ops[0].mention.text
    elif ask.kind == "change":
        before, after = ops
        word = "Increase" if found.result > 0 else "Decrease" if found.result < 0 else "No change"
        lead = f"{word}: {shown.lstrip('-')}, from {before.mention.text} to {after.mention.text}."
        expression = f"{_plain(after.value, percent)} - {_plain(before.value, percent)} = {_plain(found.result, percent)}"
        lead += f" Calculation: {expression}."
    else:
        lead = f"Total: {shown}."
        expression = " + ".join(_plain(a.value, percent) for a in ops) + f" = {_plain(found.result, percent)}"
        lead += f" Calculation: {expression}."
    pieces = tuple(_piece(a) for a in ops)
    calculation = Calculation(
        metric=metric, definition=DEFINITIONS[ask.kind], source="text", expression=expression,
        result=round(found.result, 10), rounded=shown, unit="percent" if percent else "amount",
        operands=[_record(a) for a in ops])
    return StatedEvidence(lead=lead, pieces=pieces, calculation=calculation)


def _shown(value: float, ops: Sequence[StatedAmount], ask: StatedAsk) -> str:
    if ops[0].percent:
        return f"{_trim(half_up(value, 2))} percentage point{'' if abs(value) == 1 else 's'}"
    scale = min(a.mention.scale or 1.0 for a in ops)
    shown = value / scale
    digits = 0 if float(shown).is_integer() else 2
    return money(shown, ops[0].mention.currency or "", scale, digits)


def _plain(value: float, percent: bool) -> str:
    """A value as the calculation shows it: whole amounts with separators, else up to four decimals."""
    return _trim(half_up(value, 4)) if percent or value != int(value) else half_up(value, 0)


def _trim(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


def _piece(a: StatedAmount) -> Piece:
    role = _ROLE_WORDS[a.role]
    cue = f" ({a.cue})" if a.cue and a.cue not in (role,) else ""
    text = f"{role[:1].upper()}{role[1:]}{cue}: {a.mention.text}" + (f", {a.name}." if a.name else ".")
    return Piece(text, a.unit.chunk, a.unit.quote, checked=a.unit.quote)


def _record(a: StatedAmount) -> CalculationOperand:
    return CalculationOperand(
        name=a.name or a.mention.text, value=a.value, period=f"{_ROLE_WORDS[a.role]}{f' ({a.cue})' if a.cue else ''}",
        unit="%" if a.percent else (a.mention.currency or ""), printed=a.mention.text, statement="", cell=None)


def _where(units: Sequence[Unit], doc_names: Mapping[str, str]) -> str:
    pages: dict[str, set[int]] = {}
    for u in units:
        pages.setdefault(u.chunk.doc_id, set()).update(u.chunk.pages)
    if not pages:
        return "no passage"
    parts = []
    for doc, ps in pages.items():
        name = doc_names.get(doc, doc)
        parts.append(f"{name} pages {', '.join(str(p) for p in sorted(ps)[:12])}" if ps else name)
    return "; ".join(parts)
