"""A slide's bar or line chart as a table (captioned `records.CHART_CAPTION` + its name): the periods along its axis
("Q4'22 ... Q4'24", "2022 2023 2024") and one value printed over each bar or point, read as one row named by the
slide's title and unit line ("Family Daily Active People (DAP)", "In Billions"). A deck prints its figures this way,
not as tables: without this reader a question for "DAP in Q4 2024" finds the value only as a number in a paragraph
with no period beside it.

Read only where it is unambiguous: an axis row of three or more period labels and nothing else, and exactly one number
above each label within a third of the labels' spacing (a stacked or grouped chart, with several numbers over a label,
is left as text). The values' own lines stay in the page's text; the table is an added reading of them.
"""

from __future__ import annotations

import re

from vera_core.finance.dates import QUARTER, YEAR
from vera_core.finance.money import parse_figure
from vera_core.ingest.pdf_rows import Cell, Row
from vera_core.ingest.pdf_tables import TableRegion

__all__ = ["chart_regions"]

MIN_LABELS = 3
"""An axis names at least this many periods."""
ALIGN_SHARE = 0.34
"""A value sits over its label when its centre is within this share of the labels' spacing from the label's."""
_UNIT_LINE = re.compile(r"^\s*\(?\s*(?:\$|US\$|USD)?\s*in\s+(?:thousands|millions|billions|percent|%)\s*\)?\s*$", re.I)
_MARK = re.compile(r"(?:[*†‡]+|\(\d\))$")


def _is_period_label(text: str) -> bool:
    """A quarter or a year and nothing else ("Q4'24", "3Q23", "2024", "FY2023")."""
    text = _MARK.sub("", text.strip())  # NOTE: "Q3'25*": the quarter a footnote qualifies
    return bool(QUARTER.fullmatch(text) or YEAR.fullmatch(text))


def _centre(cell: Cell) -> float:
    return (cell.x0 + cell.x1) / 2


def chart_regions(rows: list[Row], tables: list[TableRegion]) -> list[TableRegion]:
    """The charts on one page's rows (furniture removed) as table regions, each a header row (its periods) and one body
    row made for it and inserted into `rows` just below the axis; `tables` are the page's tables already found (a row
    of theirs is never an axis). An axis that repeats its periods is several panels ("Worldwide", "US & Canada",
    "Europe" printed under each), one region each, named by the title and the panel's name."""
    taken = {id(row) for region in tables for row in region.rows}
    axes = {id(r): (r, labels) for r in rows if id(r) not in taken and (labels := _axis_labels(r))}
    page_left = min((r.x0 for r in rows), default=0.0)
    found: list[TableRegion] = []
    for axis, labels in axes.values():
        floor = max((a.y1 for a, _ in axes.values() if a.y1 <= axis.y0), default=float("-inf"))  # the axis above
        panels = _panels(labels)
        title = _series_name(rows, axis)
        if not title:
            continue
        at = rows.index(axis) + 1
        for panel in panels:
            values = _values(rows, axis, panel, floor, taken)
            if values is None:
                continue
            name = title
            if len(panels) > 1:
                below = _panel_name(rows, axis, panel)
                if not below:
                    continue  # NOTE: panels no name tells apart would be one row under repeated periods
                name = f"{title}: {below}"
            left = min(page_left, panel[0].x0 - 10)  # the name's cell lies left of the first period
            y0 = axis.y1 + 0.01 * at
            header = Row(axis.page, panel[0].x0, y0, panel[-1].x1, y0 + 0.001, list(panel), axis.size, False)
            cells = [Cell(left, left + 1.0, name, axis.size, False)]
            cells += [Cell(value.x0, value.x1, value.text.strip(), value.size, value.bold) for value in values]
            # NOTE: the row spans the values as printed (a bar's height sets each): a cell's highlight covers its value
            spanned = _rows_of(rows, values)
            top, bottom = min(r.y0 for r in spanned), max(r.y1 for r in spanned)
            body = Row(axis.page, left, top, panel[-1].x1, bottom, cells, axis.size, False)
            rows[at:at] = [header, body]
            at += 2
            taken.update({id(header), id(body)})
            found.append(TableRegion(page=axis.page, body=[body], columns=[(c.x0, c.x1) for c in panel], header=[header],
                                     chart=name))
    return found


def _rows_of(rows: list[Row], cells: list[Cell]) -> list[Row]:
    return [r for r in rows if any(c is cell for c in r.cells for cell in cells)]


def _axis_labels(row: Row) -> list[Cell]:
    labels = [c for c in row.cells if c.text.strip()]
    return labels if len(labels) >= MIN_LABELS and all(_is_period_label(c.text) for c in labels) else []


def _panels(labels: list[Cell]) -> list[list[Cell]]:
    """An axis's labels as panels: a period printed again starts the next panel."""
    panels: list[list[Cell]] = [[]]
    for cell in labels:
        if any(c.text.strip() == cell.text.strip() for c in panels[-1]):
            panels.append([])
        panels[-1].append(cell)
    return [p for p in panels if len(p) >= MIN_LABELS]


def _values(rows: list[Row], axis: Row, panel: list[Cell], floor: float, taken: set[int]) -> list[Cell] | None:
    """The one number over each label of a panel, None unless every label has exactly one."""
    centres = [_centre(c) for c in panel]
    spacing = min(b - a for a, b in zip(centres, centres[1:]))
    if spacing <= 0:
        return None
    values: list[list[Cell]] = [[] for _ in panel]
    for row in rows:
        if not (floor <= row.y0 and row.y1 <= axis.y0) or id(row) in taken:
            continue
        for cell in row.cells:
            if parse_figure(cell.text)[0] is None or _is_period_label(cell.text):
                continue
            nearest = min(range(len(panel)), key=lambda i: abs(centres[i] - _centre(cell)))
            if abs(centres[nearest] - _centre(cell)) <= ALIGN_SHARE * spacing:
                values[nearest].append(cell)
    if any(len(v) != 1 for v in values):
        return None  # a label without its value, or a stacked chart: left as text
    return [v[0] for v in values]


def _panel_name(rows: list[Row], axis: Row, panel: list[Cell]) -> str:
    """The name printed just under a panel's periods ("US & Canada"), '' when none is."""
    lo, hi = panel[0].x0, panel[-1].x1
    for row in sorted((r for r in rows if axis.y1 - 1 <= r.y0 <= axis.y1 + 2.5 * max(axis.height, 4.0)), key=lambda r: r.y0):
        names = [c.text.strip() for c in row.cells if lo <= _centre(c) <= hi and parse_figure(c.text)[0] is None
                 and not _is_period_label(c.text)]
        if len(names) == 1:
            return names[0]
    return ""


def _series_name(rows: list[Row], axis: Row) -> str:
    """The chart's name: the page's largest line above the axis (the slide's title), with the unit line printed just
    below it ("In Billions")."""
    above = [r for r in rows if r.y1 <= axis.y0 and r.text.strip() and parse_figure(r.text)[0] is None]
    if not above:
        return ""
    title = max(above, key=lambda r: (round(r.size, 1), -r.y0))
    after = [r for r in rows if r.y0 >= title.y1 - 1 and r.y0 - title.y1 < 3 * max(title.height, 4.0) and r is not title]
    unit = next((r.text.strip() for r in sorted(after, key=lambda r: r.y0) if _UNIT_LINE.match(r.text)), "")
    return f"{title.text.strip()} ({unit.strip('() ')})" if unit else title.text.strip()
