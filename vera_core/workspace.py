"""The workspace: one store directory with its catalog, vectors, files and the embedding model.

Heavy parts (Chroma client, embedding model) are created on first use and shared, and their modules
imported then (chromadb and llama-index take seconds to import: the app's first page needs neither);
every method is safe to call from several threads (the Streamlit app shares one workspace between
sessions).
"""

from __future__ import annotations

import threading
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from vera_core.config import VeraSettings
from vera_core.index.bm25 import BM25Cache, BM25Index
from vera_core.records import TableGrid
from vera_core.store.catalog import Catalog, ChunkRecord, DocumentRecord

if TYPE_CHECKING:
    from vera_core.index.embedding import MiniLMEmbedding
    from vera_core.store.vectors import VectorIndex


class Workspace:
    """Everything stored under `settings.data_dir`."""

    def __init__(self, settings: VeraSettings | None = None, *, check_schema: bool = True,
                 batch: bool = False) -> None:
        """`batch=True` (CLI ingestion) embeds through a pool of worker processes."""
        self.settings = settings or VeraSettings()
        self.batch = batch
        self.data_dir: Path = self.settings.resolved_data_dir()
        self.catalog = Catalog(self.data_dir, check=check_schema, url=self.settings.database_url)
        self.bm25 = BM25Cache()
        self._lock = threading.RLock()
        self._chunks: dict[str, list[ChunkRecord]] = {}
        self._grids: dict[str, list[TableGrid]] = {}
        self._versions: dict[str, tuple[str, str]] | None = None

    @cached_property
    def vectors(self) -> VectorIndex:
        from vera_core.store.vectors import VectorIndex
        with self._lock:
            return VectorIndex(self.data_dir, self.settings.collection, url=self.settings.chroma_url)

    @cached_property
    def embedder(self) -> MiniLMEmbedding:
        from vera_core.index.embedding import MiniLMEmbedding
        with self._lock:
            model_dir = self.settings.embed_model_path
            return MiniLMEmbedding(model_dir=None if model_dir is None else str(model_dir),
                                   precision=self.settings.embed_precision,
                                   embed_batch_size=self.settings.embed_batch_size, device=self.settings.embed_device,
                                   read_tokens=self.settings.embed_read_tokens,
                                   workers=self.settings.batch_embed_workers() if self.batch else 0)

    def close_embedder(self) -> None:
        """Stop the embedding processes this workspace started (none unless it embedded in batch)."""
        if "embedder" in self.__dict__:
            self.embedder.close_pool()

    @property
    def files_dir(self) -> Path:
        """Where the original files are kept (for rendering pages), named `<doc_id><ext>`: under
        `VERA_FILES_DIR` when set, so that every app process of a team store renders any page."""
        path = self.settings.resolved_files_dir() / "files"
        path.mkdir(parents=True, exist_ok=True)
        return path

    @property
    def uploads_dir(self) -> Path:
        """Where queued files wait for a worker (beside `files_dir`: any worker of a team store reads them)."""
        path = self.settings.resolved_files_dir() / "uploads"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def file_path(self, doc: DocumentRecord) -> Path:
        """The stored original of a document."""
        return self.files_dir / f"{doc.doc_id}{Path(doc.name).suffix.lower()}"

    def doc_chunks(self, doc_id: str) -> list[ChunkRecord]:
        """A document's chunks in order, cached (parsing geometry of a 500-page filing costs ~0.5 s)."""
        return self._cached(self._chunks, doc_id, self.catalog.chunks)

    def doc_grids(self, doc_id: str) -> list[TableGrid]:
        """A document's table grids, cached like its chunks."""
        return self._cached(self._grids, doc_id, self.catalog.grids)

    def _cached(self, cache: dict, doc_id: str, load):
        with self._lock:
            cached = cache.get(doc_id)
        if cached is None:
            cached = load(doc_id)
            with self._lock:
                cache[doc_id] = cached
        return cached

    def sync(self) -> set[str]:
        """Catch up with what another process wrote (the ingestion worker): forget the cached chunks and
        indexes of documents added, re-ingested, completed or deleted since the last call, and reopen
        the vector store when a document's vectors were completed or removed. Cheap when nothing
        changed (one small catalog query). Returns the documents that changed."""
        versions = self.catalog.versions()
        with self._lock:
            before, self._versions = self._versions, versions
        if before is None or before == versions:
            return set()
        changed = {d for d in set(versions) | set(before) if versions.get(d) != before.get(d)}
        for doc_id in changed:
            self.invalidate(doc_id)
        vectors_moved = any("complete" in (versions.get(d, ("", ""))[0], before.get(d, ("", ""))[0]) for d in changed)
        if vectors_moved and "vectors" in self.__dict__:
            self.vectors.reopen()
        return changed

    def searchable_only(self, doc_ids=None) -> set[str]:
        """Documents (of `doc_ids`, else all) that are searchable but whose dense vectors are not all
        written yet: dense search leaves them out, keyword and structure search read them."""
        versions = self.catalog.versions()
        wanted = versions if doc_ids is None else {d: versions[d] for d in doc_ids if d in versions}
        return {d for d, (stage, _) in wanted.items() if stage != "complete"}

    def invalidate(self, doc_id: str) -> None:
        """Forget cached indexes of a document that changed."""
        self.bm25.invalidate(doc_id)
        with self._lock:
            self._chunks.pop(doc_id, None)
            self._grids.pop(doc_id, None)

    def keyword_index(self, doc_id: str) -> BM25Index:
        """BM25 over one document's chunks, read from the index written at ingestion on first use
        (cached until the document changes)."""
        return self.bm25.get(doc_id, lambda: self.catalog.keyword_rows(doc_id),
                             lambda: self.catalog.keyword_index(doc_id))

    def delete(self, doc_id: str) -> None:
        """Remove a document from every store: vectors, original file, catalog rows, BM25 cache."""
        with self._lock:
            self.vectors.delete_document(doc_id)
            for path in self.files_dir.glob(f"{doc_id}.*"):
                path.unlink(missing_ok=True)
            self.catalog.delete_document(doc_id)
            self.invalidate(doc_id)

    def repair(self) -> list[str]:
        """Remove documents an interrupted ingestion left invisible (`ingesting`); returns their names.
        Not on a team store: there another worker may be writing one right now; the ingestion workers
        remove those of workers that died (`IngestWorker.recover`)."""
        if self.settings.database_url:
            return []
        names = []
        for doc in self.catalog.pending_documents():
            self.delete(doc.doc_id)
            names.append(doc.name)
        return names
