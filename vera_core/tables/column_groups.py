"""A year centred over a group of columns belongs to the whole group: "Net Sales | 2022 % of Total | Operating Income"
then "Net Sales | 2021 % of Total | Operating Income" (a segment table) print each year over the middle column of its
three, and a reader of the header alone dates only that column. Applied when a table is read (`interpret`) and to
grids stored before (`Workspace.doc_grids`), so a store needs no re-ingest."""

from __future__ import annotations

import re
from dataclasses import replace

from vera_core.records import Period, TableGrid
from vera_core.tables.periods import COMPARISON, column_period

__all__ = ["group_years", "grouped_grid"]

_GROUP_WORDS = re.compile(r"(?:FY\s?)?(?:19|20)\d\d|\(\d\)")
"""A header's year and footnote marks: what differs between the repeated headers of column groups."""


def group_years(headers: list[str] | tuple[str, ...], periods: tuple[Period | None, ...]) -> tuple[Period | None, ...]:
    """Periods with each dated column's period given to the undated columns of its group. Applies when the dated
    columns are evenly spaced (a step of at least two) and the groups' headers repeat, column for column, once years
    and footnote marks are set aside; a column comparing periods ("% change") keeps none."""
    dated = [j for j, p in enumerate(periods) if p is not None]
    if len(dated) < 2:
        return periods
    step = dated[1] - dated[0]
    if step < 2 or any(b - a != step for a, b in zip(dated, dated[1:])):
        return periods
    bare = [" ".join(_GROUP_WORDS.sub(" ", h).lower().split()) for h in headers]
    for offset in range(step):
        first = dated[0] - offset
        if first < 1 or first + step * len(dated) > len(headers):
            continue
        groups = [bare[first + g * step:first + (g + 1) * step] for g in range(len(dated))]
        if all(group == groups[0] for group in groups) and all(groups[0]):
            out = list(periods)
            for g, j in enumerate(dated):
                for col in range(first + g * step, first + (g + 1) * step):
                    if out[col] is None and not COMPARISON.search(headers[col]):
                        out[col] = periods[j]
            return tuple(out)
    return periods


def grouped_grid(grid: TableGrid) -> TableGrid:
    """The grid with its columns' periods grouped (`group_years`), its cells dated to match; itself when none moves."""
    if grid.status != "parsed" or not grid.header:
        return grid
    # NOTE: a grid stored before "2022 % of Total" was read as 2022 has that column undated: read it again
    context = f"{grid.title} {grid.header[0]}"
    read = tuple(p if p is not None or not j else column_period(grid.header[j], context, grid.statement)
                 for j, p in enumerate(grid.periods))
    periods = group_years(grid.header, read)
    if periods == grid.periods:
        return grid
    cells = tuple(replace(c, period=periods[c.col]) if c.col and c.period is None and c.col < len(periods) else c
                  for c in grid.cells)
    return replace(grid, periods=periods, cells=cells)
