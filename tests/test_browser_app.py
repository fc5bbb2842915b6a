"""The app in a real browser (Playwright + Debian's Chromium against `streamlit run`): upload a PDF,
ask a location question, click its citation and check the highlight is drawn over the cited region,
download the evidence CSV, ask a list question and see every item. Screenshots: test-artifacts/."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import pymupdf
from PIL import Image

from tests.conftest import ROOT
from tests.made_pdfs import CALL_NAME, KESTREL_NAME as PDF_NAME, PAGE_W, falcon_call_pdf, kestrel_review_pdf as make_pdf
from tests.pixels import yellowness
from vera_bench.app_server import CHROMIUM, launch_chromium, start_app
from vera_bench.ui_driver import AskPage, viewer_screenshot, wait_until_idle

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (make test installs it)")]

ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One app per module on an empty store: the first start loads the bundled samples."""
    store = tmp_path_factory.mktemp("browser-store")
    with start_app(store, log=ARTIFACTS / "browser-streamlit.log") as app:
        app.store = store
        yield app


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        chromium = launch_chromium(pw)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def page(browser, server):
    """One browser tab for the module's tests, in order (an upload, then questions about it)."""
    context = browser.new_context(viewport={"width": 1500, "height": 1000}, accept_downloads=True)
    tab = context.new_page()
    tab.set_default_timeout(60_000)
    yield tab
    context.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def upload(page, server, path: Path, pages: int) -> None:
    """Upload `path` through the Documents page's file input and wait until it is ingested."""
    page.goto(f"{server.url}/documents")
    page.get_by_text("Browse a document").wait_for(timeout=240_000)  # first start ingests the samples
    page.locator('input[type="file"]').first.set_input_files(str(path))
    page.get_by_text(f"{path.name}: ingested ({pages} pages").wait_for(timeout=120_000)
    wait_until_idle(page)


def ask_scoped(page, server, doc: str, question: str) -> AskPage:
    """The Ask page, scoped to `doc`, once `question` is answered."""
    ask = AskPage(page, server.url)
    ask.open()
    ask.scope_to(doc)
    ask.ask(question)
    return ask


def test_upload_a_pdf_through_the_file_input_and_see_it_listed(page, server, tmp_path):
    path = tmp_path / PDF_NAME
    path.write_bytes(make_pdf())
    upload(page, server, path, 2)
    page.get_by_test_id("stSelectbox").filter(has_text="Browse a document").click()
    page.get_by_role("option").first.wait_for()
    options = page.get_by_role("option").all_inner_texts()
    assert PDF_NAME in options and "Aurora_Annual_Report_2024.pdf" in options
    page.keyboard.press("Escape")
    shot(page, "01-documents-after-upload")


def viewer_image(page, name: str) -> Image.Image:
    """The viewer's page image as the user sees it (a screenshot of the element)."""
    viewer_screenshot(page, ARTIFACTS / name)
    return Image.open(ARTIFACTS / name)


def cell_boxes(image: Image.Image, report: dict, caption: str):
    """The ground truth's cells of the table with `caption`, and a function giving a cell's box in
    the image's pixels (inset 2 px)."""
    table = next(t for t in report["tables"] if t["caption"].startswith(caption))
    cells = {(c["row"], c["col"]): c for c in table["cells"]}
    scale = image.width / report["page_size"][0]

    def box(cell: dict) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = (round(v * scale) for v in cell["bbox"])
        return x0 + 2, y0 + 2, x1 - 2, y1 - 2
    return cells, box


def test_location_question_citation_shows_the_page_with_the_region_highlighted(page, server):
    question = "What does page 2 say about the acquisition of Kestrel Robotics?"
    ask = ask_scoped(page, server, PDF_NAME, question)
    assert "acquired Kestrel Robotics" in ask.card_text(question)
    ask.click_citation(1)
    caption = ask.viewer_caption()
    assert caption.startswith(f"{PDF_NAME}, page 2 of 2: [1] selected")
    shot(page, "02-ask-location-citation")

    # The cited polygons, from the evidence CSV the user downloads
    with page.expect_download() as download:
        page.get_by_role("button", name="Download CSV").click()
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
    assert rows and {r["document"] for r in rows} == {PDF_NAME} and {r["page"] for r in rows} == {"2"}
    assert any("Kestrel Robotics" in r["claim"] for r in rows)
    polygons = [p for p in json.loads(rows[0]["polygons"]) if p["page"] == 2]
    assert polygons

    viewer_screenshot(page, ARTIFACTS / "03-viewer.png")
    image = Image.open(ARTIFACTS / "03-viewer.png")
    scale = image.width / PAGE_W
    p = polygons[0]
    left, top, right, bottom = (round(p["x0"] * scale), round(p["y0"] * scale),
                                round(p["x1"] * scale), round(p["y1"] * scale))
    inside = (left + 3, top + 3, right - 3, bottom - 3)
    height = bottom - top
    below = (left + 3, round(600 * scale), right - 3, round(600 * scale) + height)  # blank lower page
    assert yellowness(image, inside) > 40, "no highlight over the cited region"
    assert yellowness(image, below) < 5, "highlight colour outside the cited region"


def test_list_question_shows_every_item(page, server, ground_truth):
    ask = AskPage(page, server.url)
    ask.asked = 1  # the location question of the previous test
    ask.clear_scope()
    ask.ask("List all significant events")
    card = ask.card_text("List all significant events")
    events = ground_truth["Aurora_Annual_Report_2024.pdf"]["significant_events"]["items"]
    assert len(events) == 7
    for event in events:
        assert event.split(":")[0] in card
    assert "7 items in" in card
    ask.click_citation(7)
    assert ask.viewer_caption().startswith("Aurora_Annual_Report_2024.pdf, page 5 of 11: [7] selected")
    shot(page, "04-ask-list")


def test_figure_question_highlights_the_cell_not_the_table(page, server, ground_truth):
    report = "Aurora_Annual_Report_2024.pdf"
    question = "What was revenue in FY2024?"
    ask = ask_scoped(page, server, report, question)
    assert "1,032,400" in ask.card_text(question)
    ask.click_citation(1)
    assert ask.viewer_caption().startswith(f"{report}, page 6 of")
    shot(page, "05-ask-figure-cell")
    image = viewer_image(page, "06-viewer-cell.png")
    cells, box = cell_boxes(image, ground_truth[report], "Consolidated income statement")

    assert cells[(0, 2)]["text"] == "1,032,400"
    assert yellowness(image, box(cells[(0, 2)])) > 40, "the cited cell is not highlighted"
    assert yellowness(image, box(cells[(0, 0)])) > 40, "the row label is not highlighted"
    for other in ((0, 3), (1, 2), (2, 2), (7, 2)):  # 2023 revenue, cost of sales, gross profit, operating profit
        assert yellowness(image, box(cells[other])) < 5, f"highlight over another cell {cells[other]['text']}"


def test_metric_answer_shows_its_calculation_and_an_operand_click_highlights_its_cell(page, server, ground_truth):
    report = "Aurora_Annual_Report_2024.pdf"
    question = "What was the gross margin in FY2024?"
    ask = ask_scoped(page, server, report, question)
    card = ask.card_text(question)
    assert "29.9%" in card and "Calculation" in card
    table = page.locator("[data-testid='stTable']").first
    assert "cost of sales" in table.inner_text().lower() and "724,180" in table.inner_text()
    ask.click_citation(2)  # the cost of sales operand
    assert ask.viewer_caption().startswith(f"{report}, page 6 of")
    shot(page, "07-ask-metric-operand")
    image = viewer_image(page, "08-viewer-operand.png")
    cells, box = cell_boxes(image, ground_truth[report], "Consolidated income statement")

    assert cells[(1, 2)]["text"] == "(724,180)"
    assert yellowness(image, box(cells[(1, 2)])) > 40, "the operand's cell is not highlighted"
    assert yellowness(image, box(cells[(0, 2)])) < 5, "the other operand is highlighted as if selected"


def test_sessions_speaking_the_apps_protocol_are_answered_side_by_side(server):
    """`vera bench ui --sessions` puts load on the server with sessions that speak the app's protocol
    (no browser): two of them asking at once each get the answer to their own question."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from vera_bench.stream_session import StreamSession

    async def both() -> list[float]:
        sessions = [StreamSession(server.url) for _ in range(2)]
        for session in sessions:
            await session.open()
        try:
            return await asyncio.gather(sessions[0].ask("What is the reporting currency?", timeout_s=60),
                                        sessions[1].ask("List all significant events", timeout_s=60))
        finally:
            for session in sessions:
                await session.close()
    with ThreadPoolExecutor(1) as thread:  # this module's Playwright runs an event loop in the test's thread
        seconds = thread.submit(asyncio.run, both()).result()
    assert all(0 < s < 60 for s in seconds)


def test_the_documents_page_shows_a_documents_kind_and_the_user_changes_it(page, server):
    """Issue 19: the kind VERA read (and how), and a kind the user sets, kept in the catalog."""
    from vera_core.config import VeraSettings
    from vera_core.workspace import Workspace
    page.goto(f"{server.url}/documents")
    page.get_by_text("Browse a document").wait_for(timeout=240_000)
    wait_until_idle(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Browse a document").click()
    page.get_by_role("option", name="expense_policy.md").click()
    page.get_by_text("Kind: policy (from its title).").wait_for()
    wait_until_idle(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Kind of document").click()
    page.get_by_role("option", name="contract", exact=True).click()
    page.get_by_text("Kind: contract (set by you).").wait_for()
    shot(page, "05-documents-kind-changed")
    doc = next(d for d in Workspace(VeraSettings(data_dir=server.store)).catalog.documents()
               if d.name == "expense_policy.md")
    assert (doc.kind, doc.kind_source) == ("contract", "user")


def _line_box(pdf: bytes, text: str, scale: float) -> tuple[int, int, int, int]:
    """Where `text` is printed on the PDF's first page, in the viewer image's pixels (inset 2 px)."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        rect = doc[0].search_for(text)[0]
    return round(rect.x0 * scale) + 2, round(rect.y0 * scale) + 2, round(rect.x1 * scale) - 2, round(rect.y1 * scale) - 2


def test_a_speaker_question_is_answered_from_the_turn_highlighted_on_its_page(page, server, tmp_path):
    """Issue 26: what a named speaker said is cited to that speaker's turn, and the turn, not the call, is drawn."""
    pdf = falcon_call_pdf()
    path = tmp_path / CALL_NAME
    path.write_bytes(pdf)
    upload(page, server, path, 1)
    question = "What did Tom Wouters say about gross margin?"
    ask = ask_scoped(page, server, CALL_NAME, question)
    assert "Gross margin was 41%" in ask.card_text(question)
    ask.click_citation(1)
    assert ask.viewer_caption().startswith(f"{CALL_NAME}, page 1 of 1: [1] selected")
    shot(page, "09-ask-speaker-turn")
    image = viewer_image(page, "10-viewer-turn.png")
    scale = image.width / PAGE_W
    assert yellowness(image, _line_box(pdf, "Gross margin was 41%", scale)) > 40, "the speaker's turn is not highlighted"
    for other in ("Revenue grew 9%", "How many of the new sites", "Twelve of the forty"):
        assert yellowness(image, _line_box(pdf, other, scale)) < 5, f"another speaker's turn is highlighted: {other}"
