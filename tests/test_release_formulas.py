"""Issue 26, releases and decks (round 16 dev classes): formulas and counts as analysts write them.

- "net sales minus merchandise costs as a % of net sales": a share of names the whole difference before it, said as its
  last words ((A - B) / A), never A - (B / A), which added an amount to a ratio and stated nothing;
- "the Family of Apps operating margin (FoA operating income divided by FoA revenue)": the formula's short names are
  read as the document defines them even when the question prints the long name too;
- "how many diluted shares did Costco use in its EPS calculation ... Millions, please": "EPS calculation" is the
  company's calculation (a printed input, not a metric of VERA's); the count is read from the rows under "Shares used in
  calculation (000's)", in the thousands that heading states, not the "dollars in millions" of the table, and not the
  EPS row beside it; a scale written as a note after the question ("Millions, please.") is the unit asked;
- a metric's name is said without the period's words ("merchandise margin", not "merchandise margin in of fiscal
  2023");
- a ligature glyph PyMuPDF 2 reads as "ð" ("Gross proðt" in eBay's release) is read like the other letters a font
  mislabels (tests/test_ligatures.py);
- a printed line added up over quarters ("I need Reality Labs' full-year 2024 operating loss. Add up the quarters from
  Meta's Q1, Q2, Q3 and Q4 2024 earnings decks"): each quarter's printed figure, VERA's sum (the line had been listed
  quarter by quarter with no total, and only for the two quarters whose year was read);
- a growth between two periods named years apart ("the % increase in total revenue from Q1 2022 to Q3 2025", "revenue
  growth from FY2019 to FY2022") is over the earlier period named: the library's revenue growth had been taken over the
  year before the later one, a wrong figure stated; "How much bigger was X in Q3 2025 than back in Q1 2022? Give me the %
  increase." asks the same;
- a balance at a quarter's end of a 52/53-week year (Costco's third quarter of fiscal 2023 ends May 7, 2023): the date each
  release in scope reads as its own quarter's end is that quarter's (a quarter had been matched only to a month's last
  day); "between the Q1 FY23 balance sheet (Nov 20, 2022) and the Q3 FY23 one" is the change between the quarters;
- "X droped between the end of Q1 FY24 and the end of Q2 FY24 - by how many people?" asks the change; "cumulative" asks a
  sum; "the change in total debt" asks no sum ("in total" is no sum before a noun); a change between two dates of one
  year ("between April 30, 2023 and July 31, 2023") is between the dates, never "from 2023 to 2023";
- a deck's chart of "Quarterly" bars (Q3'24, Q3'25) beside "YTD" bars labelled by the year alone (2024, 2025): the years
  are the nine months to the third quarter; they had been read as full years (Meta's year-to-date capex, $50,078
  million, would have been stated for "full-year 2025 capex"), and the year to date asked had no column;
- "how much wider was the Reality Labs operating loss in Q3 2024 vs Q3 2023, in percent?" (round 17's wrong answer, the
  "Reality Labs" revenue row listed): the percent change of the loss, whose size grows (18.3%); of two rows of one label,
  the one whose heading the question names ("Income (loss) from operations" for "operating loss", not "Revenue");
- a sum's line named in its asking clause ("If I add up ... decks, what's the full-year 2024 RL operating loss?"); a
  sequential change noted with an arrow ("ebay US GMV sequential chnage Q1 -> Q2 2023, % to 2dp"); headcount is the
  "Employees" row;
- "eBay 1Q23 U.S. GMV": the "U.S." row under the "Gross Merchandise Volume" heading, which the last check names as the
  line asked when the total was read; it had abstained ("U.S." had been read as the letters "U" and "S", and the line
  the check named was never read)."""

from __future__ import annotations

import pytest

from tests.conftest import blind_golds, corpus_engine, searchable_pdfs
from tests.made_pdfs import release_pdf
from vera_core.cli.eval_judge import judge
from vera_core.query import QueryEngine
from vera_core.questions.expression import normalise, parse, render
from vera_core.questions.figure import asked_scale, is_figure_question
from vera_core.questions.metric import _summed_item, read_plan
from vera_core.questions.restate import restated

from tests.test_release_rows_named import IR


@pytest.mark.parametrize("written, read", [
    ("net sales minus merchandise costs as a % of net sales", "(net sales - merchandise costs) / net sales"),
    ("revenue less cost of sales as a share of revenue", "(revenue - cost of sales) / revenue"),
    ("gross profit as a percentage of revenue", "gross profit / revenue"),
    ("operating income - interest / revenue", "operating income - interest / revenue"),  # symbols keep their order
])
def test_a_share_of_names_the_whole_difference_before_it(written, read):
    assert render(parse(normalise(written))) == read


def test_a_scale_written_as_a_note_is_the_unit_asked():
    assert asked_scale("How many diluted shares did it use? Millions, please.") == 1e6
    assert asked_scale("how many shares (millions)?") == 1e6
    assert asked_scale("Revenue? Billions.") == 1e9
    assert asked_scale("millions of customers in 2023?") is None  # a count of things, no unit asked


def test_the_company_s_eps_calculation_asks_a_printed_figure():
    assert is_figure_question("how many diluted shares did Costco use in its EPS calculation for Q3 fiscal 2023?")
    assert not is_figure_question("calculate Costco's diluted EPS growth for Q3 fiscal 2023")


def test_a_metric_is_named_without_its_period_s_words():
    plan = read_plan("What was Costco's merchandise margin in Q3 of fiscal 2023, i.e. net sales minus merchandise "
                     "costs as a % of net sales?")
    assert plan is not None and plan.name == "merchandise margin", plan
    plan = read_plan("What was gross margin (gross profit over net revenues) for the first quarter of 2023?")
    assert plan is not None and plan.name == "gross margin", plan


def test_a_share_count_is_stated_in_the_scale_its_heading_prints(tmp_path, tmp_path_factory):
    path = tmp_path / "falcon_q3_release.pdf"
    path.write_bytes(release_pdf(3, "September 30", [
        ("Net sales", "52,604", "51,612"), ("Net income", "1,302", "1,353"),
        ("Net income per common share:", "", ""), ("Diluted", "$2.93", "$3.04"),
        ("Shares used in calculation (000's):", "", ""), ("Diluted", "444,360", "444,886")],
        [("Net cash from operating activities", "900", "800")], table_title="Condensed Consolidated Statements of Income"))
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-shares", [path]), llm=None)
    answer = engine.answer("For my share-count tracker: how many diluted shares did Falcon use in its EPS calculation "
                           "for the third quarter of 2023? Millions, please.", docs=[path.name], mode="deterministic")
    assert [(f.printed, f.value * f.scale) for f in answer.figures] == [("444,360", 444_360_000)], answer.answer
    assert "444.36 million" in answer.answer, answer.answer  # never 444,360 million: the table's millions are dollars


@pytest.mark.parametrize("question, item", [
    ("For an operating-metrics sheet I need Reality Labs' full-year 2024 operating loss. Add up the quarters from Meta's "
     "Q1, Q2, Q3 and Q4 2024 earnings decks - what's the total, in $ millions?", "Reality Labs' operating loss"),
    ("What is Meta's total capital expenditures across Q1, Q2 and Q3 2024 combined?", "Meta's capital expenditures"),
    ("Add up Reality Labs operating loss for Q1-Q4 2024", "Reality Labs operating loss"),
    ("Sum eBay's GMV for Q1 and Q2 2023", "eBay's GMV"),
])
def test_the_line_a_sum_adds_up_is_named_without_periods_documents_or_summing_words(question, item):
    assert _summed_item(question) == item
    plan = read_plan(question)
    assert plan is not None and plan.name == item and plan.unit == "amount", plan


def test_a_printed_line_is_added_up_over_the_quarters_named(tmp_path, tmp_path_factory):
    paths = []
    for quarter, month, loss in ((1, "March 31", "(3,846)"), (2, "June 30", "(4,488)")):
        path = tmp_path / f"falcon_q{quarter}_release.pdf"
        path.write_bytes(release_pdf(quarter, month, [("Revenue", "9,000", "8,000"), ("Devices operating loss", loss, "(900)")],
                                     [("Net cash from operating activities", "900", "800")], table_title="Segment Results"))
        paths.append(path)
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-summed-rows", paths), llm=None)
    asked = "I need Devices' first-half 2023 operating loss. Add up the quarters from Falcon's Q1 and Q2 2023 releases."
    answer = engine.answer(asked, mode="deterministic")
    assert answer.calculation is not None and answer.calculation.aggregate == "sum", answer.answer
    assert answer.calculation.result == 8_334e6, answer.answer  # 3,846 + 4,488: a loss asked as such, added as its size
    assert "a loss of 8,334 million" in answer.answer, answer.answer
    assert [o.printed for o in answer.calculation.operands] == ["(3,846)", "(4,488)"]
    three = engine.answer(asked.replace("Q1 and Q2", "Q1, Q2 and Q3"), mode="deterministic")
    assert three.calculation is None or three.calculation.result is None, three.answer  # Q3 is printed nowhere


def test_a_growth_between_two_periods_named_is_over_the_earlier_one():
    for question, earlier in (("What was the % increase in Meta's total revenue from Q1 2022 to Q3 2025?", "2022]"),
                              ("What was revenue growth from FY2019 to FY2022?", "[2019]"),
                              ("revenue growth between 2020 and 2022", "[2020]")):
        plan = read_plan(question)
        assert plan is not None and earlier in render(plan.tree) and "prior(" not in render(plan.tree), (question, plan)
    plan = read_plan("What was the % increase in Meta's total revenue from Q1 2022 to Q3 2025?")
    assert [(p.year, p.quarter) for p in plan.periods] == [(2025, 3)]
    assert "prior(" in render(read_plan("revenue growth in 2022").tree)  # one year named: over the year before
    assert restated("How much bigger was Meta's quarterly total revenue in Q3 2025 than back in Q1 2022? Give me the % "
                    "increase.") == "What was the percent change in Meta's total revenue from Q1 2022 to Q3 2025?"
    assert restated("How much higher was GMV in Q2 2023 than in Q1 2023?") == \
        "What was the change in GMV from Q1 2023 to Q2 2023?"  # no percentage asked: the change, not a growth


def test_a_chart_s_years_under_ytd_are_the_months_to_its_quarter():
    from vera_core.ingest.pdf_charts import with_charts
    from vera_core.ingest.pdf_tables import region_grid
    from tests.test_release_rows_named import _row

    def slide(quarter: str, years: tuple[str, str]):
        return sorted([_row(30, 100, (100, "Capital Expenditures")), _row(104, 140, (100, "In Millions")),
                       _row(233, 264, (1422, "$50,078")), _row(514, 545, (1031, "$24,389")), _row(570, 601, (643, "$19,374")),
                       _row(682, 712, (259, "$9,202")),
                       _row(819, 850, (264, f"{quarter}'24"), (655, f"{quarter}'25"), (1049, years[0]), (1439, years[1])),
                       _row(869, 906, (430, "Quarterly"), (1249, "YTD"))], key=lambda r: r.y0)
    header, _ = region_grid(with_charts(slide("Q3", ("2024", "2025")), [])[0])
    assert header[1:] == ["Q3'24", "Q3'25", "Nine Months Ended 2024", "Nine Months Ended 2025"]
    header, _ = region_grid(with_charts(slide("Q4", ("2024", "2025")), [])[0])
    assert header[1:] == ["Q4'24", "Q4'25", "2024", "2025"]  # through the fourth quarter: the year itself
    rows = slide("Q3", ("2024", "2025"))
    rows = [r for r in rows if "YTD" not in r.text]
    header, _ = region_grid(with_charts(rows, [])[0])
    assert header[1:] == ["Q3'24", "Q3'25", "2024", "2025"]  # no YTD label: the years as printed


def test_a_part_named_under_the_item_s_heading_is_the_line_asked(tmp_path, tmp_path_factory):
    path = tmp_path / "falcon_q1_release.pdf"
    path.write_bytes(release_pdf(1, "March 31", [
        ("Active buyers", "", ""), ("U.S.", "50", "52"), ("International", "83", "86"), ("Total active buyers", "133", "138"),
        ("Gross merchandise volume", "", ""), ("U.S.", "$9,010", "$9,335"), ("International", "9,400", "10,074"),
        ("Total gross merchandise volume", "$18,410", "$19,409")],
        [("Net cash from operating activities", "900", "800")], table_title="Supplemental Operating Data"))
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-parts", [path]), llm=None)
    us = engine.answer("Falcon 1Q23 U.S. gross merchandise volume in $m", docs=[path.name], mode="deterministic")
    assert [f.printed for f in us.figures] == ["$9,010"], us.answer  # never the total, never the buyers' U.S. row
    abroad = engine.answer("Falcon Q1 2023 international gross merchandise volume, $m?", docs=[path.name],
                           mode="deterministic")
    assert [f.printed for f in abroad.figures] == ["9,400"], abroad.answer
    total = engine.answer("What was Falcon's total gross merchandise volume in Q1 2023?", docs=[path.name],
                          mode="deterministic")
    assert [f.printed for f in total.figures] == ["$18,410"], total.answer


def test_a_loss_asked_wider_grows_with_its_size_and_is_read_under_its_heading(tmp_path, tmp_path_factory):
    path = tmp_path / "falcon_q3_release.pdf"
    path.write_bytes(release_pdf(3, "September 30", [
        ("Revenue:", "", ""), ("Devices", "270", "210"), ("Services", "9,000", "8,000"),
        ("Income (loss) from operations:", "", ""), ("Devices", "(4,428)", "(3,742)"), ("Services", "2,000", "1,500")],
        [("Net cash from operating activities", "900", "800")], table_title="Segment Information"))
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-loss", [path]), llm=None)
    wider = engine.answer("how much wider was the Devices operating loss in Q3 2023 vs Q3 2022, in percent? one decimal "
                          "is fine", docs=[path.name], mode="deterministic")
    assert wider.calculation is not None and wider.calculation.rounded == "18.3%", wider.answer  # 4,428 / 3,742 - 1
    listed = engine.answer("Devices operating loss Q3 2023 vs Q3 2022?", docs=[path.name], mode="deterministic")
    assert all(f.printed != "270" for f in listed.figures), listed.answer  # never the Devices revenue row
    assert restated("how much wider was the Devices operating loss in Q3 2023 vs Q3 2022, in percent?") == \
        "What was the percent change in Devices operating loss from Q3 2022 to Q3 2023, in percent?"


def test_a_sum_s_line_is_named_in_its_asking_clause_and_a_noted_arrow_is_a_span():
    assert _summed_item("If I add up Reality Labs' quarterly operating losses as reported in the Q1, Q2, Q3 and Q4 2024 "
                        "Meta earnings decks, what's the full-year 2024 RL operating loss? Answer in $bn.") == "RL operating loss"
    assert restated("ebay US GMV sequential change Q1 -> Q2 2023, % to 2dp") == \
        "What was the percent change in ebay US GMV from Q1 2023 to Q2 2023? % to 2dp"
    from vera_core.finance.line_items import label_terms
    assert label_terms("intel headcount") - {"intel"} <= label_terms("Employees (in thousands)")
    assert label_terms("Full time equivalent headcount") >= label_terms("headcount")


def test_a_quarter_end_is_the_date_a_document_reads_as_its_quarter_s_end():
    from vera_core.answer.figures.gates import period_matches
    from vera_core.answer.strategies.search import quarter_ends
    from vera_core.records import DocumentRecord, Period
    docs = [DocumentRecord(doc_id=f"d{q}", name=f"COST_2023Q{q}_RELEASE.pdf", format="pdf", sha256="", pages=4,
                           size_bytes=1, status="ready", metadata={}, parser_version="pdf-13", chunk_count=1,
                           table_count=1, created_at="", ready_at="",
                           identity={"doc_type": "release", "fiscal_year": 2023, "fiscal_quarter": q, "period_end": end})
            for q, end in ((1, "2022-11-20"), (3, "2023-05-07"))]
    ends = quarter_ends(docs)
    assert ends == {"2022-11-20": (2023, 1), "2023-05-07": (2023, 3)}
    balance = Period("instant", "2023-05-07", 2023)
    assert period_matches(Period("quarter", "", 2023, 3, 3), balance, 8, ends)
    assert not period_matches(Period("quarter", "", 2023, 3, 2), balance, 8, ends)
    assert not period_matches(Period("quarter", "", 2023, 3, 3), balance, 8)  # no document says so: no month's end


@pytest.mark.parametrize("asked, read", [
    ("Salesforce full time equivalent headcount droped between the end of Q1 FY24 and the end of Q2 FY24 - by how many "
     "people? Use each quarter's own release.",
     "What was the change in Salesforce full time equivalent headcount from Q1 FY24 to Q2 FY24? Use each quarter's own "
     "release."),
    ("How much did Costco's merchandise inventories change between the Q1 FY23 balance sheet (Nov 20, 2022) and the Q3 "
     "FY23 one (May 7, 2023)? $ millions", "What was the change in merchandise inventories from Q1 FY23 to Q3 FY23? $ millions"),
    ("How much did Salesforce's total debt change between April 30, 2023 and July 31, 2023?",
     "What was the change in total debt from April 30, 2023 to July 31, 2023?"),
])
def test_a_change_told_or_asked_between_two_ends_is_restated(asked, read):
    assert restated(asked) == read


def test_cumulative_asks_a_sum_and_in_total_before_a_noun_does_not():
    from vera_core.questions.spans import summed_periods
    assert summed_periods("Meta's cumulative Reality Labs operating loss for Q1, Q2 and Q3 2025?") == ["Q1", "Q2", "Q3"]
    assert summed_periods("What was the change in total debt from Q1 2024 to Q2 2024?") == []
    assert summed_periods("What was revenue in total for Q1 and Q2 2023?") == ["Q1", "Q2"]
    plan = read_plan("Equity research associate here. Using each quarter's own earnings deck (Q1, Q2 and Q3 2025), what is "
                     "Meta's cumulative Reality Labs operating loss for the first three quarters of 2025, in $ millions?")
    assert plan is not None and plan.name == "Meta's Reality Labs operating loss", plan


FILES = [IR / "META" / "META_2025Q3_SLIDES.pdf", IR / "COST" / "COST_2023Q3_RELEASE.pdf",
         IR / "EBAY" / "EBAY_2023Q1_RELEASE.pdf", IR / "COST" / "COST_2023Q1_RELEASE.pdf",
         *(IR / "META" / f"META_2024Q{q}_SLIDES.pdf" for q in (1, 2, 3, 4)), IR / "META" / "META_2025Q1_SLIDES.pdf",
         IR / "META" / "META_2025Q2_SLIDES.pdf", IR / "CRM" / "CRM_2024Q1_RELEASE.pdf", IR / "CRM" / "CRM_2024Q2_RELEASE.pdf",
         IR / "EBAY" / "EBAY_2023Q2_RELEASE.pdf", IR / "META" / "META_2024Q3_RELEASE.pdf"]
GOLDS = {**blind_golds("r12-ir-releases-dev"), **blind_golds("r14-ir-releases-holdout"),
         **blind_golds("r17-ir-releases-holdout"),
         **blind_golds("r15-ir-releases-holdout"), **blind_golds("r16-ir-releases-holdout")}


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "formulas", FILES, f"ir-dev releases and decks not found under {IR}")


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", [
    ("w38-015", "'FoA operating income divided by FoA revenue' beside 'Family of Apps': 49.2%"),
    ("w38-024", "Costco's diluted shares 'in its EPS calculation', (000's) under dollars in millions: 444.36 million"),
    ("w38-026", "'net sales minus merchandise costs as a % of net sales': 10.3%"),
    ("w38-032", "eBay's gross margin, its 'Gross proðt' row read as Gross profit: 72.1%"),
    ("w38-013", "Reality Labs' operating loss added up over the four 2024 decks: 17,729"),
    ("w38-014", "total revenue Q1 2022 to Q3 2025, 'how much bigger ... than back in': 83.6%"),
    ("w38-027", "Costco's inventories from the Q1 FY23 balance sheet to the Q3 FY23 one, each release's: -2,247"),
    ("w30-009", "Meta's year-to-date capex through Q3 2025, the chart's YTD bar over '2025': 50.1 billion"),
    ("w38-009", "Meta's year-to-date capex through Q3 2024 (incl. finance lease principal payments): 24.4 billion"),
    ("w36-009", "'cumulative' Reality Labs loss, Q1-Q3 2025 from each deck: 13,172"),
    ("w36-033", "Salesforce headcount 'droped between the end of Q1 FY24 and the end of Q2 FY24 - by how many': -2,514"),
    ("w38-028", "eBay 1Q23 U.S. GMV: the U.S. row under Gross Merchandise Volume, 9.01 billion"),
    ("w34-002", "EBAY 1Q23 international GMV: 9,400 million"),
    ("w34-022", "'eBay US GMV Q2'23 vs Q1'23, % chg q/q': the U.S. row's -3.4%, never the total's"),
    ("w40-005", "'how much wider was the Reality Labs operating loss ... vs ..., in percent': 18.3%"),
    ("w40-014", "'If I add up ... what's the full-year 2024 RL operating loss?': a loss of 17.73 billion"),
    ("w40-031", "'ebay US GMV sequential chnage Q1 -> Q2 2023, % to 2dp': the U.S. row's -3.42%"),
])
def test_a_formula_or_count_as_an_analyst_writes_it_is_answered(engine, qid, cls):
    gold = GOLDS[qid]
    docs = sorted({f"{o.get('doc_name') or gold['doc_name']}.pdf" for o in gold["operands"]})
    answer = engine.answer(gold["question"], docs=docs, mode="deterministic")
    assert judge(gold, answer) == "correct", f"{cls}: {answer.answer[:300]}"
