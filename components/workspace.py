"""Shared objects for every session of the app (built once per store, thread-safe)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import streamlit as st

from vera_core.config import VeraSettings
from vera_core.ingest.desk import IngestDesk
from vera_core.question_options import QuestionAnswerer
from vera_core.store.jobs import Job
from vera_core.workspace import Workspace

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"
"""The bundled samples, loaded on the first start on an empty store."""
SAMPLES_WAIT_S = 240.0
"""How long the first start waits for the samples to become searchable."""


def shared_workspace() -> Workspace:
    """The store named by VERA_* settings; the schema contract is checked here, at app start."""
    return _workspace_at(str(VeraSettings().resolved_data_dir()))


@st.cache_resource(show_spinner=False)
def _workspace_at(data_dir: str) -> Workspace:
    # NOTE: keyed on the store path, so tests (and a changed VERA_DATA_DIR) get their own store
    return Workspace(VeraSettings(data_dir=Path(data_dir)))


def shared_answerer() -> QuestionAnswerer:
    """The question answerer of the shared workspace, warmed up (the embedding model loaded)."""
    return _answerer_for(str(shared_workspace().data_dir))


def session_answerer(readable: frozenset[str] | None) -> QuestionAnswerer:
    """The answerer for a session that reads `readable` (None: everything, the shared answerer)."""
    shared = shared_answerer()
    return shared if readable is None else _scoped_answerer(str(shared.ws.data_dir), readable)


@st.cache_resource(show_spinner=False, max_entries=64)
def _scoped_answerer(data_dir: str, readable: frozenset[str]) -> QuestionAnswerer:
    from vera_core.access.scope import scoped
    return QuestionAnswerer(scoped(_workspace_at(data_dir), readable))


WARM_UP_DELAY_S = 0.5
"""The background warm-up starts after the first page had time to draw (importing torch and loading
the model in parallel slowed the first page by ~2 s)."""
QUERY_THREADS = 1
"""Torch threads of the app process: it only embeds questions and claims (ingestion runs in the
worker). One thread each lets two sessions embed at once on two cores instead of four threads
spinning for two cores (measured: 4 sessions' P95 2.7 s -> 1.6 s, one session's unchanged)."""


@st.cache_resource(show_spinner=False)
def _answerer_for(data_dir: str) -> QuestionAnswerer:
    answerer = QuestionAnswerer(_workspace_at(data_dir))
    # NOTE: the first page does not wait for torch, the model (~5 s to import and load here) or the
    # documents' indexes: they load in the background; a question asked earlier loads what it needs
    warm = threading.Timer(WARM_UP_DELAY_S, _warm_up, args=(answerer,))
    warm.daemon = True
    warm.start()
    return answerer


def _warm_up(answerer: QuestionAnswerer) -> None:
    import torch
    torch.set_num_threads(QUERY_THREADS)
    answerer.warm_up(documents=True)


def shared_ingest_desk() -> IngestDesk:
    """The store's ingestion desk: uploads and deletes go to the background worker's queue."""
    return _desk_for(str(shared_workspace().data_dir))


@st.cache_resource(show_spinner=False)
def _desk_for(data_dir: str) -> IngestDesk:
    return IngestDesk(_workspace_at(data_dir))


def load_samples_once() -> list[Job]:
    """On the first start on an empty store, queue the bundled samples (once per store and process)
    and wait until they are searchable; their vectors follow in the background. Returns their jobs
    ([] when the store already had documents)."""
    return _samples_for(str(shared_workspace().data_dir))


@st.cache_resource(show_spinner=False)
def _samples_for(data_dir: str) -> list[Job]:
    ws = _workspace_at(data_dir)
    if ws.catalog.documents() or not SAMPLES.is_dir():
        return []
    desk = _desk_for(data_dir)
    submitted = [desk.submit_path(path) for path in sorted(SAMPLES.iterdir()) if path.suffix.lower() in (".pdf", ".md")]
    ids = [s.job_id for s in submitted if s.job_id is not None]
    deadline = time.monotonic() + SAMPLES_WAIT_S
    while time.monotonic() < deadline:
        jobs = [desk.queue.get(i) for i in ids]
        if all(j.searchable_at or not j.active for j in jobs):
            return jobs
        desk.ensure_worker()
        time.sleep(0.2)
    return [desk.queue.get(i) for i in ids]
