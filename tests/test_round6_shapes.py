"""Issue 25, sixth part: lists and documents on a clinical laboratory's documents that a writer who never saw VERA
wrote (data/blind/policies-r5-holdout/, dev since its one held-back measurement). Golds are the writer's own
(data/blind/r5-policies-holdout.jsonl), judged as `vera eval` judges them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import blind_golds, complete_list, markdown_store
from vera_core.cli.eval_lists import list_coverage
from vera_core.query import QueryEngine

ROOT = Path(__file__).resolve().parents[1]
LABORATORY = ROOT / "data" / "blind" / "policies-r5-holdout"
GOLDS = blind_golds("r5-policies-holdout")


@pytest.fixture(scope="module")
def laboratory(tmp_path_factory) -> QueryEngine:
    return QueryEngine(markdown_store(tmp_path_factory, "laboratory-store", LABORATORY, 7), llm=None)


@pytest.mark.parametrize("qid, shape", [
    ("w14-016", "'When is MFA mandatory?': the lead-in quoted among the best sentences is answered by its list, "
                "whatever the question word"),
    ("w14-024", "'What should a tech do when a freezer temperature alarm goes off?': the list under 'the responding "
                "staff member must:'"),
    ("w14-031", "'What's on the daily safety checklist?': the checklist of the section 'Daily Safety Checks', not the "
                "sub-list of one of its items"),
    ("w14-025", "'steps for recieving chain-of-custody drug test specimens': the procedure of the section whose title "
                "names the question, not the sub-list of one of its steps"),
    ("w14-041", "'what terms get defined in the BCP?': the BCP is the Business Continuity Plan, and 'Terms Used in "
                "This Plan' is its glossary"),
])
def test_the_list_asked_on_a_laboratory_s_documents(laboratory, qid, shape):
    complete_list(laboratory, GOLDS[qid])


@pytest.mark.parametrize("qid, shape", [
    ("w14-003", "'business associate agreements - which docs cover them?' asks documents in general, not contracts"),
    ("w14-004", "'Which Corriveau procedures, standards or handbooks set requirements for ...' asks documents"),
])
def test_which_documents_in_the_words_a_reader_uses(laboratory, qid, shape):
    gold = GOLDS[qid]
    answer = laboratory.answer(gold["question"], mode="deterministic")
    found, required = list_coverage(gold, answer)["docs"]
    assert found == required, f"{shape}: {answer.answer[:300]}"


TAILSCALE = ROOT.parent / "shared" / "corpus" / "policies-dev" / "tailscale"
TAILSCALE_GOLDS = {**blind_golds("policies-holdout")}


@pytest.mark.corpus
@pytest.mark.parametrize("qid, shape", [
    ("w2-020", "'what does the Incident Commander have to make sure happens?': the sentence printed just before the list "
               "('... it is the Incident Commander's responsibility to ensure that') is answered by it"),
    ("w3-313", "'what information does it record about it?': the paragraph closing with 'Information collected is as "
               "follows:' owns the list, though its first sentence is the one quoted"),
])
def test_a_list_introduced_without_a_colon_on_tailscale_s_policies(tmp_path_factory, qid, shape):
    if not TAILSCALE.is_dir():
        pytest.skip(f"tailscale policies not found under {TAILSCALE}")
    engine = QueryEngine(markdown_store(tmp_path_factory, f"tailscale-{qid}", TAILSCALE, 15), llm=None)
    complete_list(engine, TAILSCALE_GOLDS[qid])


TRANSIT_GOLDS = blind_golds("r6-policies-holdout")



@pytest.mark.parametrize("qid, shape", [
    ("w18-042", "a glossary of '- **Authority device** means ...' bullets lists its terms, each cited to its line"),
    ("w18-043", "'the glossary of the emergency ops plan': 'ops' is operations in a title, and 'Part 9: Glossary' is a "
                "glossary"),
])
def test_the_terms_of_a_glossary_on_a_transit_authority_s_documents(transit, qid, shape):
    """The round-6 held-back policies (w18), dev since their one measurement."""
    answer = complete_list(transit, TRANSIT_GOLDS[qid])
    assert all(len(item.text.split()) <= 4 for item in answer.items)  # the terms, not their definitions
