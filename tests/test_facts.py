"""Document facts: explicit evidence only, ambiguity and not-found reported with the scope searched."""

from __future__ import annotations

import re
from datetime import datetime

import pymupdf
import pytest

from tests.conftest import CORPUS, SAMPLE_PDF, doc_by_name
from vera_core.facts.extract import (
    EXTRACTOR_VERSION,
    FACT_NAMES,
    extract_fact,
    extract_facts,
    period_iso,
    refresh_facts,
    search_scope,
    to_record,
)
from vera_core.records import ChunkRecord, Heading, Rect
from vera_core.store.catalog import Catalog


def norm(text: str) -> str:
    return " ".join(text.split())


def meaning(name: str, value: str | None):
    """A fact value as compared with the ground truth: a period by its ISO dates (the ground truth
    may state it readably or as an ISO interval), anything else as is."""
    return period_iso(value) if name == "reporting_period" else value


# -- the sample annual report ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def report(sample_store):
    doc = doc_by_name(sample_store, SAMPLE_PDF.name)
    return doc, sample_store.catalog.chunks(doc.doc_id)


@pytest.fixture(scope="module")
def report_facts(report):
    return {r.name: r for r in extract_facts(report[1])}


def test_all_five_facts_come_back_in_order(report_facts):
    assert tuple(report_facts) == FACT_NAMES


@pytest.mark.parametrize("name", FACT_NAMES)
def test_sample_report_fact_equals_ground_truth(report_facts, ground_truth, name):
    want = ground_truth[SAMPLE_PDF.name]["facts"][name]
    got = report_facts[name]
    assert (got.status, meaning(name, got.value)) == ("found", meaning(name, want["value"]))
    assert want["page"] in got.chunk.pages
    assert norm(want["evidence"]) in norm(got.excerpt)
    assert len(got.excerpt) < 300
    assert 0.5 < got.confidence <= 1.0
    assert list(got.chunk.heading_titles) == want["section_path"]


@pytest.mark.parametrize("name", FACT_NAMES)
def test_highlight_is_the_evidence_lines_not_the_whole_section(report_facts, ground_truth, name):
    """The rects drawn for a fact hold its evidence sentence, and fewer lines than its chunk."""
    want = ground_truth[SAMPLE_PDF.name]["facts"][name]
    got = report_facts[name]
    assert got.polygons and set(got.polygons) <= set(got.chunk.polygons)
    assert len(got.polygons) < len(got.chunk.polygons)
    assert {r.page for r in got.polygons} == {want["page"]}
    with pymupdf.open(SAMPLE_PDF) as pdf:
        shown = " ".join(pdf[r.page - 1].get_text("text", clip=pymupdf.Rect(r.x0 - 1, r.y0 - 1, r.x1 + 1, r.y1 + 1))
                         for r in got.polygons)
    assert set(re.findall(r"\w+", want["evidence"])) <= set(re.findall(r"\w+", shown))


def test_sample_report_searches_pages_1_to_10_only(report, report_facts):
    """Page 11 ("Risk factors") also names the euro as presentation currency; it is not read."""
    currency = report_facts["default_currency"]
    assert currency.pages_searched == tuple(range(1, 11))
    assert all(c.page and c.page <= 10 for c in currency.candidates)
    assert not any("Risk factors" in s for s in currency.sections_searched)
    assert [c.position for c in search_scope(report[1])] == [c.position for c in report[1] if c.page_start <= 10]


def test_comparative_year_does_not_make_the_period_ambiguous(report_facts):
    """The report also says "Comparative information is presented for the financial year ended 31 December 2023"."""
    period = report_facts["reporting_period"]
    assert {c.value for c in period.candidates} == {"financial year from 1 January 2024 to 31 December 2024"}


def test_sample_report_period_reads_as_the_report_words_it(report_facts):
    """Page 1 states "The reporting period is the financial year from 1 January 2024 to 31 December 2024"."""
    period = report_facts["reporting_period"]
    assert period.value == "financial year from 1 January 2024 to 31 December 2024"
    assert period_iso(period.value) == {"start": "2024-01-01", "end": "2024-12-31"}


# -- Markdown policies ----------------------------------------------------------------------------

def test_markdown_policy_states_no_facts(sample_store):
    doc = doc_by_name(sample_store, "information_security_policy.md")
    chunks = sample_store.catalog.chunks(doc.doc_id)
    results = extract_facts(chunks)
    assert results
    for result in results:
        assert (result.status, result.value, result.confidence) == ("not_found", None, 0.0)
        assert result.chunk is None and result.excerpt == "" and result.polygons == ()
        assert result.pages_searched == ()
        assert result.sections_searched == tuple(dict.fromkeys(c.heading_path for c in chunks[:10]))
        assert "information_security_policy/Information Security Policy/Password protection" in result.sections_searched


def test_markdown_expense_policy_states_its_currency_but_no_units(sample_store):
    """"Amounts are in euro (EUR)" is explicit; "Limit (EUR)" cells and "EUR 25" amounts do not give units."""
    doc = doc_by_name(sample_store, "expense_policy.md")
    facts = {r.name: r for r in extract_facts(sample_store.catalog.chunks(doc.doc_id))}
    currency = facts.pop("default_currency")
    assert (currency.status, currency.value) == ("found", "EUR")
    assert currency.excerpt.startswith("Amounts are in euro (EUR)")
    assert currency.polygons == () and currency.candidates[0].page is None
    assert {r.status for r in facts.values()} == {"not_found"}


# -- synthetic chunks -----------------------------------------------------------------------------

def chunk(position: int, text: str, page: int, *, titles: tuple[str, ...] = ("Overview",), kind: str = "text",
          caption: str = "") -> ChunkRecord:
    """One chunk of a made-up PDF: a single line rect on its page."""
    return ChunkRecord(
        chunk_id=f"synthetic-{position:05d}", doc_id="synthetic", position=position, kind=kind, text=text,
        embed_text=text, heading_path="/".join(("Synthetic", *titles)), heading_titles=titles,
        section_id="/".join(("Synthetic", *titles[:1])), page_start=page, page_end=page,
        polygons=(Rect(page, 72, 100, 540, 112),), caption=caption, footnotes="", tokens=len(text.split()))


def test_conflicting_presentation_currencies_are_ambiguous_with_both_candidates():
    chunks = [chunk(0, "The Group's presentation currency is the euro.", 1),
              chunk(1, "These financial statements are presented in U.S. dollars.", 3)]
    result = extract_fact("default_currency", chunks)
    assert (result.status, result.value, result.chunk, result.excerpt) == ("ambiguous", None, None, "")
    assert [(c.value, c.page, c.chunk_id) for c in result.candidates] == [
        ("EUR", 1, "synthetic-00000"), ("USD", 3, "synthetic-00001")]
    assert result.pages_searched == (1, 3)


def test_dollar_signs_in_a_table_are_not_a_currency():
    table = ("Revenue by segment\n\n| Segment | 2024 | 2023 |\n|---|---|---|\n| Motion | $1,200 | $1,100 |\n"
             "| Total | $2,400 | $2,150 |")
    chunks = [chunk(0, "Revenue grew to $2.4 billion, up from $2.15 billion.", 1),
              chunk(1, table, 2, kind="table", caption="Revenue by segment")]
    for name in ("default_currency", "units"):
        result = extract_fact(name, chunks)
        assert (result.status, result.value, result.candidates) == ("not_found", None, ())
        assert result.pages_searched == (1, 2)


def test_statement_outside_front_pages_and_named_sections_is_not_found():
    chunks = [chunk(0, "Overview of the year.", 1),
              chunk(1, "These financial statements are presented in euro (EUR).", 40, titles=("Outlook",))]
    result = extract_fact("default_currency", chunks)
    assert (result.status, result.value) == ("not_found", None)
    assert result.pages_searched == (1,)
    assert result.sections_searched == ("Synthetic/Overview",)


def test_statement_in_basis_of_presentation_section_on_page_40_is_found():
    chunks = [chunk(0, "Overview of the year.", 1),
              chunk(1, "The consolidated financial statements are presented in euro (EUR).", 40,
                    titles=("Notes", "Note 1 Basis of presentation"))]
    result = extract_fact("default_currency", chunks)
    assert (result.status, result.value) == ("found", "EUR")
    assert result.chunk.chunk_id == "synthetic-00001" and result.candidates[0].page == 40
    assert result.pages_searched == (1, 40)
    assert "Synthetic/Notes/Note 1 Basis of presentation" in result.sections_searched


def test_millions_and_thousands_in_explicit_sentences_are_ambiguous():
    chunks = [chunk(0, "All amounts are presented in millions of U.S. dollars unless otherwise stated.", 2,
                    titles=("Basis of presentation",)),
              chunk(1, "Amounts in the tables are stated in thousands.", 5)]
    result = extract_fact("units", chunks)
    assert (result.status, result.value) == ("ambiguous", None)
    assert {c.value for c in result.candidates} == {"USD million", "thousand"}


def test_a_sentence_outranks_a_table_caption():
    chunks = [chunk(0, "Unless otherwise stated, all amounts are in thousands of euro (EUR thousand).", 1),
              chunk(1, "Headcount (in millions)\n\n| Region | 2024 |\n|---|---|\n| Europe | 1.2 |", 3, kind="table",
                    caption="Headcount (in millions)")]
    result = extract_fact("units", chunks)
    assert (result.status, result.value, result.confidence) == ("found", "EUR thousand", 0.95)
    assert [c.value for c in result.candidates] == ["EUR thousand"]


def test_bare_gaap_counts_only_where_the_filing_defines_it():
    statement = chunk(0, "The accompanying consolidated financial statements have been prepared in accordance "
                         "with GAAP.", 2)
    definition = chunk(1, "Net debt is a measure not in accordance with U.S. Generally Accepted Accounting "
                          "Principles (GAAP).", 41, titles=("Non-GAAP measures",))
    assert extract_fact("accounting_framework", [statement]).status == "not_found"
    result = extract_fact("accounting_framework", [statement, definition])
    assert (result.status, result.value, result.chunk.chunk_id) == ("found", "US GAAP", "synthetic-00000")
    assert 41 not in result.pages_searched


# Wording taken from the dev filings (3M, American Express, PepsiCo) and the sample report.
@pytest.mark.parametrize("name, text, title, value", [
    ("accounting_framework", "The Consolidated Financial Statements are prepared in conformity with accounting "
     "principles generally accepted in the United States of America (GAAP).", False, "US GAAP"),
    ("accounting_framework", "Use of estimates: The preparation of financial statements in conformity with U.S. "
     "generally accepted accounting principles requires management to make estimates.", False, "US GAAP"),
    ("accounting_framework", "The financial statements comply with IFRS Accounting Standards as issued by the IASB.",
     False, "IFRS"),
    ("units", "Unless otherwise noted, tabular dollars are in millions, except per share amounts.", False,
     "USD million"),
    ("units", "Condensed Consolidated Statement of Income (in millions except per share amounts, unaudited)", True,
     "million"),
    ("units", "(Dollars in millions, except per share amounts)", True, "USD million"),
    ("units", "(Millions)", True, "million"),
    ("default_currency", "Because the Company's financial statements are denominated in U.S. dollars, results may "
     "vary.", False, "USD"),
    ("default_currency", "The presentation currency of the Group is the pound sterling.", False, "GBP"),
    ("reporting_period", "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934 "
     "For the fiscal year ended December 31, 2018", True, "fiscal year ended December 31, 2018"),
    ("reporting_period", "For the quarterly period ended March 25, 2023", True, "quarter ended March 25, 2023"),
    ("reporting_period", "Condensed Consolidated Statement of Income Three Months Ended March 25, 2023", True,
     "three months ended March 25, 2023"),
    ("reporting_period", "12 Weeks Ended 3/25/2023 3/19/2022", True, "12 weeks ended March 25, 2023"),
    ("reporting_period", "Consolidated income statement for the year ended 31 December 2024", True,
     "year ended 31 December 2024"),
    ("consolidation_basis", "All subsidiaries are consolidated.", False, "consolidated"),
    ("consolidation_basis", "The accompanying consolidated financial statements have been prepared in accordance "
     "with U.S. GAAP and include the consolidated accounts of PepsiCo, Inc. and the affiliates that we control.",
     False, "consolidated"),
    ("consolidation_basis", "Schedule I Condensed Financial Information of Registrant (Parent Company Only)", True,
     "parent only"),
])
def test_explicit_wording_is_found(name, text, title, value):
    chunks = [chunk(0, text, 1, kind="table", caption=text) if title else chunk(0, text, 1)]
    result = extract_fact(name, chunks)
    assert (result.status, result.value) == ("found", value), result.candidates
    assert 0.5 <= result.confidence <= 1.0


@pytest.mark.parametrize("name, text", [
    ("accounting_framework", "The adjusted measures are not prepared in accordance with U.S. GAAP."),
    ("accounting_framework", "Amendments to IFRS that became effective on 1 January 2024 had no material effect."),
    ("accounting_framework", "Financial statements are prepared in accordance with generally accepted accounting "
     "principles."),
    ("default_currency", "Local currencies generally are considered the functional currencies outside the "
     "United States."),
    ("default_currency", "Revenue rose by 5.3% to EUR 1,032.4 million."),
    ("units", "Revenue rose by 5.3% to EUR 1,032.4 million."),
    ("units", "Stock option activity (Shares in thousands)"),
    ("reporting_period", "Comparative information is presented for the financial year ended 31 December 2023."),
    ("reporting_period", "Please refer to our Annual Report on Form 10-K for the fiscal year ended December 31, 2022."),
    ("reporting_period", "12 Weeks Ended 3/5/2023"),
    ("consolidation_basis", "Our Venezuelan subsidiaries are not consolidated."),
])
def test_mentions_that_are_not_statements_are_not_found(name, text):
    assert extract_fact(name, [chunk(0, text, 1)]).status == "not_found"


def test_unknown_fact_name_is_rejected():
    with pytest.raises(ValueError, match="default_currency"):
        extract_fact("currency", [])


# -- catalog rows -----------------------------------------------------------------------------------

@pytest.fixture
def catalog_with_samples(sample_store, tmp_path):
    """A private catalog holding copies of two sample documents (the shared store stays untouched)."""
    catalog = Catalog(tmp_path / "facts-store")
    docs = [doc_by_name(sample_store, n) for n in (SAMPLE_PDF.name, "information_security_policy.md")]
    for doc in docs:
        catalog.begin_document(doc_id=doc.doc_id, name=doc.name, format=doc.format, sha256=doc.sha256,
                               pages=doc.pages, size_bytes=doc.size_bytes, metadata=doc.metadata,
                               parser_version=doc.parser_version)
        headings: list[Heading] = sample_store.catalog.headings(doc.doc_id)
        catalog.write_chunks(doc.doc_id, sample_store.catalog.chunks(doc.doc_id), headings)
        catalog.mark_searchable(doc.doc_id, b"")
    yield catalog, [catalog.document(d.doc_id) for d in docs]
    catalog.close()


def test_refresh_facts_writes_five_rows_with_lineage(catalog_with_samples, ground_truth):
    catalog, (report, _) = catalog_with_samples
    assert catalog.facts(report.doc_id) == []
    results = refresh_facts(catalog, report)
    rows = {r.fact_name: r for r in catalog.facts(report.doc_id)}
    assert sorted(rows) == sorted(FACT_NAMES) and [r.name for r in results] == list(FACT_NAMES)
    for name, row in rows.items():
        want = ground_truth[SAMPLE_PDF.name]["facts"][name]
        assert (row.extractor_version, row.doc_sha256) == (EXTRACTOR_VERSION, report.sha256)
        assert datetime.fromisoformat(row.extracted_at).tzinfo is not None
        assert (row.status, meaning(name, row.value), row.page_numbers) == ("found", meaning(name, want["value"]),
                                                                           (want["page"],))
        assert row.source_chunk_id and norm(want["evidence"]) in norm(row.evidence_excerpt)
        assert row.polygons and row.confidence > 0.5
    refresh_facts(catalog, report)
    assert len(catalog.facts(report.doc_id)) == 5


def test_stored_not_found_has_no_value_and_no_source(catalog_with_samples):
    catalog, (_, policy) = catalog_with_samples
    refresh_facts(catalog, policy)
    rows = catalog.facts(policy.doc_id)
    assert len(rows) == 5
    for row in rows:
        assert (row.status, row.value, row.source_chunk_id, row.confidence) == ("not_found", None, None, 0.0)
        assert (row.extractor_version, row.doc_sha256) == (EXTRACTOR_VERSION, policy.sha256)


def test_ambiguous_record_carries_no_value_but_the_pages_searched(sample_store):
    doc = doc_by_name(sample_store, SAMPLE_PDF.name)
    result = extract_fact("default_currency", [
        chunk(0, "The Group's presentation currency is the euro.", 1),
        chunk(1, "These financial statements are presented in U.S. dollars.", 2)])
    row = to_record(result, doc)
    assert (row.status, row.value, row.source_chunk_id, row.evidence_excerpt) == ("ambiguous", None, None, "")
    assert row.page_numbers == (1, 2) and row.polygons == ()


# -- a real 10-K ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def mmm_2018(tmp_path_factory):
    """3M's 2018 10-K, alone in a private store (searchable: facts are read from its chunks, no vectors needed)."""
    if not (CORPUS / "3M_2018_10K.pdf").is_file():
        pytest.skip(f"dev corpus not found at {CORPUS}")
    from tests.conftest import searchable_pdfs
    ws = searchable_pdfs(tmp_path_factory, "facts-3m", [CORPUS / "3M_2018_10K.pdf"])
    (doc,) = ws.catalog.documents()
    return {r.name: r for r in extract_facts(ws.catalog.chunks(doc.doc_id))}


@pytest.mark.corpus
def test_3m_2018_10k_facts(mmm_2018):
    # Checked against the filing's text:
    # - p.61, Note 1 Significant Accounting Policies: "Use of estimates: The preparation of financial
    #   statements in conformity with U.S. generally accepted accounting principles requires ...".
    framework = mmm_2018["accounting_framework"]
    assert (framework.status, framework.value) == ("found", "US GAAP")
    assert 61 in framework.chunk.pages and 61 in framework.pages_searched
    assert "in conformity with U.S. generally accepted accounting principles" in framework.excerpt
    # - p.1, cover: "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) ... For the fiscal year ended December 31, 2018".
    period = mmm_2018["reporting_period"]
    assert (period.status, period.value, period.chunk.page_start) == ("found", "fiscal year ended December 31, 2018", 1)
    assert period_iso(period.value) == {"start": None, "end": "2018-12-31"}
    # - p.61, Note 1 "Consolidation: ... All subsidiaries are consolidated."
    basis = mmm_2018["consolidation_basis"]
    assert (basis.status, basis.value, basis.excerpt) == ("found", "consolidated", "All subsidiaries are consolidated.")
    # - p.10, risk factors: "Because the Company's financial statements are denominated in U.S. dollars ...";
    #   the "$" in the statements (p.56-60, outside the scope) is not what makes it USD.
    currency = mmm_2018["default_currency"]
    assert (currency.status, currency.value, currency.candidates[0].page) == ("found", "USD", 10)
    # - p.56-60, the statements' scale lines "(Millions, except per share amounts)", "(Millions)" and, on the
    #   balance sheet and equity statement, "(Dollars in millions, except per share amount(s))": no sentence
    #   states the units, so the statements' legends decide (not p.65's note table legend), with a caption's
    #   lower confidence, and the dollars named on p.58-59 make it USD.
    units = mmm_2018["units"]
    assert (units.status, units.value) == ("found", "USD million")
    assert [c.page for c in units.candidates] == [56, 57, 58, 59, 60]
    assert units.chunk.page_start == 58 and units.excerpt == "(Dollars in millions, except per share amount)"
    assert units.confidence <= 0.6
    # - p.54, the auditor's opinion "... present fairly ... in conformity with U.S. generally accepted accounting
    #   principles" agrees with Note 1; the note, in the front matter's scope, stays the evidence shown.
    assert [c.page for c in framework.candidates][:2] == [54, 61]
