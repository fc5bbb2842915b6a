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
