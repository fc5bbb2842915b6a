"""Questions as people who never saw VERA write them (issue 25): a qualified line item is never answered
with the company's total, a definition written after the metric's name is the question's own, an absurd
or inconsistent result is never stated, a verdict VERA cannot compute as asked is withheld, a "which
documents" question is read from the sentence that asks it."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from tests.test_metrics import FY, evidence, statement
from vera_core.answer.figures.plausibility import implausible
from vera_core.answer.figures.registrant import registrant_words
from vera_core.answer.topics import read_topic
from vera_core.finance.line_items import label_terms
from vera_core.questions.expression import render
from vera_core.questions.figure import read_request
from vera_core.questions.metric import read_plan
from vera_core.questions.qualifiers import qualifier_around
from vera_core.questions.verdict import read_verdict

INCOME = {"Automotive sales": (78_509, 67_210), "Total automotive revenues": (82_419, 71_462),
          "Energy generation and storage revenues": (6_035, 3_909), "Total revenues": (96_773, 81_462),
          "Total automotive cost of revenues": (66_389, 54_389), "Total cost of revenues": (79_113, 60_609),
          "Net income": (14_974, 12_587)}


def test_a_qualified_margin_is_read_from_the_qualified_rows_never_the_total():
    income = statement("t1", "income", INCOME)
    plan, ev = evidence("What was Acme's total automotive gross margin in FY2024? Round to one decimal place.", income)
    assert plan.metric is not None and plan.qualifier.words  # the library's gross margin, qualified
    assert ev.calculation.rounded == f"{(82_419 - 66_389) / 82_419 * 100:.1f}%"
    assert {o.row_label for o in ev.calculation.operands} == {"Total automotive revenues", "Total automotive cost of revenues"}


def test_a_qualifier_no_row_carries_is_an_abstention_not_the_total():
    income = statement("t1", "income", INCOME)
    _, ev = evidence("What was Acme's Cybertruck gross margin in FY2024?", income)
    assert ev.missing and ev.calculation.result is None
    assert "cybertruck" in ev.missing.lower()
    _, ev = evidence("What gross margin did Acme make on the Cybertruck in FY2024?", income)
    assert ev.missing and ev.calculation.result is None


def test_the_company_s_own_name_and_ticker_are_not_qualifiers():
    company = registrant_words(["ACME_2024_10K.pdf"], ["ACME MOTORS, INC.\nCommon stock ACMO The Nasdaq Global Select Market"])
    for question in ("What was Acme Motors' FY2024 gross margin?", "ACMO gross margin FY2024?"):
        plan = read_plan(question)
        assert plan is not None and not plan.qualifier.without(company), question
    income = statement("t1", "income", INCOME)
    grids, chunks = {"doc": [income[0]]}, {income[1].chunk_id: income[1]}
    from vera_core.answer.figures.metric_answer import metric_evidence
    ev = metric_evidence(read_plan("ACMO gross margin FY2024?"), grids, chunks, {}, {"doc": "Acme"}, company=company)
    assert ev.calculation.rounded == f"{(96_773 - 79_113) / 96_773 * 100:.1f}%"


@pytest.mark.parametrize("question, words, aliases", [
    ("Data Center and AI (DCAI) operating margin for Intel in Q4 2022?", {"data", "center", "ai"}, {"dcai"}),
    ("What was the operating margin of Intel's Client Computing Group (CCG) in Q4 2022?", {"client", "comput"}, {"ccg"}),
    ("How much revenue did Slack contribute to Salesforce in Q2 FY24?", {"slack"}, set()),
    ("What is the FY2018 capital expenditure amount (in USD millions) for 3M?", set(), set()),
    ("Does Apple have an improving gross margin profile as of FY2019?", set(), set()),
])
def test_qualifiers_are_the_words_around_the_item(question, words, aliases):
    request = read_request(question)
    plan = read_plan(question)
    got = plan.qualifier if plan is not None and plan.qualifier else request.qualifier
    assert set(got.words) == words and set(got.aliases) == aliases


def test_a_definition_written_after_the_metric_is_the_question_s_own():
    cases = {
        "What was its free cash flow for 2021, defined as net cash used in operating activities minus purchases of "
        "property and equipment? (in USD millions)":
            "net cash used in operating activities - purchases of property and equipment",
        "uber 2021 FCF (net cash used in operating activities less purchases of property and equipment), $mm":
            "net cash used in operating activities - purchases of property and equipment",
        "What was Wheeler's debt-to-equity at Dec 31, 2022, taking loans payable, net over total equity?":
            "loans payable, net / total equity",
        "What was Tesla's total automotive gross margin in 2023 (total automotive revenues less total automotive cost "
        "of revenues, over total automotive revenues)?":
            "(total automotive revenues - total automotive cost of revenues) / total automotive revenues",
    }
    for question, formula in cases.items():
        plan = read_plan(question)
        assert plan is not None and plan.source == "question" and render(plan.tree) == formula, question


def test_percent_asked_as_an_instruction_of_its_own():
    plan = read_plan("What was TD SYNNEX's earnings retention ratio for fiscal 2022, i.e. 1 minus dividends paid over "
                     "net income? Percent, two decimals.")
    assert plan.unit == "percent" and plan.digits == 2


def test_a_share_of_written_out_is_a_metric_and_the_library_keeps_its_own_names():
    plan = read_plan("From Intel's cash flow statement, what were 2022 additions to property, plant and equipment as a "
                     "percentage of net cash provided by operating activities? Two decimals.")
    assert plan is not None and plan.unit == "percent" and "/" in render(plan.tree)
    assert read_plan("What was Aurora's capex as a % of revenue in FY2024?").source == "library"


def test_an_absurd_or_inconsistent_result_is_never_stated():
    cash = statement("t2", "cash_flow", {"Net cash provided by operating activities": (500, 400),
                                         "Purchases of property and equipment": (-120, -100)})
    balance = statement("t3", "balance", {"Long-term debt": (900, 800)})
    # a flow and a balance added: a cash-flow row read for a balance-sheet item
    _, ev = evidence("What was Acme's FY2024 total funding, defined as long-term debt plus net cash provided by "
                     "operating activities?", cash, balance)
    assert ev.missing and ev.calculation.result is None and "flow" in ev.missing
    # a margin whose formula lost its denominator is an amount, not a percentage
    income = statement("t1", "income", INCOME)
    plan, _ = evidence("What is Acme's FY2024 gross margin?", income)
    operands = evidence("What is Acme's FY2024 gross margin?", income)[1].calculation.operands
    assert operands  # the test below builds its own case from the plan's tree
    from vera_core.questions.expression import Item
    why = implausible("gross margin", "percent", "at", Item("revenue"), [("FY2024", 96_773e6 * 100, [])])
    assert why and "percent" in why
    assert implausible("revenue growth", "percent", "growth", Item("revenue"), [], final=-949_757_800_000.0)
    assert implausible("net margin", "percent", "at", Item("x"), [("FY2024", math.inf, [])])
    assert implausible("revenue growth", "percent", "growth", Item("revenue"), [], final=12.5) is None


def test_a_verdict_vera_cannot_compute_as_asked_is_withheld():
    request = read_verdict("Did Wheeler REIT's leverage rise in 2022? Use loans payable, net as a share of total assets at "
                           "year-end 2022 vs year-end 2021.")
    assert request is not None and request.unclear
    # NOTE: two movements asked together are both tested (tests/test_verdict_shapes.py), never one of them alone
    request = read_verdict("Did Intel keep increasing R&D spending in 2022 even though net revenue fell?")
    assert request is not None and request.also is not None and "R&D spending" in request.plan.name
    assert (request.test, request.also.test, request.also.plan.name) == ("up", "down", "revenue")
    assert not read_verdict("Did net income increase from FY2020 to FY2021?").unclear
    assert not read_verdict("Does Apple have an improving gross margin profile as of FY2019? Compare its gross margin "
                            "in FY2018 and FY2019.").unclear


@pytest.mark.parametrize("question, topic", [
    ("Which policies cover data classification?", "data classification"),
    ("left my work phone on the bus yesterday - which policies tell me what I'm supposed to do now?",
     "left my work phone on the bus yesterday"),
    ("If the lab computer system crashes, which documents tell us how to keep working?",
     "the lab computer system crashes: keep working"),
    ("CCTV on buses, trams and stations \u2014 which policies have requirements on it?", "CCTV on buses, trams and stations"),
    ("A client is cancelling and leaving us. Which documents should I read on what happens to their data afterwards?",
     "what happens to their data afterwards (A client is cancelling and leaving us)"),
    ("what happens to a client's data after they cancel their contract with us? which docs cover it?",
     "what happens to a client's data after they cancel their contract with us"),
    ("I'm a hiring manager and I've got a new hire joining next month. Which of our documents cover getting a new "
     "person up and running?", "getting a new person up and running"),
    ("Where do our policies talk about how the money for security gets planned each year?",
     "how the money for security gets planned each year"),
    ("Which policies cover risk acceptance, i.e. accepting or signing off on residual risk rather than mitigating it?",
     "risk acceptance, i.e. accepting or signing off on residual risk rather than mitigating it"),
])
def test_the_topic_is_read_from_the_sentence_that_asks_for_documents(question, topic):
    assert read_topic(question).text == topic


def test_qualifier_reading_stops_at_the_company_and_the_question_words():
    question = "What was Tesla's total automotive gross margin in 2023?"
    start = question.index("gross margin")
    got = qualifier_around(question, start, start + len("gross margin"))
    assert set(got.words) == {"automotiv"}
    assert FY[2024].year == 2024


def test_a_year_range_is_never_a_subtraction_and_a_cagr_compounds_over_its_years():
    plan = read_plan("What is the FY2019 - FY2020 revenue growth rate for X?")
    assert "0 -" not in render(plan.tree) and plan.unit == "percent"
    plan = read_plan("Revenue CAGR for TD SYNNEX over fiscal years 2020-2022 (FYE Nov 30)? % to one decimal.")
    assert plan.compound and [p.year for p in plan.periods] == [2020, 2022] and plan.digits == 1
    plan = read_plan("What is the 3-year revenue CAGR of Acme as of FY2024?")
    assert plan.compound and [p.year for p in plan.periods] == [2021, 2024]
    income = statement("t1", "income", {"Total revenues": (150, 100)}, years=(2024, 2022))
    _, ev = evidence("What was Acme's revenue CAGR over FY2022 - FY2024?", income)
    assert math.isclose(ev.calculation.result, ((150 / 100) ** 0.5 - 1) * 100, rel_tol=1e-9)
    assert "^ (1 / 2)" in ev.calculation.expression


def sectioned(chunk_id: str, title: str, sections: dict[str, dict[str, tuple[float, ...]]], kind: str = "",
              years=(2024, 2023)) -> tuple:
    """A table of heading rows ("Operating segment revenue:") over the rows they print, as a segment
    table or an income statement of a release prints them (the heading has no figures)."""
    from tests.test_metrics import COLUMN, printed
    from vera_core.records import GridCell, TableGrid
    from vera_core.records import ChunkRecord
    cells, row = [], 0
    for heading, rows in sections.items():
        cells.append(GridCell(row, 0, heading, "", "", heading, None))
        row += 1
        for label, figures in rows.items():
            cells.append(GridCell(row, 0, label, heading.rstrip(":"), "", label, None))
            for c, (year, figure) in enumerate(zip(years, figures), 1):
                cells.append(GridCell(row, c, label, heading.rstrip(":"), str(year), printed(figure), float(figure), "",
                                      1e6, "USD", COLUMN[kind](year)))
            row += 1
    grid = TableGrid(chunk_id, "parsed", kind, title, 1e6, "", "USD", ("",) + tuple(map(str, years)),
                     (None,) + tuple(COLUMN[kind](y) for y in years), tuple(cells), row)
    return grid, ChunkRecord(chunk_id, "doc", int(chunk_id[1:]), "table", "", "", "", (), "", 1, 1, (), "", "", 0)


SEGMENTS = {"Operating segment revenue:": {"Data Center and AI": (4_304, 6_426), "Network and Edge": (2_061, 2_086),
                                           "Mobileye": (565, 356), "Total net revenue": (14_042, 20_528)},
            "Operating income (loss):": {"Data Center and AI": (371, 2_350), "Network and Edge": (-70, 349),
                                         "Total operating income (loss)": (-1_132, 5_133)}}


def test_a_segment_row_under_a_heading_that_prints_the_item_answers_for_that_segment():
    """The segment table's title ("Supplemental Operating Segment Results") names no item; its heading
    rows do: the segment's revenue and operating income are read from the rows under them, never the total."""
    segments = sectioned("t2", "Supplemental Operating Segment Results", SEGMENTS, kind="")
    _, ev = evidence("Data Center and AI (DCAI) operating margin for Acme in FY2024 - segment operating income over "
                     "segment revenue, in %?", segments)
    assert ev.calculation.rounded == f"{371 / 4_304 * 100:.1f}%"
    _, ev = evidence("Mobileye revenue growth, FY2024 over FY2023, from Acme's segment table? One decimal.", segments)
    assert ev.calculation.rounded == f"{(565 - 356) / 356 * 100:.1f}%"


def test_a_heading_that_narrows_the_item_to_a_part_comes_after_the_statement_row():
    """"Used vehicles" under "Franchised Dealerships Segment Revenues" is one segment's; under
    "Revenues" in the income statement it is the company's: the question asked for the company's."""
    segment = sectioned("t1", "Segment Results Summary",
                        {"Franchised Dealerships Segment Revenues:": {"Used vehicles": (3_391.5, 2_901.0)}})
    income = sectioned("t2", "Consolidated Statements of Operations",
                       {"Revenues:": {"Used vehicles": (5_515.4, 4_933.6), "Total revenues": (14_004.9, 12_386.9)},
                        "Gross profit:": {"Used vehicles": (180.8, 250.1), "Total gross profit": (2_303.8, 2_061.5)}},
                       kind="income")
    _, ev = evidence("For Acme in FY2024, what was used vehicles gross profit as a % of used vehicle revenue? Two "
                     "decimals.", segment, income)
    assert ev.calculation.rounded == f"{180.8 / 5_515.4 * 100:.2f}%"


def test_its_cost_is_the_cost_of_the_item_named_before_and_cost_of_revenues_is_a_cost():
    """"(subscription and support revenue - its cost of revenues)": the second operand is the
    subscription line of the costs, not total cost of revenues (and "cost of revenues" is the cost,
    never the revenue its last word names)."""
    from vera_core.finance.line_items import concepts_in
    assert [c.name for c in concepts_in("its cost of revenues")] == ["cost of sales"]
    income = sectioned("t1", "Condensed Consolidated Statements of Operations",
                       {"Revenues:": {"Subscription and support": (8_006, 7_143), "Total revenues": (8_603, 7_720)},
                        "Cost of revenues:": {"Subscription and support": (1_515, 1_490),
                                              "Total cost of revenues": (2_113, 2_127)}}, kind="income")
    _, ev = evidence("What gross margin did Acme earn on subscription and support in FY2024, i.e. (subscription and "
                     "support revenue - its cost of revenues) / subscription and support revenue?", income)
    assert ev.calculation.rounded == f"{(8_006 - 1_515) / 8_006 * 100:.1f}%"


@pytest.mark.parametrize("question, formula, unit, statements", [
    ("WHLR leverage check: loans payable, net as a % of total assets at YE2022?",
     "loans payable, net / total assets", "percent", ("", "")),
    ("Dealer-group metric: Sonic's SG&A as a percentage of gross profit for 2022 (1 dp)?", "SG&A / gross profit",
     "percent", ("", "")),
    ("Wheeler REIT 2022 property-level margin: (total revenue - property operations) / total revenue, %.",
     "(total revenue - property operations) / total revenue", "percent", ("", "", "")),
    ("How many times did Wheeler REIT's 2022 operating income cover its interest expense (operating income / "
     "interest expense)? Two decimals.", "operating income / interest expense", "ratio", ("", "")),
    ("What was Patriot Transportation's operating ratio in fiscal 2023 (total cost of operations as a % of operating "
     "revenues)? One decimal.", "total cost of operations / operating revenues", "percent", ("", "")),
    ("What was Patriot Transportation's dividend payout ratio in fiscal 2022 (dividends paid / net income)?",
     "dividends paid / net income", "percent", ("", "")),
    ("For Enact Holdings, compute the 2022 loss ratio as losses incurred divided by premiums (both from the income "
     "statement). Percent, 2 dp; keep the sign.", "losses incurred / premiums", "percent", ("income", "income")),
    ("What's BCB Bancorp's loan-to-deposit ratio at 12/31/2022 (net loans receivable / total deposits, from the "
     "statement of financial condition)? Percent.", "net loans receivable / total deposits", "percent",
     ("balance", "balance")),
    ("For BCB Bancorp, what was the 2022 efficiency ratio, defined as total non-interest expense divided by (net "
     "interest income + total non-interest income)? Percent, one decimal.",
     "total non-interest expense / (net interest income + total non-interest income)", "percent", ("", "", "")),
])
def test_a_metric_pasted_from_notes_or_defined_in_passing_is_read_with_its_formula_and_unit(question, formula, unit,
                                                                                           statements):
    """Analysts' shorthand: a label before the object, "A as a % of B" with no "what is", a bare "%" or
    "Percent." as the unit, "(A / B)" after the metric's name, a statement named once for every operand;
    a payout ratio the question defines is still a percentage, as the library has it."""
    from vera_core.questions.expression import Item

    plan = read_plan(question)
    assert plan is not None and render(plan.tree) == formula and plan.unit == unit

    def items(node):
        return [node] if isinstance(node, Item) else items(node.left) + items(node.right)
    assert tuple(i.statement for i in items(plan.tree)) == statements


def test_a_parenthesis_saying_how_years_are_averaged_is_not_the_metric_s_definition():
    plan = read_plan("Weis Markets: 3-year average net profit margin over fiscal 2020-2022 (simple mean of net income / "
                     "net sales for each year), %, 2 dp")
    assert plan is not None and plan.over == "mean" and plan.source == "library"
    assert [p.year for p in plan.periods] == [2020, 2021, 2022]


def test_a_balance_named_in_the_question_s_words_is_never_its_movement_in_the_cash_flow():
    """"net loans receivable" (no known line item) is the balance sheet's loans, not "Net increase in
    loans receivable" of the cash flow statement printed before it."""
    cash = statement("t1", "cash_flow", {"Net increase in loans receivable": (-734_321, -315_012)})
    balance = statement("t2", "balance", {"Loans receivable, net": (3_045_331, 2_311_010), "Total deposits":
                                          (2_811_607, 2_561_402)})
    _, ev = evidence("What was Acme's loan-to-deposit ratio at FY2024 (net loans receivable / total deposits)? Percent.",
                     cash, balance)
    assert ev.calculation.rounded == f"{3_045_331 / 2_811_607 * 100:.1f}%"


@pytest.mark.parametrize("question, item, concept", [
    ("What was BCB Bancorp's net interest income for 2022, in thousands of dollars?", "net interest income", None),
    ("What were Enact Holdings' premiums earned in 2022, in USD millions rounded to one decimal?", "premiums earned", None),
    ("Enact 10-K 2022, Key Metrics table: primary insurance in-force as of 12/31/2021 (USD millions)",
     "primary insurance in-force", None),
    ("How large was BCB Bancorp's total deposit base at December 31, 2021 ($ thousands)?", "total deposit base", None),
    ("TSLA inventory on the balance sheet as of 12/31/2022, $M?", None, "inventories"),
    ("COST Q1 FY23 diluted EPS", None, "diluted earnings per share"),
    ("WMK cash dividends per share, FY22?", None, "dividends per share"),
    ("Per Enact's statement of cash flows, how much did the company pay in dividends in 2021? (in USD thousands)", None,
     "dividends paid"),
    ("Sonic Automotive's diluted earnings per common share for the year ended December 31, 2021?", None,
     "diluted earnings per share"),
])
def test_a_figure_asked_in_the_question_s_own_words_or_pasted_from_notes_is_a_figure_question(question, item, concept):
    """A line item no vocabulary knows is a figure question when it asks for an amount of a period, and
    its words are the item's alone (no company, period, unit, statement or frame); a known one pasted
    from notes ("COST Q1 FY23 diluted EPS") is one too."""
    from vera_core.finance.line_items import label_terms
    from vera_core.questions.figure import is_figure_question, item_phrase

    assert is_figure_question(question)
    request = read_request(question)
    if concept is None:
        assert not request.concepts and label_terms(item_phrase(question)) == label_terms(item)
    else:
        assert request.concepts[0].name == concept


@pytest.mark.parametrize("question", [
    "For Sonic Automotive, did diluted EPS fall in 2022 while long-term debt went up?",
    "In 2022, did its operating income cover its interest expense?",
    "Describe the revenue recognition policy for 2022.",
])
def test_a_yes_no_or_a_descriptive_question_is_not_a_figure_question(question):
    from vera_core.questions.figure import is_figure_question
    assert not is_figure_question(question)


def test_a_row_printing_the_period_in_several_columns_answers_the_column_asked_or_the_total_else_abstains():
    """"FFO" printed for Same Store, Non-same Store and Total in 2022: "total FFO" and plain "FFO" read the
    Total column; a row with no total column and no column asked is refused, never its first column."""
    from vera_core.answer.figures.figure_answer import figure_evidence
    from vera_core.records import GridCell, TableGrid
    from vera_core.records import ChunkRecord

    def table(headers):
        period = Period("fiscal_year", "2022-12-31", 2022, 12)
        cells = [GridCell(0, 0, "FFO", "", "", "FFO", None)] + [
            GridCell(0, j, "FFO", "", h, f"{v:,}", float(v), "", 1e3, "USD", period)
            for j, (h, v) in enumerate(headers.items(), 1)]
        grid = TableGrid("t1", "parsed", "", "Funds from Operations (FFO)", 1e3, "", "USD", ("",) + tuple(headers),
                         (None,) + (period,) * len(headers), tuple(cells), 1)
        return {"doc": [grid]}, {"t1": ChunkRecord("t1", "doc", 1, "table", "", "", "", (), "", 1, 1, (), "", "", 0)}

    from vera_core.records import Period
    grids, chunks = table({"Same Store 2022": 9_027, "Non-same Store 2022": 199, "Total 2022": 9_226})
    for question, value in (("What total FFO did Acme report for 2022 ($ in thousands)?", 9_226),
                            ("What FFO did Acme report for 2022 ($ in thousands)?", 9_226)):
        request = read_request(question)  # the company's own name is no qualifier, as the figure strategy reads it
        request = replace(request, qualifier=request.qualifier.without(registrant_words(["ACME_2022_10K.pdf"], [])))
        ev = figure_evidence(request, grids, chunks, {}, {"doc": "Acme 10-K"})
        assert [f.value for f in ev.figures] == [value], question
    grids, chunks = table({"Same Store 2022": 9_027, "Non-same Store 2022": 199})
    request = read_request("What FFO did Acme report for 2022 ($ in thousands)?")
    request = replace(request, qualifier=request.qualifier.without(registrant_words(["ACME_2022_10K.pdf"], [])))
    ev = figure_evidence(request, grids, chunks, {}, {"doc": "Acme 10-K"})
    assert not ev.figures and ev.refusals and "does not say which" in " ".join(p.text for p in ev.refusals)


def test_a_figure_of_a_table_stating_no_unit_is_never_converted_to_the_unit_asked():
    """"$1,302" in a table that states no unit is not "0.00 million": it is stated as printed, saying so."""
    from vera_core.answer.figures.figure_answer import figure_evidence
    from dataclasses import replace as _replace
    grid, chunk = statement("t1", "income", {"Net income": (1_302, 1_353)}, scale=1.0)
    grid = _replace(grid, cells=tuple(_replace(c, scale=1.0) for c in grid.cells))
    ev = figure_evidence(read_request("What was Acme's net income in FY2024? USD millions."), {"doc": [grid]},
                         {"t1": chunk}, {}, {"doc": "Acme release"})
    assert [f.value for f in ev.figures] == [1_302]
    assert "0.00" not in ev.pieces[0].text and "states no unit" in ev.pieces[0].text


@pytest.mark.parametrize("question, test, every, formula, years", [
    ("For Acme, did diluted EPS fall in 2024?", "down", False, "diluted earnings per share", [2023, 2024]),
    ("I'm an equity analyst covering ACME. Did the operating margin (operating income / total revenue) slip in FY2024 "
     "versus FY2023?", "down", False, "operating income / total revenue", [2023, 2024]),
    ("uber 2019-2021: did operating margin (loss from operations / revenue) improve every year?", "up", True,
     "loss from operations / revenue", [2019, 2020, 2021]),
    ("Weis Markets gross margin trend FY2020-FY2022 - improving? (gross profit on sales / net sales)", "up", False,
     "gross profit on sales / net sales", [2020, 2022]),
    ("Is Weis Markets' margin profile improving? Specifically, did gross profit on sales as a percentage of net sales "
     "rise each year from 2020 to 2022?", "up", True, "gross profit on sales / net sales", [2020, 2021, 2022]),
    ("Insurance analyst question on Enact: was the loss ratio (losses incurred ÷ premiums) lower in each successive "
     "year from 2020 to 2022?", "down", True, "losses incurred / premiums", [2020, 2021, 2022]),
])
def test_a_yes_no_asked_after_a_setting_clause_is_a_verdict_over_each_year_when_asked(question, test, every, formula,
                                                                                       years):
    """The yes/no is read from the clause that asks it, after a persona, a label or the periods; "every
    year" / "each successive year" tests each year against the one before, not only the ends."""
    verdict = read_verdict(question)
    assert verdict is not None and not verdict.unclear
    assert (verdict.test, verdict.every, render(verdict.plan.tree)) == (test, every, formula)
    assert [p.year for p in verdict.plan.periods] == years


def test_every_year_is_no_when_one_year_breaks_the_trend_and_says_which():
    from vera_core.answer.strategies.verdict import _judged
    from vera_core.answer.figures.metric_answer import metric_evidence
    income = statement("t1", "income", {"Total revenues": (96_773, 81_462, 53_823),
                                        "Gross profit": (17_660, 20_853, 13_606)}, years=(2023, 2022, 2021))
    verdict = read_verdict("Has Acme's gross margin (gross profit / total revenues) improved every year from 2021 "
                           "through 2023?")
    grids, chunks = {"doc": [income[0]]}, {income[1].chunk_id: income[1]}
    ev = metric_evidence(verdict.plan, grids, chunks, {}, {"doc": "Acme 10-K"})
    value, lead = _judged(verdict, ev.calculation)
    assert value == "no" and "not from FY2022 to FY2023" in lead  # 25.3% -> 25.6% rose, then 25.6% -> 18.2% fell
    verdict = read_verdict("Was Acme profitable (positive net income) in every year from 2021 through 2023?")
    income = statement("t1", "income", {"Net income": (-496, -6_768, 12)}, years=(2023, 2022, 2021))
    ev = metric_evidence(verdict.plan, {"doc": [income[0]]}, {income[1].chunk_id: income[1]}, {}, {"doc": "Acme 10-K"})
    value, lead = _judged(verdict, ev.calculation)
    assert value == "no" and "not in FY2022" in lead


def test_a_verdict_on_a_ratio_the_question_defines_is_withheld_when_the_formula_read_divides_nothing():
    verdict = read_verdict("Bank credit desk: is BCB Bancorp's leverage rising? Measure it as borrowings (FHLB advances "
                           "plus subordinated debentures) over total stockholders' equity, December 31, 2022 vs "
                           "December 31, 2021.")
    assert verdict is not None and verdict.unclear


def test_an_average_whose_years_follow_the_company_uses_the_question_s_own_ratio_for_each_year():
    """"Average dividend payout ratio for Weis Markets over fiscal 2020-2022, using cash dividends per share ÷
    basic and diluted EPS for each year, then a simple average": a mean over the three years of the
    question's own ratio, not the library's payout at the last year."""
    plan = read_plan("Average dividend payout ratio for Weis Markets over fiscal 2020-2022, using cash dividends per "
                     "share ÷ basic and diluted EPS for each year, then a simple average (%, 2 decimals)?")
    assert plan.over == "mean" and plan.source == "question" and plan.unit == "percent"
    assert render(plan.tree) == "cash dividends per share / basic and diluted EPS"
    assert [p.year for p in plan.periods] == [2020, 2021, 2022]
    # "Using the balance sheet ..., what was the current ratio": 'using' there names the source, not a formula
    plan = read_plan("Using the balance sheet in Costco's Q1 FY2023 release, what was the current ratio at November 20, "
                     "2022 (total current assets / total current liabilities)?")
    assert plan is not None and render(plan.tree) == "total current assets / total current liabilities"


def test_a_growth_of_a_line_item_shows_each_year_as_an_amount_not_a_percentage():
    income = statement("t1", "income", {"Total revenues": (150, 100)}, years=(2024, 2022))
    _, ev = evidence("What was Acme's revenue CAGR over FY2022 - FY2024?", income)
    assert "%" not in ev.calculation.results[0].rounded and ev.calculation.rounded.endswith("%")


# -- round 3 (data/blind/r3-filings-dev.jsonl): phrasings of other hands ----------------------------------

@pytest.mark.parametrize("question, words", [
    ("How much of FedEx's FY2023 revenue came from Amazon?", {"amazon"}),
    ("Intel 2020 revenue from China (incl. Hong Kong), $M?", {"china"}),
    ("How much revenue did Intel's foundry business bring in during 2020?", {"foundr"}),
    ("What were Gatorade's net revenues in 2022?", {"gatorad"}),
])
def test_a_qualifier_written_after_the_item_or_as_its_owner_is_read(question, words):
    qualifier = read_request(question).qualifier
    assert words <= qualifier.words | qualifier.owner
    # the owner of a possessive qualifies only where it is not the company
    company = registrant_words(["PEPSICO_2022_10K.pdf"], ["PepsiCo, Inc.\nCommon stock PEP Nasdaq"])
    assert words <= qualifier.without(company).words
    assert not read_request("What were PepsiCo's net revenues in 2022?").qualifier.without(company)


@pytest.mark.parametrize("question", ["Calculate 3M's DSO for 2022.", "What was AES's revenue in 2021?",
                                      "What was revenue from contracts with customers in 2022?"])
def test_a_company_s_own_possessive_or_a_line_s_own_name_is_no_qualifier(question):
    assert not read_request(question).qualifier.words


def test_a_year_that_names_the_document_is_not_a_period_asked():
    from vera_core.questions.figure import asked_periods
    assert [p.year for p in asked_periods("What FFO guidance did BXP give for 2016 in its 2015 10-K?")[0]] == [2016]
    assert [p.year for p in asked_periods("From the 2022 10-K, what was revenue in 2021?")[0]] == [2021]


def test_per_share_and_guidance_are_read_as_what_the_figure_must_be():
    request = read_request("What FFO per share guidance did Boston Properties give for 2016?")
    assert request.per_share and request.forward
    request = read_request("What was FFO in 2015?")
    assert not request.per_share and not request.forward


def test_year_end_balances_asked_replace_the_library_s_average():
    plan = read_plan("Calculate 3M's DSO for 2022 using year-end net accounts receivable and a 365-day year.")
    assert "avg" not in render(plan.tree)
    assert "avg" in render(read_plan("What was DSO in 2022?").tree)


def test_years_listed_one_by_one_are_the_span_of_an_average():
    plan = read_plan("Give me the average operating margin across 2020, 2021 and 2022, in percent.")
    assert plan.over == "mean" and [p.year for p in plan.periods] == [2020, 2021, 2022]


def test_a_scale_line_s_exception_gives_that_row_its_own_scale():
    from vera_core.finance.money import scale_exceptions
    line = "(in millions, except remaining performance obligation, which is presented in billions):"
    assert scale_exceptions(line) == [("remaining performance obligation", 1e9)]
    assert scale_exceptions("(In millions, except per share amounts)") == []


@pytest.mark.parametrize("question, words", [
    ("PepsiCo SG&A, fiscal 2022, $ millions", {"sell", "gener", "administrativ"}),
    ("How much did American Express spend on Card Member rewards in 2022? Give it in millions.", {"card", "member", "reward"}),
    ("Oracle R&D expense for the fiscal year ended May 31, 2021 - in millions?", {"research", "development", "expens"}),
])
def test_an_item_in_analysts_shorthand_is_read_as_the_statements_print_it(question, words):
    from vera_core.questions.figure import is_figure_question, item_phrase
    assert is_figure_question(question)
    assert words <= label_terms(item_phrase(question))
    assert "spend" not in item_phrase(question)


def test_a_reconciliation_s_effect_column_is_not_the_figure():
    """eBay prints GMV 'As Reported | Exchange Rate Effect | FX-Neutral'; the period's year landed in the effect
    column's header: its $2,362 is the currency effect, not GMV."""
    from vera_core.answer.figures.figure_answer import figure_evidence
    from vera_core.records import GridCell, Period, TableGrid
    from vera_core.records import ChunkRecord
    year = Period("fiscal_year", "2021-12-31", 2021, 12)
    headers = ("As Reported", "2021 Exchange Rate Effect", "FX-Neutral")
    cells = [GridCell(0, 0, "GMV", "", "", "GMV", None)] + [
        GridCell(0, j, "GMV", "", h, f"{v:,}", float(v), "", 1e6, "USD", year if j == 2 else None)
        for j, (h, v) in enumerate(zip(headers, (87_365, 2_362, 85_003)), 1)]
    grid = TableGrid("t1", "parsed", "", "Non-GAAP Measures", 1e6, "", "USD", ("",) + headers,
                     (None, None, year, None), tuple(cells), 1)
    chunk = ChunkRecord("t1", "doc", 1, "table", "", "", "", (), "", 1, 1, (), "", "", 0)
    request = read_request("eBay 2021 GMV, in $ millions?")
    company = registrant_words(["EBAY_2021_10K.pdf"], [])
    request = replace(request, item_terms=frozenset(t for t in request.item_terms if t not in company))  # as the strategy reads it
    ev = figure_evidence(request, {"doc": [grid]}, {"t1": chunk}, {}, {"doc": "eBay"})
    assert not ev.figures and "is an effect or change" in " ".join(p.text for p in ev.refusals)


def test_instructions_inside_a_definition_s_parenthesis_are_not_operands():
    plan = read_plan("What was PepsiCo's gross margin in FY2022 (gross profit / net revenue, %, 1 dp)?")
    assert render(plan.tree).lower() == "gross profit / net revenue" and plan.digits == 1 and plan.name == "gross margin"


def test_by_how_much_between_two_years_is_the_change_computed_from_both():
    plan = read_plan("By how much did FedEx's operating income change from FY2022 to FY2023, in $ millions "
                     "(negative if it fell)?")
    assert plan.over == "change" and [p.year for p in plan.periods] == [2022, 2023] and plan.name == "operating income change"


def test_a_company_named_with_a_digit_is_no_qualifier():
    """'3M diluted EPS 2022?': '3M' is one word (the company), not a '3' and an 'M' qualifying the item."""
    assert not read_request("3M diluted EPS 2022?").qualifier


def test_two_items_of_a_formula_are_never_read_from_one_cell():
    """A segment's revenue row read for its operating income too would state a margin of 100% whatever the filing
    says: two differently named operands from one cell are refused; one item read twice (a margin's revenue) is not."""
    from types import SimpleNamespace

    from vera_core.answer.figures.plausibility import one_cell_twice

    def operand(name: str, row: int, col: int = 1):
        chunk = SimpleNamespace(chunk_id="doc-00001")
        return SimpleNamespace(name=name, cell=SimpleNamespace(row=row, col=col), candidate=SimpleNamespace(chunk=chunk))

    assert "same cell" in one_cell_twice([operand("operating income", 4), operand("revenue", 4)])
    assert one_cell_twice([operand("revenue", 4), operand("cost of sales", 5), operand("revenue", 4)]) == ""
    assert one_cell_twice([operand("revenue", 4, col=1), operand("revenue", 4, col=2)]) == ""


def test_a_row_of_counts_in_a_table_of_amounts_is_asked_how_many():
    """eBay's supplemental data prints "Active Buyers (1)" (millions of buyers) beside GMV in dollars, under "(In
    millions, except percentages)": the document's currency does not make the buyers money, so "How many active
    buyers ..." is tried as that row's figure. A statement's row of the same shape stays money."""
    from vera_core.answer.strategies.shapes import _counts
    from vera_core.records import GridCell, Period, TableGrid
    quarter = Period("months", "2023-03-31", 2023, 3, 1)

    def grid(statement: str, label: str, printed: str) -> TableGrid:
        cells = (GridCell(0, 0, label, "", "", label, None),
                 GridCell(0, 1, label, "", "Three Months Ended March 31, 2023", printed, 133.0, "", 1e6, "USD", quarter))
        return TableGrid("t1", "parsed", statement, "Unaudited Supplemental Operating Data", 1e6, "document", "USD",
                         ("(In millions, except percentages)", "Three Months Ended March 31, 2023"), (None, quarter),
                         cells, 1)

    assert _counts("Active Buyers", {"d": [grid("", "Active Buyers (1)", "133")]})
    assert not _counts("Active Buyers", {"d": [grid("", "Active Buyers (1)", "$ 133")]})
    assert not _counts("Share repurchases", {"d": [grid("cash_flow", "Share repurchases", "133")]})
    assert not _counts("Active Buyers", {"d": []}), "no row printed: nothing to count"
    # a notes table's "Mac 29,357" prints sales without a "$": money, never Macs sold
    assert not _counts("Mac", {"d": [grid("", "Mac", "29,357")]})


def test_a_service_offering_named_after_the_item_qualifies_it():
    """"subscription and support revenue from the Data service offering" is the Data row's, never the total
    subscription and support revenue (stated wrong before: 7,642 for 1,131)."""
    from vera_core.questions.qualifiers import qualifier_after
    asked = "Salesforce Q1 FY24 - subscription and support revenue from the Data service offering, in $m?"
    end = asked.index(" from the Data")
    assert qualifier_after(asked, end).words == frozenset({"data"})
    assert qualifier_after("What was revenue from the Cloud product line in 2023?", len("What was revenue")).words == \
        frozenset({"cloud"})
