"""The durable ingestion queue in the catalog (`ingest_jobs`): one row a file to ingest (or a document
to delete), with its status, stage, progress, error and timestamps. The app and `vera ingest
--background` enqueue; the ingestion worker (`vera_core/ingest/worker.py`) claims and works the jobs;
every page and command reads them to show progress."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from vera_core.store.catalog import Catalog
from vera_core.store.db import execute

__all__ = ["ACTIVE", "MAX_ATTEMPTS", "Job", "JobKind", "JobQueue", "JobStage", "JobStatus"]

JobKind = Literal["ingest", "delete", "reembed"]
JobStatus = Literal["queued", "running", "done", "failed", "skipped"]
JobStage = Literal["queued", "parsing", "searchable", "embedding", "complete", "deleting", "deleted", "failed",
                   "skipped"]
ACTIVE = ("queued", "running")
"""Statuses of a job that is not finished."""
MAX_ATTEMPTS = 2
"""Times a file is read before it is failed for good: a read over its budget, or one the worker was
killed during, is tried once more, after the files queued behind it."""


@dataclass(frozen=True)
class Job:
    """One row of `ingest_jobs`."""

    job_id: int
    kind: JobKind
    name: str
    """The file name as the user gave it (or the document's name, for a delete)."""
    path: str
    """The file to read (for a delete: the doc_id)."""
    owned: bool
    """The file is the queue's own copy of an upload, removed when the job ends."""
    force: bool
    doc_id: str | None
    status: JobStatus
    stage: JobStage
    progress: float
    """Share of the document's chunks with a dense vector, in [0, 1]."""
    pages: int
    chunks: int
    error: str
    error_type: str
    created_at: str
    started_at: str | None
    searchable_at: str | None
    finished_at: str | None
    updated_at: str
    attempts: int = 0
    """Times a worker began reading the file."""
    doc_kind: str = ""
    """The document kind the user chose on upload or with `vera ingest --kind` ('' : detect it)."""
    worker: str = ""
    """The worker working the job ('host:pid:tag'), '' while it waits."""
    heartbeat_at: str | None = None
    """When that worker last said it is alive."""

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    @property
    def label(self) -> str:
        """The job's state as the Documents page shows it: 'embedding 40%', 'searchable', 'failed'."""
        if self.stage == "embedding":
            return f"searchable, embedding {self.progress:.0%}"
        return {"queued": "queued", "parsing": "parsing", "searchable": "searchable, waiting to embed",
                "complete": "complete", "failed": "failed", "skipped": "already in the store",
                "deleting": "deleting", "deleted": "deleted"}.get(self.stage, self.stage)


def _now(ago_s: float = 0.0) -> str:
    return (datetime.now(UTC) - timedelta(seconds=ago_s)).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Reclaimed:
    """What `reclaim` did with the jobs of workers that stopped beating."""

    requeued: list[Job]
    """Jobs they were reading or deleting: queued again (their half-written documents removed)."""
    failed: list[Job]
    """Jobs they were reading MAX_ATTEMPTS times: failed, with why."""
    adopted: list[Job]
    """Searchable documents they were embedding: this worker embeds the rest."""
    orphans: list[str]
    """Ids of documents left half written (`ingesting`) by the jobs requeued or failed."""


class JobQueue:
    """The jobs of one store's catalog. Every method is one short transaction. `worker`: the id of the
    worker using the queue (jobs it claims carry it, and its heartbeats keep them)."""

    def __init__(self, catalog: Catalog, worker: str = "") -> None:
        self.catalog = catalog
        self.worker = worker

    def enqueue(self, name: str, path: str, *, kind: JobKind = "ingest", owned: bool = False, force: bool = False,
                doc_id: str | None = None, doc_kind: str = "") -> int:
        """Add a job; returns its id. `doc_kind`: the document kind the user chose ('' : detect it)."""
        with self.catalog.transaction() as conn:
            now = _now()
            return int(execute(
                conn, "INSERT INTO ingest_jobs (kind, name, path, owned, force, doc_id, status, stage, created_at,"
                " updated_at, doc_kind) VALUES (:kind, :name, :path, :owned, :force, :doc_id, 'queued', 'queued', :now,"
                " :now, :doc_kind) RETURNING job_id",
                {"kind": kind, "name": name, "path": path, "owned": int(owned), "force": int(force), "doc_id": doc_id,
                 "now": now, "doc_kind": doc_kind}).scalar_one())

    def claim(self, limit: int = 1, kinds: tuple[JobKind, ...] = ("ingest", "delete")) -> list[Job]:
        """Take up to `limit` queued jobs of `kinds`, first attempts before retries, oldest first; mark
        them running and count the attempt (a re-embedding starts at its embedding stage)."""
        with self.catalog.transaction() as conn:
            ids = [r[0] for r in execute(
                conn, "SELECT job_id FROM ingest_jobs WHERE status = 'queued' AND kind IN :kinds"
                      " ORDER BY attempts, job_id LIMIT :n" + self.catalog.db.skip_locked,
                {"n": limit, "kinds": list(kinds)}, expanding=("kinds",)).fetchall()]
            if ids:
                now = _now()
                execute(conn, "UPDATE ingest_jobs SET status = 'running', stage = CASE kind WHEN 'delete' THEN"
                              " 'deleting' WHEN 'reembed' THEN 'embedding' ELSE 'parsing' END, started_at = :now,"
                              " updated_at = :now,"
                              " heartbeat_at = :now, worker = :worker, attempts = attempts + 1 WHERE job_id IN :ids",
                        {"now": now, "ids": ids, "worker": self.worker}, expanding=("ids",))
        return [self.get(i) for i in ids]

    def retry_later(self, job_id: int, *, error: str, error_type: str) -> None:
        """Queue a job again, behind the first attempts of the others, with why it is retried."""
        self.update(job_id, status="queued", stage="queued", error=error, error_type=error_type, worker="")

    # -- workers and heartbeats --------------------------------------------------------------------

    def register(self, host: str, pid: int) -> None:
        """Record this worker as alive (`live_workers` lists it until its heartbeats stop)."""
        now = _now()
        with self.catalog.transaction() as conn:
            execute(conn, "INSERT INTO workers (worker_id, host, pid, started_at, heartbeat_at) VALUES"
                          " (:worker, :host, :pid, :now, :now) ON CONFLICT (worker_id) DO UPDATE SET"
                          " heartbeat_at = excluded.heartbeat_at",
                    {"worker": self.worker, "host": host, "pid": pid, "now": now})

    def unregister(self) -> None:
        """This worker stops: its row goes (its unfinished jobs are reclaimed by the next worker)."""
        with self.catalog.transaction() as conn:
            execute(conn, "DELETE FROM workers WHERE worker_id = :worker", {"worker": self.worker})

    def release(self) -> None:
        """This worker stops with jobs still running: they are stale at once, so the next worker to look
        takes them back without waiting for the heartbeat timeout."""
        with self.catalog.transaction() as conn:
            execute(conn, "UPDATE ingest_jobs SET heartbeat_at = NULL WHERE worker = :worker AND status = 'running'",
                    {"worker": self.worker})

    def beat(self) -> None:
        """This worker and the jobs it runs are alive."""
        now = _now()
        with self.catalog.transaction() as conn:
            execute(conn, "UPDATE workers SET heartbeat_at = :now WHERE worker_id = :worker",
                    {"now": now, "worker": self.worker})
            execute(conn, "UPDATE ingest_jobs SET heartbeat_at = :now WHERE worker = :worker AND status = 'running'",
                    {"now": now, "worker": self.worker})

    def live_workers(self, timeout_s: float) -> list[str]:
        """Ids of the workers whose last heartbeat is under `timeout_s` old."""
        return [r["worker_id"] for r in self.catalog.query(
            "SELECT worker_id FROM workers WHERE heartbeat_at >= :cutoff ORDER BY worker_id",
            {"cutoff": _now(timeout_s)})]

    def reclaim(self, timeout_s: float | None, *, reembed: bool = False) -> Reclaimed:
        """Take back the running jobs whose worker stopped beating `timeout_s` ago (None: every running
        job not this worker's, for a worker that holds the store alone). A job being read or deleted
        goes back to the queue (or fails after MAX_ATTEMPTS reads); a searchable document being embedded
        is adopted by this worker, whose embedding resumes where the vectors stop (a re-embedding only by
        a worker that can do it, `reembed`: else it is queued again). Rows are locked with SKIP LOCKED,
        so two workers never take the same job."""
        cutoff = _now(timeout_s) if timeout_s is not None else None
        stale = ("status = 'running' AND worker <> :me AND (heartbeat_at IS NULL OR heartbeat_at < :cutoff)"
                 if cutoff else "status = 'running' AND worker <> :me")
        params = {"me": self.worker, "cutoff": cutoff}
        with self.catalog.transaction() as conn:
            rows = execute(conn, f"SELECT job_id, kind, name, stage, attempts, doc_id FROM ingest_jobs WHERE {stale}"
                                 f" ORDER BY job_id{self.catalog.db.skip_locked}", params).fetchall()
            now = _now()
            requeue = [r for r in rows if (r.stage in ("parsing", "deleting", "queued")
                                           and not (r.stage == "parsing" and r.attempts >= MAX_ATTEMPTS))
                       or (r.kind == "reembed" and not reembed)]
            fail = [r for r in rows if r.stage == "parsing" and r.attempts >= MAX_ATTEMPTS]
            adopt = [r for r in rows if r not in requeue and r not in fail]
            for r in fail:
                execute(conn, "UPDATE ingest_jobs SET status = 'failed', stage = 'failed', error = :error,"
                              " error_type = 'ParseBudgetError', finished_at = :now, updated_at = :now, worker = ''"
                              " WHERE job_id = :job_id",
                        {"error": f"Reading {r.name!r} was interrupted {MAX_ATTEMPTS} times (the worker stopped or "
                                  f"was killed while reading it), so it was not ingested. If it is a genuine "
                                  f"document, split it and upload the parts.", "now": now, "job_id": r.job_id})
            if requeue:
                execute(conn, "UPDATE ingest_jobs SET status = 'queued', stage = 'queued', updated_at = :now,"
                              " worker = '' WHERE job_id IN :ids", {"now": now, "ids": [r.job_id for r in requeue]},
                        expanding=("ids",))
            if adopt:
                execute(conn, "UPDATE ingest_jobs SET worker = :me, heartbeat_at = :now, updated_at = :now"
                              " WHERE job_id IN :ids", {"me": self.worker, "now": now, "ids": [r.job_id for r in adopt]},
                        expanding=("ids",))
            orphans = [r.doc_id for r in requeue + fail if r.doc_id and r.stage == "parsing"]
            if cutoff:
                execute(conn, "DELETE FROM workers WHERE heartbeat_at < :cutoff", {"cutoff": cutoff})
        return Reclaimed([self.get(r.job_id) for r in requeue], [self.get(r.job_id) for r in fail],
                         [self.get(r.job_id) for r in adopt], orphans)

    def mine(self) -> list[Job]:
        """The running jobs of this worker."""
        return [_job(r) for r in self.catalog.query(
            "SELECT * FROM ingest_jobs WHERE worker = :me AND status = 'running' ORDER BY job_id", {"me": self.worker})]

    def ahead_of(self, job_ids: list[int]) -> list[Job]:
        """Unfinished jobs queued before the first of `job_ids` (what those files wait behind)."""
        if not job_ids:
            return []
        return [_job(r) for r in self.catalog.query(
            "SELECT * FROM ingest_jobs WHERE status IN ('queued', 'running') AND job_id < :first ORDER BY job_id",
            {"first": min(job_ids)})]

    def update(self, job_id: int, **fields) -> None:
        """Set columns of a job (stage, progress, doc_id, pages, chunks, searchable_at ...)."""
        if not fields:
            return
        fields["updated_at"] = _now()
        names = ", ".join(f"{k} = :{k}" for k in fields)
        with self.catalog.transaction() as conn:
            execute(conn, f"UPDATE ingest_jobs SET {names} WHERE job_id = :job_id", {**fields, "job_id": job_id})

    def searchable(self, job_id: int, doc_id: str, pages: int, chunks: int) -> None:
        self.update(job_id, stage="searchable", doc_id=doc_id, pages=pages, chunks=chunks, searchable_at=_now())

    def finish(self, job_id: int, status: JobStatus = "done", stage: JobStage = "complete", *, error: str = "",
               error_type: str = "", doc_id: str | None = None) -> None:
        """End a job: done (complete or deleted), skipped (the same bytes are already stored) or failed."""
        fields = {"status": status, "stage": stage, "error": error, "error_type": error_type, "finished_at": _now()}
        if stage == "complete":
            fields["progress"] = 1.0
        if doc_id:
            fields["doc_id"] = doc_id
        self.update(job_id, **fields)

    def progress_of(self, doc_id: str, embedded: int, total: int) -> None:
        """Embedding progress of the running job of a document."""
        with self.catalog.transaction() as conn:
            execute(conn, "UPDATE ingest_jobs SET stage = 'embedding', progress = :progress, updated_at = :now"
                          " WHERE doc_id = :doc_id AND status = 'running' AND kind IN ('ingest', 'reembed')",
                    {"progress": embedded / total if total else 1.0, "now": _now(), "doc_id": doc_id})

    def complete_doc(self, doc_id: str) -> None:
        """Every running job of a document whose vectors are all written is done."""
        with self.catalog.transaction() as conn:
            now = _now()
            execute(conn, "UPDATE ingest_jobs SET status = 'done', stage = 'complete', progress = 1.0,"
                          " finished_at = :now, updated_at = :now WHERE doc_id = :doc_id AND status = 'running'"
                          " AND kind IN ('ingest', 'reembed')", {"now": now, "doc_id": doc_id})

    def get(self, job_id: int) -> Job:
        rows = self.catalog.query("SELECT * FROM ingest_jobs WHERE job_id = :job_id", {"job_id": job_id})
        return _job(rows[0])

    def jobs(self, *, limit: int = 50, active_only: bool = False) -> list[Job]:
        """The newest jobs first (only unfinished ones with `active_only`)."""
        where = "WHERE status IN ('queued', 'running')" if active_only else ""
        return [_job(r) for r in self.catalog.query(
            f"SELECT * FROM ingest_jobs {where} ORDER BY job_id DESC LIMIT :n", {"n": limit})]

    def has_queued(self) -> bool:
        return bool(self.catalog.query("SELECT 1 FROM ingest_jobs WHERE status = 'queued' LIMIT 1"))


def _job(row: Mapping) -> Job:
    return Job(job_id=row["job_id"], kind=row["kind"], name=row["name"], path=row["path"], owned=bool(row["owned"]),
               force=bool(row["force"]), doc_id=row["doc_id"], status=row["status"], stage=row["stage"],
               progress=float(row["progress"]), pages=row["pages"], chunks=row["chunks"], error=row["error"],
               error_type=row["error_type"], created_at=row["created_at"], started_at=row["started_at"],
               searchable_at=row["searchable_at"], finished_at=row["finished_at"], updated_at=row["updated_at"],
               attempts=row["attempts"], doc_kind=row["doc_kind"], worker=row["worker"],
               heartbeat_at=row["heartbeat_at"])
