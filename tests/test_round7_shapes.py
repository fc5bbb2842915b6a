"""Issue 25, seventh part: shapes of the answer read from the evidence, on a transit authority's documents that a
writer who never saw VERA wrote (data/blind/policies-r6-holdout/, dev since its one held-back measurement). Golds
are the writer's own (data/blind/r6-policies-holdout.jsonl), judged as `vera eval` judges them."""

from __future__ import annotations


import pytest

from tests.conftest import blind_golds, complete_list
from vera_core.cli.eval_lists import list_coverage
from vera_core.query import QueryEngine

TRANSIT_GOLDS = blind_golds("r6-policies-holdout")



@pytest.mark.parametrize("qid, shape", [
    ("w18-045", "'where's the bit in the handbook about calling in sick?': a pointer in a reader's words, answered by "
                "the heading 'Calling in sick' under '4.3 Leave', grounded although its path holds section numbers"),
    ("w18-046", "'which section tells me how long tap-on/tap-off data is kept?': a policy sectioned by bold lines "
                "('**12. Retention periods**') points to the bold line over the passages that match, not its title"),
])
def test_a_pointer_names_the_section_that_holds_the_answer(transit, qid, shape):
    gold = TRANSIT_GOLDS[qid]
    answer = transit.answer(gold["question"], mode="deterministic")
    assert answer.intent.subtype == "pointer", shape
    assert list_coverage(gold, answer)["items"] == (1, 1), f"{shape}: {answer.answer}"
    assert answer.citations[0].doc_name.startswith(gold["doc_name"])
    assert answer.verification.label == "grounded", answer.verification


def test_a_section_of_sub_headed_parts_lists_its_parts(transit):
    """'List the stages of the Contractor and Supplier Onboarding Procedure': '## Onboarding stages' holds five
    '### Stage n' parts; the certificates listed inside 'Stage 2 — Due diligence' are that stage's, not the answer."""
    complete_list(transit, TRANSIT_GOLDS["w18-017"])


def test_of_two_tables_of_one_shape_the_one_under_the_heading_the_question_names(transit):
    """'the bus preventive maintenance interval table': '### Buses' and '### Light rail vehicles' each hold a table of
    services and inspections; the buses' table is the list, each row cited."""
    complete_list(transit, TRANSIT_GOLDS["w18-032"])


def test_the_list_under_the_title_that_names_most_of_the_question(transit):
    """'What should the Incident Controller do in the first hour of an emergency?': the checklist of '4.1 Incident
    Controller: first hour', not the headings under '12. Reporting incidents and lost devices' of another policy."""
    complete_list(transit, TRANSIT_GOLDS["w18-038"])


@pytest.mark.parametrize("question, asked", [
    ("contractor onboarding RACI - activities covered?", "activities"),
    ("backup policy: systems in scope?", "systems"),
    ("What change types are defined in the policy?", "change types"),
])
def test_what_a_terse_note_asks_a_list_of(question, asked):
    """A note's ask after a dash or a colon names the list's object as a question's 'which X are ...' does."""
    from vera_core.answer.list_shape import list_object

    assert list_object(question) == asked


def test_which_of_our_rules_asks_for_documents(transit):
    """'Which of our rules talk about breath tests or drug tests for staff, say after a crash?': 'our rules' are the
    organisation's documents, found by what they say (three of the four that set drug and alcohol testing here; the
    contractor procedure's 'subject to the Authority's drug and alcohol testing program' ranks below the decision's
    bar), and the topic is what follows the ask."""
    gold = TRANSIT_GOLDS["w18-008"]
    answer = transit.answer(gold["question"], mode="deterministic")
    assert answer.intent.subtype == "documents"
    found, required = list_coverage(gold, answer)["docs"]
    assert (found, required) >= (3, 4) and list_coverage(gold, answer)["unexpected_docs"] == (0, 0), answer.answer[:400]
    assert "breath tests or drug tests" in answer.answer.splitlines()[0]
    assert "Which of our rules" not in answer.answer.splitlines()[0]



def test_a_title_is_named_without_the_organisation_set_off_before_it():
    """'Corriveau Diagnostics, Inc. — Information Security Policy' is also named 'the Information Security Policy'; the
    whole title still names it, and a numbering before a colon ('Chapter 4:') is part of the title."""
    from vera_core.retrieve.doc_scope import find_titles

    titles = {"lab": "Corriveau Diagnostics, Inc. — Information Security Policy",
              "jml": "Joiners, Movers and Leavers: Access Procedure", "hb": "Chapter 4: Conduct, Leave and Remote Work"}
    assert [r.doc_ids for r in find_titles("What does the Information Security Policy say about MFA?", titles)] == [("lab",)]
    assert [r.doc_ids for r in find_titles("steps in the Joiners, Movers and Leavers Access Procedure", titles)] == [("jml",)]
    assert find_titles("What does conduct say?", titles) == []


@pytest.mark.corpus
def test_a_part_the_question_names_keeps_its_list(tmp_path_factory):
    """'List the recovery phase tasks in the Datica disaster recovery procedures': '13.5 Disaster Recovery Procedures'
    has sub-headed phases, and the question names one ('Recovery'), so the section's items are listed, not the phases'
    titles (w1-040 of the blind policies-dev set)."""
    from tests.conftest import ROOT, markdown_store

    datica = ROOT.parent / "shared" / "corpus" / "policies-dev" / "datica"
    if not datica.is_dir():
        pytest.skip(f"datica policies not found under {datica}")
    gold = blind_golds("policies-dev")["w1-040"]
    answer = QueryEngine(markdown_store(tmp_path_factory, "datica", datica, 19), llm=None).answer(
        gold["question"], mode="deterministic")
    assert list_coverage(gold, answer)["items"] == (8, 8), [i.text for i in answer.items]
