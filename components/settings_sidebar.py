"""The settings sidebar of the Ask page: options applied to the next question."""

from __future__ import annotations

import streamlit as st

from vera_core.answer.modes import MODES
from vera_core.documents.filters import LibraryFilters
from vera_core.documents.identity import DOC_TYPES, Identity
from vera_core.question_options import QuestionOptions, llm_configured
from vera_core.workspace import Workspace

MODE_LABELS = {"deterministic": "Deterministic", "llm_fallback": "LLM fallback", "llm_always": "LLM always"}
NO_LLM = "No LLM is configured: the LLM modes answer deterministically and say so on the answer."


def settings_sidebar(ws: Workspace) -> QuestionOptions:
    """Render the sidebar and return the options for the next question."""
    docs = ws.catalog.documents()
    names = {d.doc_id: d.name for d in docs}
    with st.sidebar:
        st.header("Settings")
        st.caption("Applied to the next question.")
        mode = st.radio("Coverage mode", MODES, index=MODES.index("llm_fallback"), key="opt_mode",
                        format_func=MODE_LABELS.get,
                        help="How list questions are completed: extraction only, an LLM when extraction "
                             "finds too little, or always an LLM.")
        if mode != "deterministic" and not llm_configured():
            st.caption(f":material/info: {NO_LLM}")
        hybrid = st.toggle("Hybrid retrieval (BM25 + dense)", value=ws.settings.hybrid_retrieval, key="opt_hybrid")
        verifier = st.toggle("Semantic verifier", value=True, key="opt_verifier",
                             help="Off: grounding checks words and figures only (no claim embeddings).")
        facts = st.toggle("Document-facts cache", value=ws.settings.facts_enabled, key="opt_facts",
                          help="Answer currency, period, framework, units and consolidation questions "
                               "from the facts extracted at ingestion.")
        top_k = st.slider("Top-k chunks", min_value=2, max_value=30, value=8, key="opt_top_k")
        scope = st.multiselect("Documents in scope", list(names), format_func=names.get, key="opt_docs",
                               placeholder="All documents")
        filters = library_filters(docs)
    return QuestionOptions(mode=mode, hybrid=hybrid, verifier=verifier, facts_enabled=facts, top_k=top_k,
                           docs=tuple(d for d in scope if d in names), filters=filters)


def library_filters(docs) -> LibraryFilters | None:
    """Quarter, document type, speaker and segment filters as removable chips, offered from what the store holds
    (a segment is typed: its name as the documents print it)."""
    identities = [Identity.from_dict(d.identity) for d in docs if d.identity]
    quarters = sorted({i.quarter for i in identities if i.quarter}, reverse=True)
    types = [t for t in DOC_TYPES if any(i.doc_type == t for i in identities)]
    speakers = sorted({p["name"] for d in docs for p in (d.metadata or {}).get("transcript", {}).get("participants", [])
                       if p.get("role") not in ("operator", None)})
    if not (quarters or types or speakers):
        return None  # NOTE: filters are for the IR library; a store of policies alone has none to offer
    st.subheader("Filters")
    quarter = st.multiselect("Quarter", quarters, key="opt_quarter", placeholder="Any quarter",
                             help="Fiscal quarters as each company labels them; FY for a year's documents.")
    doc_type = st.multiselect("Document type", types, key="opt_doc_type", placeholder="Any type")
    speaker = st.multiselect("Speaker", speakers, key="opt_speaker", placeholder="Anyone",
                             help="Answer from this speaker's turns of the call transcripts.") if speakers else []
    segment = st.multiselect("Segment", [], key="opt_segment", placeholder="Type a segment", accept_new_options=True,
                             max_selections=1, help="The business segment asked about, as the documents name it "
                                                    "(Reality Labs): the question is asked of it.")
    chosen = LibraryFilters(quarter=tuple(quarter), doc_type=tuple(doc_type), speaker=tuple(speaker),
                            segment=tuple(segment))
    return chosen or None
