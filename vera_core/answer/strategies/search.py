"""Searching for a plan: one hybrid search with the plan's options, and the iterative search of
semantic and figure questions (expansion hops until the question's terms are covered)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from vera_core.answer.figures.cells import ScopeGrids
from vera_core.answer.figures.registrant import Registrant, cover_chunks, registrant_words
from vera_core.answer.strategies.base import Plan, Services
from vera_core.pipeline import until
from vera_core.retrieve import iterative
from vera_core.finance.statements import STATEMENT_WORDS, statement_titled
from vera_core.records import ChunkRecord, DocumentRecord
from vera_core.retrieve.hybrid import Hit, HybridRetriever
from vera_core.text import QUOTED, terms

__all__ = ["Found", "TOP_DOCUMENTS", "Tables", "company_of", "search", "search_iteratively", "tables_in_scope"]

TOP_DOCUMENTS = 3
"""Without a document scope, the tables of the documents of this many best hits are read."""


@dataclass(frozen=True)
class Tables:
    """The tables a figure, metric or verdict answer reads: the grids of the documents in scope
    (doc_id -> grids), their table chunks, and each table chunk's retrieval rank."""

    grids: dict
    chunks: dict
    hit_rank: dict


QUARTERLY = ("release", "slides", "transcript", "10-Q")
"""Documents that cover one fiscal quarter: the end date each reads from itself is that quarter's last day."""


def quarter_ends(documents: Sequence[DocumentRecord]) -> dict[str, tuple[int, int]]:
    """Each quarter's last day the documents name as their own period's end -> (fiscal year, quarter); a date two
    documents read as two quarters is left out."""
    seen: dict[str, set[tuple[int, int]]] = {}
    for doc in documents:
        identity = doc.identity or {}
        end, year, quarter = identity.get("period_end"), identity.get("fiscal_year"), identity.get("fiscal_quarter")
        if identity.get("doc_type") in QUARTERLY and end and year and quarter:
            seen.setdefault(str(end), set()).add((int(year), int(quarter)))
    return {end: next(iter(quarters)) for end, quarters in seen.items() if len(quarters) == 1}


def tables_in_scope(plan: Plan, services: Services, hits: Sequence[Hit]) -> Tables:
    """The tables of the documents the question is scoped to, else of the documents of the best hits."""
    ws = services.ws
    doc_ids = plan.intent.doc_scope or list(dict.fromkeys(h.chunk.doc_id for h in hits))[:TOP_DOCUMENTS] \
        or services.doc_ids(plan)
    documents = [doc for d in doc_ids if (doc := ws.catalog.document(d)) is not None]
    decks = [doc.doc_id for doc in documents if doc.identity.get("doc_type") == "slides"]
    return Tables(ScopeGrids({d: ws.doc_grids(d) for d in doc_ids}, decks, quarter_ends(documents)),
                  {c.chunk_id: c for d in doc_ids for c in led_in(ws.doc_chunks(d)) if c.kind == "table"},
                  {h.chunk.chunk_id: i for i, h in enumerate(hits)})


MAX_LEAD_IN = 240
"""Longest sentence read as the lead-in of the table below it."""


def led_in(chunks: Sequence[ChunkRecord]) -> list[ChunkRecord]:
    """A document's chunks (by position), each table without a caption captioned by the sentence that leads into it: the
    last line of the text just before it on its page, ending in a colon ("Subscription and support revenues consisted
    of the following (in millions):" over a table whose rows are "Sales", ..., "Data")."""
    out = list(chunks)
    for i, chunk in enumerate(out):
        before = out[i - 1] if i else None
        if chunk.kind != "table" or chunk.caption or before is None or before.kind != "text" \
                or before.position != chunk.position - 1 or before.page_end != chunk.page_start:
            continue
        last = before.text.strip().splitlines()[-1].strip() if before.text.strip() else ""
        # NOTE: a lead-in naming a statement ("The following table sets forth our consolidated statements of operations
        # data ...:") would make a summary table a primary statement: it names rows, never what the table is
        if last.endswith(":") and len(last) <= MAX_LEAD_IN and len(last.split()) >= 4 and not statement_titled(last) \
                and not STATEMENT_WORDS.search(last):
            out[i] = replace(chunk, caption=last)
    return out


def company_of(services: Services, doc_ids) -> Registrant:
    """The registrant's name words of the documents whose tables an answer reads (never a qualifier)."""
    docs = [d for d in (services.ws.catalog.document(i) for i in doc_ids) if d is not None]
    # NOTE: the company the document's identity names counts as a first page's legal name (a deck's footer
    # "©2023 TWILIO INC." is page furniture, in no chunk); a deck's cover is its title slide (its first chunks are
    # slides of figures whose regions and segments, "Europe's revenue", are no name of the company)
    return registrant_words([d.name for d in docs],
                            [*(d.identity.get("company") or "" for d in docs),
                             *(c.text for d in docs for c in cover_chunks(services.ws.doc_chunks(d.doc_id))
                               if d.identity.get("doc_type") != "slides" or (c.page_start or 0) <= 1)])


def search(plan: Plan, services: Services, query: str, *, doc_ids: Sequence[str] | None = None,
           pages: Sequence[int] = (), exclude: Iterable[str] = (), top_k: int | None = None,
           dense: bool = True) -> list[Hit]:
    """Best chunks for `query` in `doc_ids` (default: the plan's documents), on `pages` (1-based)
    when given, not in `exclude`; `top_k` defaults to the plan's. `dense=False` searches BM25 only."""
    retriever = HybridRetriever(services.ws, doc_ids=services.doc_ids(plan) if doc_ids is None else doc_ids,
                                pages=pages, top_k=top_k or plan.top_k, hybrid=plan.hybrid, dense=dense,
                                numeric=plan.intent.numeric, exclude=exclude,
                                prefer_captions=iterative.named_statements(plan.question),
                                keyword_extra=iterative.synonyms_for(query))
    return retriever.search(query)


QUOTED_HITS = 2
"""Chunks holding a quoted phrase that lead the hits (BM25 on the phrase alone)."""


@dataclass(frozen=True)
class Found:
    """The result of an iterative search after each hop."""

    hits: tuple[Hit, ...]
    """Every hop's hits, in the order found."""
    hops: int
    coverage: float
    """Share of the query's key terms found in the hits, in [0, 1]."""
    stalled: bool = False
    """The last hop found nothing new of the query's terms."""
    notices: tuple[str, ...] = ()
    """Why the LLM's keywords were missing (each once)."""

    @property
    def seen(self) -> set[str]:
        return {h.chunk.chunk_id for h in self.hits}


def search_iteratively(plan: Plan, services: Services) -> Found:
    """Search the plan's query, then expand it (synonyms, the best chunks' titles, the LLM's
    keywords in LLM modes) and search again for unseen chunks until the hits cover
    `iterative.COVERAGE_TARGET` of the query's key terms, a hop adds nothing, or
    `iterative.MAX_HOPS` searches were made."""
    hits = search(plan, services, plan.query)
    quoted = [q for q in QUOTED.findall(plan.question) if terms(q)]
    if quoted:  # NOTE: a term the question quotes ("what counts as an 'unapproved channel'?") is searched on its own
        lead = [h for q in quoted for h in search(plan, services, q, dense=False, top_k=QUOTED_HITS)[:QUOTED_HITS]
                if terms(q) <= terms(h.chunk.text)]
        ids = {h.chunk.chunk_id for h in lead}
        hits = list({h.chunk.chunk_id: h for h in lead}.values()) + [h for h in hits if h.chunk.chunk_id not in ids]
    first = Found(tuple(hits), 1, iterative.coverage(plan.query, [h.chunk for h in hits]))
    done = (lambda f: f.coverage >= iterative.COVERAGE_TARGET or f.hops >= iterative.MAX_HOPS or f.stalled)
    return until(lambda found: _hop(plan, services, found), done, iterative.MAX_HOPS)(first)


def _hop(plan: Plan, services: Services, found: Found) -> Found:
    """One more search: the expanded query, excluding the chunks already found."""
    chunks = [h.chunk for h in found.hits]
    missing = iterative.key_terms(plan.query) - terms(" ".join(c.text for c in chunks))
    query = iterative.expand(plan.query, chunks, missing)
    extra, notice = services.keywords(plan.question)
    notices = found.notices + ((notice,) if notice and notice not in found.notices else ())
    query = f"{query} {extra}".strip()
    # NOTE: an expansion hop adds keywords; BM25 reads them, re-embedding the long query adds little
    more = search(plan, services, query, exclude=found.seen, dense=False)
    hits, coverage = found.hits, found.coverage
    if more:
        hits = hits + tuple(more)
        coverage = iterative.coverage(plan.query, [h.chunk for h in hits])
    return replace(found, hits=hits, hops=found.hops + 1, coverage=coverage, stalled=coverage <= found.coverage,
                   notices=notices)
