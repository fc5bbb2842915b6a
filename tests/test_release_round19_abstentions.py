"""Issue 26, releases and decks: round 19's abstentions, after its measurement (dev since), each a class of question:

- a payment asked as cash that went out ("how much cash went out for dividends and dividend equivalents ... according
  to the cash flow statement") is the payment's row of the cash flow statement ("Payments for dividends and dividend
  equivalents"): a movement's row answers a question that asks a movement of cash, and "according to the cash flow
  statement" names where, not what;
- "buybacks", "repurchasing class A stock" are share repurchases; "what does the cash flow statement show for X" asks
  X's figure;
- a quarter's change "year over year in Q2 2023" of an item no vocabulary knows is read between the two quarters; a
  vowel typed between two consonants ("developement") is a typing slip;
- a note's label before "how much did it grow" is what grew; "X Q1'23 vs Q1'22, % decline? one decimal" is the change
  from the second quarter to the first, to the digits asked;
- a segment's margin asked with its name after the verb ("What operating margin did Meta's Family of Apps segment
  earn") or as the possessive before a question's own definition ("Mobileye's operating margin ... (segment operating
  income over segment revenue)") reads the segment's rows;
- the document said first ("According to Meta's Q1 2024 earnings presentation, how many daily active people ...") is
  no word of the item, and a period said twice ("Q1 2024 ... in Q1'24") is read once;
- a deck's cover is its title slide: a region owning an item ("Europe's revenue growth") is a qualifier, not the company;
- "for each quarter of 2024" added up is the sum of its four quarters;
- two lines of one period worked out as a reader would ("By how much did advertising revenue exceed other revenue?",
  "the difference between income from operations and net income", "What percentage of revenue did Meta spend on R&D?")
  are the question's own formula, never the first line stated alone, and the calculation shows its result in the scale
  of its operands ("17,350 - 15,688 = 1,662 million");
- a metric asked of one quarter's release without a period ("How much did Client Computing Group revenue change
  compared with the same quarter a year earlier, in percent?") is of the quarter the release reports;
- a range management guided to ("What range did Salesforce give for full-year fiscal 2024 revenue in its guidance?",
  "the low end of Q2 FY24 revenue guidance") is read from the sentence that states it, for the period asked;
- "cash, cash equivalents and marketable securities" is one line, the three added: neither the "Cash and cash
  equivalents" row nor the "Marketable securities" row is stated in its place.

Corpus golds are the blind writers' own, judged as `vera eval` judges them (skipped when ../shared/corpus is absent)."""

from __future__ import annotations

import pytest

from tests.conftest import blind_golds, corpus_engine, judged_blind
from tests.test_release_rows_named import IR
from vera_core.query import QueryEngine
from vera_core.questions.figure import is_figure_question, item_phrase, read_request
from vera_core.questions.metric import read_plan
from vera_core.questions.restate import restated
from vera_core.questions.spans import summed_quarter_periods
from vera_core.questions.spelling import misspelt
from vera_core.records import Period

FILES = [IR / "META" / "META_2024Q3_RELEASE.pdf", IR / "META" / "META_2024Q1_SLIDES.pdf",
         IR / "META" / "META_2024Q2_SLIDES.pdf", IR / "META" / "META_2024Q3_SLIDES.pdf",
         IR / "META" / "META_2024Q4_SLIDES.pdf", IR / "EBAY" / "EBAY_2023Q1_RELEASE.pdf",
         IR / "EBAY" / "EBAY_2023Q2_RELEASE.pdf", IR / "INTC" / "INTC_2023Q1_RELEASE.pdf",
         IR / "INTC" / "INTC_2022Q4_RELEASE.pdf", IR / "TWLO" / "TWLO_2023Q4_SLIDES.pdf",
         IR / "CRM" / "CRM_2024Q1_RELEASE.pdf"]
GOLDS = blind_golds("r19-ir-releases-holdout")


def test_a_payment_asked_as_cash_that_went_out_and_where_it_is_printed():
    request = read_request("I'm on a treasury desk tracking Meta's capital returns. How much cash went out for dividends "
                           "and dividend equivalents in Q3 2024 according to the cash flow statement (in $ millions)?")
    assert request.item_terms == {"dividend", "equivalent"} and request.statement == "cash_flow"
    assert [c.name for c in read_request("meta buybacks first 9 months of 2024 - how much cash spent repurchasing "
                                         "class A stock?").concepts] == ["share repurchases"]
    assert not read_request("How much is left under the buyback authorization?").concepts
    assert is_figure_question("The eBay Q1'23 release says $250 million of share repurchases, but what does the cash flow "
                              "statement show for repurchases of common stock in the quarter?")


def test_a_quarter_s_change_year_over_year_and_a_typed_vowel():
    plan = read_plan("How much did international GMV grow compared to a year ago in Q1 2023?")
    assert plan is not None and plan.name == "international GMV growth", plan
    assert plan.periods == (Period("quarter", "", 2022, 3, 1), Period("quarter", "", 2023, 3, 1))
    plan = read_plan("how much did ebay's product development expense go up year over year in Q2 2023, in %?")
    assert plan is not None and plan.over == "growth"
    assert plan.periods == (Period("quarter", "", 2022, 3, 2), Period("quarter", "", 2023, 3, 2))
    assert read_plan("how much did ebay's product development expense go up in Q2 2023, in %?") is None  # no base said
    assert misspelt("product developement expense", frozenset({"development", "product", "expense"})) == {
        "developement": "development"}
    assert misspelt("raising capital", frozenset({"rising", "capital"})) == {}  # a vowel beside a vowel: two words


def test_a_label_s_pronoun_and_a_pasted_decline():
    assert restated("Twilio Communications revenue: how much did it grow sequentially from Q3 to Q4 2023?") == \
        "What was Twilio Communications revenue growth sequentially from Q3 to Q4 2023?"
    assert restated("For AES, how much did it grow in percent in 2022?") == "For AES, What was it growth in 2022?"
    assert restated("Intel DCAI revenue Q1'23 vs Q1'22, % decline? one decimal") == \
        "What was the percent change in Intel DCAI revenue from Q1'22 to Q1'23? one decimal"
    plan = read_plan("Intel DCAI revenue Q1'23 vs Q1'22, % decline? one decimal")
    assert plan is not None and plan.digits == 1


def test_a_segment_named_after_the_verb_or_owning_a_defined_margin():
    plan = read_plan("What operating margin did Meta's Family of Apps segment earn in Q3 2024? Work it out as segment "
                     "operating income over segment revenue, to one decimal.")
    assert plan is not None and plan.qualifier.words == {"famil", "apps"}, plan
    plan = read_plan("What was Mobileye's operating margin in Intel's fourth quarter of 2022 (segment operating income "
                     "over segment revenue)?")
    assert plan is not None and plan.name.lower() == "operating margin" and plan.qualifier.owner == {"mobiley"}, plan


def test_the_document_said_first_and_a_period_said_twice():
    question = ("According to Meta's Q1 2024 earnings presentation, how many daily active people (DAP) did the Family of "
                "apps have in Q1'24, in billions?")
    assert item_phrase(question) == "daily active people DAP"
    assert summed_quarter_periods("Add up Meta's free cash flow for each quarter of 2024. What's the total?") == tuple(
        Period("quarter", "", 2024, 3, q) for q in range(1, 5))
    assert summed_quarter_periods("What was free cash flow in each quarter of 2024?") == ()  # no sum asked


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "round19-abstentions", FILES,
                         f"ir-dev releases and decks not found under {IR}")


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", [
    ("w44-002", "'how much cash went out for dividends and dividend equivalents ... according to the cash flow statement': 1,263"),
    ("w44-003", "'meta buybacks first 9 months of 2024 - how much cash spent repurchasing class A stock?': 30,125"),
    ("w44-026", "'what does the cash flow statement show for repurchases of common stock in the quarter?': 242"),
    ("w44-028", "'how much did ebay's product developement expense go up year over year in Q2 2023, in %?': 13.95%"),
    ("w44-041", "'Twilio Communications revenue: how much did it grow sequentially from Q3 to Q4 2023?': 4.27%"),
    ("w44-038", "'Intel DCAI revenue Q1'23 vs Q1'22, % decline? one decimal': -38.8%"),
    ("w44-005", "'What operating margin did Meta's Family of Apps segment earn in Q3 2024?': 54.0%"),
    ("w44-039", "'Mobileye's operating margin ... (segment operating income over segment revenue)': 37.2%"),
    ("w44-007", "'According to Meta's Q1 2024 earnings presentation, how many daily active people (DAP) ...': 3.24"),
    ("w44-010", "'what was Europe's year-over-year revenue growth in Q4'24?': Europe's row, 21.8%, never total revenue"),
    ("w44-014", "'Add up Meta's free cash flow for each quarter of 2024': 52,103"),
])
def test_round_19_abstentions_are_answered(engine, qid, cls):
    outcome, answer = judged_blind(engine, GOLDS[qid])
    assert outcome == "correct", f"{cls}: {answer.answer[:300]}"


def test_two_lines_of_one_period_worked_out():
    assert restated("By how much did advertising revenue exceed other revenue in Q3 2024, in millions?") == \
        "What was advertising revenue minus other revenue in Q3 2024, in millions?"
    assert restated("What was the difference between income from operations and net income in Q3 2024?") == \
        "What was income from operations minus net income in Q3 2024?"
    assert restated("What percentage of revenue did Meta spend on research and development in Q3 2024?") == \
        "What was research and development as a percentage of revenue in Q3 2024?"
    for kept in ("What was the difference between GAAP and non-GAAP net income in Q3 2024?",  # one line's two bases
                 "What was the difference between Q1 and Q2 revenue?", "how much did revenue exceed expectations?"):
        assert restated(kept) == kept


@pytest.mark.corpus
def test_an_excess_is_the_difference_never_the_first_line(engine):
    answer = engine.answer("By how much did advertising revenue exceed other revenue in Q3 2024, in millions?",
                           docs=["META_2024Q3_RELEASE.pdf"], mode="deterministic")
    assert answer.calculation is not None and answer.calculation.result == pytest.approx(39_451e6), answer.answer[:300]
    answer = engine.answer("What was the difference between income from operations and net income in Q3 2024?",
                           docs=["META_2024Q3_RELEASE.pdf"], mode="deterministic")
    assert "Calculation: 17,350 - 15,688 = 1,662 million." in answer.answer, answer.answer[:300]
    answer = engine.answer("What percentage of revenue did Meta spend on research and development in Q3 2024?",
                           docs=["META_2024Q3_RELEASE.pdf"], mode="deterministic")
    assert answer.calculation is not None and round(answer.calculation.result, 1) == 27.5, answer.answer[:300]


def test_a_list_of_lines_is_no_one_row():
    from vera_core.answer.figures.row_labels import _listed_on
    from vera_core.questions.row_asks import label_in_question
    question = "How much were cash, cash equivalents, and marketable securities at September 30, 2024?"
    assert _listed_on(label_in_question(question, "Cash and cash equivalents"))
    assert _listed_on(label_in_question(question, "Marketable securities"))
    assert not _listed_on(label_in_question("How much were marketable securities at September 30, 2024?",
                                            "Marketable securities"))
    assert not _listed_on(label_in_question("What was property, plant and equipment, net at year end?",
                                            "Property, plant and equipment, net"))


@pytest.mark.corpus
def test_cash_equivalents_and_marketable_securities_is_their_sum(engine):
    for question in ("How much were cash, cash equivalents, and marketable securities at September 30, 2024?",
                     "At the end of September 2024, how much cash, cash equivalents and marketable securities did the "
                     "company hold?"):
        answer = engine.answer(question, docs=["META_2024Q3_RELEASE.pdf"], mode="deterministic")
        stated = [f.printed for f in answer.figures]
        assert not {"43,852", "$43,852", "27,048"} & set(stated), (question, answer.answer[:300])


@pytest.mark.corpus
def test_a_metric_without_a_period_is_of_the_quarter_the_release_reports(engine):
    answer = engine.answer("How much did Client Computing Group revenue change compared with the same quarter a year "
                           "earlier, in percent?", docs=["INTC_2023Q1_RELEASE.pdf"], mode="deterministic")
    assert answer.calculation is not None and round(answer.calculation.result, 1) == -38.1, answer.answer[:300]
    assert [o.printed for o in answer.calculation.operands] == ["5,767", "9,322"]


def test_a_guided_range_is_read_from_its_sentence_for_the_period_asked():
    from vera_core.answer.figures.guidance_range import _period_named, asks_guided_range
    assert asks_guided_range("What was the low end of Salesforce's Q2 FY24 revenue guidance?")
    assert not asks_guided_range("What was revenue in Q2 FY24?")
    q2 = Period("quarter", "", 2024, 3, 2)
    assert _period_named("Initiates Second Quarter FY24 Revenue Guidance of ", q2, None) == "Q2 FY24"
    assert _period_named("Reiterates Full Year FY24 Revenue Guidance of ", q2, None) == ""
    assert _period_named("Reiterates Full Year FY24 Revenue Guidance of ", Period("year", "", 2024), None) == "full year FY24"


@pytest.mark.corpus
def test_salesforce_s_revenue_guidance(engine):
    answer = engine.answer("What range did Salesforce give for full-year fiscal 2024 revenue in its guidance?",
                           docs=["CRM_2024Q1_RELEASE.pdf"], mode="deterministic")
    assert [f.printed for f in answer.figures] == ["$34.5 Billion", "$34.7 Billion"], answer.answer[:300]
    answer = engine.answer("What was the low end of Salesforce's Q2 FY24 revenue guidance?", docs=["CRM_2024Q1_RELEASE.pdf"],
                           mode="deterministic")
    assert [f.printed for f in answer.figures] == ["$8.51 Billion"], answer.answer[:300]
