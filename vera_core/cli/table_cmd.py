"""`vera table DOC [TABLE_ID]`: a document's table grids as aligned text, JSON or CSV."""

from __future__ import annotations

import json
import sys

from vera_core.config import VeraSettings
from vera_core.tables.export import (DocumentTable, document_tables, find_table, grid_matrix, summary, tables_json,
                                     to_csv)
from vera_core.workspace import Workspace

_GAP = "  "


def render(table: DocumentTable) -> str:
    """A table as a reader scans it: its label line, how to read it, then the printed grid with
    labels left-aligned and figures right-aligned under their headers (nested rows indented)."""
    if table.grid.status != "parsed":
        return "\n".join([table.label, f"id {table.table_id}",
                          "The grid of this table could not be read; its text as indexed:", "", table.text])
    lines = [table.label, f"id {table.table_id}", summary(table)]
    columns, rows, figures = grid_matrix(table.grid, under_column=False)
    widths = [max(len(r[j]) for r in [columns, *rows]) for j in range(len(columns))]

    def line(cells: list[str]) -> str:
        return _GAP.join(c.rjust(w) if right else c.ljust(w) for c, w, right in zip(cells, widths, figures)).rstrip()

    lines += ["", line(columns), _GAP.join("-" * w for w in widths)] + [line(r) for r in rows]
    return "\n".join(lines)


def run(args, settings: VeraSettings) -> int:
    ws = Workspace(settings)
    doc = ws.catalog.resolve(args.doc)
    tables = document_tables(ws.doc_chunks(doc.doc_id), ws.doc_grids(doc.doc_id))
    chosen = [find_table(tables, args.table, doc.name)] if args.table else tables
    if args.json:
        text = json.dumps(tables_json(doc, chosen), indent=2, ensure_ascii=False) + "\n"
    elif args.csv:
        text = to_csv(doc, chosen)
    elif chosen:
        text = "\n\n".join(render(t) for t in chosen) + "\n"
    else:
        text = f"{doc.name} has no tables.\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        print(f"Wrote {len(chosen)} table{'s' if len(chosen) != 1 else ''} of {doc.name} to {args.output}.",
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
