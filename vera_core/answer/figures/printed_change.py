"""A measure the company prints, compared across two periods: "the % change in eBay's FCF from Q1 2023 to Q2
2023", "how many points did the non-GAAP operating margin expand from Q1 FY24 to Q2 FY24". Each period's figure
is the one printed for it (each release prints its own quarter), read as `printed.printed_measure` reads one; the
growth, change or direction is VERA's arithmetic over them, every operand a cited cell. A period with no printed
figure gives no answer here: the caller computes the measure from its operands, or, for an adjusted measure asked,
says it is not printed."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from vera_core.answer.compose import Piece
from vera_core.answer.contract import Calculation, CalculationOperand, Figure, PeriodResult
from vera_core.answer.figures.metric_answer import DEFAULT_DIGITS, MetricEvidence, significant
from vera_core.answer.figures.printed import printed_measure
from vera_core.answer.figures.resolve import period_words
from vera_core.finance.line_items import NON_GAAP, asks_non_gaap
from vera_core.finance.money import half_up, money, money_as_read
from vera_core.questions.metric import MetricPlan, definitions
from vera_core.records import ChunkRecord, Period, TableGrid

__all__ = ["compares_printed", "printed_change", "printed_each_period"]

_AGGREGATE_WORDS = re.compile(r"\s+(?:growth|change|compound annual growth rate)$", re.I)


def compares_printed(question: str, plan: MetricPlan) -> bool:
    """Whether a metric question compares, over two or more periods, a measure the company prints: a library metric
    marked `printed` (free cash flow) or an adjusted measure the question names, not defined by the question."""
    compared = plan.over in ("growth", "change") or plan.direction
    if not compared or len(plan.periods) < 2 or plan.source == "question" or definitions(question):
        return False
    return asks_non_gaap(question) or bool(plan.metric and plan.metric.printed)


def printed_change(question: str, plan: MetricPlan, grids: Mapping[str, Sequence[TableGrid]],
                   chunks: Mapping[str, ChunkRecord], hit_rank: Mapping[str, int],
                   doc_names: Mapping[str, str], company: frozenset[str] = frozenset()) -> MetricEvidence | None:
    """The growth, change or direction of the measure from its printed figure at each period; None when a period
    has none. `company`: the company's name words, no words of the measure."""
    unit = plan.metric.unit if plan.metric else ("amount" if plan.over == "growth" else plan.unit)
    measure = plan.metric.name if plan.metric else _AGGREGATE_WORDS.sub("", plan.name)
    if asks_non_gaap(question) and not NON_GAAP.search(plan.name):
        plan = replace(plan, name=f"Non-GAAP {plan.name[:1].lower()}{plan.name[1:]}")
    found = printed_each_period(question, plan, measure, unit, plan.periods, grids, chunks, hit_rank, doc_names, company)
    if found is None:
        return None
    values = [f.value * (1.0 if f.unit == "%" else f.scale) for _, f, _ in found]
    shown = [_shown(v, f, unit) for v, (_, f, _) in zip(values, found)]
    steps = "; ".join(f"{period_words(p)}: {s}" for (p, _, _), s in zip(found, shown))
    first, last = values[0], values[-1]
    span = f"{period_words(found[0][0])} to {period_words(found[-1][0])}"
    operands = [CalculationOperand(name=plan.metric.name if plan.metric else plan.name, row_label=f.row_label, value=v,
                                   period=f.period, unit=f.unit, printed=f.printed, statement=f.statement, cell=f.cell)
                for v, (_, f, _) in zip(values, found)]
    results = [PeriodResult(period=period_words(p), result=significant(v), rounded=s)
               for (p, _, _), v, s in zip(found, values, shown)]
    defined = "each period's figure as the company prints it"
    if plan.over == "growth":
        if first <= 0:
            return MetricEvidence(missing=f"{plan.name} from {span} is not meaningful: the first period's figure is "
                                          f"{shown[0]}, not a positive base. {steps}. No result is stated.")
        value = (last / first - 1) * 100
        rounded = f"{half_up(value, DEFAULT_DIGITS['percent'] if plan.digits is None else plan.digits)}%"
        expression = f"{shown[-1]} / {shown[0]} - 1 = {half_up(value / 100, 4)}"
        lead = f"{plan.name}, {span}: {rounded} ({defined}). {steps}. Calculation: {expression}."
        calculation = Calculation(metric=plan.name, definition="last / first - 1", source="library", expression=expression,
                                  result=significant(value), rounded=rounded, unit="percent", period=span,
                                  operands=operands, aggregate="growth", results=results)
        return MetricEvidence(lead=lead, pieces=[p for _, _, p in found], calculation=calculation)
    change = last - first
    delta = _delta(change, found[-1][1], unit, plan.digits)
    expression = f"{shown[-1]} - {shown[0]} = {delta}"
    if plan.direction:
        verb = "rose" if change > 0 else "fell" if change < 0 else "was unchanged"
        lead = f"{plan.name} {verb} from {shown[0]} in {period_words(found[0][0])} to {shown[-1]} in " \
               f"{period_words(found[-1][0])} ({delta}; {defined}). {steps}."
        direction = "improved" if change > 0 else "declined" if change < 0 else "unchanged"
        calculation = Calculation(metric=plan.name, definition="each period's printed figure", source="library",
                                  expression=expression, result=significant(last), rounded=shown[-1], unit=unit,
                                  period=period_words(found[-1][0]), operands=operands, direction=direction,
                                  results=results)
    else:
        lead = f"{plan.name}, {span}: {delta} ({defined}). {steps}. Calculation: {expression}."
        calculation = Calculation(metric=plan.name, definition="last - first", source="library", expression=expression,
                                  result=significant(change), rounded=delta, unit=unit, period=span, operands=operands,
                                  aggregate="change", results=results)
    return MetricEvidence(lead=lead, pieces=[p for _, _, p in found], calculation=calculation)


def printed_each_period(question: str, plan: MetricPlan, measure: str, unit: str, periods: Sequence[Period],
                        grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord],
                        hit_rank: Mapping[str, int], doc_names: Mapping[str, str],
                        company: frozenset[str] = frozenset()) -> list[tuple[Period, Figure, Piece]] | None:
    """The measure's printed figure at each period, each asked on its own as the measure alone ("expand", "growth" or
    "points" name no row), with its cited piece; None when a period has none or two periods are read from one cell
    (a figure compared with, or added to, itself)."""
    asked = f"What was the {'non-GAAP ' if asks_non_gaap(question) else ''}{measure}?"
    found = []
    for period in periods:
        one = replace(plan, periods=(period,), over="at", direction=False, unit=unit, digits=None)
        printed = printed_measure(asked, one, grids, chunks, hit_rank, doc_names, company)
        if printed is None:
            return None
        found.append((period, printed.figures[0], printed.pieces[0]))
    if len({(f.cell.chunk_id, f.cell.row, f.cell.col) for _, f, _ in found}) < len(found):
        return None
    return found


def _shown(value: float, figure: Figure, unit: str) -> str:
    if unit == "percent" or figure.unit == "%":
        return f"{half_up(value, 1)}%"
    shown = value / figure.scale
    return money_as_read(shown, figure.unit, figure.scale)


def _delta(change: float, figure: Figure, unit: str, digits: int | None) -> str:
    sign = "+" if change >= 0 else "-"
    if unit == "percent" or figure.unit == "%":
        return f"{sign}{half_up(abs(change), 1 if digits is None else digits)} percentage points"
    shown = abs(change) / figure.scale
    return sign + money(shown, figure.unit, figure.scale, 0 if shown >= 100 else 2)
