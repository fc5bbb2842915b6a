"""Totals a table prints without a label. Many statements print a subtotal as a bare row of figures under a rule
("Current assets:", its four lines, then the sum with no words beside it: HCA's, Patriot Transportation's and
Weis Markets' balance sheets): a question about "total current assets" finds no row. Such a row is named "Total
<heading>" when every figure it prints is the sum of the rows above it, back to the heading they are printed
under; the arithmetic, not the layout alone, says what it is."""

from __future__ import annotations

import re
from dataclasses import replace

from vera_core.records import GridCell, TableGrid

__all__ = ["MIN_ROWS", "label_totals"]

MIN_ROWS = 2
"""A sum of one row is that row again, not a total."""
_TOTAL = re.compile(r"^\s*total\b", re.I)
_NOT_HEADING = re.compile(r"^\s*(?:\(|\*|less\b|add\b|plus\b|deduct\b|note\b)", re.I)
MAX_HEADING_WORDS = 8
"""A longer line above the rows is a sentence or a footnote, not the heading they are printed under."""


def _values(cells: list[GridCell]) -> dict[int, float]:
    return {c.col: c.value for c in cells if c.col > 0 and c.value is not None}


def _label(cells: list[GridCell]) -> str:
    return next((c.row_label for c in cells if c.row_label.strip()), "").strip()


def label_totals(grid: TableGrid) -> TableGrid:
    """The grid with each unlabelled row that sums the rows above it (at least MIN_ROWS, back to a heading row
    that prints no figures) labelled "Total <heading>", under the heading's own group when it has one; the grid
    itself when there is none."""
    if grid.status != "parsed":
        return grid
    rows = grid.rows()
    order = sorted(rows)
    named: dict[int, str] = {}
    parents: dict[int, str] = {}
    for i, r in enumerate(order):
        values = _values(rows[r])
        if _label(rows[r]) or not values:
            continue
        group, heading = [], ""
        for above in reversed(order[:i]):
            label, printed = _label(rows[above]), _values(rows[above])
            if not label or above in named or _TOTAL.match(label):
                break
            if not printed:
                heading = label
                outer = next((c.parent_label for c in rows[above] if c.parent_label.strip()), "")
                break
            group.append(printed)
        if len(group) < MIN_ROWS or not heading or _NOT_HEADING.match(heading) or len(heading.split()) > MAX_HEADING_WORDS:
            continue
        if all(col in g for g in group for col in values) and all(
                abs(sum(g[col] for g in group) - value) <= 0.5 * len(group) for col, value in values.items()):
            named[r] = f"Total {heading.rstrip(':').strip()}"
            if outer:  # NOTE: Intel's "Client Computing" total is a line of "Net revenue:", the heading's own group
                parents[r] = outer
    if not named:
        return grid
    cells = tuple(replace(c, row_label=named[c.row], parent_label=parents.get(c.row, c.parent_label))
                  if c.row in named else c for c in grid.cells)
    return replace(grid, cells=cells)
