"""What a question asks of a row the filing prints under its own label (`questions.row_asks`): the label found
word for word in the asking sentence, the periods, and whether the figure, its growth, change or mean is asked.
Questions from the blind writers' sets (data/blind), in the shapes the router's frames did not read."""

from __future__ import annotations

import pytest

from vera_core.questions.figure import FigureRequest
from vera_core.questions.metric import MetricPlan
from vera_core.questions.row_asks import asked_of_row, asks_amount, label_in_question
from vera_core.records import Period


def _asked(question: str, label: str):
    named = label_in_question(question, label)
    assert named is not None, f"{label!r} not found in {question!r}"
    return asked_of_row(question, named)


def test_a_figure_asked_in_a_frame_the_router_does_not_read():
    request = _asked("I'm reviewing secured debt at Boston Properties. What mortgage notes payable did the company show "
                     "on its balance sheet at December 31, 2015? ($ millions, one decimal)", "Mortgage notes payable")
    assert isinstance(request, FigureRequest)
    assert request.periods == (Period("instant", "2015-12-31", 2015),)
    assert request.scale == 1e6 and request.statement == "balance"
    assert not request.qualifier  # the persona's "secured debt" is context, not a word of the item


def test_growth_between_two_years_of_a_row():
    plan = _asked("Per the consolidated statements of operations, how fast did Boston Properties' base rent grow in "
                  "2015 vs 2014? Percent, one decimal.", "Base rent")
    assert isinstance(plan, MetricPlan) and plan.over == "growth" and plan.unit == "percent"
    assert [p.year for p in plan.periods] == [2014, 2015]


def test_a_compound_growth_and_a_mean_over_a_range():
    cagr = _asked("What was the compound annual growth rate of 3M's Asia Pacific net sales from 2016 to 2018 (percent, "
                  "two decimals)?", "Asia Pacific")
    assert isinstance(cagr, MetricPlan) and cagr.compound and [p.year for p in cagr.periods] == [2016, 2018]
    mean = _asked("What did PG&E Corporation spend on capex on average per year over 2019-2021? ($ millions, one "
                  "decimal)", "Capital expenditures")  # capex is the analyst's word for the row
    assert isinstance(mean, MetricPlan) and mean.over == "mean" and [p.year for p in mean.periods] == [2019, 2020, 2021]


def test_a_qualifier_before_the_label_is_kept():
    request = _asked("What was Mobileye's revenue in Intel's 2020 segment numbers? ($M)", "Revenue")
    assert isinstance(request, FigureRequest) and any(w.startswith("mobiley") for w in request.qualifier.owner)


@pytest.mark.parametrize("question", [
    "What drove the change in base rent in 2015?",
    "Did base rent grow in 2015?",
    "What is Tesla's quick ratio at December 31, 2023, defined as (total current assets minus inventory) divided by "
    "total current liabilities?",
    "What share of 2022 net income went out as dividends paid?",
    "As a bond analyst I want the change in total borrowings (notes payable current + notes payable non-current) "
    "between May 31, 2020 and May 31, 2021, in $ billions.",
    "What does the filing say about base rent in 2015?",
])
def test_not_a_row_figure(question):
    assert not asks_amount(question)


def test_a_label_is_found_only_word_for_word():
    assert label_in_question("How much cash and cash equivalents did it hold in 2022?", "Cash and cash equivalents")
    assert label_in_question("How much cash did it hold in 2022?", "Cash and cash equivalents") is None
    assert label_in_question("What was net cash used in investing in 2022?", "Net cash used in financing activities") is None
