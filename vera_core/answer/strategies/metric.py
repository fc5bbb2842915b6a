"""Computed metrics ("What is the FY2018 fixed asset turnover ratio? ... defined as: FY2018 revenue /
(average PP&E between FY2017 and FY2018)"): the question's definition (else the library's in
docs/metrics.md), every operand a cited cell of the grids in scope, VERA's arithmetic; the missing
operand named, and no result, when one is not printed."""

from __future__ import annotations

from dataclasses import replace

from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.strategies.figure import TOP_DOCUMENTS
from vera_core.answer.strategies.search import search
from vera_core.retrieve import iterative
from vera_core.metrics.answer import metric_evidence
from vera_core.metrics.question import read_plan

__all__ = ["SEARCH_TOP_K", "gather"]

SEARCH_TOP_K = 12
"""Chunks one search returns for a metric question (they rank tables and choose the documents)."""


def gather(plan: Plan, services: Services) -> Evidence:
    """The metric's calculation over the grids of the documents in scope (else those of the top hits)."""
    ws = services.ws
    with services.clock.stage("retrieve"):
        # NOTE: one search ranks the tables and picks the documents; the operands are cells, not passages,
        # so expansion hops (a long definition's terms) would add time and nothing to the answer
        hits = search(plan, services, plan.query, top_k=max(plan.top_k, SEARCH_TOP_K))
    searched = Evidence(hits=tuple(hits), hops=1, coverage=iterative.coverage(plan.query, [h.chunk for h in hits]))
    with services.clock.stage("synthesize"):
        metric = read_plan(plan.question)
        if metric is None:  # the router said metric; a plan that no longer reads is no answer
            return replace(searched, empty_message="The metric asked could not be read from the question.")
        doc_ids = plan.intent.doc_scope or list(dict.fromkeys(h.chunk.doc_id for h in hits))[:TOP_DOCUMENTS] \
            or services.doc_ids(plan)
        grids = {d: ws.doc_grids(d) for d in doc_ids}
        chunks = {c.chunk_id: c for d in doc_ids for c in ws.doc_chunks(d) if c.kind == "table"}
        result = metric_evidence(metric, grids, chunks, {h.chunk.chunk_id: i for i, h in enumerate(hits)},
                                 services.doc_names(), propose=services.pick_row)
    searched = replace(searched, notices=searched.notices + tuple(result.notices))
    if result.missing:
        return replace(searched, calculation=result.calculation, empty_message=result.missing, unanswerable=True)
    return replace(searched, pieces=tuple(result.pieces), lead=result.lead, calculation=result.calculation)
