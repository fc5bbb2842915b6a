"""The product apart from its checkout (issue 27): VERA built as a wheel and installed into a folder of its own
answers `vera query` from a working directory outside the checkout, reading the metric library and the topic
synonyms it ships as package data. Built and installed offline (no build isolation, no index)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.conftest import ROOT, SAMPLES

POLICIES = ("acceptable_use_policy.md", "data_protection_policy.md", "mobile_device_policy.md", "expense_policy.md")


def _run(command: list[str], cwd: Path, env: dict | None = None, timeout: float = 300) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(command[:6])}: {done.stderr[-2000:]}"
    return done.stdout


def test_vera_query_runs_from_a_wheel_installed_outside_the_checkout(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "vera_core", source / "vera_core", ignore=shutil.ignore_patterns("__pycache__"))
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
          "-w", str(tmp_path / "wheels"), str(source)], cwd=tmp_path)
    wheel = next((tmp_path / "wheels").glob("vera-*.whl"))
    assert {"vera_core/data/metrics.md", "vera_core/data/synonyms.md"} <= set(zipfile.ZipFile(wheel).namelist())

    site = tmp_path / "site"
    _run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", str(site),
          str(wheel)], cwd=tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERA_")}
    env["PYTHONPATH"] = str(site)  # NOTE: ahead of the checkout's editable install in the test's own environment
    where = _run([sys.executable, "-c", "import vera_core.questions.library as m; print(m.__file__);"
                  "print(len(m.library()))"], cwd=elsewhere, env=env).split()
    assert Path(where[0]).is_relative_to(site) and int(where[1]) >= 10, where

    store = tmp_path / "store"
    # NOTE: made searchable by the installed package in one process (no vectors: the question is answered from every
    # policy's sections, and the model loads once, in `vera query`)
    _run([sys.executable, "-c", "import sys; from pathlib import Path; from vera_core.config import VeraSettings;"
          "from vera_core.ingest.service import Ingestor, read_and_parse; from vera_core.workspace import Workspace;"
          "ws = Workspace(VeraSettings(data_dir=Path(sys.argv[1])));"
          "[Ingestor(ws).make_searchable(*read_and_parse(Path(p), ws.settings)) for p in sys.argv[2:]]",
          str(store), *(str(SAMPLES / name) for name in POLICIES)], cwd=elsewhere, env=env)
    vera = [sys.executable, str(site / "bin" / "vera"), "--data-dir", str(store)]
    out = json.loads(_run(vera + ["query", "--json", "Which policies address encryption of data at rest?"],
                          cwd=elsewhere, env=env))
    cited = {c["doc_name"] for c in out["citations"]}
    assert {"acceptable_use_policy.md", "data_protection_policy.md", "mobile_device_policy.md"} <= cited, out["answer"]
    assert "expense_policy.md" not in cited
