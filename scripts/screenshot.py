"""Screenshot of the Ask page for the README: the app on the bundled samples, a question answered from
a table, its cited page with the table highlighted. Usage: .venv/bin/python scripts/screenshot.py [OUT.png]"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vera_bench.app_server import launch_chromium, start_app  # noqa: E402
from vera_bench.ui_driver import AskPage  # noqa: E402

QUESTION = "What was total revenue in 2024 and 2023?"


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory() as store, \
            start_app(Path(store), log=ROOT / "test-artifacts" / "screenshot-streamlit.log") as server, \
            sync_playwright() as pw:
        browser = launch_chromium(pw)
        page = browser.new_page(viewport={"width": 1600, "height": 1100}, device_scale_factor=1)
        ask = AskPage(page, server.url)
        ask.open()
        ask.ask(QUESTION)
        ask.click_citation(1)
        page.screenshot(path=str(out), full_page=False)
        browser.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "app_ask.png")
