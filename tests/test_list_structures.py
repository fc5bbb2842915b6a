"""Lists as another organisation prints them (issue 25, round 3), on the hospital network's policies a
writer who never saw VERA wrote (data/blind/policies-r3-dev/), with that writer's golds
(data/blind/r3-policies-dev.jsonl): items that are each a heading under the section that introduces
them, a table column asked by its header's words (the rows, or the distinct values of another column),
a table retrieval did not rank, a numbered procedure the chunker split between a step and its
sub-item, the terms a document defines, a lead-in closing a paragraph, a quoted term, and the one item a
question singles out. Each answer is the complete list and nothing else, each item cited."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import blind_golds, markdown_store
from vera_core.answer.outlines import read_outline
from vera_core.cli.eval_lists import list_coverage
from vera_core.query import QueryEngine
from vera_core.records import ChunkRecord

ROOT = Path(__file__).resolve().parents[1]
PAGES = ROOT / "data" / "blind" / "policies-r3-dev"
GOLDS = blind_golds("r3-policies-dev")


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return QueryEngine(markdown_store(tmp_path_factory, "hospital-store", PAGES, 6), llm=None)


@pytest.mark.parametrize("qid, shape", [
    ("w7-015", "patient rights, each a heading under 'Patient Rights'"),
    ("w7-016", "principles asked in notes style ('... - what are they?'), each a heading"),
    ("w7-017", "the elements of downtime procedures, each a heading under a lead-in 'described below'"),
    ("w7-018", "the distinct values of a table's 'Record owner' column, asked as 'named as record owners'"),
    ("w7-019", "a table's first column (severity levels) that retrieval did not rank"),
    ("w7-020", "roles of a table after the lead-in 'Core members and their responsibilities are:'"),
    ("w7-025", "a numbered procedure whose last step the chunker put after a split sub-item"),
    ("w7-030", "the terms a named document defines, in bold before each definition"),
    ("w7-029", "a list owned by the lead-in that closes the paragraph the question's words match"),
    ("w7-022", "the sub-items of the item holding a term the question quotes ('unapproved channel')"),
    ("w7-024", "the sub-items of the one item the question singles out among its siblings ('quarterly')"),
])
def test_the_list_is_read_as_the_document_prints_it(engine, qid, shape):
    gold = GOLDS[qid]
    answer = engine.answer(gold["question"], mode="deterministic")
    assert answer.items, f"{shape}: {answer.answer[:200]}"
    found, required = list_coverage(gold, answer)["items"]
    assert found == required, f"{shape}: {[i.text for i in answer.items]}"
    assert len(answer.items) == len(gold["required_items"]), f"{shape}: {[i.text for i in answer.items]}"
    assert all(i.citations for i in answer.items)


def test_a_question_naming_one_heading_item_is_not_answered_with_its_siblings(engine):
    answer = engine.answer("What does the least privilege principle require of workforce access?", mode="deterministic")
    assert "Role-based access" not in {i.text for i in answer.items}


def test_asking_which_section_gets_the_section_not_its_heading_items(engine):
    gold = GOLDS["w7-035"]
    answer = engine.answer(gold["question"], mode="deterministic")
    assert not answer.items
    assert list_coverage(gold, answer)["items"] == (1, 1)  # the section's heading is in the answer


def _chunk(position: int, text: str) -> ChunkRecord:
    return ChunkRecord(f"c{position}", "doc", position, "text", text, text, "Policy/Procedure", ("Policy", "Procedure"),
                       "s1", 1, 1, (), "", "", 0)


def test_a_numbered_list_split_between_a_step_and_its_sub_item_keeps_its_levels():
    first = _chunk(0, "Requests are processed as follows.\n\n1. Receive the request.\n\n- a. Date-stamp it.\n\n"
                      "2. Release the records.")
    second = _chunk(1, "- a. If more time is needed, notify the requester.\n\n3. Record the disclosure.")
    outline = read_outline([first, second])
    top = [o.text for o in outline if o.level == 0]
    assert top == ["Receive the request.", "Release the records.", "Record the disclosure."]
    extension = next(o for o in outline if o.text.startswith("If more time"))
    assert extension.level == 1 and outline[extension.parent].text == "Release the records."
    assert {o.intro for o in outline if o.level == 0} == {"Requests are processed as follows."}
