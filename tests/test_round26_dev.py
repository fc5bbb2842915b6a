"""Issue 26: round 26's questions (w69 and w70 held back and measured once, w71 and w72 for dev; all written blind before
this part's code), each a class of question:

Releases and decks:
- a reconciliation's add-back ("how large was the restructuring add-back?", "the add-back for stock-based comp and related
  employer payroll taxes", "What stock-based compensation amount is added back to GAAP income from operations there (the
  reconciliation line, not the cash flow statement figure)?") is the reconciling row, read only from a reconciliation
  (it had stated the non-GAAP total three times);
- "by how many percentage points" and "how many percentage points did it move from Q1 2023 to Q2 2023" ask a rate's
  change in points, never its growth (it had stated a growth of 2.9% of a ratio, and a level), stated "in points";
- years said in words ("June twenty twenty-five"), six and nine months named by their months ("January through the end
  of September 2025"), "the three months to the end of June 2025"; the clause that asks after a colon ("I need the user
  number: for ..., what was Family daily active people?");
- "SG&A as a % of net sales (not total revenue) in Q3 FY23, the 12 weeks ended May 7, 2023": net sales, the weeks no
  word of the operand (it had read total revenue);
- "how much revenue did slack bring in": a name in lower case qualifies the item, so total revenue is not stated;
- "how much did reality labs lose ...? in millions pls": a loss, stated as its size; "slide w/ next-quarter guidance";
- notes that ask a growth ("ebay GMV q/q % chg, Q2 23 vs Q1 23", "eBay U.S. GMV: percentage change sequentially from 1Q23
  to 2Q23, using ..."), the company's name no word of the line; "the three months to September 30, 2024"; a double letter
  typed once ("TWLO Comunications revenue");
- "long-term debt" is never the "Short-term debt" row (the filings sweep caught it once an asking clause was read apart).

Calls:
- "host of Citi 4Q23 earnings call + their title?" (a person and a title, no sum); who closed a call that has no
  operator; the host asked beside a person the question names; "Ray spoke right after Bharat. what's his role now?";
  "who fielded matt o'connor's q"; the analyst right after another; the executives who "only showed up in the Q&A (no
  prepared remarks)"; the first and the last analyst; the analysts who came back in the queue; "the operator announced
  Steve Koenig from SMBC - but who actually asked"; "who was answering for the wholesale side"; "who got the first q";
- what an analyst from a named firm asked ("the jefferies guy"); a topic without the asking words ("what exactly did he
  say", "re buybacks going forward"); "the CEO's message" is the group CEO's, not a subsidiary's; "Q4 FY22 thru Q3 FY23";
  "I'm an ESG analyst ..." asks no analyst's words; "I need the full list ..." is no persona.

Corpus golds are the blind writers' own, judged as `vera eval` judges them (skipped when ../shared/corpus is absent)."""

from __future__ import annotations

import pytest

from tests.conftest import assert_blind_correct, blind_golds, corpus_engine, judged_blind
from tests.test_release_rows_named import IR
from vera_core.answer.figures.cells import _OPPOSITES
from vera_core.finance.line_items import label_terms
from vera_core.query import QueryEngine
from vera_core.questions.figure import item_phrase, read_request
from vera_core.questions.metric import without_periods
from vera_core.questions.month_spans import month_spans_named
from vera_core.questions.qualifiers import qualifier_after
from vera_core.questions.reconciling import reconciling_item
from vera_core.questions.restate import loss_asked, noted_sum_asked, restated, spoken_years_written
from vera_core.questions.speakers import (REQUEUED, analyst_place, firm_question_asked, firms_named, read_people_ask,
                                          read_remark_ask, spanned_quarters, who_is_named, without_asker)

FILES = [IR / "CRM" / "CRM_2024Q1_RELEASE.pdf", IR / "CRM" / "CRM_2024Q2_RELEASE.pdf",
         IR / "EBAY" / "EBAY_2023Q1_RELEASE.pdf", IR / "EBAY" / "EBAY_2023Q2_RELEASE.pdf",
         IR / "COST" / "COST_2023Q3_RELEASE.pdf", IR / "TWLO" / "TWLO_2023Q4_SLIDES.pdf",
         IR / "META" / "META_2024Q3_RELEASE.pdf"] + \
    [IR / "META" / f"META_{q}_SLIDES.pdf" for q in ("2025Q1", "2025Q2", "2025Q3")] + \
    [IR / "C" / f"C_2023Q{q}_CALL.pdf" for q in (1, 3, 4)] + [IR / "JPM" / f"JPM_2023Q{q}_CALL.pdf" for q in (1, 2, 4)] + \
    [IR / "TD" / f"TD_2024Q{q}_CALL.pdf" for q in (1, 2, 3, 4)] + \
    [IR / "SNOW" / f"SNOW_{q}_CALL.pdf" for q in ("2022Q4", "2023Q1", "2023Q2", "2023Q3")] + \
    [IR / "DB" / "DB_2023Q1_CALL.pdf", IR / "META" / "META_2024Q3_CALL.pdf"]
GOLDS = {**blind_golds("r26-ir-releases-holdout"), **blind_golds("r26-ir-releases-dev"),
         **blind_golds("r26-ir-calls-holdout"), **blind_golds("r26-ir-calls-dev")}


def test_a_reconciling_line_is_asked_by_what_it_adds_back():
    assert reconciling_item("In Salesforce's Q1 FY24 reconciliation of GAAP to non-GAAP income from operations, how large "
                            "was the restructuring add-back?") == "restructuring"
    assert reconciling_item("what's the add-back for stock-based comp and related employer payroll taxes?") == \
        "stock-based comp and related employer payroll taxes"
    assert reconciling_item("What stock-based compensation amount is added back to GAAP income from operations there?") == \
        "stock-based compensation"
    assert reconciling_item("What was non-GAAP income from operations in Q1 FY24?") == ""
    assert reconciling_item("Before any adjustment for that charge, what net income did Meta report?") == ""
    request = read_request("In Salesforce's Q1 FY24 reconciliation of GAAP to non-GAAP income from operations, how large "
                           "was the restructuring add-back?")
    assert request.reconciling and not request.non_gaap and request.item_terms == label_terms("restructuring")
    assert not request.concepts  # never the operating income the reconciliation arrives at


def test_a_rates_change_in_points_is_a_change_never_a_growth():
    assert "What was the change in" in restated("By how many percentage points did eBay's total operating expenses as a "
                                                "percentage of net revenues change from Q1 2023 to Q2 2023?")
    moved = restated("opex as % of rev for eBay (total operating expenses): how many percentage points did it move from "
                     "Q1 2023 to Q2 2023?")
    assert "What was the change in opex as % of revenue for eBay from Q1 2023 to Q2 2023" in moved
    assert "growth" in restated("By what percentage did eBay's revenue grow from Q1 2023 to Q2 2023?")
    # NOTE: notes that ask a growth between the periods they name
    assert restated("ebay GMV q/q % chg, Q2 23 vs Q1 23") == "What was ebay GMV growth, Q2 23 vs Q1 23?"
    assert restated("eBay U.S. GMV: percentage change sequentially from 1Q23 to 2Q23, using the Q2 release's "
                    "supplemental operating data?") == "What was eBay U.S. GMV growth from 1Q23 to 2Q23?"


def test_periods_said_in_words_and_months_named_by_their_span():
    assert spoken_years_written("for the three months to the end of June twenty twenty-five") == \
        "for the three months to the end of June 2025"
    assert spoken_years_written("two thousand and twenty-three") == "2023"
    assert spoken_years_written("twenty one analysts asked") == "twenty one analysts asked"
    assert month_spans_named("capex for the year to date, so January through the end of September 2025")[0] == \
        "capex for the year to date, so the nine months ended September 30, 2025"
    assert month_spans_named("the three months to the end of June 2025")[0] == "the June 2025 quarter"
    assert month_spans_named("the six months to June 2023")[0] == "the six months ended June 30, 2023"
    assert item_phrase("I'm going through Meta's 2025 presentation and I need the user number: for the June 2025 "
                       "quarter, what was Family daily active people, in billions?") == "Family daily active people"
    assert item_phrase("Twilio revenue: what was it in Q2?").startswith("it")  # a pronoun asks of the clause before


def test_words_of_the_question_that_are_no_part_of_an_item():
    assert without_periods("SG&A as a % of net sales in Q3 FY23, the 12 weeks ended May 7, 2023") == "SG&A as a % of net sales"
    assert qualifier_after(" did slack bring in for salesforce in Q2 FY24?", 0).words == label_terms("slack")
    assert qualifier_after(" did the company bring in in Q2?", 0).words == frozenset()
    assert loss_asked("how much did reality labs lose at the operating line in Q1 2025? in millions pls") == \
        "What was the loss of reality labs at the operating line in Q1 2025? in millions pls"
    assert noted_sum_asked("host of Citi 4Q23 earnings call + their title?") == "host of Citi 4Q23 earnings call + their title?"
    assert ("long", "short") in {(a, b) for a, b in _OPPOSITES}


def test_call_questions_read_as_asked():
    assert read_people_ask("host of Citi 4Q23 earnings call + their title?").role == "host"
    assert read_people_ask("db 1q23 call - who wrapped it up at the end? name + title").role == "end"
    assert read_people_ask("I run investor relations at a mid-cap tech company. On Meta's Q3 2024 earnings call, who "
                           "hosted?").role == "host"
    assert read_people_ask("I need the full list of analysts who actually asked questions on Snowflake's call.").kind == \
        "analysts"
    assert who_is_named("td dec 2024 call: Ray spoke right after Bharat. what's his role now?",
                        ["Raymond Chun", "Bharat Masrani"]).name == "Raymond Chun"
    assert read_remark_ask("who fielded matt o'connor's q (deutsche) on citi's q1 2023 call?",
                           ["MATT O\u2019CONNOR", "Mark Mason"]).to == ("MATT O\u2019CONNOR",)
    after = read_people_ask("which analyst actually got to ask right after Gerard Cassidy from RBC?")
    assert (after.kind, after.role, after.name) == ("handoff", "after", "Gerard Cassidy")
    assert read_people_ask("td q2 24 - which execs only showed up in the Q&A (no prepared remarks)?").role == "qa_only"
    assert analyst_place("who asked the first question and who asked the last one?") == "first and last"
    assert analyst_place("snow q4 fy23 call - who got the first q?") == "first"
    assert read_people_ask("which analysts did come back in the queue for a second time?").role == REQUEUED
    assert read_people_ask("which analysts asked follow-ups?").role != REQUEUED
    # NOTE: an instruction to list each analyst once asks every analyst (the sweep caught three earlier questions)
    assert read_people_ask("Which analysts asked questions on Citi's third-quarter 2023 earnings call? Give the firm for "
                           "each, and list anyone who came back a second time only once.").role == ""
    assert read_people_ask("I need every sell-side analyst who asked a question, with their firm. Please list each "
                           "person once even if they came back into the queue.").role == ""
    assert read_people_ask("Citi 3Q23 call - last analyst in the queue + firm?").role == "last"
    assert read_people_ask("the operator announced Steve Koenig from SMBC - but who actually asked that question?").kind == \
        "analysts"
    assert firms_named("Steve Koenig from SMBC", ["SMBC Nikko Securities America, Inc.", "Barclays"]) == \
        {"SMBC Nikko Securities America, Inc."}
    side = read_people_ask("who from TD was answering for the wholesale side (TD Securities) in the call?")
    assert (side.kind, side.name) == ("title", "wholesale")
    assert firm_question_asked("td q3 fy24 - what was the jefferies guy asking?", ["Jefferies Securities"]) == \
        {"Jefferies Securities"}
    assert firm_question_asked("what did the Jefferies analyst ask, and what was the answer?", ["Jefferies"]) == set()
    assert spanned_quarters("what did scarpelli say about net new headcount on each call, Q4 FY22 thru Q3 FY23?")
    ask = read_remark_ask("I'm an ESG analyst following TD's AML problems. Quarter by quarter, how did the CEO's message "
                          "on the U.S. AML issue evolve?", ["Bharat Masrani"])
    assert ask is not None and ask.roles == ("CEO",)
    # NOTE: a sentence that says what is tracked is the topic, not a persona to drop
    assert "anti-money-laundering" in without_asker("I'm tracking TD's US anti-money-laundering problem through fiscal "
                                                    "2024. For each call, what did Masrani say about it?")
    assert without_asker("I'm an ESG analyst following TD. What did the CEO say?") == "What did the CEO say?"


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "round26", FILES, f"ir-dev files not found under {IR}")


HELD_BACK_MISSES = [
    ("w70-017", "'how large was the restructuring add-back?': 711 (it had stated non-GAAP income from operations)"),
    ("w70-003", "'how much did reality labs lose at the operating line in Q1 2025? in millions pls': a loss of 4,210"),
    ("w70-015", "'capex for the year to date, so January through the end of September twenty twenty-five': 50.1 billion "
                "(it had stated the third quarter's)"),
    ("w70-001", "'for the three months to the end of June twenty twenty-five, what was Family daily active people': 3.48"),
    ("w70-025", "'Free cash flow ... versus the same three months a year earlier' said in words: -21.6%"),
    ("w70-040", "'TWLO Q4'23 deck - slide w/ next-quarter guidance?': slide 7"),
    ("w70-022", "'eBay U.S. GMV: percentage change sequentially from 1Q23 to 2Q23, using the Q2 release's ...': -3.42%"),
    ("w69-009", "'host of Citi 4Q23 earnings call + their title?': Jennifer Landis"),
    ("w69-013", "'who ... was answering for the wholesale side': Tim Wiggan"),
    ("w69-014", "'the operator announced Steve Koenig from SMBC - but who actually asked': Owen Haworth"),
    ("w69-016", "'who asked the first question and who asked the last one?': Zelnick and Terjanian"),
    ("w69-017", "'which analysts did come back in the queue for a second time': Mayo and Cassidy"),
    ("w69-032", "'JPM CFO on AI - Jan 2024 call - what exactly did he say?': Barnum on AI"),
]
"""Round 26's held-back misses (measured once, at 4078627/fdb7a6f), fixed as classes after the measurement."""
DEV_MISSES = [
    ("w72-025", "'the add-back for stock-based comp and related employer payroll taxes': 132"),
    ("w72-030", "'What stock-based compensation amount is added back ... (not the cash flow statement figure)': 680"),
    ("w72-028", "'opex as % of rev ...: how many percentage points did it move from Q1 2023 to Q2 2023?': 1.46 points (it "
                "had stated the Q2 level)"),
    ("w72-020", "'SG&A as a % of net sales (not total revenue) in Q3 FY23, the 12 weeks ended May 7, 2023': 9.11% (it had "
                "read total revenue)"),
    ("w72-034", "'how much revenue did slack bring in for salesforce in Q2 FY24?': no figure (it had stated total revenue)"),
    ("w72-001", "'research and development in the three months to September 30, 2024': 11.18 billion"),
    ("w72-027", "'ebay GMV q/q % chg, Q2 23 vs Q1 23': -1.06%"),
    ("w72-041", "'TWLO Comunications revenue, Q4'23 vs Q3'23: q/q growth %?': 4.3%"),
    ("w71-001", "'who hosted - the person who ... handed over to Zuckerberg - and what is his title?': Kenneth Dorell"),
    ("w71-002", "'db 1q23 call - who wrapped it up at the end?': Silke-Nicole Szypa (no operator on the call)"),
    ("w71-005", "'Ray spoke right after Bharat. what's his role now?': Raymond Chun"),
    ("w71-008", "'who fielded matt o'connor's q (deutsche)': Mark Mason"),
    ("w71-016", "'which analyst actually got to ask right after Gerard Cassidy': Ebrahim Poonawala"),
    ("w71-022", "'which execs only showed up in the Q&A (no prepared remarks)?': the five"),
    ("w71-013", "'I need the full list of analysts ...': every analyst (no persona)"),
    ("w71-030", "'jpm 4q23 - what did the cfo say re buybacks going forward?': Barnum on buybacks"),
    ("w71-039", "'What did the Morgan Stanley analyst ask about': Betsy Graseck's questions"),
    ("w71-040", "'td q3 fy24 - what was the jefferies guy asking?': John Aiken's questions"),
    ("w71-042", "'net new headcount on each call, Q4 FY22 thru Q3 FY23': one per call"),
]
"""Round 26's dev misses (w71, w72) fixed as classes."""


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", HELD_BACK_MISSES + DEV_MISSES)
def test_round_26_classes_are_answered(engine, qid, cls):
    assert_blind_correct(engine, GOLDS[qid], cls)


@pytest.mark.corpus
def test_the_ceos_message_is_the_group_ceos(engine):
    """"How did the CEO's message on the U.S. AML issue evolve across the four earnings calls?": the group CEO's words on
    each call, never those of a subsidiary's CEO (TD's Leo Salom) nor an analyst's (the asker is "an ESG analyst")."""
    _, answer = judged_blind(engine, GOLDS["w71-041"])
    speakers = {c.speaker for c in answer.citations}
    calls = {c.doc_name for c in answer.citations}
    assert speakers == {"Bharat Masrani"} and len(calls) == 4, answer.answer[:300]
