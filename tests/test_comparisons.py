"""Yes/no questions that hold a figure against a yardstick or against another figure (issue 25): "is
debt-to-equity above 2x?", "was operating margin at least 10% in every year ...?", "was capex larger than
depreciation?", "could it cover its current liabilities with its current assets?". The verdict is VERA's
comparison of cited figures; a yardstick in another unit than the measure's is never compared."""

from __future__ import annotations

import pytest

from tests.test_metrics import statement
from vera_core.answer.figures.metric_answer import metric_evidence
from vera_core.answer.strategies.verdict import _judged
from vera_core.questions.comparisons import read_comparison
from vera_core.questions.verdict import read_verdict

BALANCE = {"Total current assets": (49_616, 40_917), "Total current liabilities": (28_748, 26_709),
           "Total liabilities": (43_009, 36_440), "Total stockholders' equity": (62_634, 44_704)}
CASH = {"Depreciation, amortization and impairment": (4_667, 3_747),
        "Purchases of property and equipment": (-8_898, -7_158)}
INCOME = {"Total revenues": (96_773, 81_462), "Income from operations": (8_891, 13_656)}


def verdict(question: str, **tables):
    made = [statement(f"t{i}", kind, rows) for i, (kind, rows) in enumerate(tables.items(), 1)]
    request = read_verdict(question)
    assert request is not None, question
    ev = metric_evidence(request.plan, {"doc": [g for g, _ in made]}, {c.chunk_id: c for _, c in made}, {},
                         {"doc": "Acme 10-K"})
    assert not ev.missing, ev.missing
    return request, _judged(request, ev.calculation)


@pytest.mark.parametrize("question, kind, above, measure, other, threshold, unit", [
    ("Is leverage high at the end of 2022 (debt-to-equity above 2x)?", "threshold", True, "debt-to-equity", "", 2.0, "ratio"),
    ("Was operating margin at least 10% in FY2023?", "threshold", True, "operating margin", "", 10.0, "percent"),
    ("Is the current ratio below 1.0 as of December 31, 2022?", "threshold", False, "current ratio", "", 1.0, ""),
    ("Was capex larger than depreciation in 2023?", "pair", True, "capex", "depreciation", None, ""),
    ("Did capital expenditures exceed depreciation, amortization and impairment in fiscal 2023?", "pair", True,
     "capital expenditures", "depreciation, amortization and impairment", None, ""),
    ("Could it cover its current liabilities with its current assets at year-end 2023?", "pair", True,
     "current assets", "current liabilities", None, ""),
    ("Were current assets enough to cover current liabilities at the end of 2022?", "pair", True,
     "current assets", "current liabilities", None, ""),
])
def test_the_comparison_is_read_with_its_sides_and_yardstick(question, kind, above, measure, other, threshold, unit):
    clause = question if not question.lower().startswith("could") else question[len("Could "):]
    found = read_comparison(question) or read_comparison(clause)
    assert found is not None
    assert (found.kind, found.above, found.measure, found.other, found.threshold, found.unit) == \
        (kind, above, measure, other, threshold, unit)


@pytest.mark.parametrize("question", ["Is the business capital-intensive?", "Did revenue rise each year from 2020 to 2022?",
                                      "Was net income higher in 2024 than in 2023?", "Is it above 2x?"])
def test_a_judgement_without_a_yardstick_or_a_trend_is_not_a_comparison(question):
    assert read_comparison(question) is None


def test_a_ratio_against_its_yardstick():
    request, (value, lead) = verdict("Is leverage high at the end of FY2024 (debt-to-equity above 2x)?", balance=BALANCE)
    assert request.kind == "threshold" and value == "no"
    assert "0.69" in lead and "above 2x" in lead
    _, (value, _) = verdict("Is the current ratio above 1.5 at the end of FY2024?", balance=BALANCE)
    assert value == "yes"  # 49,616 / 28,748 = 1.73


def test_a_margin_against_a_percentage_every_year_names_the_year_that_fails():
    _, (value, lead) = verdict("Did operating margin stay above 10% in every year from FY2023 to FY2024?", income=INCOME)
    assert value == "no"  # 16.8% in FY2023, 9.2% in FY2024
    assert "not in FY2024" in lead and "16.8%" in lead and "9.2%" in lead


def test_one_amount_against_another_reads_both_cited_at_the_period():
    request, (value, lead) = verdict("Was capex larger than depreciation in FY2024?", cash_flow=CASH)
    assert request.kind == "pair" and value == "yes"
    assert "4,231" in lead  # 8,898 spent less 4,667
    _, (value, _) = verdict("Could it cover its current liabilities with its current assets at the end of FY2024?",
                            balance=BALANCE)
    assert value == "yes"


def test_a_yardstick_in_another_unit_withholds_the_verdict():
    request = read_verdict("Was the operating margin above 2x in FY2024?")
    assert request is not None and request.unclear and "2x" in request.unclear  # a percentage against a multiple
    request = read_verdict("Was revenue above 90,000 in FY2024?")
    assert request is not None and request.unclear  # no currency or scale


def test_a_quotient_against_a_bar_in_percent_is_the_quotient_in_percent():
    """'current ratio above 150%', 'expense ratio ... below 80%': an analyst's percent of a quotient (1.5x is 150%)."""
    request = read_verdict("Was the current ratio above 150% at the end of FY2024?")
    assert request is not None and not request.unclear and request.plan.unit == "percent"
    _, (value, lead) = verdict("Was the current ratio above 150% at the end of FY2024?", balance=BALANCE)
    assert value == "yes" and "172.6%" in lead  # 49,616 / 28,748


@pytest.mark.parametrize("question, kind, measure, other, threshold", [
    ("Would you call AES capital-intensive in 2021? Use capex above 10% of total revenue as the test.", "threshold",
     "capex as a % of total revenue", "", 10.0),
    ("Did eBay spend more on property and equipment than it booked in depreciation and amortization in 2021?", "pair",
     "purchases of property and equipment", "depreciation and amortization", None),
    ("Looking at the FY2022 balance sheet, could it cover its current liabilities with its current assets?", "pair",
     "current assets", "current liabilities", None),
])
def test_a_judgement_with_its_test_stated_is_read_as_the_comparison(question, kind, measure, other, threshold):
    request = read_verdict(question)
    assert request is not None and request.kind == kind
    assert (request.comparison.measure, request.comparison.other, request.comparison.threshold) == (measure, other, threshold)


def test_a_share_of_a_whole_against_a_percentage():
    income = {"Total revenues": (96_773, 81_462)}
    cash = {"Purchases of property and equipment": (-8_898, -7_158)}
    _, (value, lead) = verdict("Would you call Acme capital-intensive in FY2024? Use capex above 10% of total revenue as "
                               "the test.", income=income, cash_flow=cash)
    assert value == "no" and "9.2%" in lead  # 8,898 / 96,773


def test_growth_over_year_is_a_trend_not_a_comparison_of_two_measures():
    request = read_verdict("Did Acme's revenue grow year over year in the three months ended July 1, 2023?")
    assert request is not None and request.kind == "compare"


@pytest.mark.parametrize("question, among", [
    ("Among FedEx's three transportation segments (Express, Ground, Freight), which grew revenue the most in "
     "percentage terms in fiscal 2023?", ("Express", "Ground", "Freight")),
    ("Which segment grew its franchised revenues fastest in 2022: U.S., International Operated Markets, or "
     "International Developmental Licensed Markets & Corporate?",
     ("U.S.", "International Operated Markets", "International Developmental Licensed Markets & Corporate")),
])
def test_which_segment_grew_fastest_among_the_ones_listed(question, among):
    request = read_verdict(question)
    assert request.kind == "which" and request.growth and request.among == among


def test_which_segment_grew_fastest_without_a_list_is_left_to_the_text():
    assert read_verdict("Which segment grew fastest in 2022?") is None
