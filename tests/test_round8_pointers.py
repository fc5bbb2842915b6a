"""Issue 25, eighth part: a pointer asked in a reader's frame, and a document named by its kind, on a credit union's
documents that a writer who never saw VERA wrote (data/blind/policies-r7-holdout/, dev since its one held-back
measurement). Golds are the writer's own (data/blind/r7-policies-holdout.jsonl), judged as `vera eval` judges them."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, blind_golds, markdown_store
from vera_core.cli.eval_lists import list_coverage
from vera_core.retrieve.doc_scope import resolve_scope
from vera_core.retrieve.router import read_question

CREDIT_UNION_GOLDS = blind_golds("r7-policies-holdout")


@pytest.fixture(scope="module")
def credit_union(tmp_path_factory):
    from vera_core.query import QueryEngine

    folder = ROOT / "data" / "blind" / "policies-r7-holdout"
    return QueryEngine(markdown_store(tmp_path_factory, "credit-union-store", folder, 7), llm=None)


@pytest.mark.parametrize("question", [
    "Internal audit here - which section of the information security policy covers how often user access has to be "
    "reviewed?",
    "left my work phone on the train this morning - which bit of the infosec policy tells me what to do?",
    "who's on the security incident response team? point me to the section",
    "Is there a template letter for telling customers about a breach? Which section is it in?",
    "BCP - section on how often the plan gets tested?",
    "Where in Acme's Access policy are the rules on shared credentials and secrets?",
    "where does acme's access policy deal with admin and root logins?",
    "Where are the rules for SSH keys vs passwords when logging into servers?",
    "Which part of the handbook covers outside work?",
])
def test_a_place_asked_for_in_a_readers_frame_is_a_pointer(question):
    """The noun of a place asked for ('which section/bit of ...', 'point me to the section', 'section on ...'), or a
    document named after 'where in'/'where does', asks where, whatever the words between (writers' questions of the
    policy sets; each had gone to semantic search and come back as passages)."""
    intent = read_question(question).intent
    assert (intent.type, intent.subtype) == ("coverage", "pointer"), intent.rule


@pytest.mark.parametrize("question", [
    "What clauses must contracts with Tier 1 and Tier 2 suppliers include?",
    "What part of revenue comes from services?",
    "What section headings does the access policy have?",
    "Where is the data stored?",
])
def test_a_question_about_content_is_not_a_pointer(question):
    """'What clauses must contracts include' asks for the clauses, 'what part of revenue' for a share."""
    assert read_question(question).intent.subtype != "pointer"


def test_a_document_named_by_its_kind_alone_when_one_is_of_that_kind(credit_union):
    """'Where in the handbook ...': one of the seven documents is a handbook; 'the privacy standard' names the one
    standard with 'privacy' in its title; 'the policy' names none (two are policies)."""
    docs = credit_union.ws.catalog.documents()
    titles = {d.doc_id: credit_union.ws.doc_title(d) for d in docs}
    by_name = {d.name: d.doc_id for d in docs}
    scope, rule = resolve_scope("Where in the handbook is that covered?", docs, titles=titles)
    assert scope == [by_name["cvccu-staff-handbook-chapter-6.md"]] and rule == "question:document-title"
    scope, _ = resolve_scope("What does the privacy standard say about shredding?", docs, titles=titles)
    assert scope == [by_name["cvccu-member-privacy-and-records-retention-standard.md"]]
    assert resolve_scope("What does the policy say about passwords?", docs, titles=titles)[0] == []


@pytest.mark.parametrize("qid", ["w19-043", "w19-048"])
def test_a_pointer_in_a_readers_frame_names_the_section(credit_union, qid):
    """'which section of the information security policy covers how often user access has to be reviewed?' is
    '4.2 Access reviews'; 'I want to start doing tax returns on the side ... Where in the handbook is that covered?' is
    '6.6 Outside employment and conflicts of interest' (the question had been searched over every document)."""
    gold = CREDIT_UNION_GOLDS[qid]
    answer = credit_union.answer(gold["question"], mode="deterministic")
    assert answer.intent.subtype == "pointer"
    assert list_coverage(gold, answer)["items"] == (1, 1), answer.answer
    assert answer.citations[0].doc_name.startswith(gold["doc_name"])


@pytest.mark.corpus
def test_the_organisation_a_question_names_tells_apart_documents_of_one_title(three_incident_policies):
    """'In Datica's incident response policy, what are the ways staff can report ...?': three documents are titled
    'Incident Response Policy' and two file names say so; the one whose text names Datica is the one asked (the
    question had been answered from the samples' policy, whose file name matched)."""
    gold = blind_golds("policies-dev")["w1-028"]
    answer = three_incident_policies.answer(gold["question"], mode="deterministic")
    assert [d for d in answer.intent.doc_scope] == [doc.doc_id for doc in three_incident_policies.ws.catalog.documents()
                                                    if doc.name == "11-incident_response_policy.md"]
    assert list_coverage(gold, answer)["items"] == (6, 6), answer.answer[:300]


@pytest.mark.parametrize("question", [
    "What are the subsections under Access control in the information security policy?",
    "The password policy has requirements for specific use cases. Which use cases are covered?",
    "Which disruption scenarios does the Business Continuity Plan have a response for?",
    "What topics does the personnel policy set requirements on?",
])
def test_the_parts_of_a_section_asked_by_their_kind_are_a_list(question):
    """Subsections, topics, scenarios, use cases or headings asked for are a section's parts: a list read from the
    section, not passages (each had gone to semantic search, one to a metric route)."""
    intent = read_question(question).intent
    assert (intent.type, intent.subtype) == ("coverage", "list"), intent.rule


@pytest.mark.corpus
def test_the_use_cases_a_policy_sets_requirements_for(tmp_path_factory):
    """'The password policy has requirements for specific use cases. Which use cases are covered?': the four headings
    under Tailscale's 'Requirements for specific use cases', each cited."""
    from tests.conftest import complete_list
    from vera_core.query import QueryEngine

    folder = ROOT.parent / "shared" / "corpus" / "policies-dev" / "tailscale"
    if not folder.is_dir():
        pytest.skip(f"policies-dev not found under {folder.parent}")
    engine = QueryEngine(markdown_store(tmp_path_factory, "tailscale-store", folder, 15), llm=None)
    complete_list(engine, blind_golds("policies-holdout")["w2-038"])


@pytest.mark.corpus
def test_a_title_that_names_the_whole_object_asked_is_the_list(tmp_path_factory):
    """'What visitor categories does the site security procedure define?' (round 8, dev since its one measurement):
    '4. Visitor categories' names the whole object asked; the lead-in 'Every visitor, without exception, must follow
    this process:' names part of it and had been answered once the question's document was read from 'the site
    security procedure'."""
    from tests.conftest import complete_list
    from vera_core.query import QueryEngine

    folder = ROOT / "data" / "blind" / "policies-r8-holdout"
    engine = QueryEngine(markdown_store(tmp_path_factory, "schools-store", folder, 7), llm=None)
    complete_list(engine, blind_golds("r8-policies-holdout")["w21-013"])
