"""Issue 25, tenth part: a word the question puts on the item that the cell read does not carry, while another row of
the same filing carries it and the item, withholds the figure (`answer/figures/unread.py`). Seven of the 23 answers
stated wrong across the blind rounds' measurements were this class (the company's total stated for "revenue from
selling regulatory credits", "gross margin on Jakafi", "the EchoPark segment's income", ...); each was fixed for the
way its writer said it, and the check holds however the next writer says it. Skipped when ../shared/corpus is absent."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, searchable_pdfs
from vera_core.answer.figures.unread import Read, unread_word
from vera_core.query import QueryEngine

CORPUS = ROOT.parent / "shared" / "corpus"
TESLA = CORPUS / "financebench-dev3" / "TESLA_2023_10K.pdf"
INCYTE = CORPUS / "financebench-dev3" / "INCYTE_2022_10K.pdf"


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    if not (TESLA.is_file() and INCYTE.is_file()):
        pytest.skip(f"financebench-dev3 filings not found under {CORPUS}")
    return QueryEngine(searchable_pdfs(tmp_path_factory, "round10-unread", [TESLA, INCYTE]), llm=None)


def _statement_row(engine: QueryEngine, doc: str, label: str, year: int = 2023):
    ws = engine.ws
    doc_id = next(d.doc_id for d in ws.catalog.documents() if d.name == doc)
    grids = {doc_id: ws.doc_grids(doc_id)}
    for grid in grids[doc_id]:
        if grid.statement != "income":
            continue
        for cell in grid.cells:
            if cell.col and cell.value is not None and cell.row_label.strip(" .").lower().startswith(label.lower()) \
                    and cell.period is not None and cell.period.year == year:
                return grids, Read(grid, next(c for c in grid.cells if c.row == cell.row and c.col == 0), cell)
    raise AssertionError(f"no '{label}' row with a 2023 figure in {doc}'s income statement")


@pytest.mark.corpus
def test_the_total_read_for_a_part_the_question_names_is_withheld(engine):
    grids, total = _statement_row(engine, "TESLA_2023_10K.pdf", "Total revenues")
    why = unread_word("I'm updating our Tesla model - how much revenue did they book from selling regulatory credits "
                      "in 2023?", [total], grids, company={"tesla"})
    assert "regulatory" in why and "credits" in why and "Automotive regulatory credits" in why, why
    # NOTE: a line the question quotes must be the row read, whatever its words' share of the filing's rows
    quoted = unread_word("By how much did Tesla's 'automotive regulatory credits' revenue grow in 2023?", [total], grids,
                         explained={"revenue", "growth"}, company={"tesla"})
    assert "quotes 'automotive regulatory credits'" in quoted, quoted
    # NOTE: a metric's own name in quotes is the measure, not a line (its words are the metric's)
    assert unread_word("What was Tesla's 'gross margin' in 2023?", [total], grids, explained={"gross", "margin"},
                       company={"tesla"}) == ""
    # NOTE: a persona's part is not asked; a part that asks is, whoever it says asks ("for our comps, what was ...")
    assert "leasing" in unread_word("Tesla 2023 - for our comps, what revenue came from leasing?", [total], grids,
                                    company={"tesla"})
    # NOTE: the total asked as the total, or in words the filing's tables use everywhere, is not withheld
    assert unread_word("What were Tesla's total revenues in 2023, in $ millions?", [total], grids, company={"tesla"}) == ""
    assert unread_word("Tesla total revenue FY23 per the income statement (in $bn, one decimal)?", [total], grids,
                       company={"tesla"}) == ""


@pytest.mark.corpus
@pytest.mark.parametrize("question, part", [
    ("Tesla FY23 revenue from leasing?", "Automotive leasing"),
])
def test_a_part_named_away_from_the_item_withholds_the_total(engine, question, part):
    answer = engine.answer(question, docs=["TESLA_2023_10K.pdf"], mode="deterministic")
    assert not answer.figures, answer.answer[:300]
    assert "96,773 million" not in answer.answer and part in answer.answer, answer.answer[:300]


@pytest.mark.corpus
def test_a_part_the_revenue_came_from_is_read_from_its_row(engine):
    # NOTE: "came from regulatory credits" qualifies the item (issue 25, eleventh part): its row is read, where the tenth
    # part's check could only withhold the total
    answer = engine.answer("How much of Tesla's 2023 revenue came from regulatory credits?", docs=["TESLA_2023_10K.pdf"],
                           mode="deterministic")
    assert [f.row_label for f in answer.figures] == ["Automotive regulatory credits"], answer.answer[:300]
    assert "$1,790 million" in answer.answer and "96,773" not in answer.answer, answer.answer[:300]


@pytest.mark.corpus
def test_a_margin_asked_of_one_product_is_not_the_company_s(engine):
    grids, revenue = _statement_row(engine, "INCYTE_2022_10K.pdf", "Total revenues", 2022)
    why = unread_word("Gross margin on Jakafi specifically, FY2022?", [revenue], grids, explained={"gross", "margin"},
                      company={"incyte"})
    assert "Jakafi" in why, why


@pytest.mark.corpus
@pytest.mark.parametrize("question, expected", [
    ("What was Tesla's automotive gross margin in 2023?", "19.4%"),
    ("What was Tesla's gross margin in 2023?", "18.2%"),
    ("What were Tesla's total revenues in 2023?", "$96,773 million"),
    ("How much revenue did Tesla generate in 2023?", "$96,773 million"),
])
def test_an_item_the_row_carries_is_still_answered(engine, question, expected):
    answer = engine.answer(question, docs=["TESLA_2023_10K.pdf"], mode="deterministic")
    assert answer.answer.split(". ")[0].endswith(expected) or expected in answer.answer.split("[1]")[0], answer.answer[:300]
