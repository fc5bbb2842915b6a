"""The evidence table of the current answer or the whole session, with a CSV download in the
columns of `vera export` (same function: `vera_core.answer.evidence_rows`)."""

from __future__ import annotations

import streamlit as st

from vera_core.answer.contract import Answer
from vera_core.answer.evidence_rows import COLUMNS, evidence_rows, to_csv

SCOPES = ("This answer", "Whole session")


def evidence_table(current: Answer, session_answers: list[Answer]) -> None:
    """Render the table and its download button."""
    import pandas as pd  # NOTE: here, not at the top: the app's first page draws without pandas (~0.4 s)
    scope = st.segmented_control("Evidence of", SCOPES, default=SCOPES[0], key="evidence_scope") or SCOPES[0]
    chosen = [current] if scope == SCOPES[0] else session_answers
    rows = [row for answer in chosen for row in evidence_rows(answer)]
    table = pd.DataFrame(rows, columns=list(COLUMNS)).astype({"page": str})  # "" for Markdown rows
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={"polygons": None})
    st.download_button(f"Download CSV ({len(rows)} rows)", to_csv(chosen), mime="text/csv", icon=":material/download:",
                       file_name="vera_evidence.csv" if len(chosen) > 1 else "vera_answer_evidence.csv",
                       key="evidence_download", on_click="ignore")
