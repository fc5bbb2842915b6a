"""Imports point one way (../shared/STYLE.md, "One question's path"): the finance vocabulary and a
question's grammar sit below retrieval, retrieval below the answer, the answer below the CLI. A module
that imports against the layers fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "vera_core"

LAYERS = {  # package (or module) -> the vera_core packages and modules it must not import
    "records": ("answer", "retrieve", "questions", "cli", "ingest", "index", "store", "serve", "api", "access",
                "workspace", "facts", "llm", "documents", "transcripts", "query"),
    "finance": ("answer", "retrieve", "questions", "cli", "ingest", "tables", "store", "index", "facts", "llm"),
    "questions": ("answer", "retrieve", "cli", "store", "index", "facts", "llm", "ingest"),
    "tables": ("answer", "retrieve", "questions", "cli", "facts", "llm", "store", "serve", "api", "access"),
    "documents": ("answer", "retrieve", "questions", "cli", "ingest", "index", "llm", "facts", "tables", "store"),
    "store": ("answer", "retrieve", "questions", "cli", "ingest", "index", "serve", "api", "access", "workspace",
              "facts", "llm", "tables", "documents", "transcripts", "query"),
    "index": ("answer", "retrieve", "questions", "cli", "ingest", "store", "serve", "api", "access", "workspace",
              "facts", "llm"),
    "workspace": ("answer", "retrieve", "questions", "cli", "ingest", "serve", "api", "access", "facts", "llm",
                  "query"),
    "access": ("answer", "retrieve", "questions", "cli", "ingest", "serve", "api", "facts", "llm", "query"),
    "ingest": ("answer", "retrieve", "questions", "cli", "serve", "api", "access"),
    "retrieve": ("cli", "store", "serve", "api", "access"),
    "answer": ("cli", "store", "serve", "api", "access"),
    "api": ("cli", "serve"),
    "serve": ("answer", "retrieve", "questions", "cli", "ingest", "index", "store", "api", "access", "workspace",
              "query"),
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
        module = root / f"{package}.py"
        for path in [module] if module.is_file() else sorted((root / package).rglob("*.py")):
            for name in _imports(path):
                if name in SHARED:
                    continue
                top = name.split(".")[1] if name.count(".") else ""
                if top in forbidden:
                    found.append(f"{path.relative_to(root)} imports {name}")
    return found


def test_imports_point_one_way():
    assert all((PACKAGE / p).is_dir() or (PACKAGE / f"{p}.py").is_file() for p in LAYERS), "a layer that is not there"
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


def test_a_module_layer_is_checked_too(tmp_path):
    (tmp_path / "records.py").write_text("from vera_core.store.catalog import Catalog\n")
    (tmp_path / "serve").mkdir()
    (tmp_path / "serve" / "cluster.py").write_text("from vera_core.cli.app_server import free_port\n")
    assert violations(tmp_path) == ["records.py imports vera_core.store.catalog",
                                    "serve/cluster.py imports vera_core.cli.app_server"]


def test_the_records_every_layer_reads_need_no_database():
    """Documents, chunks, facts and the model identity are plain records: reading one imports no database library."""
    tree = ast.parse((PACKAGE / "records.py").read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not imported & {"sqlalchemy", "sqlite3", "psycopg", "psycopg2", "chromadb"}, imported
    from vera_core import records
    assert {"DocumentRecord", "ChunkRecord", "FactRecord", "KeywordRow", "ModelIdentity"} <= set(vars(records))


def test_the_product_holds_no_bench_or_browser_driver():
    """Streamlit and Playwright drivers live in vera_bench; of vera_core only the CLI's bench commands reach it, and
    only when run (`vera bench ui`, the query bench's first-load figure)."""
    reaching = sorted({path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py")
                       if re.search(r"^\s*(?:from|import)\s+vera_bench\b", path.read_text(encoding="utf-8"), re.M)})
    assert reaching == ["cli/bench_query_cmd.py", "cli/main.py"], reaching
    drivers = re.compile(r"^\s*(?:from|import)\s+(?:playwright|streamlit)\b", re.M)
    assert not [p for p in PACKAGE.rglob("*.py") if drivers.search(p.read_text(encoding="utf-8"))]
