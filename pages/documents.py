"""Documents page: what is in the store, with each document's heading tree and tables."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components.workspace import shared_workspace

ws = shared_workspace()
st.title("Documents")
docs = ws.catalog.documents()
if not docs:
    st.info("No documents yet. Ingest some with `vera ingest PATH` (make run ingests the bundled samples).")
    st.stop()

st.dataframe(
    pd.DataFrame([{"name": d.name, "format": d.format, "pages": d.pages or None, "chunks": d.chunk_count,
                   "tables": d.table_count, "id": d.doc_id} for d in docs]),
    hide_index=True, width="stretch")

choice = st.selectbox("Browse a document", [d.name for d in docs])
doc = next(d for d in docs if d.name == choice)
headings, tables = st.tabs(["Headings", "Tables"])
with headings:
    for h in ws.catalog.headings(doc.doc_id):
        pages = f" (p. {h.page_start}-{h.page_end})" if h.page_start else ""
        st.text(f"{'    ' * (h.level - 1)}{h.title}{pages}")
with tables:
    for chunk in (c for c in ws.catalog.chunks(doc.doc_id) if c.kind == "table"):
        pages = ", ".join(map(str, chunk.pages)) or "-"
        with st.expander(f"p. {pages}: {chunk.caption or '(no caption)'}"):
            st.text(chunk.text)
