"""`vera`: ingest, inspect and benchmark a VERA store. A VeraError exits with status 2 and its message."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vera_core.config import VeraSettings
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
    ingest.add_argument("--quiet", action="store_true", help="no progress bar")

    lst = sub.add_parser("list", help="list documents")
    lst.add_argument("--json", action="store_true")
    show = sub.add_parser("show", help="a document's heading tree and tables")
    show.add_argument("doc", help="name (with or without extension) or id")
    show.add_argument("--json", action="store_true")
    delete = sub.add_parser("delete", help="remove a document from every store")
    delete.add_argument("doc")
    sub.add_parser("migrate", help="bring the catalog schema up to date")

    bench = sub.add_parser("bench", help="benchmarks that print figures")
    bench_sub = bench.add_subparsers(dest="bench", required=True)
    bench_ingest = bench_sub.add_parser("ingest", help="ingestion speed per document and stage")
    bench_ingest.add_argument("paths", nargs="*", help="default: the dev corpus if present, else the samples")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = VeraSettings(data_dir=args.data_dir) if args.data_dir else VeraSettings()
        if args.command == "ingest":
            from vera_core.cli import ingest_cmd
            return ingest_cmd.run(args, settings)
        if args.command == "bench":
            from vera_core.cli import bench_cmd
            return bench_cmd.run(args, settings)
        from vera_core.cli import docs_cmd
        return {"list": docs_cmd.run_list, "show": docs_cmd.run_show, "delete": docs_cmd.run_delete,
                "migrate": docs_cmd.run_migrate}[args.command](args, settings)
    except VeraError as exc:
        print(f"vera: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
