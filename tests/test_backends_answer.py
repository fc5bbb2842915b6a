"""Answers over a team store are the answers over the embedded one: the bundled samples ingested into
PostgreSQL and a Chroma server (real servers the tests start) give, question for question, the same answer text, items,
citations with their pages and polygons, figures, calculations and documents as the samples in the
embedded SQLite catalog, whose answers the rest of the suite checks against the samples' ground truth."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.conftest import SAMPLES, _chroma, _postgres, settings_for
from vera_core.ingest.service import Ingestor
from vera_core.query import QueryEngine
from vera_core.workspace import Workspace

REPORT = "Aurora_Annual_Report_2024.pdf"
QUESTIONS = [json.loads(line)["question"] for line in (SAMPLES / "questions.jsonl").read_text().splitlines() if line]
QUESTIONS += [
    "What does page 4 say about the acquisition of Nordlicht?",
    "What was revenue in FY2024?",
    "What was the FY2024 capital expenditure in the cash flow statement?",
    "What was the gross margin in FY2024?",
    "What was the return on assets in FY2023?",
    "What was the revenue of the Motion Control segment in 2024?",
    "What currency are the statements presented in?",
    "Where can I find the risk factors?",
    "What is the aggregate range of reasonably possible losses?",
    "Did revenue grow in FY2024?",
]


@pytest.fixture(scope="module")
def stores(sample_store, tmp_path_factory) -> tuple[Workspace, Workspace]:
    data_dir = tmp_path_factory.mktemp("samples-on-postgresql")
    team = Workspace(settings_for(data_dir, database_url=_postgres().new_database(), chroma_url=_chroma().url,
                                  collection="vera_samples"))
    assert team.catalog.dialect == "postgresql" and team.vectors.url == _chroma().url
    ingestor = Ingestor(team)
    for path in sorted(SAMPLES.iterdir()):
        if path.suffix in (".pdf", ".md"):
            assert ingestor.ingest_file(path).status == "ingested"
    return sample_store, team


def _seen(answer) -> dict:
    return answer.model_dump(exclude={"timings_ms"})


def test_the_same_documents_chunks_and_tables_are_stored(stores):
    embedded, team = stores
    assert [(d.doc_id, d.name, d.kind, d.chunk_count, d.table_count, d.stage) for d in team.catalog.documents()] == \
           [(d.doc_id, d.name, d.kind, d.chunk_count, d.table_count, d.stage) for d in embedded.catalog.documents()]
    report = next(d for d in team.catalog.documents() if d.name == REPORT)
    assert team.catalog.chunks(report.doc_id) == embedded.catalog.chunks(report.doc_id)
    assert team.catalog.grids(report.doc_id) == embedded.catalog.grids(report.doc_id)
    assert [replace(f, extracted_at="") for f in team.catalog.facts(report.doc_id)] == \
           [replace(f, extracted_at="") for f in embedded.catalog.facts(report.doc_id)]
    assert team.catalog.keyword_index(report.doc_id) == embedded.catalog.keyword_index(report.doc_id)
    assert team.vectors.count() == embedded.vectors.count() == sum(d.chunk_count for d in team.catalog.documents())
    assert not (team.data_dir / "chroma").exists() and not (team.data_dir / "catalog.sqlite").exists()


@pytest.mark.parametrize("question", QUESTIONS)
def test_each_question_gets_the_same_answer_on_both_catalogs(stores, question):
    embedded, team = stores
    here = QueryEngine(embedded, llm=None).answer(question, mode="deterministic")
    there = QueryEngine(team, llm=None).answer(question, mode="deterministic")
    assert there.answer
    assert _seen(there) == _seen(here)


def test_an_unreachable_chroma_server_names_the_setting(tmp_path):
    from tests.servers import free_port
    from vera_core.errors import StoreUnavailableError
    url = f"http://127.0.0.1:{free_port()}"
    ws = Workspace(settings_for(tmp_path / "store", chroma_url=url))
    with pytest.raises(StoreUnavailableError, match=rf"Chroma server at {url}.*VERA_CHROMA_URL"):
        ws.vectors.count()
    assert not (tmp_path / "store" / "chroma").exists()


def test_a_file_queued_on_one_host_is_read_rendered_and_answered_on_another(tmp_path):
    """Two hosts of a team store share only the servers and the `VERA_FILES_DIR` folder: a file uploaded
    on one is read by a worker on the other, and its cited page renders on both."""
    from vera_core.ingest.desk import IngestDesk
    from vera_core.ingest.worker import IngestWorker
    from vera_core.records import Rect
    from vera_core.store.jobs import JobQueue
    from vera_core.render import Highlight, render_page
    shared = dict(database_url=_postgres().new_database(), chroma_url=_chroma().url, collection="vera_two_hosts",
                  files_dir=tmp_path / "shared")
    app_host = Workspace(settings_for(tmp_path / "app-host", **shared))
    worker_host = Workspace(settings_for(tmp_path / "worker-host", **shared))
    report = SAMPLES / REPORT
    job_id = IngestDesk(app_host).submit_path(report, start_worker=False).job_id
    assert IngestDesk(app_host).submit(
        "Nordlicht memo.md", b"# Nordlicht memo\n\nThe Nordlicht integration closes in March 2025.\n",
        ).job_id is not None
    staged = JobQueue(app_host.catalog).get(job_id).path
    assert staged.startswith(str(tmp_path / "shared" / "uploads"))  # a copy every host reads, not the app host's path
    IngestWorker(worker_host).run(until_idle=True)
    assert sorted(d.stage for d in app_host.catalog.documents()) == ["complete", "complete"]
    assert not list((tmp_path / "shared" / "uploads").iterdir())  # each staged copy dropped once read
    assert not (tmp_path / "app-host" / "files").exists() and not (tmp_path / "worker-host" / "files").exists()
    answer = QueryEngine(app_host, llm=None).answer("What was revenue in FY2024?", mode="deterministic")
    cited = answer.citations[0]
    doc = app_host.catalog.document(cited.doc_id)
    assert app_host.file_path(doc) == tmp_path / "shared" / "files" / f"{doc.doc_id}.pdf"
    rects = tuple(Rect(p.page, p.x0, p.y0, p.x1, p.y1) for p in cited.polygons)
    assert rects and cited.page == 6  # the income statement
    lit = render_page(app_host.file_path(doc), cited.page, (Highlight(1, rects),))
    assert lit.width > 0 and lit.jpeg != render_page(app_host.file_path(doc), cited.page).jpeg
    memo = QueryEngine(app_host, llm=None).answer("When does the Nordlicht integration close?", mode="deterministic")
    assert "March 2025" in memo.answer
