"""Catalog schema: ordered migrations and the contract the code relies on."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from vera_core.store import access as access_tables
from vera_core.errors import SchemaContractError
from vera_core.store import grids
from vera_core.store.db import Database, execute


@dataclass(frozen=True)
class Migration:
    """One schema step; applied in `version` order, each exactly once."""

    version: int
    description: str
    sql: str
    """Statements separated by `;`, with `{real}`, `{blob}` and `{serial_pk}` for the dialect's types."""
    by_dialect: tuple[tuple[str, str], ...] = ()
    """(dialect, statements) run after `sql` on that dialect only: what the two cannot say alike
    (SQLite changes a CHECK constraint only by rebuilding its table)."""

    def statements(self, types: dict[str, str], dialect: str = "sqlite") -> list[str]:
        sql = self.sql + ";" + ";".join(text for name, text in self.by_dialect if name == dialect)
        sql = re.sub(r"\{(real|blob|serial_pk)\}", lambda m: types[m.group(1)], sql)
        return [part.strip() for part in sql.split(";") if part.strip()]


_JOB_COLUMNS = ("job_id, kind, name, path, owned, force, doc_id, status, stage, progress, pages, chunks, error, "
                "error_type, created_at, started_at, searchable_at, finished_at, updated_at, attempts, doc_kind, "
                "worker, heartbeat_at")

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "documents, chunks, headings, document_facts", """
        CREATE TABLE documents (
            doc_id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            format TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            pages INTEGER NOT NULL,
            size_bytes INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('ingesting', 'ready')),
            metadata_json TEXT NOT NULL DEFAULT '{}',
            parser_version TEXT NOT NULL,
            chunk_count INTEGER NOT NULL DEFAULT 0,
            table_count INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            ready_at TEXT
        );
        CREATE TABLE chunks (
            chunk_id TEXT PRIMARY KEY,
            doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            embed_text TEXT NOT NULL,
            heading_path TEXT NOT NULL,
            heading_titles_json TEXT NOT NULL,
            section_id TEXT NOT NULL,
            page_start INTEGER NOT NULL,
            page_end INTEGER NOT NULL,
            polygons_json TEXT NOT NULL,
            caption TEXT NOT NULL DEFAULT '',
            footnotes TEXT NOT NULL DEFAULT '',
            tokens INTEGER NOT NULL
        );
        CREATE INDEX chunks_doc_position ON chunks(doc_id, position);
        CREATE INDEX chunks_doc_pages ON chunks(doc_id, page_start, page_end);
        CREATE TABLE headings (
            doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            level INTEGER NOT NULL,
            title TEXT NOT NULL,
            path TEXT NOT NULL,
            page_start INTEGER,
            page_end INTEGER,
            PRIMARY KEY (doc_id, position)
        );
        CREATE TABLE document_facts (
            doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
            fact_name TEXT NOT NULL,
            value TEXT,
            status TEXT NOT NULL CHECK (status IN ('found', 'not_found', 'ambiguous')),
            confidence {real} NOT NULL,
            source_chunk_id TEXT,
            page_numbers_json TEXT NOT NULL DEFAULT '[]',
            polygons_json TEXT NOT NULL DEFAULT '[]',
            evidence_excerpt TEXT NOT NULL DEFAULT '',
            extractor_version TEXT NOT NULL,
            doc_sha256 TEXT NOT NULL,
            extracted_at TEXT NOT NULL,
            PRIMARY KEY (doc_id, fact_name)
        );
    """),
    Migration(2, "chunks.embed_key: reuse the vector of identical embedding text", """
        ALTER TABLE chunks ADD COLUMN embed_key TEXT NOT NULL DEFAULT '';
        CREATE INDEX chunks_embed_key ON chunks(embed_key);
    """),
    Migration(3, "table_grids and table_cells: the cell grid of every table chunk", grids.MIGRATION_SQL),
    Migration(4, "document stages (searchable, complete), persisted keyword indexes, the ingestion queue", """
        ALTER TABLE documents ADD COLUMN stage TEXT NOT NULL DEFAULT 'complete';
        CREATE TABLE keyword_indexes (
            doc_id TEXT PRIMARY KEY REFERENCES documents(doc_id) ON DELETE CASCADE,
            data {blob} NOT NULL,
            built_at TEXT NOT NULL
        );
        CREATE TABLE ingest_jobs (
            job_id {serial_pk},
            kind TEXT NOT NULL DEFAULT 'ingest' CHECK (kind IN ('ingest', 'delete')),
            name TEXT NOT NULL,
            path TEXT NOT NULL,
            owned INTEGER NOT NULL DEFAULT 0,
            force INTEGER NOT NULL DEFAULT 0,
            doc_id TEXT,
            status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'skipped')),
            stage TEXT NOT NULL,
            progress {real} NOT NULL DEFAULT 0,
            pages INTEGER NOT NULL DEFAULT 0,
            chunks INTEGER NOT NULL DEFAULT 0,
            error TEXT NOT NULL DEFAULT '',
            error_type TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            started_at TEXT,
            searchable_at TEXT,
            finished_at TEXT,
            updated_at TEXT NOT NULL
        );
        CREATE INDEX ingest_jobs_status ON ingest_jobs(status, job_id);
    """),
    Migration(5, "document kinds (detected or chosen), read attempts and a chosen kind per ingestion job", """
        ALTER TABLE documents ADD COLUMN kind TEXT NOT NULL DEFAULT '';
        ALTER TABLE documents ADD COLUMN kind_source TEXT NOT NULL DEFAULT '';
        ALTER TABLE ingest_jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE ingest_jobs ADD COLUMN doc_kind TEXT NOT NULL DEFAULT '';
    """),
    Migration(6, "ingestion workers and their heartbeats: several workers share one queue", """
        ALTER TABLE ingest_jobs ADD COLUMN worker TEXT NOT NULL DEFAULT '';
        ALTER TABLE ingest_jobs ADD COLUMN heartbeat_at TEXT;
        CREATE TABLE workers (
            worker_id TEXT PRIMARY KEY,
            host TEXT NOT NULL,
            pid INTEGER NOT NULL,
            started_at TEXT NOT NULL,
            heartbeat_at TEXT NOT NULL
        );
        CREATE INDEX ingest_jobs_worker ON ingest_jobs(worker, status)
    """),
    Migration(7, "the embedding model of each set of vectors, and the documents re-embedded with a new one", """
        CREATE TABLE vector_spaces (
            collection TEXT PRIMARY KEY,
            model_name TEXT NOT NULL,
            model_version TEXT NOT NULL,
            dimension INTEGER NOT NULL,
            state TEXT NOT NULL,
            created_at TEXT NOT NULL,
            activated_at TEXT
        );
        CREATE TABLE space_documents (
            collection TEXT NOT NULL,
            doc_id TEXT NOT NULL,
            embedded_at TEXT NOT NULL,
            PRIMARY KEY (collection, doc_id)
        )
    """, by_dialect=(
        ("postgresql", """
            ALTER TABLE ingest_jobs DROP CONSTRAINT IF EXISTS ingest_jobs_kind_check;
            ALTER TABLE ingest_jobs ADD CONSTRAINT ingest_jobs_kind_check CHECK (kind IN ('ingest', 'delete', 'reembed'))
        """),
        ("sqlite", f"""
            CREATE TABLE ingest_jobs_v7 (
                job_id INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL DEFAULT 'ingest' CHECK (kind IN ('ingest', 'delete', 'reembed')),
                name TEXT NOT NULL,
                path TEXT NOT NULL,
                owned INTEGER NOT NULL DEFAULT 0,
                force INTEGER NOT NULL DEFAULT 0,
                doc_id TEXT,
                status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'skipped')),
                stage TEXT NOT NULL,
                progress REAL NOT NULL DEFAULT 0,
                pages INTEGER NOT NULL DEFAULT 0,
                chunks INTEGER NOT NULL DEFAULT 0,
                error TEXT NOT NULL DEFAULT '',
                error_type TEXT NOT NULL DEFAULT '',
                created_at TEXT NOT NULL,
                started_at TEXT,
                searchable_at TEXT,
                finished_at TEXT,
                updated_at TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                doc_kind TEXT NOT NULL DEFAULT '',
                worker TEXT NOT NULL DEFAULT '',
                heartbeat_at TEXT
            );
            INSERT INTO ingest_jobs_v7 ({_JOB_COLUMNS}) SELECT {_JOB_COLUMNS} FROM ingest_jobs;
            DROP TABLE ingest_jobs;
            ALTER TABLE ingest_jobs_v7 RENAME TO ingest_jobs;
            CREATE INDEX ingest_jobs_status ON ingest_jobs(status, job_id);
            CREATE INDEX ingest_jobs_worker ON ingest_jobs(worker, status)
        """),
    )),
    Migration(8, "who may read what: collections of documents, users and their API tokens (hashed)",
              access_tables.MIGRATION_SQL),
    Migration(9, "what each document is and when: type, company, fiscal year and quarter, period end", """
        ALTER TABLE documents ADD COLUMN identity_json TEXT NOT NULL DEFAULT '{}'
    """),
)

CONTRACT: dict[str, tuple[str, ...]] = {
    "documents": ("doc_id", "name", "format", "sha256", "pages", "size_bytes", "status",
                  "metadata_json", "parser_version", "chunk_count", "table_count", "created_at", "ready_at", "stage",
                  "kind", "kind_source", "identity_json"),
    "chunks": ("chunk_id", "doc_id", "position", "kind", "text", "embed_text", "heading_path",
               "heading_titles_json", "section_id", "page_start", "page_end", "polygons_json",
               "caption", "footnotes", "tokens", "embed_key"),
    "headings": ("doc_id", "position", "level", "title", "path", "page_start", "page_end"),
    "document_facts": ("doc_id", "fact_name", "value", "status", "confidence", "source_chunk_id",
                       "page_numbers_json", "polygons_json", "evidence_excerpt", "extractor_version",
                       "doc_sha256", "extracted_at"),
    "table_grids": grids.GRID_COLUMNS,
    "keyword_indexes": ("doc_id", "data", "built_at"),
    "ingest_jobs": ("job_id", "kind", "name", "path", "owned", "force", "doc_id", "status", "stage", "progress",
                    "pages", "chunks", "error", "error_type", "created_at", "started_at", "searchable_at",
                    "finished_at", "updated_at", "attempts", "doc_kind", "worker", "heartbeat_at"),
    "workers": ("worker_id", "host", "pid", "started_at", "heartbeat_at"),
    "vector_spaces": ("collection", "model_name", "model_version", "dimension", "state", "created_at",
                      "activated_at"),
    "space_documents": ("collection", "doc_id", "embedded_at"),
    **access_tables.CONTRACT,
    "table_cells": grids.CELL_COLUMNS,
}
"""Tables and columns the code reads or writes; checked at app start and before every ingestion."""

LATEST_VERSION = MIGRATIONS[-1].version


_LOCK_KEY = 0x5645_5241
"""PostgreSQL advisory lock taken by a migration: processes migrating one catalog at once queue."""


def current_version(db: Database) -> int:
    """The highest applied migration, 0 for a catalog that has none."""
    if not db.has_table("schema_version"):
        return 0
    return int(db.read("SELECT MAX(version) AS v FROM schema_version")[0]["v"] or 0)


def migrate(db: Database) -> list[Migration]:
    """Apply every pending migration in order, each in its own transaction; returns those applied.
    Safe when processes migrate one catalog at once: each migration runs under the write lock (SQLite)
    or an advisory lock (PostgreSQL) and checks the version again once it holds it."""
    with db.write() as conn:
        _lock(db, conn)
        execute(conn, "CREATE TABLE IF NOT EXISTS schema_version ("
                      "version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)")
    applied = []
    for migration in MIGRATIONS:
        with db.write() as conn:
            _lock(db, conn)
            done = execute(conn, "SELECT MAX(version) FROM schema_version").scalar() or 0
            if migration.version <= done:
                continue
            execute(conn, "INSERT INTO schema_version VALUES (:version, :description, :at)",
                    {"version": migration.version, "description": migration.description,
                     "at": datetime.now(UTC).isoformat()})
            for statement in migration.statements(db.types, db.dialect):
                conn.exec_driver_sql(statement)
        applied.append(migration)
    return applied


def _lock(db: Database, conn) -> None:
    if db.dialect == "postgresql":
        execute(conn, "SELECT pg_advisory_xact_lock(:key)", {"key": _LOCK_KEY})


def check_contract(db: Database, fix: str) -> None:
    """Fail fast with the first table or column the code needs that the catalog lacks."""
    tables = db.tables()
    for table, columns in CONTRACT.items():
        present = tables.get(table)
        if not present:
            raise SchemaContractError(f"Catalog {db.where!r} has no table {table!r}. {fix}")
        for column in columns:
            if column not in present:
                raise SchemaContractError(
                    f"Catalog {db.where!r}: table {table!r} has no column {column!r}. {fix}")
