"""The query path: route -> retrieve -> verify retrieval -> synthesize -> verify grounding, composed
from small steps with the combinators of `vera_core.pipeline`. Deterministic: no API key, no network."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from vera_core.answer import compose
from vera_core.answer.compose import Piece
from vera_core.answer.contract import Answer, Figure, Intent, LLMUsage, RetrievalInfo, Timings, Verification
from vera_core.answer.figure_answer import figure_evidence
from vera_core.answer.figure_request import read_request
from vera_core.answer.locate import QuoteLocator
from vera_core.answer.extract import items_with_amounts, list_items, numeric_spans
from vera_core.answer.units import score_unit, split_units, terms
from vera_core.facts.extract import FACT_NAMES, extract_fact
from vera_core.llm import ClaudeClient, LLMLayer, UsageMeter
from vera_core.llm import steps as llm_steps
from vera_core.pipeline import branch, sequence, timed, until
from vera_core.retrieve import iterative
from vera_core.retrieve.coverage import heading_match, section_scope
from vera_core.retrieve.hybrid import Hit, HybridRetriever
from vera_core.retrieve.router import route
from vera_core.store.catalog import ChunkRecord, DocumentRecord
from vera_core.workspace import Workspace

MODES = ("deterministic", "llm_fallback", "llm_always")
MIN_ITEMS = 2
"""llm_fallback asks the LLM when coverage extraction finds fewer items than this."""
MAX_SENTENCES = 3
SENTENCE_FLOOR = 0.5
"""An extractive answer keeps sentences scoring at least this share of the best one's score (a
sentence sharing one synonym with the question is not evidence beside one that answers it)."""
FOCUS_SHARE = 0.75
"""A location question over several documents keeps those whose page covers at least this share of
the best page's coverage of the question's focus terms."""
FACT_LABELS = {"default_currency": "Default currency", "reporting_period": "Reporting period",
               "accounting_framework": "Accounting framework", "units": "Units",
               "consolidation_basis": "Consolidation basis"}


@dataclass
class QueryState:
    """Everything the steps of one question read and write."""

    question: str
    doc_filter: Sequence[str] = ()
    mode: str = "llm_fallback"
    top_k: int = 8
    hybrid: bool = True
    intent: Intent | None = None
    hits: list[Hit] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    query: str = ""
    hops: int = 0
    coverage: float = 0.0
    stalled: bool = False
    """The last expansion hop found nothing new of the question's terms."""
    scope: list[ChunkRecord] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    is_list: bool = False
    lead: str = ""
    empty_message: str = ""
    notices: list[str] = field(default_factory=list)
    meter: UsageMeter | None = None
    """Token usage of this question's LLM calls (None without an LLM)."""
    llm_wrote: bool = False
    figures: list[Figure] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Sentences saying what was asked but is not printed (figure answers)."""
    llm_warnings: list[str] = field(default_factory=list)
    answer: Answer | None = None
    timings: dict[str, float] = field(default_factory=dict)


_FROM_SETTINGS = object()


class QueryEngine:
    """Answers questions over a workspace. Thread-safe for concurrent questions.

    `llm`: the Claude layer; by default one is built when an Anthropic API key is configured, else
    None (LLM modes then answer deterministically and say so)."""

    def __init__(self, ws: Workspace, llm: LLMLayer | None | object = _FROM_SETTINGS) -> None:
        self.ws = ws
        if llm is _FROM_SETTINGS:
            client = ClaudeClient.from_settings(ws.settings)
            llm = LLMLayer(client) if client else None
        self.llm: LLMLayer | None = llm
        self.locator = QuoteLocator(self._stored_file)
        record = self._record
        self.pipeline = sequence(
            timed(record("route"), self.route),
            timed(record("retrieve"), branch(lambda s: s.intent.type in ("semantic", "figure"), sequence(
                self.retrieve_semantic,
                until(self.expand_and_retrieve,
                      lambda s: s.coverage >= iterative.COVERAGE_TARGET or s.hops >= iterative.MAX_HOPS
                      or s.stalled,
                      iterative.MAX_HOPS)),
                self.retrieve_scoped)),
            timed(record("synthesize"), self.synthesize),
            timed(record("verify"), self.verify),
        )

    def warm_up(self) -> None:
        """Load the embedding model and build every document's keyword index now, so the first
        question does not pay for them."""
        self.ws.embedder.get_query_embedding("warm up")
        for doc in self.ws.catalog.documents():
            self.ws.keyword_index(doc.doc_id)
            self.ws.doc_chunks(doc.doc_id)

    def _embedder_for(self, pieces: Sequence[Piece]):
        """An embed function for grounding that reuses the stored vectors of cited chunks and
        embeds only the claims (sources are whole chunks: re-embedding them cost ~250 ms)."""
        known: dict[str, list[float]] | None = None

        def embed(texts: list[str]) -> list[list[float]]:
            nonlocal known
            if known is None:  # NOTE: only answers with a non-extractive claim get here
                stored = self.ws.vectors.vectors(list({p.chunk.chunk_id for p in pieces}))
                known = {compose.source_text(p.chunk): stored[p.chunk.chunk_id]
                         for p in pieces if p.chunk.chunk_id in stored}
            missing = list(dict.fromkeys(t for t in texts if t not in known))
            if missing:  # one batch, not one call per claim
                known.update(zip(missing, self.ws.embedder.encode(missing)))
            return [known[t] for t in texts]
        return embed

    def _stored_file(self, doc_id: str):
        doc = self.ws.catalog.document(doc_id)
        return self.ws.file_path(doc) if doc else None

    @staticmethod
    def _record(name: str):
        def store(state: QueryState, ms: float) -> None:
            state.timings[name] = round(ms, 2)
        return store

    def answer(self, question: str, *, docs: Sequence[str] = (), mode: str = "llm_fallback",
               top_k: int = 8, hybrid: bool | None = None) -> Answer:
        """A cited, verified answer. Raises DocumentNotFoundError for an unknown `docs` entry."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        started = time.perf_counter()
        state = QueryState(question=question.strip(), doc_filter=list(docs), mode=mode, top_k=top_k,
                           hybrid=self.ws.settings.hybrid_retrieval if hybrid is None else hybrid,
                           meter=self.llm.meter() if self.llm and mode != "deterministic" else None)
        state = self.pipeline(state)
        answer = state.answer
        answer.timings_ms = Timings(**state.timings, total=round((time.perf_counter() - started) * 1000, 2))
        return answer

    # -- route -------------------------------------------------------------------------------------

    def route(self, state: QueryState) -> QueryState:
        state.intent = route(state.question, self.ws.catalog.documents(), state.doc_filter)
        state.query = iterative.with_abbreviations(state.intent.focus or state.question)
        return state

    def _doc_ids(self, state: QueryState) -> list[str]:
        return state.intent.doc_scope or [d.doc_id for d in self.ws.catalog.documents()]

    # -- retrieve ----------------------------------------------------------------------------------

    def _search(self, state: QueryState, query: str, *, pages: Sequence[int] = (), exclude=(), top_k=None,
                dense: bool = True) -> list[Hit]:
        retriever = HybridRetriever(self.ws, doc_ids=self._doc_ids(state), pages=pages,
                                    top_k=top_k or state.top_k, hybrid=state.hybrid, dense=dense,
                                    numeric=state.intent.numeric, exclude=exclude,
                                    prefer_captions=iterative.named_statements(state.question),
                                    keyword_extra=iterative.synonyms_for(query))
        return retriever.search(query)

    def retrieve_semantic(self, state: QueryState) -> QueryState:
        state.hits = self._search(state, state.query)
        state.seen = {h.chunk.chunk_id for h in state.hits}
        state.hops = 1
        state.coverage = iterative.coverage(state.query, [h.chunk for h in state.hits])
        return state

    def expand_and_retrieve(self, state: QueryState) -> QueryState:
        """One more hop: expanded query, excluding chunks already seen."""
        chunks = [h.chunk for h in state.hits]
        missing = iterative.key_terms(state.query) - terms(" ".join(c.text for c in chunks))
        query = iterative.expand(state.query, chunks, missing)
        extra = llm_steps.keywords(self.llm, state)  # LLM modes only; '' when absent or failing
        query = f"{query} {extra}".strip()
        # NOTE: an expansion hop adds keywords; BM25 reads them, re-embedding the long query adds little
        more = self._search(state, query, exclude=state.seen, dense=False)
        state.hops += 1
        before = state.coverage
        if more:
            state.hits = state.hits + more
            state.seen |= {h.chunk.chunk_id for h in more}
            state.coverage = iterative.coverage(state.query, [h.chunk for h in state.hits])
        state.stalled = state.coverage <= before
        return state

    def retrieve_scoped(self, state: QueryState) -> QueryState:
        """Location, coverage and metadata questions read a scope, not the top-k alone."""
        kind = state.intent.type
        state.hops = 1
        if kind == "location":
            return self._location_scope(state)
        if kind == "coverage":
            return self._coverage_scope(state)
        return state  # metadata reads facts in `synthesize`

    def _location_scope(self, state: QueryState) -> QueryState:
        pages = state.intent.pages
        docs = [d for d in self.ws.catalog.documents() if d.doc_id in self._doc_ids(state) and d.pages]
        valid = [d for d in docs if any(p <= d.pages for p in pages)]
        if not valid:
            described = ", ".join(f"{d.name} has {d.pages} pages" for d in docs) or "no PDF is in scope"
            state.empty_message = (f"Page {', '.join(map(str, pages))} does not exist in the documents "
                                   f"searched ({described}). Nothing was answered from other pages.")
            return state
        focus = state.query.strip()
        on_page = {d.doc_id: [c for c in self.ws.doc_chunks(d.doc_id) if set(c.pages) & set(pages)] for d in valid}
        if state.intent.focus and len(valid) > 1:
            valid = _documents_about(state.intent.focus, valid, on_page)
        state.intent.doc_scope = [d.doc_id for d in valid]
        hits = self._search(state, focus or "summary", pages=pages, top_k=max(state.top_k, 12))
        chunks = [c for d in valid for c in on_page[d.doc_id]]
        ranked = {h.chunk.chunk_id: h for h in hits}
        state.hits = hits
        state.scope = sorted(chunks, key=lambda c: (-(ranked[c.chunk_id].score if c.chunk_id in ranked else 0),
                                                    c.doc_id, c.position))
        state.coverage = iterative.coverage(focus, state.scope) if focus else 1.0
        return state

    def _coverage_scope(self, state: QueryState) -> QueryState:
        hits = self._search(state, state.query, top_k=max(state.top_k, 10))
        state.hits = hits
        if not hits:
            state.empty_message = "No section of the documents in scope matches the question."
            return state
        anchor_doc = hits[0].chunk.doc_id
        doc_chunks = self.ws.doc_chunks(anchor_doc)
        candidates = [h.chunk for h in hits if h.chunk.doc_id == anchor_doc]
        anchor = heading_match(state.query, doc_chunks) if state.intent.subtype in ("list", "pointer") else None
        if anchor is None and state.intent.subtype == "list":
            anchor = heading_match(state.query, candidates)
        if anchor is None and state.intent.subtype == "attribute":
            # NOTE: the section of the best hit that states a range, not merely the best hit
            anchor = next((h.chunk for h in hits if numeric_spans([h.chunk], state.query)), None)
        anchor = anchor or hits[0].chunk
        state.scope, described = section_scope(anchor, doc_chunks)
        state.sections = [described]
        state.coverage = iterative.coverage(state.query, state.scope)
        return state

    # -- synthesize --------------------------------------------------------------------------------

    def synthesize(self, state: QueryState) -> QueryState:
        intent = state.intent
        if state.empty_message:
            return state
        if intent.type == "metadata":
            self._metadata(state)
        elif intent.type == "coverage":
            self._coverage(state)
        elif intent.type == "figure":
            self._figure(state)
        else:
            self._sentences(state, [h.chunk for h in state.hits] if intent.type == "semantic" else state.scope,
                            {h.chunk.chunk_id: h.score for h in state.hits})
        self._llm_notice(state)
        return state

    def _figure(self, state: QueryState) -> None:
        """The figure strategy over the grids of the documents in scope (else those of the top hits);
        a question whose line item no table prints is answered from the passages instead."""
        request = read_request(state.question, state.intent.focus)
        doc_ids = state.intent.doc_scope or list(dict.fromkeys(h.chunk.doc_id for h in state.hits))[:3] \
            or self._doc_ids(state)
        grids = {d: self.ws.doc_grids(d) for d in doc_ids}
        chunks = {c.chunk_id: c for d in doc_ids for c in self.ws.doc_chunks(d) if c.kind == "table"}
        names = {d.doc_id: d.name for d in self.ws.catalog.documents()}
        found = figure_evidence(request, grids, chunks, {h.chunk.chunk_id: i for i, h in enumerate(state.hits)}, names)
        if found.item_found:
            state.pieces, state.figures, state.missing = found.pieces, found.figures, found.missing
            if not found.pieces:
                state.empty_message = " ".join(found.missing)
            return
        state.notices.append("No statement or note table prints the line item asked; the answer quotes the "
                             "passages that speak of it.")
        self._sentences(state, [h.chunk for h in state.hits], {h.chunk.chunk_id: h.score for h in state.hits})

    def _sentences(self, state: QueryState, chunks: list[ChunkRecord], scores: dict[str, float]) -> None:
        wanted = terms(f"{state.query} {iterative.synonyms_for(state.query)}")
        units = []
        for rank, chunk in enumerate(chunks):
            for unit in split_units(chunk):
                score = score_unit(unit, wanted, state.intent.numeric) + 0.02 / (rank + 1)
                units.append((score, rank, unit.order, unit))
        units.sort(key=lambda x: (-x[0], x[1], x[2]))
        floor = max(0.05, units[0][0] * SENTENCE_FLOOR) if units else 0.05
        chosen = [u for u in units if u[0] > floor][:MAX_SENTENCES] or units[:1]
        chosen.sort(key=lambda x: (x[1], x[2]))
        pages = tuple(state.intent.pages) if state.intent.type == "location" else ()
        state.pieces = [Piece(u.text, u.chunk, u.quote, score=scores.get(u.chunk.chunk_id, 1.0), pages=pages)
                        for _, _, _, u in chosen]

    def _coverage(self, state: QueryState) -> None:
        subtype = state.intent.subtype
        section = state.sections[0] if state.sections else ""
        if subtype == "attribute":
            state.pieces = numeric_spans(state.scope, state.query)[:1]
        elif subtype == "numeric_list":
            state.pieces = items_with_amounts(state.scope, state.query)
            state.is_list = True
        elif subtype == "pointer":
            anchor = state.scope[0]
            pages = sorted({p for c in state.scope for p in c.pages})
            where = " > ".join(anchor.heading_titles) or anchor.heading_path
            page_text = f", page {pages[0]}" if len(pages) == 1 else f", pages {pages[0]}-{pages[-1]}" if pages else ""
            doc = self.ws.catalog.document(anchor.doc_id)
            text = f"See {where} in {doc.name if doc else anchor.doc_id}{page_text}."
            state.pieces = [Piece(text, anchor, anchor.text[:400])]
        else:
            state.pieces = list_items(state.scope, section)
            state.is_list = True
        if state.is_list:
            state.lead = f"{len(state.pieces)} items in {section.replace('/', ' > ')}:"
        if not state.pieces:
            pages = sorted({p for c in state.scope for p in c.pages})
            state.empty_message = (f"Nothing matching was found in {section or 'the sections searched'}"
                                   + (f" (pages {', '.join(map(str, pages))})" if pages else "") + ".")

    def _metadata(self, state: QueryState) -> None:
        name = state.intent.subtype if state.intent.subtype in FACT_NAMES else "default_currency"
        label = FACT_LABELS[name]
        absent: list[str] = []
        for doc_id in self._doc_ids(state):
            doc = self.ws.catalog.document(doc_id)
            if self.ws.settings.facts_enabled:
                stored = {f.fact_name: f for f in self.ws.catalog.facts(doc_id)}.get(name)
                if stored and stored.status == "found" and stored.source_chunk_id:
                    chunk = self.ws.catalog.chunks_by_id([stored.source_chunk_id]).get(stored.source_chunk_id)
                    if chunk:
                        state.pieces.append(Piece(f"{label} of {doc.name}: {stored.value}. {stored.evidence_excerpt}",
                                                  chunk, stored.evidence_excerpt))
                        continue
            fact = extract_fact(name, self.ws.doc_chunks(doc_id))
            state.scope.extend(c for c in self.ws.doc_chunks(doc_id)
                               if c.page_start in fact.pages_searched)
            state.sections.extend(fact.sections_searched)
            if fact.status == "found" and fact.chunk is not None:
                state.pieces.append(Piece(f"{label} of {doc.name}: {fact.value}. {fact.excerpt}", fact.chunk,
                                          fact.excerpt))
            else:
                pages = ", ".join(map(str, fact.pages_searched)) or "its sections " + "; ".join(fact.sections_searched[:5])
                why = "conflicting statements" if fact.status == "ambiguous" else "no explicit statement"
                absent.append(f"{label} of {doc.name}: {fact.status.replace('_', ' ')} ({why}); searched pages {pages}.")
        if absent:
            state.notices.extend(absent)
            if not state.pieces:
                state.empty_message = " ".join(absent)

    def _llm_notice(self, state: QueryState) -> None:
        """`llm_always`, or `llm_fallback` with a thin result (a list under MIN_ITEMS items, or nothing):
        the LLM writes the answer from the same evidence, or the deterministic one stands with a notice."""
        intent = state.intent
        thin = not state.pieces or (intent.type == "coverage" and intent.subtype in ("list", "numeric_list")
                                    and len(state.pieces) < MIN_ITEMS)
        if not (state.mode == "llm_always" or (state.mode == "llm_fallback" and thin)):
            return
        if intent.type == "metadata":  # NOTE: facts come from explicit evidence only, never from a model
            if self.llm is None:
                state.notices.append(llm_steps.NO_KEY)
            return
        llm_steps.write_answer(self.llm, state, {d.doc_id: d.name for d in self.ws.catalog.documents()})

    # -- verify ------------------------------------------------------------------------------------

    def verify(self, state: QueryState) -> QueryState:
        docs = {d.doc_id: d for d in self.ws.catalog.documents()}
        names = {k: d.name for k, d in docs.items()}
        formats = {k: d.format for k, d in docs.items()}
        citations, numbers = compose.citations_for(state.pieces, names, formats, locate=self.locator.locate)
        if state.pieces:
            verification = compose.verify(state.pieces, numbers, embed=self._embedder_for(state.pieces))
            failed = [p.text[:60] for p, n in zip(state.pieces, numbers)
                      if state.is_list and not compose.item_verified(p.text, p.chunk)]
            verification.warnings.extend(f"Coverage check failed for item: {t}…" for t in failed)
            verification = llm_steps.audit(self.llm if self.ws.settings.llm_audit else None, state,
                                           verification, numbers, names)
        else:
            verification = compose.no_evidence_verification(state.empty_message or "No evidence found.")
        verification.warnings.extend(state.llm_warnings)
        if state.is_list:
            body = "\n".join(f"- {p.text} [{n}]" for p, n in zip(state.pieces, numbers))
            text = f"{state.lead}\n{body}"
            items = compose.items_for(state.pieces, numbers)
        else:
            text = " ".join(f"{p.text} [{n}]" for p, n in zip(state.pieces, numbers)) or state.empty_message
            if state.pieces and state.missing:
                text = f"{text} {' '.join(state.missing)}"
            items = []
        searched = sorted({p for c in (state.scope or [h.chunk for h in state.hits]) for p in c.pages})
        if state.intent.type == "location":
            searched = [p for p in state.intent.pages if p in searched] if state.scope else []
        ranked: list[tuple[str, int]] = []
        # NOTE: for semantic questions the retriever's order is the evidence ranking; scoped intents
        # (location, coverage, metadata) answer from what they cite, so cited pieces lead.
        hits, cited = [h.chunk for h in state.hits], [p.chunk for p in state.pieces]
        ordered = hits + cited if state.intent.type == "semantic" else cited + hits
        for chunk in ordered + state.scope:
            for page in chunk.pages:
                if (chunk.doc_id, page) not in ranked:
                    ranked.append((chunk.doc_id, page))
        figures = [f.model_copy(update={"citation": n}) for f, n in zip(state.figures, numbers)]
        state.answer = Answer(
            figures=figures, question=state.question, intent=state.intent, answer=text, items=items, citations=citations,
            verification=verification, mode=state.mode, notices=state.notices, llm=_usage(state),
            retrieval=RetrievalInfo(hops=state.hops, coverage=min(1.0, state.coverage), searched_pages=searched,
                                    candidates=len({h.chunk.chunk_id for h in state.hits} | {c.chunk_id for c in state.scope}),
                                    sections=state.sections, mode="hybrid" if state.hybrid else "dense",
                                    ranked_pages=[p for _, p in ranked], ranked_docs=[d for d, _ in ranked]))
        return state


def _documents_about(focus: str, docs: list[DocumentRecord],
                     on_page: dict[str, list[ChunkRecord]]) -> list[DocumentRecord]:
    """Of several documents with the named page, those whose page speaks of the focus: each keeps
    its place if its page holds at least FOCUS_SHARE of the best page's share of the focus's key
    terms. All stay when no page holds any of them (a bare "what does page 2 say")."""
    share = {d.doc_id: iterative.coverage(focus, on_page[d.doc_id]) for d in docs}
    best = max(share.values())
    return [d for d in docs if share[d.doc_id] >= best * FOCUS_SHARE] if best > 0 else docs


def _usage(state: QueryState) -> LLMUsage | None:
    meter = state.meter
    if meter is None or not (meter.calls or meter.failures):
        return None
    return LLMUsage(model=meter.model, calls=meter.calls, input_tokens=meter.input_tokens,
                    output_tokens=meter.output_tokens, cost_usd=meter.cost_usd, wrote_answer=state.llm_wrote)


__all__ = ["MODES", "QueryEngine", "Verification"]
