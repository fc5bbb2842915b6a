"""GET /jobs/{job_id}: an ingestion job's stage and progress, for a document the caller may read."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from vera_core.api.deps import Caller, State, not_found
from vera_core.api.schemas import ErrorOut, JobOut
from vera_core.store.jobs import Job

__all__ = ["job_out", "router"]

router = APIRouter()


@router.get("/jobs/{job_id}", response_model=JobOut, responses={404: {"model": ErrorOut}})
async def job(job_id: Annotated[int, Path(ge=1, le=2**62)], who: Caller, state: State) -> JobOut:
    """An ingestion job: its stage and progress."""
    try:
        found = state.queue.get(job_id)
    except IndexError:
        raise not_found("job") from None
    readable = state.access.readable(who)
    if readable is not None and (found.doc_id or "") not in readable:
        raise not_found("job")
    return job_out(found)


def job_out(job: Job) -> JobOut:
    return JobOut(job_id=job.job_id, kind=job.kind, name=job.name, doc_id=job.doc_id, status=job.status,
                  stage=job.stage, progress=job.progress, error=job.error, error_type=job.error_type)
