"""Issue 26, releases and decks (round 15-17 dev classes left open): rows named by a verb, sums defined in parentheses
after a persona's colon, falls asked as sizes, and what a figure would have been without an item.

- "how much debt did eBay repay", "how much long-term debt did Intel issue (net of issuance costs)": the row a verb
  names ("Repayment of debt", "Issuance of long-term debt, net of issuance costs"), with the company's name or "they"
  between its words; "spend buying back its stock" is the share repurchase line, "spend" no qualifier of it;
- "the first half of fiscal 2024 (six months to July 31, 2023)": a duration "to" a date is the period ended on it;
- "using the Q1 and Q2 FY24 releases, how much did total debt (current plus noncurrent) change between April 30, 2023 and
  July 31, 2023?": the quarters of a list that names the releases are no periods beside the dates asked, and a
  question after a persona's colon ("Treasury question: how much ...") is no formula of the colon;
- "How many fewer employees did Intel report at the end of Q1 2023 than at the end of Q4 2022?", "intel headcount went
  down between ... - by how many": the size of the fall, not a negative change (a question asking for the sign keeps
  it); the company's name written before the item in lower case ("intel headcount") is read as no word of the item
  only when the item as written finds no row;
- "What would diluted EPS have been excluding that charge?": the level a sentence says the item would have reached
  ("... would have increased by $6.20 to $7.25"), never the reported figure; no such sentence, no figure;
- a period named twice ("Q3 FY23 (3 months to Oct 31, 2022)") is one cell, stated once.

Corpus golds are the blind writers' own, judged as `vera eval` judges them (skipped when ../shared/corpus is absent)."""

from __future__ import annotations

import pytest

from tests.conftest import blind_golds, corpus_engine, searchable_pdfs
from tests.made_pdfs import release_pdf
from tests.test_release_rows_named import IR
from vera_core.answer.figures.counterfactual import counterfactual_figure
from vera_core.answer.units import split_units
from vera_core.cli.eval_judge import judge
from vera_core.documents.identity import Identity
from vera_core.query import QueryEngine
from vera_core.questions.figure import asked_periods
from vera_core.questions.metric import read_plan
from vera_core.questions.restate import restated
from vera_core.questions.row_asks import label_in_question
from vera_core.records import ChunkRecord, Period


@pytest.mark.parametrize("question, label", [
    ("Credit analyst question: how much debt did eBay repay in Q1 2023, per the cash flow statement?", "Repayment of debt"),
    ("Credit question on eBay: how much debt did they repay in 1Q23?", "Repayment of debt"),
    ("As a bond investor: how much long-term debt did Intel issue (net of issuance costs) in Q1 2023? In $bn.",
     "Issuance of long-term debt, net of issuance costs"),
])
def test_a_row_named_by_its_verb_with_the_company_between_its_words(question, label):
    assert label_in_question(question, label, {"ebay", "intel"}) is not None
    # the company's words only: another word between the label's words still names no row
    assert label_in_question("how much debt did eBay's lenders repay in Q1 2023?", "Repayment of debt", {"ebay"}) is None


def test_a_duration_to_a_date_is_the_period_ended_on_it():
    assert asked_periods("How much cash did Salesforce spend buying back its stock in the first half of fiscal 2024 (six "
                         "months to July 31, 2023)?")[0] == [Period("months", "2023-07-31", 2023, 6)]
    assert asked_periods("repurchases in the six months through July 31, 2023?")[0] == [Period("months", "2023-07-31", 2023, 6)]


def test_quarters_naming_releases_are_no_periods_beside_the_dates_asked():
    for question in ("Treasury question: using the Q1 and Q2 FY24 releases, how much did Salesforce's total debt (current "
                     "plus noncurrent) change between April 30, 2023 and July 31, 2023? $ millions",
                     "For my debt tracker: using the balance sheets in Salesforce's Q1 FY24 and Q2 FY24 releases, by how "
                     "much did total debt (current plus noncurrent) change from April 30, 2023 to July 31, 2023? $ "
                     "millions, negative if it fell."):
        plan = read_plan(question)
        # NOTE: each part named with the item's noun ("total debt (current plus noncurrent)", `metric._parts_of`)
        assert plan is not None and plan.definition == "current debt plus noncurrent debt", plan
        assert plan.periods == (Period("instant", "2023-04-30", 2023), Period("instant", "2023-07-31", 2023))
        assert not plan.fall_asked  # the second asks for the sign ("negative if it fell"); the first for a change
    # a formula after a colon is still one ("Alphabet's 2023 ROE: net income divided by ...")
    roe = read_plan("Alphabet's 2023 ROE: net income divided by total stockholders' equity?")
    assert roe is not None and roe.definition.startswith("net income divided by")


def test_two_quarter_ends_are_the_dates_never_their_years():
    # two days of two years are the days; one day of two years is a year end each
    assert restated("how much did cash and cash equivalents increase between Nov 20, 2022 and May 7, 2023? In millions.") == \
        "What was the change in cash and cash equivalents from Nov 20, 2022 to May 7, 2023? In millions."
    assert restated("How much did total debt change between December 31, 2020 and Dec 31, 2021?") == \
        "What was the change in total debt from 2020 to 2021?"
    question = ("I track liquidity quarter to quarter. Using the Q1 FY2023 and Q3 FY2023 Costco releases, how much did cash "
                "and cash equivalents increase between the end of the first quarter (Nov 20, 2022) and the end of the third "
                "quarter (May 7, 2023)? In millions.")
    assert asked_periods(question)[0] == [Period("instant", "2022-11-20", 2022), Period("instant", "2023-05-07", 2023)]
    plan = read_plan(question)
    assert plan is not None and plan.periods == (Period("instant", "2022-11-20", 2022), Period("instant", "2023-05-07", 2023))


def test_a_note_s_object_before_a_dash_and_its_period_in_parentheses():
    plan = read_plan("Intel DCAI revenue y/y change in Q1 2023 - exact % from the segment table, 2 decimals")
    assert plan is not None and (plan.name, plan.over, plan.digits) == ("Intel DCAI revenue growth", "growth", 2), plan
    from vera_core.questions.row_asks import asks_amount
    assert asks_amount("COST 3Q FY23 (12 wks to May 7 '23): interest income & other, net?")


def test_a_quarter_named_by_its_month_alone_is_the_one_the_documents_cover():
    from vera_core.questions.month_quarters import dated_month_quarters
    asked = "Salesforce Asia Pacific revenue growth y/y in the July quarter - as reported, not constant currency"
    read, dated = dated_month_quarters(asked, ["2023-07-31", "2023-04-30"])
    assert read == asked.replace("the July quarter", "the July 2023 quarter") and dated == {"the July quarter":
                                                                                            "the July 2023 quarter"}
    assert dated_month_quarters(asked, ["2023-07-31", "2022-07-31"]) == (asked, {})  # two Julys: left as asked
    assert dated_month_quarters(asked, ["2023-04-30"]) == (asked, {})
    assert dated_month_quarters("revenue in the July quarter of FY24", ["2023-07-31"])[1] == {}  # its year is named


@pytest.mark.parametrize("question, fall", [
    ("How many fewer employees did Intel report at the end of Q1 2023 than at the end of Q4 2022? Answer in thousands.", True),
    ("intel headcount went down between the Q4 2022 release and the Q1 2023 release - by how many employees, in thousands?",
     True),
    ("How much did Falcon's total debt change from Q4 2022 to Q1 2023?", False),
    ("By how much did Falcon's total debt decrease from Q4 2022 to Q1 2023, negative if it fell?", False),
])
def test_a_fall_asked_is_its_size(question, fall):
    plan = read_plan(question)
    assert plan is not None and plan.over == "change" and plan.fall_asked is fall, plan
    assert plan.periods == (Period("quarter", "", 2022, 3, 4), Period("quarter", "", 2023, 3, 1))


def test_how_many_fewer_is_restated_as_the_change_between_the_quarters():
    assert restated("How many fewer employees did Intel report at the end of Q1 2023 than at the end of Q4 2022? Answer in "
                    "thousands.") == "What was the change in Intel's employees from Q4 2022 to Q1 2023? Answer in thousands."


def _falcon(tmp_path, tmp_path_factory, name: str, quarter: int, month_end: str, rows, cash_rows) -> QueryEngine:
    path = tmp_path / name
    path.write_bytes(release_pdf(quarter, month_end, rows, cash_rows, table_title="Supplemental Operating Data"))
    return QueryEngine(searchable_pdfs(tmp_path_factory, name.removesuffix(".pdf"), [path]), llm=None)


def test_a_fall_is_stated_as_its_size_and_a_change_keeps_its_sign(tmp_path, tmp_path_factory):
    engine = _falcon(tmp_path, tmp_path_factory, "falcon_q1_fall.pdf", 1, "March 31",
                     [("Employees (in thousands)", "125.5", "131.9")],
                     [("Repayment of debt", "(1,150)", "(750)"), ("Net cash from operating activities", "900", "800")])
    fewer = engine.answer("How many fewer employees did Falcon report in Q1 2023 than in Q1 2022? Answer in thousands.",
                          docs=["falcon_q1_fall.pdf"], mode="deterministic")
    assert fewer.calculation is not None and fewer.calculation.result == pytest.approx(6.4e3), fewer.answer
    assert "a fall" in fewer.answer
    change = engine.answer("What was the change in Falcon's employees from Q1 2022 to Q1 2023?",
                           docs=["falcon_q1_fall.pdf"], mode="deterministic")
    assert change.calculation is not None and change.calculation.result == pytest.approx(-6.4e3), change.answer
    repaid = engine.answer("How much debt did Falcon repay in Q1 2023?", docs=["falcon_q1_fall.pdf"], mode="deterministic")
    assert [f.printed for f in repaid.figures] == ["(1,150)"], repaid.answer


def test_the_company_before_a_formula_item_is_read_only_when_the_item_finds_no_row(tmp_path, tmp_path_factory):
    engine = _falcon(tmp_path, tmp_path_factory, "falcon_q1_heads.pdf", 1, "March 31",
                     [("Headcount (in thousands)", "125.5", "131.9")], [("Net cash from operating activities", "900", "800")])
    answer = engine.answer("falcon headcount went down between Q1 2022 and Q1 2023 - by how many?",
                           docs=["falcon_q1_heads.pdf"], mode="deterministic")
    assert answer.calculation is not None and answer.calculation.result == pytest.approx(6.4e3), answer.answer
    assert [o.printed for o in answer.calculation.operands] == ["131.9", "125.5"]


def test_a_loss_widening_changes_by_its_size(tmp_path, tmp_path_factory):
    engine = _falcon(tmp_path, tmp_path_factory, "falcon_q2_loss.pdf", 2, "June 30",
                     [("Devices operating loss", "(4,488)", "(3,846)")], [("Net cash from operating activities", "900", "800")])
    wider = engine.answer("By how much did the Devices operating loss widen from Q2 2022 to Q2 2023, in $ millions?",
                          docs=["falcon_q2_loss.pdf"], mode="deterministic")
    assert wider.calculation is not None and wider.calculation.result == pytest.approx(642e6), wider.answer
    narrower = engine.answer("By how much did the Devices operating loss narrow from Q2 2023 to Q2 2022, in $ millions?",
                             docs=["falcon_q2_loss.pdf"], mode="deterministic")
    assert narrower.calculation is not None and narrower.calculation.result == pytest.approx(642e6), narrower.answer


def test_year_to_date_reaches_its_quarter_over_the_item_s_words():
    assert asked_periods("What were Meta's year-to-date capital expenditures through Q3 2025, including principal payments "
                         "on finance leases, in $bn?")[0] == [Period("fiscal_months", "", 2025, 9)]


def test_a_short_name_in_parentheses_keeps_the_item_going_and_adjustments_are_another_line():
    plan = read_plan("Family of Apps (FoA) operating income growth YoY, Q3 2024")
    assert plan is not None and plan.name == "Family of Apps operating income growth", plan
    from vera_core.answer.figures.cells import _another_concept, changes_meaning
    from vera_core.finance.line_items import concepts_in
    operating = concepts_in("operating income")[0]
    assert _another_concept("Non-GAAP net income from continuing operations", operating) == "net income"
    assert _another_concept("Non-GAAP operating income", operating) == ""
    diluted = concepts_in("diluted EPS")[0]
    assert _another_concept("Net income (loss) per share - diluted", diluted) == ""  # a per-share row is EPS
    assert "adjustment" in changes_meaning("Total non-GAAP operating income adjustments", operating,
                                           frozenset({"non", "gaap"}))


def test_a_sum_told_as_an_instruction_and_regions_as_analysts_write_them():
    assert restated("On Costco's Q1 FY23 balance sheet (Nov 20, 2022), what is total debt if I add the current portion of "
                    "long-term debt to long-term debt excluding the current portion? In $ millions please.") == \
        ("On Costco's Q1 FY23 balance sheet (Nov 20, 2022), what is total debt (current portion of long-term debt plus "
         "long-term debt excluding the current portion)? In $ millions please.")
    from vera_core.questions.row_asks import asks_amount
    assert not asks_amount("what is total debt if I add the current portion to long-term debt?")  # a formula, no row
    from vera_core.finance.line_items import label_sequence
    assert label_sequence("APAC revenue") == label_sequence("Asia-Pacific revenue")


Q3 = Identity(fiscal_year=2025, fiscal_quarter=3, period_end="2025-09-30")
FOOTNOTE = ("*Net income includes a one-time, non-cash income tax charge to provision for income taxes of $15.93 billion "
            "accrued in the third quarter of 2025. Excluding this one-time tax charge, our third quarter 2025 diluted "
            "earnings per share would have increased by $6.20 to $7.25 compared to the reported diluted EPS of $1.05.")


def _units(*paragraphs: str):
    chunks = [ChunkRecord(f"deck-c{i}", "deck", i, "text", p, p, "Slide 8", ("Slide 8",), "s", 8, 8, (), "", "", 60)
              for i, p in enumerate(paragraphs)]
    return [u for c in chunks for u in split_units(c)]


def test_what_a_figure_would_have_been_is_the_level_its_sentence_states():
    question = ("Meta's reported Q3 2025 EPS got hit by a one-off tax charge. What would diluted EPS have been excluding "
                "that charge (the adjusted number, not the reported GAAP one)?")
    found, _ = counterfactual_figure(question, asked_periods(question)[0][0], {"meta"}, _units(FOOTNOTE), {"deck": Q3})
    assert found is not None and found.amount == pytest.approx(7.25) and found.mention.text == "$7.25"
    assert "excluding this one-time tax charge" in found.subject
    # another quarter, another item or no sentence of the kind: nothing is read
    q2 = "What would Meta's Q2 2025 diluted EPS have been excluding the charge?"
    assert counterfactual_figure(q2, asked_periods(q2)[0][0], {"meta"}, _units(FOOTNOTE), {"deck": Q3})[0] is None
    op = "What would Meta's Q3 2025 operating income have been excluding the charge?"
    assert counterfactual_figure(op, asked_periods(op)[0][0], {"meta"}, _units(FOOTNOTE), {"deck": Q3})[0] is None
    reported = "Diluted earnings per share was $1.05 in the third quarter of 2025."
    assert counterfactual_figure(question, asked_periods(question)[0][0], {"meta"}, _units(reported), {"deck": Q3})[0] is None


def test_a_rate_that_would_have_moved_by_points_is_read_at_its_level():
    rate = ("Excluding this one-time tax charge, our third quarter 2025 effective tax rate would have decreased by 73 "
            "percentage points to 14%, compared to the reported effective tax rate of 87%.")
    question = ("Meta booked a one-time, non-cash tax charge in Q3 2025. Excluding that charge, what would the quarter's "
                "effective tax rate have been?")
    found, _ = counterfactual_figure(question, asked_periods(question)[0][0], {"meta"}, _units(rate), {"deck": Q3})
    assert found is not None and found.mention.text == "14%", found


def test_no_sentence_of_what_it_would_have_been_states_no_reported_figure(tmp_path, tmp_path_factory):
    engine = _falcon(tmp_path, tmp_path_factory, "falcon_q3_eps.pdf", 3, "September 30",
                     [("Diluted earnings per share", "$1.05", "$4.39")], [("Net cash from operating activities", "900", "800")])
    answer = engine.answer("What would Falcon's Q3 2023 diluted EPS have been excluding the tax charge?",
                           docs=["falcon_q3_eps.pdf"], mode="deterministic")
    assert not answer.figures and answer.calculation is None, answer.answer
    assert "would have been without an item" in answer.answer and "reported figure is not its answer" in answer.answer


FILES = [IR / "EBAY" / "EBAY_2023Q1_RELEASE.pdf", IR / "INTC" / "INTC_2023Q1_RELEASE.pdf", IR / "COST" / "COST_2023Q1_RELEASE.pdf",
         IR / "COST" / "COST_2023Q3_RELEASE.pdf",
         IR / "INTC" / "INTC_2022Q4_RELEASE.pdf", IR / "CRM" / "CRM_2024Q1_RELEASE.pdf", IR / "CRM" / "CRM_2024Q2_RELEASE.pdf",
         IR / "META" / "META_2025Q3_SLIDES.pdf", IR / "META" / "META_2024Q3_RELEASE.pdf", IR / "META" / "META_2024Q2_SLIDES.pdf",
         IR / "EBAY" / "EBAY_2023Q2_RELEASE.pdf", IR / "TWLO" / "TWLO_2023Q4_SLIDES.pdf"]
GOLDS = {**blind_golds("r15-ir-releases-holdout"), **blind_golds("r16-ir-releases-holdout"),
         **blind_golds("r17-ir-releases-holdout"), **blind_golds("r18-ir-releases-holdout")}


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "verbs-falls", FILES, f"ir-dev releases and decks not found under {IR}")


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", [
    ("w36-024", "'how much debt did eBay repay': Repayment of debt, 1,150"),
    ("w40-028", "'how much debt did they repay in 1Q23': 1,150"),
    ("w40-038", "'how much long-term debt did Intel issue (net of issuance costs)': 10.968 billion"),
    ("w38-035", "'spend buying back its stock ... (six months to July 31, 2023)': 4,003"),
    ("w38-037", "'Treasury question: using the Q1 and Q2 FY24 releases ... total debt (current plus noncurrent)': -179"),
    ("w40-036", "'... Q1 FY24 and Q2 FY24 releases ... negative if it fell': -179"),
    ("w38-042", "'How many fewer employees did Intel report ...': 6.4 thousand"),
    ("w40-040", "'intel headcount went down ... by how many employees, in thousands': 6.4"),
    ("w36-008", "'What would net income have been excluding that charge': 18.64 billion"),
    ("w38-007", "'What would diluted EPS have been excluding that charge': $7.25"),
    ("w40-007", "'what would diluted EPS have been excluding that charge', per the deck: $7.25"),
    ("w40-027", "cash between 'the end of the first quarter (Nov 20, 2022)' and the third's (May 7, 2023): 1,637"),
    ("w40-039", "'Intel DCAI revenue y/y change in Q1 2023 - exact % from the segment table, 2 decimals': -38.79%"),
    ("w40-023", "'COST 3Q FY23 (12 wks to May 7 '23): interest income & other, net?': 128"),
    ("w38-036", "'Salesforce Asia Pacific revenue growth y/y in the July quarter': the Q2 FY24 release's, 20.45%"),
    ("w42-010", "eBay 'non-GAAP operating income from continuing operations': 744, never its adjustments' 186"),
    ("w42-025", "Meta's Q3 2024 'revenue excluding the foreign exchange effect': 41.133bn, never reported revenue"),
    ("w42-026", "'FoA operating income growth YoY, Q3 2024': the segment's operating income, 24.52%, not its revenue's"),
    ("w42-028", "'by how much did the Reality Labs operating loss widen from Q1 2024 to Q2 2024': 642"),
    ("w42-037", "'year-to-date capital expenditures through Q3 2025': the nine months' 50.078bn, not the quarter's"),
    ("w42-001", "Costco 'total debt if I add the current portion of long-term debt to long-term debt excluding ...': 6,543"),
    ("w42-013", "'Salesfroce full-time equivalent headcount at the end of Q1 FY24?': 72,970"),
    ("w42-016", "'CRM Q1 FY24 - APAC revenue growth y/y as reported': the Asia Pacific row's 15.95%"),
    ("w42-036", "'DAP for Q3 2025, in billions?': the chart's 3.54, the row named by its acronym"),
    ("w42-038", "'Excluding that charge, what would the quarter's effective tax rate have been?': 14%"),
    ("w42-021", "'intel notbook revenue yoy change q1 23, % to 1 decimal': a dropped vowel and an instruction after a comma"),
    ("w42-022", "'how many employees did Intel shed between year-end 2022 and the end of Q1 2023?': 6.4 thousand"),
    ("w42-042", "'twilio communications non-gaap income from ops, q3->q4 2023 sequential growth %': 12.22%"),
])
def test_a_verb_a_fall_or_a_level_without_an_item_is_answered(engine, qid, cls):
    gold = GOLDS[qid]
    docs = sorted({f"{o.get('doc_name') or gold['doc_name']}.pdf" for o in gold["operands"]} | {f"{gold['doc_name']}.pdf"})
    answer = engine.answer(gold["question"], docs=docs, mode="deterministic")
    assert judge(gold, answer) == "correct", f"{cls}: {answer.answer[:300]}"


def test_a_note_s_arrow_its_instruction_and_a_verb_of_shedding():
    """Round 18's notes: "q3->q4 2023 sequential growth %" after the item is the change from Q3 to Q4; "% to 1 decimal"
    after a comma is an instruction, no word of the item; "how many employees did Intel shed between year-end 2022 and
    the end of Q1 2023" is how many fewer it reported at the end of Q1 2023 than at the end of Q4 2022, a fall asked as
    its size ("hire" asks how many more)."""
    from vera_core.questions.metric import asks_fall
    assert restated("twilio communications non-gaap income from ops, q3->q4 2023 sequential growth %") == \
        "What was the percent change in twilio communications non-gaap income from ops from q3 2023 to q4 2023? %"
    assert restated("how many employees did Intel shed between year-end 2022 and the end of Q1 2023?") == \
        "What was the change in Intel's employees from Q4 2022 to Q1 2023?"
    assert restated("How many people did Costco hire between fiscal 2022 year-end and Q3 FY23?") == \
        "What was the change in Costco's people from Q4 FY2022 to Q3 FY23?"
    assert asks_fall("how many employees did Intel shed between year-end 2022 and the end of Q1 2023?")
    assert not asks_fall("How many people did Costco hire between fiscal 2022 year-end and Q3 FY23?")
    plan = read_plan(restated("intel notebook revenue yoy change q1 23, % to 1 decimal"))
    assert plan is not None and "decimal" not in plan.name and plan.digits == 1, plan
