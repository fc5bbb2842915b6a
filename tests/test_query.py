"""Answering on the bundled samples: each intent cites what a user would check."""

from __future__ import annotations

import json

import pymupdf
import pytest

from tests.conftest import SAMPLE_PDF, doc_by_name, settings_for
from tests.made_pdfs import KESTREL_NAME, kestrel_review_pdf
from vera_core.answer import compose
from vera_core.answer.compose import Piece
from vera_core.cli.main import main
from vera_core.ingest.service import Ingestor
from vera_core.query import QueryEngine
from vera_core.records import Rect
from vera_core.workspace import Workspace

REPORT = SAMPLE_PDF.name


@pytest.fixture(scope="module")
def engine(sample_store) -> QueryEngine:
    return QueryEngine(sample_store)


def _norm(text: str) -> str:
    return " ".join(text.split())


def test_location_question_cites_only_the_named_page(engine):
    answer = engine.answer("What does page 4 say about the acquisition of Nordlicht?", docs=[REPORT])
    assert answer.intent.type == "location" and answer.intent.pages == [4]
    assert answer.citations and all(c.page == 4 for c in answer.citations)
    assert all(p.page == 4 for c in answer.citations for p in c.polygons)
    assert "Nordlicht" in answer.answer
    assert answer.retrieval.searched_pages == [4]
    # page 4's sentence on gross margin shares only the synonym "price" with the question: not evidence
    assert "acquired 100% of Nordlicht Sensors" in _norm(answer.answer) and "Gross profit" not in answer.answer


def test_location_question_over_several_documents_cites_the_one_whose_page_speaks_of_it(tmp_path):
    ws = Workspace(settings_for(tmp_path / "store"))
    ingestor = Ingestor(ws)
    (tmp_path / KESTREL_NAME).write_bytes(kestrel_review_pdf())
    for path in (SAMPLE_PDF, tmp_path / KESTREL_NAME):
        assert ingestor.ingest_file(path).status == "ingested"
    engine = QueryEngine(ws)

    answer = engine.answer("What does page 2 say about the acquisition of Kestrel Robotics?")
    assert answer.citations and {(c.doc_name, c.page) for c in answer.citations} == {(KESTREL_NAME, 2)}
    assert "acquired Kestrel Robotics" in _norm(answer.answer)

    bare = engine.answer("What does page 2 say?")  # no focus: every document's page 2 is read
    assert len(bare.intent.doc_scope) == 2 and bare.citations and all(c.page == 2 for c in bare.citations)


def test_page_that_does_not_exist_gets_a_clear_message_not_an_answer(engine):
    answer = engine.answer("What does page 99 say about revenue?", docs=[REPORT])
    assert answer.citations == [] and answer.items == []
    assert "Page 99 does not exist" in answer.answer and "11 pages" in answer.answer


def test_list_all_significant_events_is_complete_across_the_page_break(engine, ground_truth):
    want = ground_truth[REPORT]["significant_events"]
    answer = engine.answer("List all significant events", docs=[REPORT])
    assert (answer.intent.type, answer.intent.subtype) == ("coverage", "list")
    assert len(answer.items) == len(want["items"])
    for item, expected in zip(answer.items, want["items"]):
        assert _norm(item.text) == _norm(expected)
        assert len(item.citations) == 1 and item.verified
    cited_pages = {c.page for c in answer.citations}
    assert cited_pages == set(want["pages"])
    assert answer.retrieval.sections == ["/".join([SAMPLE_PDF.stem, *want["section_path"]])]
    assert answer.verification.label == "grounded"


def test_attribute_question_returns_the_range_with_its_page(engine, ground_truth):
    want = ground_truth[REPORT]["attribute"]
    answer = engine.answer("What is the aggregate range of reasonably possible losses?", docs=[REPORT])
    assert (answer.intent.type, answer.intent.subtype) == ("coverage", "attribute")
    assert want["text"] in answer.answer
    assert answer.citations[0].page == want["page"]
    assert answer.verification.grounding_score >= 0.85


def test_table_figure_is_cited_from_the_table_whose_polygon_contains_it(engine):
    answer = engine.answer("What was the revenue of the Motion Control segment in 2024?", docs=[REPORT])
    assert answer.intent.numeric
    table = next(c for c in answer.citations if c.kind == "table")
    assert "412,300" in answer.answer and "412,300" in table.quote
    page = pymupdf.open(SAMPLE_PDF)[table.page - 1]
    hits = [Rect(table.page, r.x0, r.y0, r.x1, r.y1) for r in page.search_for("412,300")]
    regions = [Rect(p.page, p.x0, p.y0, p.x1, p.y1) for p in table.polygons]
    assert any(region.contains(hit) for region in regions for hit in hits)
    assert answer.verification.numbers and all(n.status == "match" for n in answer.verification.numbers)


@pytest.mark.parametrize("question, fact", [
    ("What currency are the financial statements presented in?", "default_currency"),
    ("What is the reporting period of the annual report?", "reporting_period"),
    ("Which accounting framework are the statements prepared under?", "accounting_framework"),
    ("Are the amounts in thousands or millions?", "units"),
    ("Are these consolidated or standalone statements?", "consolidation_basis"),
])
def test_metadata_fact_matches_ground_truth_with_citation(engine, ground_truth, question, fact):
    want = ground_truth[REPORT]["facts"][fact]
    answer = engine.answer(question, docs=[REPORT])
    assert (answer.intent.type, answer.intent.subtype) == ("metadata", fact)
    assert want["value"] in answer.answer
    assert answer.citations and answer.citations[0].page == want["page"]
    assert _norm(want["evidence"]) in _norm(answer.citations[0].quote)


def test_absent_fact_is_not_found_with_pages_searched(tmp_path):
    doc = pymupdf.open()
    for n in range(3):
        doc.new_page().insert_text((72, 72), f"Operations review page {n + 1}. Sales grew in every region.")
    path = tmp_path / "no_facts.pdf"
    doc.save(path)
    ws = Workspace(settings_for(tmp_path / "store"))
    assert Ingestor(ws).ingest_file(path).status == "ingested"
    answer = QueryEngine(ws).answer("What currency are the statements presented in?")
    assert answer.citations == []
    assert "not found" in answer.answer and "searched pages 1, 2, 3" in answer.answer


def test_pointer_question_names_section_and_page(engine):
    answer = engine.answer("Where can I find the risk factors?", docs=[REPORT])
    assert (answer.intent.type, answer.intent.subtype) == ("coverage", "pointer")
    assert "Risk factors" in answer.answer and "page 11" in answer.answer


def test_wrong_figure_is_flagged_and_scores_lower(engine):
    answer = engine.answer("What is the aggregate range of reasonably possible losses?", docs=[REPORT])
    chunk = engine.ws.catalog.chunks_by_id([answer.citations[0].chunk_id])[answer.citations[0].chunk_id]
    good = [Piece(answer.items[0].text if answer.items else answer.answer.split(" [")[0], chunk, chunk.text)]
    bad = [Piece(good[0].text.replace("3.4", "4.3"), chunk, chunk.text)]
    good_v = compose.verify(good, [1], embed=None)
    bad_v = compose.verify(bad, [1], embed=None)
    assert good_v.grounding_score >= 0.85
    assert bad_v.grounding_score < good_v.grounding_score
    assert any(n.status == "mismatch" and "4.3" in n.text for n in bad_v.numbers)


def test_llm_modes_say_the_llm_is_unavailable_and_still_answer(engine):
    answer = engine.answer("List all significant events", docs=[REPORT], mode="llm_always")
    assert any("LLM unavailable" in n for n in answer.notices) and len(answer.items) == 7
    deterministic = engine.answer("List all significant events", docs=[REPORT], mode="deterministic")
    assert not deterministic.notices


def test_cli_query_json_contract_and_batch_and_export(sample_store, tmp_path, capsys, monkeypatch):
    data_dir = str(sample_store.data_dir)
    assert main(["--data-dir", data_dir, "query", "List all significant events", "--doc", REPORT, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"question", "intent", "answer", "items", "citations", "verification", "retrieval", "timings_ms"} <= set(data)
    assert {"type", "subtype", "rule", "pages", "doc_scope"} <= set(data["intent"])
    assert {"n", "doc_id", "doc_name", "format", "page", "heading_path", "chunk_id", "kind", "quote", "polygons",
            "score"} <= set(data["citations"][0])
    assert {"grounding_score", "label", "claims", "numbers", "warnings"} <= set(data["verification"])
    assert {"hops", "coverage", "searched_pages", "candidates"} <= set(data["retrieval"])
    assert {"route", "retrieve", "synthesize", "verify", "total"} <= set(data["timings_ms"])
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"question": "What does page 10 say about provisions?", "doc": REPORT}) + "\n"
                         + json.dumps({"question": "List all significant events", "doc": REPORT}) + "\n")
    assert main(["--data-dir", data_dir, "query", "--questions", str(questions)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["intent"]["type"] for x in lines] == ["location", "coverage"]
    out = tmp_path / "evidence.csv"
    assert main(["--data-dir", data_dir, "export", "--format", "csv", "--output", str(out),
                 "--questions", str(questions)]) == 0
    import csv
    rows = list(csv.DictReader(out.open()))
    assert rows[0].keys() >= {"question", "claim", "document", "page", "heading_path", "quote", "polygons"}
    assert sum(1 for r in rows if r["question"] == "List all significant events") == 7
    assert {r["page"] for r in rows if r["question"].startswith("What does page 10")} == {"10"}


def test_cli_eval_json_shape_on_sample_questions(sample_store, ground_truth, tmp_path, capsys):
    gt = ground_truth[REPORT]
    rows = [{"id": "attr", "doc_name": SAMPLE_PDF.stem, "question": "What is the aggregate range of reasonably possible losses?",
             "answer": gt["attribute"]["text"], "evidence": [{"page_index": gt["attribute"]["page"] - 1}]},
            {"id": "events", "doc_name": SAMPLE_PDF.stem, "question": "List all significant events",
             "answer": "seven events", "evidence": [{"page_index": p - 1} for p in gt["significant_events"]["pages"]]}]
    path = tmp_path / "questions.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    assert main(["--data-dir", str(sample_store.data_dir), "eval", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"questions", "scope", "page_recall", "figure_match", "grounding", "latency_ms"} <= set(report)
    assert report["questions"] == 2 and report["page_recall"] == {"1": 1.0, "3": 1.0, "5": 1.0}
    assert report["figure_match"] == 1.0 and set(report["latency_ms"]) == {"p50", "p95"}


def test_cli_eval_reports_the_share_of_required_items_and_documents_found(sample_store, ground_truth, tmp_path,
                                                                          capsys):
    events = [e.split(":")[0] for e in ground_truth[REPORT]["significant_events"]["items"]]
    rows = [{"id": "events", "doc_name": SAMPLE_PDF.stem, "question": "List all significant events",
             "required_items": events + ["Opening of a moon base"], "required_docs": [SAMPLE_PDF.name]},
            {"id": "rules", "doc_name": "expense_policy", "question": "List the steps to be reimbursed for expenses",
             "required_docs": ["expense_policy", "data_retention_policy"]},
            {"id": "policies", "question": "Which policies address encryption of data at rest?",
             "required_docs": ["data_protection_policy"], "accept_docs": ["acceptable_use_policy"],
             "other_docs": [SAMPLE_PDF.stem]}]  # the mobile device policy addresses it too: unexpected
    path = tmp_path / "lists.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    assert main(["--data-dir", str(sample_store.data_dir), "eval", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["lists"]["items"] == {"questions": 1, "required": 8, "found": 7, "share": 0.875}
    assert report["lists"]["docs"] == {"questions": 3, "required": 4, "found": 3, "share": 0.75, "unexpected": 1,
                                       "other_kind": 0}
    assert report["per_question"][2]["unexpected_docs"] == 1 and report["per_question"][2]["other_kind_docs"] == 0
    assert report["per_question"][0]["required_items_found"] == "7/8"
    assert report["page_recall"] == {"1": None, "3": None, "5": None} and report["page_questions"] == 0


def test_cli_eval_page_recall_counts_only_questions_with_gold_pages(sample_store, ground_truth, tmp_path, capsys):
    gt = ground_truth[REPORT]
    rows = [{"id": "attr", "doc_name": SAMPLE_PDF.stem, "question": "What is the aggregate range of reasonably possible losses?",
             "answer": gt["attribute"]["text"], "evidence": [{"page_index": gt["attribute"]["page"] - 1}]},
            {"id": "events", "doc_name": SAMPLE_PDF.stem, "question": "List all significant events",
             "required_items": [e.split(":")[0] for e in gt["significant_events"]["items"]]}]  # no gold pages
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    assert main(["--data-dir", str(sample_store.data_dir), "eval", str(path)]) == 0
    assert "page recall@1/3/5: 1.00 / 1.00 / 1.00 over 1 question with gold pages" in capsys.readouterr().out
