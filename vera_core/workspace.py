"""The workspace: one store directory with its catalog, vectors, files and the embedding model.

Heavy parts (Chroma client, embedding model) are created on first use and shared, and their modules
imported then (chromadb and llama-index take seconds to import: the app's first page needs neither);
every method is safe to call from several threads (the Streamlit app shares one workspace between
sessions).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from vera_core.config import VeraSettings
from vera_core.index.bm25 import BM25Cache, BM25Index
from vera_core.records import ChunkRecord, DocumentRecord, TableGrid
from vera_core.tables.column_groups import grouped_grid
from vera_core.tables.header_above import dated_from_text_above
from vera_core.tables.totals import label_noncurrent, label_totals
from vera_core.text import words_of
from vera_core.store.catalog import Catalog

if TYPE_CHECKING:
    from vera_core.index.embedding import MiniLMEmbedding
    from vera_core.records import ModelIdentity
    from vera_core.store.vectors import VectorIndex


@dataclass(frozen=True)
class DenseView:
    """The vectors this process's embedding model may search (`store/spaces.py`)."""

    collection: str | None
    """The Chroma collection of this model's vectors; None when the store has none (another model)."""
    building: bool = False
    """The collection is being filled by `vera reembed`: only `ready` documents are in it."""
    ready: frozenset[str] = frozenset()
    reason: str = ""
    """Why dense search is off, or partial, for this process ('' when it is not)."""


class Workspace:
    """Everything stored under `settings.data_dir`."""

    def __init__(self, settings: VeraSettings | None = None, *, check_schema: bool = True,
                 batch: bool = False) -> None:
        """`batch=True` (CLI ingestion) embeds through a pool of worker processes."""
        self.settings = settings or VeraSettings()
        self.batch = batch
        self.data_dir: Path = self.settings.resolved_data_dir()
        self.catalog = Catalog(self.data_dir, check=check_schema, url=self.settings.database_url)
        self._store = self.catalog
        """The whole store's catalog, for what is the store's (its vector spaces, deleting): a caller's view
        (`access.scope`) keeps it while its `catalog` reads only what the caller may read."""
        self.bm25 = BM25Cache()
        self._lock = threading.RLock()
        self._chunks: dict[str, list[ChunkRecord]] = {}
        self._doc_vectors: dict[str, tuple[list[str], object]] = {}
        self._titles: dict[str, str] = {}
        self._grids: dict[str, list[TableGrid]] = {}
        self._words: dict[str, frozenset[str]] = {}
        self._versions: dict[str, tuple[str, str]] | None = None
        self._dense: DenseView | None = None
        self._spaces_seen: tuple | None = None
        self._indexes: dict[str, VectorIndex] = {}

    @cached_property
    def model(self) -> ModelIdentity:
        """The embedding model this process loads: name, weights version, dimension."""
        from vera_core.index.model_identity import model_identity
        return model_identity(self.settings.embed_model_path)

    @property
    def dense(self) -> DenseView:
        """Which vectors this process's model may search, read from the catalog on first use and again
        when `sync` sees the spaces change. A store that records no model takes this one's."""
        with self._lock:
            view = self._dense
        if view is None:
            view = self._read_dense()
            with self._lock:
                self._dense = view
        return view

    def _read_dense(self) -> DenseView:
        from vera_core.store.spaces import VectorSpaces
        spaces = VectorSpaces(self._store)
        active = spaces.active() or spaces.adopt(self.settings.collection, self.model)
        building = spaces.building()
        if active.model.same_vectors(self.model):
            return DenseView(active.collection)
        if building is not None and building.model.same_vectors(self.model):
            ready = frozenset(spaces.embedded(building.collection))
            visible = set(self.catalog.versions())
            return DenseView(building.collection, True, ready, (
                f"The store is being re-embedded with {self.model}: {len(ready & visible)} of {len(visible)} "
                "documents are done; "
                "dense search reads those, keywords and structure the others."))
        return DenseView(None, reason=(
            f"Dense search is off: the store's vectors were made by {active.model}, and this process loads "
            f"{self.model} (VERA_EMBED_MODEL_PATH). Keyword and structure search answer. Run `vera reembed` "
            "with this model to re-embed the store, or load the store's model again."))

    def refresh_dense(self) -> None:
        """Read the spaces again at the next use (after marking or switching them)."""
        with self._lock:
            self._dense = None

    @property
    def vectors(self) -> VectorIndex:
        """The vectors of this process's model (the store's active ones when it has none: deletes and
        counts only; dense search is off then)."""
        collection = self.dense.collection
        if collection is None:
            from vera_core.store.spaces import VectorSpaces
            collection = VectorSpaces(self._store).active().collection
        return self.vector_index(collection)

    def vector_index(self, collection: str) -> VectorIndex:
        """One Chroma collection of the store, opened once."""
        from vera_core.store.vectors import VectorIndex
        with self._lock:
            index = self._indexes.get(collection)
            if index is None:
                index = self._indexes[collection] = VectorIndex(self.data_dir, collection, url=self.settings.chroma_url)
            return index

    def drop_vectors(self, collection: str) -> None:
        """Delete a retired model's collection and forget it."""
        index = self.vector_index(collection)
        with self._lock:
            self._indexes.pop(collection, None)
        index.drop()

    def no_vectors(self, doc_ids=None) -> set[str]:
        """Documents (of `doc_ids`, else all) dense search must leave out: those whose vectors are not all
        written yet, and, when this process's model is not the store's, those it has not re-embedded."""
        view = self.dense
        if view.collection is None:
            versions = self.catalog.versions()
            return set(versions) if doc_ids is None else {d for d in doc_ids if d in versions}
        if view.building:
            versions = self.catalog.versions()
            wanted = set(versions) if doc_ids is None else {d for d in doc_ids if d in versions}
            return wanted - view.ready
        return self.searchable_only(doc_ids)

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

    def doc_vectors(self, doc_id: str):
        """(chunk ids, matrix) of a document's stored dense vectors, one row per chunk that has one,
        cached until the document changes; an empty matrix when it has none yet."""
        import numpy as np

        with self._lock:
            cached = self._doc_vectors.get(doc_id)
        if cached is None:
            ids = [c.chunk_id for c in self.doc_chunks(doc_id)]
            got = self.vectors.vectors(ids) if ids else {}
            kept = [i for i in ids if i in got]
            # NOTE: no vector yet (a store still embedding): an empty matrix, not a reshape of nothing
            cached = (kept, np.asarray([got[i] for i in kept], dtype=np.float32).reshape(len(kept), -1) if kept
                      else np.zeros((0, 0), dtype=np.float32))
            if kept:  # NOTE: vectors still being written are read again next time
                with self._lock:
                    self._doc_vectors[doc_id] = cached
        return cached

    def doc_title(self, doc: DocumentRecord) -> str:
        """A document's own title: its front matter's, else its first heading ('' when it has none)."""
        front = ((doc.metadata or {}).get("front_matter") or {})
        title = front.get("title") if isinstance(front, dict) else None
        if title:
            return str(title)
        with self._lock:  # NOTE: asked for every document on every question: one small read, then cached
            known = self._titles.get(doc.doc_id)
            cached = self._chunks.get(doc.doc_id)
        if known is not None:
            return known
        chunks = cached if cached is not None else self.catalog.first_chunks(doc.doc_id, 1)
        title = chunks[0].heading_titles[0] if chunks and chunks[0].heading_titles else ""
        with self._lock:
            self._titles[doc.doc_id] = title
        return title

    def doc_words(self, doc_id: str) -> frozenset[str]:
        """The words a document prints (four letters or more, lower case), cached: what a misspelt word is read as."""
        return self._cached(self._words, doc_id, lambda d: words_of(c.text for c in self.doc_chunks(d)))

    def doc_grids(self, doc_id: str) -> list[TableGrid]:
        """A document's table grids, cached like its chunks; a year centred over a group of columns dates the group
        (`tables.column_groups`), years printed just above a table date its columns (`tables.header_above`), and a
        total printed without a label is named for the rows it sums (`tables.totals`)."""
        return self._cached(self._grids, doc_id, self._read_grids)

    def _read_grids(self, doc_id: str) -> list[TableGrid]:
        grids = self.catalog.grids(doc_id)
        if any(not any(g.periods) for g in grids if g.status == "parsed"):
            chunks = self.doc_chunks(doc_id)
            at = {c.chunk_id: i for i, c in enumerate(chunks)}
            grids = [dated_from_text_above(g, _text_above(chunks[at[g.chunk_id]], chunks[at[g.chunk_id] - 1]))
                     if g.chunk_id in at and at[g.chunk_id] else g for g in grids]
        return [label_noncurrent(label_totals(grouped_grid(g))) for g in grids]

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
        self.sync_spaces()
        versions = self.catalog.versions()
        with self._lock:
            before, self._versions = self._versions, versions
        if before is None or before == versions:
            return set()
        changed = {d for d in set(versions) | set(before) if versions.get(d) != before.get(d)}
        for doc_id in changed:
            self.invalidate(doc_id)
        vectors_moved = any("complete" in (versions.get(d, ("", ""))[0], before.get(d, ("", ""))[0]) for d in changed)
        if vectors_moved:
            self.reopen_vectors()
        return changed

    def sync_spaces(self) -> None:
        """Read the spaces again when another process marked or switched them (`vera reembed`)."""
        from vera_core.store.spaces import VectorSpaces
        seen = VectorSpaces(self._store).fingerprint()
        with self._lock:
            before, self._spaces_seen = self._spaces_seen, seen
        if before is not None and before != seen:
            self.refresh_dense()
            self.reopen_vectors()

    def reopen_vectors(self) -> None:
        """See the vectors other processes wrote (embedded Chroma): the first open collection reloads
        the store, the others attach to it (Chroma shares one system per path in a process)."""
        from vera_core.store.spaces import VectorSpaces
        live = {space.collection for space in VectorSpaces(self._store).spaces()}
        with self._lock:  # NOTE: a retired model's collection is not opened again (that would recreate it)
            for collection in [c for c in self._indexes if live and c not in live]:
                del self._indexes[collection]
            indexes = list(self._indexes.values())
        for i, index in enumerate(indexes):
            if i == 0:
                index.reopen()
            else:
                index.reattach()

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
            self._words.pop(doc_id, None)
            self._doc_vectors.pop(doc_id, None)
            self._titles.pop(doc_id, None)

    def keyword_index(self, doc_id: str) -> BM25Index:
        """BM25 over one document's chunks, read from the index written at ingestion on first use
        (cached until the document changes)."""
        return self.bm25.get(doc_id, lambda: self.catalog.keyword_rows(doc_id),
                             lambda: self.catalog.keyword_index(doc_id))

    def delete(self, doc_id: str, *, forget_access: bool = False) -> None:
        """Remove a document from every store: vectors, original file, catalog rows, BM25 cache.
        `forget_access`: the user deleted it, so it also leaves its collections (not when ingestion
        clears a half-written copy before writing it again)."""
        from vera_core.store.spaces import VectorSpaces
        with self._lock:
            spaces = VectorSpaces(self._store)
            for space in spaces.spaces() or [None]:  # NOTE: a re-embedding store has two sets of vectors
                (self.vectors if space is None else self.vector_index(space.collection)).delete_document(doc_id)
            for path in self.files_dir.glob(f"{doc_id}.*"):
                path.unlink(missing_ok=True)
            spaces.forget(doc_id)
            if forget_access:
                from vera_core.store.access import AccessStore
                AccessStore(self.catalog).forget_document(doc_id)
            self.catalog.delete_document(doc_id)
            self.invalidate(doc_id)

    def repair(self) -> list[str]:
        """Remove documents an interrupted ingestion left invisible (`ingesting`); returns their names.
        Not on a team store: there another worker may be writing one right now; the ingestion workers
        remove those of workers that died (`IngestWorker.recover`)."""
        if self.settings.team_store:
            return []
        names = []
        for doc in self.catalog.pending_documents():
            self.delete(doc.doc_id)
            names.append(doc.name)
        return names


def _text_above(chunk: ChunkRecord, previous: ChunkRecord | None) -> str:
    """The text printed just before a chunk on its page: the previous chunk's, when they share a page."""
    if previous is None or not set(previous.pages) & set(chunk.pages):
        return ""
    return previous.text
