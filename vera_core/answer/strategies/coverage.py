"""Coverage questions read a whole section, not the top hits alone: every item of a list ("list all
significant events"), every item with its amount, a range ("the aggregate range of possible
losses"), or where a topic is discussed ("where can I find the risk factors?")."""

from __future__ import annotations

from vera_core.answer.compose import Piece
from vera_core.answer.extract import items_with_amounts, list_items, numeric_spans
from vera_core.answer.list_shape import table_list
from vera_core.answer.outlines import items_asked, read_outline
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.strategies.search import search
from vera_core.retrieve import iterative
from vera_core.retrieve.coverage import heading_match, heading_scored, section_scope
from vera_core.retrieve.hybrid import Hit
from vera_core.store.catalog import ChunkRecord

__all__ = ["SECTION_TOP_K", "gather"]

SECTION_TOP_K = 10
"""At least this many chunks are searched for the section's anchor."""
POINTER_HITS = 3
"""A pointer prefers a section titled as asked among this many best hits."""


def gather(plan: Plan, services: Services) -> Evidence:
    """The section the question is about, in document order, and what the subtype asks of it:
    `list` its items, `numeric_list` its items with an amount, `attribute` its best range,
    `pointer` where it is (heading path and pages)."""
    with services.clock.stage("retrieve"):
        hits = search(plan, services, plan.query, top_k=max(plan.top_k, SECTION_TOP_K))
        if not hits:
            return Evidence(hops=1, unanswerable=True,
                            empty_message="No section of the documents in scope matches the question.")
        scope, section = _section(plan, services, hits)
        coverage = iterative.coverage(plan.query, scope)
    with services.clock.stage("synthesize"):
        subtype = plan.intent.subtype
        is_list = subtype not in ("attribute", "pointer")
        if subtype == "attribute":
            pieces = numeric_spans(scope, plan.query)[:1]
        elif subtype == "numeric_list":
            pieces = items_with_amounts(scope, plan.query)
        elif subtype == "pointer":
            pieces = [_pointer(services, scope)]
        else:
            # NOTE: "List the asset risk categories": a table among the best hits headed by what is asked is the list
            table = table_list(plan.question, [h.chunk for h in hits], services.ws.doc_grids)
            pieces = list(table.items) if table else list_items(scope, section, plan.query)
            section = (table.section or section) if table else section
        lead = f"{len(pieces)} items in {section.replace('/', ' > ')}:" if is_list else ""
        empty = ""
        if not pieces:
            pages = sorted({p for c in scope for p in c.pages})
            empty = (f"Nothing matching was found in {section or 'the sections searched'}"
                     + (f" (pages {', '.join(map(str, pages))})" if pages else "") + ".")
    return Evidence(pieces=tuple(pieces), is_list=is_list, lead=lead, empty_message=empty, hits=tuple(hits),
                    scope=tuple(scope), sections=(section,), hops=1, coverage=coverage)


def _section(plan: Plan, services: Services, hits: list[Hit]) -> tuple[list[ChunkRecord], str]:
    """The section of the anchor chunk and its description. The anchor is the section whose title
    matches the focus (list, pointer), else for a range the best hit that states one, else the best hit."""
    subtype, query = plan.intent.subtype, plan.query
    anchor_doc = hits[0].chunk.doc_id
    if subtype == "pointer":
        # NOTE: the section asked for may be another document's than the first hit's ("where do the policies
        # explain when break-glass access is allowed?" ranks "8. Break-Glass Access" second): among the first
        # hits, a section titled as asked wins
        titled = [(found[0], -rank, h.chunk.doc_id) for rank, h in enumerate(hits[:POINTER_HITS])
                  if (found := heading_scored(query, [h.chunk]))]
        anchor_doc = max(titled)[2] if titled else anchor_doc
    doc_chunks = services.ws.doc_chunks(anchor_doc)
    candidates = [h.chunk for h in hits if h.chunk.doc_id == anchor_doc]
    anchor = heading_match(query, doc_chunks) if subtype in ("list", "pointer") else None
    if anchor is None and subtype == "list":
        anchor = heading_match(query, candidates)
    if anchor is None and subtype == "list":
        # NOTE: a list named by an outline item ("b. Removable media") or a lead-in ("To be
        # reimbursed, follow these steps:") has no heading of its own: its chunk anchors the section
        anchor = next((c for c in candidates if items_asked(read_outline([c]), query)), None)
    if anchor is None and subtype == "attribute":
        # NOTE: the section of the best hit that states a range, not merely the best hit
        anchor = next((h.chunk for h in hits if numeric_spans([h.chunk], query)), None)
    return section_scope(anchor or hits[0].chunk, doc_chunks)


def _pointer(services: Services, scope: list[ChunkRecord]) -> Piece:
    """'See <heading path> in <document>, pages a-b.', citing the section's first chunk."""
    anchor = scope[0]
    pages = sorted({p for c in scope for p in c.pages})
    where = " > ".join(anchor.heading_titles) or anchor.heading_path
    page_text = f", page {pages[0]}" if len(pages) == 1 else f", pages {pages[0]}-{pages[-1]}" if pages else ""
    doc = services.ws.catalog.document(anchor.doc_id)
    return Piece(f"See {where} in {doc.name if doc else anchor.doc_id}{page_text}.", anchor, anchor.text[:400])
