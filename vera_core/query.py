"""The query path, top-down: route the question into a plan, call the strategy of its intent
(`vera_core.answer.strategies`), let the LLM rewrite thin evidence (optional), then verify every
claim and assemble the answer. Deterministic without an API key; no network then."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from vera_core.answer.strategies.remarks import speaker_plan
from vera_core.finance.dates import MONTH_QUARTER
from vera_core.questions.defined_terms import defined_acronyms, short_names, spelled_out
from vera_core.questions.month_quarters import dated_month_quarters
from vera_core.questions.month_spans import month_spans_named
from vera_core.questions.restate import (blank_asked, line_asides_dropped, loss_asked, nicknamed_quarters_named,
                                         noted_sum_asked, same_quarter_dated, short_words_written, spoken_years_written,
                                         yearless_ends_dated)
from vera_core.questions.spelling import misspelt, respelled
from vera_core.documents.filters import LibraryFilters, apply_filters, segment_pattern, segment_question
from vera_core.documents.identity import stored_identity
from vera_core.documents.kinds import KIND_CHUNKS
from vera_core.answer.citation_context import with_context
from vera_core.answer import compose
from vera_core.answer.compose import Piece
from vera_core.answer.contract import Answer, AnswerWarning, LLMUsage, RetrievalInfo, Timings, Verification
from vera_core.answer.locate import QuoteLocator
from vera_core.answer.modes import MODES
from vera_core.answer.strategies import Evidence, Plan, Services, Stopwatch, strategy_for
from vera_core.llm import ClaudeClient, LLMLayer, UsageMeter
from vera_core.llm import steps as llm_steps
from vera_core.retrieve import iterative
from vera_core.retrieve.router import read_question
from vera_core.answer.strategies.shapes import change_unanswered, compared_unanswered, gather_in_shape
from vera_core.telemetry import span
from vera_core.workspace import Workspace

MIN_ITEMS = 2
"""llm_fallback asks the LLM when coverage extraction finds fewer items than this."""

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

    def warm_up(self, *, documents: bool = False) -> None:
        """Load the embedding model now, so the first question does not pay for it. A document's
        keyword index (written at ingestion), chunks and grids load on first use; `documents=True`
        loads every document's now (the app does so in the background after its first page)."""
        self.ws.sync()
        self.ws.embedder.get_query_embedding("warm up")
        if documents:
            for doc in self.ws.catalog.documents():
                self.ws.keyword_index(doc.doc_id)
                self.ws.doc_chunks(doc.doc_id)
                self.ws.doc_grids(doc.doc_id)

    def answer(self, question: str, *, docs: Sequence[str] = (), mode: str = "llm_fallback",
               top_k: int = 8, hybrid: bool | None = None, filters: LibraryFilters | None = None) -> Answer:
        """A cited, verified answer. Raises DocumentNotFoundError for an unknown `docs` entry, and
        `NothingMatches` when `filters` (quarter, fiscal year, type, speaker) leave no document."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        with span("vera.query", {"vera.operation": "query", "vera.mode": mode}) as current:
            answer = self._answer(question, docs=docs, mode=mode, top_k=top_k, hybrid=hybrid, filters=filters)
            current.set_attributes({"vera.route": answer.intent.type, "vera.grounding_score":
                                    answer.verification.grounding_score, "vera.grounding_label": answer.verification.label,
                                    "vera.document_count": len(answer.intent.doc_scope or self.ws.catalog.versions()),
                                    "vera.citation_count": len(answer.citations)})
        return answer

    def _answer(self, question: str, *, docs: Sequence[str], mode: str, top_k: int, hybrid: bool | None,
                filters: LibraryFilters | None = None) -> Answer:
        started = time.perf_counter()
        self.ws.sync()  # NOTE: the ingestion worker may have added or completed documents meanwhile
        clock = Stopwatch()
        meter = self.llm.meter() if self.llm and mode != "deterministic" else None
        with clock.stage("route"):
            asked = question
            # NOTE: "(the Tableau + MuleSoft line)" names the line again; "how much money did X lose" asks X's loss
            question = loss_asked(line_asides_dropped(blank_asked(question)))  # NOTE: "head of IR = ?" asks it
            # NOTE: "Data subscription & support rev": the revenue, a concept; "June twenty twenty-five": June 2025
            # NOTE: "the spring quarter of 2023 (12 weeks to May 7)": the end's year is the one named
            question = yearless_ends_dated(short_words_written(spoken_years_written(nicknamed_quarters_named(question))))
            question = noted_sum_asked(question)  # NOTE: "CRM cash + marketable securities @ 4/30/23": their sum asked
            # NOTE: "the July-September 2024 quarter", "the quarter that ended in early May 2023": the quarter of the month
            # it ends in, as the period readers know it
            question, spanned = month_spans_named(question)
            question = same_quarter_dated(question)  # NOTE: "... to the same quarter of 2025": that quarter of 2025
            if filters:
                docs = self._filtered(docs, filters)
                question = segment_question(question, self._printed(docs, filters.segment))
            plan = self.plan(question, docs=docs, mode=mode, top_k=top_k, hybrid=hybrid)
            fixes = self._misspelt(plan)
            if fixes:  # NOTE: "ebay product developmnet expense": read as the documents print the word
                question = respelled(question, fixes)
                plan = self.plan(question, docs=docs, mode=mode, top_k=top_k, hybrid=hybrid)
            spelled = self._defined_terms(plan)
            if spelled:  # NOTE: "DCAI revenue" read as the documents define DCAI: "Data Center and AI (DCAI) revenue"
                question = spelled_out(question, spelled)[0]
                plan = self.plan(question, docs=docs, mode=mode, top_k=top_k, hybrid=hybrid)
            question, dated = dated_month_quarters(question, self._period_ends(plan))
            if dated:  # NOTE: "in the July quarter": the July quarter the documents in scope cover
                plan = self.plan(question, docs=docs, mode=mode, top_k=top_k, hybrid=hybrid)
            if filters and filters.speaker:
                plan = speaker_plan(plan, filters.speaker)
        services = Services(self.ws, partial(llm_steps.keywords, self.llm, mode=mode, meter=meter), clock,
                            pick_row=partial(llm_steps.pick_row, self.llm, mode=mode, meter=meter))
        plan, evidence = gather_in_shape(plan, strategy_for(plan.intent), services)
        evidence = change_unanswered(plan, compared_unanswered(plan, evidence))
        if fixes:
            evidence = replace(evidence, notices=("Read " + "; ".join(f"\"{wrong}\" as \"{right}\"" for wrong, right in
                                                                      fixes.items())
                                                  + ", as the documents in scope print it.",) + evidence.notices)
        if dated:
            evidence = replace(evidence, notices=("Read " + "; ".join(f"\"{asked}\" as \"{read}\"" for asked, read in dated.items())
                                                  + ", the quarter of that month the documents in scope cover.",)
                               + evidence.notices)
        if spanned:
            evidence = replace(evidence, notices=("Read " + "; ".join(f"\"{asked}\" as \"{read}\"" for asked, read in spanned.items())
                                                  + ", the period that ends in that month.",) + evidence.notices)
        if spelled:
            evidence = replace(evidence, notices=("Read " + "; ".join(f"{short} as \"{long}\"" for short, long in spelled.items())
                                                  + ", as the documents in scope define it.",) + evidence.notices)
        if filters:  # NOTE: the filters applied are shown with the answer, never silent
            evidence = replace(evidence, notices=(f"Filters applied: {filters.describe()} ({len(docs)} documents "
                                                  f"in scope)" + (f"; asked as \"{question}\"" if question != asked else "")
                                                  + ".",) + evidence.notices)
        with clock.stage("synthesize"):
            evidence = self._llm_step(plan, evidence, meter)
        with clock.stage("verify"):
            answer = self._assemble(plan, evidence, meter)
        answer.timings_ms = Timings(**clock.timings(), total=round((time.perf_counter() - started) * 1000, 2))
        return answer

    OPENING_CHUNKS = 4
    """How much of a document's start says whose it is ("Datica implements ...")."""

    def _mentions(self, doc_id: str, word: str) -> bool:
        """Whether a document's opening chunks name `word` (an organisation's name) as a whole word."""
        pattern = re.compile(rf"\b{re.escape(word)}\b", re.I)
        return any(pattern.search(c.text) for c in self.ws.doc_chunks(doc_id)[:self.OPENING_CHUNKS])

    DEFINED_TERMS_SCOPE = 10
    """Short names are read from the documents in scope when there are at most this many (a question over the whole
    store reads no document's definitions)."""
    DEFINED_TERMS_TYPES = ("figure", "metric")
    """The questions whose short names are written out as the documents define them (a search question is not: "eBay's
    international GMV" names the "International" row under GMV, which "international Gross Merchandise Volume" would not;
    tried and taken out)."""

    MISSPELT_SCOPE = 60
    """Documents whose words a misspelt word is looked up in, at most (a whole large store is not read for it)."""

    def _misspelt(self, plan: Plan) -> dict[str, str]:
        """The question's words no document in scope prints that are one word they print with two neighbouring letters
        swapped (`questions.spelling`)."""
        scope = plan.intent.doc_scope or [d.doc_id for d in self.ws.catalog.documents()]
        if not scope or len(scope) > self.MISSPELT_SCOPE:
            return {}
        printed = frozenset().union(*(self.ws.doc_words(d) for d in scope))
        return misspelt(plan.question, printed)

    def _defined_terms(self, plan: Plan) -> dict[str, str]:
        """The short names a figure or metric question uses that the documents in scope define ("DCAI": "Data Center
        and AI"), each with its long name; {} when there are none."""
        scope = plan.intent.doc_scope
        if plan.intent.type not in self.DEFINED_TERMS_TYPES or not scope or len(scope) > self.DEFINED_TERMS_SCOPE:
            return {}
        shorts = short_names(plan.question)
        if not shorts:
            return {}
        chunks = [c for d in scope for c in self.ws.doc_chunks(d)]
        # NOTE: only passages that print a short name asked can define it (a 10-K's 700 chunks read in ~1 ms, not 50)
        acronyms = defined_acronyms(c.text for c in chunks if any(short in c.text for short in shorts))
        # NOTE: a short name a table prints as a row ("GMV") is read as printed: its long name would ask for words
        # the row does not carry
        tables = " ".join(c.text for c in chunks if c.kind == "table")
        return {short: long for short, long in spelled_out(plan.question, acronyms)[1].items()
                if not re.search(rf"(?<![\w-]){re.escape(short)}(?![\w-])", tables)}

    def _period_ends(self, plan: Plan) -> list[str]:
        """The period ends the documents in scope cover (their identities'), when there are at most DEFINED_TERMS_SCOPE
        of them and the question names a quarter by its month alone; [] otherwise."""
        scope = plan.intent.doc_scope
        if not scope or len(scope) > self.DEFINED_TERMS_SCOPE or not MONTH_QUARTER.search(plan.question):
            return []
        docs = [d for d in (self.ws.catalog.document(i) for i in scope) if d is not None]
        return [stored_identity(d, lambda d=d: self.ws.catalog.first_chunks(d.doc_id, KIND_CHUNKS)).period_end or ""
                for d in docs]

    def _filtered(self, docs: Sequence[str], filters: LibraryFilters) -> list[str]:
        """The documents in scope that the filters keep (their ids)."""
        catalog = self.ws.catalog
        scope = [catalog.resolve(d) for d in docs] if docs else catalog.documents()
        kept = apply_filters(scope, filters, lambda d: stored_identity(
            d, lambda: catalog.first_chunks(d.doc_id, KIND_CHUNKS)),
            lambda d, pattern: any(pattern.search(c.text) for c in self.ws.doc_chunks(d.doc_id)))
        return [d.doc_id for d in kept]

    def _printed(self, docs: Sequence[str], segments: Sequence[str]) -> list[str]:
        """Each segment's name as the documents in scope print it, capitalised as a name where they print it so ("Fluid
        Power" for "fluid power", though "fluid power" is also printed as an industry)."""
        printed = []
        for segment in segments:
            pattern = segment_pattern(segment)
            found = [" ".join(m.group(0).split()) for d in docs for c in self.ws.doc_chunks(d) for m in pattern.finditer(c.text)]
            printed.append(max(found, key=lambda f: (sum(w[:1].isupper() for w in f.split()), found.count(f)))
                           if found else segment)
        return printed

    def plan(self, question: str, *, docs: Sequence[str] = (), mode: str = "llm_fallback", top_k: int = 8,
             hybrid: bool | None = None) -> Plan:
        """The question routed (kind, pages, documents, focus), with the options it is answered with."""
        question = question.strip()
        documents = self.ws.catalog.documents()
        # NOTE: a policy or contract is named by its title ("the IDS Policy"); a filing by its company and year
        titles = {d.doc_id: t for d in documents if d.kind != "filing" and (t := self.ws.doc_title(d))}
        routed = read_question(question, documents, list(docs), titles, self._mentions)
        intent = routed.intent
        return Plan(question=question, intent=intent, query=iterative.with_abbreviations(intent.focus or question),
                    request=routed.request,
                    mode=mode, top_k=top_k, hybrid=self.ws.settings.hybrid_retrieval if hybrid is None else hybrid)

    # -- the optional LLM step ---------------------------------------------------------------------

    def _llm_step(self, plan: Plan, evidence: Evidence, meter: UsageMeter | None) -> Evidence:
        """`llm_always`, or `llm_fallback` with a thin result (a list under MIN_ITEMS items, or nothing):
        the LLM writes the answer from the same evidence, or the deterministic one stands with a notice."""
        if evidence.unanswerable:
            return evidence
        intent = plan.intent
        thin = not evidence.pieces or (intent.type == "coverage" and intent.subtype in ("list", "numeric_list")
                                       and len(evidence.pieces) < MIN_ITEMS)
        if not (plan.mode == "llm_always" or (plan.mode == "llm_fallback" and thin)):
            return evidence
        if intent.type in ("metric", "verdict"):  # NOTE: arithmetic and verdicts are always VERA's
            return evidence
        if intent.type == "metadata":  # NOTE: facts come from explicit evidence only, never from a model
            return evidence if self.llm else replace(evidence, notices=evidence.notices + (llm_steps.NO_KEY,))
        return llm_steps.write_answer(self.llm, plan, evidence, meter,
                                      {d.doc_id: d.name for d in self.ws.catalog.documents()})

    # -- verify and assemble -----------------------------------------------------------------------

    def _assemble(self, plan: Plan, evidence: Evidence, meter: UsageMeter | None) -> Answer:
        """Cite and verify every piece (grounding, figures, list items, the LLM audit), then write the
        answer text and what retrieval read."""
        docs = {d.doc_id: d for d in self.ws.catalog.documents()}
        names = {k: d.name for k, d in docs.items()}
        formats = {k: d.format for k, d in docs.items()}
        pieces = list(evidence.pieces)
        citations, numbers = compose.citations_for(pieces, names, formats, locate=self.locator.locate)
        citations = with_context(citations, docs)
        notices = list(evidence.notices)
        in_scope = plan.intent.doc_scope or list(docs)
        pending = sorted(names[d] for d in self.ws.searchable_only(in_scope) if d in names)
        if pending and plan.intent.type in ("semantic", "figure", "metric", "coverage"):
            notices.append(f"Dense retrieval is not yet available for {len(pending)} of {len(in_scope)} documents "
                           f"({', '.join(pending[:5])}{', ...' if len(pending) > 5 else ''}): their vectors are "
                           "still being written, so they were searched by keywords and structure only.")
        dense_off = self.ws.dense.reason  # NOTE: the store's vectors are another model's, or being re-embedded
        if dense_off and plan.intent.type in ("semantic", "figure", "metric", "coverage"):
            notices.append(dense_off)
        verification = self._verify(plan, evidence, numbers, names, meter, notices)
        if evidence.is_list and pieces:
            body = "\n".join(f"- {p.text} [{n}]" for p, n in zip(pieces, numbers))
            text = "\n".join([evidence.lead, body] + list(evidence.missing)).strip()
            items = compose.items_for(pieces, numbers)
        else:
            text = " ".join(f"{p.text} [{n}]" for p, n in zip(pieces, numbers)) or evidence.empty_message
            if pieces and evidence.lead:  # a metric's result and calculation lead its cited operands
                text = f"{evidence.lead} {text}"
            if pieces and evidence.missing:
                text = f"{text} {' '.join(evidence.missing)}"
            items = []
        intent = plan.intent
        if evidence.doc_scope is not None:
            intent = intent.model_copy(update={"doc_scope": list(evidence.doc_scope)})
        hits = [h.chunk for h in evidence.hits]
        figures = [f.model_copy(update={"citation": n}) for f, n in zip(evidence.figures, numbers)]
        calculation = evidence.calculation
        if calculation is not None:
            calculation = calculation.model_copy(update={"operands": [
                o.model_copy(update={"citation": n}) for o, n in zip(calculation.operands, numbers)]})
        documents = [d.model_copy(update={"citation": n}) for d, n in zip(evidence.documents, numbers)] \
            + list(evidence.documents[len(numbers):])
        return Answer(
            documents=documents, figures=figures, calculation=calculation, verdict=evidence.verdict, question=plan.question, intent=intent, answer=text, items=items, citations=citations,
            verification=verification, mode=plan.mode, notices=notices, llm=_usage(meter, evidence.written_by_llm),
            retrieval=RetrievalInfo(hops=evidence.hops, coverage=min(1.0, evidence.coverage),
                                    searched_pages=_searched_pages(plan, evidence),
                                    candidates=len({c.chunk_id for c in hits} | {c.chunk_id for c in evidence.scope}),
                                    sections=list(evidence.sections), mode="hybrid" if plan.hybrid else "dense",
                                    dense_pending=pending, dense_unavailable=dense_off,
                                    **_ranked(plan, evidence)))

    def _verify(self, plan: Plan, evidence: Evidence, numbers: list[int], names: dict[str, str],
                meter: UsageMeter | None, notices: list[str]) -> Verification:
        """Grounding and figure checks of every piece, the coverage check of list items, and the LLM's
        figure audit (when on); no evidence -> an ungrounded verification naming why. Appends the
        audit's notices to `notices`."""
        pieces = list(evidence.pieces)
        if pieces:
            verification = compose.verify(pieces, numbers, embed=self._embedder_for(pieces))
            failed = [p.text[:60] for p, n in zip(pieces, numbers)
                      if evidence.is_list and not compose.item_verified(p.checked or p.text, p.chunk)]
            verification.alerts.extend(AnswerWarning(code="coverage_check", text=f"Coverage check failed for item: {t}…")
                                       for t in failed)
            verification, audit_notices = llm_steps.audit(self.llm if self.ws.settings.llm_audit else None, plan,
                                                          evidence, meter, verification, numbers, names)
            notices.extend(audit_notices)
        else:
            verification = compose.no_evidence_verification(evidence.empty_message or "No evidence found.")
        verification.alerts.extend(evidence.warnings)
        return verification

    def _embedder_for(self, pieces: Sequence[Piece]):
        """An embed function for grounding that reuses the stored vectors of cited chunks and
        embeds only the claims (sources are whole chunks: re-embedding them cost ~250 ms)."""
        known: dict[str, list[float]] | None = None

        def embed(texts: list[str]) -> list[list[float]]:
            nonlocal known
            if known is None:  # NOTE: only answers with a non-extractive claim get here
                # NOTE: a searchable document's vectors are still being written by another process
                pending = self.ws.no_vectors({p.chunk.doc_id for p in pieces})
                stored = self.ws.vectors.vectors(list({p.chunk.chunk_id for p in pieces if p.chunk.doc_id not in pending}))
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


def _searched_pages(plan: Plan, evidence: Evidence) -> list[int]:
    """Pages read: the scope's (else the hits'); for a location question, the named pages read."""
    searched = sorted({p for c in (evidence.scope or [h.chunk for h in evidence.hits]) for p in c.pages})
    if plan.intent.type == "location":
        return [p for p in plan.intent.pages if p in searched] if evidence.scope else []
    return searched


class LexicalVerifierEngine(QueryEngine):
    """A QueryEngine whose grounding reads words and figures only (no claim embeddings): the app's
    "semantic verifier" switched off."""

    def _embedder_for(self, pieces):
        return None


def _ranked(plan: Plan, evidence: Evidence) -> dict[str, list]:
    """Pages in evidence order, with their documents (`ranked_pages`, `ranked_docs`)."""
    ranked: list[tuple[str, int]] = []
    # NOTE: for semantic questions the retriever's order is the evidence ranking, unless the answer
    # leads with a figure it computed (a change whose causes are asked): its cells are the answer's
    # evidence. Scoped intents (location, coverage, metadata) answer from what they cite, so cited
    # pieces lead.
    hits, cited = [h.chunk for h in evidence.hits], [p.chunk for p in evidence.pieces]
    ordered = hits + cited if plan.intent.type == "semantic" and not evidence.lead else cited + hits
    for chunk in ordered + list(evidence.scope):
        for page in chunk.pages:
            if (chunk.doc_id, page) not in ranked:
                ranked.append((chunk.doc_id, page))
    return {"ranked_pages": [p for _, p in ranked], "ranked_docs": [d for d, _ in ranked]}


def _usage(meter: UsageMeter | None, wrote: bool) -> LLMUsage | None:
    if meter is None or not (meter.calls or meter.failures):
        return None
    return LLMUsage(model=meter.model, calls=meter.calls, input_tokens=meter.input_tokens,
                    output_tokens=meter.output_tokens, cost_usd=meter.cost_usd, wrote_answer=wrote)


__all__ = ["LexicalVerifierEngine", "MODES", "QueryEngine", "Verification"]
