"""Deny by default (issue 27): a caller's view of the store offers the catalog's reads one by one, each narrowed to
the documents the caller may read, and nothing else. Every public member of the catalog is either one of those
reads or named as the administrator's; one that is neither fails here, so a read added to the catalog cannot reach
callers unscoped (and cannot be forgotten: it is simply absent from their view until scoped)."""

from __future__ import annotations

import inspect

import pytest

from tests.conftest import SAMPLE_PDF, SAMPLES, parsed_once, settings_for
from tests.test_api import POLICY
from vera_core.access.scope import ADMIN_ONLY, SCOPED_READS, ScopedReads, scoped
from vera_core.ingest.service import Ingestor
from vera_core.store.catalog import Catalog
from vera_core.workspace import Workspace


def public_members(cls: type, instance: object | None = None) -> set[str]:
    """The public methods and properties `cls` defines or inherits (not object's), and an instance's public
    attributes."""
    names = {n for klass in cls.__mro__ if klass is not object for n in vars(klass) if not n.startswith("_")}
    return names | {n for n in vars(instance) if not n.startswith("_")} if instance is not None else names


def unclassified(cls: type, instance: object | None = None) -> list[str]:
    """Public members of a catalog class neither scoped for callers nor named as the administrator's."""
    return sorted(public_members(cls, instance) - SCOPED_READS - ADMIN_ONLY)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    ws = Workspace(settings_for(tmp_path_factory.mktemp("reads")))
    for path in (SAMPLE_PDF, SAMPLES / POLICY):  # NOTE: searchable is enough: no read here is of vectors
        assert Ingestor(ws).make_searchable(*parsed_once(path, ws.settings)).status == "ingested"
    names = {d.name: d.doc_id for d in ws.catalog.documents()}
    return ws, names[POLICY], names[SAMPLE_PDF.name]


def test_every_public_member_of_the_catalog_is_scoped_or_the_administrators(store):
    ws, _, _ = store
    assert unclassified(Catalog, ws.catalog) == []
    assert not SCOPED_READS & ADMIN_ONLY
    assert SCOPED_READS <= public_members(Catalog), "a scoped read the catalog does not have"


def test_the_check_fails_on_a_read_added_unscoped(store):
    """The test of the test: a catalog grown by one read is caught, and a view of it does not have that read."""
    ws, readable, hidden = store

    class Grown(Catalog):
        def document_names(self) -> list[str]:
            return [row["name"] for row in self.query("SELECT name FROM documents")]

    assert unclassified(Grown, ws.catalog) == ["document_names"]
    grown = Grown.__new__(Grown)
    grown.__dict__.update(ws.catalog.__dict__)
    assert len(grown.document_names()) == 2
    view = ScopedReads(grown, frozenset({readable}))
    with pytest.raises(AttributeError):
        view.document_names()


def test_a_view_offers_exactly_the_scoped_reads(store):
    ws, readable, _ = store
    view = scoped(ws, frozenset({readable})).catalog
    assert isinstance(view, ScopedReads) and not isinstance(view, Catalog)
    offered = {n for n in dir(view) if not n.startswith("_")} - {"readable", "where"}
    assert offered == SCOPED_READS
    for name in ("query", "transaction", "delete_document", "set_kind", "upsert_fact", "db"):
        with pytest.raises(AttributeError):
            getattr(view, name)
    with pytest.raises(PermissionError):
        scoped(ws, frozenset({readable})).delete(readable)


def test_every_scoped_read_gives_nothing_of_a_document_the_caller_may_not_read(store):
    ws, readable, hidden = store
    chunks = {d: ws.catalog.chunks(d) for d in (readable, hidden)}
    own_keys = {c.embed_key for c in chunks[readable]}
    keys = [c.embed_key for c in chunks[hidden] if c.embed_key not in own_keys]
    of_one = {  # NOTE: reads of the hidden document: nothing through the view, something through the catalog
        "document": lambda r: r.document(hidden),
        "chunks": lambda r: r.chunks(hidden),
        "first_chunks": lambda r: r.first_chunks(hidden),
        "keyword_rows": lambda r: r.keyword_rows(hidden),
        "keyword_index": lambda r: r.keyword_index(hidden),
        "chunks_by_id": lambda r: r.chunks_by_id([c.chunk_id for c in chunks[hidden]]),
        "chunk_ids_by_embed_key": lambda r: r.chunk_ids_by_embed_key(keys),
        "headings": lambda r: r.headings(hidden),
        "grids": lambda r: r.grids(hidden),
        "facts": lambda r: r.facts(hidden),
    }
    of_all = {  # NOTE: reads of every document: the hidden one's id and name absent through the view only
        "documents": lambda r: r.documents(include_pending=True),
        "pending_documents": lambda r: r.pending_documents(),
        "resolve": lambda r: _resolved(r, SAMPLE_PDF.name),
        "versions": lambda r: r.versions(),
    }
    assert set(of_one) | set(of_all) == SCOPED_READS, "every scoped read is tried"
    view = scoped(ws, frozenset({readable})).catalog
    for name, call in of_one.items():
        assert call(ws.catalog), f"{name}: the catalog's own read finds the hidden document, so the next can fail"
        assert not call(view), name
    for name, call in of_all.items():
        got, full = repr(call(view)).replace(repr(SAMPLE_PDF.name), ""), repr(call(ws.catalog))  # NOTE: not the ask
        assert hidden not in got and SAMPLE_PDF.stem not in got, name
        assert name == "pending_documents" or hidden in full, name
    assert [d.doc_id for d in view.documents()] == [readable]
    assert view.resolve(POLICY).doc_id == readable


def _resolved(reads, name: str):
    """The document a name resolves to, or the message that none does (which names the documents known)."""
    from vera_core.errors import DocumentNotFoundError
    try:
        return reads.resolve(name)
    except DocumentNotFoundError as error:
        return str(error)


def test_the_scoped_reads_keep_the_catalogs_signatures():
    for name in SCOPED_READS:
        assert inspect.signature(getattr(ScopedReads, name)) == inspect.signature(getattr(Catalog, name)), name


def test_the_access_tables_are_named_in_one_module():
    """Access SQL and its migration live in store/access.py: no other module of the package names an access table."""
    import re
    from pathlib import Path

    from vera_core.store.access import CONTRACT
    package = Path(__file__).resolve().parents[1] / "vera_core"
    tables = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE|EXISTS)\s+(?:%s)\b" % "|".join(CONTRACT))
    naming = [p.relative_to(package).as_posix() for p in package.rglob("*.py") if tables.search(p.read_text())]
    assert naming == ["store/access.py"], naming
    assert set(CONTRACT) == {"collections", "collection_documents", "users", "api_tokens", "token_collections"}
