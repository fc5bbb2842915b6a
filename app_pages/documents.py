"""Documents page: upload files (queued for the background worker, with live progress), see what is in
the store (its kind and how VERA decided it; stage: searchable or complete; warnings about damaged
files), change a document's kind, delete a document, browse its heading tree and tables."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components.safe_text import escape_markdown
from components.table_grid import table_grid
from components.ingest_status import queue_status
from components.uploader import uploader
from components.access import session_workspace, signed_in_quietly
from components.workspace import shared_ingest_desk
from vera_core.documents.identity import DOC_TYPES, Identity, stored_identity
from vera_core.documents.kinds import KIND_CHUNKS, KINDS, KindReading, stored_kind
from vera_core.errors import VeraError
from vera_core.tables.export import document_tables
from vera_core.workspace import Workspace

ws = session_workspace()
st.title("Documents")
uploader("documents_uploader")
queue_status(key="documents_queue")


def facts_status(ws: Workspace, doc_id: str) -> str:
    """e.g. "4/5 found"; "not extracted" when the document has no facts rows."""
    facts = ws.catalog.facts(doc_id)
    if not facts:
        return "not extracted"
    return f"{sum(1 for f in facts if f.status == 'found')}/{len(facts)} found"


def kind_label(reading: KindReading) -> str:
    """e.g. "policy (from its title)", "contract (set by you)", "other (uncertain)"."""
    if reading.basis == "uncertain":
        return f"{reading.kind} (uncertain)"
    return f"{reading.kind} ({'set by you' if reading.basis == 'user' else 'from its ' + reading.basis})"


def identity_label(identity: Identity) -> str:
    """'transcript, 2024-Q3' as the table shows a document's type and period."""
    return ", ".join(part for part in (identity.doc_type, identity.quarter) if part)


def identity_form(doc, identity: Identity) -> None:
    """What the document is and when, each with what it was read from; the user corrects any of them."""
    with st.form(f"identity_{doc.doc_id}"):
        st.markdown("**What it is and when**")
        left, right = st.columns(2)
        doc_type = left.selectbox("Type", DOC_TYPES, index=DOC_TYPES.index(identity.doc_type)
                                  if identity.doc_type in DOC_TYPES else len(DOC_TYPES) - 1)
        company = right.text_input("Company", identity.company)
        year = left.text_input("Fiscal year", "" if identity.fiscal_year is None else str(identity.fiscal_year))
        quarter = right.selectbox("Fiscal quarter", ["year", "Q1", "Q2", "Q3", "Q4"],
                                  index=identity.fiscal_quarter or 0)
        period_end = left.text_input("Period end (YYYY-MM-DD)", identity.period_end)
        st.caption("; ".join(f"{name.replace('_', ' ')}: {'set by you' if basis == 'user' else basis}"
                             for name, basis in identity.basis.items()))
        if st.form_submit_button("Save"):
            chosen = {"doc_type": doc_type, "company": company, "fiscal_quarter": quarter, "period_end": period_end}
            if year.strip():
                chosen["fiscal_year"] = year.strip()
            changed = {k: v for k, v in chosen.items() if str(v) != str(_shown(identity, k))}
            try:
                if changed:
                    shared_ingest_desk().set_identity(doc.doc_id, **changed)
                    st.session_state["vera_identity_changed"] = doc.name
                    st.rerun()
            except VeraError as exc:
                st.error(str(exc))


def _shown(identity: Identity, name: str) -> object:
    if name == "fiscal_quarter":
        return f"Q{identity.fiscal_quarter}" if identity.fiscal_quarter else "year"
    value = getattr(identity, name)
    return "" if value is None else value


def change_kind(doc_id: str, name: str) -> None:
    kind = st.session_state[f"kind_{doc_id}"]
    shared_ingest_desk().set_kind(doc_id, kind)
    st.session_state["vera_kind_changed"] = (name, kind)


def delete(doc_id: str) -> None:
    from vera_core.store.access import AccessStore
    if not AccessStore(ws.catalog).withdraw(signed_in_quietly(), doc_id):  # NOTE: also in others' collections
        st.session_state["vera_deleted"] = (doc_id, "withdrawn")
        return
    done = shared_ingest_desk().delete(doc_id)
    st.session_state["vera_deleted"] = (doc_id, done)


docs = ws.catalog.documents()
if deleted := st.session_state.pop("vera_deleted", None):
    st.toast(f"Removed document {deleted[0]} from your collections (others' collections keep it)."
             if deleted[1] == "withdrawn" else f"Deleted document {deleted[0]}." if deleted[1]
             else f"Document {deleted[0]} will be deleted by the ingestion worker in a moment.")
if changed := st.session_state.pop("vera_kind_changed", None):
    st.toast(f"{changed[0]} is now a {changed[1]}.")
if changed := st.session_state.pop("vera_identity_changed", None):
    st.toast(f"Saved what {changed} is and when.")
if not docs:
    st.info("No documents yet. Upload PDF or Markdown files above.")
    st.stop()

kinds = {d.doc_id: stored_kind(d, lambda d=d: ws.catalog.first_chunks(d.doc_id, KIND_CHUNKS)) for d in docs}
identities = {d.doc_id: stored_identity(d, lambda d=d: ws.catalog.first_chunks(d.doc_id, KIND_CHUNKS), kinds[d.doc_id])
              for d in docs}
st.dataframe(
    pd.DataFrame([{"name": d.name, "format": d.format, "pages": d.pages or None, "chunks": d.chunk_count,
                   "tables": d.table_count, "facts": facts_status(ws, d.doc_id), "kind": kind_label(kinds[d.doc_id]),
                   "type and period": identity_label(identities[d.doc_id]),
                   "id": d.doc_id, "stage": d.stage, "warnings": " ".join(w["message"] for w in d.warnings)}
                  for d in docs]),
    hide_index=True, width="stretch")

names = {d.doc_id: d.name for d in docs}
doc_id = st.selectbox("Browse a document", list(names), format_func=names.get, key="browse_doc")
doc = next(d for d in docs if d.doc_id == doc_id)
reading = kinds[doc.doc_id]
# NOTE: a question about one kind ("which policies ...") leaves out documents of another kind; one whose
# kind is uncertain is searched anyway. Setting the kind here decides it.
st.session_state.setdefault(f"kind_{doc.doc_id}", reading.kind)
st.selectbox("Kind of document", KINDS, key=f"kind_{doc.doc_id}", on_change=change_kind, args=(doc.doc_id, doc.name),
             help="Questions about policies, contracts or filings search the documents of that kind (and those "
                  "whose kind is uncertain).")
st.caption(f"Kind: {kind_label(reading)}.")
identity_form(doc, identities[doc.doc_id])
headings, tables, remove = st.tabs(["Headings", "Tables", "Delete"])
with headings:
    tree = [f"{'  ' * (h.level - 1)}- {escape_markdown(h.title)}"
            + (f" (p. {h.page_start}-{h.page_end})" if h.page_start else "")
            for h in ws.catalog.headings(doc.doc_id)]
    st.markdown("\n".join(tree) or "No headings.")
with tables:
    doc_tables = document_tables(ws.doc_chunks(doc.doc_id), ws.doc_grids(doc.doc_id))
    if not doc_tables:
        st.caption("No tables.")
    else:
        labels = {t.number: t.label for t in doc_tables}
        # NOTE: one key per document, so switching documents starts at its first table
        number = st.selectbox("Table", list(labels), format_func=labels.get, key=f"browse_table_{doc.doc_id}")
        table_grid(doc, doc_tables[number - 1])
with remove:
    st.write(f"Remove **{doc.name.replace('*', '')}** from every store (vectors, catalog, original file, facts).")
    st.button("Delete document", type="primary", key="delete_doc", icon=":material/delete:",
              on_click=delete, args=(doc.doc_id,))
