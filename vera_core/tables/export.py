"""A document's table grids as `vera table` and the Documents page show and export them: tables
numbered in document order, JSON, CSV (one row per cell) and a label-by-column matrix."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from vera_core.errors import VeraError
from vera_core.records import GridCell, Period, TableGrid
from vera_core.finance.statements import STATEMENT_NAMES
from vera_core.finance.money import SCALES

if TYPE_CHECKING:  # exports read stored records; the store is downstream of ingestion, which imports this package
    from vera_core.records import ChunkRecord, DocumentRecord

COLUMNS = ("doc_id", "doc_name", "table_id", "table_number", "statement", "title", "row", "col", "row_label",
           "parent_label", "header", "period", "period_end", "printed", "value", "unit", "scale", "currency",
           "page", "x0", "y0", "x1", "y1")
"""CSV columns, one row per cell (the label column's cells included, with `col` 0)."""
UNDER = "Under"
"""Matrix column holding each row's parent label."""
_SCALE_WORDS = {scale: word for word, scale in SCALES.items()}


class TableNotFoundError(VeraError):
    """A table reference (chunk id or 1-based number) matched no table of the document."""


@dataclass(frozen=True)
class DocumentTable:
    """One table of a document with the number `vera table DOC N` and the Documents page give it."""

    number: int
    """1-based position among the document's tables, in reading order."""
    grid: TableGrid
    pages: tuple[int, ...]
    """1-based pages the table is printed on; empty for Markdown."""
    text: str
    """The table chunk's Markdown (caption and footnotes included), as indexed."""

    @property
    def table_id(self) -> str:
        """The table chunk's id."""
        return self.grid.chunk_id

    @property
    def label(self) -> str:
        """"Table 2 — Consolidated income statement (page 6, income statement)"."""
        where = [f"page{'s' if len(self.pages) > 1 else ''} {', '.join(map(str, self.pages))}"] if self.pages else []
        where += [STATEMENT_NAMES[self.grid.statement]] if self.grid.statement in STATEMENT_NAMES else []
        title = self.grid.title or "(no title)"
        return f"Table {self.number} — {title}" + (f" ({', '.join(where)})" if where else "")


def document_tables(chunks: Sequence[ChunkRecord], grids: Sequence[TableGrid]) -> list[DocumentTable]:
    """A document's tables in reading order. A table chunk stored without a grid (a document
    ingested before grids were kept) counts as unparsed; re-ingesting it with `--force` reads it."""
    by_id = {g.chunk_id: g for g in grids}
    table_chunks = sorted((c for c in chunks if c.kind == "table"), key=lambda c: c.position)
    return [DocumentTable(n, by_id.get(c.chunk_id) or TableGrid(c.chunk_id, "unparsed", title=c.caption),
                          c.pages, c.text)
            for n, c in enumerate(table_chunks, start=1)]


def find_table(tables: Sequence[DocumentTable], ref: str, doc_name: str) -> DocumentTable:
    """The table `ref` names: its chunk id, or its 1-based number in the document."""
    ref = ref.strip()
    for table in tables:
        if table.table_id == ref or (ref.isdigit() and int(ref) == table.number):
            return table
    numbers = "number 1" if len(tables) == 1 else f"numbers 1-{len(tables)}"
    count = (f"it has {len(tables)} table{'s' if len(tables) != 1 else ''} ({numbers}, "
             f"or the ids `vera show {doc_name}` lists)") if tables else "it has no tables"
    raise TableNotFoundError(f"{doc_name} has no table {ref!r}; {count}.")


def scale_text(grid: TableGrid) -> str:
    """"EUR thousands (stated: EUR thousand)", "units (no scale stated)"."""
    word = _SCALE_WORDS.get(grid.scale, f"x{_number(grid.scale)}")
    amount = f"{grid.currency} {word}" if grid.currency else word
    if grid.scale_source == "document":
        return f"{amount} (the document's scale)"
    return f"{amount} (stated: {grid.scale_source})" if grid.scale_source else f"{amount} (no scale stated)"


def summary(table: DocumentTable) -> str:
    """One line on how to read the grid's figures: statement, scale, currency and column periods."""
    grid = table.grid
    parts = [f"Statement: {STATEMENT_NAMES.get(grid.statement, 'none (note or other table)')}",
             f"Scale: {scale_text(grid)}"]
    periods = [f"{header or f'column {j}'} = {period.label}"
               for j, (header, period) in enumerate(zip(grid.header, grid.periods)) if period is not None]
    parts.append(f"Periods: {'; '.join(periods)}" if periods else "Periods: none read")
    return " · ".join(parts)


def period_json(period: Period | None) -> dict | None:
    """A period as the JSON export writes it (with its readable `label`)."""
    if period is None:
        return None
    return {"kind": period.kind, "end": period.end, "year": period.year, "months": period.months,
            "quarter": period.quarter, "label": period.label}


def cell_json(cell: GridCell) -> dict:
    """One entry of a table's `cells` in `vera table --json`; `page` and `bbox` are None for Markdown."""
    box = cell.box.as_dict() if cell.box else None
    return {"row": cell.row, "col": cell.col, "row_label": cell.row_label, "parent_label": cell.parent_label,
            "header": cell.header, "printed": cell.printed, "value": _number(cell.value), "unit": cell.unit,
            "scale": _number(cell.scale), "currency": cell.currency, "period": period_json(cell.period),
            "page": box["page"] if box else None,
            "bbox": [box["x0"], box["y0"], box["x1"], box["y1"]] if box else None}


def table_json(table: DocumentTable) -> dict:
    """One entry of the `tables` list of `vera table --json`."""
    grid = table.grid
    return {"table_id": table.table_id, "number": table.number, "status": grid.status, "statement": grid.statement,
            "title": grid.title, "pages": list(table.pages), "scale": _number(grid.scale),
            "scale_source": grid.scale_source, "currency": grid.currency, "header": list(grid.header),
            "periods": [period_json(p) for p in grid.periods], "cells": [cell_json(c) for c in _ordered(grid)]}


def tables_json(doc: DocumentRecord, tables: Iterable[DocumentTable]) -> dict:
    """`vera table --json`: the document and the chosen tables."""
    return {"doc": {"doc_id": doc.doc_id, "name": doc.name}, "tables": [table_json(t) for t in tables]}


def csv_rows(doc: DocumentRecord, table: DocumentTable) -> list[dict]:
    """CSV rows (`COLUMNS`) of one table's cells; '' where a cell has no value, period or box."""
    grid = table.grid
    rows = []
    for cell in _ordered(grid):
        box = cell.box.as_dict() if cell.box else {}
        rows.append({
            "doc_id": doc.doc_id, "doc_name": doc.name, "table_id": table.table_id, "table_number": table.number,
            "statement": grid.statement, "title": grid.title, "row": cell.row, "col": cell.col,
            "row_label": cell.row_label, "parent_label": cell.parent_label, "header": cell.header,
            "period": cell.period.label if cell.period else "", "period_end": cell.period.end if cell.period else "",
            "printed": cell.printed, "value": "" if cell.value is None else _number(cell.value), "unit": cell.unit,
            "scale": _number(cell.scale), "currency": cell.currency,
            **{k: box.get(k, "") for k in ("page", "x0", "y0", "x1", "y1")}})
    return rows


def to_csv(doc: DocumentRecord, tables: Iterable[DocumentTable]) -> str:
    """CSV text (header + one row per cell) of several tables of one document."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS)
    writer.writeheader()
    for table in tables:
        writer.writerows(csv_rows(doc, table))
    return buffer.getvalue()


class GridMatrix(NamedTuple):
    """A grid as rows of printed strings under unique column names."""

    columns: list[str]
    """Column names: the label column's header (or "Item"), `UNDER` when shown, then the value
    columns' headers; blanks and repeats made unique ("Column 3", "2024 (2)")."""
    rows: list[list[str]]
    """One list per body row, parallel to `columns`; '' where the row prints nothing."""
    figures: list[bool]
    """Parallel to `columns`: whether the column holds figures (a reader right-aligns them)."""


def grid_matrix(grid: TableGrid, *, under_column: bool = True) -> GridMatrix:
    """The grid as printed, the label first. With `under_column`, a row's parent label gets its
    own column after the label (only when some row has one); without, nested labels are indented
    two spaces instead."""
    width = max(len(grid.header), max((c.col + 1 for c in grid.cells), default=0))
    by_position = {(c.row, c.col): c for c in grid.cells}
    first: dict[int, GridCell] = {}
    for cell in _ordered(grid):
        first.setdefault(cell.row, cell)
    labels = [first[r].row_label if r in first else "" for r in range(grid.n_rows)]
    parents = [first[r].parent_label if r in first else "" for r in range(grid.n_rows)]
    show_under = under_column and any(parents)
    under = [UNDER] if show_under else []
    names = [grid.header[j] if j < len(grid.header) else "" for j in range(width)]
    names[0] = names[0] or "Item"
    with_figures = {c.col for c in grid.cells if c.value is not None}
    rows = []
    for r in range(grid.n_rows):
        label = labels[r] if show_under or not parents[r] else f"  {labels[r]}"
        values = [by_position[(r, j)].printed if (r, j) in by_position else "" for j in range(1, width)]
        rows.append([label, *([parents[r]] if show_under else []), *values])
    return GridMatrix(_unique([names[0], *under, *names[1:]]), rows,
                      [False, *(False for _ in under), *(j in with_figures for j in range(1, width))])


def _unique(names: list[str]) -> list[str]:
    """Column names without blanks or repeats ("2024", "2024 (2)"): a data frame needs unique ones."""
    seen: dict[str, int] = {}
    out = []
    for j, name in enumerate(names):
        name = name or f"Column {j}"
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


def _ordered(grid: TableGrid) -> list[GridCell]:
    return sorted(grid.cells, key=lambda c: (c.row, c.col))


def _number(x: float | None) -> float | int | None:
    """Whole floats as ints (1000, not 1000.0) for JSON and CSV."""
    return int(x) if isinstance(x, float) and x.is_integer() else x
