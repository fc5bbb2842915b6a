"""Document facts from explicit evidence: currency, reporting period, framework, units, consolidation.

Deterministic and conservative. A fact is `found` only when the document states it in words
(`patterns.py` holds the wording); statements that disagree make it `ambiguous` (no value); no
statement makes it `not_found`, reported with the pages and sections searched. Never inferred:
"$" or "EUR" next to figures in tables is not a statement of the currency.

The front of a document is searched (pages 1-10; the first 10 chunks of a Markdown file) plus
the first section titled, and the first passage containing, each of `SECTION_PHRASES`; beyond it,
the primary statements' scale lines for units and currency, and the auditor's opinion for the
framework (`statements.py`). Sentence statements outrank the primary statements' legends, which
outrank other titles (headings, captions, table footnotes, unit legends such as "(Millions)");
within the strongest tier present, every statement must agree. Among agreeing statements the
evidence shown is the most confident, then one from the front matter, then the first.

The same code serves ingestion (`refresh_facts` stores the five facts with lineage in
`document_facts`) and question time (a front-matter locate calls `extract_fact`).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from vera_core.facts import patterns, statements
from vera_core.facts.highlight import line_rects
from vera_core.facts.period import period_iso
from vera_core.records import ChunkRecord, DocumentRecord, FactRecord, Rect
from vera_core.store.catalog import Catalog

__all__ = ["EXTRACTOR_VERSION", "FACT_NAMES", "FactCandidate", "FactResult", "extract_fact", "extract_facts",
           "period_iso", "refresh_facts", "search_scope", "to_record"]

FACT_NAMES: tuple[str, ...] = ("default_currency", "reporting_period", "accounting_framework", "units",
                               "consolidation_basis")
EXTRACTOR_VERSION = "facts-2"
"""facts-2: statements' scale lines and the auditor's opinion read; periods stored as readable text."""
FRONT_PAGES = 10
"""Pages 1..FRONT_PAGES of a PDF are always searched."""
FRONT_CHUNKS = 10
"""Chunks always searched in a document without pages (Markdown)."""
SECTION_PHRASES = ("consolidated financial statements", "basis of presentation", "basis of preparation",
                   "significant accounting policies", "presentation currency", "functional currency")
"""The first section titled with, and the first passage containing, each phrase are searched too."""
MAX_EXCERPT = 299


@dataclass(frozen=True)
class FactCandidate:
    """One explicit statement of a fact found in the searched scope."""

    value: str
    """The value it states, normalised like `FactResult.value`."""
    chunk_id: str
    """The chunk holding the statement."""
    page: int | None
    """1-based page of the statement; None for Markdown."""
    excerpt: str
    """The sentence or line that states it, whitespace-normalised, under 300 characters."""


@dataclass(frozen=True)
class FactResult:
    """The outcome of extracting one fact from one document."""

    name: str
    """One of `FACT_NAMES`."""
    value: str | None
    """ISO 4217 code; a readable period ("fiscal year ended December 31, 2018", "financial year from
    1 January 2024 to 31 December 2024": ISO dates via `period_iso`); "IFRS"/"US GAAP";
    "<CUR> thousand|million|billion" or the bare scale; "consolidated"/"standalone"/"parent only".
    None unless `status` is `found`."""
    status: str
    """`found`, `not_found` or `ambiguous`."""
    confidence: float
    """In [0, 1]: 0.95 for a direct statement, about 0.6 for a caption or legend, 0 when not found."""
    chunk: ChunkRecord | None
    """The chunk holding the evidence (found only)."""
    excerpt: str
    """The evidence sentence ('' unless found)."""
    polygons: tuple[Rect, ...]
    """Highlight: the chunk's line rects under the excerpt when they can be told apart, else all of the
    chunk's rects; () for Markdown and when not found."""
    pages_searched: tuple[int, ...]
    """1-based pages of the searched scope (front matter and, for this fact, the statements), ascending
    (empty for Markdown)."""
    sections_searched: tuple[str, ...]
    """Heading paths of the searched scope, in document order."""
    candidates: tuple[FactCandidate, ...]
    """The statements of the deciding (strongest) tier, in document order; the conflict when ambiguous."""


@dataclass(frozen=True)
class _Span:
    """A sentence or title line of a chunk: `chunk.text[start:end]`."""

    start: int
    end: int
    kind: str
    """`sentence`, `title` (heading, caption, short line without a full stop) or `legend` (a table's
    footnote or stub-column cell: read for units and currency only)."""


@dataclass(frozen=True)
class _Hit:
    statement: patterns.Statement
    chunk: ChunkRecord
    span: tuple[int, int]
    """The excerpt's offsets in `chunk.text`."""
    candidate: FactCandidate


# -- scope -----------------------------------------------------------------------------------------

def search_scope(chunks: Sequence[ChunkRecord]) -> list[ChunkRecord]:
    """The chunks searched for facts, in document order: pages 1-10 (or, without pages, the first 10
    chunks) plus the first section titled and the first passage containing each `SECTION_PHRASES`."""
    ordered = sorted(chunks, key=lambda c: c.position)
    paged = any(c.page_start for c in ordered)
    keep = {i for i, c in enumerate(ordered)
            if (0 < c.page_start <= FRONT_PAGES if paged else i < FRONT_CHUNKS)}
    for phrase in SECTION_PHRASES:
        keep |= _first_section(ordered, phrase)
        passage = next((i for i, c in enumerate(ordered) if c.kind == "text" and phrase in _norm(c.text)), None)
        if passage is not None:
            keep.add(passage)
    return [ordered[i] for i in sorted(keep)]


def _first_section(ordered: list[ChunkRecord], phrase: str) -> set[int]:
    """Indexes of the chunks of the first section whose title contains `phrase` (with subsections)."""
    for i, chunk in enumerate(ordered):
        for depth, title in enumerate(chunk.heading_titles):
            if phrase in _norm(title):
                prefix = chunk.heading_titles[:depth + 1]
                end = i
                while end < len(ordered) and ordered[end].heading_titles[:len(prefix)] == prefix:
                    end += 1
                return set(range(i, end))
    return set()


def _norm(text: str) -> str:
    return " ".join(text.replace("’", "'").lower().split())


# -- extraction ------------------------------------------------------------------------------------

def extract_fact(name: str, chunks: Sequence[ChunkRecord]) -> FactResult:
    """One fact of a document from its chunks (all of them; the scope is chosen here).

    Raises ValueError for a name not in `FACT_NAMES`.
    """
    if name not in FACT_NAMES:
        raise ValueError(f"Unknown fact {name!r}; expected one of {', '.join(FACT_NAMES)}.")
    return _extract(chunks, (name,))[0]


def extract_facts(chunks: Sequence[ChunkRecord]) -> list[FactResult]:
    """All of `FACT_NAMES`, in that order (the scope and its sentences are computed once)."""
    return _extract(chunks, FACT_NAMES)


def _extract(chunks: Sequence[ChunkRecord], names: Sequence[str]) -> list[FactResult]:
    ordered = sorted(chunks, key=lambda c: c.position)
    front = search_scope(ordered)
    front_ids = {c.chunk_id for c in front}
    beyond = statements.statement_scope(ordered, names)
    spans: dict[str, list[_Span]] = {}
    # NOTE: a bare "GAAP" counts as US GAAP only where the filing itself defines the abbreviation
    # that way (10-Ks do, often once, far from Note 1); the definition may lie outside the scope.
    gaap = functools.cache(lambda: any(patterns.GAAP_DEFINITION.search(c.text) for c in chunks))
    results = []
    for name in names:
        extra = beyond.get(name, [])
        scope = sorted({c.chunk_id: c for c in (*front, *extra)}.values(), key=lambda c: c.position)
        raised = {c.chunk_id for c in extra} if name in statements.LEGEND_FACTS else set()
        hits = []
        for c in scope:
            if c.chunk_id not in spans:
                spans[c.chunk_id] = _spans(c)
            hits += _hits(name, c, spans[c.chunk_id], gaap, statement=c.chunk_id in raised)
        results.append(_resolve(name, scope, hits, front_ids))
    return results


def _hits(name: str, chunk: ChunkRecord, spans: list[_Span], gaap: Callable[[], bool], *,
          statement: bool = False) -> list[_Hit]:
    """The statements of fact `name` in a chunk's spans; a title in a primary statement (`statement`)
    is raised to `patterns.TIER_STATEMENT`."""
    hits: list[_Hit] = []
    for span in spans:
        if span.kind == "legend" and name not in ("units", "default_currency"):
            continue
        text = chunk.text[span.start:span.end]
        best: dict[str, patterns.Statement] = {}
        for st in patterns.find(name, text, title=span.kind != "sentence"):
            if st.value == patterns.BARE_GAAP:
                if not gaap():
                    continue
                st = dataclasses.replace(st, value="US GAAP")
            if statement and st.tier == patterns.TIER_TITLE:
                st = dataclasses.replace(st, tier=patterns.TIER_STATEMENT)
            if st.value not in best or (st.tier, st.confidence) > (best[st.value].tier, best[st.value].confidence):
                best[st.value] = st
        for st in sorted(best.values(), key=lambda s: s.start):
            start, end = _excerpt_span(chunk.text, span.start, span.end, span.start + st.start, span.start + st.end)
            rects = line_rects(chunk, start, end)
            page = rects[0].page if rects else (chunk.page_start or None)
            excerpt = " ".join(chunk.text[start:end].split())
            hits.append(_Hit(st, chunk, (start, end), FactCandidate(st.value, chunk.chunk_id, page, excerpt)))
    return hits


def _resolve(name: str, scope: list[ChunkRecord], hits: list[_Hit], front_ids: set[str]) -> FactResult:
    pages = tuple(sorted({p for c in scope for p in c.pages}))
    sections = tuple(dict.fromkeys(c.heading_path for c in scope))
    if not hits:
        return FactResult(name, None, "not_found", 0.0, None, "", (), pages, sections, ())
    top = max(h.statement.tier for h in hits)
    deciding = [h for h in hits if h.statement.tier == top]
    candidates = tuple(dict.fromkeys(h.candidate for h in deciding))
    preferred = sorted(deciding, reverse=True, key=lambda h: (h.statement.confidence, h.chunk.chunk_id in front_ids,
                                                              -h.chunk.position, -h.span[0]))
    value = patterns.reconcile(name, [h.candidate.value for h in preferred])
    if value is None:
        return FactResult(name, None, "ambiguous", 0.0, None, "", (), pages, sections, candidates)
    best = next(h for h in preferred if h.candidate.value == value)
    return FactResult(name, value, "found", round(best.statement.confidence, 2), best.chunk, best.candidate.excerpt,
                      line_rects(best.chunk, *best.span), pages, sections, candidates)


# -- sentences and lines ---------------------------------------------------------------------------

_BOUNDARY = re.compile(r"(?<=[.!?])(?P<close>[\"'”’)]*)\s+(?=[\"“(\[]?[A-Z0-9])")
_ABBREVIATION = re.compile(r"(?:\b(?:[A-Za-z]\.){2,}|\b(?:Inc|Co|Corp|Ltd|No|Nos|Mr|Mrs|Ms|Dr|St|vs|etc|approx|Jan"
                           r"|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Sec|Art|p|pp|cf)\.)$")
_SENTENCE_END = re.compile(r"[.!?:;][\"'”’)]*$")
_CELL = re.compile(r"^\|\s*([^|]*?)\s*\|")


def _spans(chunk: ChunkRecord) -> list[_Span]:
    """The sentences and title lines of a chunk; a table contributes only its caption, footnotes
    and the unit legend of its stub column, never its cells' figures."""
    text = chunk.text
    if chunk.kind == "code":
        return []
    if chunk.kind == "table":
        spans = []
        # NOTE: footnotes count only as unit legends: they qualify single figures ("(b) In the 12
        # weeks ended March 19, 2022, we sold ..."), so their dates are not the document's period.
        for part, at, kind in ((chunk.caption, text.find(chunk.caption), "title"),
                               (chunk.footnotes, text.rfind(chunk.footnotes), "legend")):
            if part and at >= 0:
                spans.extend(_Span(at + m.start(), at + m.end(), kind) for m in re.finditer(r"[^\n]+", part))
        rows = [m for m in re.finditer(r"^\|.*$", text, re.MULTILINE) if not m.group(0).startswith("|---")]
        for row in rows[:3]:
            cell = _CELL.match(row.group(0))
            if cell and cell.group(1):
                spans.append(_Span(row.start() + cell.start(1), row.start() + cell.end(1), "legend"))
        return spans
    spans: list[_Span] = []
    heading = _norm(chunk.heading_titles[-1]) if chunk.heading_titles else None
    for start, end in _paragraphs(text):
        para = text[start:end]
        pieces, cursor = [], start
        for m in _BOUNDARY.finditer(para):
            if not _ABBREVIATION.search(para[:m.start()]):
                pieces.append((cursor, start + m.start() + len(m.group("close"))))
                cursor = start + m.end()
        pieces.append((cursor, end))
        for a, b in pieces:
            piece = text[a:b].strip()
            title = _norm(piece) == heading or (len(piece) <= 200 and not _SENTENCE_END.search(piece))
            spans.append(_Span(a, b, "title" if title else "sentence"))
    return spans


def _paragraphs(text: str) -> list[tuple[int, int]]:
    """Line runs of `text`, a line that starts in lower case joined to the one before (PDF text
    often breaks a sentence over lines)."""
    out: list[tuple[int, int]] = []
    for m in re.finditer(r"[^\n]+", text):
        if not m.group(0).strip():
            continue
        if out and m.group(0).lstrip()[:1].islower():
            out[-1] = (out[-1][0], m.end())
        else:
            out.append((m.start(), m.end()))
    return out


def _excerpt_span(text: str, start: int, end: int, m_start: int, m_end: int) -> tuple[int, int]:
    """The sentence [start, end) trimmed to at most `MAX_EXCERPT` characters around the match, at
    word boundaries."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end - start <= MAX_EXCERPT:
        return start, end
    room = max(0, MAX_EXCERPT - (m_end - m_start))
    lo = max(start, m_start - room // 2)
    hi = min(end, lo + MAX_EXCERPT)
    lo = max(start, hi - MAX_EXCERPT)
    if lo > start:
        lo = text.find(" ", lo, m_start) + 1 or lo
    if hi < end:
        cut = text.rfind(" ", m_end, hi)
        hi = cut if cut > 0 else hi
    return lo, hi


# -- catalog ---------------------------------------------------------------------------------------

def to_record(result: FactResult, doc: DocumentRecord) -> FactRecord:
    """The `document_facts` row for a result, with lineage (extractor version, the document's
    SHA-256, extraction time). `page_numbers` holds the evidence pages when found, else the pages
    searched, so a stored not_found or ambiguous still says where VERA looked."""
    found = result.status == "found"
    evidence_pages = tuple(sorted({r.page for r in result.polygons}))
    if found and not evidence_pages and result.chunk is not None:
        evidence_pages = result.chunk.pages
    return FactRecord(
        doc_id=doc.doc_id, fact_name=result.name, value=result.value if found else None, status=result.status,
        confidence=result.confidence if found else 0.0,
        source_chunk_id=result.chunk.chunk_id if found and result.chunk is not None else None,
        page_numbers=evidence_pages if found else result.pages_searched,
        polygons=result.polygons if found else (), evidence_excerpt=result.excerpt if found else "",
        extractor_version=EXTRACTOR_VERSION, doc_sha256=doc.sha256,
        extracted_at=datetime.now(UTC).isoformat(timespec="seconds"))


def refresh_facts(catalog: Catalog, doc: DocumentRecord) -> list[FactResult]:
    """Extract all five facts from the document's stored chunks and upsert them (replacing any
    earlier extraction); returns the results in `FACT_NAMES` order."""
    results = extract_facts(catalog.chunks(doc.doc_id))
    for result in results:
        catalog.upsert_fact(to_record(result, doc))
    return results
