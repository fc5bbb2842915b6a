"""The ingestion worker: works the store's queue (`store/jobs.py`) in the background, so that no user
waits for embedding. The app starts one per store (`worker_process.start_worker_process`), `vera worker` runs one on
its own, and `vera ingest` runs one in-process when none is running.

On the embedded store one worker writes at a time (the writer lock); on a team store (PostgreSQL) any
number run, on any host: each claims queued jobs row by row, embeds only the documents of its own
jobs, and says it is alive every `worker_heartbeat_timeout_s / 6`; a worker silent for the whole
timeout is taken for dead, and the next worker to look requeues what it was reading and adopts the
documents it was embedding, whose embedding resumes where its vectors stop.

Order of work: every queued file is first made searchable (parse, tables, facts, keyword index: a few
seconds even for a 160-page 10-K), then dense vectors are written in batches, oldest document first;
between batches, newly queued files go first. One worker writes to a store at a time: it holds the
store's writer lock (`worker_process.writer_lock`) for its whole life. A worker killed at any point leaves every
document invisible, searchable or complete; the next one repairs what was half written, requeues
what it was parsing and resumes embedding where the vectors stop."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from vera_core.errors import ParseBudgetError, VeraError
from vera_core.ingest.budget import ParseBudget
from vera_core.ingest.service import Ingestor
from vera_core.ingest.source import load_source
from vera_core.store.jobs import MAX_ATTEMPTS, Job, JobQueue, Reclaimed
from vera_core.telemetry import span
from vera_core.workspace import Workspace

__all__ = ["EMBED_BATCH", "IngestWorker"]

EMBED_BATCH: int | None = None
"""Chunks embedded per step; None: the `ingest_embed_chunks` setting (96: a few seconds on a 2-core CPU,
how long a new upload may wait to be parsed). Tests set it to see several steps."""
log = logging.getLogger("vera.worker")


class IngestWorker:
    """Works one store's queue; call `run` while holding the store's writer lock."""

    def __init__(self, ws: Workspace, *, parse_workers: int | None = None,
                 on_event: Callable[[Job, str], None] | None = None) -> None:
        self.ws = ws
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.exclusive = not ws.settings.team_store
        """Whether this worker holds the store alone (the embedded store's writer lock)."""
        self.timeout_s = ws.settings.worker_heartbeat_timeout_s
        self.queue = JobQueue(ws.catalog, self.worker_id)
        self.ingestor = Ingestor(ws)
        self.parse_workers = max(1, parse_workers or 1)
        self.on_event = on_event
        self._budgets: list[ParseBudget] = []
        self._broken: set[str] = set()

    def recover(self) -> Reclaimed:
        """Take back the work of workers that died: their half-written documents removed, the jobs they
        were reading requeued (a job interrupted MAX_ATTEMPTS times is failed instead: it may be what
        stopped them), the documents they were embedding adopted. Holding the store alone, every running
        job is such work; on a team store, those of workers silent for the heartbeat timeout."""
        if self.exclusive:
            self.ws.repair()
        got = self.queue.reclaim(None if self.exclusive else self.timeout_s, reembed=self.ws.dense.building)
        pending = {d.doc_id for d in self.ws.catalog.pending_documents()}
        for doc_id in got.orphans:
            if doc_id in pending:
                self.ws.delete(doc_id)
        for job in got.failed:
            log.warning("gave up on %s after %d attempts", job.name, job.attempts)
        for job in got.requeued:
            log.info("requeued %s (its worker stopped while reading it)", job.name)
        for job in got.adopted:
            log.info("adopted %s (its worker stopped while embedding it)", job.name)
        return got

    def run(self, *, until_idle: bool = False, should_stop: Callable[[], bool] = lambda: False,
            poll_s: float = 0.3, parent: int | None = None, idle_exit_s: float | None = None) -> None:
        """Work until told to stop (`should_stop`), until nothing is left (`until_idle`), until the
        `parent` process is gone and nothing is left, or after `idle_exit_s` with nothing to do."""
        self.queue.register(socket.gethostname(), os.getpid())
        stop_beating = threading.Event()
        beating = threading.Thread(target=self._beat, args=(stop_beating,), name="vera-heartbeat", daemon=True)
        beating.start()
        self.recover()
        idle_since = last_look = time.monotonic()
        try:
            while not should_stop():
                if not self.exclusive and time.monotonic() - last_look >= self.timeout_s / 3:
                    self.recover()  # NOTE: another worker may have died since
                    last_look = time.monotonic()
                if self.step():
                    idle_since = time.monotonic()
                    continue
                if until_idle or (parent is not None and not _alive(parent)):
                    return
                if idle_exit_s is not None and time.monotonic() - idle_since >= idle_exit_s:
                    return
                time.sleep(poll_s)
        finally:
            stop_beating.set()
            beating.join(timeout=5)
            for budget in self._budgets:
                budget.close()
            try:
                self.queue.release()
                self.queue.unregister()
            except Exception:  # noqa: BLE001 - a catalog gone at exit: the row only ages out
                log.warning("could not unregister worker %s", self.worker_id)

    def _beat(self, stop: threading.Event) -> None:
        """Say this worker and its jobs are alive, every sixth of the heartbeat timeout."""
        while not stop.wait(max(0.2, self.timeout_s / 6)):
            try:
                self.queue.beat()
            except Exception:  # noqa: BLE001 - a missed beat is retried; six in a row make us dead
                log.warning("heartbeat failed", exc_info=True)

    def step(self) -> bool:
        """One unit of work: the queued files made searchable, else one batch of vectors; False when
        there is nothing to do."""
        self.ws.sync_spaces()  # NOTE: `vera reembed` may have opened a space for this worker's model
        # NOTE: re-embedding jobs only for a worker that loads the model being re-embedded with
        kinds = ("ingest", "delete", "reembed") if self.ws.dense.building else ("ingest", "delete")
        jobs = self.queue.claim(limit=self.parse_workers, kinds=kinds)
        if jobs:
            self._work(jobs)
            return True
        return self._embed_batch()

    # -- stage one: searchable ---------------------------------------------------------------------

    def _work(self, jobs: list[Job]) -> None:
        ingests = []
        for job in jobs:
            if job.kind == "delete":
                self._delete(job)
            elif job.kind == "reembed":  # embedded batch by batch in stage two, as an upload's vectors
                if self.ws.catalog.document(job.doc_id) is None:
                    self._finish(job, "skipped", "skipped")  # deleted since it was queued
                else:
                    self._emit(job.job_id, "embedding")
            else:
                ingests.append(job)
        loaded = [(job, self._load(job)) for job in ingests]
        loaded = [(job, source) for job, source in loaded if source is not None]
        # NOTE: each file is read by a reading process of its own, under the time and memory budget
        budgets = self._parse_budgets(len(loaded))
        for (job, source), budget in zip(loaded, budgets):
            budget.submit(source)
        for (job, source), budget in zip(loaded, budgets):
            traced = {"vera.operation": "ingest", "vera.document_id": source.doc_id,
                      "vera.document_format": source.format, "vera.document_name": source.name}
            try:
                with span("vera.ingest.parse", {**traced, "vera.phase": "parse"}):
                    parsed = budget.result(source)
            except ParseBudgetError as exc:
                self._retry_or_fail(job, exc)
                continue
            except VeraError as exc:
                self._finish(job, "failed", "failed", error=str(exc), error_type=type(exc).__name__)
                continue
            with span("vera.ingest.searchable", {**traced, "vera.phase": "searchable"}):
                self._make_searchable(job, source, parsed)

    def _load(self, job: Job):
        """The job's file, checked (None when the job is finished here: a bad file, or already stored)."""
        try:
            source = load_source(job.path, max_file_mb=self.ws.settings.max_file_mb, name=job.name)
        except VeraError as exc:
            self._finish(job, "failed", "failed", error=str(exc), error_type=type(exc).__name__)
            return None
        self.queue.update(job.job_id, doc_id=source.doc_id)  # NOTE: what to clean up if this worker dies
        if not job.force and self.ingestor.is_present(source.doc_id):  # NOTE: before parsing it
            present = self.ws.catalog.document(source.doc_id)
            if job.doc_kind and present is not None and present.kind != job.doc_kind:  # the kind chosen now
                self.ws.catalog.set_kind(source.doc_id, job.doc_kind)
            self._finish(job, "skipped", "skipped", doc_id=source.doc_id)
            return None
        return source

    def _retry_or_fail(self, job: Job, exc: ParseBudgetError) -> None:
        """A file over its budget is tried once more, after the files queued behind it (a busy machine
        may have slowed it); the second time it fails with the budget's message."""
        if job.attempts < MAX_ATTEMPTS:
            log.warning("%s: %s; queued again", job.name, exc)
            self.queue.retry_later(job.job_id, error=str(exc), error_type=type(exc).__name__)
            return
        self._finish(job, "failed", "failed", error=str(exc), error_type=type(exc).__name__)

    def _make_searchable(self, job: Job, source, parsed) -> None:
        try:
            result = self.ingestor.make_searchable(source, parsed, force=job.force, kind=job.doc_kind)  # skips a duplicate too
        except ParseBudgetError as exc:  # chunking or indexing over the reading budget
            self._retry_or_fail(job, exc)
            return
        except VeraError as exc:
            self._finish(job, "failed", "failed", error=str(exc), error_type=type(exc).__name__)
            return
        except Exception as exc:  # noqa: BLE001 - a bug on one file must not stop the queue
            log.exception("ingesting %s failed", job.name)
            self._finish(job, "failed", "failed", error=f"{job.name!r} could not be ingested: {exc}",
                         error_type=type(exc).__name__)
            return
        if result.status == "skipped":
            self._finish(job, "skipped", "skipped", doc_id=result.doc_id)
            return
        self.queue.searchable(job.job_id, result.doc_id, result.pages, result.chunks)
        self._drop_upload(job)
        self._emit(job.job_id, "searchable")

    def _delete(self, job: Job) -> None:
        doc_id = job.doc_id or job.path
        self.ws.delete(doc_id, forget_access=True)
        self._finish(job, "done", "deleted", doc_id=doc_id)

    def _parse_budgets(self, n: int) -> list[ParseBudget]:
        """`n` reading processes (at most `parse_workers`, reused from step to step), cycled over."""
        settings = self.ws.settings
        while len(self._budgets) < min(max(n, 1), self.parse_workers):
            self._budgets.append(ParseBudget(settings.parse_timeout_s, settings.parse_memory_mb))
        return [self._budgets[i % len(self._budgets)] for i in range(n)]

    # -- stage two: complete -----------------------------------------------------------------------

    def _embed_batch(self) -> bool:
        if self.ws.dense.collection is None:
            return self._not_embedded()
        lacking = self.ws.no_vectors()
        docs = (d for d in self.ws.catalog.documents() if d.doc_id in lacking and d.doc_id not in self._broken)
        if not self.exclusive:  # NOTE: on a team store, the documents of this worker's own jobs, and those
            # no job holds (a worker that loads another model left it searchable only)
            mine = {j.doc_id for j in self.queue.mine()
                    if j.kind == "reembed" or (j.kind == "ingest" and j.stage in ("searchable", "embedding"))}
            held = {j.doc_id for j in self.queue.jobs(active_only=True, limit=100_000)}
            docs = (d for d in docs if d.doc_id in mine or d.doc_id not in held)
        pending = sorted(docs, key=lambda d: (d.ready_at or "", d.name))
        if not pending:
            return False
        doc = pending[0]
        try:
            with span("vera.ingest.embed", {"vera.operation": "ingest", "vera.document_id": doc.doc_id,
                                            "vera.document_format": doc.format, "vera.phase": "embed"}):
                progress = self.ingestor.complete(doc.doc_id, limit=EMBED_BATCH or self.ws.settings.ingest_embed_chunks)
        except Exception as exc:  # noqa: BLE001 - the document stays searchable; the others go on
            log.exception("embedding %s failed", doc.name)
            self._broken.add(doc.doc_id)
            for job in self.queue.jobs(active_only=True):
                if job.doc_id == doc.doc_id:
                    self._finish(job, "failed", "failed", error=f"Embedding {doc.name!r} failed ({exc}); it stays "
                                 "searchable by keywords. Restart the worker to try again.",
                                 error_type=type(exc).__name__)
            return True
        self.queue.progress_of(doc.doc_id, progress.embedded, progress.total)
        if progress.done:
            running = [j for j in self.queue.jobs(active_only=True) if j.doc_id == doc.doc_id]
            self.queue.complete_doc(doc.doc_id)
            for job in running:
                self._emit(job.job_id, "complete")
            if self.ws.dense.building:
                self._switch_when_done()
        return True

    def _not_embedded(self) -> bool:
        """This worker loads another model than the store's: the documents it made searchable stay so,
        their jobs ended with why (no vector of another model is written beside the store's)."""
        reason = self.ws.dense.reason
        waiting = [j for j in self.queue.jobs(active_only=True, limit=1000) if j.kind == "ingest"
                   and j.stage in ("searchable", "embedding") and (self.exclusive or j.worker == self.worker_id)]
        for job in waiting:
            self._finish(job, "done", "searchable", error=f"Searchable by keywords and structure, not embedded: {reason}",
                         error_type="EmbeddingModelError")
        return bool(waiting)

    def _switch_when_done(self) -> None:
        """Once every document is re-embedded, the new vectors become the store's and the old ones are
        deleted; documents added meanwhile (embedded by the old model's workers) are queued first."""
        from vera_core.store.spaces import VectorSpaces
        spaces, collection = VectorSpaces(self.ws.catalog), self.ws.dense.collection
        missing = spaces.missing(collection)
        if missing:
            queued = {j.doc_id for j in self.queue.jobs(active_only=True, limit=100_000) if j.kind == "reembed"}
            names = {d.doc_id: d.name for d in self.ws.catalog.documents()}
            for doc_id in missing:
                if doc_id not in queued:
                    self.queue.enqueue(names.get(doc_id, doc_id), collection, kind="reembed", doc_id=doc_id)
            return
        old = spaces.switch(collection)
        self.ws.refresh_dense()
        if old is not None:
            log.info("every document is re-embedded with %s; the vectors of %s are deleted", self.ws.model, old.model)
            try:
                self.ws.drop_vectors(old.collection)
            except Exception:  # noqa: BLE001 - a collection already gone is what was wanted
                log.warning("could not delete the old vectors %s", old.collection, exc_info=True)

    # -- helpers -----------------------------------------------------------------------------------

    def _finish(self, job: Job, status, stage, **fields) -> None:
        self.queue.finish(job.job_id, status, stage, **fields)
        self._drop_upload(job)
        self._emit(job.job_id, stage)

    def _drop_upload(self, job: Job) -> None:
        if job.owned:
            Path(job.path).unlink(missing_ok=True)

    def _emit(self, job_id: int, event: str) -> None:
        if self.on_event is not None:
            self.on_event(self.queue.get(job_id), event)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by another user
        pass
    return True
