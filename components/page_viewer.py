"""The page viewer beside the answer: the cited PDF page with the citations drawn over it, or for a
Markdown citation its section with the quoted span highlighted."""

from __future__ import annotations

import streamlit as st

from components import session
from components.answer_card import section_label
from components.safe_text import highlighted_markdown
from vera_core.answer.contract import Answer, Citation
from vera_core.records import Rect
from vera_core.render import Highlight, page_count, render_page
from vera_core.workspace import Workspace


def citation_rects(ws: Workspace, cite: Citation) -> tuple[Rect, ...]:
    """The regions of a citation; a table citation also outlines the whole table on every page it spans,
    unless it cites one cell (then the table is its faint context, see `page_highlights`)."""
    rects = tuple(Rect(p.page, p.x0, p.y0, p.x1, p.y1) for p in cite.polygons)
    if cite.kind == "table" and not cite.context_polygons:
        chunk = ws.catalog.chunks_by_id([cite.chunk_id]).get(cite.chunk_id)
        if chunk is not None:
            rects += tuple(r for r in chunk.polygons if r not in rects)
    return rects


def page_highlights(ws: Workspace, answer: Answer, selected: Citation) -> tuple[Highlight, ...]:
    """Every citation of the answer in the selected citation's document; the selected one active."""
    context = tuple(Rect(p.page, p.x0, p.y0, p.x1, p.y1) for p in selected.context_polygons)
    faint = (Highlight(0, context, active=False),) if context else ()
    return faint + tuple(Highlight(c.n, citation_rects(ws, c), active=c.n == selected.n)
                         for c in answer.citations if c.doc_id == selected.doc_id)


def page_viewer(ws: Workspace) -> None:
    """Render the viewer for the session's selected citation."""
    chosen = session.selected()
    if chosen is None:
        st.info("Ask a question: the page of its first citation appears here, with the evidence highlighted.")
        return
    answer, cite = chosen
    doc = ws.catalog.document(cite.doc_id)
    if doc is None:
        st.warning(f"{cite.doc_name} is no longer in the store.")
        return
    if doc.format != "pdf":
        _markdown_section(ws, cite)
        return
    path = ws.file_path(doc)
    pages = page_count(path)
    page = min(max(session.viewer().page or cite.page or 1, 1), pages)
    _navigation(page, pages)
    highlights = page_highlights(ws, answer, cite)
    image = render_page(path, page, highlights)
    marks = ", ".join(f"[{h.n}]" for h in highlights if h.n and any(r.page == page for r in h.rects)) or "none"
    st.image(image.jpeg, width="stretch",
             caption=f"{doc.name}, page {page} of {pages}: [{cite.n}] selected; citations on this page {marks}")


def _navigation(page: int, pages: int) -> None:
    prev_col, number_col, next_col = st.columns([1, 2, 1], vertical_alignment="bottom")
    prev_col.button("◀ Prev", key="viewer-prev", disabled=page <= 1, width="stretch",
                    on_click=session.show_page, args=(page - 1,))
    key = f"viewer-page-{page}"
    number_col.number_input("Page", min_value=1, max_value=pages, value=page, step=1, key=key,
                            on_change=lambda: session.show_page(int(st.session_state[key])))
    next_col.button("Next ▶", key="viewer-next", disabled=page >= pages, width="stretch",
                    on_click=session.show_page, args=(page + 1,))


def _markdown_section(ws: Workspace, cite: Citation) -> None:
    """The cited chunk's whole section (its chunks in order), the quote highlighted in the cited chunk."""
    section = [c for c in ws.doc_chunks(cite.doc_id) if c.heading_path == cite.heading_path]
    st.caption(f"{cite.doc_name} · {section_label(cite.heading_path)} · [{cite.n}] highlighted")
    with st.container(border=True):
        if not any(c.chunk_id == cite.chunk_id for c in section):
            st.markdown(highlighted_markdown(cite.quote, cite.quote))
        for chunk in section:
            quote = cite.quote if chunk.chunk_id == cite.chunk_id else ""
            st.markdown(highlighted_markdown(chunk.text, quote))
