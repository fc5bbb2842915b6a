"""Background ingestion in a real browser: a 48-page PDF uploaded in one session becomes searchable
within seconds; while its vectors are still being written, a location question about it (asked in a
second session) is answered with a citation to the page, and the Documents page of the first session
shows its embedding progress moving."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.made_pdfs import LONG_FACT_PAGE, LONG_NAME, LONG_PAGES, long_review_pdf
from vera_bench.app_server import CHROMIUM, launch_chromium, start_app
from vera_bench.ui_driver import AskPage
from vera_core.config import VeraSettings
from vera_core.workspace import Workspace

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (make test installs it)")]

ARTIFACTS = ROOT / "test-artifacts"


def test_a_long_pdf_answers_before_it_is_complete_and_its_progress_moves(tmp_path):
    store = tmp_path / "store"
    # NOTE: the worker reports progress every 4 chunks here (96 by default), so it is seen moving
    env = {"VERA_INGEST_EMBED_CHUNKS": "4"}
    path = tmp_path / LONG_NAME
    path.write_bytes(long_review_pdf())
    from playwright.sync_api import sync_playwright
    with start_app(store, log=ARTIFACTS / "browser-ingest-streamlit.log", env=env) as server, sync_playwright() as pw:
        browser = launch_chromium(pw)
        uploader_tab = browser.new_context(viewport={"width": 1500, "height": 1000}).new_page()
        asker_tab = browser.new_context(viewport={"width": 1500, "height": 1000}).new_page()
        for tab in (uploader_tab, asker_tab):
            tab.set_default_timeout(120_000)
        uploader_tab.goto(f"{server.url}/documents")
        uploader_tab.get_by_text("Browse a document").wait_for(timeout=240_000)  # the samples are searchable
        ask = AskPage(asker_tab, server.url)
        ask.open()

        uploader_tab.locator('input[type="file"]').first.set_input_files(str(path))
        searchable = uploader_tab.get_by_text(re.compile(rf"{re.escape(LONG_NAME)}: searchable"))
        searchable.first.wait_for(timeout=120_000)
        ws = Workspace(VeraSettings(data_dir=store))
        doc = next(d for d in ws.catalog.documents() if d.name == LONG_NAME)
        assert doc.stage == "searchable" and doc.pages == LONG_PAGES

        # a second session asks about the new document while its vectors are being written
        question = f"What does page {LONG_FACT_PAGE} say about the Orion crane contract?"
        ask.ask(question)
        card = ask.card_text(question)
        assert "Orion crane contract" in card and "EUR 41 million" in card
        ask.click_citation(1)
        assert ask.viewer_caption().startswith(f"{LONG_NAME}, page {LONG_FACT_PAGE} of {LONG_PAGES}: [1] selected")
        assert ws.catalog.document(doc.doc_id).stage == "searchable", "answered only after the document was complete"

        # meanwhile the first session's page shows the embedding progress moving, then the document complete
        seen: list[int] = []
        deadline = time.monotonic() + 300
        done = uploader_tab.get_by_text(re.compile(rf"{re.escape(LONG_NAME)}: ingested \({LONG_PAGES} pages"))
        while not done.count():
            assert time.monotonic() < deadline, f"not complete after 300 s; progress seen {seen}"
            # NOTE: the upload's own line and the store's queue both show it; the furthest one counts
            texts = uploader_tab.get_by_text(re.compile(rf"{re.escape(LONG_NAME)}: searchable, embedding")).all_inner_texts()
            shares = [int(m.group(1)) for t in texts if (m := re.search(r"embedding (\d+)%", t))]
            if shares and (not seen or seen[-1] != max(shares)):
                seen.append(max(shares))
            time.sleep(0.25)
        assert len(seen) >= 2 and seen == sorted(seen) and seen[0] < seen[-1] < 100, seen
        assert ws.catalog.document(doc.doc_id).stage == "complete"
        uploader_tab.screenshot(path=str(ARTIFACTS / "09-documents-after-background-ingest.png"), full_page=True)
        browser.close()
