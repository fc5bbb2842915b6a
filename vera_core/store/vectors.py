"""Dense vectors of chunks in Chroma (embedded PersistentClient), through llama-index's ChromaVectorStore."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import chromadb
from chromadb.config import Settings as ChromaSettings
from llama_index.vector_stores.chroma import ChromaVectorStore

from vera_core import chunk_metadata as M


@dataclass(frozen=True)
class VectorHit:
    """A chunk found by dense search."""

    chunk_id: str
    score: float
    """Cosine similarity in [-1, 1]."""


class VectorIndex:
    """The `chroma/` folder of a store: one collection of chunk vectors with flat metadata."""

    def __init__(self, data_dir: Path, collection: str) -> None:
        self._lock = threading.RLock()
        self.client = chromadb.PersistentClient(
            path=str(data_dir / "chroma"),
            settings=ChromaSettings(anonymized_telemetry=False, allow_reset=False))
        self.collection = self.client.get_or_create_collection(collection, metadata={"hnsw:space": "cosine"})
        self.store = ChromaVectorStore.from_collection(self.collection)

    def delete_document(self, doc_id: str) -> None:
        """Remove every vector of a document."""
        with self._lock:
            self.collection.delete(where={M.DOC_ID: doc_id})

    def count(self, doc_id: str | None = None) -> int:
        """Vectors stored, for one document or in all."""
        with self._lock:
            if doc_id is None:
                return self.collection.count()
            return len(self.collection.get(where={M.DOC_ID: doc_id}, include=[])["ids"])

    def vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        """Stored embeddings of chunks, by id (absent ids are missing from the result)."""
        if not chunk_ids:
            return {}
        with self._lock:
            got = self.collection.get(ids=list(chunk_ids), include=["embeddings"])
        return {cid: [float(x) for x in vec] for cid, vec in zip(got["ids"], got["embeddings"])}

    def query(self, embedding: list[float], top_k: int, *, doc_ids: Sequence[str] | None = None,
              pages: Sequence[int] | None = None) -> list[VectorHit]:
        """Nearest chunks, filtered BEFORE scoring to documents and/or 1-based pages."""
        clauses: list[dict] = []
        if doc_ids:
            clauses.append({M.DOC_ID: {"$in": list(doc_ids)}})
        if pages:
            clauses.append({"$or": [{"$and": [{M.PAGE_START: {"$lte": p}}, {M.PAGE_END: {"$gte": p}}]}
                                    for p in pages]} if len(pages) > 1 else
                           {"$and": [{M.PAGE_START: {"$lte": pages[0]}}, {M.PAGE_END: {"$gte": pages[0]}}]})
        where = None if not clauses else clauses[0] if len(clauses) == 1 else {"$and": clauses}
        with self._lock:
            result = self.collection.query(query_embeddings=[embedding], n_results=top_k,
                                           where=where, include=["distances"])
        return [VectorHit(cid, 1.0 - dist) for cid, dist in zip(result["ids"][0], result["distances"][0])]
