"""The API's filters and limits in process (FastAPI's test client over the samples, an open store):
kinds, format, fiscal period and document ids narrow what a question reads; a question over the time
limit is cut off with 504 and writes nothing."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from vera_core.api.app import create_app


def _ask(client, question: str, **filters) -> dict:
    response = client.post("/query", json={"question": question, "mode": "deterministic", "filters": filters})
    assert response.status_code == 200, response.text
    return response.json()


def test_filters_narrow_the_documents_a_question_reads(sample_store):
    client = TestClient(create_app(sample_store))
    docs = {d.name: d for d in sample_store.catalog.documents()}
    policies = {d.doc_id for d in docs.values() if d.kind == "policy"}
    markdown = {d.doc_id for d in docs.values() if d.format == "markdown"}
    report = docs["Aurora_Annual_Report_2024.pdf"].doc_id
    by_kind = _ask(client, "What must staff do to protect company data?", kinds=["policy"])
    assert by_kind["citations"] and {c["doc_id"] for c in by_kind["citations"]} <= policies
    assert set(by_kind["vera"]["intent"]["doc_scope"]) == policies
    by_format = _ask(client, "What must staff do to protect company data?", format="markdown")
    assert {c["doc_id"] for c in by_format["citations"]} <= markdown
    by_period = _ask(client, "What was revenue?", fiscal_period="FY2024")
    assert by_period["vera"]["intent"]["doc_scope"] == [report]
    assert {c["doc_id"] for c in by_period["citations"]} == {report}
    by_id = _ask(client, "What was revenue?", doc_ids=[report])
    assert {s["doc_id"] for s in by_id["sources"]} == {report}
    none = client.post("/query", json={"question": "What was revenue?", "filters": {"kinds": ["contract"]}})
    assert none.status_code == 404 and none.json()["field"] == "filters"
    listed = client.get("/documents", params={"kind": "policy"}).json()
    assert {d["doc_id"] for d in listed} == policies


def test_a_question_over_the_time_limit_is_cut_off_with_504(sample_store, monkeypatch):
    from vera_core.query import QueryEngine
    slow = QueryEngine.answer

    def slowly(self, *args, **kwargs):
        time.sleep(0.5)
        return slow(self, *args, **kwargs)
    monkeypatch.setattr(QueryEngine, "answer", slowly)
    before = sample_store.catalog.versions()
    client = TestClient(create_app(sample_store, timeout_s=0.1))
    response = client.post("/query", json={"question": "What was revenue in FY2024?"})
    assert response.status_code == 504 and "cut off" in response.json()["error"]
    assert sample_store.catalog.versions() == before
