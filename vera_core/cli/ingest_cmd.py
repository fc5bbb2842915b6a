"""`vera ingest PATH...`: parse files in parallel worker processes, store them one at a time."""

from __future__ import annotations

import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from tqdm import tqdm

from vera_core.config import VeraSettings
from vera_core.errors import VeraError
from vera_core.ingest.service import IngestResult, Ingestor, parse_in_worker
from vera_core.ingest.source import load_source
from vera_core.processes import worker_context
from vera_core.workspace import Workspace


def ingest_paths(files: list[Path], settings: VeraSettings, *, force: bool = False,
                 workers: int | None = None, progress: bool = True) -> list[IngestResult]:
    """Ingest files; a failing file is reported and the others still go in."""
    workers = workers or settings.ingest_workers
    ws = Workspace(settings, batch=True)
    ingestor = Ingestor(ws)
    results: list[IngestResult] = []
    todo: list[Path] = []
    for path in files:  # cheap checks first: bad files and duplicates never reach a worker
        try:
            source = load_source(path, max_file_mb=settings.max_file_mb)
        except VeraError as exc:
            results.append(IngestResult(path.name, "failed", error=str(exc), error_type=type(exc).__name__))
            continue
        if not force and ingestor.is_present(source.doc_id):
            results.append(IngestResult(path.name, "skipped", doc_id=source.doc_id))
        else:
            todo.append(path)
    bar = tqdm(total=len(files), unit="file", disable=not progress, file=sys.stderr, initial=len(results))
    if len(todo) <= 1 or workers <= 1:
        for path in todo:
            bar.set_description(path.name[:40])
            results.append(ingestor.ingest_file(path, force=force))
            bar.update()
    else:
        settings_json = settings.model_dump_json()
        with ProcessPoolExecutor(max_workers=min(workers, len(todo)), mp_context=worker_context()) as pool:
            futures: list[tuple[Path, Future]] = [(p, pool.submit(parse_in_worker, str(p), settings_json)) for p in todo]
            for path, future in futures:  # store in submission order: deterministic, one writer
                bar.set_description(path.name[:40])
                outcome = future.result()
                if isinstance(outcome, VeraError):
                    results.append(IngestResult(path.name, "failed", error=str(outcome),
                                                error_type=type(outcome).__name__))
                else:
                    source, parsed = outcome
                    try:
                        results.append(ingestor.store(source, parsed, force=force))
                    except VeraError as exc:
                        results.append(IngestResult(path.name, "failed", error=str(exc),
                                                    error_type=type(exc).__name__))
                bar.update()
    bar.close()
    return results


def summary(results: list[IngestResult], seconds: float) -> str:
    """Human summary: counts by outcome, then one line per failure."""
    counts = {s: sum(1 for r in results if r.status == s) for s in ("ingested", "skipped", "failed")}
    lines = [f"{counts['ingested']} succeeded, {counts['skipped']} skipped (already present), "
             f"{counts['failed']} failed in {seconds:.1f} s"]
    for r in results:
        if r.status == "ingested":
            lines.append(f"  + {r.name}: {r.pages} pages, {r.chunks} chunks, {r.tables} tables")
        elif r.status == "failed":
            lines.append(f"  ! {r.name}: {r.error}")
    return "\n".join(lines)


def run(args, settings: VeraSettings) -> int:
    from vera_core.cli.paths import expand_paths
    files, missing = expand_paths(args.paths)
    for arg in missing:
        print(f"vera ingest: {arg!r} matches no file", file=sys.stderr)
    started = time.perf_counter()
    results = ingest_paths(files, settings, force=args.force, workers=args.workers, progress=not args.quiet)
    print(summary(results, time.perf_counter() - started))
    return 1 if missing or any(r.status == "failed" for r in results) else 0
