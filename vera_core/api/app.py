"""The HTTP API: FastAPI over one store's workspace.

Every request is identified by its token (`Authorization: Bearer ...`; none needed on a store without
users) and sees the store through `access.scope.scoped`: a document outside the token's collections is
answered 404, as one that does not exist, whether asked by id, named in a question or reached through a
job, a page or an export."""

from __future__ import annotations

import logging
import time

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from vera_core.api import document_routes, job_routes, query_routes
from vera_core.api.deps import ApiError, ApiState, bearer
from vera_core.api.schemas import ErrorOut
from vera_core.store.access import AccessError
from vera_core.telemetry import span
from vera_core.workspace import Workspace

__all__ = ["BodyLimit", "PUBLIC_PATHS", "create_app"]

log = logging.getLogger("vera.api")

PUBLIC_PATHS = ("/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc")
"""What anyone may read: the API's description."""
JSON_BODY_LIMIT = 64 * 1024
"""Largest JSON body (a question and its filters)."""


def create_app(ws: Workspace, *, timeout_s: float = 60.0) -> FastAPI:
    """The API over `ws`: its routers (questions, documents, jobs) over the shared state and dependencies of
    `api/deps.py`; a request longer than `timeout_s` is cut off with 504 (nothing is written half: a question writes
    nothing, an upload's job is queued in one transaction)."""
    app = FastAPI(title="VERA", version="1", description="Evidence-grounded answers over filings, contracts and "
                  "policies: every claim cited, every figure checked.")
    state = app.state.vera = ApiState(ws, timeout_s)
    app.state.workspace = ws
    _errors_as_json(app)

    @app.middleware("http")
    async def _traced(request: Request, call_next):
        started = time.perf_counter()
        with span("vera.api.request", {"vera.operation": "api", "http.method": request.method,
                                       "http.target": request.url.path}) as current:
            if request.url.path not in PUBLIC_PATHS:  # NOTE: who is asking, before any body is read
                try:
                    state.access.authenticate(bearer(request.headers.get("authorization")))
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

    for routes in (query_routes, document_routes, job_routes):
        app.include_router(routes.router)
    app.add_middleware(BodyLimit, max_bytes=state.max_bytes, max_mb=ws.settings.max_file_mb)
    return app


def _errors_as_json(app: FastAPI) -> None:
    """Every error answered as `ErrorOut`: the API's own, an unknown path or method, an invalid request (400)."""

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
