"""Metadata questions ("what currency are the statements presented in?"): one document-level fact
per document in scope, from explicit evidence only (the stored fact, else the fact read now), with
the pages and sections searched when no statement was found."""

from __future__ import annotations

from vera_core.answer.compose import Piece
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.facts.extract import FACT_NAMES, extract_fact
from vera_core.records import ChunkRecord
from vera_core.workspace import Workspace

__all__ = ["FACT_LABELS", "gather"]

FACT_LABELS = {"default_currency": "Default currency", "reporting_period": "Reporting period",
               "accounting_framework": "Accounting framework", "units": "Units",
               "consolidation_basis": "Consolidation basis"}


def gather(plan: Plan, services: Services) -> Evidence:
    """The fact the question names (default currency when the router named none) of each document
    in scope, each cited; a notice per document where it is not found or ambiguous."""
    name = plan.intent.subtype if plan.intent.subtype in FACT_NAMES else "default_currency"
    pieces: list[Piece] = []
    scope: list[ChunkRecord] = []
    sections: list[str] = []
    absent: list[str] = []
    with services.clock.stage("synthesize"):
        for doc_id in services.doc_ids(plan):
            stored = _stored(services.ws, doc_id, name)
            if stored:
                pieces.append(stored)
                continue
            doc_name, chunks = services.ws.catalog.document(doc_id).name, services.ws.doc_chunks(doc_id)
            fact = extract_fact(name, chunks)
            scope.extend(c for c in chunks if c.page_start in fact.pages_searched)
            sections.extend(fact.sections_searched)
            if fact.status == "found" and fact.chunk is not None:
                pieces.append(Piece(f"{FACT_LABELS[name]} of {doc_name}: {fact.value}. {fact.excerpt}", fact.chunk,
                                    fact.excerpt, checked=fact.excerpt))
                continue
            pages = ", ".join(map(str, fact.pages_searched)) or "its sections " + "; ".join(fact.sections_searched[:5])
            why = "conflicting statements" if fact.status == "ambiguous" else "no explicit statement"
            absent.append(f"{FACT_LABELS[name]} of {doc_name}: {fact.status.replace('_', ' ')} ({why}); "
                          f"searched pages {pages}.")
    return Evidence(pieces=tuple(pieces), scope=tuple(scope), sections=tuple(sections), hops=1,
                    notices=tuple(absent), empty_message=" ".join(absent) if absent and not pieces else "")


def _stored(ws: Workspace, doc_id: str, name: str) -> Piece | None:
    """The fact as stored at ingestion, cited (None when facts are off, not found, or its chunk is gone)."""
    if not ws.settings.facts_enabled:
        return None
    stored = {f.fact_name: f for f in ws.catalog.facts(doc_id)}.get(name)
    if not (stored and stored.status == "found" and stored.source_chunk_id):
        return None
    chunk = ws.catalog.chunks_by_id([stored.source_chunk_id]).get(stored.source_chunk_id)
    if chunk is None:
        return None
    doc = ws.catalog.document(doc_id)
    # NOTE: grounding checks the quoted evidence; the value is VERA's reading of it (facts/extract.py)
    return Piece(f"{FACT_LABELS[name]} of {doc.name}: {stored.value}. {stored.evidence_excerpt}", chunk,
                 stored.evidence_excerpt, checked=stored.evidence_excerpt)
