"""Documents page: upload files, see what is in the store, delete a document, browse its heading
tree and tables."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components.safe_text import escape_markdown
from components.uploader import uploader
from components.workspace import shared_workspace
from vera_core.workspace import Workspace

ws = shared_workspace()
st.title("Documents")
uploader("documents_uploader")


def facts_status(ws: Workspace, doc_id: str) -> str:
    """e.g. "4/5 found"; "not extracted" when the document has no facts rows."""
    facts = ws.catalog.facts(doc_id)
    if not facts:
        return "not extracted"
    return f"{sum(1 for f in facts if f.status == 'found')}/{len(facts)} found"


def delete(doc_id: str) -> None:
    ws.delete(doc_id)
    st.session_state["vera_deleted"] = doc_id


docs = ws.catalog.documents()
if deleted := st.session_state.pop("vera_deleted", None):
    st.toast(f"Deleted document {deleted}.")
if not docs:
    st.info("No documents yet. Upload PDF or Markdown files above.")
    st.stop()

st.dataframe(
    pd.DataFrame([{"name": d.name, "format": d.format, "pages": d.pages or None, "chunks": d.chunk_count,
                   "tables": d.table_count, "facts": facts_status(ws, d.doc_id), "id": d.doc_id} for d in docs]),
    hide_index=True, width="stretch")

names = {d.doc_id: d.name for d in docs}
doc_id = st.selectbox("Browse a document", list(names), format_func=names.get, key="browse_doc")
doc = next(d for d in docs if d.doc_id == doc_id)
headings, tables, remove = st.tabs(["Headings", "Tables", "Delete"])
with headings:
    tree = [f"{'  ' * (h.level - 1)}- {escape_markdown(h.title)}"
            + (f" (p. {h.page_start}-{h.page_end})" if h.page_start else "")
            for h in ws.catalog.headings(doc.doc_id)]
    st.markdown("\n".join(tree) or "No headings.")
with tables:
    table_chunks = [c for c in ws.doc_chunks(doc.doc_id) if c.kind == "table"]
    if not table_chunks:
        st.caption("No tables.")
    for chunk in table_chunks:
        pages = ", ".join(map(str, chunk.pages)) or "-"
        with st.expander(f"p. {pages}: {chunk.caption or '(no caption)'}".replace("[", "(").replace("]", ")")):
            st.text(chunk.text)
with remove:
    st.write(f"Remove **{doc.name.replace('*', '')}** from every store (vectors, catalog, original file, facts).")
    st.button("Delete document", type="primary", key="delete_doc", icon=":material/delete:",
              on_click=delete, args=(doc.doc_id,))
