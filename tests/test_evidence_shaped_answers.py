"""The shape of an answer follows its evidence (issue 25), on policy pages written by someone who never saw
VERA (data/blind/policies-extra-dev/): a question that never says "list" is answered with the list its best
passage introduces (a lead-in closing a paragraph, a bold line, an item over sub-items, a sentence before a
numbered decision tree), checkbox items read without their boxes, and a "which documents" question in
everyday words finds the documents that say it in theirs. Golds are the writers' (data/blind/extra-dev.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import settings_for
from vera_core.cli.eval_lists import list_coverage, norm
from vera_core.ingest.service import Ingestor
from vera_core.query import QueryEngine
from vera_core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[1]
PAGES = ROOT / "data" / "blind" / "policies-extra-dev"
GOLDS = {q["id"]: q for q in map(json.loads, (ROOT / "data" / "blind" / "extra-dev.jsonl").read_text().splitlines())}


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    ws = Workspace(settings_for(tmp_path_factory.mktemp("handbook-store")), batch=True)
    ingestor = Ingestor(ws)
    files = sorted(PAGES.glob("*.md"))
    assert len(files) == 4
    for path in files:
        assert ingestor.ingest_file(path).status == "ingested"
    return QueryEngine(ws, llm=None)


@pytest.mark.parametrize("qid, shape", [
    ("w3-018", "a lead-in closing a paragraph"),
    ("w3-017", "a bold line over a list"),
    ("w3-010", "an item over its sub-items"),
    ("w3-015", "a sentence before a numbered decision tree"),
    ("w3-007", "a checkbox task list"),
])
def test_a_question_that_never_says_list_gets_the_list_its_evidence_introduces(engine, qid, shape):
    gold = GOLDS[qid]
    answer = engine.answer(gold["question"], mode="deterministic")
    assert answer.items, f"{shape}: {answer.answer[:200]}"
    found, required = list_coverage(gold, answer)["items"]
    assert found == required, f"{shape}: {[i.text for i in answer.items]}"
    assert len(answer.items) == len(gold["required_items"])  # the list, not its neighbours
    assert all(not norm(i.text).startswith("x ") and not i.text.startswith("[") for i in answer.items)
    assert all(i.citations for i in answer.items)


def test_a_one_fact_question_is_not_turned_into_a_list(engine):
    answer = engine.answer("How long does a lost laptop have to be reported within?", mode="deterministic")
    assert not answer.items


def test_which_documents_in_everyday_words_finds_the_documents_that_say_it_in_theirs(engine):
    gold = GOLDS["w3-004"]  # "spot-checks afterwards whether the process was actually followed"
    answer = engine.answer(gold["question"], mode="deterministic")
    assert answer.intent.subtype == "documents"
    found, required = list_coverage(gold, answer)["docs"]
    assert found == required == 2
    matched = {d.doc_name for d in answer.documents if d.status == "matched"}
    required = {f"{name}.md" for name in gold["required_docs"]}
    # NOTE: the learned decision cites one page too many here (the laptop standard's offboarding section);
    # precision is measured per template by `vera eval` (docs/decisions.md)
    assert required <= matched and len(matched - required) <= 1
