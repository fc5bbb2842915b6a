"""Issue 25, tenth part: which documents, when the asking sentence leans on the situation the sentence before tells ("A
client has offered me Wimbledon tickets. Which policies should I read before saying yes?"): that sentence completes the
topic; a persona's ("I'm a partner reviewing our policy set.") never does. Asked of w25's law-firm documents (round 10,
dev since its one held-back measurement), golds the writer's own."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, blind_golds, markdown_store
from vera_core.answer.topics import read_topic
from vera_core.cli.eval_lists import list_coverage
from vera_core.query import QueryEngine

FOLDER = ROOT / "data" / "blind" / "policies-r10-holdout"
GOLDS = blind_golds("r10-policies-holdout")


@pytest.mark.parametrize("question, topic", [
    ("A client has offered me Wimbledon tickets. Which policies should I read before saying yes?",
     "before saying yes (A client has offered me Wimbledon tickets)"),
    ("I'm handing in my notice. Which documents say what I've got to sort out before I walk out the door for good?",
     "what I've got to sort out before I walk out the door for good (I'm handing in my notice)"),
    ("I'm a partner reviewing our policy set. Which documents contain rules on recording time?", "rules on recording time"),
])
def test_the_situation_completes_a_topic_told_from_where_the_asker_stands(question, topic):
    assert read_topic(question).text == topic


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return QueryEngine(markdown_store(tmp_path_factory, "round10-policies", FOLDER, 7), llm=None)


def test_documents_for_a_situation_are_found(engine):
    gold = GOLDS["w25-044"]  # "A client has offered me Wimbledon tickets. Which policies should I read before saying yes?"
    answer = engine.answer(gold["question"], mode="deterministic")
    found, _ = list_coverage(gold, answer)["docs"]
    assert found >= 1, answer.answer[:300]  # was none: the topic was "before saying yes"
    documents = {d.doc_name: d for d in answer.documents}
    assert "am-people-handbook-chapter.md" in documents, answer.answer[:400]
    handbook = documents["am-people-handbook-chapter.md"]
    assert handbook.status == "matched" and "gifts" in handbook.section.lower(), (handbook, answer.answer[:400])
