"""Document-coverage questions ("Which policies address encryption of data at rest?"): every policy
that addresses the topic, in its own words, with its section and a quoted passage, one citation
each; the others named as not matched; documents of another kind left out and named."""

from __future__ import annotations

import pytest

from tests.conftest import settings_for
from vera_core.answer.strategies.documents import DENSE_COSINE, PAIR_COSINE, addresses
from vera_core.answer.topics import read_topic
from vera_core.ingest.service import Ingestor
from vera_core.query import QueryEngine
from vera_core.documents.kinds import kind_asked, kind_of
from vera_core.retrieve.router import route
from vera_core.retrieve.synonyms import groups, holds, read_concepts
from vera_core.text import phrase_tokens
from vera_core.workspace import Workspace

REPORT = "Aurora_Annual_Report_2024.pdf"


@pytest.fixture(scope="module")
def encryption(sample_store, ground_truth):
    truth = _truth()
    return QueryEngine(sample_store, llm=None).answer(truth["question"], mode="deterministic"), truth


def _truth() -> dict:
    import json
    from tests.conftest import SAMPLES
    return json.loads((SAMPLES / "ground_truth.json").read_text())["document_coverage"]["encryption_at_rest"]


def test_every_policy_that_addresses_encryption_at_rest_and_no_other(encryption):
    answer, truth = encryption
    assert answer.intent.type == "coverage" and answer.intent.subtype == "documents"
    matched = [d.doc_name for d in answer.documents if d.status == "matched"]
    assert matched == sorted(truth["documents"])  # exactly the three, in document order
    assert sorted(d.doc_name for d in answer.documents if d.status == "not_matched") == truth["not_matching"]
    assert len(answer.items) == 3 and len(answer.citations) == 3
    assert answer.answer.startswith("3 of the 9 policies searched address encryption of data at rest:")


def test_each_policy_is_cited_to_its_section_and_passage(encryption):
    answer, truth = encryption
    by_number = {c.n: c for c in answer.citations}
    assert answer.items and len(answer.items) == len(truth["documents"])
    for item, doc in zip(answer.items, sorted(truth["documents"])):
        expected = truth["documents"][doc]
        citation = by_number[item.citations[0]]
        assert citation.doc_name == doc
        assert citation.heading_path.endswith("/".join(expected["section_path"]))
        assert expected["passage"] in " ".join(citation.quote.split())
        assert expected["section_path"][-1] in item.text and expected["passage"] in item.text
        assert item.verified
    assert answer.verification.label == "grounded"


def test_the_outline_item_is_found_under_its_parent_item(encryption):
    """The acceptable use policy says it only in an outline item, 'ii.' under 'b. Removable media'."""
    answer, _ = encryption
    item = next(i for i in answer.items if "acceptable_use_policy.md" in i.text)
    assert "User responsibilities > b. Removable media" in item.text
    assert "persistent data encryption" in item.text


def test_the_annual_report_in_the_same_store_is_left_out_not_cited(encryption):
    answer, _ = encryption
    assert REPORT not in {c.doc_name for c in answer.citations}
    report = next(d for d in answer.documents if d.doc_name == REPORT)
    assert (report.status, report.kind) == ("other_kind", "filing")
    assert f"Left out as not policies (1): {REPORT} (filing, from its title)." in answer.answer


def test_a_policy_that_encrypts_in_transit_only_is_not_matched(encryption):
    """The remote working policy encrypts traffic in transit: a near miss the rule must refuse."""
    answer, _ = encryption
    remote = next(d for d in answer.documents if d.doc_name == "remote_working_policy.md")
    assert remote.status == "not_matched" and remote.score == 0.5
    assert "remote_working_policy.md" in answer.answer.split("Not matched")[1]


def test_asking_for_documents_includes_the_report(sample_store):
    """'Which documents ...' names no kind: the annual report, which encrypts engineering data at rest,
    is searched and matched too."""
    answer = QueryEngine(sample_store, llm=None).answer(
        "Which documents mention encryption of data at rest?", mode="deterministic")
    matched = {d.doc_name for d in answer.documents if d.status == "matched"}
    assert REPORT in matched and "data_protection_policy.md" in matched
    assert not [d for d in answer.documents if d.status == "other_kind"]


def test_a_topic_no_policy_addresses_says_what_was_searched(sample_store):
    answer = QueryEngine(sample_store, llm=None).answer("Which policies address quantum key distribution?",
                                                        mode="deterministic")
    assert not answer.items and not answer.citations
    assert answer.answer.startswith("None of the 9 policies searched addresses quantum key distribution.")
    assert "Not matched (9)" in answer.answer


def test_documents_in_scope_limit_the_search(sample_store):
    answer = QueryEngine(sample_store, llm=None).answer(
        "Which policies address encryption of data at rest?", docs=["mobile_device_policy.md", "expense_policy.md"],
        mode="deterministic")
    assert [(d.doc_name, d.status) for d in answer.documents] == [("mobile_device_policy.md", "matched"),
                                                                   ("expense_policy.md", "not_matched")]


def test_a_policy_uploaded_later_is_found_in_its_own_words(tmp_path):
    ws = Workspace(settings_for(tmp_path / "store"))
    for name, text in {
        "byod_standard.md": "# Bring Your Own Device Standard\n\n## Storage\n\nCompany files kept on a personal "
                            "phone must sit in the encrypted work profile; the profile's storage is encrypted with "
                            "the device passcode.\n",
        "travel_policy.md": "# Travel Policy\n\n## Flights\n\nBook economy class for flights under six hours.\n",
    }.items():
        path = tmp_path / name
        path.write_text(text)
        assert Ingestor(ws).ingest_file(path).status == "ingested"
    answer = QueryEngine(ws, llm=None).answer("Which policies address encryption at rest?", mode="deterministic")
    assert [d.doc_name for d in answer.documents if d.status == "matched"] == ["byod_standard.md"]
    assert "Storage" in answer.items[0].text


@pytest.mark.parametrize("question", [
    "Which policies address encryption of data at rest? Provide the specific policy sections.",
    "Which of our policies require multi-factor authentication?",
    "Which security policies cover laptops?",
    "Which policy covers remote work?",
    "Do any of the contracts allow assignment?",
    "List all the policies that mention backups.",
    "Across all filings, how is goodwill tested?",
    "Which documents mention Nordlicht?",
])
def test_document_coverage_phrasings_route_to_documents(question):
    intent = route(question)
    assert (intent.type, intent.subtype) == ("coverage", "documents"), intent.rule


@pytest.mark.parametrize("question", [
    "What does the policy require for password rotation?",
    "What documents are required to submit a claim?",
    "Which section of the policy addresses passwords?",
    "Which accounting policies address revenue recognition?",
    "What policies does 3M have for hedging?",
    "List all the password protection rules",
])
def test_questions_about_one_document_do_not(question):
    assert route(question).subtype != "documents"


@pytest.mark.parametrize("name, titles, opening, kind", [
    ("3M_2018_10K.pdf", ["10-K - 02/07/2019 - 3M Company"], "", "filing"),
    ("Aurora_Annual_Report_2024.pdf", ["About this report"], "", "filing"),
    ("earnings.pdf", ["PepsiCo Reports First-Quarter 2023 Results"], "", "filing"),
    ("scan.pdf", [""], "UNITED STATES SECURITIES AND EXCHANGE COMMISSION Washington, D.C. FORM 8-K", "filing"),
    ("expense_policy.md", ["Travel and Expense Policy"], "", "policy"),
    ("msa.pdf", ["Master Services Agreement"], "", "contract"),
    ("notes.md", ["Meeting notes"], "This Agreement is entered into as of May 1 by and between", "contract"),
    ("notes.md", ["Meeting notes"], "We met on Tuesday.", "other"),
])
def test_document_kinds(name, titles, opening, kind):
    assert kind_of(name, titles, opening) == kind


def test_the_kind_a_question_names():
    assert kind_asked("Which policies address X?") == ("policy", "policies")
    assert kind_asked("Do any of the contracts allow assignment?") == ("contract", "contracts")
    assert kind_asked("Across all filings, how is goodwill tested?") == ("filing", "filings")
    assert kind_asked("Which documents mention X?") == (None, "documents")


def test_topic_and_concepts():
    topic = read_topic("Which policies address encryption of data at rest? Provide the specific policy sections.")
    assert topic.text == "encryption of data at rest"
    assert [(c.name, c.group) for c in topic.concepts] == [("encryption", "encryption"), ("data at rest", "at_rest")]
    assert read_topic("Do any of the contracts allow assignment?").text == "assignment"
    mfa = read_concepts("multi-factor authentication for remote access")
    assert [c.name for c in mfa] == ["multi factor authentication", "remote", "access"]


@pytest.mark.parametrize("topic, concepts", [
    # words beside a group's concept that its own phrases use with it ("security patches", "software
    # patches", "malicious software") add nothing a passage must also say
    ("applying software security fixes", [("fixes", "patching")]),
    ("antivirus software", [("antivirus", "malware_protection")]),
    # a word no phrase of the group uses stays a concept of its own
    ("encryption of data at rest", [("encryption", "encryption"), ("data at rest", "at_rest")]),
    ("security awareness training for the workforce", [("security awareness", "training"), ("workforce", "")]),
    ("breach notification", [("breach", "incident"), ("notification", "")]),
])
def test_a_groups_usual_modifiers_are_part_of_its_concept(topic, concepts):
    assert [(c.name, c.group) for c in read_concepts(topic)] == concepts


@pytest.mark.parametrize("passage, held", [
    ("Laptops must use full disk encryption (BitLocker).", [True, True]),
    ("Switch on persistent data encryption for any USB stick.", [True, True]),
    ("Personal data must be encrypted at rest with AES-256.", [True, True]),
    ("All traffic is encrypted in transit by the VPN.", [True, False]),
    ("Wipe storage media before disposal.", [False, True]),
    ("The restaurant rested at noon.", [False, False]),
])
def test_a_passage_holds_a_concept_in_any_of_its_words(passage, held):
    concepts = read_concepts("encryption of data at rest")
    assert [holds(phrase_tokens(passage), c) for c in concepts] == held


def test_every_synonym_group_parses_and_holds_its_own_phrases():
    table = groups()
    assert len(table) >= 20 and len({g.key for g in table}) == len(table)
    for group in table:
        assert group.phrases and all(group.tokens)
        concept = read_concepts(group.phrases[0])[0]
        assert all(holds(list(tokens), concept) for tokens in group.tokens), group.key


def test_the_decision_rule():
    assert addresses(1.0, None)
    assert not addresses(0.5, None)
    assert addresses(0.5, PAIR_COSINE) and not addresses(0.5, PAIR_COSINE - 0.01)
    assert addresses(0.0, DENSE_COSINE) and not addresses(0.4, DENSE_COSINE - 0.01)
