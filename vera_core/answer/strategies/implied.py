"""A quarter's figure the documents do not print, worked out from what they do ("Using the 36-week year-to-date figure and
the two quarters, what net income attributable to Costco does that imply for Q2 FY2023?"): the year to date through a
later quarter (or the fiscal year) less every other quarter in it, each operand the figure the figure strategy reads
for its own period, cited; VERA's subtraction. Read only when the question asks what the figures imply (`IMPLIED_ASKED`)
of one quarter; when a period needed is not printed, no figure is stated and the answer says which."""

from __future__ import annotations

import re
from dataclasses import replace

from vera_core.answer.contract import Calculation, CalculationOperand, PeriodResult
from vera_core.answer.figures.metric_answer import significant
from vera_core.answer.figures.resolve import period_words
from vera_core.answer.strategies import figure
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.finance.money import money_as_read
from vera_core.questions.figure import FigureRequest, asked_periods, read_request
from vera_core.records import Period

__all__ = ["IMPLIED_ASKED", "IMPLIED_RULE", "implied_quarter"]

IMPLIED_ASKED = re.compile(r"\b(?:impl(?:y|ies|ied)|back(?:ed|ing)?\s+out|deriv(?:e|ed|es|ing)|infer(?:red|s)?)\b", re.I)
"""A figure asked as what others imply ("what does that imply for Q2", "back out Q4", "the implied Q2")."""
_FROM_WHOLE = re.compile(r"\byear[\s-]to[\s-]date\b|\bYTD\b|\bfull[\s-]year\b|\bfiscal[\s-]year\b|\bannual\b|\b(?:nine|six|9|6)"
                         r"[\s-]months?\b|\b\d{2}[\s-]weeks?\b|\bfirst\s+(?:half|nine)\b|\b[69]M\b|\bthe\s+(?:other|two|three)\s+"
                         r"quarters\b", re.I)
"""The whole the quarter is worked out from, named by the question (a year to date, the fiscal year, the other quarters)."""
_FORWARD = re.compile(r"\b(?:guid\w*|outlook|forecast\w*|project\w*|expect\w*|target\w*|consensus)\b", re.I)
"""What a question asks of a forecast: never a quarter worked out from printed figures."""
IMPLIED_RULE = "metric:implied-quarter"
NOT_IMPLIED = ("No figure is stated: the question asks what the printed figures imply for {quarter}, and VERA found no "
               "year to date through it or a later quarter (or fiscal year) printed with every other quarter in it, for "
               "{item}. Each period's figure can be asked on its own.")


def implied_quarter(plan: Plan, services: Services) -> tuple[Plan, Evidence] | None:
    """The quarter asked as the year to date through it, or through a later quarter, less the other quarters' figures;
    None when the question asks no one quarter's implied figure."""
    if not _FROM_WHOLE.search(plan.question) or _FORWARD.search(plan.question):
        return None  # NOTE: "what does the Q4 guidance imply for full-year growth?" asks of a forecast
    asked = _asked_quarter(plan.question)
    request = plan.request if isinstance(plan.request, FigureRequest) else read_request(plan.question)
    if asked is None or request is None or not (request.concepts or request.item_terms):
        return None
    item = request.concepts[0].name if request.concepts else " ".join(sorted(request.item_terms))
    for through in range(asked.quarter or 4, 5):
        whole = Period("year", "", asked.year) if through == 4 else Period("fiscal_months", "", asked.year, 3 * through)
        others = [Period("quarter", "", asked.year, 3, q) for q in range(1, through + 1) if q != asked.quarter]
        read = [_figure(plan, request, period, services) for period in (whole, *others)]
        if all(r is not None for r in read):
            return _answer(plan, item, asked, read)
    intent = plan.intent.model_copy(update={"type": "metric", "rule": IMPLIED_RULE, "numeric": True})
    return replace(plan, intent=intent), Evidence(empty_message=NOT_IMPLIED.format(quarter=period_words(asked), item=item),
                                                  unanswerable=True)


def _asked_quarter(question: str) -> Period | None:
    """The quarter whose figure is implied: the first named after the asking word, else the only one named."""
    m = IMPLIED_ASKED.search(question)
    periods, _ = asked_periods(question[m.end():]) if m else ([], [])
    after = [p for p in periods if p.kind == "quarter"]
    if not after:
        named = [p for p in asked_periods(question)[0] if p.kind == "quarter"]
        after = named if len(named) == 1 else []
    return after[0] if after and after[0].quarter else None


def _figure(plan: Plan, request: FigureRequest, period: Period, services: Services):
    """The one figure the figure strategy states for the item at `period`, with its evidence; None when it states none
    or several."""
    one = replace(plan, request=replace(request, periods=(period,), period_texts=(period_words(period),)),
                  intent=plan.intent.model_copy(update={"type": "figure", "rule": "figure:line-item", "numeric": True}))
    evidence = figure.gather(one, services)
    if evidence.empty_message or evidence.unanswerable or len(evidence.figures) != 1 or not evidence.pieces:
        return None
    found = evidence.figures[0]
    return (period, found, evidence.pieces[0]) if found.unit != "%" else None


def _answer(plan: Plan, item: str, asked: Period, read: list) -> tuple[Plan, Evidence]:
    (whole, total, _), rest = read[0], read[1:]
    scale = total.scale
    values = [f.value * f.scale for _, f, _ in read]
    result = values[0] - sum(values[1:])
    unit = total.unit
    shown = [money_as_read(v / scale, unit, scale) for v in values]
    rounded = money_as_read(result / scale, unit, scale)
    expression = " - ".join(shown) + f" = {rounded}"
    steps = "; ".join(f"{period_words(p)}: {s}" for (p, _, _), s in zip(read, shown))
    lead = (f"{item}, {period_words(asked)} (implied): {rounded}, {period_words(whole)} less "
            f"{', '.join(period_words(p) for p, _, _ in rest)}. {steps}. Calculation: {expression}.")
    operands = [CalculationOperand(name=item, row_label=f.row_label, value=v, period=f.period, unit=f.unit,
                                   printed=f.printed, statement=f.statement, cell=f.cell)
                for v, (_, f, _) in zip(values, read)]
    calculation = Calculation(metric=f"{item} (implied {period_words(asked)})",
                              definition=f"{period_words(whole)} less the other quarters in it", source="library",
                              expression=expression, result=significant(result), rounded=rounded, unit="amount",
                              period=period_words(asked), operands=operands,
                              results=[PeriodResult(period=period_words(asked), result=significant(result), rounded=rounded)])
    intent = plan.intent.model_copy(update={"type": "metric", "rule": IMPLIED_RULE, "numeric": True})
    return replace(plan, intent=intent), Evidence(pieces=tuple(p for _, _, p in read), lead=lead, calculation=calculation)
