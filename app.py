"""VERA's Streamlit app: `streamlit run app.py` (or `make run`, which ingests the samples first).

Pages live in `app_pages/`, not `pages/`: Streamlit still runs a `pages/` folder the old (v1) way when
a session's first request is a page URL such as /documents, bypassing this file and its navigation."""

from __future__ import annotations

from contextlib import nullcontext

import streamlit as st

from components.access import signed_in
from components.workspace import load_samples_once, shared_ingest_desk, shared_workspace
from vera_core.errors import VeraError

st.set_page_config(page_title="VERA", page_icon=":mag:", layout="wide")

try:
    ws = shared_workspace()
    # NOTE: called on every run but cached per store: only the first run of a process on an empty
    # store loads the samples, so deleting every document later does not bring them back.
    first_start = not ws.catalog.documents()
    with st.spinner("First start: loading the bundled sample documents…") if first_start else nullcontext():
        load_samples_once()
    # NOTE: a worker the app started stops when idle; one is started again whenever there is work
    shared_ingest_desk().ensure_worker()
except VeraError as exc:  # e.g. SchemaContractError: the message names the fix
    st.error(str(exc))
    st.stop()
if signed_in() is None:  # NOTE: once the store has users, nothing is drawn before the session identifies itself
    st.stop()

# NOTE: every page is registered here (st.navigation), none is discovered from a folder.
navigation = st.navigation([
    st.Page("app_pages/ask.py", title="Ask", icon=":material/question_answer:", default=True),
    st.Page("app_pages/documents.py", title="Documents", icon=":material/description:"),
    st.Page("app_pages/facts.py", title="Facts", icon=":material/fact_check:"),
])
navigation.run()
