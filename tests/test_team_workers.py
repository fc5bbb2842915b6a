"""Ingestion workers as a team runs them (issue 20): several `vera worker` processes share one queue on
PostgreSQL and a Chroma server, each document is read and embedded once, a worker killed with SIGKILL
has its job finished by another after the heartbeat timeout, and a worker stopped with SIGTERM leaves
no process behind and its job to the next worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tests.conftest import ROOT, SAMPLE_PDF, SAMPLES, settings_for
from vera_core.ingest.worker import IngestWorker
from vera_core.store.jobs import JobQueue
from vera_core.workspace import Workspace

HEARTBEAT_TIMEOUT_S = 3.0


def _env(ws: Workspace, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    for name, value in ws.settings.model_dump(mode="json", exclude_unset=True).items():
        env[f"VERA_{name.upper()}"] = str(value)
    env.update(extra)
    return env


def _worker(ws: Workspace, **extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "vera_core.cli.main", "worker"], cwd=ROOT,
                            env=_env(ws, **extra), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _until(predicate, limit_s: float, what: str):
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"not within {limit_s:g} s: {what}")


def _big_markdown(path: Path, sections: int = 200) -> Path:
    path.write_text("# Operations Handbook\n\n" + "".join(
        f"## Procedure {i}\n\nStep {i} of the handbook: the operator checks valve {i}, records the pressure in "
        f"the log for shift {i % 3}, and reports any reading above the limit to the duty engineer.\n\n"
        for i in range(sections)), encoding="utf-8")
    return path


@pytest.mark.backends
def test_two_workers_share_the_queue_and_one_finishes_the_job_of_the_other_killed(tmp_path, store_backend):
    if store_backend != "postgresql":
        pytest.skip("several workers share a queue on a team store only (the embedded store has one writer)")
    ws = Workspace(settings_for(tmp_path / "store", worker_heartbeat_timeout_s=HEARTBEAT_TIMEOUT_S))
    files = [SAMPLE_PDF, *sorted(SAMPLES.glob("*.md")), _big_markdown(tmp_path / "handbook.md")]
    queue = JobQueue(ws.catalog)
    jobs = [queue.enqueue(path.name, str(path)) for path in files]
    small_batches = {"VERA_INGEST_EMBED_CHUNKS": "8"}
    workers = [_worker(ws, **small_batches), _worker(ws, **small_batches)]
    try:
        # both work: each claims files, and one is caught embedding a document of its own
        victim_job = _until(lambda: next((queue.get(j) for j in jobs if queue.get(j).stage == "embedding"
                                          and queue.get(j).progress < 0.5), None), 180, "a document being embedded")
        victim_pid = int(victim_job.worker.split(":")[1])
        working = {queue.get(j).worker for j in jobs} - {""}
        assert len(working) == 2, working  # both workers hold jobs of the queue
        victim = next(w for w in workers if w.pid == victim_pid)
        victim.kill()
        victim.wait(timeout=10)
        survivor = next(w for w in workers if w is not victim)
        done = _until(lambda: all(not queue.get(j).active for j in jobs), 300, "every job finished")
        assert done and survivor.poll() is None
    finally:
        for worker in workers:
            worker.kill()
            worker.wait(timeout=10)
    finished = [queue.get(j) for j in jobs]
    assert [(j.status, j.stage) for j in finished] == [("done", "complete")] * len(files), \
        [(j.name, j.error) for j in finished if j.error]
    assert queue.get(victim_job.job_id).worker.split(":")[1] == str(survivor.pid)  # the survivor finished it
    docs = ws.catalog.documents()
    assert sorted(d.name for d in docs) == sorted(p.name for p in files)  # each document once
    for doc in docs:
        assert doc.stage == "complete" and ws.vectors.count(doc.doc_id) == doc.chunk_count
    assert ws.vectors.count() == sum(d.chunk_count for d in docs)  # no vector twice
    assert not ws.catalog.pending_documents()


@pytest.mark.backends
def test_sigterm_stops_a_worker_and_its_embedding_processes_and_the_next_worker_resumes(tmp_path, store_backend):
    ws = Workspace(settings_for(tmp_path / "store", worker_heartbeat_timeout_s=HEARTBEAT_TIMEOUT_S))
    handbook = _big_markdown(tmp_path / "handbook.md", sections=400)
    queue = JobQueue(ws.catalog)
    job_id = queue.enqueue(handbook.name, str(handbook))
    worker = _worker(ws, VERA_EMBED_WORKERS="2", VERA_INGEST_EMBED_CHUNKS="64")
    try:
        _until(lambda: queue.get(job_id).stage == "embedding" and 0 < queue.get(job_id).progress < 0.6, 240,
               "the handbook being embedded")
        family = psutil.Process(worker.pid).children(recursive=True)
        assert len(family) >= 2  # its embedding processes (and its reading process)
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
    _until(lambda: not any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in family), 15,
           f"no process of the stopped worker left: {[p.pid for p in family if p.is_running()]}")
    job = queue.get(job_id)
    assert job.status == "running" and job.stage == "embedding"  # released, not lost
    doc = ws.catalog.document(job.doc_id)
    assert doc.stage == "searchable" and 0 < ws.vectors.count(doc.doc_id) < doc.chunk_count
    IngestWorker(ws).run(until_idle=True)  # the next worker takes the job back at once
    assert queue.get(job_id).stage == "complete"
    assert ws.vectors.count(doc.doc_id) == ws.catalog.document(doc.doc_id).chunk_count


@pytest.mark.backends
def test_vera_ingest_says_what_its_files_wait_behind(tmp_path, store_backend):
    from vera_core.cli.ingest_cmd import waiting_line
    ws = Workspace(settings_for(tmp_path / "store"))
    queue = JobQueue(ws.catalog)
    report = queue.enqueue("annual_report.pdf", "/nowhere/annual_report.pdf")
    queue.claim()
    queue.update(report, stage="embedding", chunks=930, progress=0.25)
    queue.enqueue("policy.md", "/nowhere/policy.md")
    mine = [queue.enqueue("new.md", "/nowhere/new.md")]
    assert waiting_line(queue, mine) == (
        "  waiting behind 2 document(s) queued earlier (annual_report.pdf, policy.md): 698 chunks still to embed; "
        "1 not read yet. Each of these files becomes searchable once read.")
    assert waiting_line(queue, [queue.enqueue("later.md", "/nowhere/later.md")]).startswith("  waiting behind 3")
    assert waiting_line(queue, [report]) == ""
