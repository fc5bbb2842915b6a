"""Document-coverage questions: every document of the kind asked that addresses a topic, each with its
section and a quoted passage ("Which policies address encryption of data at rest? Provide the specific
policy sections."). Each document in scope is searched on its own, so a document that says it in other
words ("full disk encryption", "persistent data encryption") is not crowded out by one that says it
often; documents known to be of another kind (a 10-K for "which policies") are left out and named, and
a document whose kind VERA is not sure of is searched, never silently left out
(vera_core/documents/kinds.py).

A document counts when one of its passages addresses the topic (`documents.addresses`):
- it holds every concept of the topic, each in the question's words or a synonym (`vera_core/data/synonyms.md`);
- or it holds at least half of them and the dense model finds it close to the topic (cosine >= PAIR_COSINE);
- or the dense model alone finds it very close (cosine >= DENSE_COSINE);
or, for words no synonym lists (another organisation's vocabulary), when the learned decision over its
chunks' closeness to the topic and its rank among the documents searched says so (`answer/doc_decision.py`),
its closest passage then cited. The thresholds are calibrated in `scripts/calibrate_documents.py`, the
model trained in `scripts/train_documents_model.py` (see docs/decisions.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vera_core.answer import doc_decision
from vera_core.answer.compose import Piece
from vera_core.answer.contract import DocumentMatch
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.topics import Passage, Topic, coverage, passages, read_topic
from vera_core.documents.kinds import KIND_CHUNKS, DocKind, KindReading, kind_asked, searched_for, stored_kind
from vera_core.records import ChunkRecord, DocumentRecord
from vera_core.retrieve.hybrid import Hit
from vera_core.retrieve.synonyms import groups

__all__ = ["DENSE_COSINE", "PAIR_COSINE", "addresses", "gather"]

PAIR_COSINE = 0.55
"""A passage holding at least half of the topic's concepts addresses it at this cosine to the topic."""
DENSE_COSINE = 0.65
"""A passage holding fewer concepts addresses the topic at this cosine (the dense model's reach)."""
DENSE_CHUNK_COSINE = 0.45
"""A chunk this close to the topic has its passages compared with the topic one by one."""
SMALL_DOCUMENT = 40
"""Documents of at most this many chunks are read whole; larger ones through their best chunks."""
KEYWORD_DEPTH = 8
DENSE_DEPTH = 4
DENSE_MAX = 400
"""At most this many dense hits for a question over many documents (the keyword search still reads
every document)."""
_KIND_PLURALS = {"policy": "policies", "contract": "contracts", "filing": "filings", None: "documents"}


@dataclass(frozen=True)
class Finding:
    """The best passage of one searched document."""

    doc: DocumentRecord
    passage: Passage | None
    lexical: float
    """Share of the topic's concepts the passage holds (`topics.coverage`)."""
    cosine: float | None = None
    """The passage's cosine to the topic, when it was compared."""
    model: float | None = None
    """The learned decision's probability that the document addresses the topic (None: no vectors)."""

    @property
    def matched(self) -> bool:
        return self.passage is not None and (addresses(self.lexical, self.cosine) or self.by_model)

    @property
    def by_model(self) -> bool:
        """The learned decision says so, and the passage quoted is itself about the topic (a chunk close
        to "encryption at rest" may quote "encrypted in transit")."""
        return (self.model is not None and self.model >= doc_decision.MODEL_THRESHOLD
                and self.cosine is not None and self.cosine >= doc_decision.PASSAGE_FLOOR)


def addresses(lexical: float, cosine: float | None) -> bool:
    """The decision rule: every concept held, or half of them and close, or very close."""
    if lexical >= 1.0:
        return True
    if cosine is None:
        return False
    return (lexical >= 0.5 and cosine >= PAIR_COSINE) or cosine >= DENSE_COSINE


def gather(plan: Plan, services: Services) -> Evidence:
    """The documents of the kind asked that address the question's topic, one cited passage each,
    ordered by document name; the lead says how many were searched, `missing` which were not matched
    and which were left out as another kind."""
    with services.clock.stage("retrieve"):
        topic = read_topic(plan.question)
        kind, _ = kind_asked(plan.question)
        docs = [d for d in (services.ws.catalog.document(i) for i in services.doc_ids(plan)) if d is not None]
        kinds = {d.doc_id: stored_kind(d, lambda d=d: services.ws.catalog.first_chunks(d.doc_id, KIND_CHUNKS))
                 for d in docs}
        # NOTE: documents the asker chose by name are searched whatever their kind
        chosen = bool(plan.intent.doc_scope)
        searched = [d for d in docs if chosen or searched_for(kind, kinds[d.doc_id])]
        other = [d for d in docs if d not in searched]
        if not topic.concepts:
            return Evidence(unanswerable=True, hops=1, empty_message=(
                f"The question names no topic to look for in the {_KIND_PLURALS[kind]}."))
        findings = _search(services, topic, searched)
    with services.clock.stage("synthesize"):
        return _evidence(topic, kind, findings, other, kinds)


def _search(services: Services, topic: Topic, docs: Sequence[DocumentRecord]) -> list[Finding]:
    """Each document's best passage: lexical coverage first, then the dense model for passages that
    hold part of the topic or sit in chunks the dense search finds close (one batch for all)."""
    query = topic.text
    extra = " ".join(p for c in topic.concepts for g in groups() if g.key == c.group for p in g.phrases)
    vector = np.asarray(services.ws.embedder.get_query_embedding(query))
    staged: list[tuple[DocumentRecord, list[tuple[Passage, float]]]] = []
    to_embed: list[Passage] = []
    pending = services.ws.no_vectors([d.doc_id for d in docs])
    dense = _dense_hits(services, [d.doc_id for d in docs if d.doc_id not in pending], vector)
    for doc in docs:
        chunks, close = _candidates(services, doc, query, extra, dense.get(doc.doc_id, []))
        scored = [(p, coverage(p, topic)) for p in passages(chunks)]
        staged.append((doc, scored))
        if not any(lex >= 1.0 for _, lex in scored):
            to_embed += [p for p, lex in scored if lex >= 0.5 or p.chunk.chunk_id in close]
    # NOTE: the learned decision reads each document's stored chunk vectors (no passage is embedded for it)
    chunk_cos: dict[str, list[float]] = {}
    best_chunk: dict[str, str] = {}
    for doc, _ in staged:
        if doc.doc_id in pending:
            continue
        ids, matrix = services.ws.doc_vectors(doc.doc_id)
        if ids:
            cos = matrix @ vector.astype(np.float32)
            chunk_cos[doc.doc_id] = [float(c) for c in cos]
            best_chunk[doc.doc_id] = ids[int(np.argmax(cos))]
    lexical = {doc.doc_id: max((lex for _, lex in scored), default=0.0) for doc, scored in staged}
    model = {d: doc_decision.probability(f) for d, f in doc_decision.features(chunk_cos, lexical).items()}
    for doc, scored in staged:
        # NOTE: a document the model matches is quoted from its closest chunk: its passages are compared too
        if model.get(doc.doc_id, 0.0) >= doc_decision.MODEL_THRESHOLD and not any(lex >= 1.0 for _, lex in scored):
            extra_passages = passages([c for c in services.ws.doc_chunks(doc.doc_id)
                                       if c.chunk_id == best_chunk.get(doc.doc_id)])
            known = {(p.chunk.chunk_id, p.text) for p, _ in scored}
            extra_passages = [p for p in extra_passages if (p.chunk.chunk_id, p.text) not in known]
            scored.extend((p, coverage(p, topic)) for p in extra_passages)
            to_embed += [p for p, _ in scored if p.chunk.chunk_id == best_chunk.get(doc.doc_id)
                         and p not in to_embed]
    cosines = _cosines(services, to_embed, vector)
    findings = []
    for doc, scored in staged:
        best: Finding | None = None
        for passage, lex in scored:
            cos = cosines.get(id(passage))
            finding = Finding(doc, passage, lex, cos, model.get(doc.doc_id))
            rank = (finding.matched, addresses(lex, cos), lex + (cos or 0.0), cos or 0.0)
            if best is None or rank > (best.matched, addresses(best.lexical, best.cosine),
                                       best.lexical + (best.cosine or 0.0), best.cosine or 0.0):
                best = finding
        findings.append(best or Finding(doc, None, 0.0, None, model.get(doc.doc_id)))
    return findings


def _dense_hits(services: Services, doc_ids: list[str], vector: np.ndarray) -> dict[str, list]:
    """The chunks closest to the topic in the documents with vectors, as (hit, chunk) grouped by
    document: one search over them all (DENSE_DEPTH a document on average), not one per document."""
    if not doc_ids:
        return {}
    hits = services.ws.vectors.query(vector.tolist(), min(DENSE_MAX, DENSE_DEPTH * len(doc_ids)), doc_ids=doc_ids)
    found = services.ws.catalog.chunks_by_id([h.chunk_id for h in hits])
    grouped: dict[str, list] = {}
    for hit in hits:
        chunk = found.get(hit.chunk_id)
        if chunk is not None:
            grouped.setdefault(chunk.doc_id, []).append((hit, chunk))
    return grouped


def _candidates(services: Services, doc: DocumentRecord, query: str, extra: str,
                dense: list) -> tuple[list[ChunkRecord], set[str]]:
    """The chunks of a document to read (all of a small one, else its best keyword and dense hits, in
    document order) and the ids of those the dense search finds close to the topic."""
    close = {hit.chunk_id for hit, _ in dense if hit.score >= DENSE_CHUNK_COSINE}
    if doc.chunk_count <= SMALL_DOCUMENT:
        return services.ws.doc_chunks(doc.doc_id), close
    chunks = {chunk.chunk_id: chunk for _, chunk in dense}
    index = services.ws.keyword_index(doc.doc_id)
    keyword = [h.chunk_id for h in index.search(query, KEYWORD_DEPTH, extra=extra) if h.chunk_id not in chunks]
    chunks.update(services.ws.catalog.chunks_by_id(keyword))
    return sorted(chunks.values(), key=lambda c: c.position), close


def _cosines(services: Services, found: Sequence[Passage], vector: np.ndarray) -> dict[int, float]:
    """Cosine of each passage to the topic vector (keyed by the passage's id), in one batch."""
    if not found:
        return {}
    vectors = np.asarray(services.ws.embedder.encode([p.text for p in found]))
    return {id(p): float(v @ vector) for p, v in zip(found, vectors)}


def _title(doc: DocumentRecord) -> str:
    """A Markdown document's front-matter title ('' when none)."""
    return str(((doc.metadata or {}).get("front_matter") or {}).get("title") or "")


def _where(doc: DocumentRecord, passage: Passage) -> str:
    """The passage's section path for the reader: its headings below the document's own title, and the
    outline item it sits under."""
    titles = list(passage.chunk.heading_titles)
    if titles and (titles[0] == _title(doc) or len(titles) > 1 and doc.format == "markdown"):
        titles = titles[1:]
    parts = titles + ([passage.parent] if passage.parent else [])
    return " > ".join(parts) or passage.chunk.heading_path.replace("/", " > ")


def _kind_said(reading: KindReading) -> str:
    return f"{reading.kind}, {'as you set it' if reading.basis == 'user' else 'from its ' + reading.basis}"


def _label(doc: DocumentRecord) -> str:
    return f"{_title(doc)} ({doc.name})" if _title(doc) else doc.name


def _evidence(topic: Topic, kind: DocKind | None, findings: list[Finding],
              other: list[DocumentRecord], kinds: dict[str, KindReading]) -> Evidence:
    plural = _KIND_PLURALS[kind]
    matched = sorted((f for f in findings if f.matched), key=lambda f: f.doc.name.lower())
    unmatched = sorted((f for f in findings if not f.matched), key=lambda f: f.doc.name.lower())
    wheres = [_where(f.doc, f.passage) for f in matched]
    pieces = [Piece(f"{_label(f.doc)}, {where}: \u201c{f.passage.text}\u201d", f.passage.chunk, f.passage.quote,
                    checked=f.passage.text, score=round(f.lexical, 4)) for f, where in zip(matched, wheres)]
    searched = len(findings)
    unsure = sorted(f.doc.name for f in findings if kind is not None and kinds[f.doc.doc_id].kind != kind)
    noun = plural if searched != 1 else plural.rstrip("s")
    if unsure:  # NOTE: documents whose kind is not known for certain are searched too, and said so
        noun = (f"documents searched ({searched - len(unsure)} {plural}, {len(unsure)} of uncertain kind)"
                if searched != 1 else "document searched (of uncertain kind)")
        lead = f"{len(matched)} of the {searched} {noun} address{'es' if len(matched) == 1 else ''} {topic.text}:"
    else:
        lead = f"{len(matched)} of the {searched} {noun} searched address{'es' if len(matched) == 1 else ''} {topic.text}:"
    missing = []
    if unmatched:
        missing.append(f"Not matched ({len(unmatched)}): {', '.join(f.doc.name for f in unmatched)}.")
    if unsure:
        missing.append(f"Searched although their kind is uncertain ({len(unsure)}): {', '.join(unsure)}; set a "
                       f"document's kind on the Documents page (or `vera kind DOC KIND`).")
    if other:
        missing.append(f"Left out as not {plural} ({len(other)}): "
                       f"{', '.join(f'{d.name} ({_kind_said(kinds[d.doc_id])})' for d in sorted(other, key=lambda d: d.name))}.")
    empty = (f"None of the {searched} {plural} searched addresses {topic.text}." if searched else
             f"No {plural} are in scope; {len(other)} other documents were not searched.")
    if not matched and missing:
        empty = f"{empty} {' '.join(missing)}"
    documents = ([DocumentMatch(doc_id=f.doc.doc_id, doc_name=f.doc.name, kind=kinds[f.doc.doc_id].kind,
                                kind_basis=kinds[f.doc.doc_id].basis, status="matched", section=where,
                                score=round(f.lexical, 4)) for f, where in zip(matched, wheres)]
                 + [DocumentMatch(doc_id=f.doc.doc_id, doc_name=f.doc.name, kind=kinds[f.doc.doc_id].kind,
                                  kind_basis=kinds[f.doc.doc_id].basis, status="not_matched",
                                  score=round(f.lexical, 4)) for f in unmatched]
                 + [DocumentMatch(doc_id=d.doc_id, doc_name=d.name, kind=kinds[d.doc_id].kind,
                                  kind_basis=kinds[d.doc_id].basis, status="other_kind")
                    for d in sorted(other, key=lambda d: d.name.lower())])
    best_chunks = [f.passage.chunk for f in matched + unmatched if f.passage is not None]
    return Evidence(pieces=tuple(pieces), is_list=True, lead=lead if pieces else "", missing=tuple(missing),
                    empty_message=empty, hits=tuple(Hit(c, 1.0, None, None) for c in best_chunks),
                    sections=tuple(wheres), hops=1,
                    coverage=max((f.lexical for f in findings), default=0.0), documents=tuple(documents))
