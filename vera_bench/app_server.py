"""Run the Streamlit app as a subprocess on a free port (browser tests, `vera bench ui`, screenshots),
and launch Debian's Chromium for Playwright. Imports neither Streamlit nor Playwright itself."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from vera_core.serve.ports import APP_DIR as ROOT
from vera_core.serve.ports import free_port

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "ROOT", "AppServer", "first_page_load", "free_port", "launch_chromium",
           "start_app"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
"""Flags for Chromium in a container without a GPU and without network chatter."""


@dataclass
class AppServer:
    """A running `streamlit run app.py`; stop it with `stop()` (or use it as a context manager)."""

    process: subprocess.Popen
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def __enter__(self) -> AppServer:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def start_app(data_dir: Path, *, log: Path, timeout: float = 120.0, env: dict | None = None) -> AppServer:
    """Start the app on a free port with the store at `data_dir`; returns once /_stcore/health answers."""
    port = free_port()
    environment = {**os.environ, "VERA_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1",
                   "TRANSFORMERS_OFFLINE": "1", **(env or {})}
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
             "--server.headless", "true", "--server.fileWatcherType", "none",
             "--browser.gatherUsageStats", "false"],
            cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = AppServer(process, port, log)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with {process.returncode}; see {log}")
        try:
            with urllib.request.urlopen(f"{server.url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return server
        except OSError:
            time.sleep(0.3)
    server.stop()
    raise TimeoutError(f"streamlit did not answer /_stcore/health within {timeout:.0f} s; see {log}")


def launch_chromium(playwright):
    """Debian's Chromium through Playwright (never a downloaded browser)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


def first_page_load(data_dir: Path) -> tuple[float, float]:
    """(seconds for `streamlit run app.py` to answer its health check, seconds from opening the app's
    URL in Chromium to the Ask page's question box being usable): the first session on a freshly
    started server on the store, so nothing is loaded yet (the model and the documents' indexes load
    in the background)."""
    from playwright.sync_api import sync_playwright

    started = time.perf_counter()
    with start_app(data_dir, log=ROOT / "test-artifacts" / "bench-first-load-streamlit.log") as server, \
            sync_playwright() as pw:
        serving = time.perf_counter() - started
        browser = launch_chromium(pw)
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        opened = time.perf_counter()
        page.goto(server.url)
        page.get_by_test_id("stChatInputTextArea").wait_for(timeout=300_000)
        elapsed = time.perf_counter() - opened
        browser.close()
    return serving, elapsed
