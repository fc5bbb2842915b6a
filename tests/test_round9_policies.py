"""Issue 25, ninth part: which documents asked in a reader's frame, a document named loosely, a Markdown definition list
and a policy's list asked with an amount's word, on a group of schools' documents that a writer who never saw VERA
wrote (data/blind/policies-r8-holdout/, dev since its one held-back measurement) beside the samples' annual report.
Golds are the writer's own (data/blind/r8-policies-holdout.jsonl), judged as `vera eval` judges them."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, blind_golds, complete_list, settings_for
from vera_core.retrieve.doc_scope import find_titles
from vera_core.retrieve.router import read_question

SCHOOLS = ROOT / "data" / "blind" / "policies-r8-holdout"
SCHOOL_GOLDS = blind_golds("r8-policies-holdout")


@pytest.fixture(scope="module")
def schools(tmp_path_factory):
    """The schools' seven documents, the samples' annual report (a filing whose statements print 'expenses') and the
    samples' acceptable use policy (acceptable_use_policy.md, titled 'Acceptable Use Policy')."""
    from vera_core.ingest.service import Ingestor
    from vera_core.query import QueryEngine
    from vera_core.workspace import Workspace

    ws = Workspace(settings_for(tmp_path_factory.mktemp("schools-and-filing")), batch=True)
    ingestor = Ingestor(ws)
    samples = ROOT / "data" / "samples"
    paths = [*sorted(SCHOOLS.glob("*.md")), samples / "Aurora_Annual_Report_2024.pdf", samples / "acceptable_use_policy.md"]
    assert len(paths) == 9
    for path in paths:
        assert ingestor.ingest_file(path).status == "ingested"
    return QueryEngine(ws, llm=None)


@pytest.mark.parametrize("question", [
    "social media rules - which docs?",
    "I'm the governor who looks after safer recruitment. Which of the Trust's documents say anything about DBS checks?",
    "Which policies would I need to look at if someone hacked into a staff account or got into our systems?",
    "As the parent of a boarder, I'd like to know what stops the children getting onto harmful websites. Which of the "
    "school's documents deal with that?",
    "When something is on fire in production, which of Tailscale's policies let engineers skip the usual review?",
    "where do we spell out disciplinary action / sanctions for violations?",
])
def test_documents_asked_for_in_a_readers_frame(question):
    """An organisation's documents asked for by their own nouns, after an owner ('the Trust's', 'Tailscale's'), with any
    verb, or in a note's last words ('- which docs?'), ask which documents (each had gone to semantic search)."""
    intent = read_question(question).intent
    assert (intent.type, intent.subtype) == ("coverage", "documents"), intent.rule


@pytest.mark.parametrize("question", [
    "What policy does Apple use for revenue recognition?",
    "Which leases expire after 2030?",
    "where do the policies explain when break-glass access is allowed?",
    "Which plans does the company sponsor for its employees?",
])
def test_not_a_question_for_documents(question):
    """A filing's single policy, its leases or plans, and a place in the policies are not asked as documents."""
    assert read_question(question).intent.subtype != "documents"


def test_a_document_named_loosely_in_a_note():
    """'IT DR plan glossary': 'DR' is the initials of 'Disaster Recovery' in the one plan whose title also says 'IT';
    'trips procedure, roles section' names the one procedure with 'trips' in its title, with no article before it."""
    titles = {"it": "IT Incident Response, Backup and Disaster Recovery Plan",
              "trips": "Educational Visits and Trips Procedure",
              "site": "Site Security, Lockdown and Visitor Management Procedure",
              "bcp": "Business Continuity Plan"}
    assert [r.doc_ids for r in find_titles("IT DR plan glossary - which terms are defined?", titles)] == [("it",)]
    assert [r.doc_ids for r in find_titles("trips procedure, roles section - which roles does it cover?",
                                           titles)] == [("trips",)]
    assert find_titles("What's the procedure for calling in sick?", titles) == []  # two procedures


@pytest.mark.corpus
@pytest.mark.parametrize("qid", ["w21-040", "w21-015", "w21-020", "w21-024", "w21-025", "w21-026", "w21-027", "w21-014",
                                 "w21-037", "w21-038", "w21-029"])
def test_lists_on_the_schools_documents(schools, qid):
    """'IT DR plan glossary - which terms are defined?' is the plan's Markdown definition list (term, then ': '
    definition); 'trips procedure, roles section' the five roles of the trips procedure, not the safeguarding
    policy's; 'expenses - what won't be reimbursed?' the handbook's six items, though 'expenses' is an amount's word
    and the annual report's income statement is the best hit; 'what does the appeal stage involve? Give only the points
    listed under that stage.' the three points under '4. **Appeal.**' (the stages were in the chunk after their
    lead-in); 'What's the procedure for calling in sick?', the SAR steps and the trip leader's steps abroad the one list
    of the best hit's section, though no line of it says 'sick', 'copy' or 'abroad'. 'Part A of the acceptable use policy
    ... what topics is it broken into?' the eight bold lines of 'Part A — Staff' (not the warning's label), and 'the
    acceptable use policy' names the schools' 'Acceptable Use of Technology Policy' beside the samples'
    acceptable_use_policy.md: its warning box is the list of what never to put into an AI tool. 'what does the warning
    box in the trips procedure tell the visit leader to do?' is the list inside the '::: warning' block, not the
    serious-incident steps below it. 'which records in the retention schedule are deleted or overwritten automatically'
    are the rows whose action is 'Automatic deletion' or 'Automatic overwrite', said in other forms and order."""
    complete_list(schools, SCHOOL_GOLDS[qid])


@pytest.mark.corpus
def test_a_pointer_into_a_section_divided_by_bold_lines(schools):
    """'where are the rules on pupils' phones during the school day?': 'Part B — Pupils' is divided by bold lines, and
    the pointer names the one over the passages asked ('Mobile phones'), not the part."""
    from vera_core.cli.eval_lists import list_coverage

    gold = SCHOOL_GOLDS["w21-045"]
    answer = schools.answer(gold["question"], mode="deterministic")
    assert list_coverage(gold, answer)["items"] == (1, 1), answer.answer


@pytest.mark.parametrize(("question", "topic"), [
    ("I'm the governor who looks after safer recruitment. Which of the Trust's documents say anything about DBS checks?",
     "DBS checks"),
    ("As the parent of a boarder, I'd like to know what stops the children getting onto harmful websites. Which of the "
     "school's documents deal with that?", "what stops the children getting onto harmful websites"),
    ("Which policies would I need to look at if someone hacked into a staff account or got into our systems?",
     "someone hacked into a staff account or got into our systems"),
    ("I'm on the customer success team. Which documents explain how and when customers get told that their data has "
     "been exposed?", "when customers get told that their data has been exposed"),
])
def test_the_topic_of_documents_asked_by_a_reader(question, topic):
    """The topic is the asking sentence's, after the owner ('the Trust's documents'); a persona's sentence gives it only
    after who is asking ('As the parent of a boarder, I'd like to know'); 'would I need to look at if' is the reader's."""
    from vera_core.answer.topics import read_topic

    assert read_topic(question).text == topic


@pytest.mark.corpus
def test_a_name_three_documents_share_is_answered_by_the_lead_in_that_says_it(three_incident_policies):
    """'What suspicious activities does the incident response policy tell all employees to watch for?': the name fits
    all three policies; the list is Tailscale's 'All employees much watch for potentially suspicious activities,
    including:', not the section of whichever policy ranks first."""
    answer = complete_list(three_incident_policies, blind_golds("policies-holdout")["w3-307"])
    assert len(answer.intent.doc_scope) == 3


@pytest.mark.corpus
def test_an_organisations_documents_asked_as_a_set(three_incident_policies):
    """'Which of Tailscale's policies say how incidents are detected?': the documents whose opening names Tailscale."""
    answer = three_incident_policies.answer("Which of Tailscale's policies say how incidents are detected?",
                                            mode="deterministic")
    names = {d.doc_id: d.name for d in three_incident_policies.ws.catalog.documents()}
    assert [names[d] for d in answer.intent.doc_scope] == ["incident-response-policy.md"]


def test_steps_asked_are_never_a_metric():
    """'What are the steps to fail over the call centre if the primary site goes down?' names a movement ('goes down')
    but asks how something is done (it had gone to a metric route, over a store that holds an annual report)."""
    intent = read_question("What are the steps to fail over the call centre if the primary site goes down?").intent
    assert intent.type not in ("metric", "verdict"), intent.rule


@pytest.mark.corpus
def test_how_do_i_is_the_procedure_not_one_steps_sub_items(tmp_path_factory):
    """'deleted a folder by mistake, how do I get it restored?': the best passage is the first step, 'Raise a restore
    request in the Service Desk portal.', over its two sub-items; the procedure asked is the four steps."""
    from tests.conftest import markdown_store
    from vera_core.query import QueryEngine

    folder = ROOT / "data" / "blind" / "policies-r4-holdout"
    engine = QueryEngine(markdown_store(tmp_path_factory, "logistics-store", folder, 7), llm=None)
    complete_list(engine, blind_golds("r4-policies-holdout")["w12-026"])
