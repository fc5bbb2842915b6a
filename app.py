"""VERA's Streamlit app: `streamlit run app.py` (or `make run`, which ingests the samples first)."""

from __future__ import annotations

import streamlit as st

from components.workspace import load_samples_once, shared_workspace
from vera_core.errors import VeraError

st.set_page_config(page_title="VERA", page_icon=":mag:", layout="wide")

try:
    ws = shared_workspace()
    if not ws.catalog.documents():
        with st.spinner("First start: loading the bundled sample documents…"):
            load_samples_once()
except VeraError as exc:  # e.g. SchemaContractError: the message names the fix
    st.error(str(exc))
    st.stop()

# NOTE: st.navigation disables the automatic pages/ scan, so every page is registered here.
navigation = st.navigation([
    st.Page("pages/ask.py", title="Ask", icon=":material/question_answer:", default=True),
    st.Page("pages/documents.py", title="Documents", icon=":material/description:"),
    st.Page("pages/facts.py", title="Facts", icon=":material/fact_check:"),
])
navigation.run()
