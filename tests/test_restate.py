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
