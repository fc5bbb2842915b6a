"""A workspace narrowed to the documents one caller may read.

Every path of an answer (the router's document names, each strategy's documents, keyword and dense
search, citations, page files) reads documents through the workspace's catalog, so a catalog that
knows only the readable documents keeps the others out of every answer: not searched, not cited, not
named. The narrowed workspace shares the store's caches, indexes and embedding model."""

from __future__ import annotations

import copy
from collections.abc import Sequence

from vera_core.store.catalog import Catalog, DocumentRecord
from vera_core.workspace import Workspace


class ScopedCatalog(Catalog):
    """The store's catalog, seeing only `readable` documents (writes pass through unchanged)."""

    readable: frozenset[str]

    @classmethod
    def over(cls, catalog: Catalog, readable: frozenset[str]) -> ScopedCatalog:
        scoped = cls.__new__(cls)
        scoped.__dict__.update(catalog.__dict__)  # NOTE: the same database and connection pool
        scoped.readable = readable
        return scoped

    def documents(self, *, include_pending: bool = False) -> list[DocumentRecord]:
        return [d for d in super().documents(include_pending=include_pending) if d.doc_id in self.readable]

    def pending_documents(self) -> list[DocumentRecord]:
        return [d for d in super().pending_documents() if d.doc_id in self.readable]

    def document(self, doc_id: str) -> DocumentRecord | None:
        return super().document(doc_id) if doc_id in self.readable else None

    def versions(self) -> dict[str, tuple[str, str]]:
        return {d: v for d, v in super().versions().items() if d in self.readable}

    def chunks(self, doc_id: str):
        return super().chunks(doc_id) if doc_id in self.readable else []

    def first_chunks(self, doc_id: str, count: int = 3):
        return super().first_chunks(doc_id, count) if doc_id in self.readable else []

    def keyword_rows(self, doc_id: str):
        return super().keyword_rows(doc_id) if doc_id in self.readable else []

    def keyword_index(self, doc_id: str):
        return super().keyword_index(doc_id) if doc_id in self.readable else None

    def chunks_by_id(self, chunk_ids: Sequence[str]):
        return {k: c for k, c in super().chunks_by_id(chunk_ids).items() if c.doc_id in self.readable}

    def headings(self, doc_id: str):
        return super().headings(doc_id) if doc_id in self.readable else []

    def grids(self, doc_id: str, chunk_ids: Sequence[str] = ()):
        return super().grids(doc_id, chunk_ids) if doc_id in self.readable else []

    def facts(self, doc_id: str):
        return super().facts(doc_id) if doc_id in self.readable else []


class ScopedWorkspace(Workspace):
    """A view of the store's workspace: its caches (chunks, grids, keyword indexes) are the store's, so a
    document the view may not read is refused before them (never served from, nor cached into, them)."""

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


def scoped(ws: Workspace, readable: frozenset[str] | None) -> Workspace:
    """`ws` as a caller who reads `readable` sees it (None: everything, `ws` itself)."""
    if readable is None:
        return ws
    ws.embedder  # NOTE: loaded once on the store's workspace, then shared by every view of it
    view = copy.copy(ws)
    view.__class__ = ScopedWorkspace
    view.readable = readable
    view.catalog = ScopedCatalog.over(ws.catalog, readable)
    view._versions = None  # its own view of what changed
    view._dense = None  # NOTE: its re-embedding count is of its own documents
    return view
