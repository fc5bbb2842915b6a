"""Issue 25, ninth part: metrics and verdicts in the forms analysts paste and say, from the round-8 filing questions
(data/blind/r8-filings-holdout.jsonl, dev since their one held-back measurement): 'rev', a definition with an aside
and a unit after it, a share that 'went to' a line, one measure at two periods said as a pair, and 'better' of a
margin."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, blind_golds, searchable_pdfs
from vera_core.cli.eval_judge import judge
from vera_core.query import QueryEngine
from vera_core.questions.expression import BinOp, Item
from vera_core.questions.metric import read_plan
from vera_core.questions.verdict import read_verdict
from vera_core.retrieve.router import read_question


def test_rev_is_revenue_in_a_pasted_cagr():
    """'INTC rev CAGR FY2018-FY2020 (2 yrs)?' had gone to semantic search: 'rev' is an analyst's 'revenue'."""
    plan = read_plan("INTC rev CAGR FY2018-FY2020 (2 yrs)?")
    assert plan is not None and plan.compound and "revenue" in plan.definition
    assert [p.year for p in plan.periods] == [2018, 2020]
    assert read_question("INTC rev CAGR FY2018-FY2020 (2 yrs)?").intent.type == "metric"
    assert read_plan("Rev. 2 of the policy: what changed?") is None  # a revision, not revenue


def test_a_definition_with_an_aside_and_a_unit_after_it():
    """'AAPL FY19 FCF = CFO minus capex (payments for PP&E), $mm?': the aside says what capex is and '$mm' the unit
    asked; neither is an operand (the definition had not parsed, and the question went to semantic search)."""
    plan = read_plan("AAPL FY19 FCF = CFO minus capex (payments for PP&E), $mm?")
    assert plan is not None and plan.source == "question"
    assert plan.tree == BinOp("-", Item("CFO"), Item("capex"))


def test_a_share_that_went_to_a_line():
    """'What share of Intel's 2020 net revenue went to research and development?' is R&D over net revenue."""
    plan = read_plan("What share of Intel's 2020 net revenue went to research and development? Percentage to one "
                     "decimal, please.")
    assert plan is not None and plan.unit == "percent"
    assert isinstance(plan.tree, BinOp) and plan.tree.op == "/"
    assert "research and development" in plan.tree.left.phrase and "revenue" in plan.tree.right.phrase


@pytest.mark.parametrize(("question", "test", "years"), [
    ("Was Oracle's FY2021 operating margin higher than its FY2020 operating margin?", "up", [2020, 2021]),
    ("Was eBay's Q2 2023 operating margin higher than in Q2 2022?", "up", [2022, 2023]),
    ("Was eBay's Q2 2022 operating margin higher than in Q2 2023?", "down", [2022, 2023]),
    ("was oracle's operating margin better in fiscal 2021 than fiscal 2020?", "up", [2020, 2021]),
])
def test_one_measure_at_two_periods_is_its_move(question, test, years):
    """A pair whose other side is the same measure at another period ('higher than in Q2 2022', 'than its FY2020
    operating margin') asks how the measure moved between them, not measure minus 'in Q2 2022'; 'better' of a margin is
    'higher'."""
    verdict = read_verdict(question)
    assert verdict is not None and (verdict.kind, verdict.test) == ("compare", test)
    assert verdict.plan.definition == "operating income / revenue"
    assert [p.year for p in verdict.plan.periods] == years


@pytest.mark.parametrize("question", [
    "Was Apple's 2022 revenue higher than Microsoft's 2022 revenue?",
    "Was 3M's 2022 capex higher than its 2022 D&A?",
])
def test_two_measures_stay_a_pair(question):
    """Two measures, or two companies' measures, in one period are still held against each other."""
    assert read_verdict(question).kind == "pair"


def test_better_leverage_is_not_read_as_higher():
    """A better leverage ratio is a lower one: 'better' is read as 'higher' only of a measure of which more is better."""
    verdict = read_verdict("Was Oracle's debt to equity better in 2021 than 2020?")
    assert verdict is None or verdict.test not in ("up", "above")


CORPUS = ROOT.parent / "shared" / "corpus" / "financebench-dev3"
ROUND8 = blind_golds("r8-filings-holdout")


def _searchable(tmp_path_factory, name: str) -> QueryEngine:
    """An engine over one filing of financebench-dev3 made searchable (skipped when the corpus is absent)."""
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"{name} not found under {CORPUS}")
    return QueryEngine(searchable_pdfs(tmp_path_factory, f"round9-{path.stem.lower()}", [path]), llm=None)


@pytest.mark.corpus
def test_a_segment_owned_by_a_name_with_an_ampersand(tmp_path_factory):
    """'What operating loss did Safe & Green's Development segment post for 2022?': the owner's possessive ends at
    'Green's', so the unit is 'Development' (the row had been refused as 'not the development s line')."""
    engine = _searchable(tmp_path_factory, "SAFEANDGREEN_2022_10K.pdf")
    gold = ROUND8["w22-033"]
    answer = engine.answer(gold["question"], docs=[gold["doc_name"] + ".pdf"], mode="deterministic")
    assert judge(gold, answer) == "correct", answer.answer[:300]


@pytest.mark.corpus
def test_a_ticker_on_a_cover_behind_a_letter_to_shareholders(tmp_path_factory):
    """'SNX 3-yr avg operating margin FY2020-FY2022': TD SYNNEX's annual report opens with its CEO's letter and prints
    the form's cover, with 'SNX' as its trading symbol, on page 5; the ticker is the company, not a line's qualifier,
    and 'avg' is an average (2.09%)."""
    engine = _searchable(tmp_path_factory, "TDSYNNEX_2022_10K.pdf")
    gold = ROUND8["w22-052"]
    answer = engine.answer(gold["question"], docs=[gold["doc_name"] + ".pdf"], mode="deterministic")
    assert judge(gold, answer) == "correct", answer.answer[:300]


@pytest.mark.parametrize(("question", "test", "bar"), [
    ("Did Westwater cut its total operating expenses by more than 30% in 2022 compared with 2021?", "below", -30.0),
    ("Did Westwater's total operating expenses fall by more than 30% in 2022 compared with 2021?", "below", -30.0),
    ("Did revenue grow more than 10% in 2022?", "above", 10.0),
])
def test_a_movement_held_against_a_percent(question, test, bar):
    """'cut ... by more than 30%' is the item's growth from the year before below -30%; 'grow more than 10%' above 10%
    (each had been read as an amount against a percent, and withheld)."""
    verdict = read_verdict(question)
    assert (verdict.kind, verdict.test, verdict.comparison.threshold) == ("threshold", test, bar)
    assert verdict.plan.unit == "percent"
    # NOTE: a growth read between the two years, or (a growth metric read at each year) at the later year only: read at
    # both, the earlier year's own growth decides nothing asked (issue 25, eleventh part: Apple's Greater China)
    expected = [2022] if verdict.plan.over == "at" else [2021, 2022]
    assert [p.year for p in verdict.plan.periods] == expected, verdict.plan


def test_profitable_and_cover_in_a_readers_words():
    """'Was Incyte profitable in every year ...' is its net income's sign each year; 'In 2022, did its operating income
    cover its interest expense?' holds operating income against interest expense."""
    profitable = read_verdict("Was Incyte profitable in every year from 2020 through 2022?")
    assert (profitable.kind, profitable.test, profitable.plan.definition) == ("sign", "positive", "net income")
    assert profitable.every and [p.year for p in profitable.plan.periods] == [2020, 2021, 2022]
    cover = read_verdict("I'm stress-testing Wheeler Real Estate Investment Trust. In 2022, did its operating income "
                         "cover its interest expense?")
    assert cover.kind == "pair" and cover.comparison.inclusive
    assert (cover.comparison.measure, cover.comparison.other) == ("operating income", "interest expense")


@pytest.mark.corpus
def test_a_cut_by_more_than_a_percent_on_the_filing(tmp_path_factory):
    """Westwater's total operating expenses fell from 18,225 to 12,125 thousand (-33.5%): 'cut by more than 30%' is
    yes (a cut's bar read as a rise would have said no: the worst kind of answer)."""
    engine = _searchable(tmp_path_factory, "WESTWATER_2022_10K.pdf")
    gold = ROUND8["w22-041"]
    answer = engine.answer(gold["question"], docs=[gold["doc_name"] + ".pdf"], mode="deterministic")
    assert judge(gold, answer) == "correct", answer.answer[:300]


def test_cash_from_operations_abbreviated_and_a_persona_before_a_colon():
    """'CFO' in a formula is cash from operations (never 'the CFO', a person); 'We're looking at a small-cap credit:'
    is who asks, not the name a definition after the colon defines; a persona that names the metric keeps it ('As an
    equity analyst I want Alphabet's 2023 ROE: net income divided by ...')."""
    from vera_core.finance.line_items import concepts_in

    assert [c.name for c in concepts_in("CFO")] == ["operating cash flow"]
    assert concepts_in("What did the CFO say about margins?") == []
    plan = read_plan("We're looking at a small-cap credit: what was Safe & Green Holdings' (formerly SG Blocks) net "
                     "working capital at December 31, 2022, meaning total current assets minus total current liabilities?")
    assert plan.definition == "total current assets minus total current liabilities"
    assert [p.end for p in plan.periods] == ["2022-12-31"]
    roe = read_plan("As an equity analyst I want Alphabet's 2023 ROE: net income divided by the average of total "
                    "stockholders' equity at the end of 2022 and 2023. Percent, one decimal.")
    assert "average" in roe.definition


def test_growth_between_quarters_of_an_unknown_item_is_not_read_as_years():
    """'how much did eBay's total GMV change from Q4 2022 to Q1 2023, in percent' names quarters: the growth of the
    item between the two quarters, never between two years."""
    plan = read_plan("Sequentially, how much did eBay's total GMV change from Q4 2022 to Q1 2023, in percent (two "
                     "decimals)?")
    assert plan.name == "total GMV growth" and plan.over == "growth" and plan.digits == 2
    assert [(p.kind, p.year, p.quarter) for p in plan.periods] == [("quarter", 2022, 4), ("quarter", 2023, 1)]
    sequential = read_plan("What was the sequential % change in full time equivalent headcount at the end of Q1 FY24?")
    assert sequential.name == "full time equivalent headcount growth"
    assert [(p.year, p.quarter) for p in sequential.periods] == [(2023, 4), (2024, 1)]


def test_round9_held_back_wrong_figures_read_apart():
    """Round 9's held-back filings (w24), measured once: a part the question leaves out is not asked ('long-term debt
    (excluding the current portion)'), a market named after 'get out of' and a region before 'generate' qualify the
    item (both had been answered with the company's total), and 'grow faster than' is withheld, not answered with one
    item's movement."""
    from vera_core.questions.figure import read_request

    debt = read_request("Per the balance sheet, what was 3M's long-term debt (excluding the current portion) at "
                        "December 31, 2022, in $ millions?")
    assert not {"current", "portion"} & debt.question_terms
    china = read_question("how much revenue did McDonald's get out of China in 2022?").request
    assert "china" in china.qualifier.words
    region = read_question("I'm reviewing BXP's regional exposure. What net operating income did the New York region "
                           "generate in 2015 according to the segment note?").request
    assert {"new", "york"} <= region.qualifier.words
    faster = read_verdict("Looking at the statements of financial condition, did BCB's total deposits grow faster than "
                          "its net loans receivable during 2022?")
    assert faster is not None and faster.unclear


@pytest.mark.corpus
def test_long_term_debt_excluding_the_current_portion(tmp_path_factory):
    """3M's balance sheet: 'long-term debt (excluding the current portion)' is 14,001, not 'Short-term borrowings and
    current portion of long-term debt' (1,938, which had been stated)."""
    path = ROOT.parent / "shared" / "corpus" / "financebench-dev" / "3M_2022_10K.pdf"
    if not path.is_file():
        pytest.skip(f"{path.name} not found")
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "round9-3m-2022", [path]), llm=None)
    gold = blind_golds("r9-filings-holdout")["w24-001"]
    answer = engine.answer(gold["question"], docs=[path.name], mode="deterministic")
    assert judge(gold, answer) == "correct", answer.answer[:300]


def test_a_margin_that_moved_between_two_years():
    """'By how many percentage points did FedEx's consolidated operating margin move between fiscal 2022 and fiscal
    2023?' asks the margin's move over both years (it had stated fiscal 2023's margin, 5.45%, for -1.23 points)."""
    plan = read_plan("By how many percentage points did FedEx's consolidated operating margin move between fiscal 2022 "
                     "and fiscal 2023? Two decimals, negative if it fell.")
    assert plan.direction and [p.year for p in plan.periods] == [2022, 2023]
