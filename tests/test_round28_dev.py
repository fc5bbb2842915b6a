"""Issue 26: round 28's held-back questions (w77 calls, w78 releases; measured once at bed9fb9, then read as dev) and
round 29's dev sets (w83 calls, w84 releases; w81 and w82 held back), all written blind before this part's code, each
miss fixed as a class:

Releases and decks:
- a quarter "that ended" a date ("the daily active people figure for the quarter that ended September 30, 2025"), said
  after a question in everyday words ("How many people use ...? I'm after the ... figure"); "how much money did Costco
  take in from membership fees ...?" (no unit asked);
- a growth "compared with the same 12 weeks a year earlier" of a span named by its end ("the 12 weeks that ended May 7,
  2023"), "a percentage to one decimal is fine" after the question; "the same quarter of 2025" after a quarter named;
  "the spring quarter of 2023 (12 weeks to May 7)";
- a definition said again of the library metric named ("Mobileye's operating margin ..., i.e. its operating income as a
  share of its revenue", "i.e. segment operating income over segment revenue"): the segment's rows; "what operating
  margin did the Family of Apps segment make on its own revenue?"; the scene set first ("I'm trying to explain to my
  readers ...", "a blog post on why ...") asks no explanation and no metric;
- the column named ("from the 36 Weeks Ended May 7, 2023 column"), "(the stretch that ended on May 7, 2023)", "collect
  in membership fees", "cash paid for interest (net of amounts capitalized)" as the line's own name;
- a note's move between two dates ("cash & equivalents build from the 11/20/22 balance sheet ... to 5/7/23"): had
  stated both levels; a line defined as a sum in parentheses that a deck prints whole ("capex (PP&E purchases + finance
  lease principal)").

Calls:
- a firm's analyst's own question ("What did the Goldman Sachs analyst want to know?") had quoted the replies; who took
  a firm's analyst's questions ("the Truist guy's") names those who replied, not the analyst nor investor relations'
  hand-off; the people the host said were on the call; "identify by full name and title the investor relations
  representative"; the analyst with the most turns ("kept coming back ... with follow-up after follow-up");
- a place in the Q&A asked by the firm it came from ("2nd qustion came from morgan stanley. was it keith weiss himself
  or someone else asking?"); "who's sona"; who closed a call whose operator hands over after the Q&A to no one; "which
  executive did the operator hand the call to first"; "Is Threads going to make Meta real money next year?".

Corpus golds are the blind writers' own, judged as `vera eval` judges them (skipped when ../shared/corpus is absent)."""

from __future__ import annotations

import pytest

from tests.conftest import assert_blind_correct, blind_golds, corpus_engine
from tests.test_release_rows_named import IR
from vera_core.query import QueryEngine
from vera_core.questions.figure import asked_periods, is_figure_question, item_phrase
from vera_core.questions.metric import read_plan
from vera_core.questions.restate import nicknamed_quarters_named, restated, same_quarter_dated, yearless_ends_dated
from vera_core.questions.speakers import MOST_ASKED, read_people_ask, spanned_quarters
from vera_core.questions.spelling import misspelt

FILES = [IR / "META" / f"META_2024Q{q}_SLIDES.pdf" for q in (1, 2, 3)] + [
         IR / "EBAY" / "EBAY_2023Q2_RELEASE.pdf", IR / "CRM" / "CRM_2024Q1_RELEASE.pdf",
         IR / "TWLO" / "TWLO_2023Q4_SLIDES.pdf", IR / "META" / "META_2024Q3_RELEASE.pdf", IR / "META" / "META_2024Q4_SLIDES.pdf",
         IR / "META" / "META_2025Q3_SLIDES.pdf", IR / "COST" / "COST_2023Q1_RELEASE.pdf",
         IR / "COST" / "COST_2023Q3_RELEASE.pdf", IR / "INTC" / "INTC_2022Q4_RELEASE.pdf",
         IR / "INTC" / "INTC_2023Q1_RELEASE.pdf", IR / "META" / "META_2024Q3_CALL.pdf",
         IR / "MSFT" / "MSFT_2023Q3_CALL.pdf", IR / "DB" / "DB_2023Q1_CALL.pdf",
         IR / "SNOW" / "SNOW_2023Q1_CALL.pdf", IR / "SNOW" / "SNOW_2023Q2_CALL.pdf",
         IR / "TD" / "TD_2024Q4_CALL.pdf", IR / "JPM" / "JPM_2023Q3_CALL.pdf"]
GOLDS = {**blind_golds("r21-ir-calls-dev2"), **blind_golds("r28-ir-releases-holdout"), **blind_golds("r28-ir-calls-holdout"),
         **blind_golds("r28-ir-releases-dev"), **blind_golds("r29-ir-releases-dev"), **blind_golds("r29-ir-calls-dev")}


def test_a_quarter_that_ended_a_date_and_the_line_wanted():
    question = ("How many people use at least one of Meta's apps every day? I'm after the daily active people figure for "
                "the quarter that ended September 30, 2025, in billions.")
    assert item_phrase(question) == "daily active people"
    period = asked_periods(question)[0]
    assert [(p.months, p.end) for p in period] == [(3, "2025-09-30")]
    assert item_phrase("META 3Q24 cash paid for interest (net of amounts capitalized)? $m") == "META cash paid for interest"
    assert item_phrase("How much did it collect in membership fees during the 12 weeks that ended November 20, 2022? "
                       "Answer in millions of dollars.") == "membership fees"
    column = asked_periods("Loading Costco FY2023 Q3 into my dataset: I need Selling, general and administrative from the "
                           "36 Weeks Ended May 7, 2023 column (GAAP), in $ millions.")[0]
    assert [(p.months, p.end) for p in column] == [(9, "2023-05-07")]


def test_the_scene_set_first_asks_nothing():
    assert is_figure_question("Hi! I'm putting together a blog post on why Costco's membership model is so sticky. How "
                              "much money did Costco take in from membership fees over the first 36 weeks of its 2023 "
                              "fiscal year (the stretch that ended on May 7, 2023)? A figure in millions of dollars would "
                              "be perfect.")
    plan = read_plan("I'm trying to explain to my readers how profitable Meta's apps are. In the September 2024 quarter, "
                     "what operating margin did the Family of Apps segment make on its own revenue?")
    assert plan is not None and plan.source == "library"


def test_a_definition_said_again_is_the_library_metric():
    plan = read_plan("What was Mobileye's operating margin in Q4 2022, i.e. its operating income as a share of its "
                     "revenue?")
    assert plan is not None and plan.source == "library" and plan.metric.key == "operating_margin"
    # NOTE: a definition of other items than the library's is the question's own
    own = read_plan("What was Intel's operating margin in Q1 2023, i.e. operating income over total assets?")
    assert own is not None and own.source == "question"


def test_year_ago_spans_and_quarters_named_again():
    assert restated("Costco's membership fee income for the 12 weeks that ended May 7, 2023 - how much did it grow "
                    "versus the same 12 weeks a year earlier? a percentage to one decimal is fine").startswith(
        "What was the percent change in Costco's membership fee income")
    assert same_quarter_dated("grow from the September quarter of 2024 to the same quarter of 2025?") == \
        "grow from the September quarter of 2024 to the September 2025 quarter?"
    assert same_quarter_dated("from Q3 2024 to the same quarter of 2025") == "from Q3 2024 to Q3 2025"
    assert yearless_ends_dated("in the spring quarter of 2023 (12 weeks to May 7)") == \
        "in the spring quarter of 2023 (12 weeks to May 7, 2023)"
    # NOTE: a fiscal year's quarter may end in the calendar year before: no year is given
    assert yearless_ends_dated("in Q1 fiscal 2023 (12 weeks to Nov 20)") == "in Q1 fiscal 2023 (12 weeks to Nov 20)"
    assert restated("COST cash & equivalents build from the 11/20/22 balance sheet (1Q23 release) to 5/7/23 (3Q23 "
                    "release)? $m") == "What was the change in COST cash & equivalents from 11/20/22 to 5/7/23? $m"


def test_shapes_of_a_change_a_margin_and_a_span_of_calls():
    assert restated("did Twilio's Communications business bring in more revenue in the December 2023 quarter than in the "
                    "September 2023 quarter, and by what percent?") == \
        "What was the percent change in Twilio's Communications revenue from the September 2023 quarter to the December " \
        "2023 quarter?"
    assert restated("In Q3 2024, what share of the Family of Apps revenue (Facebook, Instagram and so on) was left over as "
                    "operating profit?") == "In Q3 2024, what was the Family of Apps operating margin?"
    # NOTE: what a margin was made on is the question's ("did Tesla make on the Cybertruck")
    assert "Cybertruck" in restated("What gross margin did Tesla make on the Cybertruck in 2023?")
    assert nicknamed_quarters_named("how much did Meta's ARPP drop from the holiday quarter (Q4'24) to Q1'25?") == \
        "how much did Meta's ARPP drop from Q4'24 to Q1'25?"
    assert spanned_quarters("track jpm's full-year expense guidance through the four 2023 calls (q1 23 to q4 23)") == \
        {1, 2, 3, 4}
    besides = read_people_ask("I keep a register of which officers attend Microsoft's earnings calls. At the start of "
                              "the FY23 Q3 call, Brett Iversen lists the people on the call with him. Apart from the CEO "
                              "and the CFO, who were the other two, and what titles did he give them?")
    assert besides.kind == "executives" and set(besides.besides) >= {"CEO", "CFO"}


def test_people_asked_by_place_count_and_lower_case():
    assert read_people_ask("which analyst kept coming back at Scarpelli with follow-up after follow-up?").role == MOST_ASKED
    assert read_people_ask("Which analyst asked the most questions on the call?").role == MOST_ASKED
    assert read_people_ask("identify by full name and title the investor relations representative listed among the "
                           "speakers").role == "investor relations"
    first = read_people_ask("which executive did the operator hand the call to first, and what is his title?")
    assert (first.kind, first.role) == ("handoff", "first")
    assert misspelt("2nd qustion came from morgan stanley", frozenset({"question", "came", "from"})) == \
        {"qustion": "question"}


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "round28", FILES, f"ir-dev files not found under {IR}")


HELD_BACK_MISSES = [
    ("w78-001", "'the 12 weeks that ended May 7, 2023: how much did they take in just from membership fees?': 1,044 (it "
                "had stated deferred membership fees)"),
    ("w78-003", "'I need Selling, general and administrative from the 36 Weeks Ended May 7, 2023 column': 14,651"),
    ("w78-005", "'operating income grow in the 12 weeks ended November 20, 2022 compared with the same 12 weeks a year "
                "earlier': 3.4%"),
    ("w78-021", "'What operating margin did Intel's Client Computing Group earn ..., i.e. segment operating income over "
                "segment revenue?': 9.0%"),
    ("w78-038", "'total capital expenditures for full-year 2024 (purchases of property and equipment plus finance lease "
                "principal payments)' of a deck printing Capital Expenditures: 39,225"),
    ("w77-005", "'which Microsoft people did Brett Iversen say were on the call with him': four, two who never spoke"),
    ("w77-009", "'identify by full name and title the investor relations representative': Silke-Nicole Szypa"),
    ("w77-010", "'who took the Truist guy's questions?': Susan Li alone"),
    ("w77-018", "'which analyst kept coming back at Scarpelli with follow-up after follow-up?': Kasthuri Gopalan Rangan"),
    ("w77-027", "'Is Threads going to make Meta real money next year? What did Susan Li say': the 2025 revenue sentence"),
    ("w77-038", "'What did the Goldman Sachs analyst want to know?': Chris Hallam's question"),
]
"""Round 28's held-back misses (measured once, at bed9fb9), fixed as classes after the measurement."""
DEV_MISSES = [
    ("w84-001", "'META 3Q24 cash paid for interest (net of amounts capitalized)? $m': 111"),
    ("w84-007", "'META FY24 capex (PP&E purchases + finance lease principal), $bn?': 39.225"),
    ("w84-010", "'grow from the July-September quarter of 2024 to the same quarter of 2025': 14.6%"),
    ("w84-018", "'How much did it collect in membership fees during the 12 weeks that ended November 20, 2022?': 1,000"),
    ("w84-022", "'COST cash & equivalents build from the 11/20/22 balance sheet ... to 5/7/23': 1,637 (it had stated "
                "both levels)"),
    ("w80-002", "'How much money did Costco take in from membership fees over the first 36 weeks ... (the stretch that "
                "ended on May 7, 2023)?': 3,071"),
    ("w80-003", "'how much did it grow versus the same 12 weeks a year earlier? a percentage to one decimal': 6.1%"),
    ("w80-017", "'Mobileye's operating margin ..., i.e. its operating income as a share of its revenue': 37.2%"),
    ("w80-027", "'what operating margin did the Family of Apps segment make on its own revenue?': 54.0%"),
    ("w80-028", "'I'm after the daily active people figure for the quarter that ended September 30, 2025': 3.54"),
    ("w84-004", "'what share of the Family of Apps revenue ... was left over as operating profit?': 54.0%"),
    ("w84-013", "'META CY2024 FCF = sum of the four quarters, each taken from that quarter's own deck': 52.103"),
    ("w84-020", "'COST 1Q FY23 interest coverage, op income / interest expense (x)?': 51.5"),
    ("w84-026", "'the value of goods sold by U.S. users on eBay (U.S. GMV) ... Give the % change.': -3.1%"),
    ("w84-034", "'subscription & support gross margin, i.e. (S&S revenue minus S&S cost of revenues) / S&S revenue, in "
                "%.': 80.2%"),
    ("w84-043", "'did Twilio's Communications business bring in more revenue in October-December 2023 than in "
                "July-September 2023, and by what percent?': 4.3%"),
    ("w52-002", "'Apart from the CEO and the CFO, who were the other two': Alice Jolla and Keith Dolliver"),
    ("w83-004", "'2nd qustion came from morgan stanley. was it keith weiss himself or someone else asking?': Sanjit "
                "Kumar Singh"),
    ("w83-006", "'who's sona on the td q4 2024 call? what does she run': Sona Mehta"),
    ("w83-008", "'who wrapped up meta's q3 2024 call on the company side': Kenneth Dorell"),
    ("w83-010", "'which executive did the operator hand the call to first': Jamie Dimon"),
]
"""Round 28's dev misses read this part (w80) and round 29's (w83, w84; first run at e44bc9e), fixed as classes."""


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", HELD_BACK_MISSES + DEV_MISSES)
def test_round_28_classes_are_answered(engine, qid, cls):
    assert_blind_correct(engine, GOLDS[qid], cls)
