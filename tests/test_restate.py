"""Analysts' ways of asking for a growth or a share are read as the metric they ask (issue 25): "how fast
did X grow", "by what percentage did X decline", "what share of X came from Y", "by how much did X change from FY2022 to
FY2023" (a change between the years named); an amount asked without two years ("by how much did the facility
increase?") is left to the reader of amounts the text states."""

from __future__ import annotations

import pytest

from tests.test_metrics import evidence, statement
from tests.test_unseen_questions import INCOME
from vera_core.questions.expression import render
from vera_core.questions.metric import read_plan
from vera_core.questions.restate import restated


@pytest.mark.parametrize("question, expected", [
    ("How fast did revenue grow in 2022?", "What was revenue growth in 2022?"),
    ("How quickly did Weis Markets' net sales grow in fiscal 2022 (%, 1dp)?",
     "What was Weis Markets' net sales growth in fiscal 2022 (%, 1dp)?"),
    ("By what percentage did net income decline in 2023?", "What was net income growth in 2023?"),
    ("By how much did total revenues increase from 2022 to 2023, in percent?",
     "What was total revenues growth from 2022 to 2023?"),
    ("I'm a credit analyst. How fast did net sales grow in FY2019?", "I'm a credit analyst. What was net sales growth in FY2019?"),
    ("What was the percentage increase in operating income from 2021 to 2022?",
     "What was the operating income growth from 2021 to 2022?"),
    ("What share of total revenues came from automotive sales in 2023?",
     "What is automotive sales as a % of total revenues in 2023?"),
    ("Roughly what share of revenue did the Americas account for in FY2022?",
     "What is Americas as a % of revenue in FY2022?"),
    ("What percentage of net sales was R&D in 2023?", "What is R&D as a % of net sales in 2023?"),
    ("What was Data Center's share of total revenue in fiscal 2024?",
     "What is Data Center as a % of total revenue in fiscal 2024?"),
    ("How much did operating expenses increase from 2022 to 2023 (in $ millions)?",
     "What was the change in operating expenses from 2022 to 2023 (in $ millions)?"),
    ("By how much did FedEx's operating income change from FY2022 to FY2023?",
     "What was the change in operating income from FY2022 to FY2023?"),
])
def test_a_growth_or_share_in_analysts_words_is_restated_as_the_metric(question, expected):
    assert restated(question) == expected


@pytest.mark.parametrize("question", [
    "How much did the revolving credit facility increase (in $ millions)?",
    "By how much did the revolving credit facility increase?",
    "What was total revenue in 2023?",
    "What share repurchases did the company make in 2023?",
])
def test_an_amount_or_another_question_is_left_as_asked(question):
    assert restated(question) == question


def test_how_fast_revenue_grew_is_computed_from_both_years_cited():
    income = statement("t1", "income", INCOME)
    plan, ev = evidence("How fast did total revenues grow in FY2024? Round to one decimal place.", income)
    assert plan is not None and plan.unit == "percent"
    assert ev.calculation.rounded == f"{(96_773 / 81_462 - 1) * 100:.1f}%"
    assert {o.value for o in ev.calculation.operands} == {96_773e6, 81_462e6}


def test_a_decline_asked_by_percentage_is_a_negative_growth():
    income = statement("t1", "income", {"Total revenues": (90_000, 100_000)})
    _, ev = evidence("By what percentage did total revenues decline in FY2024?", income)
    assert ev.calculation.rounded.startswith("-10.0")


def test_a_share_asked_in_words_divides_the_part_by_the_whole():
    income = statement("t1", "income", INCOME)
    plan, ev = evidence("What share of total revenues came from automotive sales in FY2024?", income)
    assert render(plan.tree).lower() == "automotive sales / total revenues"
    assert ev.calculation.rounded == f"{78_509 / 96_773 * 100:.1f}%"
    assert read_plan("What share repurchases did the company make in 2023?") is None


@pytest.mark.parametrize(("question", "want"), [
    ("meta capex roughly doubled in 1Q25? whats the exact yoy % from the deck",
     "What was the meta capex growth in 1Q25 from the deck?"),
    ("eBay GMV was down in 2Q23? what is the y/y change", "What was the eBay GMV growth in 2Q23?"),
])
def test_a_claim_then_the_ask_of_its_growth_is_asked_as_one_question(question, want):
    assert restated(question) == want


def test_a_claim_then_another_ask_is_left_as_asked():
    assert restated("Capex doubled in 2024? So what did management say about it?") == \
        "Capex doubled in 2024? So what did management say about it?"


def test_an_instruction_naming_the_item_and_documents_before_the_ask():
    """"Taking net revenue from Intel's Q4 2022 release and from its Q1 2023 release, what was ...": its "from" was read
    as a unit of the item ("q4 tak"), so nothing was found."""
    asked = restated("Taking net revenue from Intel's Q4 2022 release and from its Q1 2023 release, what was the "
                     "quarter-over-quarter change in revenue, in percent?")
    assert asked == ("what was the quarter-over-quarter change in net revenue, in percent (Intel's Q4 2022 release "
                     "and its Q1 2023 release)?")
    plan = read_plan(asked)
    assert plan.tree.phrase == "net revenue" and not plan.qualifier.words and len(plan.periods) == 2


def test_up_or_down_and_by_what_percent_is_a_growth_not_a_verdict():
    from vera_core.questions.verdict import read_verdict

    question = "Did Salesforce's marketing and sales expense go up or down from Q1 FY24 to Q2 FY24, and by what percent?"
    assert read_verdict(question) is None
    plan = read_plan(restated(question))
    assert plan.over == "growth" and plan.tree.phrase == "marketing and sales expense" and len(plan.periods) == 2
    assert read_verdict("Did Salesforce's marketing and sales expense go up from Q1 FY24 to Q2 FY24?") is not None


def test_a_segment_named_qualifies_the_operands_of_the_questions_own_definition():
    """"Meta's Family of Apps segment ... (segment operating income over segment revenue)": the totals were read (42.7%
    stated for 54.0%). The definition says the library's own formula again, so it is the library's operating margin, of
    the segment named."""
    plan = read_plan("What operating margin did Meta's Family of Apps segment earn in Q3 2024 (segment operating income "
                     "over segment revenue)?")
    assert plan.metric is not None and plan.metric.key == "operating_margin" and {"famil", "apps"} <= plan.qualifier.words
    assert not read_plan("What was the operating margin in 2022 (operating income over net sales)?").qualifier.words


def test_a_non_gaap_measure_pasted_from_notes_before_a_comma_is_a_figure_question():
    from vera_core.questions.figure import is_figure_question

    assert is_figure_question("Twilio Communications segment non-GAAP op income, Q4 2023")


def test_an_item_whose_words_ask_money_is_never_read_from_a_percent_column():
    """Salesforce prints its income statement in dollars and again as a share of revenues: "marketing and sales
    expense" grew -5.3% from 38 to 36 (percent of revenues) where the dollars give -1.3%."""
    import dataclasses

    shares, share_chunk = statement("t1", "income", {"Marketing and sales": (36, 38)}, scale=1.0)
    shares = dataclasses.replace(shares, cells=tuple(dataclasses.replace(c, unit="%") if c.value is not None else c
                                                     for c in shares.cells))
    dollars = statement("t2", "income", {"Marketing and sales": (3_113, 3_154)})
    plan, ev = evidence("What was the percentage change in marketing and sales expense from 2023 to 2024?",
                        (shares, share_chunk), dollars)
    assert ev.calculation is not None and ev.calculation.rounded == "-1.3%"


def test_a_quarters_change_asked_against_the_quarter_before():
    """"grow sequentially from Q3 to Q4 2023" read the year-ago quarter (not printed) for the quarter before."""
    from vera_core.questions.expression import Item, render

    for question in ("How much did Twilio's Communications revenue grow sequentially from Q3 to Q4 2023? Give a "
                     "percentage to one decimal.", "What was Twilio's revenue growth from Q3 2023 to Q4 2023?"):
        plan = read_plan(restated(question))
        priors = [n for n in (plan.tree.left.right, plan.tree.right) if isinstance(n, Item)]
        assert priors and all(n.period is not None and (n.period.year, n.period.quarter) == (2023, 3) for n in priors), \
            render(plan.tree)
    assert restated("Meta's FCF in Q1 2025 vs the prior quarter - what's the % change?") == \
        "What was Meta's FCF growth quarter over quarter in Q1 2025?"
    assert restated("eBay GMV in Q2 2023 versus the year-ago quarter: what is the percent change?") == \
        "What was eBay GMV growth year over year in Q2 2023?"


def test_sequential_says_which_quarters_and_qualifies_no_item():
    """"Meta's sequential (quarter-over-quarter) total revenue growth": "sequential" was read as a word the row must
    carry, and no revenue row does."""
    plan = read_plan("what was Meta's sequential (quarter-over-quarter) total revenue growth in Q2 2025?")
    assert plan is not None and not plan.qualifier.words
