"""Table detection from text geometry: runs of rows whose cells line up in numeric columns.

Financial filings draw most tables without ruling lines (or with hundreds of shaded cells), where
`page.find_tables()` costs 0.3-2 s per page. Here a table is found from rows already extracted for
the text, at ~1 ms per page: a run of rows with numeric cells in aligned columns, grown upwards over
its column headers and caption and downwards over its footnotes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from vera_core.finance.dates import MONTH_WORD, PERIOD_HEADING
from vera_core.finance.money import scale_statement
from vera_core.finance.statements import is_statement_title
from vera_core.ingest.pdf_rows import CURRENCY_SYMBOLS, Cell, Row

_NUMBER = re.compile(
    r"^[(\[]?[-–—+]?\s*[$€£¥]?\s*[-–—]?\d[\d,. ]*\d?\s*%?\s*(pts?|bps|x|m|bn|k)?[)\]]?\s*%?\*?$", re.IGNORECASE)
_DASH = re.compile(r"^[-–—]+$")
_YEAR = re.compile(r"^(fy\s*)?(19|20)\d\d$", re.IGNORECASE)
FOOTNOTE_MARK = re.compile(r"^(\(\w{1,2}\)|\*+|†|‡|[¹²³⁴⁵⁶⁷⁸⁹]|\d{1,2}[).]|note[s]?:|source:)", re.IGNORECASE)
_DAY = re.compile(r"(?:[12]?\d|3[01]),")
"""A day of the month printed with its comma, the rest of its date on the line above."""
MAX_HEADER_ROWS = 6
MAX_CAPTION_ROWS = 3
MAX_FOOTNOTE_ROWS = 8


def is_numeric(text: str) -> bool:
    """A table value: amount, percentage, parenthesised negative, dash placeholder, or year."""
    t = re.sub(r"^([$€£¥])\s*\(", r"(\1", text.strip())  # "$(88)" is "($88)"
    return bool(_NUMBER.match(t) or _DASH.match(t) or t.lower() in {"n/a", "nm", "n/m"})


@dataclass
class TableRegion:
    """A table found on one page (a multi-page table is several regions merged by the caller)."""

    page: int
    body: list[Row]
    columns: list[tuple[float, float]]
    """x-intervals of the value columns, left to right; the label column lies left of the first."""
    header: list[Row] = field(default_factory=list)
    caption: list[Row] = field(default_factory=list)
    footnotes: list[Row] = field(default_factory=list)
    chart: str = ""
    """The chart's name when the region is a chart read as a table (`pdf_charts.py`)."""
    stub: bool = False
    """A table's start at the page's foot: its header and one row, the rest atop the next page (Costco's balance
    sheet: its dates, "ASSETS" and "Cash and cash equivalents" end page 3). Kept only when the next page continues it."""
    carried_title: str = ""
    """A statement's title printed alone at the foot of the page before, over nothing ("Unaudited Condensed
    Consolidated Statement of Cash Flows" ending page 8, the statement on page 9): the table's title too."""

    @property
    def rows(self) -> list[Row]:
        """Every row the region consumes, top to bottom."""
        return self.caption + self.header + self.body + self.footnotes

    @property
    def grid_rows(self) -> list[Row]:
        return self.header + self.body


def _value_cells(row: Row) -> list[Cell]:
    return [c for c in _merge_currency(row.cells)[1:]]


def _merge_currency(cells: list[Cell]) -> list[Cell]:
    out: list[Cell] = []
    for cell in cells:
        if out and out[-1].text in CURRENCY_SYMBOLS:
            prev = out.pop()
            # NOTE: the merged cell keeps the number's own x-range: a far-left `$` would make columns overlap.
            cell = Cell(cell.x0, cell.x1, f"{prev.text}{cell.text}", cell.size, cell.bold)
        out.append(cell)
    return out


def _is_numeric_row(row: Row) -> bool:
    cells = _merge_currency(row.cells)
    if len(cells) < 2:
        return False
    numeric = [c for c in cells if is_numeric(c.text)]
    return any(is_numeric(c.text) for c in cells[1:]) and (len(numeric) >= 2 or not is_numeric(cells[0].text))


def _columns(rows: list[Row]) -> list[tuple[float, float]]:
    spans = sorted((c.x0, c.x1) for row in rows for c in _merge_currency(row.cells)[1:])
    columns: list[list[float]] = []
    for x0, x1 in spans:
        if columns and x0 <= columns[-1][1] + 2:
            columns[-1][1] = max(columns[-1][1], x1)
        else:
            columns.append([x0, x1])
    return [(a, b) for a, b in columns]


def _aligned(rows: list[Row], columns: list[tuple[float, float]]) -> bool:
    """At least one value column holds values from two or more rows."""
    for x0, x1 in columns:
        hits = sum(1 for row in rows if any(x0 <= c.x0 and c.x1 <= x1 for c in _value_cells(row)))
        if hits >= 2:
            return True
    return False


def find_tables(rows: list[Row], body_size: float, text_right: float) -> list[TableRegion]:
    """Tables among one page's rows (furniture already removed), top to bottom."""
    flags = [_is_numeric_row(r) for r in rows]
    regions: list[TableRegion] = []
    used: set[int] = set()
    i = 0
    while i < len(rows):
        if not flags[i] or i in used:
            i += 1
            continue
        start, end = i, i
        j = i + 1
        while j < len(rows):
            gap = rows[j].y0 - rows[j - 1].y1
            line = max(rows[j - 1].height, 4.0)
            if gap > 2.6 * line:
                break
            if flags[j]:
                end = j
            elif not _label_row_inside(rows, flags, j, end, text_right):
                break
            j += 1
        body = rows[start:end + 1]
        columns = _columns([r for r, f in zip(body, flags[start:end + 1]) if f])
        numeric_rows = sum(flags[start:end + 1])
        # NOTE: a band of dates and years and nothing else is the header of the table below, not a table (eBay's
        # supplemental data prints "(In millions, except percentages)" between its dates and its figures)
        stub = numeric_rows == 1 and end == len(rows) - 1  # NOTE: kept only with a header, and a next page to continue it
        if (numeric_rows >= 2 and _aligned(body, columns) or stub) and columns and not _dates_only(body):
            region = TableRegion(page=body[0].page, body=body, columns=columns, stub=stub)
            first = _grow_header(rows, start, region, used)
            if region.stub and not _dated_header(region.header):
                i = end + 1
                continue
            _split_year_header(region)
            _grow_caption(rows, first, region, body_size, used)
            _grow_footnotes(rows, end + 1, region, used)
            used.update(range(first, end + 1))
            regions.append(region)
            i = end + 1 + len(region.footnotes)
        else:
            i = end + 1
    return regions


def _dated_header(header: list[Row]) -> bool:
    """Whether header rows name the columns' dates or years and print no amount ("May 7, 2023" / "August 28," / "2022";
    never a row of figures taken for a header)."""
    text = " ".join(r.text for r in header)
    return bool(re.search(r"\b(?:19|20)\d\d\b", text)) and not re.search(r"\$|\d,\d{3}|\d\.\d", text)


_MONTH_DAY = re.compile(rf"^{MONTH_WORD}(?:\s+(?:[12]?\d|3[01]),?)?$", re.I)
"""A month with or without its day, as a header band prints it first ("June 30,", "December")."""


def _date_part(text: str) -> bool:
    """A piece of a date a header band prints first: a year, a day with its comma, a month with or without its day."""
    return bool(_YEAR.match(text) or _DAY.fullmatch(text) or _MONTH_DAY.match(text))


def _dates_only(body: list[Row]) -> bool:
    """Whether the rows print no label and every figure of theirs is a year or a date's day ("June 30," over
    "2023"): a table's header printed apart from it, not a labelled table of years (debt maturities)."""
    if any(r.cells and not _date_part(r.cells[0].text.strip()) for r in body):
        return False  # NOTE: a row label ("Maturity", "2027 notes")
    values = [c.text.strip() for r in body for c in _value_cells(r) if is_numeric(c.text)]
    return all(_YEAR.match(v) or _DAY.fullmatch(v) for v in values)


def _label_row_inside(rows: list[Row], flags: list[bool], j: int, end: int, text_right: float) -> bool:
    """A row without values may sit inside a table (a group label, a wrapped row label) when it stays
    in the label column and a numeric row follows within three rows."""
    row = rows[j]
    first_value_x = min((c.x0 for c in _value_cells(rows[end])), default=text_right)
    if row.x1 > first_value_x - 2 or len(row.text) > 160:
        return False
    return any(flags[k] for k in range(j + 1, min(j + 4, len(rows))))


MAX_GROUP_ROWS = 3
"""Label-only rows ("ASSETS", "Current assets:", "Revenues:") a header may sit above: they open the body."""


def _grow_header(rows: list[Row], start: int, region: TableRegion, used: set[int]) -> int:
    """Take the column-header rows above the body (and the group labels between them and the body,
    which open the body); return the index of the first row taken."""
    first = start
    lo = region.columns[0][0]
    # NOTE: a caption runs across from the labels' side; a header date wider than its right-aligned
    # figures ("3/25/2023" over "17,846") starts just left of them and is still a header
    across = min(r.x0 for r in region.body) + 0.5 * (lo - min(r.x0 for r in region.body))
    groups: list[int] = []  # label-only rows read above the body, taken only when a header lies above them
    k = start
    while k > 0 and len(region.header) < MAX_HEADER_ROWS and k - 1 not in used:
        row, below = rows[k - 1], rows[k]
        gap = below.y0 - row.y1
        if gap > 2.2 * max(row.height, 4.0):
            break
        if not any(c.x1 > lo - 4 for c in row.cells):  # no cell over the value columns
            if region.header or len(groups) >= MAX_GROUP_ROWS or len(row.text) > 80 or row.text.rstrip().endswith("."):
                break
            groups.insert(0, k - 1)  # a group label, or text above the table: decided by what lies above
            k -= 1
            continue
        if any(c.x0 < min(lo - 4, across) and c.x1 > lo + 4 for c in row.cells):  # text running across: caption
            break
        if any(_is_amount(c.text) for c in _value_cells(row)):
            break  # a row of amounts above the body is not its header (another table's last row)
        if groups:  # the label rows between this header and the body open the body
            region.body[:0] = [rows[i] for i in groups]
            groups = []
        region.header.insert(0, row)
        k -= 1
        first = k
    return first


def _is_amount(text: str) -> bool:
    """A figure that is not a year ("$(2,182)", "8,555"): a row of them is data, never a header."""
    t = text.strip().replace("$(", "($").lstrip("$€£¥ ")
    return is_numeric(t) and not _YEAR.match(t) and not _DASH.match(t) and not _DAY.fullmatch(t)


def _split_year_header(region: TableRegion) -> None:
    """Leading body rows whose values are years or words (no amounts) are column headers."""
    while len(region.body) > 2:
        row = region.body[0]
        values = [c.text.strip() for c in _value_cells(row)]
        # NOTE: a date's day broken onto its own line ("Nine Months Ended September" over "30,") is a header word
        if values and all(_YEAR.match(v) or _DAY.fullmatch(v) or not is_numeric(v) for v in values):
            region.header.append(region.body.pop(0))
        else:
            break


_LEAD_SCALE = re.compile(r"\((?:(?:dollars|amounts|figures|U\.?S\.?\s+dollars)\s+)?in\s+(?:thousands|millions|billions)\b"
                         r"[^()]*?\bexcept\b[^()]*?\bwhich\s+(?:is|are)\s+(?:presented|stated|shown|expressed|reported)?\s*"
                         r"in\s+(?:thousands|millions|billions)\b", re.I)
"""A scale with a row's exception stated in a sentence that leads into a table ("... for each of the periods
indicated (in millions, except remaining performance obligation, which is presented in billions):"): without
it the row would take the document's scale."""


def _grow_caption(rows: list[Row], first: int, region: TableRegion, body_size: float, used: set[int]) -> None:
    k = first - 1
    top = region.rows[0]
    while k >= 0 and len(region.caption) < MAX_CAPTION_ROWS and k not in used:
        row = rows[k]
        if top.y0 - row.y1 > 1.8 * max(row.height, 4.0):
            break
        text = row.text.strip()
        # NOTE: a statement's title and period printed large ("Consolidated Statements of Cash Flows",
        # "Years ended December 31, 2021, 2020, and 2019") still caption it, unless a caption names it already
        titled = any(is_statement_title(r.text) for r in region.caption)
        large_caption = not titled and (is_statement_title(text) or PERIOD_HEADING.search(text))
        if text.endswith(":") and not region.caption and len(row.cells) == 1:
            # NOTE: a lead-in that states the table's scale ("... for each of the periods indicated (in millions,
            # except remaining performance obligation, which is presented in billions):") is its caption too
            lead = [k - 1, k] if k > 0 and k - 1 not in used and not rows[k - 1].text.strip().endswith((".", ":", ";")) \
                and len(rows[k - 1].cells) == 1 and row.y0 - rows[k - 1].y1 < 1.8 * max(row.height, 4.0) else [k]
            if _LEAD_SCALE.search(" ".join(rows[i].text for i in lead)):
                region.caption[:0] = [rows[i] for i in lead]
                used.update(lead)
            break
        if len(row.cells) > 1 or len(text.split()) > 16 or text.endswith((".", ":", ";")) \
                or row.size > body_size + 1.5 and not large_caption:
            break
        region.caption.insert(0, row)
        used.add(k)
        top = row
        k -= 1
    if not any(is_statement_title(r.text) for r in region.caption):
        _title_above(rows, k, region, used)


MAX_TITLE_LOOKUP = 4
"""Short rows above a table's caption searched for the statement's title (a gap or a company line between)."""


def _title_above(rows: list[Row], k: int, region: TableRegion, used: set[int]) -> None:
    """A statement's title printed a little above the caption ("CONDENSED CONSOLIDATED STATEMENT OF
    INCOME", a blank line, "Dollars in millions") is the table's title too."""
    for j in range(k, max(-1, k - MAX_TITLE_LOOKUP), -1):
        if j in used or len(rows[j].cells) > 1 or len(rows[j].text.split()) > 12:
            return
        if rows[j].page == region.page and is_statement_title(rows[j].text):
            # NOTE: the scale line under the title ("(dollars in millions, except per share data)") is
            # the table's too, though a gap parts both from the table
            scales = [i for i in range(j + 1, k + 1) if i not in used and scale_statement(rows[i].text)]
            region.caption[:0] = [rows[j]] + [rows[i] for i in scales]
            used.update([j, *scales])
            return


def _grow_footnotes(rows: list[Row], k: int, region: TableRegion, used: set[int]) -> None:
    table_size = max(r.size for r in region.body)
    bottom = region.body[-1]
    while k < len(rows) and len(region.footnotes) < MAX_FOOTNOTE_ROWS:
        row = rows[k]
        if row.y0 - bottom.y1 > 2.2 * max(row.height, 4.0):
            break
        small = row.size < table_size - 0.4
        marked = bool(FOOTNOTE_MARK.match(row.text.strip()))
        continuing = bool(region.footnotes) and row.size <= region.footnotes[-1].size
        if not (small or marked and row.size <= table_size or continuing and small):
            break
        region.footnotes.append(row)
        used.add(k)
        bottom = row
        k += 1


def region_grid(region: TableRegion) -> tuple[list[str], list[list[str]]]:
    """The table as (header cells, body rows) over label + value columns."""
    width = len(region.columns) + 1

    def place(row: Row) -> list[str]:
        out = [""] * width
        for cell in _merge_currency(row.cells):
            col = _column_of(cell, region.columns)
            out[col] = f"{out[col]} {cell.text}".strip()
        return out

    header = [""] * width
    for row in region.header:
        for col, text in enumerate(place(row)):
            header[col] = f"{header[col]} {text}".strip()
    return header, [place(r) for r in region.body]


def _column_of(cell: Cell, columns: list[tuple[float, float]]) -> int:
    if cell.x1 < columns[0][0] - 2:
        return 0
    return value_column(cell, columns)


def value_column(cell: Cell, columns: list[tuple[float, float]]) -> int:
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


def markdown_rows(text: str) -> list[str]:
    """The row lines of a table written by `grid_markdown`, header first, without the separator."""
    return [line for line in text.splitlines() if line.startswith("|") and not line.startswith("|---")]


def table_cells(line: str) -> list[str]:
    """Cells of one row written by `grid_markdown` (the inverse of its row format)."""
    return [c.strip() for c in line.strip().strip("|").split(" | ")]


def grid_markdown(header: list[str], body: list[list[str]]) -> str:
    """GitHub-flavoured Markdown of a grid; pipes inside cells are escaped."""
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
    return "\n".join([line(header), "|" + "---|" * len(header)] + [line(r) for r in body])
