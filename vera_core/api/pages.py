"""A page of a PDF as PNG for the API, with boxes highlighted: the boxes read from a request, the page rendered."""

from __future__ import annotations

import io
import math

from vera_core.api.deps import ApiError, not_found
from vera_core.records import Rect
from vera_core.render import Highlight, render_page
from vera_core.workspace import Workspace

__all__ = ["boxes", "page_png"]


def boxes(text: str | None, page: int) -> tuple[Rect, ...]:
    """Boxes "x0,y0,x1,y1;..." in PDF points on `page` (400 for one that is not a finite box)."""
    if not text:
        return ()
    out = []
    for part in text.split(";"):
        try:
            x0, y0, x1, y1 = (float(v) for v in part.split(","))
        except ValueError:
            raise ApiError(400, f"highlight: {part!r} is not x0,y0,x1,y1 in PDF points.", "highlight") from None
        if not all(math.isfinite(v) and -1e5 <= v <= 1e5 for v in (x0, y0, x1, y1)):
            raise ApiError(400, f"highlight: {part!r} is not a box on a page (PDF points, finite).", "highlight")
        out.append(Rect(page, x0, y0, x1, y1))
    return tuple(out)


def page_png(seen: Workspace, doc_id: str, page: int, highlighted: tuple[Rect, ...]) -> bytes:
    """A page of a document the caller may read, as PNG (404 for another document or no such page)."""
    doc = seen.catalog.document(doc_id)
    if doc is None:
        raise not_found("document")
    if doc.format != "pdf":
        raise ApiError(400, f"{doc.name} is Markdown: it has no pages to render.", "doc_id")
    if not 1 <= page <= doc.pages:
        raise ApiError(404, f"{doc.name} has {doc.pages} pages; there is no page {page}.", "page")
    image = render_page(seen.file_path(doc), page, (Highlight(1, highlighted),) if highlighted else ())
    from PIL import Image
    out = io.BytesIO()
    Image.open(io.BytesIO(image.jpeg)).save(out, format="PNG")
    return out.getvalue()
