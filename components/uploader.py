"""Upload PDFs and Markdown files: each is checked at once (a bad file shows its VeraError, a duplicate
is reported as already present) and queued for the background worker, so the page never waits; the
status below follows each file from queued to searchable to complete, refreshing itself."""

from __future__ import annotations

import streamlit as st

from components.access import readable, upload_collection
from vera_core.store.access import AccessStore
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
            doc_id, foreign = _owner_check(desk, upload.name, data) if target is not None else (None, False)
            # NOTE: the kind of a document others hold is theirs to set
            sub = desk.submit(upload.name, data, kind="" if kind == "detect" or foreign else kind)
            if doc_id and (sub.job_id is not None or sub.result.status == "skipped"):
                AccessStore(desk.ws.catalog).add_documents(target, [doc_id], joined="shared" if foreign else
                                                           "ingested" if sub.job_id is not None else "added")
                if sub.job_id is not None:
                    desk.queue.update(sub.job_id, doc_id=doc_id)
            submitted.append(sub)
            done.add(upload.file_id)
    ingest_status(submitted[-10:], key=key, rerun=rerun)
    return submitted



def _owner_check(desk, name: str, data: bytes) -> tuple[str | None, bool]:
    """(the upload's document id, whether the store already holds it for collections this session does
    not read); (None, False) for a file that will fail its checks."""
    from vera_core.errors import VeraError
    from vera_core.ingest.source import load_source
    try:
        doc_id = load_source(name, max_file_mb=desk.ws.settings.max_file_mb, data=data, name=name).doc_id
    except VeraError:
        return None, False
    allowed = readable()
    return doc_id, allowed is not None and doc_id not in allowed and desk.ws.catalog.document(doc_id) is not None
