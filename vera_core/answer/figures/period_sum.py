"""A measure added up over quarters: "Add up Meta's free cash flow for Q1, Q2 and Q3 2025, taking each quarter from
that quarter's earnings presentation". Each quarter's figure is the one printed for it, read as
`printed.printed_measure` reads one (each release or deck prints its own quarter); the total is VERA's sum, every
operand a cited cell. A quarter with no printed figure, or two quarters read from one cell, give no total."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from vera_core.answer.compose import Piece
from vera_core.answer.contract import Calculation, CalculationOperand, Figure, PeriodResult
from vera_core.answer.figures.figure_answer import names_loss
from vera_core.answer.figures.metric_answer import MetricEvidence, significant
from vera_core.answer.figures.printed_change import printed_each_period
from vera_core.answer.figures.resolve import period_words
from vera_core.finance.line_items import label_terms
from vera_core.finance.money import money_as_read
from vera_core.questions.metric import MetricPlan
from vera_core.records import ChunkRecord, Period, TableGrid

__all__ = ["period_sum"]


def period_sum(question: str, plan: MetricPlan, periods: Sequence[Period], grids: Mapping[str, Sequence[TableGrid]],
               chunks: Mapping[str, ChunkRecord], hit_rank: Mapping[str, int],
               doc_names: Mapping[str, str], company: frozenset[str] = frozenset(),
               stated: Callable[[str, Period], tuple[Piece, Figure] | None] | None = None) -> MetricEvidence | None:
    """The sum of the measure's printed figure at each period; None when a period has none (or is read from a cell
    another period was read from), or the measure is not an amount. A period no table prints is read from the sentence
    that states it (`stated`: "... delivered $341 million of revenue in the second quarter"), when one does."""
    if plan.metric is not None and plan.metric.unit not in ("amount", ""):
        return None
    measure = plan.metric.name if plan.metric else plan.name
    found = printed_each_period(question, plan, measure, "amount", periods, grids, chunks, hit_rank, doc_names, company)
    if found is None and stated is not None:
        said = [(period, stated(measure, period)) for period in periods]
        found = [(period, figure, piece) for period, (piece, figure) in ((p, s) for p, s in said if s)] \
            if all(s for _, s in said) else None
        if found and len({(f.cell.chunk_id, f.value) for _, f, _ in found}) < len(found):
            found = None  # NOTE: one sentence read for two quarters is no sum
    if found is None or any(f.unit == "%" for _, f, _ in found) or len({f.unit for _, f, _ in found}) > 1:
        return None  # NOTE: a percentage is not added up; nor are two currencies
    values = [f.value * f.scale for _, f, _ in found]
    # NOTE: "the full-year 2024 RL operating loss": a loss asked as such is added up as its size (a loss of 17.73 billion)
    size = all(v < 0 for v in values) and names_loss(label_terms(measure))
    values = [-v for v in values] if size else values
    scale = plan.scale or found[-1][1].scale
    unit = found[-1][1].unit
    shown = [money_as_read(v / scale, unit, scale) for v in values]
    total = sum(values)
    rounded = money_as_read(total / scale, unit, scale)
    steps = "; ".join(f"{period_words(p)}: {s}" for (p, _, _), s in zip(found, shown))
    expression = " + ".join(shown) + f" = {rounded}"
    span = ", ".join(period_words(p) for p, _, _ in found)
    operands = [CalculationOperand(name=measure, row_label=f.row_label, value=v, period=f.period, unit=f.unit,
                                   printed=f.printed, statement=f.statement, cell=f.cell)
                for v, (_, f, _) in zip(values, found)]
    results = [PeriodResult(period=period_words(p), result=significant(v), rounded=s)
               for (p, _, _), v, s in zip(found, values, shown)]
    how = "each quarter's loss as printed, added as its size" if size else "each quarter's figure as printed"
    lead = f"{measure}, added up over {span}: {'a loss of ' if size else ''}{rounded} ({how}). {steps}. Calculation: {expression}."
    calculation = Calculation(metric=f"{measure} (sum)", definition="the sum of each period's printed figure",
                              source="library", expression=expression, result=significant(total), rounded=rounded,
                              unit="amount", period=span, operands=operands, aggregate="sum", results=results)
    return MetricEvidence(lead=lead, pieces=[p for _, _, p in found], calculation=calculation)
