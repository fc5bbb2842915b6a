"""The HTTP API: FastAPI over one store's workspace.

Every request is identified by its token (`Authorization: Bearer ...`; none needed on a store without
users) and sees the store through `access.scope.scoped`: a document outside the token's collections is
answered 404, as one that does not exist, whether asked by id, named in a question or reached through a
job, a page or an export."""


import asyncio
import base64
import io
import logging
import math
import threading
import time
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, File, Form, Header, Path, Query, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from vera_core.documents.identity import Identity
from vera_core.access.scope import scoped
from vera_core.store.access import AccessError, AccessStore, Principal
from vera_core.answer.evidence_rows import to_csv
from vera_core.api.schemas import (CitationOut, DocumentOut, ErrorOut, Filters, JobOut, QueryRequest, QueryResponse,
                                   Source, UploadOut)
from vera_core.documents.filters import NothingMatches
from vera_core.errors import FileTooLargeError, UnsupportedFormatError, VeraError
from vera_core.ingest.desk import IngestDesk
from vera_core.ingest.source import document_name, load_source
from vera_core.query import QueryEngine
from vera_core.render import Highlight, render_page
from vera_core.records import Rect
from vera_core.store.jobs import Job, JobQueue
from vera_core.telemetry import span
from vera_core.workspace import Workspace

log = logging.getLogger("vera.api")
MIB = 1024 * 1024


class ApiError(Exception):
    def __init__(self, status: int, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.field = status, message, field


PUBLIC_PATHS = ("/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc")
"""What anyone may read: the API's description."""
JSON_BODY_LIMIT = 64 * 1024
"""Largest JSON body (a question and its filters)."""


def _bearer(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None for any other (Basic, a bare token)."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


def _not_found(what: str) -> ApiError:
    return ApiError(404, f"No {what} here, or not one your token may read.")


def create_app(ws: Workspace, *, timeout_s: float = 60.0) -> FastAPI:
    """The API over `ws`; a request longer than `timeout_s` is cut off with 504 (nothing is written
    half: a question writes nothing, an upload's job is queued in one transaction)."""
    app = FastAPI(title="VERA", version="1", description="Evidence-grounded answers over filings, contracts and "
                  "policies: every claim cited, every figure checked.")
    access = AccessStore(ws.catalog)
    desk = IngestDesk(ws)
    queue = JobQueue(ws.catalog)
    engines: dict[frozenset | None, QueryEngine] = {}
    engines_lock = threading.Lock()
    max_bytes = int(ws.settings.max_file_mb * MIB)

    @app.exception_handler(ApiError)
    async def _api_error(_request, exc: ApiError):
        return JSONResponse(ErrorOut(error=exc.message, field=exc.field).model_dump(), status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request, exc: StarletteHTTPException):
        message = {404: "No such endpoint: see /openapi.json.", 405: "This endpoint does not take that method."}.get(
            exc.status_code, str(exc.detail))
        return JSONResponse(ErrorOut(error=message, field=None).model_dump(), status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        kind = first.get("type", "")
        where = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path", "header")]
        field = "body" if kind == "json_invalid" else ".".join(where) or "body"
        message = ("The request body is not valid JSON." if kind == "json_invalid"
                   else f"{field}: {first.get('msg', 'invalid')}")
        return JSONResponse(ErrorOut(error=message, field=field).model_dump(), status_code=400)

    @app.middleware("http")
    async def _traced(request: Request, call_next):
        started = time.perf_counter()
        with span("vera.api.request", {"vera.operation": "api", "http.method": request.method,
                                       "http.target": request.url.path}) as current:
            if request.url.path not in PUBLIC_PATHS:  # NOTE: who is asking, before any body is read
                try:
                    access.authenticate(_bearer(request.headers.get("authorization")))
                except AccessError as exc:
                    response = JSONResponse(ErrorOut(error=str(exc), field="Authorization").model_dump(),
                                            status_code=401)
                    current.set_attribute("http.status_code", 401)
                    return response
            response = await call_next(request)
            current.set_attribute("http.status_code", response.status_code)
        log.info("%s %s %s", request.method, request.url.path, response.status_code,
                 extra={"vera.operation": "api", "http.status_code": response.status_code,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 1)})
        return response

    def principal(authorization: Annotated[str | None, Header()] = None) -> Principal:
        try:
            return access.authenticate(_bearer(authorization))
        except AccessError as exc:
            raise ApiError(401, str(exc), "Authorization") from None

    Caller = Annotated[Principal, Depends(principal)]

    def view(who: Principal) -> Workspace:
        return scoped(ws, access.readable(who))

    def engine_for(who: Principal) -> QueryEngine:
        readable = access.readable(who)
        with engines_lock:
            engine = engines.get(readable)
            if engine is None:
                engine = engines[readable] = QueryEngine(scoped(ws, readable))
                if len(engines) > 64:
                    engines.pop(next(iter(engines)))
        return engine

    async def bounded(call, *args):
        try:
            return await asyncio.wait_for(run_in_threadpool(call, *args), timeout=timeout_s)
        except TimeoutError:
            raise ApiError(504, f"The request took longer than {timeout_s:g} s and was cut off; nothing was "
                                "written. Narrow it (filters.doc_ids) or ask again.") from None

    def scope_of(seen: Workspace, filters: Filters) -> list[str]:
        docs = seen.catalog.documents()
        if filters.doc_ids:
            unknown = [d for d in filters.doc_ids if seen.catalog.document(d) is None]
            if unknown:
                raise ApiError(404, f"{len(unknown)} of the documents in filters.doc_ids are not here, or not ones "
                                    "your token may read.", "filters.doc_ids")
            docs = [d for d in docs if d.doc_id in filters.doc_ids]
        if filters.kinds:
            docs = [d for d in docs if d.kind in filters.kinds]
        if filters.format:
            docs = [d for d in docs if d.format == filters.format]
        if filters.fiscal_period:
            wanted = filters.fiscal_period.lower().removeprefix("fy")
            docs = [d for d in docs if wanted in d.name.lower() or any(
                f.fact_name == "reporting_period" and wanted in str(f.value).lower() for f in seen.catalog.facts(d.doc_id))]
        return [d.doc_id for d in docs]

    def answer(who: Principal, body: QueryRequest):
        engine = engine_for(who)
        docs = scope_of(engine.ws, body.filters)
        filtered = body.filters != Filters()
        if not docs and (filtered or not engine.ws.catalog.documents()):
            raise ApiError(404, "No document you may read matches the filters.", "filters")
        try:
            library = body.filters.library()
        except VeraError as exc:
            field = next((f"filters.{f}" for f in ("quarter", "segment") if f in str(exc)), "filters")
            raise ApiError(400, str(exc), field) from exc
        try:
            return engine.answer(body.question, docs=docs if filtered else (), mode=body.mode, top_k=body.top_k,
                                 filters=library or None)
        except NothingMatches as exc:  # NOTE: a filter that leaves nothing says which, and what would widen it
            raise ApiError(404, str(exc), "filters") from exc

    @app.post("/query", response_model=QueryResponse, responses={400: {"model": ErrorOut}, 401: {"model": ErrorOut},
                                                                 404: {"model": ErrorOut}, 504: {"model": ErrorOut}})
    async def query(body: QueryRequest, who: Caller) -> QueryResponse:
        """Answer a question over the documents the token may read (narrowed by `filters`)."""
        result = await bounded(answer, who, body)
        seen = view(who)
        citations = []
        for cite in result.citations:
            out = CitationOut(**cite.model_dump())
            if cite.page is not None:
                boxes = ";".join(f"{p.x0:.1f},{p.y0:.1f},{p.x1:.1f},{p.y1:.1f}" for p in cite.polygons if p.page == cite.page)
                out.image_url = f"/documents/{cite.doc_id}/pages/{cite.page}.png" + (f"?highlight={boxes}" if boxes else "")
                if body.include_images:
                    png = await bounded(_page_png, seen, cite.doc_id, cite.page, _boxes(boxes, cite.page))
                    out.image_png_base64 = base64.b64encode(png).decode("ascii")
            citations.append(out)
        cited = dict.fromkeys(c.doc_id for c in result.citations)
        sources = [Source(doc_id=d.doc_id, name=d.name, kind=d.kind, format=d.format, pages=d.pages)
                   for d in (seen.catalog.document(i) for i in cited) if d is not None]
        return QueryResponse(answer=result.answer, citations=citations, sources=sources,
                             verification=result.verification, vera=result)

    @app.post("/export", response_class=Response, responses={200: {"content": {"text/csv": {}}}})
    async def export(body: QueryRequest, who: Caller) -> Response:
        """The answer's evidence rows as CSV (the columns of `vera export`)."""
        result = await bounded(answer, who, body)
        return Response(to_csv([result]), media_type="text/csv",
                        headers={"Content-Disposition": 'attachment; filename="vera-evidence.csv"'})

    @app.get("/documents", response_model=list[DocumentOut])
    async def documents(who: Caller, kind: str | None = None, format: str | None = None) -> list[DocumentOut]:
        """The documents the token may read."""
        seen = view(who)
        members = _memberships(access, who)
        return [_document_out(d, members) for d in seen.catalog.documents()
                if (kind is None or d.kind == kind) and (format is None or d.format == format)]

    @app.get("/documents/{doc_id}", response_model=DocumentOut, responses={404: {"model": ErrorOut}})
    async def document(doc_id: str, who: Caller) -> DocumentOut:
        """A document's stage, counts and warnings."""
        doc = view(who).catalog.document(doc_id)
        if doc is None:
            raise _not_found("document")
        return _document_out(doc, _memberships(access, who))

    @app.delete("/documents/{doc_id}", responses={404: {"model": ErrorOut}})
    async def delete(doc_id: str, who: Caller) -> dict:
        """Remove a document from the store (every collection)."""
        if view(who).catalog.document(doc_id) is None:
            raise _not_found("document")
        if not access.withdraw(who, doc_id):
            return {"doc_id": doc_id, "status": "removed from your collections"}
        now = await bounded(desk.delete, doc_id)
        return {"doc_id": doc_id, "status": "deleted" if now else "queued for the worker"}

    @app.get("/documents/{doc_id}/pages/{page}.png", response_class=Response,
             responses={200: {"content": {"image/png": {}}}, 404: {"model": ErrorOut}})
    async def page(doc_id: str, page: Annotated[int, Path(ge=1, le=100_000)], who: Caller,
                   highlight: Annotated[str | None, Query(description="Boxes x0,y0,x1,y1 in PDF points, `;` between")] = None
                   ) -> Response:
        """A page of a PDF as PNG, with the given boxes highlighted."""
        seen = view(who)
        return Response(await bounded(_page_png, seen, doc_id, page, _boxes(highlight, page)), media_type="image/png")

    @app.post("/documents", status_code=202, response_model=UploadOut,
              responses={400: {"model": ErrorOut}, 413: {"model": ErrorOut}, 415: {"model": ErrorOut}})
    async def upload(request: Request, who: Caller, file: Annotated[UploadFile, File()],
                     collection: Annotated[str | None, Form()] = None,
                     kind: Annotated[Literal["", "filing", "policy", "contract", "other"], Form()] = ""
                     ) -> JSONResponse:
        """Upload a PDF or Markdown file: checked at once, queued for a worker; answers with its job."""
        target = _collection_for(access, who, collection)
        data = await _read_capped(file, max_bytes, ws.settings.max_file_mb)
        name = document_name(file.filename)  # NOTE: the base name sent, cleaned and capped: never a path
        try:
            doc_id = load_source(name, max_file_mb=ws.settings.max_file_mb, data=data, name=name).doc_id
        except UnsupportedFormatError as exc:
            raise ApiError(415, str(exc), "file") from None
        except FileTooLargeError as exc:
            raise ApiError(413, str(exc), "file") from None
        except VeraError as exc:
            raise ApiError(400, str(exc), "file") from None
        readable = access.readable(who)
        foreign = readable is not None and doc_id not in readable and ws.catalog.document(doc_id) is not None
        # NOTE: the kind of a document others hold is theirs to set
        submitted = await bounded(lambda: desk.submit(name, data, kind="" if foreign else kind))
        if submitted.result is not None and submitted.result.status == "failed":
            raise ApiError(400, submitted.result.error, "file")
        if target is not None:
            access.add_documents(target, [doc_id], joined="shared" if foreign else
                                 "ingested" if submitted.job_id is not None else "added")
        if submitted.job_id is None:
            out = UploadOut(status="already present", doc_id=doc_id, collection=target)
            return JSONResponse(out.model_dump(), status_code=200)
        queue.update(submitted.job_id, doc_id=doc_id)
        return JSONResponse(UploadOut(status="queued", doc_id=doc_id, job=_job_out(queue.get(submitted.job_id)),
                                      collection=target).model_dump(), status_code=202)

    @app.get("/jobs/{job_id}", response_model=JobOut, responses={404: {"model": ErrorOut}})
    async def job(job_id: Annotated[int, Path(ge=1, le=2**62)], who: Caller) -> JobOut:
        """An ingestion job: its stage and progress."""
        try:
            found = queue.get(job_id)
        except IndexError:
            raise _not_found("job") from None
        readable = access.readable(who)
        if readable is not None and (found.doc_id or "") not in readable:
            raise _not_found("job")
        return _job_out(found)

    app.state.workspace = ws
    app.add_middleware(BodyLimit, max_bytes=max_bytes, max_mb=ws.settings.max_file_mb)
    return app


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse an upload over the limit before it is read whole: at once from its Content-Length, or
    as soon as a body sent without one (chunked) passes the limit."""

    def __init__(self, app, max_bytes: int, max_mb: float) -> None:
        self.app, self.max_bytes, self.max_mb = app, max_bytes, max_mb

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        # NOTE: an upload may carry the file and its multipart envelope; any other body a question
        limit = self.max_bytes + 256 * 1024 if scope["path"] == "/documents" else JSON_BODY_LIMIT
        length = dict(scope["headers"]).get(b"content-length")
        upload = scope["path"] == "/documents"
        if length is not None and length.isdigit() and int(length) > limit:
            return await self._refuse(send, upload)
        seen, refused = 0, False

        async def counted():
            nonlocal seen, refused
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit and not refused:
                refused = True  # NOTE: answered now; the app's own answer to the cut body is dropped
                await self._refuse(send, upload)
                raise _TooLarge
            return message

        async def watched(message):
            if not refused:
                await send(message)
        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            pass

    async def _refuse(self, send, upload: bool) -> None:
        body = ErrorOut(error=f"The upload is over the {self.max_mb:g} MiB limit (VERA_MAX_FILE_MB).", field="file"
                        ).model_dump_json().encode() if upload else ErrorOut(
            error=f"The request body is over {JSON_BODY_LIMIT // 1024} KiB.", field="body").model_dump_json().encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def _boxes(text: str | None, page: int) -> tuple[Rect, ...]:
    if not text:
        return ()
    boxes = []
    for part in text.split(";"):
        try:
            x0, y0, x1, y1 = (float(v) for v in part.split(","))
        except ValueError:
            raise ApiError(400, f"highlight: {part!r} is not x0,y0,x1,y1 in PDF points.", "highlight") from None
        if not all(math.isfinite(v) and -1e5 <= v <= 1e5 for v in (x0, y0, x1, y1)):
            raise ApiError(400, f"highlight: {part!r} is not a box on a page (PDF points, finite).", "highlight")
        boxes.append(Rect(page, x0, y0, x1, y1))
    return tuple(boxes)


def _page_png(seen: Workspace, doc_id: str, page: int, boxes: tuple[Rect, ...]) -> bytes:
    doc = seen.catalog.document(doc_id)
    if doc is None:
        raise _not_found("document")
    if doc.format != "pdf":
        raise ApiError(400, f"{doc.name} is Markdown: it has no pages to render.", "doc_id")
    if not 1 <= page <= doc.pages:
        raise ApiError(404, f"{doc.name} has {doc.pages} pages; there is no page {page}.", "page")
    image = render_page(seen.file_path(doc), page, (Highlight(1, boxes),) if boxes else ())
    from PIL import Image
    out = io.BytesIO()
    Image.open(io.BytesIO(image.jpeg)).save(out, format="PNG")
    return out.getvalue()


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


def _job_out(job: Job) -> JobOut:
    return JobOut(job_id=job.job_id, kind=job.kind, name=job.name, doc_id=job.doc_id, status=job.status,
                  stage=job.stage, progress=job.progress, error=job.error, error_type=job.error_type)
