"""One table of a document as its cell grid: how to read it (statement, scale, currency, periods),
the grid as printed, and a CSV download in the columns of `vera table --csv` (same function:
`vera_core.tables.export`). A table whose grid could not be read shows its text instead."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components.safe_text import escape_markdown
from vera_core.records import DocumentRecord
from vera_core.tables.export import DocumentTable, grid_matrix, summary, to_csv


def table_grid(doc: DocumentRecord, table: DocumentTable) -> None:
    """Render the chosen table of `doc`."""
    if table.grid.status != "parsed":
        st.warning("The grid of this table could not be read; its text as indexed is below.")
        st.text(table.text)
        return
    st.caption(escape_markdown(summary(table)))
    columns, rows, figures = grid_matrix(table.grid)
    st.dataframe(pd.DataFrame(rows, columns=columns), hide_index=True, width="stretch",
                 column_config={name: st.column_config.TextColumn(alignment="right")
                                for name, figure in zip(columns, figures) if figure})
    st.download_button(f"Download CSV (table {table.number}, {len(table.grid.cells)} cells)", to_csv(doc, [table]),
                       mime="text/csv", icon=":material/download:", on_click="ignore",
                       file_name=f"{doc.stem}_table_{table.number}.csv", key="table_download")
    with st.expander(escape_markdown(f"{table.label}: text as indexed")):
        st.text(table.text)
