"""A workspace narrowed to the documents one caller may read: deny by default.

Every path of an answer (the router's document names, each strategy's documents, keyword and dense
search, citations, page files) reads documents through the workspace's catalog. A caller's view holds
no catalog at all: it holds `ScopedReads`, a small read-only interface composed over the catalog that
offers the reads in `SCOPED_READS`, each narrowed to the readable documents. Anything else of the
catalog (its SQL, its writes, a read added to it later) is not on the interface, so it cannot be
reached through a view: a forgotten read fails loudly instead of reading the whole store.

`tests/test_access_reads.py` lists every public member of `Catalog` and fails on one that is neither in
`SCOPED_READS` nor named in `ADMIN_ONLY` (the store's own SQL, schema and writes, which only the
store's workspace, the ingestion worker and the administrator's CLI use). The narrowed workspace
shares the store's caches, indexes and embedding model."""

from __future__ import annotations

import copy
from collections.abc import Sequence

from vera_core.records import ChunkRecord, DocumentRecord, FactRecord, Heading, KeywordRow, TableGrid
from vera_core.store.catalog import Catalog, resolve_in
from vera_core.workspace import Workspace

__all__ = ["ADMIN_ONLY", "SCOPED_READS", "ScopedReads", "ScopedWorkspace", "scoped"]

SCOPED_READS = frozenset({
    "documents", "pending_documents", "document", "resolve", "versions", "chunks", "first_chunks", "keyword_rows",
    "keyword_index", "chunks_by_id", "chunk_ids_by_embed_key", "headings", "grids", "facts"})
"""The catalog's reads a caller's view offers, each narrowed to the documents the caller may read."""
ADMIN_ONLY = frozenset({
    # the store's own reads: any table, the schema, the database
    "query", "transaction", "dialect", "check_contract", "migrate", "schema_version", "close", "FILE_NAME", "db",
    "path", "data_dir", "where",
    # writes: ingestion, kinds and identities, facts, deletion (the worker's and the administrator's)
    "begin_document", "set_identity", "set_kind", "write_chunks", "mark_searchable", "mark_complete",
    "delete_document", "upsert_fact"})
"""Members of the catalog a caller's view does not offer."""


class ScopedReads:
    """The catalog as a caller who reads `readable` sees it: only the reads in SCOPED_READS, each refusing (as not
    there) a document outside `readable`. It is composed over the catalog, not a kind of catalog: what it does not
    define does not exist on it."""

    __slots__ = ("_catalog", "readable")

    def __init__(self, catalog: Catalog, readable: frozenset[str]) -> None:
        self._catalog = catalog
        self.readable = readable

    @property
    def where(self) -> str:
        """The catalog as messages name it."""
        return self._catalog.where

    def documents(self, *, include_pending: bool = False) -> list[DocumentRecord]:
        return [d for d in self._catalog.documents(include_pending=include_pending) if d.doc_id in self.readable]

    def pending_documents(self) -> list[DocumentRecord]:
        return [d for d in self._catalog.pending_documents() if d.doc_id in self.readable]

    def document(self, doc_id: str) -> DocumentRecord | None:
        return self._catalog.document(doc_id) if doc_id in self.readable else None

    def resolve(self, ref: str) -> DocumentRecord:
        """A readable document by reference; one the caller may not read is not known (its name is not told)."""
        return resolve_in(self.documents(), ref)

    def versions(self) -> dict[str, tuple[str, str]]:
        return {d: v for d, v in self._catalog.versions().items() if d in self.readable}

    def chunks(self, doc_id: str) -> list[ChunkRecord]:
        return self._catalog.chunks(doc_id) if doc_id in self.readable else []

    def first_chunks(self, doc_id: str, count: int = 3) -> list[ChunkRecord]:
        return self._catalog.first_chunks(doc_id, count) if doc_id in self.readable else []

    def keyword_rows(self, doc_id: str) -> list[KeywordRow]:
        return self._catalog.keyword_rows(doc_id) if doc_id in self.readable else []

    def keyword_index(self, doc_id: str) -> bytes | None:
        return self._catalog.keyword_index(doc_id) if doc_id in self.readable else None

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, ChunkRecord]:
        return {k: c for k, c in self._catalog.chunks_by_id(chunk_ids).items() if c.doc_id in self.readable}

    def chunk_ids_by_embed_key(self, keys: Sequence[str]) -> dict[str, str]:
        """For each embedding-text key, one chunk of a readable document that has it."""
        found = self._catalog.chunk_ids_by_embed_key(keys)
        kept = self.chunks_by_id(list(found.values()))
        # NOTE: the catalog gives one chunk per key, maybe of a document the caller may not read; none then
        return {key: chunk_id for key, chunk_id in found.items() if chunk_id in kept}

    def headings(self, doc_id: str) -> list[Heading]:
        return self._catalog.headings(doc_id) if doc_id in self.readable else []

    def grids(self, doc_id: str, chunk_ids: Sequence[str] = ()) -> list[TableGrid]:
        return self._catalog.grids(doc_id, chunk_ids) if doc_id in self.readable else []

    def facts(self, doc_id: str) -> list[FactRecord]:
        return self._catalog.facts(doc_id) if doc_id in self.readable else []


class ScopedWorkspace(Workspace):
    """A view of the store's workspace whose catalog is `ScopedReads`: its caches (chunks, grids, keyword indexes)
    are the store's, so a document the view may not read is refused before them (never served from, nor cached
    into, them). It reads; it never writes (deleting and repairing are the store's)."""

    readable: frozenset[str]

    def doc_chunks(self, doc_id: str):
        return super().doc_chunks(doc_id) if doc_id in self.readable else []

    def doc_grids(self, doc_id: str):
        return super().doc_grids(doc_id) if doc_id in self.readable else []

    def keyword_index(self, doc_id: str):
        if doc_id not in self.readable:
            from vera_core.index.bm25 import BM25Index
            return BM25Index([])
        return super().keyword_index(doc_id)

    def delete(self, doc_id: str, *, forget_access: bool = False) -> None:
        raise PermissionError("A caller's view of the store reads only: documents are deleted through the store.")

    def repair(self) -> list[str]:
        raise PermissionError("A caller's view of the store reads only: the store repairs itself.")


def scoped(ws: Workspace, readable: frozenset[str] | None) -> Workspace:
    """`ws` as a caller who reads `readable` sees it (None: an open store's one analyst, who reads everything and
    owns the store: `ws` itself)."""
    if readable is None:
        return ws
    ws.embedder  # NOTE: loaded once on the store's workspace, then shared by every view of it
    view = copy.copy(ws)
    view.__class__ = ScopedWorkspace
    view.readable = readable
    view.catalog = ScopedReads(ws._store, readable)  # type: ignore[assignment]
    view._versions = None  # its own view of what changed
    view._dense = None  # NOTE: its re-embedding count is of its own documents
    return view
