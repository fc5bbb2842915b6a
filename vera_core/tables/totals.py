"""Totals a table prints without a label. Many statements print a subtotal as a bare row of figures under a rule
("Current assets:", its four lines, then the sum with no words beside it: HCA's, Patriot Transportation's and
Weis Markets' balance sheets): a question about "total current assets" finds no row. Such a row is named "Total
<heading>" when every figure it prints is the sum of the rows above it, back to the heading they are printed
under; the arithmetic, not the layout alone, says what it is."""

from __future__ import annotations

import re
from dataclasses import replace

from vera_core.records import GridCell, TableGrid

__all__ = ["MIN_ROWS", "NONCURRENT_HEADINGS", "label_noncurrent", "label_totals"]

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


_CURRENT_TOTAL = re.compile(r"^\s*total\s+current\s+(?P<side>assets|liabilities)\b", re.I)
_SECTION_END = re.compile(r"^\s*(?:total\b|commitments\b|contingencies\b|temporary\s+equity\b|redeemable\b|"
                          r"(?:stockholders|shareholders|members|owners)['\u2019]?\s+equity\b|equity\b)", re.I)
NONCURRENT_HEADINGS = {"assets": "Non-current assets", "liabilities": "Long-term liabilities"}
"""The group a balance sheet's rows after its current total belong to when it prints no heading for them."""


def label_noncurrent(grid: TableGrid) -> TableGrid:
    """The grid with the rows a balance sheet prints after "Total current liabilities" (or assets) and before its next
    total or the equity section, without a heading of their own, put under "Long-term liabilities" (or "Non-current
    assets"): Intel's "Debt" after its current liabilities is its long-term debt, as "Short-term debt" above is not."""
    if grid.status != "parsed":
        return grid
    rows = grid.rows()
    parents: dict[int, str] = {}
    side = ""
    for r in sorted(rows):
        label = _label(rows[r])
        total = _CURRENT_TOTAL.match(label)
        if total:
            side = total.group("side").lower()
            continue
        if not side:
            continue
        if not label or _SECTION_END.match(label) or not _values(rows[r]) \
                or any(c.parent_label.strip() for c in rows[r]):
            side = ""  # NOTE: a heading, a total or a row already under a heading ends the unheaded run
            continue
        parents[r] = NONCURRENT_HEADINGS[side]
    if not parents:
        return grid
    cells = tuple(replace(c, parent_label=parents[c.row]) if c.row in parents else c for c in grid.cells)
    return replace(grid, cells=cells)
