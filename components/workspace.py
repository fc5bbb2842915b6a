"""The shared workspace for every session of the app (built once, thread-safe)."""

from __future__ import annotations

import streamlit as st

from vera_core.config import VeraSettings
from vera_core.workspace import Workspace


@st.cache_resource(show_spinner=False)
def shared_workspace() -> Workspace:
    """The store named by VERA_* settings; the schema contract is checked here, at app start."""
    return Workspace(VeraSettings())
