"""Coverage scopes: from an anchor chunk to the whole section it belongs to, in document order."""

from __future__ import annotations

import re
from collections.abc import Sequence

from vera_core.records import ChunkRecord
from vera_core.text import terms

NUMBERING_WORDS = frozenset({"item", "part", "note", "section", "article", "chapter", "schedule", "exhibit"})
NUMBERING = re.compile(r"\d+(?:\.\d+)*\.?[a-z]?|[ivxlc]+|[a-z]")


def section_scope(anchor: ChunkRecord, chunks: Sequence[ChunkRecord]) -> tuple[list[ChunkRecord], str]:
    """Every chunk under the anchor's heading path (its subsections included), in document order;
    a page window around the anchor when the document has no section metadata. Returns the chunks
    and a description of the scope."""
    doc_chunks = [c for c in chunks if c.doc_id == anchor.doc_id]
    if anchor.heading_titles:
        prefix = anchor.heading_path
        scope = [c for c in doc_chunks if c.heading_path == prefix or c.heading_path.startswith(prefix + "/")]
        if STRUCTURAL.match(anchor.heading_titles[-1]):
            scope = _to_next_structural(anchor, doc_chunks, scope)
        return scope, prefix
    if anchor.page_start:
        lo, hi = anchor.page_start - 1, anchor.page_end + 1
        scope = [c for c in doc_chunks if c.page_start and c.page_end >= lo and c.page_start <= hi]
        return scope, f"pages {max(lo, 1)}-{hi}"
    return [anchor], anchor.heading_path


STRUCTURAL = re.compile(r"^\s*(?:item\s+\d+[a-z]?\b|part\s+[ivx]+\b|note\s+\d+\b)", re.I)
"""A filing's structural heading: an Item runs to the next Item, a Note to the next Note."""


def _to_next_structural(anchor: ChunkRecord, doc_chunks: Sequence[ChunkRecord],
                        scope: list[ChunkRecord]) -> list[ChunkRecord]:
    """An Item's (or Note's) chunks up to the next heading of its kind, also when the parser gave
    its sub-headings ("Risks Related to Our Business") the Item's own level."""
    kind = STRUCTURAL.match(anchor.heading_titles[-1]).group(0).split()[0].lower()
    first = min(c.position for c in scope)
    out = []
    for chunk in doc_chunks:
        if chunk.position < first:
            continue
        title = chunk.heading_titles[-1] if chunk.heading_titles else ""
        structural = STRUCTURAL.match(title)
        if out and structural and chunk.heading_path != anchor.heading_path \
                and structural.group(0).split()[0].lower() in (kind, "part", "item"):
            break
        out.append(chunk)
    return out if len(out) >= len(scope) else scope


def heading_match(focus: str, chunks: Sequence[ChunkRecord]) -> ChunkRecord | None:
    """The first chunk of the section whose own title best matches the question's focus, when a
    title is mostly made of the focus terms (e.g. 'Significant events' for 'list all significant
    events'); None when no title matches well enough."""
    found = heading_scored(focus, chunks)
    return found[1] if found else None


def heading_scored(focus: str, chunks: Sequence[ChunkRecord]) -> tuple[float, ChunkRecord] | None:
    """`heading_match` with its score (the share of the title the focus names, times the share of the
    focus, up to three words, the title names)."""
    wanted = terms(focus)
    if not wanted:
        return None
    best: tuple[float, int, ChunkRecord] | None = None
    seen: set[str] = set()
    for chunk in chunks:
        if not chunk.heading_titles or chunk.heading_path in seen:
            continue
        seen.add(chunk.heading_path)
        title = _title_terms(chunk.heading_titles[-1])
        if not title:
            continue
        overlap = len(title & wanted)
        score = overlap / len(title) * min(1.0, overlap / max(1, min(len(wanted), 3)))
        if score >= 0.6 and (best is None or score > best[0]):
            best = (score, -chunk.position, chunk)
    return (best[0], best[2]) if best else None


def _title_terms(title: str) -> set[str]:
    """A title's terms without its numbering ('Item 1A. Risk Factors', '2. RISK FACTORS', 'Note 4'):
    the number says where a section is, not what it is about."""
    return {t for t in terms(title) if t not in NUMBERING_WORDS and not NUMBERING.fullmatch(t)}
