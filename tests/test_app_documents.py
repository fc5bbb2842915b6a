"""Documents and Facts pages (AppTest): uploads with per-file results (ingested, already present,
the VeraError of a bad file while the others still go in), the document list, delete, facts."""

from __future__ import annotations

import pytest

from tests.app_harness import start, unescape
from tests.conftest import settings_for
from vera_core.ingest.service import Ingestor
from vera_core.workspace import Workspace

NOTE = b"# Travel note\n\n## Scope\n\nThis note covers rail travel. Amounts are in euro (EUR).\n"
MEMO = b"# Fleet memo\n\n## Vehicles\n\nThe fleet has 42 electric vans, leased for five years.\n"


@pytest.fixture
def small_store(tmp_path) -> Workspace:
    """A private store with one tiny Markdown document (tests here add and delete documents)."""
    ws = Workspace(settings_for(tmp_path / "store"))
    assert Ingestor(ws).ingest_file("travel_note.md", data=NOTE, name="travel_note.md").status == "ingested"
    return ws


def documents_page(monkeypatch, ws: Workspace):
    at = start(monkeypatch, ws.data_dir)
    at.switch_page("app_pages/documents.py").run()
    assert not at.exception, at.exception
    return at


def test_upload_reports_each_file_and_a_bad_file_does_not_stop_the_others(small_store, monkeypatch):
    at = documents_page(monkeypatch, small_store)
    at.file_uploader(key="documents_uploader").set_value([
        ("broken.pdf", b"this is not a PDF at all", "application/pdf"),
        ("travel_note.md", NOTE, "text/markdown"),
        ("fleet_memo.md", MEMO, "text/markdown"),
    ]).run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith("broken.pdf: ")
    assert "broken.pdf" in errors[0].split(": ", 1)[1]  # the VeraError message names the file
    assert [i.value for i in at.info] == ["travel_note.md: already present, not ingested again."]
    # the new file is queued for the background worker (started by the app): the page does not wait
    at = _until(at, lambda: [s.value for s in at.success] == ["fleet_memo.md: ingested (0 pages, 2 chunks, 0 tables)"])
    listed = at.dataframe[0].value
    assert sorted(listed["name"]) == ["fleet_memo.md", "travel_note.md"]
    assert list(listed.columns[:6]) == ["name", "format", "pages", "chunks", "tables", "facts"]
    assert set(listed["stage"]) == {"complete"}


def _until(at, done, timeout: float = 180.0):
    """Rerun the page (as its self-refreshing status does) until `done()` holds."""
    import time
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the queued upload did not finish"
        time.sleep(0.5)
        at.run()
        assert not at.exception, at.exception
    return at


def test_a_document_can_be_browsed_and_deleted(small_store, monkeypatch):
    at = documents_page(monkeypatch, small_store)
    tree = unescape(at.tabs[0].markdown[0].value)
    assert tree == "- Travel note\n  - Scope"
    at.button(key="delete_doc").click().run()
    assert not at.exception, at.exception
    assert small_store.catalog.documents() == []
    assert any("No documents yet" in i.value for i in at.info)


def test_sample_pdf_lists_pages_tables_and_facts(sample_store, monkeypatch):
    at = documents_page(monkeypatch, sample_store)
    row = at.dataframe[0].value.set_index("name").loc["Aurora_Annual_Report_2024.pdf"]
    assert (row["format"], row["pages"], row["tables"], row["facts"]) == ("pdf", 11, 5, "5/5 found")
    captions = [e.label for e in at.expander]
    assert any("Revenue by segment" in unescape(c) for c in captions)


def test_facts_page_shows_each_fact_and_its_highlighted_evidence(sample_store, monkeypatch):
    at = start(monkeypatch, sample_store.data_dir)
    at.switch_page("app_pages/facts.py").run()
    assert not at.exception, at.exception
    values = unescape(" ".join(m.value for m in at.markdown))
    assert "EUR" in values and "IFRS" in values
    assert not at.image
    at.button(key="fact-default_currency").click().run()
    assert at.image[0].captions == ["Aurora_Annual_Report_2024.pdf, page 1: evidence of default_currency"]
    at.button(key="facts_refresh").click().run()
    assert not at.exception, at.exception
    assert len(sample_store.catalog.facts(next(d.doc_id for d in sample_store.catalog.documents()
                                               if d.name.endswith(".pdf")))) == 5



CHECKLIST = b"# Checklist\n\n## Items\n\nBring these.\n\n| Item |\n|------|\n| Passport |\n| Visa |\n"
"""A one-column table: no value column, so its grid cannot be read."""


def test_tables_tab_shows_the_chosen_table_as_a_grid_with_a_csv_download(sample_store, monkeypatch):
    at = documents_page(monkeypatch, sample_store)
    doc_id = next(d.doc_id for d in sample_store.catalog.documents() if d.name == "Aurora_Annual_Report_2024.pdf")
    at.selectbox(key="browse_doc").set_value(doc_id).run()
    tables_tab = at.tabs[1]
    choice = tables_tab.selectbox(key=f"browse_table_{doc_id}")
    assert choice.options[:3] == ["Table 1 — Revenue by segment (page 3)",
                                  "Table 2 — Consolidated income statement for the year ended 31 December 2024 "
                                  "(page 6, income statement)",
                                  "Table 3 — Consolidated balance sheet as at 31 December 2024 "
                                  "(pages 6, 7, balance sheet)"]
    assert len(choice.options) == 5
    choice.set_value(2).run()
    assert not at.exception, at.exception
    grid = at.tabs[1].dataframe[0].value
    assert list(grid.columns) == ["EUR thousand", "Note", "2024", "2023"]
    assert grid.set_index("EUR thousand").loc["Revenue", "2024"] == "1,032,400"
    assert "FY2024 (year ended December 31, 2024)" in unescape(at.tabs[1].caption[0].value)
    download = at.tabs[1].get("download_button")
    assert len(download) == 1 and "Download CSV (table 2" in download[0].proto.label
    at.tabs[1].selectbox(key=f"browse_table_{doc_id}").set_value(3).run()
    balance = at.tabs[1].dataframe[0].value
    assert list(balance.columns[:2]) == ["EUR thousand", "Under"]
    assert balance.set_index("EUR thousand").loc["Inventories", "Under"] == "Current assets"


def test_an_unreadable_table_shows_its_text_and_says_so(small_store, monkeypatch):
    assert Ingestor(small_store).ingest_file("checklist.md", data=CHECKLIST, name="checklist.md").status == "ingested"
    at = documents_page(monkeypatch, small_store)
    doc_id = next(d.doc_id for d in small_store.catalog.documents() if d.name == "checklist.md")
    at.selectbox(key="browse_doc").set_value(doc_id).run()
    assert not at.exception, at.exception
    tables_tab = at.tabs[1]
    assert tables_tab.selectbox(key=f"browse_table_{doc_id}").options == ["Table 1 — Items"]
    assert "could not be read" in tables_tab.warning[0].value
    assert "| Passport |" in tables_tab.text[0].value
    assert not tables_tab.dataframe and not tables_tab.get("download_button")


def test_the_list_shows_each_documents_kind_and_the_user_can_change_it(small_store, monkeypatch):
    """A note with no title, headings or wording of a kind is 'other (uncertain)'; set to a policy on
    the Documents page, it says so, the catalog keeps it, and "which policies" questions search it."""
    at = documents_page(monkeypatch, small_store)
    listed = at.dataframe[0].value
    assert list(listed["kind"]) == ["other (uncertain)"]
    at.selectbox(key=f"kind_{small_store.catalog.documents()[0].doc_id}").set_value("policy").run()
    assert not at.exception, at.exception
    doc = small_store.catalog.documents()[0]
    assert (doc.kind, doc.kind_source) == ("policy", "user")
    assert list(at.dataframe[0].value["kind"]) == ["policy (set by you)"]


def test_files_uploaded_with_a_chosen_kind_keep_it(small_store, monkeypatch):
    at = documents_page(monkeypatch, small_store)
    at.selectbox(key="documents_uploader_kind").set_value("contract").run()
    at.file_uploader(key="documents_uploader").set_value([("fleet_memo.md", MEMO, "text/markdown")]).run()
    assert not at.exception, at.exception
    at = _until(at, lambda: any(s.value.startswith("fleet_memo.md: ingested") for s in at.success))
    memo = next(d for d in small_store.catalog.documents() if d.name == "fleet_memo.md")
    assert (memo.kind, memo.kind_source) == ("contract", "user")
