"""Computed metrics (issue 10): how a question becomes a formula (vera_core/metrics/question.py and
expression.py), VERA's arithmetic and rounding over cited cells (compute.py, answer.py), every metric
of the sample report's ground truth to the digit, and the dev filings' FinanceBench metrics."""

from __future__ import annotations

import json
import math
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS, SAMPLE_PDF, doc_by_name
from vera_core.finance.line_items import concepts_in
from vera_core.answer.figures.metric_answer import metric_evidence
from vera_core.answer.figures.resolve import CellResolver, MissingOperand, Operand, evaluate
from vera_core.questions.expression import Item, items, normalise, parse, render
from vera_core.questions.library import library, metric_named
from vera_core.questions.metric import read_plan
from vera_core.records import ChunkRecord, GridCell, Period, TableGrid

REPORT = SAMPLE_PDF.name
FY = {year: Period("year", "", year) for year in range(2015, 2026)}


# -- reading a question: definitions, library names, periods, rounding, units, direction ---------------

# question -> (source, library key, rendered formula, unit, periods [(kind, year)], direction, digits, scale)
PLANS = {
    # definitions the question writes
    "What is the FY2018 fixed asset turnover ratio for 3M? Fixed asset turnover ratio is defined as: FY2018 revenue "
    "/ (average PP&E between FY2017 and FY2018). Round your answer to two decimal places.":
        ("question", None, "revenue [2018] / avg(PP&E [2018])", "ratio", [("year", 2018)], False, 2, None),
    "What is the FY2019 gross margin for Acme? Gross margin is defined as: (revenue - cost of goods sold) / revenue. "
    "Round your answer to two decimal places.":
        ("question", None, "(revenue - cost of goods sold) / revenue", "percent", [("year", 2019)], False, 2, None),
    "Define operating cash flow ratio as operating cash flow divided by total current liabilities. What is the FY2021 "
    "operating cash flow ratio for Acme?":
        ("question", None, "operating cash flow / total current liabilities", "ratio", [("year", 2021)], False, None,
         None),
    "What is the FY2020 fixed asset turnover for Acme? Fixed asset turnover = revenue / average PP&E between FY2019 "
    "and FY2020.":
        ("question", None, "revenue / avg(PP&E [2020])", "ratio", [("year", 2020)], False, None, None),
    "What is the FY2020 inventory turnover for Acme? Inventory turnover is calculated as cost of sales over average "
    "inventories between FY2019 and FY2020.":
        ("question", None, "cost of sales / avg(inventories [2020])", "ratio", [("year", 2020)], False, None, None),
    "What is the FY2019 average inventory for Acme? Average inventory is defined as the average of inventories "
    "between FY2018 and FY2019. Answer in USD millions.":
        ("question", None, "avg(inventories [2019])", "amount", [("year", 2019)], False, None, 1e6),
    "What is the FY2022 EBITDA for Acme? EBITDA is defined as operating income plus depreciation and amortization "
    "[from cash flow statement]. Answer in USD millions.":
        ("question", None, "operating income + depreciation and amortization", "amount", [("year", 2022)], False,
         None, 1e6),
    "What is the FY2022 free cash flow for Acme? Free cash flow is defined as cash from operating activities minus "
    "capital expenditure. Answer in USD billions.":
        ("question", None, "cash from operating activities - capital expenditure", "amount", [("year", 2022)], False,
         None, 1e9),
    "What is the FY2022 unadjusted EBITDA less capex for PepsiCo? Define unadjusted EBITDA as unadjusted operating "
    "income + depreciation and amortization [from cash flow statement]. Answer in USD millions. Respond to the "
    "question by assuming the perspective of an investment analyst who can only use the details shown within the "
    "statement of cash flows and the income statement.":
        ("question", None, "unadjusted operating income + depreciation and amortization - capex", "amount",
         [("year", 2022)], False, None, 1e6),
    "What is the FY2022 EBITDA less capex for Acme? Define EBITDA as operating income + D&A. Answer in USD millions.":
        ("question", None, "operating income + D&A - capex", "amount", [("year", 2022)], False, None, 1e6),
    "What is the FY2021 dividend payout ratio for Acme? Dividend payout ratio is defined as cash dividends paid "
    "divided by net income. Round your answer to the nearest whole number.":
        # NOTE: a payout ratio the question defines is still the percentage the library and analysts state
        ("question", None, "cash dividends paid / net income", "percent", [("year", 2021)], False, 0, None),
    "What is the FY2021 interest coverage for Acme? Interest coverage = EBIT / interest expense. Round to one "
    "decimal place.":
        ("question", None, "EBIT / interest expense", "ratio", [("year", 2021)], False, 1, None),
    "What is Acme's FY2022 net debt? Net debt is defined as total debt minus cash and cash equivalents.":
        ("question", None, "total debt - cash and cash equivalents", "amount", [("year", 2022)], False, None, None),
    "What is Acme's FY2021 asset-light ratio? Define asset-light ratio as net PP&E divided by total assets.":
        ("question", None, "net PP&E / total assets", "ratio", [("year", 2021)], False, None, None),
    "What is the FY2022 operating cash flow ratio for Acme? Operating cash flow ratio is defined as: cash from "
    "operations [from the cash flow statement] / total current liabilities [from the balance sheet].":
        ("question", None, "cash from operations / total current liabilities", "ratio", [("year", 2022)], False,
         None, None),
    # a quotient the question defines with no unit cue is a ratio; one the library names takes its unit
    "What is the FY2022 cash conversion ratio for Acme? Cash conversion is calculated as operating cash flow "
    "divided by net income. Round your answer to two decimal places.":
        ("question", None, "operating cash flow / net income", "ratio", [("year", 2022)], False, 2, None),
    "What is the FY2022 return on assets for Acme? Return on assets is defined as net income / average total "
    "assets between FY2021 and FY2022. Answer as a percent.":
        ("question", None, "net income / avg(total assets [2022])", "percent", [("year", 2022)], False, None, None),
    # a percent formula's own "* 100" is dropped: VERA multiplies a percent by 100 once, when stating it
    "What is the FY2024 gross margin for Aurora? Gross margin is defined as (revenue - cost of sales) / revenue * 100.":
        ("question", None, "(revenue - cost of sales) / revenue", "percent", [("year", 2024)], False, None, None),
    "What is the FY2024 gross margin percentage for Aurora? Gross margin is defined as gross profit divided by revenue "
    "multiplied by 100. Round to two decimal places.":
        ("question", None, "gross profit / revenue", "percent", [("year", 2024)], False, 2, None),
    "What is Aurora's FY2024 R&D ratio? R&D ratio = research and development expenses / revenue x 100.":
        ("question", None, "research and development expenses / revenue", "percent", [("year", 2024)], False, None,
         None),
    # a formula written in the question's head
    "Calculate the FY2022 operating income minus capex for Acme.":
        ("question", None, "operating income - capex", "amount", [("year", 2022)], False, None, None),
    "What is the FY2022 revenue over total assets for Acme?":
        ("question", None, "revenue / total assets", "ratio", [("year", 2022)], False, None, None),
    "What is the FY2022 operating income plus D&A for Acme?":
        ("question", None, "operating income + D&A", "amount", [("year", 2022)], False, None, None),
    # library names and aliases; of overlapping aliases the last (then the longest) wins
    "What is the FY2022 unadjusted EBITDA % margin for PepsiCo? Calculate unadjusted EBITDA using unadjusted "
    "operating income and D&A (from cash flow statement). Give a response to the question by relying on the details "
    "shown in the statement of cash flows and the P&L statement.":
        ("library", "ebitda_margin", "(operating income + depreciation and amortization) / revenue", "percent",
         [("year", 2022)], False, None, None),
    "What is the FY2022 EBITDA for PepsiCo?":
        ("library", "ebitda", "operating income + depreciation and amortization", "amount", [("year", 2022)], False,
         None, None),
    "What is the FY2022 unadjusted EBITDA for PepsiCo? Answer in USD billions.":
        ("library", "ebitda", "operating income + depreciation and amortization", "amount", [("year", 2022)], False,
         None, 1e9),
    "What was the FY2023 acid-test ratio of Acme?":
        ("library", "quick_ratio", "(total current assets - inventories) / total current liabilities", "ratio",
         [("year", 2023)], False, None, None),
    "What is the FY2022 debt-to-equity ratio for Acme?":
        ("library", "debt_to_equity", "total liabilities / total equity", "ratio", [("year", 2022)], False, None,
         None),
    "What is the FY2022 times interest earned for Acme?":
        ("library", "interest_coverage", "operating income / interest expense", "ratio", [("year", 2022)], False,
         None, None),
    "What is the ROE of Acme in FY2022?":
        ("library", "return_on_equity", "net income / avg(total equity)", "percent", [("year", 2022)], False, None,
         None),
    "What is the 2022 ETR for Acme?":
        ("library", "effective_tax_rate", "income tax expense / income before income taxes", "percent",
         [("year", 2022)], False, None, None),
    "What is the FY2022 FCF for Acme? Answer in USD millions.":
        ("library", "free_cash_flow", "operating cash flow - capital expenditure", "amount", [("year", 2022)], False,
         None, 1e6),
    "What is the FY2022 capital intensity for Acme?":
        ("library", "capex_to_revenue", "capital expenditure / revenue", "percent", [("year", 2022)], False, None,
         None),
    "What was Acme's cash conversion cycle in FY2022?":
        ("library", "cash_conversion_cycle", "365 * avg(accounts receivable) / revenue + 365 * avg(inventories) / "
         "cost of sales - 365 * avg(accounts payable) / cost of sales", "days", [("year", 2022)], False, None, None),
    "What is the FY2018 days sales outstanding for Acme? DSO is defined as 365 times average accounts receivable "
    "between FY2017 and FY2018 divided by revenue.":  # NOTE: "DSO" is the library's alias: its same formula is used
        ("library", "days_sales_outstanding", "365 * avg(accounts receivable) / revenue", "days", [("year", 2018)],
         False, None, None),
    # rounding and units asked
    "What is Acme's FY2022 gross profit margin, in percent, rounded to three decimal places?":
        ("library", "gross_margin", "(revenue - cost of sales) / revenue", "percent", [("year", 2022)], False, 3, None),
    "What is the FY2022 cash ratio for Acme? Round your answer to the nearest integer.":
        ("library", "cash_ratio", "cash and cash equivalents / total current liabilities", "ratio", [("year", 2022)],
         False, 0, None),
    "What is the FY2022 capex to revenue ratio for Acme? Answer in units of percents.":
        ("library", "capex_to_revenue", "capital expenditure / revenue", "percent", [("year", 2022)], False, None,
         None),
    "What is the FY2022 current ratio for Acme, as a percent?":
        ("library", "current_ratio", "total current assets / total current liabilities", "percent", [("year", 2022)],
         False, None, None),
    "What is Acme's working capital as of December 31, 2022 (in thousands)?":
        ("library", "working_capital", "total current assets - total current liabilities", "amount",
         [("instant", 2022)], False, None, 1e3),
    "What is the FY2022 working capital for Acme in USD billions?":
        ("library", "working_capital", "total current assets - total current liabilities", "amount", [("year", 2022)],
         False, None, 1e9),
    # direction: two periods, earlier first; one period compares with the year before
    "How much has the effective tax rate of American Express changed between FY2021 and FY2022?":
        ("library", "effective_tax_rate", "income tax expense / income before income taxes", "percent",
         [("year", 2021), ("year", 2022)], True, None, None),
    "Did the quick ratio improve between FY2022 and FY2023?":
        ("library", "quick_ratio", "(total current assets - inventories) / total current liabilities", "ratio",
         [("year", 2022), ("year", 2023)], True, None, None),
    "Is Acme's operating margin improving between FY2021 and FY2022?":
        ("library", "operating_margin", "operating income / revenue", "percent", [("year", 2021), ("year", 2022)],
         True, None, None),
    "Does AMEX have an improving operating margin profile as of 2022? If operating margin is not a useful metric for "
    "a company like this, then state that and explain why.":
        ("library", "operating_margin", "operating income / revenue", "percent", [("year", 2021), ("year", 2022)],
         True, None, None),
    "Has Acme's current ratio deteriorated from FY2021 to FY2022?":
        ("library", "current_ratio", "total current assets / total current liabilities", "ratio",
         [("year", 2021), ("year", 2022)], True, None, None),
    "What was Acme's gross margin in FY2022 compared with FY2021?":
        ("library", "gross_margin", "(revenue - cost of sales) / revenue", "percent", [("year", 2021), ("year", 2022)],
         True, None, None),
    "How did the DSO trend between FY2020 and FY2022?":
        ("library", "days_sales_outstanding", "365 * avg(accounts receivable) / revenue", "days",
         [("year", 2020), ("year", 2022)], True, None, None),
    # a metric named for a change is one value, not a direction question
    "What was Aurora's revenue growth in FY2024?":
        ("library", "revenue_growth", "(revenue - prior(revenue)) / prior(revenue)", "percent", [("year", 2024)],
         False, None, None),
    "What was Aurora's sales growth between FY2023 and FY2024?":
        ("library", "revenue_growth", "(revenue - prior(revenue)) / prior(revenue)", "percent", [("year", 2024)],
         False, None, None),
    # a growth of a line item the library does not name: the last year over the first, minus one
    "What is Acme's FY2019 - FY2021 operating income growth rate?":
        ("library", None, "operating income", "percent", [("year", 2019), ("year", 2021)], False, None, None),
    "Did Aurora's revenue growth improve between FY2023 and FY2024?":
        ("library", "revenue_growth", "(revenue - prior(revenue)) / prior(revenue)", "percent",
         [("year", 2023), ("year", 2024)], True, None, None),
    # NOTE: a "what drove" question gets the change computed (the figures an explanation starts from); the
    # router, not the plan, decides that the answer must also explain it
    "What drove operating margin change as of FY2022 for 3M? If operating margin is not a useful metric for a "
    "company like this, then please state that and explain why.":
        ("library", "operating_margin", "operating income / revenue", "percent", [("year", 2021), ("year", 2022)],
         True, None, None),
}


@pytest.mark.parametrize("question", list(PLANS))
def test_question_reads_as_the_formula_period_rounding_and_unit_asked(question):
    source, key, formula, unit, periods, direction, digits, scale = PLANS[question]
    plan = read_plan(question)
    assert plan is not None
    got = (plan.source, plan.metric.key if plan.metric else None, render(plan.tree), plan.unit,
           [(p.kind, p.year) for p in plan.periods], plan.direction, plan.digits, plan.scale)
    assert got == (source, key, formula, unit, periods, direction, digits, scale)


@pytest.mark.parametrize("question", [
    "What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the question by "
    "relying on the details shown in the cash flow statement.",
    "Assume that you are a public equities analyst. Answer the following question by primarily using information "
    "that is shown in the balance sheet: what is the year end FY2018 net PPNE for 3M? Answer in USD billions.",
    "What is the FY2022 revenue for Acme?",
    "What were Acme's total current assets at the end of FY2022?",
    "Is 3M a capital-intensive business based on FY2022 data?",
    "What was the largest liability in American Express's Balance Sheet in 2022?",
    "What are the geographies that American Express primarily operates in as of 2022?",
])
def test_printed_figures_and_judgements_are_not_metric_questions(question):
    assert read_plan(question) is None


def test_a_direction_question_without_a_period_says_it_has_none_to_compare():
    """NOTE: the plan does not guess which years the filing shows; the answer says so."""
    plan = read_plan("Is operating margin improving?")
    assert plan.metric.key == "operating_margin" and plan.periods == () and not plan.direction
    ev = metric_evidence(plan, {}, {}, {}, {})
    assert ev.calculation is None and ev.missing == "Operating margin: the question names no period and none could be chosen."


@pytest.mark.parametrize("text, metric", [
    ("EBITDA % margin", "ebitda_margin"), ("unadjusted EBITDA margin", "ebitda_margin"), ("EBITDA", "ebitda"),
    ("unadjusted EBITDA less capex", "ebitda"), ("fixed asset turnover", "fixed_asset_turnover"),
    ("total asset turnover", "asset_turnover"), ("asset turnover", "asset_turnover"),
    ("net profit margin", "net_margin"), ("EBIT margin", "operating_margin"), ("capex/revenue", "capex_to_revenue"),
    ("non-current assets", None), ("capital-intensive", None),
])
def test_the_library_alias_ending_last_then_the_longest_names_the_metric(text, metric):
    found = metric_named(f"What is the FY2022 {text} for Acme?")
    assert (found.key if found else None) == metric


def test_every_library_formula_reads_back_as_written_over_line_items_vera_knows():
    assert library()
    for metric in library():
        tree = parse(metric.formula)
        assert render(tree) == metric.formula
        assert all(concepts_in(i.phrase) for i in items(tree)), metric.key


@pytest.mark.parametrize("words, formula", [
    ("revenue divided by total assets", "revenue / total assets"),
    ("net income over revenue", "net income / revenue"),
    ("365 times average receivables between FY2021 and FY2022 divided by revenue",
     "365 * avg(receivables [2022]) / revenue"),
    ("operating income plus D&A minus capex", "operating income + D&A - capex"),
    ("EBITDA less capital expenditure", "EBITDA - capital expenditure"),
    ("net income multiplied by 2", "net income * 2"),
    ("the average of total equity for FY2017 and FY2018", "avg(total equity [2018])"),
    ("debt-to-equity less acid-test ratio", "debt-to-equity - acid-test ratio"),
])
def test_operator_words_and_averages_become_a_formula(words, formula):
    assert render(parse(normalise(words))) == formula


def test_a_statement_note_stays_with_its_operand():
    tree = parse(normalise("operating income [from the income statement] + depreciation and amortization "
                           "(from cash flow statement) - capex (per the statement of cash flows)"))
    assert [(i.phrase, i.statement) for i in items(tree)] == [
        ("operating income", "income"), ("depreciation and amortization", "cash_flow"), ("capex", "cash_flow")]


# -- arithmetic: VERA's own, over cells a fake resolver hands out --------------------------------------

NAMES = ("revenue", "cost of sales", "total assets", "net income", "capex", "inventories")


def fake_resolver(values: dict[tuple[str, int], float], read: list | None = None):
    """(phrase, year) -> value, recording each read in `read`; no cells, no citations."""
    def resolve(item: Item, period: Period) -> Operand:
        if read is not None:
            read.append((item.phrase, period.year))
        if (item.phrase, period.year) not in values:
            raise MissingOperand(item.phrase, period)
        return Operand(item.phrase, period, values[(item.phrase, period.year)], None, None)
    return resolve


@st.composite
def formulas(draw, depth: int = 0) -> str:
    """A formula in the library's syntax over NAMES, with constants, nested parentheses and unary minus."""
    if depth >= 3 or draw(st.integers(0, 2)) == 0:
        leaf = draw(st.one_of(st.sampled_from(NAMES), st.integers(1, 999).map(str)))
        return leaf
    left, right = draw(formulas(depth + 1)), draw(formulas(depth + 1))
    op = draw(st.sampled_from("+-*/"))
    text = f"{left} {op} {right}"
    if draw(st.booleans()):
        text = f"({text})"
    if draw(st.integers(0, 5)) == 0:
        text = f"-({text})"
    return text


amounts = st.floats(min_value=-1e7, max_value=1e7, allow_nan=False, allow_infinity=False).filter(
    lambda v: abs(v) > 1e-3)


@settings(max_examples=300, deadline=None)
@given(formulas(), st.lists(amounts, min_size=len(NAMES), max_size=len(NAMES)))
def test_evaluate_equals_python_arithmetic(formula, values):
    python = formula
    for name, value in zip(NAMES, values):
        python = python.replace(name, f"({value!r})")
    try:
        want = eval(python)  # noqa: S307 - a formula of numbers and + - * / only
    except ZeroDivisionError:
        with pytest.raises(ZeroDivisionError):
            evaluate(parse(formula), FY[2022], fake_resolver({(n, 2022): v for n, v in zip(NAMES, values)}))
        return
    got, used = evaluate(parse(formula), FY[2022], fake_resolver({(n, 2022): v for n, v in zip(NAMES, values)}))
    assert got == want
    assert [op.name for op in used] == [n for n in re.findall("|".join(NAMES), formula)]


@settings(max_examples=200, deadline=None)
@given(amounts, amounts, amounts, st.integers(2016, 2024))
def test_an_average_reads_the_year_asked_and_the_prior_year_end(now, before, earlier, year):
    read: list = []
    values = {("total assets", year): now, ("total assets", year - 1): before, ("total assets", year - 2): earlier}
    got, used = evaluate(parse("avg(total assets)"), FY[year], fake_resolver(values, read))
    assert got == (now + before) / 2
    assert read == [("total assets", year), ("total assets", year - 1)]
    assert [op.value for op in used] == [now, before]


@settings(max_examples=100, deadline=None)
@given(amounts, amounts, st.integers(2016, 2024))
def test_an_average_the_question_dates_reads_those_years_whatever_the_year_asked(now, before, year):
    read: list = []
    tree = parse(normalise("FY2018 revenue / average PP&E between FY2017 and FY2018"))
    values = {("revenue", 2018): now, ("PP&E", 2018): before, ("PP&E", 2017): before * 2}
    got, _ = evaluate(tree, FY[year], fake_resolver(values, read))
    assert got == now / ((before + before * 2) / 2)
    assert read == [("revenue", 2018), ("PP&E", 2018), ("PP&E", 2017)]


@settings(max_examples=100, deadline=None)
@given(amounts, amounts)
def test_prior_reads_one_fiscal_year_before(now, before):
    read: list = []
    got, _ = evaluate(parse("(revenue - prior(revenue)) / prior(revenue)"), FY[2024],
                      fake_resolver({("revenue", 2024): now, ("revenue", 2023): before}, read))
    assert got == (now - before) / before
    assert read == [("revenue", 2024), ("revenue", 2023), ("revenue", 2023)]


def test_a_missing_operand_stops_the_calculation_naming_it_and_its_period():
    with pytest.raises(MissingOperand, match=r"^total assets for FY2021$"):
        evaluate(parse("net income / avg(total assets)"), FY[2022],
                 fake_resolver({("net income", 2022): 1.0, ("total assets", 2022): 2.0}))


# -- synthetic statements: cells as a filing prints them, through the real resolver and rounding -------

COLUMN = {"income": lambda y: Period("fiscal_year", f"{y}-12-31", y, 12),
          "cash_flow": lambda y: Period("fiscal_year", f"{y}-12-31", y, 12),
          "balance": lambda y: Period("instant", f"{y}-12-31", y),
          "": lambda y: Period("fiscal_year", f"{y}-12-31", y, 12)}


def printed(value: float) -> str:
    text = f"{abs(value):,.0f}" if float(value).is_integer() else f"{abs(value):,}"
    return f"({text})" if value < 0 else text


TITLES = {"income": "Consolidated Statements of Income", "balance": "Consolidated Balance Sheets",
          "cash_flow": "Consolidated Statements of Cash Flows"}


def statement(chunk_id: str, kind: str, rows: dict[str, tuple[float, ...]], years=(2024, 2023),
              scale: float = 1e6, currency: str = "USD") -> tuple[TableGrid, ChunkRecord]:
    """A statement grid printing `rows` (label -> one figure per year, in the table's scale)."""
    header = ("",) + tuple(str(y) for y in years)
    cells = []
    for r, (label, figures) in enumerate(rows.items()):
        cells.append(GridCell(r, 0, label, "", "", label, None))
        for c, (year, figure) in enumerate(zip(years, figures), 1):
            cells.append(GridCell(r, c, label, "", str(year), printed(figure), float(figure), "", scale, currency,
                                  COLUMN[kind](year)))
    grid = TableGrid(chunk_id, "parsed", kind, TITLES.get(kind, f"{kind} note"), scale, "", currency, header,
                     (None,) + tuple(COLUMN[kind](y) for y in years), tuple(cells), len(rows))
    chunk = ChunkRecord(chunk_id, "doc", int(chunk_id[1:]), "table", "", "", "", (), "", 1, 1, (), "", "", 0)
    return grid, chunk


def evidence(question: str, *tables):
    grids = {"doc": [g for g, _ in tables]}
    chunks = {c.chunk_id: c for _, c in tables}
    plan = read_plan(question)
    return plan, metric_evidence(plan, grids, chunks, {}, {"doc": "Acme 10-K"})


def exact_half_up(value: Fraction, digits: int) -> str:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return f"{exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP):,.{digits}f}"


# NOTE: small figures make exact ties (51 / 80 = 63.75%) common; large ones exercise the digits
figures = st.one_of(st.integers(1, 400), st.integers(1, 9_999_999))


@settings(max_examples=300, deadline=None)
@given(figures, figures, st.sampled_from([None, 0, 1, 2, 3]), st.booleans())
def test_a_percent_is_the_ratio_times_100_once_rounded_half_up_as_asked(revenue, cost, digits, own_hundred):
    """Gross margin over a statement printing cost of sales in parentheses; with or without the question's
    own "* 100" the result is the same percent, rounded half up from the exact value."""
    assume(cost < revenue)
    ask = {None: "", 0: " Round your answer to the nearest whole number.",
           1: " Round your answer to one decimal place.", 2: " Round your answer to two decimal places.",
           3: " Round your answer to three decimal places."}[digits]
    definition = " Gross margin is defined as (revenue - cost of sales) / revenue * 100." if own_hundred else ""
    income = statement("t1", "income", {"Revenue": (revenue, 1), "Cost of sales": (-cost, -1)})
    plan, ev = evidence(f"What is the FY2024 gross margin for Acme?{definition}{ask}", income)
    want = (revenue * 1e6 - cost * 1e6) / (revenue * 1e6) * 100
    calc = ev.calculation
    assert plan.unit == "percent" and calc.unit == "percent"
    assert math.isclose(calc.result, want, rel_tol=1e-9)
    assert calc.rounded == exact_half_up(Fraction(revenue - cost, revenue) * 100, 1 if digits is None else digits) + "%"
    assert calc.rounded in ev.lead


@pytest.mark.parametrize("revenue, cost, rounded", [(80, 29, "63.8%"), (80, 39, "51.3%"), (80, 57, "28.8%"),
                                                   (8, 7, "12.5%"), (40, 39, "2.5%")])
def test_a_percent_on_a_tie_rounds_up_though_the_division_lands_a_hair_below(revenue, cost, rounded):
    income = statement("t1", "income", {"Revenue": (revenue, 1), "Cost of sales": (-cost, -1)})
    _, ev = evidence("What is the FY2024 gross margin for Acme?", income)
    assert ev.calculation.rounded == rounded


@pytest.mark.parametrize("assets, liabilities, ask, rounded", [
    (1, 8, "", "0.13"),  # 0.125: half up, not to even
    (3, 8, "", "0.38"),
    (5, 2, " Round your answer to the nearest whole number.", "3"),  # 2.5
    (7, 2, " Round your answer to the nearest whole number.", "4"),  # 3.5
    (1, 16, " Round your answer to three decimal places.", "0.063"),  # 0.0625
    (1, 8, " Answer as a percent, rounded to the nearest whole number.", "13%"),  # 12.5%
])
def test_rounding_is_half_up_at_the_digits_asked(assets, liabilities, ask, rounded):
    balance = statement("t2", "balance", {"Total current assets": (assets, 1),
                                          "Total current liabilities": (liabilities, 1)})
    _, ev = evidence(f"What is Acme's FY2024 current ratio?{ask}", balance)
    assert ev.calculation.rounded == rounded


@settings(max_examples=150, deadline=None)
@given(st.integers(-99_999, 99_999), st.integers(1, 99_999), st.sampled_from([1e3, 1e6, 1e9]),
       st.sampled_from([None, "thousands", "millions", "billions"]))
def test_an_amount_is_stated_in_the_scale_asked(operating, depreciation, printed_scale, asked):
    """EBITDA = operating income + D&A: the value in units divided by the scale asked (else the table's)."""
    income = statement("t1", "income", {"Operating income": (operating, 1)}, scale=printed_scale)
    cash = statement("t2", "cash_flow", {"Depreciation and amortization": (depreciation, 1)}, scale=printed_scale)
    unit = f" Answer in USD {asked}." if asked else ""
    plan, ev = evidence(f"What is the FY2024 EBITDA for Acme?{unit}", income, cash)
    value = (operating + depreciation) * printed_scale
    assert ev.calculation.result == value
    scale = {"thousands": 1e3, "millions": 1e6, "billions": 1e9}.get(asked, printed_scale)
    shown = Fraction(operating + depreciation) * int(printed_scale) / int(scale)
    digits = 0 if abs(shown) >= 100 else 2
    word = {1e3: "thousand", 1e6: "million", 1e9: "billion"}[scale]
    assert ev.calculation.rounded == f"{'-' if shown < 0 else ''}${exact_half_up(abs(shown), digits)} {word}"


def test_a_cost_printed_negative_is_used_as_its_magnitude_an_income_keeps_its_sign():
    income = statement("t1", "income", {"Revenue": (-50, 1), "Cost of sales": (-30, -1),
                                        "Income tax expense": (-7, -1)})
    cash = statement("t2", "cash_flow", {"Purchases of property, plant and equipment": (-12, -1)})
    note = statement("t3", "", {"Capital expenditure": (-12, -1)})
    resolve = CellResolver({"doc": [income[0], cash[0]]}, {c.chunk_id: c for _, c in (income, cash)}, {})
    assert resolve(Item("cost of sales"), FY[2024]).value == 30e6
    assert resolve(Item("income tax expense"), FY[2024]).value == 7e6
    assert resolve(Item("capex"), FY[2024]).value == 12e6  # an outflow in the cash flow statement: the amount spent
    assert resolve(Item("revenue"), FY[2024]).value == -50e6  # not a cost: the sign printed
    assert resolve(Item("cost of sales"), FY[2024]).cell.printed == "(30)"
    in_note = CellResolver({"doc": [note[0]]}, {note[1].chunk_id: note[1]}, {})
    with pytest.raises(MissingOperand) as refused:  # capex is the cash flow statement's: a note only corroborates
        in_note(Item("capex"), FY[2024])
    assert "not the cash flow statement" in refused.value.refused


def test_a_direction_question_computes_each_year_earlier_first():
    income = statement("t1", "income", {"Revenue": (200, 100), "Cost of sales": (-150, -50)})
    _, ev = evidence("What was Acme's gross margin in FY2024 compared with FY2023?", income)
    calc = ev.calculation
    assert [(r.period, r.rounded) for r in calc.results] == [("FY2023", "50.0%"), ("FY2024", "25.0%")]
    assert calc.direction == "declined" and calc.period == "FY2024" and calc.rounded == "25.0%"
    assert ev.lead.startswith("Gross margin fell from 50.0% in FY2023 to 25.0% in FY2024 (-25.0 percentage points")


def test_a_zero_divisor_states_no_result():
    balance = statement("t2", "balance", {"Total current assets": (5, 1), "Total current liabilities": (0, 1)})
    _, ev = evidence("What is Acme's FY2024 current ratio?", balance)
    assert ev.calculation is None and not ev.lead and "divisor is zero" in ev.missing


# -- the sample report: every metric of its ground truth ------------------------------------------------

@pytest.fixture(scope="module")
def report(sample_store):
    doc = doc_by_name(sample_store, REPORT)
    grids = {doc.doc_id: sample_store.doc_grids(doc.doc_id)}
    chunks = {c.chunk_id: c for c in sample_store.doc_chunks(doc.doc_id) if c.kind == "table"}
    return lambda plan: metric_evidence(plan, grids, chunks, {}, {doc.doc_id: doc.name})


def sample_metrics() -> list:
    truth = json.loads((SAMPLE_PDF.parent / "ground_truth.json").read_text())["documents"][REPORT]["metrics"]
    return [pytest.param(m, id=m["key"]) for m in truth]


def test_the_ground_truth_has_library_metrics_of_every_unit():
    truth = [p.values[0] for p in sample_metrics()]
    assert len(truth) >= 8 and {m["unit"] for m in truth} == {"percent", "ratio", "days", "amount"}
    assert {m["key"] for m in truth} <= {m.key for m in library()}


@pytest.mark.parametrize("want", sample_metrics())
def test_sample_metric_equals_its_ground_truth(report, want):
    plan = read_plan(want["question"])
    assert plan is not None and plan.metric.key == want["key"] and plan.source == "library"
    ev = report(plan)
    calc = ev.calculation
    assert not ev.missing, ev.missing
    assert calc.rounded == want["rounded"]
    assert math.isclose(calc.result, want["expected"], rel_tol=1e-9)
    assert (calc.unit, calc.period) == (want["unit"], want["period"])
    assert [(op.name, op.row_label, op.printed, op.value) for op in calc.operands] == [
        (op["name"], op["row_label"], op["printed"], op["value"]) for op in want["operands"]]
    for got, op in zip(calc.operands, want["operands"]):
        assert got.statement == op["statement"] and op["period"] in got.period
        assert got.cell.page == op["page"]
        assert max(abs(a - b) for a, b in zip(got.cell.bbox, op["bbox"])) <= 1.0, (got.cell.bbox, op["bbox"])
    assert ev.lead.startswith(f"FY2024 {plan.name}: {want['rounded']} (library definition: {want['formula']})")
    assert len(ev.pieces) == len(want["operands"])


def test_sample_direction_question_compares_fy2023_with_fy2024(report, ground_truth):
    """The FY2023 margin is computed from the printed cells of the income statement's 2023 column."""
    table = next(t for t in ground_truth[REPORT]["tables"] if t["caption"].startswith("Consolidated income"))
    col = table["header"].index("2023")
    cell = {row[0]: float(re.sub(r"[^\d]", "", row[col])) for row in table["rows"] if row[col]}
    fy2023 = (cell["Revenue"] - cell["Cost of sales"]) / cell["Revenue"] * 100
    fy2024 = next(p.values[0] for p in sample_metrics() if p.values[0]["key"] == "gross_margin")
    ev = report(read_plan("Did Aurora's gross margin improve between FY2023 and FY2024?"))
    calc = ev.calculation
    assert [(r.period, r.rounded) for r in calc.results] == [
        ("FY2023", f"{fy2023:.1f}%"), ("FY2024", fy2024["rounded"])]
    assert calc.direction == "improved"
    assert ev.lead.startswith(f"Gross margin rose from {fy2023:.1f}% in FY2023 to {fy2024['rounded']} in FY2024")


@pytest.mark.parametrize("question, missing", [
    ("What was Aurora's return on assets in FY2023?", "total assets for FY2022"),
    ("What was Aurora's revenue growth in FY2023?", "revenue for FY2022"),
    ("What is Aurora's FY2024 adjusted operating profit? Define adjusted operating profit as operating profit plus "
     "share-based compensation expense.", "share-based compensation expense for FY2024"),
])
def test_sample_metric_with_an_operand_the_report_lacks_names_it_and_states_no_result(report, question, missing):
    ev = report(read_plan(question))
    assert not ev.lead and not ev.pieces
    assert ev.calculation.result is None and ev.calculation.rounded is None
    assert ev.calculation.missing == [missing]
    assert f"{missing} is not printed" in ev.missing and "No result is stated." in ev.missing
    assert not re.search(r"\d+\.\d%|€", ev.missing)


# -- dev filings (FinanceBench): the questions' own text ----------------------------------------------

FIXED_ASSET_TURNOVER = ("What is the FY2018 fixed asset turnover ratio for 3M? Fixed asset turnover ratio is defined "
                        "as: FY2018 revenue / (average PP&E between FY2017 and FY2018). Round your answer to two "
                        "decimal places.")


def dev_question(text_start: str) -> str:
    rows = [json.loads(line) for line in (CORPUS / "questions.jsonl").read_text().splitlines() if line.strip()]
    return next(r["question"] for r in rows if r["question"].startswith(text_start))


def filing(name: str):
    """A dev filing parsed, chunked and gridded as ingestion does, without embedding; returns
    question -> the metric evidence over its tables."""
    if not (CORPUS / name).exists():
        pytest.skip(f"{name} not in the dev corpus at {CORPUS}")
    from vera_core.chunking.node_parser import StructuredDocument, StructureNodeParser
    from vera_core.config import VeraSettings
    from tests.conftest import parsed_once
    from vera_core.ingest.service import _chunk_record
    from vera_core.tables import document_grids

    settings = VeraSettings()
    _, parsed = parsed_once(CORPUS / name, settings)
    model_dir = None if settings.embed_model_path is None else str(settings.embed_model_path)
    parser = StructureNodeParser(chunk_tokens=settings.chunk_tokens, max_tokens=settings.embed_max_tokens,
                                 model_dir=model_dir)
    records = [_chunk_record(n) for n in parser.get_nodes_from_documents([StructuredDocument.from_parsed(parsed)])]
    grids = {parsed.doc_id: document_grids(parsed.blocks, [r.chunk_id for r in records if r.kind == "table"])}
    chunks = {r.chunk_id: r for r in records if r.kind == "table"}
    return lambda question: metric_evidence(read_plan(question), grids, chunks, {}, {parsed.doc_id: name})


def corpus(test):
    """A test on the dev corpus: marked `corpus` and skipped when the corpus is absent."""
    return pytest.mark.corpus(pytest.mark.skipif(not CORPUS.is_dir(), reason=f"dev corpus not found at {CORPUS}")(test))


@pytest.fixture(scope="module")
def pepsico_2022():
    return filing("PEPSICO_2022_10K.pdf")


@corpus
def test_3m_2018_fixed_asset_turnover_as_the_question_defines_it():
    calc = filing("3M_2018_10K.pdf")(FIXED_ASSET_TURNOVER).calculation
    assert calc.rounded == "3.72" and calc.source == "question"
    assert math.isclose(calc.result, 32765 / ((8738 + 8866) / 2), rel_tol=1e-9)
    assert [(op.printed, op.statement) for op in calc.operands] == [
        ("$32,765", "income"), ("8,738", "balance"), ("8,866", "balance")]


@corpus
def test_pepsico_2022_unadjusted_ebitda_less_capex(pepsico_2022):
    calc = pepsico_2022(dev_question("What is the FY2022 unadjusted EBITDA less capex")).calculation
    assert calc.rounded == "$9,068 million" and calc.result == 9068e6
    assert [(op.row_label, op.printed, op.statement) for op in calc.operands] == [
        ("Operating Profit", "11,512", "income"), ("Depreciation and amortization", "2,763", "cash_flow"),
        ("Capital spending", "(5,207)", "cash_flow")]


@corpus
def test_pepsico_2022_unadjusted_ebitda_margin(pepsico_2022):
    calc = pepsico_2022(dev_question("What is the FY2022 unadjusted EBITDA % margin")).calculation
    assert calc.rounded == "16.5%"
    assert math.isclose(calc.result, (11512 + 2763) / 86392 * 100, rel_tol=1e-9)


@corpus
def test_american_express_effective_tax_rate_change_fy2021_to_fy2022():
    ev = filing("AMERICANEXPRESS_2022_10K.pdf")(dev_question("How much has the effective tax rate of American Express"))
    calc = ev.calculation
    assert [(r.period, r.rounded) for r in calc.results] == [("FY2021", "24.6%"), ("FY2022", "21.6%")]
    assert calc.direction == "declined"
    assert ev.lead.startswith("Effective tax rate fell from 24.6% in FY2021 to 21.6% in FY2022 (-3.0 percentage points")
