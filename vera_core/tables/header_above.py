"""A table whose year header was printed above the region the parser took for the table: Incyte's statements with
dot leaders ("Year Ended December 31, / 2022 / 2021 / 2020" then "Revenues:" rows) are read from the first row of
figures on, so the grid's columns carry no period and a figure question passes them by for a note's dated table (a
deferred-tax row answered "R&D expense"). The years are read from the end of the text just before the table, on its
page, when they stand alone in a run as long as the grid's columns of figures; a row printed between those years and
the table ("Product revenues, net . . . $2,746,897 $2,322,012 $2,068,736": the first row, its figures set with "$")
is the grid's first row again, one figure to each column. Applied to grids when they are read (`Workspace.doc_grids`),
so a store needs no re-ingest."""

from __future__ import annotations

import re
from dataclasses import replace

from vera_core.finance.money import parse_figure, scale_statement
from vera_core.records import GridCell, TableGrid
from vera_core.tables.periods import column_period

__all__ = ["dated_from_text_above"]

TAIL_CHARS = 600
"""How much of the text before a table its header may sit in."""
_YEAR_RUN = re.compile(r"(?:(?<=\n)|(?<=^)|(?<=[,:]\s)|(?<=[,:]))[ \t]*(?P<run>(?:(?:19|20)\d\d[ \t\n]+)*(?:19|20)\d\d)"
                       r"[ \t]*(?=\n|$)")
"""Years standing alone, one after another (one to a line or side by side), at the end of a line."""
_YEAR = re.compile(r"(?<![\d,.$])(?:19|20)\d\d(?![\d,.]\d)")
_FIGURE = r"\$?\s?\(?\$?\s?-?\d[\d,]*(?:\.\d+)?\)?"
_LEADERS = re.compile(r"(?:\s*\.){3,}\s*")
_HEADING = re.compile(r"(?P<heading>[A-Z][^.:\n]{1,60}):\s*$")


def dated_from_text_above(grid: TableGrid, text_above: str) -> TableGrid:
    """The grid with its columns of figures dated by a run of years at the end of `text_above` (the text printed just
    before it on its page): only a grid with no dated column, only a run with one year per column of figures, each
    read with the words before the run ("Year Ended December 31,") and the grid's title. Itself otherwise."""
    if grid.status != "parsed" or any(grid.periods) or not text_above:
        return grid
    columns = sorted({c.col for c in grid.cells if c.col and c.value is not None})
    tail = text_above[-TAIL_CHARS:]
    runs = list(_YEAR_RUN.finditer(tail))
    if not columns or not runs:
        return grid
    run = runs[-1]
    years = _YEAR.findall(run.group("run"))
    # NOTE: a run must stand for the columns, one year to each, and nothing dated may follow it before the table
    # NOTE: one year alone ends many a line that heads no table ("FORM 10-K FOR THE FISCAL YEAR ENDED DECEMBER 31, 2022")
    if len(years) < 2 or len(years) != len(columns) or len(set(years)) != len(years) or _YEAR.search(tail[run.end():]):
        return grid
    context = f"{tail[max(0, run.start() - 120):run.start()]} {grid.title}"
    periods = list(grid.periods) or [None] * (max(columns) + 1)
    header = list(grid.header) or [""] * len(periods)
    for col, year in zip(columns, years):
        if col >= len(periods):
            return grid
        periods[col] = column_period(year, context, grid.statement)
        header[col] = f"{header[col]} {year}".strip()
    if not all(periods[col] and periods[col].end for col in columns):  # a year with no month of its end dates nothing
        return grid
    cells = tuple(replace(c, period=periods[c.col], header=header[c.col]) if c.col in columns else c
                  for c in grid.cells)
    # NOTE: "(in millions)" printed with the years states the table's scale, where the grid has only the document's
    stated = scale_statement(tail[max(0, run.start() - 200):]) if grid.scale_source in ("", "document") else None
    if stated:
        grid = replace(grid, scale=stated[0], scale_source=stated[2], currency=stated[1] or grid.currency)
        cells = tuple(replace(c, scale=stated[0]) if c.col and c.value is not None and not c.unit else c for c in cells)
    first = _rows_between(tail[run.end():], grid, columns, periods, header)
    added = len(first) // (len(columns) + 1)
    if first:
        cells = (*first, *(replace(c, row=c.row + added) for c in cells))
    return replace(grid, periods=tuple(periods), header=tuple(header), cells=cells, n_rows=grid.n_rows + added)


def _rows_between(text: str, grid: TableGrid, columns: list[int], periods: list, header: list[str]) -> list[GridCell]:
    """The rows printed between the header's years and the table: a label run to its figures by dot leaders, one figure
    to each column of figures, under the heading line before it ("Revenues:") if any."""
    row_line = re.compile(rf"(?P<label>[A-Za-z(][^$\n]*?){_LEADERS.pattern}(?P<figures>(?:{_FIGURE}\s*){{{len(columns)}}})"
                          rf"(?=\s*(?:$|[A-Z(]))")
    cells: list[GridCell] = []
    parent = ""
    at = 0
    for found in row_line.finditer(text):
        heading = _HEADING.search(text[at:found.start()])
        parent = heading.group("heading") if heading else parent
        at = found.end()
        figures = re.findall(_FIGURE, found.group("figures"))
        if len(figures) != len(columns):
            return []
        label = " ".join(found.group("label").split())
        row = len(cells) // (len(columns) + 1)
        cells.append(GridCell(row, 0, label, parent, header[0] if header else "", label, None))
        for col, printed in zip(columns, figures):
            value, unit = parse_figure(printed)
            if value is None:
                return []
            cells.append(GridCell(row, col, label, parent, header[col], printed.strip(), value, unit,
                                  1.0 if unit else grid.scale, grid.currency, periods[col]))
    return cells
