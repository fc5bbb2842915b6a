"""The shape of an answer follows its evidence (issue 25), on policy pages written by someone who never saw
VERA (data/blind/policies-extra-dev/): a question that never says "list" is answered with the list its best
passage introduces (a lead-in closing a paragraph, a bold line, an item over sub-items, a sentence before a
numbered decision tree), checkbox items read without their boxes, and a "which documents" question in
everyday words finds the documents that say it in theirs. Golds are the writers' (data/blind/extra-dev.jsonl)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import blind_golds, markdown_store, settings_for
from vera_core.cli.eval_lists import list_coverage, norm
from vera_core.ingest.service import Ingestor
from vera_core.query import QueryEngine
from vera_core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[1]
PAGES = ROOT / "data" / "blind" / "policies-extra-dev"
GOLDS = blind_golds("extra-dev")


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return QueryEngine(markdown_store(tmp_path_factory, "handbook-store", PAGES, 4), llm=None)


@pytest.mark.parametrize("qid, shape", [
    ("w3-018", "a lead-in closing a paragraph"),
    ("w3-017", "a bold line over a list"),
    ("w3-010", "an item over its sub-items"),
    ("w3-015", "a sentence before a numbered decision tree"),
    ("w3-007", "a checkbox task list"),
    ("w3-012", "a table whose first column is what the question asks a list of"),
    ("w3-014", "a table of kinds of data, asked as 'which kinds of data'"),
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


def test_a_table_answers_only_when_the_question_asks_a_list_of_its_first_column(engine):
    """"for each kind of storage" in a question about the data classification guide does not make its
    "Data | Kept for" table the answer, nor does "which class" when the question asks for the questions."""
    for qid in ("w3-021", "w3-015"):
        answer = engine.answer(GOLDS[qid]["question"], mode="deterministic")
        assert not any(i.text.startswith(("Raw customer event data", "Public (")) for i in answer.items), qid


HANDBOOK = {
    "engineering-handbook.md": """# Engineering Handbook

## Building software safely

Security is part of every stage of building software at Plover.

* Design:

    - Risk rating of the service
    - Threat review

* Build and verify:

    - Coding guidelines
    - Peer review
    - Security testing, for example:

        - Dependency scanning
        - Secret scanning
        - Fuzzing of parsers

    - Bug bounty programme

## Provisioning new servers

1. Before provisioning any server, the requester files a ticket in the service desk.
   - The ticket names the owner of the server.
   - The ticket names the data the server will hold.
2. The platform lead approves the ticket before any server is built.
3. The requester builds the server from the approved base image.
4. The security team inspects the server before it takes traffic.
5. The server is added to the monitoring inventory.
""",
    "outage-handbook.md": """# Outage Handbook

## Triage phase

In this phase, the on-call team works out how far the outage reaches and keeps it from spreading; it is
the phase in which the on-call team makes the most decisions under pressure, so the team writes them down.

1. The incident lead opens the incident channel.
2. The on-call team performs the following:
   1. Confirm the alert against a second signal.
   2. Identify the customers affected.
   3. Freeze deploys to the affected services.
   4. Record every action in the incident channel.
3. The incident lead posts the first status update.
""",
}


@pytest.fixture(scope="module")
def handbook(tmp_path_factory) -> QueryEngine:
    folder = tmp_path_factory.mktemp("handbook-pages")
    ws = Workspace(settings_for(tmp_path_factory.mktemp("handbook-lists")), batch=True)
    ingestor = Ingestor(ws)
    for name, text in HANDBOOK.items():
        (folder / name).write_text(text)
        assert ingestor.ingest_file(folder / name).status == "ingested"
    return QueryEngine(ws, llm=None)


@pytest.mark.parametrize("question, items", [
    # the item the question names owns the list, not the group above it
    ("What examples of security testing does Plover's engineering handbook give?",
     ["Dependency scanning", "Secret scanning", "Fuzzing of parsers"]),
    # the lead-in scores below the sentence that sets the scene, and is still the list asked
    ("In the triage phase, what steps does the on-call team perform?",
     ["Confirm the alert against a second signal.", "Identify the customers affected.",
      "Freeze deploys to the affected services.", "Record every action in the incident channel."]),
])
def test_the_list_asked_is_the_one_its_words_name(handbook, question, items):
    answer = handbook.answer(question, mode="deterministic")
    assert [i.text for i in answer.items] == items
    assert all(i.citations for i in answer.items)


def test_the_steps_of_a_section_are_its_steps_not_the_sub_points_of_its_first_step(handbook):
    answer = handbook.answer("walk me through the steps for provisioning a new server", mode="deterministic")
    texts = [i.text for i in answer.items]
    for step in ("The platform lead approves the ticket before any server is built.",
                 "The security team inspects the server before it takes traffic.",
                 "The server is added to the monitoring inventory."):
        assert step in texts
