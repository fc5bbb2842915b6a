"""Where each upload stands (queued, searchable with its embedding progress, complete, failed), and the
store's queue; refreshes itself every second while anything is in progress, and reruns the page when
a document has become searchable or complete (so lists and scopes show it)."""

from __future__ import annotations

import streamlit as st

from components.access import readable
from components.workspace import shared_ingest_desk
from vera_core.ingest.desk import Submission
from vera_core.store.jobs import Job

REFRESH_S = 1.0
SEEN = "vera_jobs_seen"


def ingest_status(submissions: list[Submission], *, key: str, rerun: bool = True) -> None:
    """One line per file of this session; live while any of its jobs is unfinished. With `rerun`, the
    page reruns when one becomes searchable or finishes (lists and scopes show it)."""
    desk = shared_ingest_desk()
    active = any(s.job_id is not None and desk.queue.get(s.job_id).active for s in submissions)
    render = (lambda: _session_lines(submissions, key, rerun))
    (st.fragment(run_every=REFRESH_S)(render) if active else render)()


def queue_status(*, key: str, rerun: bool = True) -> None:
    """The store's unfinished jobs (every session's uploads), live while there are any.

    NOTE: `rerun=False` on the Ask page: a whole-page rerun started from a fragment can take the place
    of the run that carries a question just submitted (the question box's value is delivered once)."""
    desk = shared_ingest_desk()
    if not desk.has_work():
        return
    st.fragment(run_every=REFRESH_S)(lambda: _queue_lines(key, rerun))()


def _session_lines(submissions: list[Submission], key: str, rerun: bool) -> None:
    desk = shared_ingest_desk()
    for sub in submissions:
        if sub.result is not None:
            _result_line(sub)
            continue
        job = desk.queue.get(sub.job_id)
        if job.status == "done":
            st.success(f"{job.name}: ingested ({job.pages} pages, {job.chunks} chunks, {_tables(job)} tables)",
                       icon=":material/check_circle:")
        elif job.status == "skipped":
            st.info(f"{job.name}: already present, not ingested again.", icon=":material/content_copy:")
        elif job.status == "failed":
            st.error(f"{job.name}: {job.error}", icon=":material/error:")
        else:
            st.progress(_share(job), text=f"{job.name}: {job.label}")
        for warning in _warnings(job):
            st.warning(f"{job.name}: {warning}", icon=":material/warning:")
    if rerun:
        _rerun_on_change([s.job_id for s in submissions if s.job_id is not None], key)


def _queue_lines(key: str, rerun: bool) -> None:
    desk = shared_ingest_desk()
    jobs = list(reversed(desk.queue.jobs(active_only=True)))
    pending = desk.ws.searchable_only()
    allowed = readable()
    if allowed is not None:  # NOTE: a signed-in user sees the work on their collections' documents only
        jobs = [j for j in jobs if j.doc_id in allowed]
        pending &= allowed
    if jobs:
        st.caption(f"In progress: {len(jobs)} file(s). Searchable documents answer every question at once; "
                   "semantic search reads them once their vectors are written.")
    for job in jobs:
        st.progress(_share(job), text=f"{job.name}: {job.label}")
    if pending and not jobs:
        st.caption(f"Dense vectors pending for {len(pending)} document(s); the worker resumes them.")
    if rerun:
        _rerun_on_change([j.job_id for j in jobs], key)


def _rerun_on_change(job_ids: list[int], key: str) -> None:
    """Rerun the whole page once a job became searchable or finished since this session last looked."""
    desk = shared_ingest_desk()
    seen: dict[str, tuple] = st.session_state.setdefault(SEEN, {})
    states = {j: (job.searchable_at, job.status) for j, job in ((j, desk.queue.get(j)) for j in job_ids)}
    before = seen.get(key)
    seen[key] = states
    if before is not None and any(before.get(j, (None, "queued")) != s and (s[0] or s[1] not in ("queued", "running"))
                                  for j, s in states.items()):
        st.rerun(scope="app")


def _result_line(sub: Submission) -> None:
    result = sub.result
    if result.status == "skipped":
        st.info(f"{result.name}: already present, not ingested again.", icon=":material/content_copy:")
    else:
        st.error(f"{result.name}: {result.error}", icon=":material/error:")


def _share(job: Job) -> float:
    """Progress as one bar: parsing is the first 20%, embedding the rest."""
    if job.stage in ("queued", "parsing"):
        return 0.05 if job.stage == "parsing" else 0.0
    return min(1.0, 0.2 + 0.8 * job.progress)


def _tables(job: Job) -> int:
    doc = shared_ingest_desk().ws.catalog.document(job.doc_id) if job.doc_id else None
    return doc.table_count if doc else 0


def _warnings(job: Job) -> list[str]:
    doc = shared_ingest_desk().ws.catalog.document(job.doc_id) if job.doc_id and job.searchable_at else None
    return [w["message"] for w in doc.warnings] if doc else []
