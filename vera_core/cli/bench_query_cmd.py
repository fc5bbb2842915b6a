"""`vera bench query`: P50/P95 latency per intent over the samples plus the dev filings (and a call's or a release's
questions for each earnings call, release or deck in the store), with the models already loaded (a warm-up question
runs first and is not counted). Document-coverage questions ("which policies address ...", the row `documents`) run
over the whole store, with six extra policies written for the bench (`bench_documents`) so that it holds 20+
documents."""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from vera_core.cli.bench_cmd import DEV_CORPUS, SAMPLES
from vera_core.cli.bench_documents import COVERAGE_QUESTIONS, write_extra_policies
from vera_core.cli.eval_cmd import ensure_documents, percentile
from vera_core.config import VeraSettings
from vera_core.ingest.service import Ingestor
from vera_core.query import QueryEngine
from vera_core.workspace import Workspace

PER_DOCUMENT = [
    "What does page {mid} say about revenue?",
    "What does page 2 say about the company's business?",
    "List all risk factors.",
    "Where can I find the discussion of liquidity and capital resources?",
    "What is the aggregate range of reasonably possible losses?",
    "List the items affecting net income with their amounts.",
    "What currency are the financial statements presented in?",
    "What is the reporting period?",
    "Which accounting framework is used?",
    "What was total revenue and how did it change?",
    "How much cash was used for capital expenditures?",
    "What were the main drivers of operating income?",
]
PER_FISCAL_YEAR = [  # figure and metric questions, for the latest fiscal year a document's tables print
    "What were total assets at the end of FY{year}?",
    "What was the FY{year} operating cash flow in USD millions?",
    "What was the gross margin in FY{year}?",
    "What is the FY{year} current ratio?",
    "What was the FY{year} return on assets?",
]

PER_CALL = [  # an earnings call's people and remarks
    "Who is the CFO?",
    "Which analysts asked questions, and from which firms?",
    "What did the CEO say about guidance?",
    "What was said about expenses in the Q&A?",
]
PER_QUARTER = [  # a release's or deck's figures, for the quarter it covers
    "What was revenue in Q{quarter} {year}?",
    "What was diluted EPS in Q{quarter} {year}?",
    "What was the operating margin in Q{quarter} {year}?",
]


def run(args, settings: VeraSettings) -> int:
    ws = _prepared(settings)
    questions = _questions(ws, args.scope)
    stores = [("this store", ws)]
    if getattr(args, "against", None):  # NOTE: the same questions on an embedded store, interleaved
        other = _prepared(settings.model_copy(update={"data_dir": args.against, "database_url": None,
                                                      "chroma_url": None, "files_dir": None,
                                                      "collection": VeraSettings().collection}))
        stores.append((f"embedded {other.data_dir}", other))
    engines = []
    for label, store in stores:
        engine = QueryEngine(store)
        warm = time.perf_counter()
        engine.warm_up()  # the embedding model, as the app does at start; indexes load on first use (timed)
        engine.answer("warm up: what is revenue?")
        print(f"{label}: {_backend(store)}; warm-up (model, keyword indexes, chunk caches; not counted): "
              f"{time.perf_counter() - warm:.1f} s")
        engines.append(engine)
    timings: list[dict[str, list[float]]] = [{} for _ in engines]
    slowest: list[tuple[float, str, str]] = []
    started = time.perf_counter()
    for question, doc in questions:
        for engine, by_intent in zip(engines, timings):
            answer = engine.answer(question, docs=[doc] if doc else [], mode="deterministic")
            kind = "documents" if answer.intent.subtype == "documents" else answer.intent.type
            by_intent.setdefault(kind, []).append(answer.timings_ms.total)
            if engine is engines[0]:
                slowest.append((answer.timings_ms.total, doc or "(every document)", question))
    elapsed = time.perf_counter() - started
    p95s = []
    for (label, store), by_intent in zip(stores, timings):
        print(f"{label}: {len(questions)} questions over {len(store.catalog.documents())} documents")
        p95s.append(_table(by_intent))
    print(f"in {elapsed:.1f} s")
    if len(p95s) == 2:
        print(f"P95 this store / embedded: {p95s[0]:.1f} / {p95s[1]:.1f} ms = {p95s[0] / p95s[1]:.2f}x "
              "(target <= 1.5x for PostgreSQL + a Chroma server)")
    if args.first_load:
        from vera_bench.app_server import first_page_load  # NOTE: the browser driver sits with the benches
        serving, load = first_page_load(ws.data_dir)
        print(f"app first page load on this store ({len(ws.catalog.documents())} documents): {load:.2f} s from opening "
              f"its URL to a usable question box (target <= 5 s); the server took {serving:.2f} s to start")
    print("slowest:")
    for ms, doc, question in sorted(slowest, reverse=True)[:5]:
        print(f"  {ms:>8.1f} ms  {doc[:30]:<30}  {question[:70]}")
    return 0


def _backend(ws: Workspace) -> str:
    catalog = "PostgreSQL" if ws.settings.team_store else "SQLite"
    vectors = f"Chroma server {ws.settings.chroma_url}" if ws.settings.chroma_url else "embedded Chroma"
    return f"{catalog} + {vectors}"


def _prepared(settings: VeraSettings) -> Workspace:
    """The store with the samples, the bench's extra policies and the dev filings in it."""
    ws = Workspace(settings, batch=True)
    ingestor = Ingestor(ws)
    for path in sorted(SAMPLES.glob("*")):
        if path.suffix in (".pdf", ".md"):
            ingestor.ingest_file(path)
    with tempfile.TemporaryDirectory(prefix="vera-bench-policies-") as tmp:
        for path in write_extra_policies(Path(tmp)):
            ingestor.ingest_file(path)
    if DEV_CORPUS.is_dir():
        ensure_documents(ws, [DEV_CORPUS], [p.stem for p in sorted(DEV_CORPUS.glob("*.pdf"))])
    return ws


def _questions(ws: Workspace, scope: str) -> list[tuple[str, str | None]]:
    questions: list[tuple[str, str | None]] = []
    if DEV_CORPUS.is_dir():
        for line in (DEV_CORPUS / "questions.jsonl").read_text().splitlines():
            if line.strip():
                q = json.loads(line)
                questions.append((q["question"], q["doc_name"]))
    if scope == "all":  # every question over the whole store, no document named
        questions = [(q, None) for q, _ in questions]
        questions += [(t.format(mid=5), None) for t in PER_DOCUMENT]
        questions += [(t.format(year=2022), None) for t in PER_FISCAL_YEAR]
        questions += [(q, None) for q in dict.fromkeys(q for doc in ws.catalog.documents() for q in _ir_questions(doc))]
    else:
        for doc in ws.catalog.documents():
            for template in PER_DOCUMENT:
                questions.append((template.format(mid=max(1, doc.pages // 2)), doc.name))
            years = [p.year for g in ws.doc_grids(doc.doc_id) for p in g.periods if p is not None and p.year]
            if years:
                questions += [(template.format(year=max(years)), doc.name) for template in PER_FISCAL_YEAR]
            questions += [(q, doc.name) for q in _ir_questions(doc)]
    return questions + [(q, None) for q in COVERAGE_QUESTIONS]  # over the whole store, one document at a time


def _ir_questions(doc) -> list[str]:
    """The call and quarter questions of a document of the quarterly IR library (none for another)."""
    identity = doc.identity or {}
    kind, quarter, year = identity.get("doc_type"), identity.get("fiscal_quarter"), identity.get("fiscal_year")
    if kind == "transcript":
        return list(PER_CALL)
    if kind in ("release", "slides") and quarter and year:
        return [t.format(quarter=quarter, year=year) for t in PER_QUARTER]
    return []


def _table(by_intent: dict[str, list[float]]) -> float:
    """Print P50/P95 per intent; returns the P95 over all."""
    print(f"{'intent':<12}{'n':>5}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
    everything = []
    for intent, values in sorted(by_intent.items()):
        everything += values
        print(f"{intent:<12}{len(values):>5}{percentile(values, 50):>10}{percentile(values, 95):>10}{max(values):>10.1f}")
    print(f"{'all':<12}{len(everything):>5}{percentile(everything, 50):>10}{percentile(everything, 95):>10}"
          f"{max(everything):>10.1f}  mean {statistics.fmean(everything):.1f}")
    return float(percentile(everything, 95))
