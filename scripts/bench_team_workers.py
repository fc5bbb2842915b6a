"""Two `vera worker` processes ingest a folder of filings into one team store (PostgreSQL and a Chroma
server) at once; once one of them is embedding a document, it is killed with SIGKILL, and the other
finishes every job after the heartbeat timeout. Prints the timings and checks, and exits 1 when a
check fails: each document stored once, every job done, no vector twice, nothing lost.

    VERA_DATABASE_URL=postgresql://... VERA_CHROMA_URL=http://... VERA_FILES_DIR=... \\
        .venv/bin/python scripts/bench_team_workers.py ../shared/corpus/financebench-dev

The store must be empty (a new database and a new collection)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vera_core.config import VeraSettings  # noqa: E402
from vera_core.ingest.desk import IngestDesk  # noqa: E402
from vera_core.store.jobs import JobQueue  # noqa: E402
from vera_core.workspace import Workspace  # noqa: E402


def _worker(env: dict[str, str], log: Path) -> subprocess.Popen:
    with open(log, "ab") as out:
        return subprocess.Popen([sys.executable, "-m", "vera_core.cli.main", "worker"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--heartbeat-timeout", type=float, default=20.0)
    parser.add_argument("--log-dir", type=Path, default=ROOT / "test-artifacts")
    args = parser.parse_args()
    settings = VeraSettings(worker_heartbeat_timeout_s=args.heartbeat_timeout)
    if not (settings.database_url and settings.chroma_url):
        sys.exit("set VERA_DATABASE_URL and VERA_CHROMA_URL (a team store)")
    ws = Workspace(settings)
    if ws.catalog.documents():
        sys.exit(f"the store at {settings.database_url} is not empty")
    files = sorted(p for p in args.folder.iterdir() if p.suffix.lower() in (".pdf", ".md"))
    desk, queue = IngestDesk(ws), JobQueue(ws.catalog)
    started = time.monotonic()
    jobs = [desk.submit_path(p, start_worker=False).job_id for p in files]
    env = {**os.environ, "VERA_WORKER_HEARTBEAT_TIMEOUT_S": str(args.heartbeat_timeout), "HF_HUB_OFFLINE": "1"}
    args.log_dir.mkdir(parents=True, exist_ok=True)
    workers = [_worker(env, args.log_dir / f"team-worker-{i}.log") for i in (1, 2)]
    victim = victim_job = None
    try:
        while victim is None:
            for job in (queue.get(j) for j in jobs):
                if job.stage == "embedding" and 0 < job.progress < 0.5:
                    pid = int(job.worker.split(":")[1])
                    victim, victim_job = next((w for w in workers if w.pid == pid), None), job
                    break
            time.sleep(0.1)
        holders = {queue.get(j).worker for j in jobs} - {""}
        killed_at = time.monotonic()
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        print(f"killed worker pid {victim.pid} at {killed_at - started:.1f} s while embedding {victim_job.name} "
              f"({victim_job.progress:.0%}); workers holding jobs then: {len(holders)}")
        survivor = next(w for w in workers if w is not victim)
        while any(queue.get(j).active for j in jobs):
            if survivor.poll() is not None:
                sys.exit(f"the surviving worker exited with {survivor.returncode}")
            time.sleep(0.5)
        finished = time.monotonic()
    finally:
        for w in workers:
            if w.poll() is None:
                w.send_signal(signal.SIGTERM)
                w.wait(timeout=60)
    done = [queue.get(j) for j in jobs]
    docs = ws.catalog.documents()
    resumed = queue.get(victim_job.job_id)
    checks = {
        "every job done and complete": all((j.status, j.stage) == ("done", "complete") for j in done),
        "each document once": sorted(d.name for d in docs) == sorted(p.name for p in files),
        "every document complete": all(d.stage == "complete" for d in docs),
        "vectors per document = its chunks": all(ws.vectors.count(d.doc_id) == d.chunk_count for d in docs),
        "no vector twice": ws.vectors.count() == sum(d.chunk_count for d in docs),
        "nothing half-written": not ws.catalog.pending_documents(),
        "the killed worker's job finished by the other": resumed.worker.split(":")[1] == str(survivor.pid),
        "both workers held jobs": len(holders) == 2,
    }
    report = {"files": len(files), "chunks": sum(d.chunk_count for d in docs), "pages": sum(d.pages for d in docs),
              "seconds_total": round(finished - started, 1), "killed_at_s": round(killed_at - started, 1),
              "heartbeat_timeout_s": args.heartbeat_timeout, "victim_job": victim_job.name, "checks": checks,
              "errors": [(j.name, j.error) for j in done if j.error]}
    print(json.dumps(report, indent=2))
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
