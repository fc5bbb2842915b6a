"""`vera`: ingest, inspect and benchmark a VERA store. A VeraError exits with status 2 and its message."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vera_core.config import VeraSettings
from vera_core.documents.identity import DOC_TYPES
from vera_core.errors import VeraError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="vera", description="VERA: evidence-grounded answers over filings.")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="store directory (default: $VERA_DATA_DIR or data/store)")
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="ingest PDF and Markdown files, folders or globs")
    ingest.add_argument("paths", nargs="+")
    ingest.add_argument("--force", action="store_true", help="rebuild documents already present")
    ingest.add_argument("--workers", type=int, default=None, help="parsing processes (default: settings)")
    ingest.add_argument("--quiet", action="store_true", help="no progress lines, only the summary")
    ingest.add_argument("--background", action="store_true",
                        help="queue the files for the store's worker (started if none runs) and return at once")
    ingest.add_argument("--kind", choices=["filing", "policy", "contract", "other"], default="",
                        help="the documents' kind (default: read from each document)")
    worker = sub.add_parser("worker", help="work the store's ingestion queue (the app starts one itself)")
    worker.add_argument("--until-idle", action="store_true", help="stop when the queue is empty")
    worker.add_argument("--parent", type=int, default=None, help="stop once this process is gone and the queue is empty")
    worker.add_argument("--nice", type=int, default=0, help="lower the worker's CPU priority by this much")
    worker.add_argument("--idle-exit", type=float, default=None, help="stop after this many seconds with nothing to do")
    worker.add_argument("--threads", type=int, default=0,
                        help="embed in-process on this many threads (default: a process per core)")
    worker.add_argument("--workers", type=int, default=None, help="parsing processes (default 1)")
    api = sub.add_parser("api", help="the HTTP API (FastAPI) over the store")
    api.add_argument("--host", default="127.0.0.1", help="address to listen on (beyond loopback only with users)")
    api.add_argument("--port", type=int, default=8600)
    users = sub.add_parser("users", help="the store's users (once one exists, every caller needs a token)")
    users_sub = users.add_subparsers(dest="action", required=True)
    users_sub.add_parser("add").add_argument("name")
    users_sub.add_parser("list")
    tokens = sub.add_parser("tokens", help="API tokens: each reads the documents of its collections")
    tokens_sub = tokens.add_subparsers(dest="action", required=True)
    create = tokens_sub.add_parser("create")
    create.add_argument("user")
    create.add_argument("--collection", action="append", default=[], help="a collection the token reads (repeat)")
    tokens_sub.add_parser("revoke").add_argument("token_id")
    tokens_sub.add_parser("list")
    collections = sub.add_parser("collections", help="collections of documents")
    collections_sub = collections.add_subparsers(dest="action", required=True)
    collections_sub.add_parser("create").add_argument("name")
    for action in ("add", "remove"):
        change = collections_sub.add_parser(action)
        change.add_argument("name")
        change.add_argument("docs", nargs="+", help="documents by name or id")
    collections_sub.add_parser("list")
    serve = sub.add_parser("serve", help="the app as several processes behind nginx, with ingestion workers")
    serve.add_argument("--processes", type=int, default=2, help="Streamlit processes (more than 1 needs a team store)")
    serve.add_argument("--port", type=int, default=8501, help="port nginx listens on (default 8501)")
    serve.add_argument("--host", default="127.0.0.1", help="address nginx listens on (0.0.0.0: every interface)")
    serve.add_argument("--workers", type=int, default=1, help="ingestion workers to run beside the apps (default 1)")
    serve.add_argument("--sticky", choices=["cookie", "ip"], default="cookie",
                       help="how a browser stays on its process: a cookie (default) or nginx's ip_hash")

    lst = sub.add_parser("list", help="list documents")
    lst.add_argument("--json", action="store_true")
    show = sub.add_parser("show", help="a document's heading tree and tables")
    show.add_argument("doc", help="name (with or without extension) or id")
    show.add_argument("--json", action="store_true")
    table = sub.add_parser("table", help="a document's table grids as text, JSON or CSV")
    table.add_argument("doc", help="name (with or without extension) or id")
    table.add_argument("table", nargs="?", metavar="TABLE_ID",
                       help="a table's id (chunk id, as `vera show` lists it) or its 1-based number in the "
                            "document; default: every table")
    table_format = table.add_mutually_exclusive_group()
    table_format.add_argument("--json", action="store_true", help="tables with every cell, period and box")
    table_format.add_argument("--csv", action="store_true", help="one row per cell")
    table.add_argument("--output", help="write here instead of stdout")
    kind = sub.add_parser("kind", help="show a document's kind, or set it")
    kind.add_argument("doc", help="name (with or without extension) or id")
    kind.add_argument("kind", nargs="?", choices=["filing", "policy", "contract", "other", "detect"],
                      help="the kind to set (`detect`: read it from the document again); omit to show it")
    kind.add_argument("--json", action="store_true")
    identify = sub.add_parser("identify", help="what a document is and when (type, company, fiscal quarter), or correct it")
    identify.add_argument("doc", help="name (with or without extension) or id")
    identify.add_argument("--doc-type", choices=list(DOC_TYPES))
    identify.add_argument("--company")
    identify.add_argument("--fiscal-year", help="as the company numbers it, e.g. 2024")
    identify.add_argument("--fiscal-quarter", help="1-4 (or Q1-Q4); 'year' for a whole year's document")
    identify.add_argument("--period-end", help="the date the covered period ends, e.g. 2024-09-30")
    identify.add_argument("--detect", action="store_true", help="read it from the document again (forgets corrections)")
    identify.add_argument("--json", action="store_true")
    delete = sub.add_parser("delete", help="remove a document from every store")
    delete.add_argument("doc")
    sub.add_parser("migrate", help="bring the catalog schema up to date")
    reembed = sub.add_parser("reembed", help="re-embed every document with the model this process loads")
    reembed.add_argument("--background", action="store_true", help="queue it for the store's workers and return")
    reembed.add_argument("--status", action="store_true", help="which model made the vectors, and how far a re-embedding is")

    query = sub.add_parser("query", help="answer a question with citations")
    query.add_argument("question", nargs="?", help="the question (or use --questions)")
    query.add_argument("--doc", action="append", default=[], help="limit to a document (name or id); repeatable")
    query.add_argument("--quarter", action="append", default=[], help="only documents of this fiscal quarter "
                       "(2025-Q2, Q2 2025) or fiscal year (FY2024); repeatable")
    query.add_argument("--fiscal-year", action="append", default=[], type=int, help="only documents of this fiscal year")
    query.add_argument("--doc-type", action="append", default=[], choices=list(DOC_TYPES), help="only documents of this type")
    query.add_argument("--speaker", action="append", default=[], help="answer from this speaker's turns of the call "
                       "transcripts in scope (a name, or CEO, CFO, analyst); repeatable")
    query.add_argument("--segment", action="append", default=[], help="the business segment asked about (Reality Labs): "
                       "only documents printing its name, the question asked of it")
    query.add_argument("--mode", choices=["deterministic", "llm_fallback", "llm_always"], default="llm_fallback")
    query.add_argument("--top-k", type=int, default=8)
    query.add_argument("--dense", action="store_true", help="dense retrieval only (no BM25 fusion)")
    query.add_argument("--json", action="store_true", help="print the answer contract as JSON")
    query.add_argument("--questions", help="JSONL file, one {\"question\", \"doc\"?} per line; writes JSON lines")
    query.add_argument("--output", help="with --questions: write the JSON lines here instead of stdout")

    facts = sub.add_parser("facts", help="a document's facts: currency, period, framework, units, consolidation")
    facts.add_argument("doc")
    facts.add_argument("--json", action="store_true")
    facts.add_argument("--refresh", action="store_true", help="extract again")

    export = sub.add_parser("export", help="write the evidence rows of answers as CSV or JSON")
    export.add_argument("--format", choices=["csv", "json"], default="csv")
    export.add_argument("--output", required=True)
    source = export.add_mutually_exclusive_group(required=True)
    source.add_argument("--questions", help="answer this JSONL questions file and export its evidence")
    source.add_argument("--answers", help="JSON lines written by `vera query --questions`")
    export.add_argument("--doc", action="append", default=[])
    export.add_argument("--mode", choices=["deterministic", "llm_fallback", "llm_always"], default="llm_fallback")
    export.add_argument("--top-k", type=int, default=8)
    export.add_argument("--dense", action="store_true")

    evaluate = sub.add_parser("eval", help="page recall, figure match, grounding and latency on a questions file")
    evaluate.add_argument("file")
    evaluate.add_argument("--scope", choices=["doc", "all"], default="doc",
                          help="doc: each question limited to its document; all: one shared store, no filter")
    evaluate.add_argument("--top-k", type=int, default=8)
    evaluate.add_argument("--documents", metavar="DIR", action="append",
                          help="folder of the questions' documents (with its subfolders), ingested when missing; "
                          "repeatable (default: the questions file's folder)")
    evaluate.add_argument("--template", action="append", metavar="PREFIX",
                          help="only questions whose template starts with PREFIX (repeatable)")
    evaluate.add_argument("--json", action="store_true")

    bench = sub.add_parser("bench", help="benchmarks that print figures")
    bench_sub = bench.add_subparsers(dest="bench", required=True)
    bench_ingest = bench_sub.add_parser("ingest", help="seconds to searchable and to complete, per document and in total")
    bench_ingest.add_argument("paths", nargs="*", help="default: the dev corpus if present, else the samples")
    bench_ingest.add_argument("--json", action="store_true", help="print {documents: [...], total: {...}}")
    bench_ingest.add_argument("--reports", type=int, default=0, help="add this many generated annual reports")
    bench_query = bench_sub.add_parser("query", help="P50/P95 latency per intent over the samples and the dev filings")
    bench_query.add_argument("--scope", choices=["doc", "all"], default="doc",
                             help="doc: each question limited to its document; all: over the whole store")
    bench_query.add_argument("--first-load", action="store_true",
                             help="also time the app's first page load on the store (Chromium)")
    bench_query.add_argument("--against", type=Path, default=None, metavar="DIR",
                             help="also ask each question of an embedded store at DIR, interleaved (team store vs embedded)")
    bench_api = bench_sub.add_parser("api", help="POST /query through vera api against the same questions in process")
    bench_api.add_argument("--runs", type=int, default=2, help="rounds of the dev questions (default 2)")
    bench_ui = bench_sub.add_parser("ui", help="the app in Chromium: Enter -> answer, citation click -> page")
    bench_ui.add_argument("--runs", type=int, default=3, help="rounds of the sample questions (default 3)")
    bench_ui.add_argument("--during-ingest", action="store_true",
                          help="ask while the dev filings are ingested in the background (P95 target 2 s)")
    bench_ui.add_argument("--sessions", type=int, default=0,
                          help="this many sessions asking at once, against one alone (P95 target 2x)")
    bench_ui.add_argument("--processes", type=int, default=0,
                          help="with --sessions: ask `vera serve --processes N` on the configured store (N > 1: a "
                               "team store) instead of one app on a fresh store")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = VeraSettings(data_dir=args.data_dir) if args.data_dir else VeraSettings()
        if args.command == "ingest":
            from vera_core.cli import ingest_cmd
            return ingest_cmd.run(args, settings)
        if args.command == "worker":
            from vera_core.cli import worker_cmd
            return worker_cmd.run(args, settings)
        if args.command in ("api", "users", "tokens", "collections"):
            from vera_core.cli import api_cmd
            return (api_cmd.run_api if args.command == "api" else api_cmd.run_access)(args, settings)
        if args.command == "reembed":
            from vera_core.cli import reembed_cmd
            return reembed_cmd.run(args, settings)
        if args.command == "serve":
            from vera_core.cli import serve_cmd
            return serve_cmd.run(args, settings)
        if args.command == "bench" and args.bench == "query":
            from vera_core.cli import bench_query_cmd
            return bench_query_cmd.run(args, settings)
        if args.command == "bench" and args.bench == "api":
            from vera_core.cli import bench_api_cmd
            return bench_api_cmd.run(args, settings)
        if args.command == "bench" and args.bench == "ui":
            from vera_bench import bench_ui  # NOTE: the benches sit apart from the product, in the checkout
            return bench_ui.run(args, settings)
        if args.command == "bench":
            from vera_core.cli import bench_cmd
            return bench_cmd.run(args, settings)
        if args.command in ("query", "facts", "export"):
            from vera_core.cli import query_cmd
            return {"query": query_cmd.run_query, "facts": query_cmd.run_facts,
                    "export": query_cmd.run_export}[args.command](args, settings)
        if args.command == "table":
            from vera_core.cli import table_cmd
            return table_cmd.run(args, settings)
        if args.command == "eval":
            from vera_core.cli import eval_cmd
            return eval_cmd.run(args, settings)
        from vera_core.cli import docs_cmd
        return {"list": docs_cmd.run_list, "show": docs_cmd.run_show, "delete": docs_cmd.run_delete,
                "migrate": docs_cmd.run_migrate, "kind": docs_cmd.run_kind,
                "identify": docs_cmd.run_identify}[args.command](args, settings)
    except VeraError as exc:
        print(f"vera: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
