"""A detected PDF table (one region per page) -> a raw grid: header rows with column spans, body rows
with one cell per column, and the box of every printed cell.

Value columns are re-clustered from the body's figures only: a year printed left of its right-aligned
figures ("2018" over "8,738") would otherwise make a column of its own. Header cells take the columns
they stretch over, so "Year ended December 31" above "2018 2017 2016" spans all three.
"""

from __future__ import annotations

import re

from vera_core.finance.dates import MONTH_DAY, PERIOD_LEAD
from vera_core.ingest.pdf_rows import CURRENCY_SYMBOLS, Cell, Row
from vera_core.ingest.pdf_tables import TableRegion, _merge_currency, is_numeric, value_column as _column
from vera_core.records import RawCell, RawGrid, Rect

_GAP = 2.0
"""Points between two value cells' x-ranges under which they belong to one column."""
_YEAR_HEAD = re.compile(r"^(?:FY\s*)?(?P<y>(?:19|20)\d\d)(?:\s*\*+|\s*\(\w\))?$", re.I)
"""A column's year as headers print it, footnote mark allowed ("2018*", "FY2019 (a)")."""
_FIGURE_PIECE = re.compile(r"(?:(?P<cur>[$€£¥])\s*)?(?P<num>\(?-?\d[\d,]*(?:\.\d+)?\)?(?:\s?%)?|[—–])")
"""One figure inside a cell that prints several ("$ 2,629", "(0.6)%", "—")."""
_EM_WIDTHS = {",": 0.25, ".": 0.25, "(": 0.333, ")": 0.333, "%": 0.85, "—": 1.0}
"""Advance widths (em) of the characters in figures, as Helvetica and Times set them; others 0.5."""
_YEAR_RANGE = re.compile(r"^(?:19|20)\d\d\s*[-–—]\s*(?:19|20)\d\d$")
_ONE_PERIOD = re.compile(r"^(?:[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+|\d{1,2}\s+[A-Za-z]{3,9}\.?\s+)?(?:FY\s*)?(?:19|20)\d\d"
                         r"(?:\s*\*+|\s*\(\w\))?$", re.I)
"""A header naming one period ("Dec 28, 2019", "31 December 2024", "2019", "FY2019 (a)"): it heads one column."""
_MONTH_DAY_HEAD = re.compile(rf"^(?:{MONTH_DAY.pattern})[\s,]*$", re.I)
"""A date's month and day over its year on the next line ("January 31," over "2023"): it heads one column too."""
_LABEL_EDGE = 24.0
"""Points right of a page's leftmost row start within which a row's first cell is its label."""


def region_raw_grid(regions: list[TableRegion]) -> RawGrid | None:
    """The raw grid of one logical table (a region per page, already known to continue each other).
    None when its body has no value column."""
    parts = [_split_years(region) for region in regions]
    if not any(rows for _, rows in parts):
        return None
    columns = _value_columns([row for _, rows in parts for row in rows])
    if not columns:
        return None
    width = len(columns) + 1
    label_left = min(row.x0 for _, rows in parts for row in rows)
    header: list[tuple[RawCell, ...]] = []
    body: list[tuple[RawCell | None, ...]] = []
    indents: list[float] = []
    for number, (heads, rows) in enumerate(parts):
        placed = [(row, tuple(_header_cell(cell, row, columns, label_left, own_dates)
                              for cell in _clean(row.cells)))
                  for row in heads for own_dates in (_month_days([row], len(columns)),)]
        dated = {col for _, cells in placed for c in cells if _YEAR_IN.search(c.text) for col in _spanned(c)}
        for row, cells in placed:
            if number == 0 and dated >= set(range(1, len(columns) + 1)) and _centred_lead(row, columns):
                cells = (RawCell(cells[0].text, cells[0].box, (1, len(columns))),)
            if number == 0:
                header.append(cells)
            elif [c.text for c in cells] not in [[c.text for c in h] for h in header]:
                body.append(_place(row, columns, width))  # a sub-heading printed like a header
                indents.append(row.x0)
        for row in rows:
            body.append(_place(row, columns, width))
            indents.append(row.x0)
    return RawGrid(header=tuple(header), body=tuple(body), width=width, indents=tuple(indents))


def _split_years(region: TableRegion) -> tuple[list[Row], list[Row]]:
    """A region's header and body rows, a leading body row of years ("2018*  2017  2016", footnote
    marks allowed) moved to the header: the years head the columns, they are not figures."""
    header, body = list(region.header), list(region.body)
    while len(body) > 1:
        cells = _clean(body[0].cells)
        heads = cells[1:] if cells and not _YEAR_HEAD.match(cells[0].text.strip()) else cells
        numbers = [int(m.group("y")) for c in heads if (m := _YEAR_HEAD.match(c.text.strip()))]
        # NOTE: each year under its own month and day ("January 31," over "2023" beside "April 30," over "2023")
        # completes that date: the years may repeat, and one row of figures may follow
        dates = _month_days(header[-1:], len(heads))
        if len(body) == 2 and not dates:
            break
        if len(heads) < 2 or len(numbers) != len(heads) or len(set(numbers)) != len(numbers) and not dates \
                or numbers not in (sorted(numbers), sorted(numbers, reverse=True)):
            break
        header.append(body.pop(0))
    return header, body


def _month_days(rows: list[Row], count: int) -> bool:
    """Whether the row(s) print only dates' months and days ("April 30,", "January 31,"), `count` of them: one
    over each column, whose year the row below prints."""
    cells = [c for row in rows for c in _clean(row.cells)]
    return count >= 2 and len(cells) == count and all(_MONTH_DAY_HEAD.match(c.text.strip()) for c in cells)


def _clean(cells: list[Cell]) -> list[Cell]:
    """Cells with a currency sign joined to its figure, a sign printed after a figure (it belongs
    to the next column's figure: "$29 $" then "30") dropped, the box shrunk to the figure, and a cell
    printing several figures split into one cell per figure."""
    out = []
    for cell in _merge_currency(cells):
        text = cell.text.rstrip()
        if len(text) > 2 and text[-1] in CURRENCY_SYMBOLS and text[-2] == " ":
            kept = text[:-1].rstrip()
            x1 = cell.x0 + (cell.x1 - cell.x0) * len(kept) / len(text)
            cell = Cell(cell.x0, x1, kept, cell.size, cell.bold)
        out.extend(_split_figures(cell))
    return out


def _split_figures(cell: Cell) -> list[Cell]:
    """A cell printing several figures ("7,229 $ 2,629", "37,412 36,958 35,748": neighbouring columns
    set close together) as one cell per figure; any other cell as it is. Glyphs take their usual
    widths at the cell's font size (digits are set fixed-width) and the spaces share what is left:
    a PDF moves the pen between figures without printing wider spaces."""
    text = cell.text
    pieces = list(_FIGURE_PIECE.finditer(text))
    if len(pieces) < 2 or _YEAR_RANGE.match(text.strip()) or not _only_space(text, pieces):
        return [cell]
    glyphs = sum(_EM_WIDTHS.get(ch, 0.5) for ch in text if ch != " ") * cell.size
    spaces = text.count(" ")
    slack = (cell.x1 - cell.x0 - glyphs) / spaces if spaces else 0.0
    scale = 1.0 if slack >= 0 else (cell.x1 - cell.x0) / glyphs  # the size overstates: shrink to fit
    offsets = [0.0]
    for ch in text:
        width = max(slack, 0.0) if ch == " " else _EM_WIDTHS.get(ch, 0.5) * cell.size * scale
        offsets.append(offsets[-1] + width)
    out = []
    for m in pieces:
        start = m.start("num")
        out.append(Cell(cell.x0 + offsets[start], cell.x0 + offsets[m.end()],
                        (m.group("cur") or "") + text[start:m.end()], cell.size, cell.bold))
    return out


def _only_space(text: str, pieces: list[re.Match]) -> bool:
    """Whether nothing but spaces lies before, between and after the pieces."""
    edges = [0, *(x for m in pieces for x in (m.start(), m.end())), len(text)]
    return all(not text[a:b].strip() for a, b in zip(edges[::2], edges[1::2]))


def _value_cells(row: Row, label_left: float) -> list[Cell]:
    """A row's cells right of its label: the first cell, unless that is a figure printed away from
    the label edge (a wrapped label's last line "16)" or a year labelling a maturity row is a label)."""
    cells = _clean(row.cells)
    if cells and (not is_numeric(cells[0].text) or cells[0].x0 <= label_left + _LABEL_EDGE):
        cells = cells[1:]
    return [c for c in cells if is_numeric(c.text)]


def _value_columns(rows: list[Row]) -> list[tuple[float, float]]:
    lefts: dict[int, float] = {}
    for row in rows:
        lefts[row.page] = min(lefts.get(row.page, row.x0), row.x0)
    spans = sorted((c.x0, c.x1) for row in rows for c in _value_cells(row, lefts[row.page]))
    columns: list[list[float]] = []
    for x0, x1 in spans:
        if columns and x0 <= columns[-1][1] + _GAP:
            columns[-1][1] = max(columns[-1][1], x1)
        else:
            columns.append([x0, x1])
    return [(a, b) for a, b in columns]


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


_YEAR_IN = re.compile(r"\b(?:19|20)\d\d\b")


def _spanned(cell: RawCell) -> range:
    return range(cell.span[0], cell.span[1] + 1)


_CENTRED = 0.1
"""How far (a share of the value columns' width) a lone period header's centre may lie from theirs and still head them all."""


def _centred_lead(row: Row, columns: list[tuple[float, float]]) -> bool:
    """A row printing only a period's words ("Three Months Ended"), centred over the value columns: when each
    of them prints its year or date, it heads every one, though it touches only the middle ones (eBay's
    supplemental data prints it over five quarters' dates). A column without a date (a share "Ratio" beside
    each year's amount) keeps the headers over it."""
    cells = _clean(row.cells)
    if len(cells) != 1 or len(columns) < 3 or not PERIOD_LEAD.fullmatch(cells[0].text.strip(" ,")):
        return False
    left, right = columns[0][0], columns[-1][1]
    return abs((cells[0].x0 + cells[0].x1) / 2 - (left + right) / 2) <= _CENTRED * (right - left)


def _header_cell(cell: Cell, row: Row, columns: list[tuple[float, float]], label_left: float,
                 own_dates: bool = False) -> RawCell:
    """A header cell left of the value columns heads the labels only when it starts near them
    ("(Millions)"); a year just left of its right-aligned figures heads that column, and so does each of a row
    of months and days printed one over each column (`own_dates`: "April 30," beside "January 31,")."""
    if cell.x1 < columns[0][0] - 2 and (cell.x0 <= label_left + 24
                                         or not (is_numeric(cell.text) or _ONE_PERIOD.match(cell.text.strip()))):
        return RawCell(cell.text, _box(cell, row), (0, 0))
    covered = [i for i, (x0, x1) in enumerate(columns, start=1) if min(cell.x1, x1 + 6) - max(cell.x0, x0 - 6) > 0]
    if len(covered) > 1 and not (_ONE_PERIOD.match(cell.text.strip()) or own_dates):  # a date or a year heads one column
        return RawCell(cell.text, _box(cell, row), (covered[0], covered[-1]))
    col = _column(cell, columns)
    return RawCell(cell.text, _box(cell, row), (col, col))
