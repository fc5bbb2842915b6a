"""Table grids in the catalog: `table_grids` (one row per table chunk) and `table_cells`.

Written in the same transaction as the document's chunks, so a document is never visible with
half its grids; deleting a chunk deletes its grid (foreign keys cascade).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from sqlalchemy import Connection

from vera_core.records import GridCell, Period, Rect, TableGrid
from vera_core.store.db import execute

GRID_COLUMNS = ("chunk_id", "doc_id", "status", "statement", "title", "scale", "scale_source", "currency",
                "header_json", "periods_json", "n_rows")
CELL_COLUMNS = ("chunk_id", "doc_id", "row", "col", "row_label", "parent_label", "header", "printed", "value",
                "unit", "scale", "currency", "period_kind", "period_end", "period_year", "period_months",
                "period_quarter", "page", "box_json", "label_box_json")
MIGRATION_SQL = """
    CREATE TABLE table_grids (
        chunk_id TEXT PRIMARY KEY REFERENCES chunks(chunk_id) ON DELETE CASCADE,
        doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('parsed', 'unparsed')),
        statement TEXT NOT NULL DEFAULT '',
        title TEXT NOT NULL DEFAULT '',
        scale {real} NOT NULL DEFAULT 1,
        scale_source TEXT NOT NULL DEFAULT '',
        currency TEXT NOT NULL DEFAULT '',
        header_json TEXT NOT NULL DEFAULT '[]',
        periods_json TEXT NOT NULL DEFAULT '[]',
        n_rows INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX table_grids_doc ON table_grids(doc_id);
    CREATE TABLE table_cells (
        chunk_id TEXT NOT NULL REFERENCES table_grids(chunk_id) ON DELETE CASCADE,
        doc_id TEXT NOT NULL,
        row INTEGER NOT NULL,
        col INTEGER NOT NULL,
        row_label TEXT NOT NULL,
        parent_label TEXT NOT NULL DEFAULT '',
        header TEXT NOT NULL DEFAULT '',
        printed TEXT NOT NULL,
        value {real},
        unit TEXT NOT NULL DEFAULT '',
        scale {real} NOT NULL DEFAULT 1,
        currency TEXT NOT NULL DEFAULT '',
        period_kind TEXT,
        period_end TEXT,
        period_year INTEGER,
        period_months INTEGER,
        period_quarter INTEGER,
        page INTEGER,
        box_json TEXT,
        label_box_json TEXT,
        PRIMARY KEY (chunk_id, row, col)
    );
    CREATE INDEX table_cells_doc ON table_cells(doc_id)
"""


def insert_grids(conn: Connection, doc_id: str, grids: Sequence[TableGrid]) -> None:
    """Insert a document's grids (inside the caller's transaction)."""
    execute(conn, _insert("table_grids", GRID_COLUMNS),
            [dict(zip(GRID_COLUMNS, (g.chunk_id, doc_id, g.status, g.statement, g.title, g.scale, g.scale_source,
                                     g.currency, json.dumps(list(g.header)),
                                     json.dumps([_period_dict(p) for p in g.periods]), g.n_rows))) for g in grids])
    execute(conn, _insert("table_cells", CELL_COLUMNS),
            [dict(zip(CELL_COLUMNS, (g.chunk_id, doc_id, c.row, c.col, c.row_label, c.parent_label, c.header,
                                     c.printed, c.value, c.unit, c.scale, c.currency, *_period_row(c.period),
                                     c.box.page if c.box else None, _box_json(c.box), _box_json(c.label_box))))
             for g in grids for c in g.cells])


def _insert(table: str, columns: Sequence[str]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"


def read_grids(rows: Sequence[Mapping], cell_rows: Sequence[Mapping]) -> list[TableGrid]:
    """Grids from `table_grids` rows and their `table_cells` rows (any order)."""
    cells: dict[str, list[GridCell]] = {}
    for r in cell_rows:
        cells.setdefault(r["chunk_id"], []).append(_cell(r))
    out = []
    for r in rows:
        periods = tuple(_period(p) for p in json.loads(r["periods_json"]))
        out.append(TableGrid(r["chunk_id"], r["status"], r["statement"], r["title"], r["scale"], r["scale_source"],
                             r["currency"], tuple(json.loads(r["header_json"])), periods,
                             tuple(sorted(cells.get(r["chunk_id"], []), key=lambda c: (c.row, c.col))), r["n_rows"]))
    return out


def _period_dict(p: Period | None) -> dict | None:
    return None if p is None else {"kind": p.kind, "end": p.end, "year": p.year, "months": p.months,
                                   "quarter": p.quarter}


def _period(d: dict | None) -> Period | None:
    return None if d is None else Period(d["kind"], d["end"], d["year"], d["months"], d["quarter"])


def _period_row(p: Period | None) -> tuple:
    return (None,) * 5 if p is None else (p.kind, p.end, p.year, p.months, p.quarter)


def _box_json(box: Rect | None) -> str | None:
    return None if box is None else json.dumps(box.as_dict())


def _cell(r: Mapping) -> GridCell:
    period = None if r["period_kind"] is None else Period(r["period_kind"], r["period_end"] or "", r["period_year"],
                                                           r["period_months"], r["period_quarter"])
    return GridCell(r["row"], r["col"], r["row_label"], r["parent_label"], r["header"], r["printed"], r["value"],
                    r["unit"], r["scale"], r["currency"], period,
                    Rect.from_dict(json.loads(r["box_json"])) if r["box_json"] else None,
                    Rect.from_dict(json.loads(r["label_box_json"])) if r["label_box_json"] else None)
