"""A total a table prints without a label (`tables.totals`) and the rows a question names by their own label
(`answer.figures.row_labels`), on small grids shaped as filings print them."""

from __future__ import annotations

from dataclasses import replace

from vera_core.answer.figures.row_labels import named_rows
from vera_core.records import GridCell, Period, TableGrid
from vera_core.tables.totals import label_totals

Y22, Y21 = Period("instant", "2022-12-31", 2022), Period("instant", "2021-12-31", 2021)


def _grid(rows: list[tuple[str, tuple[float | None, float | None]]]) -> TableGrid:
    cells = []
    for r, (label, values) in enumerate(rows):
        cells.append(GridCell(r, 0, label, "", "", label, None))
        for col, (value, period) in enumerate(zip(values, (Y22, Y21)), start=1):
            if value is not None:
                cells.append(GridCell(r, col, label, "", str(period.year), f"{value:,.0f}", value, scale=1e6,
                                      period=period))
    return TableGrid("c1", "parsed", "balance", "CONSOLIDATED BALANCE SHEETS", 1e6, cells=tuple(cells), n_rows=len(rows))


def _labels(grid: TableGrid) -> list[str]:
    return [cells[0].row_label for _, cells in sorted(grid.rows().items())]


def test_a_bare_row_that_sums_the_rows_under_a_heading_is_their_total():
    grid = label_totals(_grid([("Current assets:", (None, None)), ("Cash", (100, 90)), ("Receivables", (50, 40)),
                               ("Inventories", (25, 20)), ("", (175, 150)), ("Property", (500, 480))]))
    assert _labels(grid)[4] == "Total Current assets"


def test_a_bare_row_that_is_not_the_sum_stays_unnamed():
    grid = label_totals(_grid([("Current assets:", (None, None)), ("Cash", (100, 90)), ("Receivables", (50, 40)),
                               ("", (999, 150))]))
    assert _labels(grid)[3] == ""


def test_no_heading_or_a_single_row_is_no_total():
    assert _labels(label_totals(_grid([("Cash", (100, 90)), ("Receivables", (50, 40)), ("", (150, 130))])))[2] == ""
    assert _labels(label_totals(_grid([("Land:", (None, None)), ("Land", (100, 90)), ("", (100, 90))])))[2] == ""


def test_a_question_names_the_longest_printed_label_never_the_company_name():
    grids = {"d": [_grid([("Mortgage notes payable", (3438, 4309)), ("Notes payable", (7000, 7100)),
                          ("American Express", (159.71, 120.0))])]}
    found = named_rows("What mortgage notes payable did the company show at December 31, 2022?", grids)
    assert [n.label for n in found][:1] == ["Mortgage notes payable"]
    assert not named_rows("What did American Express report at year-end 2022 ($ millions)?", grids,
                          company=frozenset({"american", "expres"}))


def test_a_segment_total_printed_without_a_label_is_a_line_of_the_segment_heading_s_own_group():
    """Intel prints "Net revenue:" > "Client Computing" > Desktop, Notebook, Other and a bare sum: that sum is Client
    Computing's revenue, a line of "Net revenue", so a margin asked of the segment divides by it."""
    rows = [("Net revenue:", (None, None)), ("Client Computing", (None, None)), ("Desktop", (1879, 2641)),
            ("Notebook", (3407, 5959)), ("", (5286, 8600))]
    grid = _grid(rows)
    parents = {0: "", 1: "Net revenue", 2: "Client Computing", 3: "Client Computing", 4: "Client Computing"}
    grid = TableGrid(grid.chunk_id, "parsed", "", "Operating segment results", 1e6,
                     cells=tuple(GridCell(c.row, c.col, c.row_label, parents[c.row], c.header, c.printed, c.value,
                                          scale=c.scale, period=c.period) for c in grid.cells), n_rows=len(rows))
    total = [c for c in label_totals(grid).cells if c.row == 4]
    assert {(c.row_label, c.parent_label) for c in total} == {("Total Client Computing", "Net revenue")}
    # a heading with no group of its own keeps its total under it, as before
    flat = _grid([("Current assets:", (None, None)), ("Cash", (100, 90)), ("Receivables", (50, 40)), ("", (150, 130))])
    flat = replace(flat, cells=tuple(replace(c, parent_label="" if c.row == 0 else "Current assets") for c in flat.cells))
    assert {(c.row_label, c.parent_label) for c in label_totals(flat).cells if c.row == 3} == {
        ("Total Current assets", "Current assets")}
