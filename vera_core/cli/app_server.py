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

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "ROOT", "AppServer", "free_port", "launch_chromium", "start_app"]

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
