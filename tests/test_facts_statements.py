"""Document facts from the financial statements: scale lines, the auditor's opinion, readable periods."""

from __future__ import annotations

import pymupdf
import pytest

from tests.conftest import settings_for
from vera_core.chunking.node_parser import StructureNodeParser
from vera_core.facts import patterns
from vera_core.facts.extract import extract_fact, extract_facts, period_iso, search_scope
from vera_core.facts.period import describe, period_dates
from vera_core.facts.statements import is_statement_title, primary_statements
from vera_core.ingest.service import _chunk_record, read_and_parse
from vera_core.records import ChunkRecord, Rect

# -- generated filings ------------------------------------------------------------------------------

COVER = ("ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
         "For the fiscal year ended December 31, 2019")
OPINION = ("In our opinion, the consolidated financial statements referred to above present fairly, in all material "
           "respects, the financial position of Harrier Tools Inc. and its subsidiaries as of December 31, 2019 and "
           "2018, and the results of their operations and their cash flows for each of the years then ended, in "
           "conformity with accounting principles generally accepted in the United States of America.")
INCOME = [["", "2019", "2018"], ["Net sales", "125,400", "118,200"], ["Cost of sales", "80,100", "76,000"],
          ["Net income", "12,300", "10,900"], ["Earnings per share", "1.23", "1.09"]]
BALANCE = [["", "2019", "2018"], ["Cash and cash equivalents", "20,500", "18,900"],
           ["Inventories", "31,200", "29,800"], ["Total assets", "151,700", "140,300"]]


def filing(tmp_path, *pages: tuple[str, str | list[list[str]]]) -> list[ChunkRecord]:
    """A 10-K-like PDF, parsed and chunked as ingestion does: a cover that states the period and
    nothing else, nine pages of business review (the front matter, naming the consolidated financial
    statements as a 10-K's index does), then `pages` from p.11, each a title and either a paragraph
    or a statement (its scale line, then rows of cells laid out in columns)."""
    doc = pymupdf.open()
    cover = doc.new_page()
    cover.insert_text((72, 90), "Harrier Tools Inc. Annual Report", fontsize=16, fontname="hebo")
    cover.insert_textbox(pymupdf.Rect(72, 120, 540, 300), COVER, fontsize=11)
    for n in range(2, 11):
        page = doc.new_page()
        page.insert_text((72, 90), f"Business review part {n}", fontsize=16, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, 120, 540, 300), f"Sales grew in region {n}. Our tools are sold "
                            "through distributors and online. Item 8 holds the consolidated financial statements.",
                            fontsize=11)
    for title, body in pages:
        page = doc.new_page()
        page.insert_text((72, 90), title, fontsize=14, fontname="hebo")
        if isinstance(body, str):
            page.insert_textbox(pymupdf.Rect(72, 110, 540, 400), body, fontsize=11)
            continue
        scale, *rows = body
        page.insert_text((72, 110), scale[0], fontsize=10)
        for i, row in enumerate(rows):
            for x, cell in zip((72, 350, 450), row):
                page.insert_text((x, 140 + 16 * i), cell, fontsize=10)
    path = tmp_path / "harrier_10k.pdf"
    doc.save(path)
    _, parsed = read_and_parse(path, settings_for(tmp_path / "store"))
    return [_chunk_record(node) for node in StructureNodeParser().chunk(parsed)]


def statement(scale: str, rows: list[list[str]]) -> list[list[str]]:
    return [[scale], *rows]


@pytest.fixture(scope="module")
def harrier(tmp_path_factory):
    """Front matter silent on units and framework; the auditor's opinion on p.11, statements on p.12-13."""
    chunks = filing(tmp_path_factory.mktemp("harrier"),
                    ("Report of Independent Registered Public Accounting Firm", OPINION),
                    ("Consolidated Statements of Operations", statement("(In thousands, except per share data)",
                                                                         INCOME)),
                    ("Consolidated Balance Sheets", statement("(In thousands)", BALANCE)))
    return chunks, {r.name: r for r in extract_facts(chunks)}


def test_units_come_from_the_statements_scale_lines_when_the_front_matter_is_silent(harrier):
    chunks, facts = harrier
    assert extract_fact("units", search_scope(chunks)).status == "not_found"
    units = facts["units"]
    assert (units.status, units.value, units.confidence) == ("found", "thousand", 0.6)
    # the statement's title, printed large above its scale line, is part of the table's caption
    assert units.excerpt == "Consolidated Statements of Operations (In thousands, except per share data)"
    assert units.chunk.page_start == 12
    assert [(c.page, c.excerpt) for c in units.candidates] == [
        (12, "Consolidated Statements of Operations (In thousands, except per share data)"),
        (13, "Consolidated Balance Sheets (In thousands)")]
    assert {12, 13} <= set(units.pages_searched)
    assert facts["default_currency"].status == "not_found"  # no currency in the scale lines, "$" nowhere


def test_framework_comes_from_the_auditors_opinion(harrier):
    chunks, facts = harrier
    assert extract_fact("accounting_framework", search_scope(chunks)).status == "not_found"
    framework = facts["accounting_framework"]
    assert (framework.status, framework.value, framework.chunk.page_start) == ("found", "US GAAP", 11)
    assert ("in conformity with accounting principles generally accepted in the United States of America"
            in framework.excerpt)
    # The opinion names "its subsidiaries" but is read for the framework only.
    assert facts["consolidation_basis"].status == "not_found"
    assert 11 not in facts["consolidation_basis"].pages_searched


def test_period_reads_as_the_cover_words_it_with_iso_dates_alongside(harrier):
    period = harrier[1]["reporting_period"]
    assert (period.status, period.value, period.chunk.page_start) == ("found", "fiscal year ended December 31, 2019", 1)
    assert period_iso(period.value) == {"start": None, "end": "2019-12-31"}


def test_statements_in_millions_and_in_thousands_make_units_ambiguous(tmp_path):
    chunks = filing(tmp_path,
                    ("Consolidated Statements of Operations", statement("(In millions, except per share data)",
                                                                         INCOME)),
                    ("Consolidated Balance Sheets", statement("(In thousands)", BALANCE)))
    units = extract_fact("units", chunks)
    assert (units.status, units.value, units.chunk, units.excerpt) == ("ambiguous", None, None, "")
    assert [(c.value, c.page) for c in units.candidates] == [("million", 11), ("thousand", 12)]


# -- synthetic chunks -------------------------------------------------------------------------------

def table(position: int, page: int, caption: str, stub: str = "", *,
          titles: tuple[str, ...] = ("Item 8. Financial Statements",)) -> ChunkRecord:
    """A table chunk: its caption, then a header row whose stub cell is `stub` (a scale line or empty)."""
    text = f"{caption}\n\n| {stub} | 2024 | 2023 |\n|---|---|---|\n| Revenue | 1,200 | 1,100 |"
    return ChunkRecord(
        chunk_id=f"table-{position:05d}", doc_id="synthetic", position=position, kind="table", text=text,
        embed_text=text, heading_path="/".join(("Synthetic", *titles)), heading_titles=titles,
        section_id="/".join(("Synthetic", *titles[:1])), page_start=page, page_end=page,
        polygons=(Rect(page, 72, 100, 540, 300),), caption=caption, footnotes="", tokens=len(text.split()))


def test_a_note_table_in_thousands_does_not_contradict_the_statements_in_millions():
    """The statements' legends state the unit of the statements; a note table's states its own."""
    note = table(0, 4, "Selected lease data (in thousands)")
    statements = [table(1, 50, "Consolidated Statements of Income", "(In millions, except per share data)"),
                  table(2, 51, "Consolidated Balance Sheets", "(Millions)")]
    units = extract_fact("units", [note, *statements])
    assert (units.status, units.value) == ("found", "million")
    assert [c.page for c in units.candidates] == [50, 51]
    # Without primary statements the same legends are equals, and they conflict.
    others = [table(1, 5, "Revenue by segment (In millions, except per share data)"),
              table(2, 6, "Headcount cost (Millions)")]
    assert extract_fact("units", [note, *others]).status == "ambiguous"


@pytest.mark.parametrize("caption, stub, units, currency", [
    ("Consolidated Statements of Operations", "(In millions, except per share data)", "million", None),
    ("CONSOLIDATED BALANCE SHEETS", "December 31(Millions, except share data)", "million", None),
    ("Consolidated Statement of Financial Position (in thousands of U.S. dollars)", "", "USD thousand", "USD"),
    ("Consolidated income statement for the year ended 31 December 2024", "EUR thousand", "EUR thousand", "EUR"),
    ("Consolidated Statements of Cash Flows", "$ in millions", "USD million", "USD"),
    ("Consolidated Statements of Cash Flows ($ in millions)", "", "USD million", "USD"),
])
def test_scale_line_of_a_statement_states_units_and_any_currency_named(caption, stub, units, currency):
    chunks = [table(0, 60, caption, stub)]
    got = extract_fact("units", chunks)
    assert (got.status, got.value) == ("found", units)
    got = extract_fact("default_currency", chunks)
    assert (got.status, got.value) == (("found", currency) if currency else ("not_found", None))


def test_a_dollar_sign_before_a_figure_is_not_a_scale_line():
    chunks = [table(0, 60, "Consolidated Statements of Operations", "$ 1,200 millions")]
    assert extract_fact("default_currency", chunks).status == "not_found"
    assert extract_fact("units", chunks).status == "not_found"


@pytest.mark.parametrize("title, is_statement", [
    ("3M Company and Subsidiaries Consolidated Statement of Incom e Years ended December 31", True),
    ("3M Company and Subsidiaries Consolidated Balance Shee t At December 31", True),
    ("CONSOLIDATED STATEMENTS OF SHAREHOLDERS’ EQUITY", True),
    ("Condensed Consolidated Statements of Operations (unaudited)", True),
    ("Consolidated income statement for the year ended 31 December 2024", True),
    ("Index to Consolidated Financial Statements", False),
    ("Notes to Consolidated Financial Statements", False),
    ("Note 14 — Supplemental Financial Information Balance Sheet", False),
    ("PARENT COMPANY – CONDENSED STATEMENTS OF INCOME AND COMPREHENSIVE INCOME", False),
    ("Revenue by segment", False),
])
def test_statement_titles(title, is_statement):
    assert is_statement_title(title) is is_statement


def test_a_note_table_titled_like_a_statement_is_not_a_primary_statement():
    """PepsiCo's Note 14 has a table captioned "Statement of Cash Flows" (interest and taxes paid)."""
    note = table(0, 111, "Statement of Cash Flows", "(in millions)", titles=("Notes", "Note 14 Supplemental"))
    heading_titled = table(1, 62, "PepsiCo, Inc. and Subsidiaries (in millions)",
                           titles=("Item 8", "Consolidated Statement of Income"))
    assert primary_statements([note, heading_titled]) == [heading_titled]


# -- periods ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, iso", [
    ("fiscal year ended December 31, 2019", {"start": None, "end": "2019-12-31"}),
    ("financial year from 1 January 2024 to 31 December 2024", {"start": "2024-01-01", "end": "2024-12-31"}),
    ("quarter ended March 25, 2023", {"start": None, "end": "2023-03-25"}),
    ("/2018-12-31", {"start": None, "end": "2018-12-31"}),
    ("2024-01-01/2024-12-31", {"start": "2024-01-01", "end": "2024-12-31"}),
    ("USD million", None),
    (None, None),
])
def test_period_iso(value, iso):
    assert period_iso(value) == iso


def test_describe_keeps_the_documents_date_order():
    assert describe("Three Months", None, period_dates("quarter ended March 25, 2023")[1],
                    day_first=False) == "three months ended March 25, 2023"
    start, end = period_dates("year from 1 April 2023 to 31 March 2024")
    assert describe("financial year", start, end, day_first=True) == "financial year from 1 April 2023 to 31 March 2024"


def test_periods_agree_by_their_dates_not_their_words():
    both = ["year ended 31 December 2024", "financial year from 1 January 2024 to 31 December 2024"]
    assert patterns.reconcile("reporting_period", both) == both[1]
    cover_first = ["fiscal year ended December 31, 2022", "year ended December 31, 2022"]
    assert patterns.reconcile("reporting_period", cover_first) == cover_first[0]
    two_years = ["year ended 31 December 2024", "year ended 31 December 2023"]
    assert patterns.reconcile("reporting_period", two_years) is None
