"""Traces and logs (issue 21): one question gives a `vera.query` span with its route, retrieval, answer
and verification phases and VERA's attributes; ingestion gives a span per document and stage; an API
request gives its own span; logs can be JSON (in-memory exporter, no collector)."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tests.conftest import SAMPLES, settings_for
from vera_core.ingest.desk import IngestDesk
from vera_core.ingest.worker import IngestWorker
from vera_core.query import QueryEngine
from vera_core.telemetry import JsonFormatter
from vera_core.workspace import Workspace


@pytest.fixture(scope="module")
def spans():
    exporter = InMemorySpanExporter()
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return exporter


def test_one_question_gives_its_spans_with_their_attributes(sample_store, spans):
    spans.clear()
    answer = QueryEngine(sample_store, llm=None).answer("What was revenue in FY2024?", mode="deterministic")
    got = {s.name: s for s in spans.get_finished_spans()}
    root = got["vera.query"]
    assert root.attributes["vera.operation"] == "query" and root.attributes["vera.route"] == answer.intent.type
    assert root.attributes["vera.grounding_score"] == answer.verification.grounding_score
    assert root.attributes["vera.document_count"] == len(sample_store.catalog.documents())
    for phase in ("route", "retrieve", "verify"):
        child = got[f"vera.query.{phase}"]
        assert child.attributes["vera.phase"] == phase and child.parent.span_id == root.context.span_id
        assert child.end_time > child.start_time
    assert root.status.is_ok


def test_ingestion_gives_a_span_per_document_and_stage(tmp_path, spans):
    spans.clear()
    ws = Workspace(settings_for(tmp_path / "store"))
    IngestDesk(ws).submit_path(SAMPLES / "expense_policy.md", start_worker=False)
    IngestWorker(ws).run(until_idle=True)
    doc = ws.catalog.documents()[0]
    stages = {s.attributes["vera.phase"]: s for s in spans.get_finished_spans() if s.name.startswith("vera.ingest.")}
    assert set(stages) == {"parse", "searchable", "embed"}
    for stage in stages.values():
        assert stage.attributes["vera.document_id"] == doc.doc_id
        assert stage.attributes["vera.document_format"] == "markdown"


def test_an_api_request_gives_its_span_around_the_question(sample_store, spans):
    from vera_core.api.app import create_app
    spans.clear()
    client = TestClient(create_app(sample_store))
    assert client.post("/query", json={"question": "What was revenue in FY2024?", "mode": "deterministic"}).status_code == 200
    assert client.get("/documents/nope").status_code == 404
    requests = [s for s in spans.get_finished_spans() if s.name == "vera.api.request"]
    assert [(s.attributes["http.target"], s.attributes["http.status_code"]) for s in requests] == [
        ("/query", 200), ("/documents/nope", 404)]
    question = next(s for s in spans.get_finished_spans() if s.name == "vera.query")
    assert question.context.trace_id == requests[0].context.trace_id  # the question inside its request


def test_json_logs_carry_the_fields_and_the_trace(spans):
    from vera_core.telemetry import span
    record = logging.LogRecord("vera.api", logging.INFO, __file__, 1, "POST /query 200", (), None)
    setattr(record, "vera.operation", "api")
    with span("vera.test"):
        line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "POST /query 200" and line["vera.operation"] == "api" and len(line["trace_id"]) == 32
