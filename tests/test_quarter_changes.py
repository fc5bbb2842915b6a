"""Issue 26, item 5: a measure compared across quarters, each operand from its quarter's document and cited.

- "the % change in FCF from Q1 2023 to Q2 2023": the growth between the two quarters named, from the free cash flow
  each release prints (not recomputed from operating cash flow and capex, which the company defines otherwise);
- "how many points did the non-GAAP operating margin expand from Q1 FY24 to Q2 FY24": the move in points between
  the printed margins;
- "sequential" is over the quarter before the one named, not the year-ago quarter;
- a statement's title printed alone at a page's foot titles the statement that opens the next page (eBay's cash flow
  statement had been read as a note and its operating cash flow refused).

Round 12's dev questions of these classes are judged as `vera eval` judges them (skipped without ../shared/corpus)."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, blind_golds, corpus_engine, searchable_pdfs
from tests.made_pdfs import release_pdf
from vera_core.cli.eval_judge import judge
from vera_core.ingest.pdf import parse_pdf
from vera_core.ingest.source import load_source
from vera_core.query import QueryEngine
from vera_core.questions.metric import read_plan

IR = ROOT.parent / "shared" / "corpus" / "ir-dev"
GOLDS = blind_golds("r12-ir-releases-dev")
STATEMENT = "Condensed Consolidated Statement of Cash Flows"


def _falcon(tmp_path, quarter: int, month_end: str, fcf: str, ocf: str, capex: str, widowed: bool = False):
    path = tmp_path / f"falcon_q{quarter}_release.pdf"
    path.write_bytes(release_pdf(quarter, month_end, [("Net cash provided by operating activities", ocf, "500"),
                                                      ("Purchases of property and equipment", capex, "(90)"),
                                                      ("Free cash flow", fcf, "410")],
                                 [("Net income", "300", "250"), ("Net cash provided by operating activities", ocf, "500"),
                                  ("Purchases of property and equipment", capex, "(90)")], widowed))
    return path


def test_a_statement_title_widowed_at_a_page_foot_titles_the_next_page_table(tmp_path):
    path = _falcon(tmp_path, 2, "June 30", "492", "605", "(113)", widowed=True)
    parsed = parse_pdf(load_source(path, max_file_mb=10))
    tables = [b for b in parsed.blocks if b.kind.name == "TABLE"]
    assert [(t.pages, t.caption) for t in tables] == [
        ((1,), "Reconciliation of Operating Cash Flow to Free Cash Flow"), ((2,), STATEMENT)]


def test_a_quarter_span_is_read_as_the_two_quarters():
    plan = read_plan("What was the % change in Falcon's FCF from Q1 2023 to Q2 2023?")
    assert plan.name == "Free cash flow growth" and plan.over == "growth" and plan.unit == "percent"
    assert [(p.kind, p.year, p.quarter) for p in plan.periods] == [("quarter", 2023, 1), ("quarter", 2023, 2)]
    margin = read_plan("How many percentage points did the non-GAAP operating margin expand from Q1 FY24 to Q2 FY24?")
    assert margin.direction and [(p.year, p.quarter) for p in margin.periods] == [(2024, 1), (2024, 2)]
    sequential = read_plan("What was the sequential growth in revenue in Q1 2024?")
    assert [(p.year, p.quarter) for p in sequential.periods] == [(2023, 4), (2024, 1)]
    year_ago = read_plan("How did the operating margin change in Q2 2023?")
    assert [(p.year, p.quarter) for p in year_ago.periods] == [(2022, 2), (2023, 2)]


def test_a_printed_measure_compared_across_quarters_reads_each_quarter_printed(tmp_path, tmp_path_factory):
    """Each release prints its quarter's free cash flow; computed from the statement's lines Q2's would be 492, not the
    printed 480 (the company excludes something): the printed figures are compared, each cited on its release."""
    q1 = _falcon(tmp_path, 1, "March 31", "709", "841", "(132)")
    q2 = _falcon(tmp_path, 2, "June 30", "480", "605", "(113)", widowed=True)
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-quarters", [q1, q2]), llm=None)
    answer = engine.answer("What was the % change in Falcon's FCF from Q1 2023 to Q2 2023?", mode="deterministic")
    assert answer.calculation is not None and answer.calculation.aggregate == "growth", answer.answer
    assert answer.calculation.rounded == "-32.3%", answer.answer  # 480 / 709 - 1
    assert [c.doc_name for c in answer.citations] == [q1.name, q2.name]
    assert [o.printed for o in answer.calculation.operands] == ["709", "480"]


def test_a_measure_added_up_over_quarters_sums_each_quarter_printed(tmp_path, tmp_path_factory):
    """"X in each quarter" added up: each quarter's printed figure from its own release, VERA's sum; a quarter no
    document prints leaves no total (never the quarters found added up as if complete)."""
    from vera_core.questions.spans import summed_quarter_periods
    assert [(p.year, p.quarter) for p in summed_quarter_periods("Add up FCF for Q1, Q2 and Q3 2025. The total?")] == [
        (2025, 1), (2025, 2), (2025, 3)]
    q1 = _falcon(tmp_path, 1, "March 31", "709", "841", "(132)")
    q2 = _falcon(tmp_path, 2, "June 30", "480", "605", "(113)")
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-sum", [q1, q2]), llm=None)
    answer = engine.answer("Add up Falcon's free cash flow for Q1 and Q2 2023. What's the total in $ millions?",
                           mode="deterministic")
    assert answer.calculation is not None and answer.calculation.aggregate == "sum", answer.answer
    assert answer.calculation.result == 1189e6 and [o.printed for o in answer.calculation.operands] == ["709", "480"]
    assert [c.doc_name for c in answer.citations] == [q1.name, q2.name]
    three = engine.answer("Add up Falcon's free cash flow for Q1, Q2 and Q3 2023. What's the total?", mode="deterministic")
    assert three.calculation is None or three.calculation.result is None, three.answer
    assert three.answer.startswith("No total is stated"), three.answer


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    files = [IR / "EBAY" / "EBAY_2023Q1_RELEASE.pdf", IR / "EBAY" / "EBAY_2023Q2_RELEASE.pdf",
             IR / "CRM" / "CRM_2024Q1_RELEASE.pdf", IR / "CRM" / "CRM_2024Q2_RELEASE.pdf"]
    return corpus_engine(tmp_path_factory, "round12-quarters", files, f"ir-dev releases not found under {IR}")


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", [
    ("w30-036", "eBay FCF Q1 to Q2 2023 from each release's printed free cash flow: -30.6%"),
    ("w30-045", "Salesforce non-GAAP operating margin Q1 to Q2 FY24 from each release: +4.0 points"),
])
def test_a_measure_across_quarters_is_answered_from_each_quarter(engine, qid, cls):
    gold = GOLDS[qid]
    docs = sorted({f"{op['doc_name']}.pdf" for op in gold["operands"]})
    answer = engine.answer(gold["question"], docs=docs, mode="deterministic")
    assert judge(gold, answer) == "correct", f"{cls}: {answer.answer[:300]}"
    assert {c.doc_name for c in answer.citations} == set(docs)


def test_a_sum_over_a_range_of_quarters_adds_every_quarter_between_its_ends():
    """"Q1-Q4 2024" added up is four quarters, never the two ends (a wrong total of two quarters was stated)."""
    from vera_core.questions.spans import summed_periods, summed_quarter_periods
    asked = "Add up Meta's quarterly free cash flow for Q1-Q4 2024, taking each quarter from its own earnings deck."
    assert summed_periods(asked) == ["Q1 2024", "Q2 2024", "Q3 2024", "Q4 2024"]
    assert [p.quarter for p in summed_quarter_periods(asked)] == [1, 2, 3, 4]
    assert [p.quarter for p in summed_quarter_periods("What was the combined FCF for Q2 through Q4 of fiscal 2023?")] == [2, 3, 4]
    assert summed_periods("What was FCF in Q1-Q4 2024?") == []  # no sum asked
