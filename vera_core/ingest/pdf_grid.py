"""A detected PDF table (one region per page) -> a raw grid: header rows with column spans, body rows
with one cell per column, and the box of every printed cell.

Value columns are re-clustered from the body's figures only: a year printed left of its right-aligned
figures ("2018" over "8,738") would otherwise make a column of its own. Header cells take the columns
they stretch over, so "Year ended December 31" above "2018 2017 2016" spans all three.
"""

from __future__ import annotations

from vera_core.ingest.pdf_rows import CURRENCY_SYMBOLS, Cell, Row
from vera_core.ingest.pdf_tables import TableRegion, _merge_currency, is_numeric
from vera_core.records import RawCell, RawGrid, Rect

_GAP = 2.0
"""Points between two value cells' x-ranges under which they belong to one column."""


def region_raw_grid(regions: list[TableRegion]) -> RawGrid | None:
    """The raw grid of one logical table (a region per page, already known to continue each other).
    None when its body has no value column."""
    columns = _value_columns([row for region in regions for row in region.body])
    if not columns:
        return None
    width = len(columns) + 1
    label_left = min(row.x0 for region in regions for row in region.body)
    header: list[tuple[RawCell, ...]] = []
    body: list[tuple[RawCell | None, ...]] = []
    indents: list[float] = []
    for number, region in enumerate(regions):
        for row in region.header:
            cells = tuple(_header_cell(cell, row, columns, label_left) for cell in _clean(row.cells))
            if number == 0:
                header.append(cells)
            elif [c.text for c in cells] not in [[c.text for c in h] for h in header]:
                body.append(_place(row, columns, width))  # a sub-heading printed like a header
                indents.append(row.x0)
        for row in region.body:
            body.append(_place(row, columns, width))
            indents.append(row.x0)
    return RawGrid(header=tuple(header), body=tuple(body), width=width, indents=tuple(indents))


def _clean(cells: list[Cell]) -> list[Cell]:
    """Cells with a currency sign joined to its figure, and a sign printed after a figure (it belongs
    to the next column's figure: "$29 $" then "30") dropped, the box shrunk to the figure."""
    out = []
    for cell in _merge_currency(cells):
        text = cell.text.rstrip()
        if len(text) > 2 and text[-1] in CURRENCY_SYMBOLS and text[-2] == " ":
            kept = text[:-1].rstrip()
            x1 = cell.x0 + (cell.x1 - cell.x0) * len(kept) / len(text)
            cell = Cell(cell.x0, x1, kept, cell.size, cell.bold)
        out.append(cell)
    return out


def _value_cells(row: Row) -> list[Cell]:
    """A row's cells right of its label (the first cell, unless that is already a figure)."""
    cells = _clean(row.cells)
    if cells and not is_numeric(cells[0].text):
        cells = cells[1:]
    return [c for c in cells if is_numeric(c.text)]


def _value_columns(rows: list[Row]) -> list[tuple[float, float]]:
    spans = sorted((c.x0, c.x1) for row in rows for c in _value_cells(row))
    columns: list[list[float]] = []
    for x0, x1 in spans:
        if columns and x0 <= columns[-1][1] + _GAP:
            columns[-1][1] = max(columns[-1][1], x1)
        else:
            columns.append([x0, x1])
    return [(a, b) for a, b in columns]


def _column(cell: Cell, columns: list[tuple[float, float]]) -> int:
    """1-based value column of a cell: the one it overlaps most, else the nearest by centre."""
    best, best_overlap = 0, 0.0
    for idx, (x0, x1) in enumerate(columns, start=1):
        overlap = min(cell.x1, x1) - max(cell.x0, x0)
        if overlap > best_overlap:
            best, best_overlap = idx, overlap
    if best:
        return best
    centre = (cell.x0 + cell.x1) / 2
    return 1 + min(range(len(columns)), key=lambda i: abs((columns[i][0] + columns[i][1]) / 2 - centre))


def _box(cell: Cell, row: Row) -> Rect:
    return Rect(row.page, cell.x0, row.y0, cell.x1, row.y1)


def _place(row: Row, columns: list[tuple[float, float]], width: int) -> tuple[RawCell | None, ...]:
    out: list[RawCell | None] = [None] * width
    first_x = columns[0][0]
    for cell in _clean(row.cells):
        col = 0 if cell.x1 < first_x - 2 and not (is_numeric(cell.text) and out[0] is not None) else _column(cell, columns)
        if col == 0 and is_numeric(cell.text) and out[0] is not None and cell.x0 > first_x - 40:
            col = _column(cell, columns)  # a figure just left of its column (wider than the rest)
        previous = out[col]
        if previous is None:
            out[col] = RawCell(cell.text, _box(cell, row))
        else:  # two pieces in one column: one cell (a label broken by a wide gap)
            out[col] = RawCell(f"{previous.text} {cell.text}", previous.box.union(_box(cell, row)))
    return tuple(out)


def _header_cell(cell: Cell, row: Row, columns: list[tuple[float, float]], label_left: float) -> RawCell:
    """A header cell left of the value columns heads the labels only when it starts near them
    ("(Millions)"); a year just left of its right-aligned figures heads that column."""
    if cell.x1 < columns[0][0] - 2 and (cell.x0 <= label_left + 24 or not is_numeric(cell.text)):
        return RawCell(cell.text, _box(cell, row), (0, 0))
    covered = [i for i, (x0, x1) in enumerate(columns, start=1) if min(cell.x1, x1 + 6) - max(cell.x0, x0 - 6) > 0]
    if len(covered) > 1:
        return RawCell(cell.text, _box(cell, row), (covered[0], covered[-1]))
    col = _column(cell, columns)
    return RawCell(cell.text, _box(cell, row), (col, col))
