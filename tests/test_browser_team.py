"""Two app processes behind nginx (`vera serve --processes 2`) on a team store, in a real browser: a
file uploaded in a session on one process becomes searchable and answerable in a session on the
other, which renders its cited page with the region highlighted. Each session stays on its process
(the proxy's affinity cookie); which process answered is read from the proxy's upstream header."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest
from PIL import Image

from tests.conftest import ROOT, SAMPLE_PDF, _chroma, _postgres, settings_for
from tests.made_pdfs import KESTREL_NAME, kestrel_review_pdf
from tests.pixels import yellowness
from vera_bench.app_server import CHROMIUM, free_port, launch_chromium
from vera_bench.ui_driver import AskPage, viewer_screenshot
from vera_core.ingest.service import Ingestor
from vera_core.query import QueryEngine
from vera_core.serve.nginx import AFFINITY_COOKIE, UPSTREAM_HEADER, affinity_keys
from vera_core.workspace import Workspace

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (make test installs it)"),
              pytest.mark.skipif(not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()),
                                 reason="needs Debian's nginx (make test installs it)")]

ARTIFACTS = ROOT / "test-artifacts"
QUESTION = "What does page 2 say about the acquisition of Kestrel Robotics?"


def _upstream(url: str, cookie: str) -> str:
    request = urllib.request.Request(f"{url}/_stcore/health", headers={"Cookie": f"{AFFINITY_COOKIE}={cookie}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.headers[UPSTREAM_HEADER]


@pytest.fixture(scope="module")
def team(tmp_path_factory):
    """A team store with the sample report, served by two app processes and a worker behind nginx."""
    root = tmp_path_factory.mktemp("team-serve")
    settings = settings_for(root / "store", database_url=_postgres().new_database(), chroma_url=_chroma().url,
                            collection="vera_serve", files_dir=root / "shared")
    ws = Workspace(settings)
    assert Ingestor(ws).ingest_file(SAMPLE_PDF).status == "ingested"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    env.update({f"VERA_{k.upper()}": str(v) for k, v in settings.model_dump(mode="json", exclude_unset=True).items()})
    port = free_port()
    log = ARTIFACTS / "browser-team-serve.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as out:
        serve = subprocess.Popen([sys.executable, "-m", "vera_core.cli.main", "serve", "--processes", "2",
                                  "--port", str(port)], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 240
        while "VERA on" not in log.read_text():
            assert serve.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "vera serve did not start in 240 s"
            time.sleep(0.5)
        yield ws, url
    finally:
        children = psutil.Process(serve.pid).children(recursive=True)
        names = " ".join(" ".join(_cmdline(c)) for c in children)
        serve.terminate()
        serve.wait(timeout=60)
    assert serve.returncode == 0, log.read_text()
    assert not (root / "store" / "files").exists()  # originals only in the shared folder
    assert all(part in names for part in ("nginx", "streamlit", "worker")), names
    left = [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    assert not left, f"processes left behind: {[_cmdline(c) for c in left]}"


def _cmdline(process) -> list[str]:
    try:
        return process.cmdline()
    except psutil.Error:
        return []


def test_a_file_uploaded_on_one_process_is_answered_and_highlighted_on_the_other(team):
    ws, url = team
    uploader_key, asker_key = affinity_keys(url, 2)  # a key that lands on each of the two processes
    first, second = _upstream(url, uploader_key), _upstream(url, asker_key)
    assert first != second
    pdf = ARTIFACTS / KESTREL_NAME
    pdf.write_bytes(kestrel_review_pdf())

    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        tabs = []
        for key, upstream in ((uploader_key, first), (asker_key, second)):
            context = browser.new_context(viewport={"width": 1500, "height": 1000})
            context.add_cookies([{"name": AFFINITY_COOKIE, "value": key, "url": url}])
            tab = context.new_page()
            tab.set_default_timeout(120_000)
            seen = []
            tab.on("response", lambda r, seen=seen: seen.append(r.headers.get(UPSTREAM_HEADER.lower())))
            tabs.append((tab, upstream, seen))
        (uploader, _, uploader_seen), (asker, _, asker_seen) = tabs

        uploader.goto(f"{url}/documents")
        uploader.get_by_text("Browse a document").wait_for()
        uploader.locator('input[type="file"]').first.set_input_files(str(pdf))
        uploader.get_by_text(re.compile(rf"{re.escape(KESTREL_NAME)}: (searchable|ingested)")).first.wait_for()

        ask = AskPage(asker, url)
        ask.open()
        ask.scope_to(KESTREL_NAME)  # the other process lists the new document
        ask.ask(QUESTION)
        assert "acquired Kestrel Robotics" in ask.card_text(QUESTION)
        ask.click_citation(1)
        assert ask.viewer_caption().startswith(f"{KESTREL_NAME}, page 2 of 2: [1] selected")
        answer = QueryEngine(ws, llm=None).answer(QUESTION, mode="deterministic")
        polygon = next(p for p in answer.citations[0].polygons if p.page == 2)
        shot = ARTIFACTS / "10-team-other-process-viewer.png"
        # NOTE: the caption updates before the page image with its highlight has been drawn: look again for a while
        deadline = time.monotonic() + 30
        while True:
            viewer_screenshot(asker, shot)
            image = Image.open(shot)
            scale = image.width / 612
            left, top, right, bottom = (round(v * scale) for v in (polygon.x0, polygon.y0, polygon.x1, polygon.y1))
            if yellowness(image, (left + 3, top + 3, right - 3, bottom - 3)) > 40 or time.monotonic() > deadline:
                break
            asker.wait_for_timeout(500)

        # each session was served by its own process only, the upload's by the first, the question's by the second
        assert set(filter(None, uploader_seen)) == {first}, uploader_seen
        assert set(filter(None, asker_seen)) == {second}, asker_seen
        browser.close()

    assert yellowness(image, (left + 3, top + 3, right - 3, bottom - 3)) > 40, "no highlight over the cited region"
    assert yellowness(image, (left + 3, round(600 * scale), right - 3, round(620 * scale))) < 5
