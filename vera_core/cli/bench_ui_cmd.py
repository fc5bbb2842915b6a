"""`vera bench ui`: the app as a person sees it. Starts `streamlit run app.py` on a free port with a
fresh store (the app loads the bundled samples), drives Debian's Chromium with Playwright and prints
the time from pressing Enter to the answer being shown, and from clicking a citation to its
highlighted page being shown (medians; targets 1.5 s and 0.5 s)."""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from vera_core.cli.app_server import ROOT, launch_chromium, start_app
from vera_core.cli.ui_driver import AskPage
from vera_core.config import VeraSettings

QUESTIONS = ("What does page 4 say about the acquisition of Nordlicht?", "List all significant events",
             "What was total revenue in 2024 and 2023?", "What is the reporting currency?")
ANSWER_TARGET_S = 1.5
CITATION_TARGET_S = 0.5


def run(args, settings: VeraSettings) -> int:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("vera bench ui needs Playwright: .venv/bin/pip install -r requirements-test.txt")
        return 2
    answer_s: dict[str, list[float]] = {q: [] for q in QUESTIONS}
    click_s: list[float] = []
    with tempfile.TemporaryDirectory() as store, \
            start_app(Path(store), log=ROOT / "test-artifacts" / "bench-ui-streamlit.log") as server, \
            sync_playwright() as pw:
        browser = launch_chromium(pw)
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.set_default_timeout(120_000)
        ask = AskPage(page, server.url)
        ask.open()
        ask.ask("List all significant events")  # warm-up: the first rerun of a session is not typical
        for _ in range(args.runs):
            for question in QUESTIONS:
                answer_s[question].append(ask.ask(question))
                for n in (2, 1):
                    if ask.citation_button(n).count():
                        click_s.append(ask.click_citation(n))
        browser.close()
    print(f"UI latency over {args.runs} run(s) of {len(QUESTIONS)} questions on the samples (medians):")
    for question, times in answer_s.items():
        print(f"  Enter -> answer shown   {statistics.median(times):6.2f} s  {question}")
    every = [t for times in answer_s.values() for t in times]
    print(f"  Enter -> answer shown   {statistics.median(every):6.2f} s  all questions "
          f"(max {max(every):.2f} s; target <= {ANSWER_TARGET_S} s)")
    print(f"  citation click -> highlighted page shown  {statistics.median(click_s):6.2f} s "
          f"over {len(click_s)} clicks (max {max(click_s):.2f} s; target <= {CITATION_TARGET_S} s)")
    return 0
