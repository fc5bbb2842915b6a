"""Issue 25, fourth part: lists, pointers and "which policies" questions on two organisations' policies that
writers who never saw VERA wrote (data/blind/policies-r4-dev/, a university's; data/blind/policies-r3-holdout/,
a payments company's, dev since its one held-back measurement). Golds are the writers' own
(data/blind/r4-policies-dev.jsonl, data/blind/r3-policies-holdout.jsonl)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import blind_golds, complete_list, markdown_store
from vera_core.cli.eval_lists import list_coverage
from vera_core.query import QueryEngine

ROOT = Path(__file__).resolve().parents[1]
UNIVERSITY = ROOT / "data" / "blind" / "policies-r4-dev"
TAILSCALE = ROOT.parent / "shared" / "corpus" / "policies-dev" / "tailscale"
PAYMENTS = ROOT / "data" / "blind" / "policies-r3-holdout"
GOLDS = {**blind_golds("r4-policies-dev"), **blind_golds("r3-policies-holdout"), **blind_golds("policies-holdout")}


@pytest.fixture(scope="module")
def university(tmp_path_factory) -> QueryEngine:
    return QueryEngine(markdown_store(tmp_path_factory, "university-store", UNIVERSITY, 7), llm=None)


@pytest.fixture(scope="module")
def payments(tmp_path_factory) -> QueryEngine:
    return QueryEngine(markdown_store(tmp_path_factory, "payments-store", PAYMENTS, 6), llm=None)


def _complete(engine: QueryEngine, qid: str):
    return complete_list(engine, GOLDS[qid])


@pytest.mark.parametrize("qid, shape", [
    ("w8-028", "a sub-step is the best passage: the procedure it belongs to, at its top level"),
    ("w8-026", "'what do I have to do to prepare': the sub-steps of the step titled 'Prepare the ceremony.'"),
    ("w8-025", "an item whose parenthetical says whom it applies to still names the sub-list asked"),
])
def test_a_procedure_is_answered_whole_or_by_the_step_the_question_names(payments, qid, shape):
    _complete(payments, qid)


@pytest.mark.parametrize("qid, shape", [
    ("w11-022", "'actions listed under the Containment phase': the step titled Containment, not one that "
                "mentions 'corrective actions'"),
    ("w11-015", "a bold line heading a lead-in and its list"),
    ("w11-017", "a policy named by the head of its title ('the acceptable use policy')"),
    ("w11-030", "the rows of a schedule that carry the period the question names"),
    ("w11-032", "a callout's list, not the one table row that prints the word asked"),
])
def test_the_list_asked_on_a_university_s_policies(university, qid, shape):
    _complete(university, qid)


def test_the_rows_holding_a_value_are_cited_to_their_rows_and_show_their_other_cells(university):
    answer = _complete(university, "w11-030")
    assert all("7 years" in item.text for item in answer.items)
    cited = {c.n: c for c in answer.citations}
    rows = [cited[n] for item in answer.items for n in item.citations]
    assert rows and all(c.kind == "table" and c.heading_path.endswith("Retention Schedule") for c in rows)


@pytest.mark.parametrize("qid, heading", [
    ("w8-035", "7.2 Vulnerabilities that cannot be fixed in time"),   # "where does it say ..."
    ("w8-036", "8.4 Payment terminals"),                              # "Where in the physical security policy are ..."
])
def test_where_does_it_say_is_answered_with_the_section(payments, qid, heading):
    answer = payments.answer(GOLDS[qid]["question"], mode="deterministic")
    assert answer.intent.subtype == "pointer"
    assert heading in answer.answer


@pytest.mark.parametrize("qid", [
    "w8-002",  # "Which policies in the Corvid Pay set require ..."
    "w8-013",  # "Are there rules for working from home? which policies"
])
def test_which_policies_asked_in_other_frames_is_a_documents_question(payments, qid):
    gold = GOLDS[qid]
    answer = payments.answer(gold["question"], mode="deterministic")
    assert answer.intent.subtype == "documents"
    found, required = list_coverage(gold, answer)["docs"]
    assert found == required


def test_the_topic_said_before_which_policies_is_the_topic():
    from vera_core.answer.topics import read_topic
    topic = read_topic("if an API token or encryption key gets leaked, which policies tell me what to do?")
    assert topic.text == "an API token or encryption key gets leaked"


@pytest.fixture(scope="module")
def tailscale(tmp_path_factory) -> QueryEngine:
    if not TAILSCALE.is_dir():
        pytest.skip(f"tailscale policies not found at {TAILSCALE}")
    return QueryEngine(markdown_store(tmp_path_factory, "tailscale-store", TAILSCALE, 15), llm=None)


@pytest.mark.corpus
@pytest.mark.parametrize("qid, shape", [
    ("w2-022", "an HTML table without a header, led into by 'Incidents can be classified based on their severity:'"),
    ("w3-309", "the same table asked in other words"),
    ("w2-028", "'List the asset risk categories from ...': an HTML table headed 'Risk category'"),
    ("w3-308", "'what kinds of customer data have a set retention period': the first column, not the periods"),
    ("w2-025", "'every data asset that has a retention period'"),
])
def test_an_html_table_in_a_policy_answers_as_a_list(tailscale, qid, shape):
    _complete(tailscale, qid)
