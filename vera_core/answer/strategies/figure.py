"""Figure questions ("what was the revenue of Motion Control in 2024?"): the printed figure of the
line item, one cited cell per (item, period), read from the table grids of the documents in scope;
the passages that speak of the item when no table prints it."""

from __future__ import annotations

from dataclasses import replace

from vera_core.answer.figures.figure_answer import figure_evidence
from vera_core.questions.figure import FigureRequest, read_request
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.strategies.search import TOP_DOCUMENTS, company_of, search_iteratively, tables_in_scope
from vera_core.answer.strategies.semantic import best_sentences

__all__ = ["NOT_IN_TABLES", "TOP_DOCUMENTS", "gather"]

NOT_IN_TABLES = ("No statement or note table prints the line item asked; the answer quotes the passages that "
                 "speak of it.")


def gather(plan: Plan, services: Services) -> Evidence:
    """Cells of the grids of the documents in scope (else those of the top hits) that print the
    item asked for each period asked; the best sentences of the hits when no table prints it."""
    with services.clock.stage("retrieve"):
        found = search_iteratively(plan, services)
    searched = Evidence(hits=found.hits, hops=found.hops, coverage=found.coverage, notices=found.notices)
    with services.clock.stage("synthesize"):
        request = plan.request if isinstance(plan.request, FigureRequest) else \
            read_request(plan.question, plan.intent.focus)
        tables = tables_in_scope(plan, services, found.hits)
        company = company_of(services, tables.grids)
        # NOTE: the company's own name is neither a qualifier nor a word of the item ("eBay 2021 GMV")
        request = replace(request, qualifier=request.qualifier.without(company),
                          item_terms=frozenset(t for t in request.item_terms if t not in company) or request.item_terms)
        cells = figure_evidence(request, tables.grids, tables.chunks, tables.hit_rank, services.doc_names(),
                                question=plan.question, company=company)
        if cells.item_found and not cells.pieces and cells.refusals:  # no figure: what was found, cited, and why
            return replace(searched, pieces=tuple(cells.refusals), lead=" ".join(cells.missing))
        if cells.item_found:
            return replace(searched, pieces=tuple(cells.pieces), figures=tuple(cells.figures),
                           missing=tuple(cells.missing), empty_message="" if cells.pieces else " ".join(cells.missing))
        pieces = best_sentences(plan, [h.chunk for h in found.hits], {h.chunk.chunk_id: h.score for h in found.hits})
    return replace(searched, pieces=tuple(pieces), notices=searched.notices + (NOT_IN_TABLES,))
