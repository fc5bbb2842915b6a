"""The catalog's schema contract: new stores are created current; old ones fail fast and migrate."""

import sqlite3

import pytest

from vera_core.cli.main import main
from vera_core.errors import SchemaContractError
from vera_core.store import schema
from vera_core.store.catalog import Catalog


def test_new_store_is_created_at_latest_schema(tmp_path):
    catalog = Catalog(tmp_path)
    assert catalog.schema_version() == schema.LATEST_VERSION
    tables = {r[0] for r in sqlite3.connect(catalog.path).execute("SELECT name FROM sqlite_master")}
    assert {"documents", "chunks", "document_facts", "headings", "schema_version"} <= tables


def test_missing_table_names_table_and_fix(tmp_path):
    Catalog(tmp_path).close()
    conn = sqlite3.connect(tmp_path / "catalog.sqlite")
    conn.execute("DROP TABLE document_facts")
    conn.commit()
    with pytest.raises(SchemaContractError, match=r"no table 'document_facts'.*vera --data-dir .* migrate`"):
        Catalog(tmp_path)


def test_store_from_older_version_fails_fast_then_migrate_fixes_it(tmp_path, monkeypatch, capsys):
    Catalog(tmp_path).close()  # a store written by the current release
    upgrade = schema.Migration(schema.LATEST_VERSION + 1, "documents.language", "ALTER TABLE documents ADD COLUMN language TEXT")
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, upgrade))
    monkeypatch.setattr(schema, "CONTRACT", {**schema.CONTRACT,
                                             "documents": (*schema.CONTRACT["documents"], "language")})
    with pytest.raises(SchemaContractError, match=r"table 'documents' has no column 'language'.*vera --data-dir .* migrate`"):
        Catalog(tmp_path)
    assert main(["--data-dir", str(tmp_path), "migrate"]) == 0
    assert f"applied migration {schema.LATEST_VERSION + 1}" in capsys.readouterr().out
    assert Catalog(tmp_path).schema_version() == schema.LATEST_VERSION + 1


def test_ingestion_checks_the_contract_first(tmp_path, empty_store):
    conn = sqlite3.connect(empty_store.catalog.path)
    conn.execute("ALTER TABLE chunks DROP COLUMN footnotes")
    conn.commit()
    from tests.conftest import SAMPLE_PDF
    from vera_core.ingest.service import Ingestor
    result = Ingestor(empty_store).ingest_file(SAMPLE_PDF)
    assert result.status == "failed" and result.error_type == "SchemaContractError"
    assert "'footnotes'" in result.error and "migrate` to upgrade" in result.error


def test_a_migration_another_process_applied_meanwhile_is_skipped_not_applied_twice(tmp_path, monkeypatch):
    Catalog(tmp_path).close()  # the other process has migrated to the latest version
    conn = sqlite3.connect(tmp_path / "catalog.sqlite", isolation_level=None, timeout=5)
    stale = schema.LATEST_VERSION - 1  # what this process read before the other one committed
    monkeypatch.setattr(schema, "current_version", lambda _conn: stale)
    assert schema.migrate(conn) == []
    assert not conn.in_transaction
    versions = [row[0] for row in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    assert versions == list(range(1, schema.LATEST_VERSION + 1))
    embed_key = [r for r in conn.execute("PRAGMA table_info(chunks)") if r[1] == "embed_key"]
    assert len(embed_key) == 1
