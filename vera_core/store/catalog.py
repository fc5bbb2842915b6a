"""The catalog: documents, chunks with geometry, headings, table grids and document facts, in SQLite or
PostgreSQL (`store/db.py`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, RowMapping

from vera_core.errors import DocumentNotFoundError
from vera_core.records import ChunkRecord, DocumentRecord, FactRecord, Heading, KeywordRow, Rect, TableGrid
from vera_core.store import grids as grid_rows
from vera_core.store import schema
from vera_core.store.db import Database, execute


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Catalog:
    """Thread-safe access to the catalog: `catalog.sqlite` in the store folder, or the PostgreSQL database
    at `url` (`VERA_DATABASE_URL`). A new catalog is created at the latest schema; an existing one must
    satisfy the schema contract (else `SchemaContractError`)."""

    FILE_NAME = "catalog.sqlite"

    def __init__(self, data_dir: Path, *, check: bool = True, url: str | None = None) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir = data_dir
        if url:
            self.path: Path | None = None
            self.db = Database(url=url)
            self.db.check_reachable("VERA_DATABASE_URL")
            is_new = not self.db.has_table("documents")
        else:
            self.path = data_dir / self.FILE_NAME
            is_new = not self.path.exists() or self.path.stat().st_size == 0
            self.db = Database(sqlite_path=self.path)
        self.where = self.db.where
        """The catalog as messages name it: its file, or the database server's URL without its password."""
        if is_new:
            schema.migrate(self.db)
        if check:
            self.check_contract()

    @property
    def dialect(self) -> str:
        return self.db.dialect

    def check_contract(self) -> None:
        """Raise `SchemaContractError` naming the first missing table or column."""
        schema.check_contract(self.db, f"Run `vera --data-dir {self.data_dir} migrate` to upgrade the store.")

    def migrate(self) -> list[schema.Migration]:
        """Apply pending migrations; returns those applied."""
        return schema.migrate(self.db)

    def schema_version(self) -> int:
        return schema.current_version(self.db)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One atomic write: all statements inside commit together or not at all (run them with
        `store.db.execute`)."""
        with self.db.write() as conn:
            yield conn

    def query(self, statement: str, params: Mapping[str, Any] | None = None, *,
              expanding: tuple[str, ...] = ()) -> list[RowMapping]:
        """Rows of one read statement (for the store's own modules, e.g. the ingestion queue)."""
        return self.db.read(statement, params, expanding=expanding)


    # -- documents ---------------------------------------------------------------------------------

    def begin_document(self, *, doc_id: str, name: str, format: str, sha256: str, pages: int,
                       size_bytes: int, metadata: dict, parser_version: str, kind: str = "",
                       kind_source: str = "", identity: Mapping | None = None) -> None:
        """Register a document as `ingesting` (invisible), replacing any earlier rows for it."""
        with self.transaction() as conn:
            execute(conn, "DELETE FROM documents WHERE doc_id = :doc_id", {"doc_id": doc_id})
            execute(conn,
                    "INSERT INTO documents (doc_id, name, format, sha256, pages, size_bytes, status,"
                    " metadata_json, parser_version, created_at, kind, kind_source, identity_json)"
                    " VALUES (:doc_id, :name, :format, :sha256, :pages, :size_bytes, 'ingesting', :metadata,"
                    " :parser_version, :created_at, :kind, :kind_source, :identity)",
                    {"doc_id": doc_id, "name": name, "format": format, "sha256": sha256, "pages": pages,
                     "size_bytes": size_bytes, "metadata": json.dumps(metadata, default=str, sort_keys=True),
                     "parser_version": parser_version, "created_at": _now(), "kind": kind,
                     "kind_source": kind_source, "identity": json.dumps(dict(identity or {}), sort_keys=True)})

    def set_identity(self, doc_id: str, identity: Mapping) -> None:
        """Record what a document is and when (read from it, or corrected by the user)."""
        with self.transaction() as conn:
            execute(conn, "UPDATE documents SET identity_json = :identity WHERE doc_id = :doc_id",
                    {"identity": json.dumps(dict(identity), sort_keys=True), "doc_id": doc_id})

    def set_kind(self, doc_id: str, kind: str, kind_source: str = "user") -> None:
        """Record a document's kind (the user's choice, by default)."""
        with self.transaction() as conn:
            execute(conn, "UPDATE documents SET kind = :kind, kind_source = :source WHERE doc_id = :doc_id",
                    {"kind": kind, "source": kind_source, "doc_id": doc_id})

    def write_chunks(self, doc_id: str, chunks: Sequence[ChunkRecord], headings: Sequence[Heading],
                     grids: Sequence[TableGrid] = ()) -> None:
        """Write a document's chunks, headings and table grids in one transaction."""
        columns = schema.CONTRACT["chunks"]
        with self.transaction() as conn:
            execute(conn, "DELETE FROM chunks WHERE doc_id = :doc_id", {"doc_id": doc_id})
            execute(conn, "DELETE FROM headings WHERE doc_id = :doc_id", {"doc_id": doc_id})
            execute(conn, f"INSERT INTO chunks ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})",
                    [dict(zip(columns, (
                        c.chunk_id, c.doc_id, c.position, c.kind, c.text, c.embed_text, c.heading_path,
                        json.dumps(list(c.heading_titles)), c.section_id, c.page_start, c.page_end,
                        json.dumps([r.as_dict() for r in c.polygons]), c.caption, c.footnotes, c.tokens,
                        c.embed_key))) for c in chunks])
            execute(conn, "INSERT INTO headings (doc_id, position, level, title, path, page_start, page_end)"
                          " VALUES (:doc_id, :position, :level, :title, :path, :page_start, :page_end)",
                    [{"doc_id": doc_id, "position": i, "level": h.level, "title": h.title,
                      "path": json.dumps(list(h.path)), "page_start": h.page_start, "page_end": h.page_end}
                     for i, h in enumerate(headings)])
            grid_rows.insert_grids(conn, doc_id, grids)

    def mark_searchable(self, doc_id: str, keyword_index: bytes) -> None:
        """Make a document visible (stage `searchable`) with its keyword index and its chunk and table
        counts, in one transaction: every question type works on it; dense vectors come later."""
        with self.transaction() as conn:
            execute(conn, "INSERT INTO keyword_indexes (doc_id, data, built_at) VALUES (:doc_id, :data, :at)"
                          " ON CONFLICT (doc_id) DO UPDATE SET data = excluded.data, built_at = excluded.built_at",
                    {"doc_id": doc_id, "data": keyword_index, "at": _now()})
            execute(conn,
                    "UPDATE documents SET status = 'ready', stage = 'searchable', ready_at = :at,"
                    " chunk_count = (SELECT COUNT(*) FROM chunks WHERE doc_id = :doc_id),"
                    " table_count = (SELECT COUNT(*) FROM chunks WHERE doc_id = :doc_id AND kind = 'table')"
                    " WHERE doc_id = :doc_id", {"at": _now(), "doc_id": doc_id})

    def mark_complete(self, doc_id: str) -> None:
        """A searchable document's dense vectors are all written (stage `complete`)."""
        with self.transaction() as conn:
            execute(conn, "UPDATE documents SET stage = 'complete' WHERE doc_id = :doc_id AND status = 'ready'",
                    {"doc_id": doc_id})

    def keyword_index(self, doc_id: str) -> bytes | None:
        """The keyword index written when the document became searchable (None in older stores)."""
        rows = self.query("SELECT data FROM keyword_indexes WHERE doc_id = :doc_id", {"doc_id": doc_id})
        return bytes(rows[0]["data"]) if rows else None

    def versions(self) -> dict[str, tuple[str, str]]:
        """(stage, ready_at) of every visible document: what another process may have changed."""
        return {r["doc_id"]: (r["stage"], r["ready_at"] or "")
                for r in self.query("SELECT doc_id, stage, ready_at FROM documents WHERE status = 'ready'")}

    def delete_document(self, doc_id: str) -> None:
        """Remove a document and (by cascade) its chunks, headings and facts."""
        with self.transaction() as conn:
            execute(conn, "DELETE FROM documents WHERE doc_id = :doc_id", {"doc_id": doc_id})

    def documents(self, *, include_pending: bool = False) -> list[DocumentRecord]:
        """Documents in name order; only `ready` ones unless `include_pending`."""
        where = "" if include_pending else "WHERE status = 'ready'"
        return [_document(row) for row in self.query(f"SELECT * FROM documents {where} ORDER BY name, doc_id")]

    def pending_documents(self) -> list[DocumentRecord]:
        """Documents left `ingesting` by an interrupted ingestion."""
        return [_document(r) for r in self.query("SELECT * FROM documents WHERE status = 'ingesting'")]

    def document(self, doc_id: str) -> DocumentRecord | None:
        """A ready document by exact id, or None."""
        rows = self.query("SELECT * FROM documents WHERE doc_id = :doc_id AND status = 'ready'", {"doc_id": doc_id})
        return _document(rows[0]) if rows else None

    def resolve(self, ref: str) -> DocumentRecord:
        """A ready document by id (or unique id prefix), file name, or name without extension."""
        return resolve_in(self.documents(), ref)

    # -- chunks and headings ----------------------------------------------------------------------

    def chunks(self, doc_id: str) -> list[ChunkRecord]:
        """All chunks of a document in document order."""
        return [_chunk(r) for r in self.query(
            "SELECT * FROM chunks WHERE doc_id = :doc_id ORDER BY position", {"doc_id": doc_id})]

    def first_chunks(self, doc_id: str, count: int = 3) -> list[ChunkRecord]:
        """The first `count` chunks of a document (its opening: title page, cover)."""
        return [_chunk(r) for r in self.query(
            "SELECT * FROM chunks WHERE doc_id = :doc_id ORDER BY position LIMIT :n", {"doc_id": doc_id, "n": count})]

    def keyword_rows(self, doc_id: str) -> list[KeywordRow]:
        """The columns keyword search reads, without geometry (cheap to load for big documents)."""
        return [KeywordRow(r["chunk_id"], r["page_start"], r["page_end"], r["caption"], r["heading_path"], r["text"],
                           r["kind"]) for r in self.query(
            "SELECT chunk_id, page_start, page_end, caption, heading_path, text, kind FROM chunks"
            " WHERE doc_id = :doc_id ORDER BY position", {"doc_id": doc_id})]

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, ChunkRecord]:
        """Chunks of ready documents by id (missing ids are absent from the result)."""
        return {row["chunk_id"]: _chunk(row) for row in self._ready_chunk_rows("c.*", "chunk_id", chunk_ids)}

    def chunk_ids_by_embed_key(self, keys: Sequence[str]) -> dict[str, str]:
        """For each embedding-text key, one chunk of a ready document that has it (absent if none)."""
        out: dict[str, str] = {}
        for row in self._ready_chunk_rows("c.embed_key, c.chunk_id", "embed_key", [k for k in dict.fromkeys(keys) if k]):
            out.setdefault(row["embed_key"], row["chunk_id"])
        return out

    def _ready_chunk_rows(self, columns: str, column: str, values: Sequence[str]) -> list[RowMapping]:
        """`columns` of the chunks of ready documents whose `column` is one of `values` (queried in
        batches of 500, under SQLite's limit on bound parameters)."""
        rows: list[RowMapping] = []
        for start in range(0, len(values), 500):
            rows += self.query(f"SELECT {columns} FROM chunks c JOIN documents d ON d.doc_id = c.doc_id"
                                f" WHERE d.status = 'ready' AND c.{column} IN :values",
                                {"values": list(values[start:start + 500])}, expanding=("values",))
        return rows

    def headings(self, doc_id: str) -> list[Heading]:
        """Headings of a document in document order, with the page range of each section."""
        return [Heading(r["title"], r["level"], tuple(json.loads(r["path"])), r["page_start"], r["page_end"])
                for r in self.query("SELECT * FROM headings WHERE doc_id = :doc_id ORDER BY position",
                                     {"doc_id": doc_id})]

    # -- table grids -------------------------------------------------------------------------------

    def grids(self, doc_id: str, chunk_ids: Sequence[str] = ()) -> list[TableGrid]:
        """A document's table grids in document order (only `chunk_ids` when given)."""
        only, expanding = (" AND chunk_id IN :ids", ("ids",)) if chunk_ids else ("", ())
        params = {"doc_id": doc_id, "ids": list(chunk_ids)} if chunk_ids else {"doc_id": doc_id}
        rows = self.query(f"SELECT * FROM table_grids WHERE doc_id = :doc_id{only} ORDER BY chunk_id", params,
                           expanding=expanding)
        cells = self.query(f"SELECT * FROM table_cells WHERE doc_id = :doc_id{only}", params, expanding=expanding)
        return grid_rows.read_grids(rows, cells)

    # -- document facts ---------------------------------------------------------------------------

    def upsert_fact(self, fact: FactRecord) -> None:
        """Store one fact with its lineage, replacing an earlier extraction of the same fact."""
        columns = schema.CONTRACT["document_facts"]
        values = (fact.doc_id, fact.fact_name, fact.value, fact.status, fact.confidence, fact.source_chunk_id,
                  json.dumps(list(fact.page_numbers)), json.dumps([r.as_dict() for r in fact.polygons]),
                  fact.evidence_excerpt, fact.extractor_version, fact.doc_sha256, fact.extracted_at)
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns[2:])
        with self.transaction() as conn:
            execute(conn, f"INSERT INTO document_facts ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"
                          f" ON CONFLICT (doc_id, fact_name) DO UPDATE SET {updates}", dict(zip(columns, values)))

    def facts(self, doc_id: str) -> list[FactRecord]:
        """The stored facts of a document, by name."""
        return [FactRecord(r["doc_id"], r["fact_name"], r["value"], r["status"], r["confidence"],
                           r["source_chunk_id"], tuple(json.loads(r["page_numbers_json"])),
                           tuple(Rect.from_dict(p) for p in json.loads(r["polygons_json"])),
                           r["evidence_excerpt"], r["extractor_version"], r["doc_sha256"], r["extracted_at"])
                for r in self.query("SELECT * FROM document_facts WHERE doc_id = :doc_id ORDER BY fact_name",
                                     {"doc_id": doc_id})]


def resolve_in(docs: Sequence[DocumentRecord], ref: str) -> DocumentRecord:
    """The one document of `docs` a reference names: its id (or a unique id prefix), file name, or name without
    extension; `DocumentNotFoundError` naming the documents known when none or several match."""
    ref = ref.strip()
    for match in (
        lambda d: d.doc_id == ref,
        lambda d: d.name == ref,
        lambda d: d.name.lower() == ref.lower() or d.stem.lower() == ref.lower(),
        lambda d: len(ref) >= 6 and d.doc_id.startswith(ref.lower()),
    ):
        found = [d for d in docs if match(d)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            names = ", ".join(f"{d.name} ({d.doc_id})" for d in found)
            raise DocumentNotFoundError(f"{ref!r} matches several documents: {names}. Use the id.")
    known = ", ".join(d.name for d in docs) or "none; ingest some with `vera ingest PATH`"
    raise DocumentNotFoundError(f"No document matches {ref!r}. Known documents: {known}.")


def _document(row: Mapping) -> DocumentRecord:
    return DocumentRecord(
        doc_id=row["doc_id"], name=row["name"], format=row["format"], sha256=row["sha256"],
        pages=row["pages"], size_bytes=row["size_bytes"], status=row["status"],
        metadata=json.loads(row["metadata_json"]), parser_version=row["parser_version"],
        chunk_count=row["chunk_count"], table_count=row["table_count"],
        created_at=row["created_at"], ready_at=row["ready_at"], stage=row["stage"], kind=row["kind"],
        kind_source=row["kind_source"], identity=json.loads(row["identity_json"] or "{}"))


def _chunk(row: Mapping) -> ChunkRecord:
    return ChunkRecord(
        chunk_id=row["chunk_id"], doc_id=row["doc_id"], position=row["position"], kind=row["kind"],
        text=row["text"], embed_text=row["embed_text"], heading_path=row["heading_path"],
        heading_titles=tuple(json.loads(row["heading_titles_json"])), section_id=row["section_id"],
        page_start=row["page_start"], page_end=row["page_end"],
        polygons=tuple(Rect.from_dict(p) for p in json.loads(row["polygons_json"])),
        caption=row["caption"], footnotes=row["footnotes"], tokens=row["tokens"], embed_key=row["embed_key"])
