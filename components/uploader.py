"""Upload PDFs and Markdown files: each is checked at once (a bad file shows its VeraError, a duplicate
is reported as already present) and queued for the background worker, so the page never waits; the
status below follows each file from queued to searchable to complete, refreshing itself."""

from __future__ import annotations

import streamlit as st

from components.access import upload_collection
from components.ingest_status import ingest_status
from components.workspace import shared_ingest_desk
from vera_core.documents.kinds import KINDS
from vera_core.ingest.desk import Submission

SUBMITTED = "vera_submissions"
DONE = "vera_uploaded_ids"


def uploader(key: str, *, compact: bool = False, rerun: bool = True) -> list[Submission]:
    """The file input; queues each newly chosen file once and shows every file of this session."""
    files = st.file_uploader("Add PDF or Markdown files" if not compact else "Add documents",
                             type=["pdf", "md", "markdown"], accept_multiple_files=True, key=key,
                             label_visibility="collapsed" if compact else "visible")
    kind = "" if compact else st.selectbox(
        "Kind of these documents", ["detect", *KINDS], key=f"{key}_kind",
        format_func=lambda k: "Read it from each document" if k == "detect" else k,
        help="VERA reads each document's kind from its title, front matter, headings and wording; choose one "
             "to set it for the files you add now.")
    done: set[str] = st.session_state.setdefault(DONE, set())
    submitted: list[Submission] = st.session_state.setdefault(SUBMITTED, [])
    fresh = [f for f in files or [] if f.file_id not in done]
    if fresh:
        desk = shared_ingest_desk()
        target = upload_collection()
        for upload in fresh:
            data = upload.getvalue()
            sub = desk.submit(upload.name, data, kind="" if kind == "detect" else kind)
            if target is not None and (sub.job_id is not None or sub.result.status == "skipped"):
                _join(desk, target, upload.name, data, sub)
            submitted.append(sub)
            done.add(upload.file_id)
    ingest_status(submitted[-10:], key=key, rerun=rerun)
    return submitted


def _join(desk, collection: str, name: str, data: bytes, sub: Submission) -> None:
    """An upload of a signed-in user joins their collection (so they, and only its readers, see it)."""
    from vera_core.access.store import AccessStore
    from vera_core.ingest.source import load_source
    doc_id = load_source(name, max_file_mb=desk.ws.settings.max_file_mb, data=data, name=name).doc_id
    AccessStore(desk.ws.catalog).add_documents(collection, [doc_id])
    if sub.job_id is not None:
        desk.queue.update(sub.job_id, doc_id=doc_id)
