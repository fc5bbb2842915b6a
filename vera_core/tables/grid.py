"""Raw grid -> interpreted table: row labels with their parent rows, column headers and periods,
scale and currency, parsed values and boxes. One interpreter for PDF and Markdown tables.

Rules (each a filing convention):
- A label-only row whose next row starts in lower case, or which breaks off mid-phrase (an open
  parenthesis, a trailing comma, "and"), is the first line of a wrapped label.
- A label-only row is a heading for the rows below it that are indented at least as far; a row
  whose label totals it ("Total current assets" under "Current assets", "Net cash provided by
  operating activities" under "Cash flows from operating activities") closes it, and any heading
  nested in it. A heading whose rows are indented ends when a row goes back to the enclosing
  group's indent; a heading at the level of a group whose rows are not indented starts a sub-group
  when its own rows are indented ("Short-term borrowings, by original maturity" in "Financing
  activities"), else a new group.
- The scale comes from a scale line in the caption, header or footnotes ("(In millions, except per
  share amounts)", "EUR thousand"); a table without one inherits the document's (the scale most of
  its statements state). Per-share rows and percentages are never scaled.
- A column headed "Note" holds references, not figures.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from vera_core.ingest.pdf_tables import markdown_rows, table_cells
from vera_core.records import CHART_CAPTION, GridCell, RawCell, RawGrid, TableGrid
from vera_core.finance.dates import DATE_MDY, MONTH_NAME, PERIOD_LEAD, YEAR
from vera_core.tables.column_groups import group_years
from vera_core.tables.periods import column_period, dated
from vera_core.finance.statements import classify_table, is_statement_title
from vera_core.finance.money import (currency_in, label_scale, parse_figure, printed_scale, scale_exceptions,
                                     scale_statement)

_SHARE_COUNT = re.compile(r"^\s*(?:(?:weighted[\s-]+)?average\s+)?(?:number\s+of\s+)?(?:diluted\s+|basic\s+)?"
                          r"(?:common\s+)?shares\b|\bshares\s+(?:used|outstanding)\b", re.I)
"""A count of shares ("Shares used in non-GAAP diluted net income per share calculation"), not a per-share amount."""
_PER_SHARE = re.compile(r"\bper\s+(?:common\s+|ordinary\s+|diluted\s+|basic\s+)?(?:share|unit|ADS)\b|\bEPS\b", re.I)
MONTH_DAY_TAIL = re.compile(r"\s+[A-Za-z]{3,9}\.?\s+\d{1,2},?\s*$")
_PERCENT_OF = re.compile(r"\bas\s+a\s+percent(?:age)?\s+of\b|\bpercent(?:age)?\s+of\s+(?:total\s+)?(?:net\s+)?"
                         r"(?:revenues?|sales)\b", re.I)
"""A table of shares ("Statements of Operations (As a percentage of total revenues)"): its figures are percentages."""
_REFERENCE_COLUMN = re.compile(r"^(?:notes?|ref\.?|see\s+note)$", re.I)
_TOTAL = re.compile(r"^(?:total|net|sub-?total)\b", re.I)
_CONTINUES = re.compile(r"(?:,|\b(?:and|or|of|for|to|the|in|from|by|on|at|with|less))$", re.I)
"""A label line that breaks off mid-phrase: a trailing comma or joining word."""
_WORD = re.compile(r"[a-z]+")
_GENERIC = frozenset("total net cash flows flow from in of and the for provided used by activities".split())


def markdown_raw_grid(markdown: str) -> RawGrid | None:
    """The raw grid of a table chunk's Markdown (pipe tables; grid tables arrive converted)."""
    rows = [table_cells(line) for line in markdown_rows(markdown)]
    if len(rows) < 2:
        return None
    width = max(len(r) for r in rows)
    header = tuple(RawCell(text, None, (j, j)) for j, text in enumerate(rows[0]) if text)
    body = tuple(tuple(RawCell(t) if t else None for t in r + [""] * (width - len(r))) for r in rows[1:])
    return RawGrid(header=(header,) if header else (), body=body, width=width)


def interpret(raw: RawGrid | None, *, chunk_id: str, caption: str = "", title: str = "", footnotes: str = "",
              default_scale: tuple[float, str] | None = None, default_currency: str = "") -> TableGrid:
    """The interpreted grid of one table chunk. `default_scale` is (scale, source) for a table that
    states none; `default_currency` likewise."""
    if raw is None or raw.width < 2 or not raw.body:
        return TableGrid(chunk_id, "unparsed", title=caption or title)
    headers = _spread_period_words(_column_headers(raw))
    labels, parents, kept = _labels(raw)
    # NOTE: a statement's title may print inside its header rows ("CONSOLIDATED STATEMENTS OF CASH FLOWS For the ...")
    titled_header = next((h for h in headers[:2] if is_statement_title(h)), "")
    statement = classify_table(caption, title, labels) or \
        (classify_table(titled_header, "", labels) if titled_header else "")
    context = f"{caption} {title} {headers[0]}"  # the stub's header often reads "Years ended December 31"
    periods = tuple(None if j == 0 or _REFERENCE_COLUMN.match(headers[j]) else column_period(headers[j], context, statement)
                    for j in range(raw.width))
    periods = group_years(headers, periods)
    # NOTE: "Segment results 2024": every measure column is of 2024; a title naming two years ("as of December 31,
    # 2022 and 2021") says which years the columns hold, not that each holds the first
    if not any(periods) and (caption or title) and len({m.group("y")[-2:] for m in YEAR.finditer(caption or title)}) == 1:
        whole = column_period(caption or title, title, statement)
        periods = tuple(None if j == 0 or _REFERENCE_COLUMN.match(headers[j]) else whole for j in range(raw.width))
    stated = _stated_scale(caption, headers, raw, footnotes)
    scale, source = (stated[0], stated[2]) if stated else (default_scale or (1.0, ""))
    currency = (stated[1] if stated and stated[1] else "") or currency_in(" ".join(headers[:1]) + " " + caption) \
        or default_currency
    percent_table = bool(_PERCENT_OF.search(f"{caption} {title}"))  # "(As a percentage of total revenues)"
    excepted = scale_exceptions(" ".join([caption, *headers, footnotes])) if stated else []
    cells: list[GridCell] = []
    for out_row, (raw_row, label, parent) in enumerate(zip(kept, labels, parents)):
        row_cells = raw.body[raw_row]
        label_cell = row_cells[0]
        per_share = bool(_PER_SHARE.search(label) or _PER_SHARE.search(parent)) and not _SHARE_COUNT.search(label)
        row_scale = label_scale(label) or _excepted_scale(label, excepted) or scale  # "Revenue ($B)" in a table "in millions"
        for col, cell in enumerate(row_cells):
            if cell is None and col:
                continue
            if col == 0:
                cells.append(GridCell(out_row, 0, label, parent, headers[0], label, None,
                                      box=label_cell.box if label_cell else None,
                                      label_box=label_cell.box if label_cell else None))
                continue
            value, unit = parse_figure(cell.text)
            if _REFERENCE_COLUMN.match(headers[col]):
                value, unit = None, ""
            if value is not None and not unit and ("%" in headers[col] or percent_table):
                unit = "%"
            if unit == "" and per_share:
                unit = "per_share"
            own = printed_scale(cell.text) if value is not None else 1.0  # "$1,076M" on a deck's highlights
            cells.append(GridCell(out_row, col, label, parent, headers[col], cell.text.strip(), value, unit,
                                  1.0 if unit else own if own != 1.0 else row_scale,
                                  currency or (currency_in(cell.text) if own != 1.0 else ""), periods[col], cell.box,
                                  label_cell.box if label_cell else None))
    return TableGrid(chunk_id, "parsed", statement, caption or title, scale, source,
                     currency, tuple(headers), periods, tuple(cells), len(kept))


def _spread_period_words(headers: list[str]) -> list[str]:
    """Headers with the period words of a column group given to each year of the group: a header
    printed over the first of its years only ("Three Months Ended April 30," over "2023" and not
    "2022", or centred so that it touches one column) also heads the bare years to its right."""
    out = list(headers)
    lead = ""
    for j, text in enumerate(headers):
        if j == 0:
            continue
        found = PERIOD_LEAD.search(text)
        if found and YEAR.search(text):
            lead = found.group(0)
        elif lead and YEAR.search(text):
            # NOTE: a column printing its own date ("Apr 2, 2022") takes only the group's length words
            out[j] = f"{MONTH_DAY_TAIL.sub('', lead) if MONTH_NAME.search(text) else lead} {text}"
    return out


def _column_headers(raw: RawGrid) -> list[str]:
    headers = [""] * raw.width
    for row in raw.header:
        for cell in row:
            columns = range(cell.span[0], min(cell.span[1], raw.width - 1) + 1)
            dates = list(DATE_MDY.finditer(cell.text))
            # NOTE: a line of dates read as one cell over the columns it heads ("May 7, 2023 May 8, 2022 May 7,
            # 2023 May 8, 2022" over four columns): each column takes its own date
            own = [d.group(0) for d in dates] if len(columns) > 1 and len(dates) == len(columns) and \
                not DATE_MDY.sub("", cell.text).strip(" ,") else None
            for i, col in enumerate(columns):
                headers[col] = f"{headers[col]} {own[i] if own else cell.text}".strip()
    return headers


def _excepted_scale(label: str, excepted: list[tuple[str, float]]) -> float | None:
    """The scale the table's scale line gives this row by name ("except remaining performance obligation,
    which is presented in billions"), None when it names none."""
    words = set(re.findall(r"[a-z]+", label.lower()))
    for what, scale in excepted:
        named = set(re.findall(r"[a-z]+", what.lower()))
        if named and named <= words:
            return scale
    return None


def _stated_scale(caption: str, headers: list[str], raw: RawGrid, footnotes: str) -> tuple[float, str, str] | None:
    """The scale line of the table: caption, then headers, then leading label-only rows, then footnotes."""
    lead = [r[0].text for r in raw.body[:3] if r[0] is not None and all(c is None for c in r[1:])]
    for text in (caption, *headers, *lead, footnotes):
        found = scale_statement(text) if text else None
        if found:
            return found
    return None


@dataclass
class _Group:
    """A heading row and the rows it heads."""

    indent: float
    label: str
    child: float | None = None
    """Indent of the first row under the heading; None until one is read."""


def _labels(raw: RawGrid) -> tuple[list[str], list[str], list[int]]:
    """Row labels (wrapped lines joined), each row's parent heading row, and which raw rows remain."""
    labels: list[str] = []
    parents: list[str] = []
    kept: list[int] = []
    stack: list[_Group] = []
    pending, pending_indent = "", None
    for i, row in enumerate(raw.body):
        label = row[0].text.strip() if row[0] is not None else ""
        has_values = any(c is not None for c in row[1:])
        indent = raw.indents[i] if raw.indents else 0.0
        nxt = raw.body[i + 1][0].text.strip() if i + 1 < len(raw.body) and raw.body[i + 1][0] is not None else ""
        opened = label.count("(") > label.count(")")
        if not has_values and label and nxt and (opened or (nxt[:1].islower() or _CONTINUES.search(label))
                                                 and not label.endswith(":")):
            pending = f"{pending} {label}".strip()  # the first line of a wrapped label
            pending_indent = indent if pending_indent is None else pending_indent
            continue
        if pending:
            label, indent, pending, pending_indent = f"{pending} {label}".strip(), pending_indent, "", None
        if raw.indents:
            _leave_groups(stack, indent, has_values, raw.indents[i + 1] if i + 1 < len(raw.indents) else indent)
        elif not has_values:
            stack.clear()
        closed = next((k for k in range(len(stack) - 1, -1, -1) if _closes(label, stack[k].label)), None) \
            if has_values or not label else None
        parent = stack[closed].label if closed is not None else stack[-1].label if stack else ""
        if stack and stack[-1].child is None:
            stack[-1].child = indent
        labels.append(label)
        parents.append(parent)
        kept.append(i)
        if closed is not None:
            del stack[closed:]
        elif not has_values and label:
            stack.append(_Group(indent, label.rstrip(":")))
    return labels, parents, kept


def _leave_groups(stack: list[_Group], indent: float, has_values: bool, next_indent: float) -> None:
    """Close the groups a row at `indent` is no longer part of (PDF tables, where indents are known)."""
    while stack:
        top = stack[-1]
        if top.indent > indent + 1:  # printed left of the heading
            stack.pop()
            continue
        if not has_values and top.indent >= indent - 1:  # another heading at the heading's level
            flat = top.child is not None and top.child <= top.indent + 1
            if flat and next_indent > indent + 1:  # a sub-group inside a group whose rows are not indented
                return
            stack.pop()
            continue
        outer = stack[-2] if len(stack) > 1 else None
        if has_values and outer is not None and outer.child is not None and abs(outer.child - indent) <= 1 \
                and top.child is not None and top.child > top.indent + 1 and indent <= top.indent + 1:
            stack.pop()  # back at the enclosing group's rows: the indented sub-group ended
            continue
        return


def _closes(label: str, parent: str) -> bool:
    """Whether a row is the total of the group its parent heads."""
    if not _TOTAL.match(label):
        return False
    words = {w for w in _WORD.findall(parent.lower()) if w not in _GENERIC} or set(_WORD.findall(parent.lower()))
    own = set(_WORD.findall(label.lower()))
    return bool(words) and len(words & own) / len(words) >= 0.6


def document_scale(grids: Sequence[TableGrid]) -> tuple[float, str] | None:
    """The scale most of a document's statements state (else most of its tables), for tables that
    state none; None when no table states one."""
    for pool in ([g for g in grids if g.statement and g.scale_source], [g for g in grids if g.scale_source]):
        if pool:
            scale, _ = Counter((g.scale, 0) for g in pool).most_common(1)[0][0]
            return scale, "document"
    return None


def with_document_periods(grid: TableGrid, year_ends: dict[int, str]) -> TableGrid:
    """A grid whose year columns print no end date (or no period words at all), dated with the
    document's fiscal year ends (`periods.dated`)."""
    if grid.status != "parsed" or not year_ends:
        return grid
    periods = tuple(dated(p, year_ends) for p in grid.periods)
    if periods == grid.periods:
        return grid
    cells = tuple(replace(c, period=periods[c.col]) if c.period is not None else c for c in grid.cells)
    return replace(grid, periods=periods, cells=cells)


PEOPLE_COUNTED = re.compile(r"^\s*(?:total\s+)?(?:number\s+of\s+)?(?:full[\s-]time\s+equivalents?\s+)?"
                            r"(?:head\s?count|employees|FTEs?)\b(?!\s+\w)", re.I)
"""A row counting people ("Full time equivalent headcount", "Employees (in thousands)"): a number of them, whatever
scale the document's amounts are in ("Issuance of securities to employees" is an amount)."""


def with_document_scale(grid: TableGrid, scale: tuple[float, str] | None, currency: str) -> TableGrid:
    """A grid that stated no scale (or currency), given the document's. A chart read as a table keeps its own: its
    unit line names its scale ("In Billions"), and a chart without one prints units ("$13.65" revenue per person)."""
    if grid.status != "parsed" or (grid.scale_source and grid.currency) or grid.title.startswith(CHART_CAPTION):
        return grid
    new_scale = grid.scale if grid.scale_source or scale is None else scale[0]
    new_currency = grid.currency or currency
    # NOTE: a grid that stated its scale keeps each cell's own (a row its scale line excepts: "except remaining
    # performance obligation, which is presented in billions"); only its currency comes from the document
    # NOTE: a row that states its own scale in words keeps it ("Family Daily Active People (DAP) (In Billions)" on a
    # slide); a bare "(B)" may be a footnote's mark ("Restructuring (B)"), and the document's scale applies
    # NOTE: a figure printed with its scale's letter ("$1,076M") keeps that scale
    # NOTE: a count of people ("Full time equivalent headcount" among a release's additional metrics) is never in
    # the document's money scale or currency
    cells = tuple(c if c.col and PEOPLE_COUNTED.search(c.row_label) else
                  replace(c, scale=new_scale if c.col and not c.unit and not grid.scale_source
                          and label_scale(c.row_label, letters=False) is None and printed_scale(c.printed) == 1.0
                          else c.scale,
                          currency=(new_currency or c.currency) if c.col else c.currency) for c in grid.cells)
    return replace(grid, scale=new_scale, scale_source=grid.scale_source or (scale[1] if scale else ""),
                   currency=new_currency, cells=cells)
