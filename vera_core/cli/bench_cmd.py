"""`vera bench ingest`: how soon each document is searchable and complete, into a fresh temporary store.

The files are queued and worked by the ingestion worker in this process, as `vera ingest` does: every
file is made searchable first (parsed in `VERA_INGEST_WORKERS` processes), then embedded. Seconds are
counted from the start of the run (the model and the store are loaded before it, and not counted)."""

from __future__ import annotations

import json
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

from vera_core.config import VeraSettings
from vera_core.ingest.worker import IngestWorker
from vera_core.store.jobs import Job, JobQueue
from vera_core.workspace import Workspace

DEV_CORPUS = Path("../shared/corpus/financebench-dev")
SAMPLES = Path("data/samples")


def default_paths() -> list[Path]:
    """The dev filings when present, else the bundled samples."""
    folder = DEV_CORPUS if DEV_CORPUS.is_dir() else SAMPLES
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in (".pdf", ".md"))


def _at(stamp: str | None) -> float | None:
    return datetime.fromisoformat(stamp).timestamp() if stamp else None


def measure(files: list[Path], settings: VeraSettings, *, workers: int | None = None) -> dict:
    """Ingest `files` into a fresh store; per document and in total, seconds to searchable and to complete."""
    with tempfile.TemporaryDirectory(prefix="vera-bench-") as tmp:
        ws = Workspace(settings.model_copy(update={"data_dir": Path(tmp)}), batch=True)
        loaded = time.perf_counter()
        ws.embedder.encode(["warm up"])
        if ws.embedder.pool() is not None:
            ws.embedder.pool().warm_up()
        ws.vectors.count()
        load_s = time.perf_counter() - loaded
        queue = JobQueue(ws.catalog)
        worker = IngestWorker(ws, parse_workers=workers or settings.ingest_workers)
        started = time.time()
        ids = [queue.enqueue(p.name, str(p.resolve())) for p in files]
        done = threading.Event()
        thread = threading.Thread(target=worker.run, kwargs={"should_stop": done.is_set, "poll_s": 0.05}, daemon=True)
        thread.start()
        while any(queue.get(i).active for i in ids):
            time.sleep(0.05)
        done.set()
        thread.join()
        jobs = [queue.get(i) for i in ids]
        docs = {d.doc_id: d for d in ws.catalog.documents()}
        rows = [_row(job, docs.get(job.doc_id or ""), started) for job in jobs]
        ok = [r for r in rows if r["status"] == "done"]
        searchable = max((r["seconds_to_searchable"] for r in ok), default=0.0)
        complete = max((r["seconds_to_complete"] for r in ok), default=0.0)
        pages = sum(r["pages"] for r in ok)
        return {"documents": rows, "total": {
            "documents": len(ok), "failed": sum(1 for r in rows if r["status"] == "failed"), "pages": pages,
            "chunks": sum(r["chunks"] for r in ok), "seconds_to_searchable": searchable,
            "seconds_to_complete": complete, "pages_per_second_searchable": round(pages / searchable, 1) if searchable else 0.0,
            "pages_per_second_complete": round(pages / complete, 1) if complete else 0.0,
            "model_load_seconds": round(load_s, 2), "parse_workers": worker.parse_workers,
            "embed_workers": ws.embedder.workers or 1, "embed_device": ws.embedder.torch_device}}


def _row(job: Job, doc, started: float) -> dict:
    searchable, finished, began = _at(job.searchable_at), _at(job.finished_at), _at(job.started_at)
    return {"name": job.name, "status": job.status, "pages": job.pages, "chunks": job.chunks,
            "tables": doc.table_count if doc else 0,
            "seconds_to_searchable": round(searchable - started, 2) if searchable else None,
            "seconds_to_complete": round(finished - started, 2) if finished and job.status == "done" else None,
            "seconds_own_searchable": round(searchable - began, 2) if searchable and began else None,
            "error": job.error}


def run(args, settings: VeraSettings) -> int:
    from vera_core.cli.paths import expand_paths
    files, _ = expand_paths(args.paths) if args.paths else (default_paths(), [])
    if getattr(args, "reports", 0):
        from vera_core.cli.bench_reports import write_reports
        folder = Path(tempfile.mkdtemp(prefix="vera-bench-reports-"))
        files = files + write_reports(folder, args.reports)
    result = measure(files, settings)
    if args.json:
        print(json.dumps(result, indent=2))
        return 1 if result["total"]["failed"] else 0
    total = result["total"]
    print(f"model + store load: {total['model_load_seconds']:.2f} s (not counted); parsing processes "
          f"{total['parse_workers']}, embedding processes {total['embed_workers']}")
    print(f"{'document':<44}{'pages':>6}{'chunks':>7}{'tables':>7}{'own':>7}{'searchable':>11}{'complete':>10}")
    for r in result["documents"]:
        if r["status"] != "done":
            print(f"{r['name'][:43]:<44} {r['status']}: {r['error']}")
            continue
        print(f"{r['name'][:43]:<44}{r['pages']:>6}{r['chunks']:>7}{r['tables']:>7}{r['seconds_own_searchable']:>7.2f}"
              f"{r['seconds_to_searchable']:>11.2f}{r['seconds_to_complete']:>10.2f}")
    print(f"{'TOTAL':<44}{total['pages']:>6}{total['chunks']:>7}{'':>7}{'':>7}{total['seconds_to_searchable']:>11.2f}"
          f"{total['seconds_to_complete']:>10.2f}")
    print(f"searchable: {total['pages_per_second_searchable']} pages/s; complete: {total['pages_per_second_complete']} "
          "pages/s ('own': seconds from a file's parse start to searchable; the others from the start of the run)")
    return 1 if total["failed"] else 0
