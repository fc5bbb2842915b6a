"""Worker processes never re-run the parent's main script (under Streamlit or after an AppTest that
is the app, which would load the bundled samples into the store from every worker)."""

from __future__ import annotations

import multiprocessing
import os
import sys
import types
from concurrent.futures import ProcessPoolExecutor

from vera_core.processes import worker_context


def fake_main_script(tmp_path, monkeypatch):
    """`__main__` is a script that leaves a marker file when it runs."""
    marker = tmp_path / "main-script-ran"
    script = tmp_path / "app_script.py"
    script.write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    main = types.ModuleType("__main__")
    main.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", main)
    return main, marker


def test_worker_pool_does_not_run_the_parents_main_script(tmp_path, monkeypatch):
    main, marker = fake_main_script(tmp_path, monkeypatch)
    with ProcessPoolExecutor(max_workers=2, mp_context=worker_context()) as pool:
        pids = {pool.submit(os.getpid).result(timeout=60) for _ in range(2)}
    assert os.getpid() not in pids
    assert not marker.exists()
    assert sys.modules["__main__"] is main


def test_plain_spawn_would_have_run_it(tmp_path, monkeypatch):
    """The hazard the worker context removes (keeps the test above honest)."""
    _, marker = fake_main_script(tmp_path, monkeypatch)
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        pool.submit(os.getpid).result(timeout=60)
    assert marker.read_text() == "ran"
