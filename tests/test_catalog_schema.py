"""The catalog's schema contract: new stores are created current; old ones fail fast and migrate.
On the embedded SQLite catalog and on PostgreSQL (a real server)."""

import threading

import pytest

from tests.conftest import settings_for
from vera_core.cli.main import main
from vera_core.errors import SchemaContractError, StoreUnavailableError
from vera_core.store import schema
from vera_core.store.catalog import Catalog
from vera_core.store.db import Database, execute

pytestmark = pytest.mark.backends


def _catalog(path, **kwargs) -> Catalog:
    return Catalog(path, url=settings_for(path).database_url, **kwargs)


def _alter(catalog: Catalog, statement: str) -> None:
    with catalog.db.write() as conn:
        conn.exec_driver_sql(statement)


def test_new_store_is_created_at_latest_schema(tmp_path, store_backend):
    catalog = _catalog(tmp_path)
    assert catalog.dialect == store_backend
    assert catalog.schema_version() == schema.LATEST_VERSION
    assert {"documents", "chunks", "document_facts", "headings", "schema_version", "ingest_jobs"} <= set(catalog.db.tables())
    assert (tmp_path / "catalog.sqlite").exists() == (store_backend == "sqlite")


def test_missing_table_names_table_and_fix(tmp_path):
    catalog = _catalog(tmp_path)
    _alter(catalog, "DROP TABLE document_facts")
    with pytest.raises(SchemaContractError, match=r"no table 'document_facts'.*vera --data-dir .* migrate`"):
        _catalog(tmp_path)


def test_store_from_older_version_fails_fast_then_migrate_fixes_it(tmp_path, monkeypatch, capsys):
    _catalog(tmp_path).close()  # a store written by the current release
    upgrade = schema.Migration(schema.LATEST_VERSION + 1, "documents.language", "ALTER TABLE documents ADD COLUMN language TEXT")
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, upgrade))
    monkeypatch.setattr(schema, "CONTRACT", {**schema.CONTRACT,
                                             "documents": (*schema.CONTRACT["documents"], "language")})
    with pytest.raises(SchemaContractError, match=r"table 'documents' has no column 'language'.*vera --data-dir .* migrate`"):
        _catalog(tmp_path)
    url = settings_for(tmp_path).database_url
    if url:
        monkeypatch.setenv("VERA_DATABASE_URL", url)
    assert main(["--data-dir", str(tmp_path), "migrate"]) == 0
    assert f"applied migration {schema.LATEST_VERSION + 1}" in capsys.readouterr().out
    assert _catalog(tmp_path).schema_version() == schema.LATEST_VERSION + 1


def test_ingestion_checks_the_contract_first(tmp_path):
    from tests.conftest import SAMPLE_PDF
    from vera_core.ingest.service import Ingestor
    from vera_core.workspace import Workspace
    ws = Workspace(settings_for(tmp_path / "store"))
    _alter(ws.catalog, "ALTER TABLE chunks DROP COLUMN footnotes")
    result = Ingestor(ws).ingest_file(SAMPLE_PDF)
    assert result.status == "failed" and result.error_type == "SchemaContractError"
    assert "'footnotes'" in result.error and "migrate` to upgrade" in result.error


def test_processes_migrating_one_catalog_at_once_apply_each_migration_once(tmp_path, store_backend):
    url = settings_for(tmp_path).database_url
    databases = [Database(url=url) if url else Database(sqlite_path=tmp_path / "catalog.sqlite") for _ in range(3)]
    applied: list[list[int]] = []
    failed: list[BaseException] = []
    start = threading.Barrier(len(databases))

    def migrate(db: Database) -> None:
        start.wait()
        try:
            applied.append([m.version for m in schema.migrate(db)])
        except BaseException as exc:  # NOTE: a thread's error does not fail the test by itself
            failed.append(exc)

    threads = [threading.Thread(target=migrate, args=(db,)) for db in databases]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed, f"a process opening the catalog at the same time failed: {failed[0]!r}"
    assert sorted(v for versions in applied for v in versions) == [m.version for m in schema.MIGRATIONS]
    with databases[0].write() as conn:
        versions = [r[0] for r in execute(conn, "SELECT version FROM schema_version ORDER BY version")]
    assert versions == list(range(1, schema.LATEST_VERSION + 1))
    assert "embed_key" in databases[0].tables()["chunks"]


def test_an_unreachable_database_names_the_setting_and_writes_nothing(tmp_path):
    from tests.servers import free_port
    url = f"postgresql://vera:secret@127.0.0.1:{free_port()}/vera"
    with pytest.raises(StoreUnavailableError, match=r"127\.0\.0\.1.*VERA_DATABASE_URL") as refused:
        Catalog(tmp_path / "store", url=url)
    assert "secret" not in str(refused.value)
    assert not (tmp_path / "store" / "catalog.sqlite").exists()
