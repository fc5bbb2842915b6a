"""Facts page: the document facts of each document (value, status, confidence, page, excerpt), each
clickable to its highlighted evidence, and a button to extract them again."""

from __future__ import annotations

import streamlit as st

from components.answer_card import section_label
from components.safe_text import escape_markdown, highlighted_markdown
from components.access import session_workspace
from vera_core.facts.extract import refresh_facts
from vera_core.records import FactRecord
from vera_core.render import Highlight, render_page

ws = session_workspace()
st.title("Document facts")
docs = ws.catalog.documents()
if not docs:
    st.info("No documents yet: upload some on the Documents page.")
    st.stop()

names = {d.doc_id: d.name for d in docs}
doc_id = st.selectbox("Document", list(names), format_func=names.get, key="facts_doc")
doc = ws.catalog.document(doc_id)
if st.button("Re-extract facts", icon=":material/refresh:", key="facts_refresh"):
    with st.spinner("Extracting facts…"):
        refresh_facts(ws.catalog, doc)
    st.toast(f"Facts of {doc.name} extracted again.")

facts = ws.catalog.facts(doc_id)
if not facts:
    st.info("No facts extracted for this document yet: press *Re-extract facts*.")
    st.stop()

SELECTED = "vera_fact"


def pages_label(fact: FactRecord) -> str:
    """Where the fact is stated ("p. 3"), or the pages searched for it (at most 8), or "no page"."""
    if not fact.page_numbers:
        return "no page"
    if fact.status == "found":
        return "p. " + ", ".join(map(str, fact.page_numbers))
    return "searched p. " + ", ".join(map(str, fact.page_numbers[:8]))


list_col, evidence_col = st.columns([11, 9], gap="large")
with list_col:
    for fact in facts:
        with st.container(border=True):
            name_col, value_col, button_col = st.columns([3, 4, 2], vertical_alignment="center")
            name_col.markdown(f"**{fact.fact_name.replace('_', ' ').capitalize()}**")
            value_col.markdown(escape_markdown(fact.value or "—") + f"  \n{fact.status.replace('_', ' ')}, "
                               f"confidence {fact.confidence:.2f}, {pages_label(fact)}")
            if fact.status == "found":
                button_col.button("Evidence", key=f"fact-{fact.fact_name}", width="stretch",
                                  on_click=st.session_state.__setitem__, args=(SELECTED, (doc_id, fact.fact_name)))
            if fact.evidence_excerpt:
                st.caption(escape_markdown(fact.evidence_excerpt))


def show_evidence(fact: FactRecord) -> None:
    """The fact's evidence page with its polygons drawn, or its Markdown section with the excerpt marked."""
    if doc.format == "pdf" and fact.page_numbers:
        page = fact.page_numbers[0]
        image = render_page(ws.file_path(doc), page, (Highlight(1, tuple(fact.polygons)),))
        st.image(image.jpeg, width="stretch", caption=f"{doc.name}, page {page}: evidence of {fact.fact_name}")
        return
    chunk = ws.catalog.chunks_by_id([fact.source_chunk_id]).get(fact.source_chunk_id) if fact.source_chunk_id else None
    if chunk is None:
        st.text(fact.evidence_excerpt)
        return
    st.caption(f"{doc.name} · {section_label(chunk.heading_path)}")
    with st.container(border=True):
        st.markdown(highlighted_markdown(chunk.text, fact.evidence_excerpt))


with evidence_col:
    chosen = st.session_state.get(SELECTED)
    fact = next((f for f in facts if chosen == (doc_id, f.fact_name)), None)
    if fact is None:
        st.info("Click *Evidence* beside a fact to see where the document states it.")
    else:
        st.subheader(f"Evidence: {fact.fact_name.replace('_', ' ')}", anchor=False)
        show_evidence(fact)
