"""Shared objects for every session of the app (built once per store, thread-safe)."""

from __future__ import annotations

import threading
from pathlib import Path

import streamlit as st

from vera_core.config import VeraSettings
from vera_core.ingest.service import Ingestor, IngestResult
from vera_core.question_options import QuestionAnswerer
from vera_core.workspace import Workspace

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"
"""The bundled samples, loaded on the first start on an empty store."""


def shared_workspace() -> Workspace:
    """The store named by VERA_* settings; the schema contract is checked here, at app start."""
    return _workspace_at(str(VeraSettings().resolved_data_dir()))


@st.cache_resource(show_spinner=False)
def _workspace_at(data_dir: str) -> Workspace:
    # NOTE: keyed on the store path, so tests (and a changed VERA_DATA_DIR) get their own store
    return Workspace(VeraSettings(data_dir=Path(data_dir)))


def shared_answerer() -> QuestionAnswerer:
    """The question answerer of the shared workspace, warmed up (model and keyword indexes loaded)."""
    return _answerer_for(str(shared_workspace().data_dir))


@st.cache_resource(show_spinner=False)
def _answerer_for(data_dir: str) -> QuestionAnswerer:
    answerer = QuestionAnswerer(_workspace_at(data_dir))
    answerer.warm_up()
    return answerer


class IngestDesk:
    """The store's single writer: one Ingestor behind a lock, shared by every session."""

    def __init__(self, ws: Workspace) -> None:
        self.ingestor = Ingestor(ws)
        self.lock = threading.Lock()

    def ingest(self, name: str, data: bytes, on_stage=None) -> IngestResult:
        """Ingest uploaded bytes; a VeraError comes back as a `failed` result with its message."""
        with self.lock:
            return self.ingestor.ingest_file(name, data=data, name=name, on_stage=on_stage)

    def ingest_path(self, path: Path) -> IngestResult:
        """Ingest a file on disk (the bundled samples)."""
        with self.lock:
            return self.ingestor.ingest_file(path)


def shared_ingest_desk() -> IngestDesk:
    return _desk_for(str(shared_workspace().data_dir))


@st.cache_resource(show_spinner=False)
def _desk_for(data_dir: str) -> IngestDesk:
    return IngestDesk(_workspace_at(data_dir))


def load_samples_once() -> list[IngestResult]:
    """On the first start on an empty store, ingest the bundled samples (once per store and process).
    Returns the results ([] when the store already had documents)."""
    return _samples_for(str(shared_workspace().data_dir))


@st.cache_resource(show_spinner=False)
def _samples_for(data_dir: str) -> list[IngestResult]:
    ws = _workspace_at(data_dir)
    if ws.catalog.documents() or not SAMPLES.is_dir():
        return []
    desk = _desk_for(data_dir)
    return [desk.ingest_path(path) for path in sorted(SAMPLES.iterdir()) if path.suffix.lower() in (".pdf", ".md")]
