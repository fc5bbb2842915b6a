"""A slide's bar or line chart as a table (captioned `records.CHART_CAPTION` + its name): the periods along its axis
("Q4'22 ... Q4'24", "2022 2023 2024") and one value printed over each bar or point, read as one row named by the
slide's title and unit line ("Family Daily Active People (DAP)", "In Billions"). A deck prints its figures this way,
not as tables: without this reader a question for "DAP in Q4 2024" finds the value only as a number in a paragraph
with no period beside it.

Read only where it is unambiguous: an axis row of three or more period labels and nothing else, and exactly one number
above each label within a third of the labels' spacing. A stacked chart ("Advertising Revenue by User Geography": a
total over each bar, its parts stacked under it, a legend beside the last bar naming them top to bottom, as charting
tools print it) is read as one row per part, named by the legend, and a row of totals, only when every bar prints its
total and as many parts as the legend names and the parts add up to the total (a grouped chart, or a stack whose parts
do not add up, is left as text). The values' own lines stay in the page's text; the table is an added reading of them.
"""

from __future__ import annotations

import re

from vera_core.finance.dates import QUARTER, YEAR
from vera_core.finance.money import parse_figure
from vera_core.ingest.pdf_rows import Cell, Row
from vera_core.ingest.pdf_tables import TableRegion
from vera_core.tables.periods import column_period

__all__ = ["chart_regions", "with_charts"]

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


def with_charts(rows: list[Row], tables: list[TableRegion]) -> list[TableRegion]:
    """A deck page's table regions with its charts (`chart_regions`): a stacked chart read whole replaces the tables
    found over its figures (a table read over a stack's scattered labels is no table)."""
    claimed: set[int] = set()
    charts = chart_regions(rows, tables, claimed)
    return [t for t in tables if not any(id(r) in claimed for r in t.rows)] + charts


def chart_regions(rows: list[Row], tables: list[TableRegion], claimed: set[int] | None = None) -> list[TableRegion]:
    """The charts on one page's rows (furniture removed) as table regions, each a header row (its periods) and one body
    row made for it and inserted into `rows` just below the axis; `tables` are the page's tables already found (a row
    of theirs is never an axis, save a stacked chart's: its rows, axis, figures and legend, go into `claimed`). An axis
    that repeats its periods is several panels ("Worldwide", "US & Canada", "Europe" printed under each), one region
    each, named by the title and the panel's name."""
    taken = {id(row) for region in tables for row in region.rows}
    axes = {id(r): (r, labels) for r in rows if (labels := _axis_labels(r))}
    free_axes = [(a, labels) for a, labels in axes.values() if id(a) not in taken]
    page_left = min((r.x0 for r in rows), default=0.0)
    found: list[TableRegion] = []
    for axis, labels in axes.values():
        floor = max((a.y1 for a, _ in (axes.values() if id(axis) in taken else free_axes) if a.y1 <= axis.y0),
                    default=float("-inf"))  # the axis above
        panels = _panels(labels)
        title = _series_name(rows, axis)
        if not title:
            continue
        at = rows.index(axis) + 1
        for panel in panels:
            values = _values(rows, axis, panel, floor, taken) if id(axis) not in taken else None
            if values is None:
                made = {id(r) for region in found for r in region.rows}
                stacked = _stacked(rows, axis, panel, floor, made) if len(panels) == 1 else None
                if stacked is not None:
                    if claimed is not None:
                        claimed.update({id(axis)} | {id(r) for _, cells in stacked for r in _rows_of(rows, cells)}
                                       | {id(r) for r in rows if floor <= r.y0 <= axis.y1 and r.x0 > panel[-1].x1})
                    region, added = _stacked_region(rows, axis, panel, title, stacked, min(page_left, panel[0].x0 - 10), at)
                    rows[at:at] = added
                    at += len(added)
                    taken.update(id(r) for r in added)
                    found.append(region)
                continue
            name = title
            if len(panels) > 1:
                below = _panel_name(rows, axis, panel)
                if not below:
                    continue  # NOTE: panels no name tells apart would be one row under repeated periods
                name = f"{title}: {below}"
            left = min(page_left, panel[0].x0 - 10)  # the name's cell lies left of the first period
            y0 = axis.y1 + 0.01 * at
            header = Row(axis.page, panel[0].x0, y0, panel[-1].x1, y0 + 0.001, _year_to_date(rows, axis, panel),
                         axis.size, False)
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


STACK_TOLERANCE = 0.5
"""Units of a printed figure's last digit each part may be off by (rounding) when the parts are checked against the
total."""


def _stacked(rows: list[Row], axis: Row, panel: list[Cell], floor: float, taken: set[int]) -> list[tuple[str, list[Cell]]] | None:
    """A stacked chart's series over a panel: (name, one value per label), the totals first (named ''), then each part
    from the top of the stack down, named by the legend beside the last bar; None unless every bar prints its total and
    one part per legend name, and its parts add up to its total."""
    over = _over_labels(rows, axis, panel, floor, taken)
    legend = _legend(rows, axis, panel, floor, taken)
    if over is None or len(legend) < 2 or any(len(v) != len(legend) + 1 for v in over):
        return None
    series: list[tuple[str, list[Cell]]] = [("", [])] + [(name, []) for name in legend]
    for stack in over:
        figures = [parse_figure(c.text)[0] for c in stack]
        digits = max(len(c.text.strip().rstrip("%)").split(".")[1]) if "." in c.text else 0 for c in stack)
        if any(f is None for f in figures) or abs(figures[0] - sum(figures[1:])) > STACK_TOLERANCE * len(legend) * 10 ** -digits:
            return None
        for (_, cells), cell in zip(series, stack):
            cells.append(cell)
    return series


def _over_labels(rows: list[Row], axis: Row, panel: list[Cell], floor: float, taken: set[int]) -> list[list[Cell]] | None:
    """The numbers over each label of a panel, each label's top to bottom; None when a label has none."""
    centres = [_centre(c) for c in panel]
    spacing = min(b - a for a, b in zip(centres, centres[1:]))
    if spacing <= 0:
        return None
    over: list[list[tuple[float, Cell]]] = [[] for _ in panel]
    for row in rows:
        if not (floor <= row.y0 and row.y1 <= axis.y0) or id(row) in taken:
            continue
        for cell in row.cells:
            if parse_figure(cell.text)[0] is None or _is_period_label(cell.text):
                continue
            nearest = min(range(len(panel)), key=lambda i: abs(centres[i] - _centre(cell)))
            if abs(centres[nearest] - _centre(cell)) <= ALIGN_SHARE * spacing:
                over[nearest].append(((row.y0 + row.y1) / 2, cell))
    if any(not v for v in over):
        return None
    return [[cell for _, cell in sorted(v, key=lambda x: x[0])] for v in over]


def _legend(rows: list[Row], axis: Row, panel: list[Cell], floor: float, taken: set[int]) -> list[str]:
    """The names printed one per line right of a panel's last label, above its axis, top to bottom, starting at one
    left edge ("Rest of World", "Asia-Pacific", "Europe", "US & Canada")."""
    right = panel[-1].x1
    names = [(row.y0, cell) for row in rows if floor <= row.y0 and row.y0 <= axis.y1 and id(row) not in taken
             for cell in row.cells if cell.x0 > right and parse_figure(cell.text)[0] is None
             and not _is_period_label(cell.text) and re.search(r"[A-Za-z]", cell.text)]
    if not names or max(c.x0 for _, c in names) - min(c.x0 for _, c in names) > 3.0:
        return []
    return [cell.text.strip() for _, cell in sorted(names, key=lambda x: x[0])]


def _stacked_region(rows: list[Row], axis: Row, panel: list[Cell], title: str, series: list[tuple[str, list[Cell]]],
                    left: float, at: int) -> tuple[TableRegion, list[Row]]:
    """A stacked chart's region (its periods; a row of totals named by the title, one row per part named "title: part")
    and the rows made for it, to insert into the page's rows at `at`."""
    y0 = axis.y1 + 0.01 * at
    header = Row(axis.page, panel[0].x0, y0, panel[-1].x1, y0 + 0.001, list(panel), axis.size, False)
    body: list[Row] = []
    for name, values in series:
        cells = [Cell(left, left + 1.0, f"{title}: {name}" if name else title, axis.size, False)]
        cells += [Cell(v.x0, v.x1, v.text.strip(), v.size, v.bold) for v in values]
        spanned = _rows_of(rows, values)
        body.append(Row(axis.page, left, min(r.y0 for r in spanned), panel[-1].x1, max(r.y1 for r in spanned), cells,
                        axis.size, False))
    region = TableRegion(page=axis.page, body=body, columns=[(c.x0, c.x1) for c in panel], header=[header], chart=title)
    return region, [header, *body]


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
    over = _over_labels(rows, axis, panel, floor, taken)
    if over is None or any(len(v) != 1 for v in over):
        return None  # a label without its value, or a stacked chart: left as text (or read by `_stacked`)
    return [v[0] for v in over]


_YTD = re.compile(r"^(?:YTD|year[\s-]to[\s-]date)$", re.I)
_MONTHS_WORDS = {2: "Six", 3: "Nine"}
"""A year to date through the second or third quarter (through the first it is the quarter, through the fourth the year)."""


def _year_to_date(rows: list[Row], axis: Row, panel: list[Cell]) -> list[Cell]:
    """A panel's period labels, a year under a "YTD" group label ("Quarterly" under Q3'24 and Q3'25, "YTD" under 2024
    and 2025, printed just below the axis) read as the months to the quarter the panel's quarters name ("Nine Months
    Ended 2025" beside Q3'25): Meta's capital expenditure slide prints the year-to-date figure over the year alone."""
    groups = [c for r in rows if axis.y1 - 1 <= r.y0 <= axis.y1 + 2.5 * max(axis.height, 4.0) for c in r.cells
              if panel[0].x0 - 50 <= _centre(c) <= panel[-1].x1 + 50 and parse_figure(c.text)[0] is None
              and not _is_period_label(c.text)]
    if not any(_YTD.match(c.text.strip()) for c in groups):
        return list(panel)
    periods = [column_period(_MARK.sub("", cell.text.strip()), "") for cell in panel]
    quarters: dict[int, int] = {}
    for period in periods:
        if period is not None and period.kind == "quarter" and period.year and period.quarter:
            quarters[period.year] = max(quarters.get(period.year, 0), period.quarter)
    out = []
    for cell, period in zip(panel, periods):
        group = min(groups, key=lambda g: abs(_centre(g) - _centre(cell)))
        yearly = period is not None and period.kind in ("year", "fiscal_year") and period.year
        months = _MONTHS_WORDS.get(quarters.get(period.year, 0)) if yearly else None
        out.append(Cell(cell.x0, cell.x1, f"{months} Months Ended {cell.text.strip()}", cell.size, cell.bold)
                   if months and _YTD.match(group.text.strip()) else cell)
    return out


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
