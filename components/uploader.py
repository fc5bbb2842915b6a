"""Upload PDFs and Markdown files: a progress bar per file with its ingestion stage; a duplicate is
reported as already present, a bad file shows its VeraError message and the others still go in."""

from __future__ import annotations

import streamlit as st

from components.workspace import shared_ingest_desk
from vera_core.ingest.service import STAGES, IngestResult

STAGE_PROGRESS = {stage: i / len(STAGES) for i, stage in enumerate(STAGES)}
RESULTS = "vera_upload_results"
DONE = "vera_uploaded_ids"


def report(result: IngestResult) -> None:
    """One line per file: ingested, already present, or the error message."""
    if result.status == "ingested":
        st.success(f"{result.name}: ingested ({result.pages} pages, {result.chunks} chunks, {result.tables} tables)",
                   icon=":material/check_circle:")
    elif result.status == "skipped":
        st.info(f"{result.name}: already present, not ingested again.", icon=":material/content_copy:")
    else:
        st.error(f"{result.name}: {result.error}", icon=":material/error:")


def uploader(key: str, *, compact: bool = False) -> list[IngestResult]:
    """The file input; ingests each newly chosen file once and reports every result of this session."""
    files = st.file_uploader("Add PDF or Markdown files" if not compact else "Add documents",
                             type=["pdf", "md", "markdown"], accept_multiple_files=True, key=key,
                             label_visibility="collapsed" if compact else "visible")
    done: set[str] = st.session_state.setdefault(DONE, set())
    results: list[IngestResult] = st.session_state.setdefault(RESULTS, [])
    fresh = [f for f in files or [] if f.file_id not in done]
    if fresh:
        desk = shared_ingest_desk()
        bars = [st.progress(0.0, text=f"{upload.name}: waiting") for upload in fresh]
        for upload, bar in zip(fresh, bars):
            def on_stage(stage: str, bar=bar, name=upload.name) -> None:
                bar.progress(STAGE_PROGRESS.get(stage, 0.0), text=f"{name}: {stage}")

            result = desk.ingest(upload.name, upload.getvalue(), on_stage=on_stage)
            bar.progress(1.0, text=f"{upload.name}: {'done' if result.status != 'failed' else 'failed'}")
            done.add(upload.file_id)
            results.append(result)
    for result in results[-10:]:
        report(result)
    return results
