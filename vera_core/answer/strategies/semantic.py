"""Semantic questions ("what drove revenue growth?"): search iteratively, then quote the sentences
and table rows of the hits that best share the question's terms. A question about the causes of a
metric's change is led by the change, computed by VERA from cited cells."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from vera_core.answer.compose import Piece
from vera_core.answer.heading_lists import heading_list
from vera_core.answer.list_shape import (ListAnswer, callout_list, definitions_list, document_table_list, ends_lead_in,
                                         lead_in_list, list_from_evidence, list_object, section_list, table_list,
                                         top_hit_list)
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.table_rows import rows_holding
from vera_core.answer.titled_lists import titled_section_list, titled_section_sentences
from vera_core.answer.figures.metric_answer import MetricEvidence, metric_evidence
from vera_core.answer.strategies.search import company_of, search_iteratively, tables_in_scope
from vera_core.answer.units import score_unit, split_units
from vera_core.records import ChunkRecord
from vera_core.retrieve import iterative
from vera_core.questions.metric import read_plan
from vera_core.retrieve.router import EXPLAIN, prints_figures
from vera_core.text import terms

__all__ = ["MAX_SENTENCES", "SENTENCE_FLOOR", "TABLE_ROW_FOR_CAUSES", "TITLE_MARGIN", "best_sentences", "gather"]

MAX_SENTENCES = 3
SENTENCE_FLOOR = 0.5
"""An extractive answer keeps sentences scoring at least this share of the best one's score (a
sentence sharing one synonym with the question is not evidence beside one that answers it)."""
_ONE_ANSWER = re.compile(r"^\s*(?:is|are|was|were|does|do|did|can|could|has|have|will|who|how\s+(?:many|much|long|often)|"
                         r"(?:when|where)\s+(?:does|do|did|is|are|was|were|will|should|must|can))\b", re.I)
"""A yes/no, a who, a when or a count ("When does a new starter get the induction?", not "When Tailscale adds an asset,
what does it record?"): a sentence that happens to precede a list does not make it a list question."""
TITLE_MARGIN = 2
"""A section title must name this many more of the question's words than a lead-in to answer in its place."""
TABLE_ROW_FOR_CAUSES = 0.5
"""A question about causes ("what drove ...", "why ...") weighs a table row at this share of a sentence."""


def gather(plan: Plan, services: Services) -> Evidence:
    """The best sentences of the chunks an iterative search finds for the question."""
    with services.clock.stage("retrieve"):
        found = search_iteratively(plan, services)
    with services.clock.stage("synthesize"):
        # NOTE: a question naming an amount ("expenses - what won't be reimbursed?") is answered as a list only from the
        # documents that print no figures (a policy's list, not a filing's statement)
        listable = _worded(services, found.hits) if plan.intent.numeric else list(found.hits)
        shaped = _listed(plan, services, listable) if listable and not EXPLAIN.search(plan.question) else None
        if shaped is not None:
            return _list_evidence(shaped, found)
        pieces = best_sentences(plan, [h.chunk for h in found.hits], {h.chunk.chunk_id: h.score for h in found.hits})
        # NOTE: a lead-in among the best sentences is answered by its list, never quoted alone
        worded = {h.chunk.doc_id for h in listable}
        led = None if EXPLAIN.search(plan.question) else lead_in_list(
            [p for p in pieces if p.chunk.doc_id in worded], services.ws.doc_chunks, not _ONE_ANSWER.match(plan.question))
        if led is not None:
            return _list_evidence(led, found)
        change = _the_change(plan, services, found.hits) if EXPLAIN.search(plan.question) else None
    evidence = Evidence(pieces=tuple(pieces), hits=found.hits, hops=found.hops, coverage=found.coverage,
                        notices=found.notices)
    if change is None:
        return evidence
    return replace(evidence, pieces=tuple(change.pieces) + evidence.pieces, lead=change.lead,
                   calculation=change.calculation if change.lead and not change.missing else None)


def _worded(services: Services, hits) -> list:
    """The hits in documents that print no figures (policies, contracts)."""
    figured = {d.doc_id for d in services.ws.catalog.documents() if prints_figures([d])}
    return [h for h in hits if h.chunk.doc_id not in figured]


def _list_evidence(listed: ListAnswer, found) -> Evidence:
    """A list answer's evidence: its items, led by the line that introduces them and where they stand."""
    return Evidence(pieces=listed.items, is_list=True, hits=found.hits, hops=found.hops, coverage=found.coverage,
                    notices=found.notices, sections=(listed.section,),
                    lead=f"{len(listed.items)} items under \u201c{listed.anchor.rstrip(':')}\u201d "
                         f"({listed.section.replace('/', ' > ')}):")


def _listed(plan: Plan, services: Services, hits) -> ListAnswer | None:
    """The list the best evidence introduces (a lead-in, an item over sub-items), else the rows of a table that
    hold the value the question names (`answer.table_rows`), else the headings under
    the section it opens (`answer.heading_lists`), else the list that is the body of a section titled for
    the question (`answer.list_shape`); None when the evidence is prose."""
    chunks = [h.chunk for h in hits]
    first = (callout_list(plan.question, chunks, services.ws.doc_chunks)
             or definitions_list(plan.question, chunks, services.ws.doc_chunks, plan.intent.doc_scope or ())
             or table_list(plan.question, chunks, services.ws.doc_grids)
             or _evidence_list(plan, chunks, services)
             or rows_holding(plan.question, chunks, services.ws.doc_grids))
    if first is not None:
        return first
    # NOTE: of the lists a section gives, the one under the title that names most of the question ("What should the
    # Incident Controller do in the first hour?" -> the checklist of '4.1 Incident Controller: first hour', not the
    # headings under '12. Reporting incidents and lost devices'); in this order where they name as much
    sections = [found for found in (
        heading_list(plan.question, plan.query, chunks, services.ws.doc_chunks),
        document_table_list(plan.question, chunks, services.ws.doc_grids, services.ws.doc_chunks),
        section_list(plan.question, plan.query, chunks, services.ws.doc_chunks),
        titled_section_list(plan.question, chunks, services.ws.doc_chunks),
        titled_section_sentences(plan.question, plan.query, chunks, services.ws.doc_chunks)) if found is not None]
    wanted = terms(plan.query) | terms(plan.question)
    return max(sections, key=lambda found: len(terms(found.anchor) & wanted), default=None) or top_hit_list(
        plan.question, chunks, services.ws.doc_chunks)


def _evidence_list(plan: Plan, chunks, services: Services) -> ListAnswer | None:
    """The list the best evidence introduces; a section whose title names more of the question is the one asked
    instead: its list ("What's on the daily safety checklist?" -> the section "Daily Safety Checks", not the sub-list
    of its item "Biological safety cabinets") or its headings ("Which disruption scenarios does the plan have a
    response for?" -> the headings under "Scenario Responses", not "Assess the disruption"). A lead-in ending with a
    colon yields only to a title naming at least TITLE_MARGIN more of the question's words."""
    found = list_from_evidence(plan.question, plan.query, chunks, services.ws.doc_chunks)
    if found is None:
        return None
    wanted = terms(plan.query) | terms(plan.question)
    margin = TITLE_MARGIN if ends_lead_in(found.anchor) else 1
    named = len(terms(found.anchor) & wanted)
    # NOTE: "What visitor categories does the site security procedure define?": a title that names the whole object
    # asked ("4. Visitor categories") is the list, where the lead-in names only part of it ("Every visitor ... must
    # follow this process:")
    asked = terms(list_object(plan.question))
    for titled in (titled_section_list(plan.question, chunks, services.ws.doc_chunks),
                   heading_list(plan.question, plan.query, chunks, services.ws.doc_chunks)):
        if titled is None:
            continue
        whole = len(asked) >= 2 and asked <= terms(titled.anchor) and not asked <= terms(found.anchor)
        if whole or len(terms(titled.anchor) & wanted) >= max(2, named + margin):
            return titled
    return found


def _the_change(plan: Plan, services: Services, hits) -> MetricEvidence | None:
    """For a question about the causes of a metric's change ("what drove operating margin change as of
    FY2022?"), the change itself, computed from gated cells, to lead the passages that explain it; None
    when the question names no such metric or it cannot be computed."""
    metric = read_plan(plan.question)
    if metric is None or not metric.direction:
        return None
    tables = tables_in_scope(plan, services, hits)
    result = metric_evidence(metric, tables.grids, tables.chunks, tables.hit_rank, services.doc_names(),
                             company=company_of(services, tables.grids))
    if result.missing:  # "gross margin cannot be computed: no cost of sales is printed" answers a why too
        return MetricEvidence(lead=result.missing, pieces=result.found, missing=result.missing) if result.found else None
    return result


def best_sentences(plan: Plan, chunks: Sequence[ChunkRecord], scores: Mapping[str, float]) -> list[Piece]:
    """Up to MAX_SENTENCES sentences or table rows of `chunks` (best-ranked first) that share most of
    the query's terms and synonyms, in reading order; at least the best one when any exists.
    `scores`: the retrieval score of each chunk_id, shown with its citation (1.0 when absent).
    A location question's pieces cite only the pages it names."""
    wanted = terms(f"{plan.query} {iterative.synonyms_for(plan.query)}")
    explain = bool(EXPLAIN.search(plan.question))
    units = []
    for rank, chunk in enumerate(chunks):
        for unit in split_units(chunk):
            score = score_unit(unit, wanted, plan.intent.numeric) + 0.02 / (rank + 1)
            if explain and chunk.kind == "table":
                score *= TABLE_ROW_FOR_CAUSES  # NOTE: a cause is told in sentences; a table row prints only a figure
            units.append((score, rank, unit.order, unit))
    units.sort(key=lambda x: (-x[0], x[1], x[2]))
    floor = max(0.05, units[0][0] * SENTENCE_FLOOR) if units else 0.05
    chosen = [u for u in units if u[0] > floor][:MAX_SENTENCES] or units[:1]
    chosen.sort(key=lambda x: (x[1], x[2]))
    pages = tuple(plan.intent.pages) if plan.intent.type == "location" else ()
    return [Piece(u.text, u.chunk, u.quote, score=scores.get(u.chunk.chunk_id, 1.0), pages=pages)
            for _, _, _, u in chosen]
