"""Computed metrics ("What is the FY2018 fixed asset turnover ratio? ... defined as: FY2018 revenue /
(average PP&E between FY2017 and FY2018)"): the question's definition (else the library's in
vera_core/data/metrics.md), every operand a cited cell of the grids in scope, VERA's arithmetic; the missing
operand named, and no result, when one is not printed. A change or total asked of amounts the text
states ("by how much did it increase its credit agreement?", router rule `metric:text`) is computed
over the sentences of the hits, each operand a cited sentence."""

from __future__ import annotations

import re
from dataclasses import replace

from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.strategies.search import company_of, search, search_iteratively, tables_in_scope
from vera_core.answer.strategies.semantic import best_sentences
from vera_core.answer.units import run_on, split_units
from vera_core.answer.figures.sentence_figure import sentence_figure, stated_piece
from vera_core.documents.identity import Identity
from vera_core.records import ChunkRecord, Period
from vera_core.retrieve import iterative
from vera_core.answer.figures.metric_answer import metric_evidence
from vera_core.answer.figures.printed import printed_agreement, printed_measure, reads_printed
from vera_core.answer.figures.period_sum import period_sum
from vera_core.answer.figures.printed_change import compares_printed, printed_change
from vera_core.finance.line_items import asks_non_gaap
from vera_core.questions.expression import Item
from vera_core.questions.metric import MetricPlan, read_plan
from vera_core.questions.spans import SEQUENTIAL, summed_periods, summed_quarter_periods
from vera_core.questions.stated import StatedAsk, read_ask
from vera_core.answer.figures.stated_answer import stated_evidence

__all__ = ["NEIGHBOUR_HITS", "SEARCH_TOP_K", "TEXT_RULE", "gather"]

NEIGHBOUR_HITS = 3
"""A stated change or total also reads the other passages on the pages of this many best hits."""
TEXT_RULE = "metric:text"
"""The router's rule for a change or total asked of amounts stated in sentences."""

PRINTED_NOTICE = ("The filing prints this measure itself: its figure is stated as printed (a company-defined, "
                  "often non-GAAP measure), not recomputed by VERA.")
NOT_SUMMED = ("No total is stated: the question asks for {name} added up over several periods ({periods}), and VERA "
              "adds up only a figure printed for each quarter named, which the documents in scope do not all print; "
              "each period's figure can be asked on its own.")
NOT_PRINTED = ("No {name} is stated: the question asks for the company's adjusted (non-GAAP) measure, and no table of the "
               "documents in scope prints it for the period asked; VERA does not compute the GAAP measure in its place.")
SEARCH_TOP_K = 12
"""Chunks one search returns for a metric question (they rank tables and choose the documents)."""


def gather(plan: Plan, services: Services) -> Evidence:
    """The metric's calculation over the grids of the documents in scope (else those of the top hits)."""
    if plan.intent.rule == TEXT_RULE:
        return _stated(plan, services)
    with services.clock.stage("retrieve"):
        # NOTE: one search ranks the tables and picks the documents; the operands are cells, not passages,
        # so expansion hops (a long definition's terms) would add time and nothing to the answer
        hits = search(plan, services, plan.query, top_k=max(plan.top_k, SEARCH_TOP_K))
    searched = Evidence(hits=tuple(hits), hops=1, coverage=iterative.coverage(plan.query, [h.chunk for h in hits]))
    with services.clock.stage("synthesize"):
        metric = plan.request if isinstance(plan.request, MetricPlan) else read_plan(plan.question)
        if metric is None:  # the router said metric; a plan that no longer reads is no answer
            return replace(searched, empty_message="The metric asked could not be read from the question.")
        own = _scope_quarter(plan, services) if not metric.periods and metric.over == "at" else None
        if own is not None and not SEQUENTIAL.search(plan.question):
            # NOTE: "How much did CCG revenue change compared with the same quarter a year earlier?" of one quarter's
            # release: the quarter it reports is the one asked
            metric = replace(metric, periods=(own,))
        summed = summed_periods(plan.question)
        tables = tables_in_scope(plan, services, hits)
        company = company_of(services, tables.grids)  # NOTE: read once; every reader below names it
        if summed and len(metric.periods) < len(summed):
            # NOTE: "Add up free cash flow for Q1, Q2 and Q3 2025": each quarter's printed figure, VERA's sum; one
            # quarter's figure is never the total asked
            quarters = summed_quarter_periods(plan.question)
            added = period_sum(plan.question, metric, quarters, tables.grids, tables.chunks, tables.hit_rank,
                               services.doc_names(), company.words,
                               stated=_stated_in(services, list(tables.grids) or list(plan.intent.doc_scope or ()),
                                                 company.words)) if quarters else None
            if added is None:
                return replace(searched, empty_message=NOT_SUMMED.format(name=metric.name, periods=", ".join(summed)),
                               unanswerable=True)
            return replace(searched, pieces=tuple(added.pieces), lead=added.lead, calculation=added.calculation)
        if compares_printed(plan.question, metric):
            changed = printed_change(plan.question, metric, tables.grids, tables.chunks, tables.hit_rank,
                                     services.doc_names(), company.words)
            if changed is not None and changed.missing:
                return replace(searched, empty_message=changed.missing, unanswerable=True)
            if changed is not None:
                return replace(searched, pieces=tuple(changed.pieces), lead=changed.lead, calculation=changed.calculation,
                               notices=searched.notices + (PRINTED_NOTICE,))
            if asks_non_gaap(plan.question):
                return replace(searched, empty_message=NOT_PRINTED.format(name=metric.name), unanswerable=True)
        if reads_printed(plan.question, metric, company):
            printed = printed_measure(plan.question, metric, tables.grids, tables.chunks, tables.hit_rank,
                                      services.doc_names())
            if printed is not None:
                return replace(searched, pieces=tuple(printed.pieces), figures=tuple(printed.figures),
                               notices=searched.notices + (PRINTED_NOTICE,))
            if asks_non_gaap(plan.question):
                # NOTE: "What non-GAAP operating margin did Salesforce report for the quarter ended ...?" of a 10-Q that
                # prints GAAP results only: the GAAP margin is another measure, never stated in its place
                return replace(searched, empty_message=NOT_PRINTED.format(name=metric.name), unanswerable=True)
        metric = _item_without_company(metric, company.words)
        result = metric_evidence(metric, tables.grids, tables.chunks, tables.hit_rank, services.doc_names(),
                                 propose=services.pick_row, company=company,
                                 question=plan.question)
        agrees = None if result.missing or result.calculation is None or result.calculation.result is None else \
            printed_agreement(metric, result.calculation.result, tables.grids, tables.chunks, tables.hit_rank,
                              services.doc_names())
    searched = replace(searched, notices=searched.notices + tuple(result.notices))
    if result.implausible:  # NOTE: what was read is cited so the reader can see the misread; no result is stated
        return replace(searched, pieces=tuple(result.found), lead=result.missing, calculation=result.calculation,
                       empty_message=result.missing)
    if result.missing:
        return replace(searched, calculation=result.calculation, empty_message=result.missing, unanswerable=True)
    # NOTE: the filing's own figure, when it agrees, is cited after the operands (operand i is piece i)
    return replace(searched, pieces=tuple(result.pieces) + ((agrees,) if agrees else ()), lead=result.lead,
                   calculation=result.calculation)


IR_QUARTERLY = ("release", "slides", "transcript")
"""The documents of one quarter a metric asked without a period is read at."""


def _scope_quarter(plan: Plan, services: Services) -> Period | None:
    """The fiscal quarter every document the question is scoped to reports (releases, decks, calls: IR_QUARTERLY), when
    they all report one; else None (a filing's metric keeps its own reading of periods)."""
    identities = [d.identity or {} for i in plan.intent.doc_scope or () if (d := services.ws.catalog.document(i)) is not None]
    if any(i.get("doc_type") not in IR_QUARTERLY for i in identities):
        return None
    quarters = {(int(i["fiscal_year"]), int(i["fiscal_quarter"])) for i in identities
                if i.get("fiscal_year") and i.get("fiscal_quarter")}
    if len(quarters) != 1:
        return None
    year, quarter = quarters.pop()
    return Period("quarter", "", year, 3, quarter)


def _stated(plan: Plan, services: Services) -> Evidence:
    """A change or total over the amounts stated in the sentences of the hits and of the passages
    printed beside the best ones (a pair is often told in two paragraphs); what is missing, with the
    best sentences quoted, when no clear operands are printed."""
    ask = plan.request if isinstance(plan.request, StatedAsk) else read_ask(plan.question)
    if ask is None:  # the router said text metric; a question that no longer reads is no answer
        return Evidence(empty_message="The change or total asked could not be read from the question.")
    with services.clock.stage("retrieve"):
        found = search_iteratively(plan, services)
        chunks = _with_neighbours([h.chunk for h in found.hits], services)
    searched = Evidence(hits=found.hits, hops=found.hops, coverage=found.coverage, notices=found.notices)
    with services.clock.stage("synthesize"):
        units = [u for c in chunks for u in split_units(c)]
        result = stated_evidence(ask, units, services.doc_names())
        if result.missing:
            quoted = best_sentences(plan, [h.chunk for h in found.hits], {h.chunk.chunk_id: h.score for h in found.hits})
            return replace(searched, pieces=tuple(quoted), missing=(result.missing,), empty_message=result.missing)
    return replace(searched, pieces=result.pieces, lead=result.lead, calculation=result.calculation)


def _with_neighbours(hits: list[ChunkRecord], services: Services) -> list[ChunkRecord]:
    """The text chunks of the hits, best first, then the other text chunks on the pages of the best
    NEIGHBOUR_HITS hits."""
    out = {c.chunk_id: c for c in hits if c.kind != "table"}
    for best in hits[:NEIGHBOUR_HITS]:
        if not best.page_start:
            continue
        for c in services.ws.doc_chunks(best.doc_id):
            if c.kind != "table" and c.chunk_id not in out and set(c.pages) & set(best.pages):
                out[c.chunk_id] = c
    return list(out.values())


def _item_without_company(metric: MetricPlan, company: frozenset[str]) -> MetricPlan:
    """The plan with the company's name taken from the head of the one line item it reads ("ebay GMV growth": GMV's); the
    company's name is never a word of its line."""
    if not isinstance(metric.tree, Item):
        return metric
    words = metric.tree.phrase.split()
    if len(words) < 2 or re.sub(r"['\u2019]s?$", "", words[0]).lower() not in company:
        return metric
    phrase = " ".join(words[1:])
    return replace(metric, tree=replace(metric.tree, phrase=phrase), name=metric.name.replace(metric.tree.phrase, phrase),
                   definition=metric.definition.replace(metric.tree.phrase, phrase))


def _stated_in(services: Services, doc_ids: list[str], company: frozenset[str]):
    """A reader of a quarter's figure that a sentence of the documents states and no table prints ("eBay's first-party
    advertising products ... delivered $341 million of revenue in the second quarter"): for a measure and a quarter, the
    figure and its cited piece (`figures.sentence_figure`), or None."""
    held: dict[str, list] = {}

    def units() -> tuple[list, dict]:
        if not held:
            identities = {d: Identity.from_dict(doc.identity) for d in doc_ids
                          if (doc := services.ws.catalog.document(d)) is not None and doc.identity}
            read = []
            for d in doc_ids:
                chunks = services.ws.doc_chunks(d)
                read += [u for i, c in enumerate(chunks) if c.kind != "table"
                         for u in run_on(split_units(c), chunks[i + 1] if i + 1 < len(chunks) else None)]
            held.update(units=read, identities=identities)
        return held["units"], held["identities"]

    def stated(measure: str, period: Period):
        read, identities = units()
        found, _ = sentence_figure(f"What was {measure}?", period, (), company, read, identities)
        if found is None:
            return None
        return stated_piece(found, services.doc_names().get(found.unit.chunk.doc_id, found.unit.chunk.doc_id))
    return stated
