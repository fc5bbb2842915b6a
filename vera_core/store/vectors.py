"""Dense vectors of chunks in Chroma, through llama-index's ChromaVectorStore: embedded (a
`PersistentClient` on the store's `chroma/` folder, one writing process) or a Chroma server
(`VERA_CHROMA_URL`, Chroma's HTTP client: any number of processes on any host)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import chromadb
from chromadb.config import Settings as ChromaSettings
from llama_index.vector_stores.chroma import ChromaVectorStore

from vera_core import chunk_metadata as M
from vera_core.errors import StoreUnavailableError

log = logging.getLogger("vera.vectors")


@dataclass(frozen=True)
class VectorHit:
    """A chunk found by dense search."""

    chunk_id: str
    score: float
    """Cosine similarity in [-1, 1]."""


class VectorIndex:
    """One collection of chunk vectors with flat metadata: in the store's `chroma/` folder, or on the
    Chroma server at `url`."""

    def __init__(self, data_dir: Path, collection: str, *, url: str | None = None) -> None:
        self._lock = threading.RLock()
        self._path = str(data_dir / "chroma")
        self._name = collection
        self.url = url
        self._open()

    def _open(self) -> None:
        settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
        if self.url:
            parts = urlsplit(self.url)
            try:
                self.client = chromadb.HttpClient(host=parts.hostname or "localhost", port=parts.port or 8000,
                                                  ssl=parts.scheme == "https", settings=settings)
                self.client.heartbeat()
            except Exception as exc:  # noqa: BLE001 - chromadb raises ValueError or httpx errors
                raise StoreUnavailableError(
                    f"The Chroma server at {self.url} cannot be reached ({type(exc).__name__}: {exc}). Start it "
                    f"(`chroma run --path DIR --port {parts.port or 8000}`), or correct VERA_CHROMA_URL; nothing "
                    f"was written.") from None
        else:
            self.client = chromadb.PersistentClient(path=self._path, settings=settings)
        self.collection = self.client.get_or_create_collection(self._name, metadata={"hnsw:space": "cosine"})
        self.store = ChromaVectorStore.from_collection(self.collection)

    def reopen(self) -> None:
        """Read the store again from disk. An embedded Chroma client does not see vectors another
        process wrote (measured with chromadb 1.5: queries and gets stay stale, only `count` moves);
        the app reopens when the ingestion worker has completed a document. A server is always current."""
        if self.url:
            return
        from chromadb.api.shared_system_client import SharedSystemClient
        with self._lock:
            # NOTE: Chroma shares one System per path inside a process; drop ours so a new one loads
            old = SharedSystemClient._identifier_to_system.pop(self._path, None)
            SharedSystemClient._identifier_to_refcount.pop(self._path, None)
            self._open()
            if old is not None:
                try:
                    old.stop()
                except Exception:  # noqa: BLE001 - an old reader that fails to stop is only garbage
                    pass

    def reattach(self) -> None:
        """Open the collection again on the process's current Chroma system (after another collection
        of the same store reloaded it with `reopen`)."""
        if self.url:
            return
        with self._lock:
            self._open()

    def drop(self) -> None:
        """Delete the whole collection (a retired model's vectors)."""
        with self._lock:
            self.client.delete_collection(self._name)

    def ids(self, doc_id: str) -> set[str]:
        """Ids of the vectors stored for one document."""
        with self._lock:
            return set(self.collection.get(where={M.DOC_ID: doc_id}, include=[])["ids"])

    def upsert(self, ids: Sequence[str], vectors: Sequence[Sequence[float]], metadatas: Sequence[dict]) -> None:
        """Write vectors by id; writing an id again replaces it (a resumed embedding adds no duplicate)."""
        if not ids:
            return
        with self._lock:
            self.collection.upsert(ids=list(ids), embeddings=[list(v) for v in vectors], metadatas=list(metadatas))

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
        got = self._read(lambda: self.collection.get(ids=list(chunk_ids), include=["embeddings"]))
        if got is None:
            return {}
        return {cid: [float(x) for x in vec] for cid, vec in zip(got["ids"], got["embeddings"])}

    def _read(self, call):
        """A read, retried once on a freshly opened store when it fails; None when it fails again.

        NOTE: while the ingestion worker (another process) writes, this process's Chroma view can be
        behind: a read that touches an id written since fails ("Error finding id", seen with chromadb
        1.5). Reopening brings the view up to date; the caller treats None as 'no vector'."""
        with self._lock:
            try:
                return call()
            except Exception:  # noqa: BLE001 - chromadb raises its own InternalError types
                log.warning("vector store read failed; reopening it", exc_info=True)
        self.reopen()
        with self._lock:
            try:
                return call()
            except Exception:  # noqa: BLE001
                log.exception("vector store read failed after reopening")
                return None

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
        result = self._read(lambda: self.collection.query(query_embeddings=[embedding], n_results=top_k,
                                                          where=where, include=["distances"]))
        if result is None:
            return []
        return [VectorHit(cid, 1.0 - dist) for cid, dist in zip(result["ids"][0], result["distances"][0])]
