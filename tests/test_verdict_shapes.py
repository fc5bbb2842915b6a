"""Yes/no questions in two shapes analysts write that were withheld or half-answered: a bar set in a sentence of its
own for a measure defined in another (`questions.yardsticks`), and two movements asked together ("did EPS fall while
long-term debt went up?", "did revenue and net income both rise?"). Questions from the blind writers' sets."""

from __future__ import annotations

import pytest

from vera_core.questions.verdict import read_verdict


@pytest.mark.parametrize("question, measure, above, bar", [
    ("Can PayPal cover its short-term obligations as of June 30, 2023? Yardstick: current ratio (total current assets / "
     "total current liabilities) of at least 1.0.", "current ratio", True, 1.0),
    ("Short-term liquidity check on FedEx for a credit memo: at the end of fiscal 2023 (May 31, 2023), is the current "
     "ratio (total current assets / total current liabilities) comfortably above 1.0x?", "current ratio", True, 1.0),
    ("Would you call Intel a capital-intensive business based on its 2020 numbers? Use additions to property, plant and "
     "equipment as a percentage of net revenue, and treat anything above 10% as capital-intensive.",
     "additions to property, plant and equipment as a percentage of net revenue", True, 10.0),
    ("Can Wheeler REIT cover its interest bill out of operating income? Use 2022 operating income / interest expense and "
     "treat at least 1.5x as adequate coverage.", "operating income / interest expense", True, 1.5),
    ("Is Incyte's liquidity healthy at the end of 2022? Judge it on the current ratio (total current assets / total "
     "current liabilities), with 1.5x as the bar.", "current ratio", True, 1.5),
])
def test_a_bar_set_apart_from_the_yes_no_is_the_test(question, measure, above, bar):
    verdict = read_verdict(question)
    assert verdict is not None and verdict.kind == "threshold" and not verdict.unclear
    assert measure in verdict.plan.name and verdict.comparison.above is above and verdict.comparison.threshold == bar
    assert len(verdict.plan.periods) == 1


@pytest.mark.parametrize("question, first, second", [
    ("For Sonic Automotive, did diluted EPS fall in 2022 while long-term debt (the Long-Term Debt line on the balance "
     "sheet) went up?", ("down", "diluted earnings per share"), ("up", "long-term debt")),
    ("Did HCA's total debt (long-term debt plus the part due within one year) rise during 2022 while its cash and cash "
     "equivalents fell?", ("up", "debt"), ("down", "cash and cash equivalents")),
    ("Did Westwater's net loss narrow in 2022 compared with 2021, and did its cash balance fall over the year?",
     ("up", "net loss"), ("down", "cash and cash equivalents")),  # the cash balance is the cash line
    ("Did revenue and net income both rise in 2022?", ("up", "revenue"), ("up", "net income")),
])
def test_two_movements_asked_together_are_both_tested(question, first, second):
    verdict = read_verdict(question)
    assert verdict is not None and verdict.also is not None and not verdict.unclear
    assert (verdict.test, verdict.plan.name) == first or (verdict.test == first[0] and first[1] in verdict.plan.name)
    assert verdict.also.test == second[0] and second[1] in verdict.also.plan.name
    assert [p.year for p in verdict.plan.periods] == [p.year for p in verdict.also.plan.periods] == [2021, 2022]


def test_two_movements_over_one_period_twice_are_withheld():
    """Both clauses must compare two different years: 'Q3 FY2023 (12 weeks ended May 7, 2023) ... year over year' read
    as the same quarter twice would compare a figure with itself."""
    verdict = read_verdict("In Costco's Q3 FY2023 (12 weeks ended May 7, 2023), did operating income fall year over "
                           "year even though net sales grew?")
    assert verdict is not None and verdict.unclear and verdict.also is None