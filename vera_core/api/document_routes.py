"""The documents the caller may read: listed, described, deleted, their pages rendered, and a file uploaded."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, File, Form, Path, Query, Request, UploadFile
from fastapi.responses import JSONResponse, Response

from vera_core.api.deps import ApiError, Caller, State, not_found
from vera_core.api.job_routes import job_out
from vera_core.api.pages import boxes, page_png
from vera_core.api.schemas import DocumentOut, ErrorOut, UploadOut
from vera_core.documents.identity import Identity
from vera_core.errors import FileTooLargeError, UnsupportedFormatError, VeraError
from vera_core.ingest.source import document_name, load_source
from vera_core.store.access import AccessStore, Principal

__all__ = ["router"]

router = APIRouter()


@router.get("/documents", response_model=list[DocumentOut])
async def documents(who: Caller, state: State, kind: str | None = None, format: str | None = None) -> list[DocumentOut]:
    """The documents the token may read."""
    members = _memberships(state.access, who)
    return [_document_out(d, members) for d in state.view(who).catalog.documents()
            if (kind is None or d.kind == kind) and (format is None or d.format == format)]


@router.get("/documents/{doc_id}", response_model=DocumentOut, responses={404: {"model": ErrorOut}})
async def document(doc_id: str, who: Caller, state: State) -> DocumentOut:
    """A document's stage, counts and warnings."""
    doc = state.view(who).catalog.document(doc_id)
    if doc is None:
        raise not_found("document")
    return _document_out(doc, _memberships(state.access, who))


@router.delete("/documents/{doc_id}", responses={404: {"model": ErrorOut}})
async def delete(doc_id: str, who: Caller, state: State) -> dict:
    """Remove a document from the store (every collection)."""
    if state.view(who).catalog.document(doc_id) is None:
        raise not_found("document")
    if not state.access.withdraw(who, doc_id):
        return {"doc_id": doc_id, "status": "removed from your collections"}
    now = await state.bounded(state.desk.delete, doc_id)
    return {"doc_id": doc_id, "status": "deleted" if now else "queued for the worker"}


@router.get("/documents/{doc_id}/pages/{page}.png", response_class=Response,
            responses={200: {"content": {"image/png": {}}}, 404: {"model": ErrorOut}})
async def page(doc_id: str, page: Annotated[int, Path(ge=1, le=100_000)], who: Caller, state: State,
               highlight: Annotated[str | None, Query(description="Boxes x0,y0,x1,y1 in PDF points, `;` between")] = None
               ) -> Response:
    """A page of a PDF as PNG, with the given boxes highlighted."""
    return Response(await state.bounded(page_png, state.view(who), doc_id, page, boxes(highlight, page)),
                    media_type="image/png")


@router.post("/documents", status_code=202, response_model=UploadOut,
             responses={400: {"model": ErrorOut}, 413: {"model": ErrorOut}, 415: {"model": ErrorOut}})
async def upload(request: Request, who: Caller, state: State, file: Annotated[UploadFile, File()],
                 collection: Annotated[str | None, Form()] = None,
                 kind: Annotated[Literal["", "filing", "policy", "contract", "other"], Form()] = ""
                 ) -> JSONResponse:
    """Upload a PDF or Markdown file: checked at once, queued for a worker; answers with its job."""
    settings = state.ws.settings
    target = _collection_for(state.access, who, collection)
    data = await _read_capped(file, state.max_bytes, settings.max_file_mb)
    name = document_name(file.filename)  # NOTE: the base name sent, cleaned and capped: never a path
    try:
        doc_id = load_source(name, max_file_mb=settings.max_file_mb, data=data, name=name).doc_id
    except UnsupportedFormatError as exc:
        raise ApiError(415, str(exc), "file") from None
    except FileTooLargeError as exc:
        raise ApiError(413, str(exc), "file") from None
    except VeraError as exc:
        raise ApiError(400, str(exc), "file") from None
    readable = state.access.readable(who)
    foreign = readable is not None and doc_id not in readable and state.ws.catalog.document(doc_id) is not None
    # NOTE: the kind of a document others hold is theirs to set
    submitted = await state.bounded(lambda: state.desk.submit(name, data, kind="" if foreign else kind))
    if submitted.result is not None and submitted.result.status == "failed":
        raise ApiError(400, submitted.result.error, "file")
    if target is not None:
        state.access.add_documents(target, [doc_id], joined="shared" if foreign else
                                   "ingested" if submitted.job_id is not None else "added")
    if submitted.job_id is None:
        out = UploadOut(status="already present", doc_id=doc_id, collection=target)
        return JSONResponse(out.model_dump(), status_code=200)
    state.queue.update(submitted.job_id, doc_id=doc_id)
    return JSONResponse(UploadOut(status="queued", doc_id=doc_id, job=job_out(state.queue.get(submitted.job_id)),
                                  collection=target).model_dump(), status_code=202)


async def _read_capped(file: UploadFile, max_bytes: int, max_mb: float) -> bytes:
    """The upload's bytes, refused (413) as soon as they pass the limit: never read whole first."""
    if file.size is not None and file.size > max_bytes:
        raise ApiError(413, f"{file.filename!r} is over the {max_mb:g} MiB limit (VERA_MAX_FILE_MB).", "file")
    parts, total = [], 0
    while chunk := await file.read(1 << 20):
        total += len(chunk)
        if total > max_bytes:
            raise ApiError(413, f"{file.filename!r} is over the {max_mb:g} MiB limit (VERA_MAX_FILE_MB).", "file")
        parts.append(chunk)
    return b"".join(parts)


def _collection_for(access: AccessStore, who: Principal, asked: str | None) -> str | None:
    """The collection an upload joins: the one asked (which the token must read), or the token's only
    one; none on an open store unless asked."""
    if who.everything:
        if asked and asked not in access.collections():
            raise ApiError(400, f"No collection {asked!r}: create it with `vera collections create {asked}`.",
                           "collection")
        return asked or None
    if asked:
        if asked not in who.collections:
            raise ApiError(403, f"Your token may not add to the collection {asked!r}.", "collection")
        return asked
    if len(who.collections) == 1:
        return next(iter(who.collections))
    raise ApiError(400, f"Name the collection the file joins: one of {', '.join(sorted(who.collections))}.",
                   "collection")


def _memberships(access: AccessStore, who: Principal) -> dict[str, list[str]]:
    """Each document's collections, of those the caller reads (no other collection is named)."""
    members: dict[str, list[str]] = {}
    for name, doc_ids in access.collections().items():
        if not who.everything and name not in who.collections:
            continue
        for doc_id in doc_ids:
            members.setdefault(doc_id, []).append(name)
    return members


def _document_out(doc, members: dict[str, list[str]]) -> DocumentOut:
    return DocumentOut(doc_id=doc.doc_id, name=doc.name, format=doc.format, kind=doc.kind, pages=doc.pages,
                       chunks=doc.chunk_count, tables=doc.table_count, stage=doc.stage,
                       warnings=[w["message"] for w in doc.warnings], collections=members.get(doc.doc_id, []),
                       **_identity_fields(doc.identity))


def _identity_fields(identity: dict) -> dict:
    """A document's type and period as `DocumentOut` carries them ({} for a store read before identities)."""
    if not identity:
        return {}
    read = Identity.from_dict(identity)
    return {"doc_type": read.doc_type, "company": read.company, "fiscal_year": read.fiscal_year,
            "fiscal_quarter": read.fiscal_quarter, "quarter": read.quarter, "period_end": read.period_end,
            "identity_basis": dict(read.basis)}
