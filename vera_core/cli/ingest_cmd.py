"""`vera ingest PATH...`: queue the files and work the queue until they are done, printing when each
document becomes searchable and when it is complete (`--background`: queue them, make sure a worker
runs, and return at once). When a worker already runs for the store (the app's), it does the work
and this command follows it."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from vera_core.config import VeraSettings
from vera_core.errors import VeraError
from vera_core.ingest.desk import IngestDesk
from vera_core.ingest.service import IngestResult
from vera_core.ingest.worker import IngestWorker
from vera_core.ingest.worker_process import start_worker_process, store_lock
from vera_core.store.jobs import Job, JobQueue
from vera_core.workspace import Workspace

POLL_S = 0.2


def queue_files(ws: Workspace, files: list[Path], *, force: bool = False,
                kind: str = "") -> tuple[list[IngestResult], list[int]]:
    """Cheap checks first (bad files and duplicates never reach the queue), then one job per file:
    the results known now and the ids of the jobs queued. `kind`: the documents' kind ('' : read it)."""
    desk = IngestDesk(ws)
    submitted = [desk.submit_path(path, force=force, start_worker=False, kind=kind) for path in files]
    return [s.result for s in submitted if s.result is not None], [s.job_id for s in submitted if s.job_id is not None]


def work_and_follow(ws: Workspace, jobs: list[int], *, workers: int | None = None,
                    report=lambda line: None) -> list[Job]:
    """Work the queue in this process while no other worker runs (else follow that one) until the
    `jobs` are finished; `report` gets a line when a job becomes searchable, complete, skipped or failed."""
    queue = JobQueue(ws.catalog)
    with store_lock(ws.settings) as mine:
        thread = None
        if mine:
            worker = IngestWorker(ws, parse_workers=workers or ws.settings.ingest_workers)
            thread = threading.Thread(target=worker.run, name="vera-ingest-worker", daemon=True,
                                      kwargs={"should_stop": lambda: _finished(queue, jobs), "poll_s": POLL_S})
            thread.start()
        started, seen = time.perf_counter(), {}
        waiting = waiting_line(queue, jobs)
        if waiting:
            report(waiting)
        while True:
            states = [queue.get(j) for j in jobs]
            for job in states:
                for event in _events(job):
                    if (job.job_id, event) not in seen:
                        seen[(job.job_id, event)] = time.perf_counter() - started
                        report(_line(job, event, seen[(job.job_id, event)]))
            if all(not j.active for j in states):
                break
            if thread is not None and not thread.is_alive():
                raise VeraError("The ingestion worker stopped before finishing; run `vera ingest` again to resume.")
            time.sleep(POLL_S)
        if thread is not None:
            thread.join()
    return [queue.get(j) for j in jobs]


def waiting_line(queue: JobQueue, jobs: list[int]) -> str:
    """What the files wait behind, when earlier work is unfinished: the documents and the chunks still
    to embed ('' when nothing is ahead)."""
    ahead = [j for j in queue.ahead_of(jobs) if j.job_id not in jobs]
    if not ahead:
        return ""
    chunks = sum(round(j.chunks * (1 - j.progress)) for j in ahead if j.chunks)
    unread = sum(1 for j in ahead if not j.chunks)
    names = ", ".join(j.name for j in ahead[:5]) + (f" and {len(ahead) - 5} more" if len(ahead) > 5 else "")
    parts = [f"{chunks} chunks still to embed"] if chunks else []
    parts += [f"{unread} not read yet"] if unread else []
    return (f"  waiting behind {len(ahead)} document(s) queued earlier ({names}): {'; '.join(parts)}. "
            f"Each of these files becomes searchable once read.")


def _finished(queue: JobQueue, jobs: list[int]) -> bool:
    return all(not queue.get(j).active for j in jobs)


def _events(job: Job) -> list[str]:
    events = ["searchable"] if job.searchable_at else []
    if not job.active:
        events.append(job.stage)
    return events


def _line(job: Job, event: str, seconds: float) -> str:
    if event == "searchable":
        pages = f"{job.pages} pages, " if job.pages else ""
        return f"  searchable after {seconds:5.1f} s: {job.name} ({pages}{job.chunks} chunks)"
    if event == "complete":
        return f"  complete   after {seconds:5.1f} s: {job.name}"
    if event == "failed":
        return f"  failed: {job.name}: {job.error}"
    return f"  {event}: {job.name}"


def as_result(job: Job) -> IngestResult:
    status = {"done": "ingested", "skipped": "skipped", "failed": "failed"}.get(job.status, job.status)
    return IngestResult(job.name, status, doc_id=job.doc_id or "", pages=job.pages, chunks=job.chunks,
                        error=job.error, error_type=job.error_type)


def summary(results: list[IngestResult], seconds: float, ws: Workspace | None = None) -> str:
    """Human summary: counts by outcome, then one line per document ingested (with its warnings) or failed."""
    counts = {s: sum(1 for r in results if r.status == s) for s in ("ingested", "skipped", "failed")}
    lines = [f"{counts['ingested']} succeeded, {counts['skipped']} skipped (already present), "
             f"{counts['failed']} failed in {seconds:.1f} s"]
    for r in results:
        if r.status == "ingested":
            doc = ws.catalog.document(r.doc_id) if ws is not None and r.doc_id else None
            tables = f", {doc.table_count} tables" if doc else ""
            lines.append(f"  + {r.name}: {r.pages} pages, {r.chunks} chunks{tables}")
            lines += [f"    warning: {w['message']}" for w in (doc.warnings if doc else [])]
        elif r.status == "failed":
            lines.append(f"  ! {r.name}: {r.error}")
    return "\n".join(lines)


def run(args, settings: VeraSettings) -> int:
    from vera_core.cli.paths import expand_paths
    files, missing = expand_paths(args.paths)
    for arg in missing:
        print(f"vera ingest: {arg!r} matches no file", file=sys.stderr)
    started = time.perf_counter()
    ws = Workspace(settings, batch=True)
    results, jobs = queue_files(ws, files, force=args.force, kind=getattr(args, "kind", ""))
    if args.background:
        process = start_worker_process(settings)
        where = "a new worker" if process is not None else "the worker already running"
        print(f"queued {len(jobs)} file(s) for {where}; `vera list` shows each document once it is searchable")
        for r in results:
            if r.status == "failed":
                print(f"  ! {r.name}: {r.error}")
        return 1 if missing or any(r.status == "failed" for r in results) else 0
    report = (lambda line: None) if args.quiet else (lambda line: print(line, flush=True))
    finished = work_and_follow(ws, jobs, workers=args.workers, report=report) if jobs else []
    results += [as_result(j) for j in finished]
    print(summary(results, time.perf_counter() - started, ws))
    return 1 if missing or any(r.status == "failed" for r in results) else 0
