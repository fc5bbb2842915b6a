"""`vera bench ingest`: ingestion speed per document and per stage, into a fresh temporary store."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from vera_core.config import VeraSettings
from vera_core.ingest.service import Ingestor
from vera_core.workspace import Workspace

DEV_CORPUS = Path("../shared/corpus/financebench-dev")
SAMPLES = Path("data/samples")


def default_paths() -> list[Path]:
    """The dev filings when present, else the bundled samples."""
    folder = DEV_CORPUS if DEV_CORPUS.is_dir() else SAMPLES
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in (".pdf", ".md"))


def run(args, settings: VeraSettings) -> int:
    from vera_core.cli.paths import expand_paths
    files, _ = expand_paths(args.paths) if args.paths else (default_paths(), [])
    with tempfile.TemporaryDirectory(prefix="vera-bench-") as tmp:
        bench_settings = settings.model_copy(update={"data_dir": Path(tmp)})
        ws = Workspace(bench_settings, batch=True)
        ingestor = Ingestor(ws)
        started = time.perf_counter()
        ws.embedder.encode(["warm up"])
        if ws.embedder.pool() is not None:
            ws.embedder.pool().warm_up()
        ws.vectors.count()
        workers = ws.embedder.workers or 1
        print(f"model + store load: {time.perf_counter() - started:.2f} s (once per process, not counted below); "
              f"embedding processes: {workers}, bf16: {ws.embedder.bf16}")
        header = f"{'document':<44}{'pages':>6}{'chunks':>7}{'tables':>7}{'parse':>7}{'tables':>7}" \
                 f"{'reused':>7}{'embed':>7}{'index':>7}{'total':>8}{'pages/s':>9}"
        print(header)
        totals = {"pages": 0, "chunks": 0, "tables": 0, "reused": 0, "parse": 0.0, "tables_s": 0.0, "embed": 0.0,
                  "index": 0.0, "total": 0.0}
        failed = 0
        for path in files:
            t0 = time.perf_counter()
            result = ingestor.ingest_file(path, force=True)
            total = time.perf_counter() - t0
            if result.status != "ingested":
                print(f"{path.name[:43]:<44} {result.status}: {result.error}")
                failed += result.status == "failed"
                continue
            s = result.seconds
            rate = result.pages / total if result.pages else 0.0
            print(f"{path.name[:43]:<44}{result.pages:>6}{result.chunks:>7}{result.tables:>7}{s['parse']:>7.2f}"
                  f"{s['tables']:>7.2f}{result.reused:>7}{s['embed']:>7.2f}{s['index']:>7.2f}{total:>8.2f}{rate:>9.1f}")
            for key, value in (("pages", result.pages), ("chunks", result.chunks), ("tables", result.tables), ("reused", result.reused),
                               ("parse", s["parse"]), ("tables_s", s["tables"]), ("embed", s["embed"]),
                               ("index", s["index"]), ("total", total)):
                totals[key] += value
        rate = totals["pages"] / totals["total"] if totals["total"] else 0.0
        print(f"{'TOTAL':<44}{totals['pages']:>6}{totals['chunks']:>7}{totals['tables']:>7}{totals['parse']:>7.2f}"
              f"{totals['tables_s']:>7.2f}{totals['reused']:>7}{totals['embed']:>7.2f}{totals['index']:>7.2f}{totals['total']:>8.2f}{rate:>9.1f}")
    return 1 if failed else 0
