"""Shared fixtures: the bundled samples, their ground truth, and a store with them ingested."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# NOTE: no test may reach Anthropic: a developer's key or endpoint is ignored here; LLM tests
# point the real client at a local stub server (tests/anthropic_stub.py).
for _name in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN"):
    os.environ.pop(_name, None)
# NOTE: anything that falls back to the default store writes to a throwaway one, never the developer's
os.environ["VERA_DATA_DIR"] = tempfile.mkdtemp(prefix="vera-tests-default-store-")
atexit.register(shutil.rmtree, os.environ["VERA_DATA_DIR"], ignore_errors=True)

from vera_core.config import VeraSettings  # noqa: E402
from vera_core.ingest.service import Ingestor  # noqa: E402
from vera_core.workspace import Workspace  # noqa: E402
import vera_core.llm.client as _llm_client  # noqa: E402

_llm_client.SECRETS_FILE = Path("/nonexistent/vera-tests/secrets.toml")

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "data" / "samples"
SAMPLE_PDF = SAMPLES / "Aurora_Annual_Report_2024.pdf"
CORPUS = ROOT.parent / "shared" / "corpus" / "financebench-dev"


class _Backend:
    """The store backend of the running test: "sqlite" (embedded) or "postgresql" (a real server)."""

    name = "sqlite"
    postgres = None  # tests.servers.PostgresServer, started on first use
    chroma = None  # tests.servers.ChromaServer, started on first use
    databases: dict[Path, str] = {}


def settings_for(data_dir: Path, **overrides) -> VeraSettings:
    """Test settings: a private store, in-process embedding (no worker pool). Under the `postgresql`
    backend (a team store) each store folder gets a database of its own on the session's PostgreSQL
    server and a collection of its own on its Chroma server (the same ones each time the folder is
    opened again)."""
    if _Backend.name == "postgresql" and "database_url" not in overrides:
        key = Path(data_dir).resolve()
        if key not in _Backend.databases:
            _Backend.databases[key] = _postgres().new_database()
        overrides["database_url"] = _Backend.databases[key]
        overrides.setdefault("chroma_url", _chroma().url)
        overrides.setdefault("collection", "vera_" + overrides["database_url"].rsplit("/", 1)[1])
    return VeraSettings(data_dir=data_dir, embed_workers=1, **overrides)


def _postgres():
    if _Backend.postgres is None:
        from tests.servers import PostgresServer
        _Backend.postgres = PostgresServer()
        atexit.register(_Backend.postgres.stop)
    return _Backend.postgres


def _chroma():
    if _Backend.chroma is None:
        from tests.servers import ChromaServer
        _Backend.chroma = ChromaServer()
        atexit.register(_Backend.chroma.stop)
    return _Backend.chroma


def pytest_generate_tests(metafunc):
    """Tests marked `backends` run on the embedded store and on a team store (PostgreSQL and a Chroma
    server)."""
    if metafunc.definition.get_closest_marker("backends"):
        metafunc.fixturenames.insert(0, "store_backend")  # set before any store fixture
        metafunc.parametrize("store_backend", ["sqlite", "postgresql"], indirect=True)


TEAM_MODULES = ("test_backends_answer.py", "test_browser_team.py")
"""Modules whose every test runs on a team store (PostgreSQL and a Chroma server)."""
_seconds = {"embedded store": 0.0, "PostgreSQL + Chroma server": 0.0}
_counts = {"embedded store": 0, "PostgreSQL + Chroma server": 0}


def pytest_runtest_logreport(report):
    """Time each test's setup, call and teardown against the backend it ran on (for CI's summary)."""
    team = "[postgresql" in report.nodeid or report.nodeid.split("::")[0].endswith(TEAM_MODULES)
    backend = "PostgreSQL + Chroma server" if team else "embedded store"
    _seconds[backend] += report.duration
    if report.when == "call":
        _counts[backend] += 1


def pytest_terminal_summary(terminalreporter):
    for backend, seconds in _seconds.items():
        terminalreporter.write_line(f"on the {backend}: {_counts[backend]} tests, {seconds / 60:.1f} min")


@pytest.fixture
def store_backend(request):
    """The backend a `backends` test runs on (read by `settings_for`)."""
    _Backend.name = request.param
    if request.param == "postgresql":
        _postgres()
    yield request.param
    _Backend.name = "sqlite"


@pytest.fixture(scope="session")
def ground_truth() -> dict:
    return json.loads((SAMPLES / "ground_truth.json").read_text())["documents"]


@pytest.fixture(scope="session")
def sample_store(tmp_path_factory) -> Workspace:
    """A store with every bundled sample ingested (shared: tests must not modify it)."""
    ws = Workspace(settings_for(tmp_path_factory.mktemp("samples-store")))
    ingestor = Ingestor(ws)
    for path in sorted(SAMPLES.iterdir()):
        if path.suffix in (".pdf", ".md"):
            result = ingestor.ingest_file(path)
            assert result.status == "ingested", result
    return ws


@pytest.fixture
def empty_store(tmp_path) -> Workspace:
    return Workspace(settings_for(tmp_path / "store"))


def doc_by_name(ws: Workspace, name: str):
    return next(d for d in ws.catalog.documents() if d.name == name)


def blind_golds(name: str) -> dict[str, dict]:
    """A blind question set of data/blind by id ("extra-dev" -> data/blind/extra-dev.jsonl)."""
    path = ROOT / "data" / "blind" / f"{name}.jsonl"
    return {q["id"]: q for q in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


def judged_blind(engine, gold: dict):
    """A blind question answered as `vera eval` scopes it (its document, each operand's and turn's) and judged as `vera
    eval` judges it: (outcome, answer)."""
    from vera_core.cli.eval_judge import judge
    named = [gold["doc_name"]] + [o.get("doc_name") or gold["doc_name"] for k in ("operands", "turns") for o in gold.get(k) or []]
    answer = engine.answer(gold["question"], docs=sorted({f"{d}.pdf" for d in named}), mode="deterministic")
    return judge(gold, answer), answer


def assert_blind_correct(engine, gold: dict, why: str) -> None:
    """A blind question of a round's classes is answered correctly (`judged_blind`); `why` names its class."""
    outcome, answer = judged_blind(engine, gold)
    assert outcome == "correct", f"{why}: {answer.answer[:300]}"


def markdown_store(tmp_path_factory, name: str, folder: Path, count: int) -> Workspace:
    """A store of every Markdown page of `folder` (there must be `count`), each ingested whole."""
    ws = Workspace(settings_for(tmp_path_factory.mktemp(name)), batch=True)
    ingestor = Ingestor(ws)
    files = sorted(folder.glob("*.md"))
    assert len(files) == count
    for path in files:
        assert ingestor.ingest_file(path).status == "ingested"
    return ws


def searchable_pdfs(tmp_path_factory, name: str, paths) -> Workspace:
    """A store of the PDFs at `paths`, each made searchable only (grids and keyword index, no vectors): figure,
    metric and verdict answers read grids."""
    settings = settings_for(tmp_path_factory.mktemp(name))
    ws = Workspace(settings, batch=True)
    ingestor = Ingestor(ws)
    for path in paths:
        ingestor.make_searchable(*parsed_once(path, settings))
    return ws


def corpus_engine(tmp_path_factory, name: str, paths, missing: str):
    """A deterministic engine over a searchable-only store of the corpus PDFs at `paths` (`searchable_pdfs`); the test
    is skipped, saying `missing`, when any of them is absent."""
    from vera_core.query import QueryEngine

    if not all(path.is_file() for path in paths):
        pytest.skip(missing)
    return QueryEngine(searchable_pdfs(tmp_path_factory, name, paths), llm=None)


_PARSED = Path(tempfile.mkdtemp(prefix="vera-tests-parsed-"))
atexit.register(shutil.rmtree, _PARSED, ignore_errors=True)


def parsed_once(path: Path, settings: VeraSettings):
    """`read_and_parse(path, settings)`, each file parsed once a session: the same filings back the stores of a
    dozen modules. Kept pickled on disk (each use gets its own copy), keyed by the file and the parser's settings."""
    import hashlib
    import pickle

    from vera_core.ingest.service import read_and_parse

    path = Path(path).resolve()
    stat = path.stat()
    options = settings.model_dump_json(exclude={"data_dir", "database_url", "collection", "chroma_url"})
    key = hashlib.sha256(f"{path}|{stat.st_size}|{stat.st_mtime_ns}|{options}".encode()).hexdigest()[:24]
    kept = _PARSED / f"{key}.pickle"
    if kept.is_file():
        return pickle.loads(kept.read_bytes())
    parsed = read_and_parse(path, settings)
    kept.write_bytes(pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL))
    return parsed


def complete_list(engine, gold: dict):
    """A blind list question answered over the whole store: every required item found, nothing beside it, each
    item cited. Returns the answer."""
    from vera_core.cli.eval_lists import list_coverage

    answer = engine.answer(gold["question"], mode="deterministic")
    found, required = list_coverage(gold, answer)["items"]
    assert found == required, f"{gold['id']}: {[i.text for i in answer.items] or answer.answer[:300]}"
    assert len(answer.items) == len(gold["required_items"]), [i.text for i in answer.items]  # nothing beside it
    assert all(i.citations for i in answer.items)
    return answer


@pytest.fixture(scope="module")
def three_incident_policies(tmp_path_factory):
    """Three organisations' incident response policies in one store: Datica's '11. Incident Response Policy'
    (11-incident_response_policy.md), Tailscale's 'Incident response policy' (incident-response-policy.md) and the
    samples' 'Incident Response Policy' (incident_response_policy.md); skipped when policies-dev is absent."""
    from vera_core.query import QueryEngine

    corpus = ROOT.parent / "shared" / "corpus" / "policies-dev"
    paths = [corpus / "datica" / "11-incident_response_policy.md", corpus / "tailscale" / "incident-response-policy.md",
             ROOT / "data" / "samples" / "incident_response_policy.md"]
    if not all(p.is_file() for p in paths):
        pytest.skip(f"policies-dev not found under {corpus.parent}")
    ws = Workspace(settings_for(tmp_path_factory.mktemp("three-incident")), batch=True)
    ingestor = Ingestor(ws)
    for path in paths:
        assert ingestor.ingest_file(path).status == "ingested"
    return QueryEngine(ws, llm=None)


@pytest.fixture(scope="module")
def transit(tmp_path_factory):
    """The round-6 held-back policies (w18's transit authority, data/blind/policies-r6-holdout), dev since their one
    measurement: a store of its seven documents."""
    from vera_core.query import QueryEngine

    return QueryEngine(markdown_store(tmp_path_factory, "transit-store", ROOT / "data" / "blind" / "policies-r6-holdout", 7),
                       llm=None)
