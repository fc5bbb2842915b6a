"""Retrieval methods that plain top-k gets wrong: expansion terms that must not outvote the
question's words, the statements an analyst concept is computed from, and the table that prints
the line item a question names."""

from __future__ import annotations

from vera_core.index.bm25 import BM25Index
from vera_core.records import KeywordRow
from vera_core.retrieve.hybrid import _is_primary_statement, table_rows_named
from vera_core.retrieve.iterative import named_statements, synonyms_for


def row(cid: str, text: str, kind: str = "text", caption: str = "", page: int = 1) -> KeywordRow:
    return KeywordRow(cid, page, page, caption, "doc/Section", text, kind)


COVER = row("cover", "Securities registered pursuant to Section 12(b) of the Act: notes due 2024, "
                     "name of each exchange on which registered: New York Stock Exchange")
BORROWINGS = row("debt", "Long-term debt and borrowings: notes payable, long-term debt outstanding "
                         "of $42.6 billion, borrowings under the credit facility, long-term debt maturities")
FILLER = [row(f"f{i}", f"Unrelated discussion of card member spending number {i}") for i in range(6)]


def test_synonyms_widen_the_search_without_outvoting_the_question():
    index = BM25Index([COVER, BORROWINGS, *FILLER])
    question = "Which debt securities are registered to trade on a national securities exchange?"
    extra = synonyms_for(question)
    assert "borrowings" in extra  # "debt" expands to its synonyms...
    hits = index.search(question, 3, extra=extra)
    assert hits[0].chunk_id == "cover"  # ...but the chunk with the question's own words wins
    equal_weight = index.search(f"{question} {extra}", 3)
    assert equal_weight[0].chunk_id == "debt"  # what unweighted expansion did


def test_expansion_terms_still_find_a_chunk_that_shares_no_word_with_the_question():
    index = BM25Index([BORROWINGS, *FILLER])
    hits = index.search("How large is the company's leverage?", 3, extra="borrowings long-term debt")
    assert hits and hits[0].chunk_id == "debt"


def test_analyst_concepts_imply_the_statements_they_are_computed_from():
    assert "income statement" in named_statements("What drove operating margin change in FY2022?")
    capital = named_statements("Is 3M a capital-intensive business based on FY2022 data?")
    assert "balance sheet" in capital and "cash flow" in capital
    assert "balance sheet" in named_statements("What was the largest liability in 2022?")
    assert named_statements("Which segment grew fastest?") == []
    # a statement the question names wins over what its concept implies
    assert named_statements("Based on the cash flow statement, what is free cash flow?") == ["cash flow"]


def test_the_table_that_prints_the_named_line_item_is_found():
    summary = row("summary", "TABLE 1: SUMMARY\n| (Millions) | 2022 | 2021 |\n|---|---|---|\n"
                             "| Net income | 7,514 | 8,060 |\n| Effective tax rate | 21.6 % | 24.6 % |", kind="table")
    other = row("other", "| Item | 2022 |\n|---|---|\n| Total | 5 |\n| Tax | 3 |", kind="table")
    index = BM25Index([summary, other, *FILLER])
    found = table_rows_named(index, "How much has the effective tax rate changed between FY2021 and FY2022?")
    assert found == [(3.0, "summary")]  # "effective tax rate": three terms; one-word labels never count
    assert table_rows_named(index, "What is the effective tax rate?", pages=[2]) == []  # page filter holds


def test_primary_statements_are_told_from_segment_and_parent_company_tables():
    assert _is_primary_statement(row("a", "| Revenues | 1 |", "table", "CONSOLIDATED STATEMENTS OF INCOME"))
    assert not _is_primary_statement(row("b", "| Revenues | 1 |", "table", "TABLE 9: USCS SELECTED INCOME STATEMENT DATA"))
    assert not _is_primary_statement(row("c", "| Revenues | 1 |", "table",
                                         "PARENT COMPANY – CONDENSED STATEMENTS OF INCOME"))
