"""The app's way into the ingestion queue: an upload is checked at once (format, size, duplicate: the
answer the user needs now), then queued for the background worker, which the desk starts when there is
work and none runs. Deletes go to the worker too when it runs (it is the store's one writer)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from vera_core.documents.identity import Identity, check_identity_fields, stored_identity, with_user_fields
from vera_core.documents.kinds import KIND_CHUNKS, KINDS, stored_kind
from vera_core.errors import VeraError
from vera_core.ingest.source import SourceFile, document_name, load_source
from vera_core.ingest.worker_process import start_worker_process, store_lock, worker_running
from vera_core.store.jobs import JobQueue
from vera_core.workspace import Workspace

if TYPE_CHECKING:
    from vera_core.ingest.service import IngestResult

__all__ = ["IDLE_EXIT_S", "IngestDesk", "Submission"]

WORKER_THREADS = 1
"""The app's worker embeds on one core and leaves the other to the questions asked meanwhile (two
embedding processes made a question's claim embedding ~10x slower: 28 -> 280 ms, measured)."""
IDLE_EXIT_S = 120.0
"""A worker the app started stops after this long with nothing to do (the next upload starts one)."""


@dataclass(frozen=True)
class Submission:
    """What became of one file handed to the desk."""

    name: str
    job_id: int | None = None
    """The queued job, when the file was queued."""
    result: IngestResult | None = None
    """The outcome known at once: `failed` (a bad file) or `skipped` (already in the store)."""


class IngestDesk:
    """Queues uploads and deletes for one store's worker; thread-safe (each call is its own transaction)."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.queue = JobQueue(ws.catalog)

    def submit(self, name: str, data: bytes, *, kind: str = "") -> Submission:
        """Check an upload and queue it; a bad file or a duplicate is answered at once. `kind`: the
        document kind the user chose ('' : read it from the document). The document is named by the base
        name of `name`, cleaned and capped (`document_name`)."""
        name = document_name(name)
        known = self._check(name, lambda: load_source(name, max_file_mb=self.ws.settings.max_file_mb, data=data,
                                                      name=name), kind=kind)
        if known is not None:
            return known
        job_id = self.queue.enqueue(name, str(self._stage(name, data)), owned=True, doc_kind=kind)
        self.ensure_worker()
        return Submission(name, job_id=job_id)

    def _stage(self, name: str, data: bytes) -> Path:
        """A copy of a file in the uploads folder, where every worker of the store can read it, under a name of
        its own (the job keeps the document's name)."""
        path = self.ws.uploads_dir / f"{uuid.uuid4().hex}{Path(name).suffix.lower()}"
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        return path

    def submit_path(self, path: Path, *, force: bool = False, start_worker: bool = True, kind: str = "") -> Submission:
        """Check a file on disk and queue it (the file stays where it is); `start_worker=False` when
        the caller works the queue itself (`vera ingest`). On a team store the file is copied to the
        uploads folder first: any worker, on any host, may take the job."""
        known = self._check(path.name, lambda: load_source(path, max_file_mb=self.ws.settings.max_file_mb), force,
                            kind=kind)
        if known is not None:
            return known
        if self.ws.settings.team_store:
            job_id = self.queue.enqueue(path.name, str(self._stage(path.name, path.read_bytes())), force=force,
                                        owned=True, doc_kind=kind)
        else:
            job_id = self.queue.enqueue(path.name, str(path.resolve()), force=force, doc_kind=kind)
        if start_worker:
            self.ensure_worker()
        return Submission(path.name, job_id=job_id)

    def _check(self, name: str, load: Callable[[], SourceFile], force: bool = False,
               kind: str = "") -> Submission | None:
        """The outcome known before queueing: a bad file (`failed`) or, unless `force`, the same bytes
        already in the store (`skipped`: the kind chosen, if any, is recorded on it); None when the
        file is to be queued."""
        # NOTE: imported here, not with the module: the ingestion pipeline (llama-index) takes seconds
        # to import, and every page run of the app asks the desk about the worker
        from vera_core.ingest.service import IngestResult, Ingestor
        try:
            source = load()
        except VeraError as exc:
            return Submission(name, result=IngestResult(name, "failed", error=str(exc), error_type=type(exc).__name__))
        if not force and Ingestor.present(self.ws, source.doc_id):
            if kind:
                self.set_kind(source.doc_id, kind)
            return Submission(name, result=IngestResult(name, "skipped", doc_id=source.doc_id))
        return None

    def set_kind(self, doc_id: str, kind: str) -> None:
        """Record the kind the user chose for a document (a catalog row only: no writer lock needed)."""
        if kind not in KINDS:
            raise VeraError(f"{kind!r} is not a document kind; choose one of {', '.join(KINDS)}.")
        self.ws.catalog.set_kind(doc_id, kind)

    def set_identity(self, doc_id: str, **fields) -> Identity:
        """Record the user's corrections to what a document is and when (a catalog row only); `detect`
        reads it from the document again, forgetting earlier corrections."""
        doc = self.ws.catalog.document(doc_id)
        if doc is None:
            raise VeraError(f"No document {doc_id!r} in this store.")
        detect = fields.pop("detect", False)
        checked = check_identity_fields(**fields)
        chunks = lambda: self.ws.catalog.first_chunks(doc_id, KIND_CHUNKS)  # noqa: E731
        kind = stored_kind(doc, chunks)
        current = stored_identity(replace(doc, identity={}) if detect else doc, chunks, kind)
        identity = with_user_fields(current, **checked)
        self.ws.catalog.set_identity(doc_id, identity.to_dict())
        return identity

    def delete(self, doc_id: str) -> bool:
        """Delete a document now when no worker runs (True), else queue the delete for it (False)."""
        with store_lock(self.ws.settings) as mine:
            if mine:
                self.ws.sync()
                self.ws.delete(doc_id, forget_access=True)
                return True
        doc = self.ws.catalog.document(doc_id)
        self.queue.enqueue(doc.name if doc else doc_id, doc_id, kind="delete", doc_id=doc_id)
        self.ensure_worker()
        return False

    def has_work(self) -> bool:
        """Queued or running jobs, or documents whose vectors are not all written."""
        return bool(self.queue.jobs(active_only=True, limit=1)) or bool(self.ws.searchable_only())

    def ensure_worker(self) -> bool:
        """Start the store's worker when there is work and none runs; True when one was started."""
        if not self.has_work() or worker_running(self.ws.data_dir):
            return False
        if self.ws.settings.team_store and self.queue.live_workers(self.ws.settings.worker_heartbeat_timeout_s):
            return False  # NOTE: a team store's workers may run on other hosts; one alive anywhere will do
        return start_worker_process(self.ws.settings, parent=os.getpid(), idle_exit_s=IDLE_EXIT_S,
                                    threads=WORKER_THREADS) is not None
