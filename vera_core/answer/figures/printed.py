"""A measure the filing prints itself, read where printed instead of recomputed (issue 18): a
non-GAAP or adjusted figure the question names ("non-GAAP operating margin", "adjusted free cash
flow", "core earnings"), a library metric marked `printed` (free cash flow) that the question does
not define, or a library rate (a margin, an effective tax rate) asked without a definition or digits of
its own. The printed figure is stated as the filing's own; VERA computes nothing in its place."""

from __future__ import annotations

import re
from collections.abc import Container, Mapping, Sequence
from dataclasses import replace

from vera_core.answer.compose import Piece
from vera_core.answer.figures.figure_answer import FigureEvidence, figure_evidence
from vera_core.finance.line_items import asks_non_gaap, expand_abbreviations, label_terms
from vera_core.questions.figure import FigureRequest, measure_phrase
from vera_core.questions.library import metric_named
from vera_core.questions.metric import MetricPlan, definitions
from vera_core.records import ChunkRecord, TableGrid

__all__ = ["printed_agreement", "printed_measure", "reads_printed"]

_BASIS_WORDS = label_terms("non gaap adjusted basis percentage percent")
"""Words of the question's measure that the row need not print: its basis is checked on the row or
column (`cells.adjusted_cells`) and a percentage is checked on the cell ("adjusted FCF" is the free cash
flow row of a non-GAAP table; "gross margin on a non-GAAP basis" names only its basis after "non-GAAP")."""


def reads_printed(question: str, plan: MetricPlan, company: Container[str] = frozenset()) -> bool:
    """Whether a metric question asks for a figure the filing prints: an adjusted measure, or a
    `printed` library metric the question does not define; one period, no aggregate."""
    if plan.over != "at" or plan.direction or plan.source == "question" or definitions(question):
        return False  # NOTE: "FCF = CFO - purchases of property and equipment": the question's own formula is computed
    # NOTE: "meta operating margin 4Q24?", "What effective tax rate did Meta report for 1Q25?": a rate the document
    # prints by the metric's name is its own figure (48%, 9%); computed only when no row prints it, or when the
    # question asks for more digits than are printed
    # (never a growth: which periods a printed growth compares, year-ago or prior quarter, its label may not say; never
    # of a part the question names, "on the Cybertruck", "YouTube's": the company's printed rate is not the part's)
    rate = plan.metric is not None and plan.unit in ("percent", "ratio") and plan.digits is None \
        and "prior(" not in plan.metric.formula and not plan.qualifier.without(company) \
        and not (plan.qualifier.owner and not company)
    return asks_non_gaap(question) or bool(plan.metric and plan.metric.printed) or rate


def printed_measure(question: str, plan: MetricPlan, grids: Mapping[str, Sequence[TableGrid]],
                    chunks: Mapping[str, ChunkRecord], hit_rank: Mapping[str, int],
                    doc_names: Mapping[str, str], company: frozenset[str] = frozenset()) -> FigureEvidence | None:
    """The cell that prints the measure for the period asked, in the metric's unit, or None. The company's name words
    (`company`) are no words of the measure ("Twilio Communications non-GAAP income from operations")."""
    own = label_terms(plan.metric.name if plan.metric else plan.name)
    phrase = measure_phrase(question)
    # NOTE: "adjusted FCF" names the library's free cash flow by its alias: the row prints the name
    named = own if plan.metric and phrase and metric_named(phrase) == plan.metric else \
        label_terms(expand_abbreviations(phrase)) - _BASIS_WORDS or own
    words = named - _BASIS_WORDS or named
    words = words - company or words
    percent = plan.unit == "percent"
    found = _printed_cell(question, plan, words, percent, grids, chunks, hit_rank, doc_names)
    if percent and found.figures and found.figures[0].unit != "%":
        # NOTE: a margin asked is its percentage row ("Non-GAAP gross margin percentage" under the amount's row)
        found = _printed_cell(question, plan, words | _PERCENTAGE, percent, grids, chunks, hit_rank, doc_names)
    if not found.figures:
        return None
    if percent != (found.figures[0].unit == "%"):
        return None  # a percentage printed for an amount asked, or the other way round
    row = label_terms(found.figures[0].row_label) | label_terms(found.figures[0].line_item)
    named_by_row = words & row
    if len(named_by_row) < max(1, len(words) - 1):
        # NOTE: a measure printed is a row named for it (one word may be misprinted: "Free cash þow"), never another
        # row of its table
        return None
    if len(row - words) > len(words - named_by_row) and named_by_row != words:
        return None  # NOTE: a word missing is a misprint only in its place: "Revision in estimated cash flows" is no FCF
    return found


_PERCENTAGE = label_terms("percentage")


def _printed_cell(question: str, plan: MetricPlan, words: frozenset[str], percent: bool,
                  grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord],
                  hit_rank: Mapping[str, int], doc_names: Mapping[str, str]) -> FigureEvidence:
    request = FigureRequest((), frozenset(words), plan.periods[-1:], tuple(p.label for p in plan.periods[-1:]),
                            plan.scale, percent, "", label_terms(question), asks_non_gaap(question))
    return figure_evidence(request, grids, chunks, hit_rank, doc_names)


def printed_agreement(plan: MetricPlan, result: float, grids: Mapping[str, Sequence[TableGrid]],
                      chunks: Mapping[str, ChunkRecord], hit_rank: Mapping[str, int],
                      doc_names: Mapping[str, str]) -> Piece | None:
    """The filing's own printed figure for a percentage or ratio VERA computed for one period (an
    effective tax rate in the MD&A's summary table), cited as corroboration when it agrees with
    `result` (percent in percent) to the precision printed; None when none is printed or it differs
    (a printed figure that differs may follow another definition: the computed result stands, cited
    to its operands)."""
    if plan.over != "at" or plan.unit not in ("percent", "ratio") or not plan.periods:
        return None
    percent = plan.unit == "percent"
    request = FigureRequest((), frozenset(label_terms(plan.name)), plan.periods[-1:],
                            tuple(p.label for p in plan.periods[-1:]), None, percent, "", frozenset())
    found = figure_evidence(request, grids, chunks, hit_rank, doc_names)
    if not found.figures or percent != (found.figures[0].unit == "%"):
        return None
    figure, piece = found.figures[0], found.pieces[0]
    if figure.unit not in ("%", "") or abs(figure.value - result) > _half_unit(figure.printed):
        return None
    return replace(piece, text=f"The filing prints it too, and it agrees: {piece.text}")


def _half_unit(printed: str) -> float:
    """Half a unit of the last digit printed ('21.6%' -> 0.05): the rounding a printed figure carries."""
    decimals = re.search(r"\.(\d+)", printed)
    return 0.5 * 10 ** -(len(decimals.group(1)) if decimals else 0) + 1e-9
