"""Figure answers on the sample report: the one cell asked, in the unit asked, cited to the cell."""

from __future__ import annotations

import json

import pymupdf
import pytest

from tests.conftest import SAMPLE_PDF
from vera_core.questions.figure import asked_periods, is_figure_question, read_request
from vera_core.cli.main import main
from vera_core.query import QueryEngine
from vera_core.records import Rect

REPORT = SAMPLE_PDF.name


@pytest.fixture(scope="module")
def engine(sample_store) -> QueryEngine:
    return QueryEngine(sample_store)


def _printed_box(page_number: int, text: str, near: Rect) -> Rect:
    page = pymupdf.open(SAMPLE_PDF)[page_number - 1]
    hits = [Rect(page_number, r.x0, r.y0, r.x1, r.y1) for r in page.search_for(text)]
    return min(hits, key=lambda r: abs(r.y0 - near.y0) + abs(r.x0 - near.x0))


@pytest.mark.parametrize(("question", "printed", "page", "stated"), [
    ("What was revenue in FY2024?", "1,032,400", 6, "€1,032,400 thousand"),
    ("What was the FY2023 revenue in EUR millions?", "980,500", 6, "€980.5 million"),
    ("What were cash and cash equivalents as of 31 December 2023 based on the balance sheet?", "112,450", 7, None),
    ("What was the purchase of property, plant and equipment (capital expenditure) in 2024 according to the "
     "cash flow statement?", "(61,280)", 8, None),
    ("What was the revenue of the Motion Control segment in 2024?", "412,300", None, None),
])
def test_figure_answer_states_the_asked_cell_and_highlights_it(engine, question, printed, page, stated):
    answer = engine.answer(question, docs=[REPORT], mode="deterministic")
    assert answer.intent.type == "figure"
    assert len(answer.figures) == 1, answer.answer
    figure = answer.figures[0]
    assert figure.printed == printed
    if stated:
        assert stated in answer.answer
    citation = answer.citations[figure.citation - 1]
    assert page is None or citation.page == page
    cell = Rect(citation.page, *figure.cell.bbox)
    assert cell.contains(_printed_box(citation.page, printed.strip("()"), cell), tolerance=1.0)
    # the highlight is the cell and its row label, not the table; the table is outlined faintly
    assert len(citation.polygons) == 2 and citation.context_polygons
    table = citation.context_polygons[0]
    for p in citation.polygons:
        assert (p.x1 - p.x0) * (p.y1 - p.y0) < 0.2 * (table.x1 - table.x0) * (table.y1 - table.y0)
    assert answer.verification.label == "grounded"


def test_capex_outflow_is_stated_as_spending_with_its_printed_sign(engine):
    answer = engine.answer("What was the FY2024 capital expenditure in the cash flow statement?", docs=[REPORT],
                           mode="deterministic")
    figure = answer.figures[0]
    assert figure.value > 0 and figure.printed.startswith("(") and "outflow" in answer.answer
    assert figure.statement == "cash_flow"


def test_a_period_the_statements_lack_gets_what_is_there_and_no_figure(engine):
    answer = engine.answer("What was revenue in FY2022?", docs=[REPORT], mode="deterministic")
    assert answer.intent.type == "figure" and not answer.figures and not answer.citations
    assert "FY2022 is not in" in answer.answer
    assert "FY2024" in answer.answer and "FY2023" in answer.answer
    assert "1,032,400" not in answer.answer and "980,500" not in answer.answer


def test_figures_are_in_the_json_contract(sample_store, capsys):
    code = main(["--data-dir", str(sample_store.data_dir), "query", "What was revenue in FY2024?", "--doc", REPORT,
                 "--json", "--mode", "deterministic"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    figure = data["figures"][0]
    assert {"line_item", "period", "value", "unit", "scale", "printed", "statement", "cell"} <= set(figure)
    assert set(figure["cell"]) == {"chunk_id", "row", "col", "page", "bbox"}
    assert (figure["value"], figure["unit"], figure["scale"], figure["statement"]) == (1032400.0, "EUR", 1000.0, "income")
    assert data["citations"][0]["context_polygons"]


@pytest.mark.parametrize("question", [
    "What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
    "what is the year end FY2018 net PPNE for 3M? Answer in USD billions.",
    "What was net income in Q1 2023?",
    "How much were total assets as of December 31, 2022?",
])
def test_figure_questions_route_to_figures(question):
    assert is_figure_question(question)


@pytest.mark.parametrize("question", [
    "What is the FY2018 fixed asset turnover ratio for 3M?",
    "How much has the effective tax rate changed between FY2021 and FY2022?",
    "Is 3M a capital-intensive business based on FY2022 data?",
    "What drove operating margin change as of FY2022 for 3M?",
    "What is the FY2022 unadjusted EBITDA less capex for PepsiCo?",
])
def test_computed_and_judgement_questions_are_not_figure_lookups(question):
    assert not is_figure_question(question)


def test_question_periods_and_units():
    request = read_request("What is the year end FY2018 net PPNE for 3M? Answer in USD billions. Use the balance sheet.")
    assert [c.name for c in request.concepts] == ["net property, plant and equipment"]
    assert (request.scale, request.statement) == (1e9, "balance")
    assert [(p.kind, p.year) for p in request.periods] == [("year", 2018)]
    periods, _ = asked_periods("as of December 31, 2022 and for Q1 2023 and the six months ended June 30, 2023")
    assert [(p.kind, p.end, p.year, p.quarter, p.months) for p in periods] == [
        ("instant", "2022-12-31", 2022, None, None), ("quarter", "", 2023, 1, 3), ("months", "2023-06-30", 2023, None, 6)]


def test_evidence_csv_carries_the_cell(engine):
    from vera_core.answer.evidence_rows import COLUMNS, evidence_rows
    answer = engine.answer("What was revenue in FY2024?", docs=[REPORT], mode="deterministic")
    rows = evidence_rows(answer)
    assert len(rows) == 1 and set(rows[0]) == set(COLUMNS)
    row = rows[0]
    assert row["claim"].startswith("Revenue, FY2024")
    assert (row["printed"], row["cell_page"], row["statement"], row["figure_value"]) == ("1,032,400", 6, "income", 1032400.0)
    assert json.loads(row["cell_bbox"]) == answer.figures[0].cell.bbox
    assert row["table_id"] == row["cell_table_id"] == answer.citations[0].table_id  # [doc_type, quarter, page, table id]
    assert row["doc_type"] == answer.citations[0].doc_type == "annual_report"


def test_metric_answer_states_the_result_and_cites_every_operand(engine):
    answer = engine.answer("What was the current ratio at the end of FY2024?", docs=[REPORT], mode="llm_always")
    assert answer.intent.type == "metric" and answer.intent.rule == "metric:library"
    calc = answer.calculation
    assert calc.rounded == "1.98" and answer.answer.startswith("FY2024 Current ratio: 1.98")
    assert "Calculation: 486,480 / " in answer.answer
    assert [o.printed for o in calc.operands] == ["486,480", "245,290"]
    assert all(answer.citations[o.citation - 1].polygons for o in calc.operands)
    assert answer.verification.label == "grounded"
    assert answer.llm is None or not answer.llm.wrote_answer  # arithmetic is VERA's, never the LLM's


def test_metric_with_a_missing_operand_abstains_and_names_it(engine):
    answer = engine.answer("What was the return on assets in FY2023?", docs=[REPORT], mode="deterministic")
    assert answer.intent.type == "metric" and not answer.citations
    assert "cannot be computed" in answer.answer and "total assets for FY2022" in answer.answer
    assert answer.calculation.result is None and answer.calculation.missing


def test_evidence_csv_carries_the_calculation_and_each_operand_cell(engine):
    from vera_core.answer.evidence_rows import evidence_rows
    answer = engine.answer("What was the gross margin in FY2024?", docs=[REPORT], mode="deterministic")
    rows = evidence_rows(answer)
    assert {r["operand"] for r in rows} == {"revenue", "cost of sales"}
    assert all(r["metric"] == "Gross margin" and r["result"] == "29.9%" and r["cell_page"] == 6 for r in rows)
    assert {r["printed"] for r in rows} == {"1,032,400", "(724,180)"}


@pytest.mark.parametrize(("question", "printed"), [
    ("What was the profit attributable to owners of the parent in FY2024?", "71,020"),  # not "Profit for the year"
    ("What was the operating profit in FY2024?", "111,480"),  # not "Other operating income"
    ("What were basic and diluted earnings per share in FY2024?", "1.42"),  # per share, never scaled
])
def test_the_row_the_question_names_is_the_one_stated(engine, question, printed):
    answer = engine.answer(question, docs=[REPORT], mode="deterministic")
    assert answer.intent.type == "figure" and answer.figures[0].printed == printed, answer.answer
    if printed == "1.42":
        assert answer.figures[0].scale == 1.0 and "thousand" not in answer.answer.split("(printed")[0]


def test_a_quarter_question_reads_the_quarter_column(tmp_path):
    from tests.conftest import CORPUS, settings_for
    from vera_core.ingest.service import Ingestor
    from vera_core.workspace import Workspace
    path = CORPUS / "PEPSICO_2023Q1_EARNINGS.pdf"
    if not path.exists():
        pytest.skip(f"dev corpus not found at {CORPUS}")
    ws = Workspace(settings_for(tmp_path / "store"))
    assert Ingestor(ws).ingest_file(path).status == "ingested"
    answer = QueryEngine(ws).answer("What was PepsiCo's net revenue in Q1 2023?", mode="deterministic")
    assert answer.figures and answer.figures[0].printed == "$17,846", answer.answer
    assert "Q1 2023" in answer.answer or "three months ended March 25, 2023" in answer.answer
