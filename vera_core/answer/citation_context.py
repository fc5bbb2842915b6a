"""Where a citation stands in the IR library: the cited document's type and quarter, a transcript turn's
speaker, a table's id, so that every answer's citations read [doc_type, quarter, page or slide, speaker
or table id]."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from vera_core.answer.contract import Citation
from vera_core.documents.identity import Identity
from vera_core.records import DocumentRecord

__all__ = ["with_context"]


def with_context(citations: Sequence[Citation], docs: Mapping[str, DocumentRecord]) -> list[Citation]:
    """The citations with their document's type and quarter, a turn's speaker and a table's id."""
    out = []
    for cite in citations:
        doc = docs.get(cite.doc_id)
        identity = Identity.from_dict(doc.identity) if doc is not None and doc.identity else None
        out.append(cite.model_copy(update={
            "doc_type": identity.doc_type if identity else "", "quarter": identity.quarter if identity else "",
            "speaker": _speaker(doc, cite.heading_path) if doc is not None else "",
            "table_id": cite.chunk_id if cite.kind == "table" else ""}))
    return out


def _speaker(doc: DocumentRecord, heading_path: str) -> str:
    """The speaker of the turn a heading path ends in ('' outside a transcript's turns)."""
    turns = (doc.metadata or {}).get("transcript", {}).get("turns") or []
    title = heading_path.rsplit("/", 1)[-1]
    return next((t["speaker"] for t in turns if t["heading"] == title), "")
