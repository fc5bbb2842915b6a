"""POST /query and POST /export: a question answered over the documents the caller may read, narrowed by filters."""

from __future__ import annotations

import base64

from fastapi import APIRouter
from fastapi.responses import Response

from vera_core.answer.evidence_rows import to_csv
from vera_core.api.deps import ApiError, ApiState, Caller, State
from vera_core.api.pages import boxes, page_png
from vera_core.api.schemas import CitationOut, ErrorOut, Filters, QueryRequest, QueryResponse, Source
from vera_core.documents.filters import NothingMatches
from vera_core.errors import VeraError
from vera_core.store.access import Principal
from vera_core.workspace import Workspace

__all__ = ["router"]

router = APIRouter()


@router.post("/query", response_model=QueryResponse, responses={400: {"model": ErrorOut}, 401: {"model": ErrorOut},
                                                                404: {"model": ErrorOut}, 504: {"model": ErrorOut}})
async def query(body: QueryRequest, who: Caller, state: State) -> QueryResponse:
    """Answer a question over the documents the token may read (narrowed by `filters`)."""
    result = await state.bounded(_answer, state, who, body)
    seen = state.view(who)
    citations = []
    for cite in result.citations:
        out = CitationOut(**cite.model_dump())
        if cite.page is not None:
            boxed = ";".join(f"{p.x0:.1f},{p.y0:.1f},{p.x1:.1f},{p.y1:.1f}" for p in cite.polygons if p.page == cite.page)
            out.image_url = f"/documents/{cite.doc_id}/pages/{cite.page}.png" + (f"?highlight={boxed}" if boxed else "")
            if body.include_images:
                png = await state.bounded(page_png, seen, cite.doc_id, cite.page, boxes(boxed, cite.page))
                out.image_png_base64 = base64.b64encode(png).decode("ascii")
        citations.append(out)
    cited = dict.fromkeys(c.doc_id for c in result.citations)
    sources = [Source(doc_id=d.doc_id, name=d.name, kind=d.kind, format=d.format, pages=d.pages)
               for d in (seen.catalog.document(i) for i in cited) if d is not None]
    return QueryResponse(answer=result.answer, citations=citations, sources=sources,
                         verification=result.verification, vera=result)


@router.post("/export", response_class=Response, responses={200: {"content": {"text/csv": {}}}})
async def export(body: QueryRequest, who: Caller, state: State) -> Response:
    """The answer's evidence rows as CSV (the columns of `vera export`)."""
    result = await state.bounded(_answer, state, who, body)
    return Response(to_csv([result]), media_type="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="vera-evidence.csv"'})


def _answer(state: ApiState, who: Principal, body: QueryRequest):
    engine = state.engine_for(who)
    docs = _scope_of(engine.ws, body.filters)
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


def _scope_of(seen: Workspace, filters: Filters) -> list[str]:
    """The readable documents the filters keep."""
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
