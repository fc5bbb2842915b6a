"""Imports point one way (../shared/STYLE.md, "One question's path"): the finance vocabulary and a
question's grammar sit below retrieval, retrieval below the answer, the answer below the CLI. A module
that imports against the layers fails here."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "vera_core"

LAYERS = {  # package -> the vera_core packages and modules it must not import
    "finance": ("answer", "retrieve", "questions", "cli", "ingest", "tables", "store", "index", "facts", "llm"),
    "questions": ("answer", "retrieve", "cli", "store", "index", "facts", "llm", "ingest"),
    "tables": ("answer", "retrieve", "questions", "cli", "facts", "llm"),
    "documents": ("answer", "retrieve", "questions", "cli", "ingest", "index", "llm", "facts", "tables"),
    "ingest": ("answer", "retrieve", "questions", "cli"),
    "retrieve": ("cli",),
    "answer": ("cli",),
}
SHARED = ("vera_core.answer.contract",)
"""The answer contract: typed records every layer may read (the router's Intent lives in it)."""


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("vera_core"):
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names if a.name.startswith("vera_core")]
    return names


def violations(root: Path = PACKAGE) -> list[str]:
    found = []
    for package, forbidden in LAYERS.items():
        for path in sorted((root / package).rglob("*.py")):
            for name in _imports(path):
                if name in SHARED:
                    continue
                top = name.split(".")[1] if name.count(".") else ""
                if top in forbidden:
                    found.append(f"{path.relative_to(root)} imports {name}")
    return found


def test_imports_point_one_way():
    assert (PACKAGE / "questions").is_dir() and (PACKAGE / "finance").is_dir()
    assert violations() == []


def test_the_router_reads_questions_without_the_answer_layer():
    """The router hands a parsed request to the strategies: it reads questions through `questions/`."""
    router = _imports(PACKAGE / "retrieve" / "router.py")
    assert any(n.startswith("vera_core.questions") for n in router)
    assert not [n for n in router if n.startswith("vera_core.answer") and n not in SHARED]


def test_the_check_finds_an_import_against_the_layers(tmp_path):
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions" / "figure.py").write_text("from vera_core.answer.compose import Piece\n"
                                                     "from vera_core.answer.contract import Intent\n")
    assert violations(tmp_path) == ["questions/figure.py imports vera_core.answer.compose"]
