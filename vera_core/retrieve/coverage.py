"""Coverage scopes: from an anchor chunk to the whole section it belongs to, in document order."""

from __future__ import annotations

from collections.abc import Sequence

from vera_core.store.catalog import ChunkRecord
from vera_core.text import terms


def section_scope(anchor: ChunkRecord, chunks: Sequence[ChunkRecord]) -> tuple[list[ChunkRecord], str]:
    """Every chunk under the anchor's heading path (its subsections included), in document order;
    a page window around the anchor when the document has no section metadata. Returns the chunks
    and a description of the scope."""
    doc_chunks = [c for c in chunks if c.doc_id == anchor.doc_id]
    if anchor.heading_titles:
        prefix = anchor.heading_path
        scope = [c for c in doc_chunks if c.heading_path == prefix or c.heading_path.startswith(prefix + "/")]
        return scope, prefix
    if anchor.page_start:
        lo, hi = anchor.page_start - 1, anchor.page_end + 1
        scope = [c for c in doc_chunks if c.page_start and c.page_end >= lo and c.page_start <= hi]
        return scope, f"pages {max(lo, 1)}-{hi}"
    return [anchor], anchor.heading_path


def heading_match(focus: str, chunks: Sequence[ChunkRecord]) -> ChunkRecord | None:
    """The first chunk of the section whose own title best matches the question's focus, when a
    title is mostly made of the focus terms (e.g. 'Significant events' for 'list all significant
    events'); None when no title matches well enough."""
    wanted = terms(focus)
    if not wanted:
        return None
    best: tuple[float, int, ChunkRecord] | None = None
    seen: set[str] = set()
    for chunk in chunks:
        if not chunk.heading_titles or chunk.heading_path in seen:
            continue
        seen.add(chunk.heading_path)
        title = terms(chunk.heading_titles[-1])
        if not title:
            continue
        overlap = len(title & wanted)
        score = overlap / len(title) * min(1.0, overlap / max(1, min(len(wanted), 3)))
        if score >= 0.6 and (best is None or score > best[0]):
            best = (score, -chunk.position, chunk)
    return best[2] if best else None
