"""How close in meaning a passage is to what a question asks: the cosine of the passage's stored dense vector (written
at ingestion) and the topic's (one query embedding). Read where the words alone say too little: a topic asked in other
words than the document's ("governments putting rules on AI" of "we are not waiting for regulation"; "their biggest
customers" of "Top 10 Customer Accounts by Revenue"). A passage without a vector yet is 0: a store still embedding
answers by its words, as before."""

from __future__ import annotations

from collections.abc import Iterable

from vera_core.records import ChunkRecord

__all__ = ["closeness", "topic_vector"]


def topic_vector(ws, topic: str):
    """The topic's query embedding, to read against many passages (None for an empty topic)."""
    import numpy as np

    return np.asarray(ws.embedder.encode([topic])[0], dtype=np.float32) if topic.strip() else None


def closeness(ws, topic: str, chunks: Iterable[ChunkRecord], query=None) -> dict[str, float]:
    """Each chunk's cosine to the topic, by chunk id (0.0 for a chunk without a stored vector). `query`: the topic's
    vector when the caller already holds it (`topic_vector`), so one question encodes its topic once."""
    chunks = list(chunks)
    if not chunks or not topic.strip():
        return {c.chunk_id: 0.0 for c in chunks}
    query = topic_vector(ws, topic) if query is None else query
    out: dict[str, float] = {}
    rows: dict[str, tuple[dict[str, int], object]] = {}
    for chunk in chunks:
        if chunk.doc_id not in rows:
            ids, matrix = ws.doc_vectors(chunk.doc_id)
            rows[chunk.doc_id] = ({chunk_id: k for k, chunk_id in enumerate(ids)}, matrix)
        index, matrix = rows[chunk.doc_id]
        k = index.get(chunk.chunk_id)
        out[chunk.chunk_id] = float(matrix[k] @ query) if k is not None else 0.0
    return out
