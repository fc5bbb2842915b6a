"""Location questions ("what does page 4 say about the acquisition?"): read the pages named, in the
documents that have them, and quote their sentences that best match the focus."""

from __future__ import annotations

from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.strategies.search import search
from vera_core.answer.strategies.semantic import best_sentences
from vera_core.records import ChunkRecord, DocumentRecord
from vera_core.retrieve import iterative

__all__ = ["FOCUS_SHARE", "PAGE_TOP_K", "gather"]

FOCUS_SHARE = 0.75
"""A location question over several documents keeps those whose page covers at least this share of
the best page's coverage of the question's focus terms."""
PAGE_TOP_K = 12
"""At least this many chunks of the named pages are ranked."""


def gather(plan: Plan, services: Services) -> Evidence:
    """Every chunk on the named pages of the documents in scope that have them, ranked by a search
    of the focus; the best sentences of those chunks, cited on the named pages only. A page no
    document has is answered by saying so, never from other pages."""
    pages = plan.intent.pages
    with services.clock.stage("retrieve"):
        in_scope = set(services.doc_ids(plan))
        docs = [d for d in services.ws.catalog.documents() if d.doc_id in in_scope and d.pages]
        valid = [d for d in docs if any(p <= d.pages for p in pages)]
        if not valid:
            described = ", ".join(f"{d.name} has {d.pages} pages" for d in docs) or "no PDF is in scope"
            return Evidence(hops=1, unanswerable=True,
                            empty_message=f"Page {', '.join(map(str, pages))} does not exist in the documents "
                                          f"searched ({described}). Nothing was answered from other pages.")
        focus = plan.query.strip()
        on_page = {d.doc_id: [c for c in services.ws.doc_chunks(d.doc_id) if set(c.pages) & set(pages)]
                   for d in valid}
        if plan.intent.focus and len(valid) > 1:
            valid = _documents_about(plan.intent.focus, valid, on_page)
        doc_ids = [d.doc_id for d in valid]
        hits = search(plan, services, focus or "summary", doc_ids=doc_ids, pages=pages,
                      top_k=max(plan.top_k, PAGE_TOP_K))
        ranked = {h.chunk.chunk_id: h for h in hits}
        scope = sorted((c for d in valid for c in on_page[d.doc_id]),
                       key=lambda c: (-(ranked[c.chunk_id].score if c.chunk_id in ranked else 0), c.doc_id, c.position))
        coverage = iterative.coverage(focus, scope) if focus else 1.0
    with services.clock.stage("synthesize"):
        pieces = best_sentences(plan, scope, {h.chunk.chunk_id: h.score for h in hits})
    return Evidence(pieces=tuple(pieces), hits=tuple(hits), scope=tuple(scope), hops=1, coverage=coverage,
                    doc_scope=tuple(doc_ids))


def _documents_about(focus: str, docs: list[DocumentRecord],
                     on_page: dict[str, list[ChunkRecord]]) -> list[DocumentRecord]:
    """Of several documents with the named page, those whose page speaks of the focus: each keeps
    its place if its page holds at least FOCUS_SHARE of the best page's share of the focus's key
    terms. All stay when no page holds any of them (a bare "what does page 2 say")."""
    share = {d.doc_id: iterative.coverage(focus, on_page[d.doc_id]) for d in docs}
    best = max(share.values())
    return [d for d in docs if share[d.doc_id] >= best * FOCUS_SHARE] if best > 0 else docs
