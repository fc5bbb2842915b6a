"""Table grids (issue 9): every statement cell of the sample report round-trips to its ground truth
(text, row label, value, period, parent row, box); Markdown pipe and grid tables read alike; periods,
figures and scale lines as filings print them; and named cells of real 10-K statements."""

from __future__ import annotations

import re

import pymupdf
import pytest

from tests.conftest import CORPUS, SAMPLE_PDF
from vera_core.config import VeraSettings
from vera_core.ingest.pdf_grid import region_raw_grid
from vera_core.ingest.pdf_rows import Cell, Row
from vera_core.ingest.pdf_tables import TableRegion, find_tables
from vera_core.ingest.service import read_and_parse
from vera_core.records import BlockKind, Period, RawCell, RawGrid, Rect, TableGrid
from vera_core.tables import document_grids
from vera_core.tables.grid import interpret, markdown_raw_grid, with_document_scale
from vera_core.tables.periods import column_period, dated, document_year_ends
from vera_core.finance.statements import classify_table, in_notes
from vera_core.finance.money import parse_figure, printed_scale, scale_statement


def parsed_grids(path, data: bytes | None = None, name: str | None = None) -> tuple[list, list[TableGrid]]:
    """A document's table blocks and their grids (chunk ids are the tables' ordinals)."""
    _, parsed = read_and_parse(path, VeraSettings(), data=data, name=name)
    tables = [b for b in parsed.blocks if b.kind is BlockKind.TABLE]
    return tables, document_grids(parsed.blocks, [f"t{i}" for i in range(len(tables))])


# -- the sample report against its ground truth ----------------------------------------------------


@pytest.fixture(scope="module")
def aurora(ground_truth) -> tuple[list, list[TableGrid], list[dict]]:
    tables, grids = parsed_grids(SAMPLE_PDF)
    return tables, grids, ground_truth[SAMPLE_PDF.name]["tables"]


def gt_period(table: dict, col: int) -> tuple | None:
    """(kind, end, year) of a ground-truth column: its own period, else the table's when the
    column is a measure column of a table that has one ("Segment results 2024")."""
    p = table["columns"][col]["period"]
    if p is None and col and table["period"] and not re.search(r"note|%", table["header"][col], re.I):
        p = table["period"]
    if p is None:
        return None
    return p["kind"], p["end"], p.get("fiscal_year") or int(p["end"][:4])


def expected_value(text: str, header: str, label: str) -> tuple[float | None, str]:
    """The figure a printed sample cell stands for, read independently of the code under test."""
    if header == "Note" or text in ("—", "-"):
        return None, ""
    number = float(re.sub(r"[^\d.]", "", text))
    value = -number if text.startswith("(") else number
    return value, "%" if text.endswith("%") else "per_share" if "per share" in label else ""


def test_every_sample_table_has_a_parsed_grid_named_as_printed(aurora):
    _, grids, truth = aurora
    assert [g.title for g in grids] == [t["caption"] for t in truth]
    assert all(g.status == "parsed" for g in grids)
    assert [g.statement for g in grids] == ["", "income", "balance", "cash_flow", ""]
    assert [list(g.header) for g in grids] == [t["header"] for t in truth]
    assert [g.n_rows for g in grids] == [len(t["rows"]) for t in truth]


@pytest.mark.parametrize("index", range(5), ids=["revenue", "income", "balance", "cash_flow", "segments"])
def test_every_ground_truth_cell_round_trips(aurora, index):
    _, grids, truth = aurora
    grid, table = grids[index], truth[index]
    cells = {(c.row, c.col): c for c in grid.cells}
    assert set(cells) == {(c["row"], c["col"]) for c in table["cells"]}, "cells missing or invented"
    for want in table["cells"]:
        row, col = want["row"], want["col"]
        cell = cells[row, col]
        where = f"{table['caption']!r} row {row} col {col} {want['text']!r}"
        label = table["rows"][row][0]
        assert cell.printed == want["text"], where
        assert cell.row_label == label, where
        assert cell.parent_label == (table["label_parents"][row] or ""), where
        box = Rect(want["page"], *want["bbox"])
        assert cell.box is not None and cell.box.contains(box, tolerance=1.0), f"{where}: {cell.box} vs {box}"
        assert cell.box.x1 - cell.box.x0 <= box.x1 - box.x0 + 20, f"{where}: box wider than its text"
        if col == 0:
            assert cell.value is None and cell.period is None and cell.label_box == cell.box, where
            continue
        assert (cell.value, cell.unit) == expected_value(want["text"], table["header"][col], label), where
        period = cell.period and (cell.period.kind, cell.period.end, cell.period.year)
        assert period == gt_period(table, col), where
        assert cell.label_box is not None and cell.label_box.page == cell.box.page, where
        if cell.value is not None and cell.unit == "":
            assert (cell.scale, cell.currency) == (1000.0, "EUR"), where
        elif cell.unit:
            assert cell.scale == 1.0, f"{where}: a percentage or per-share figure is never scaled"
    assert [p and (p.kind, p.end, p.year) for p in grid.periods] == \
        [None] + [gt_period(table, j) for j in range(1, len(table["header"]))]
    assert (grid.scale, grid.currency) == (1000.0, "EUR")


def test_balance_sheet_over_two_pages_is_one_grid_without_the_repeated_header(aurora):
    tables, grids, truth = aurora
    block, grid, table = tables[2], grids[2], truth[2]
    assert table["header_repeated_on_pages"] == [7] and block.pages == (6, 7)
    labels = [c.row_label for c in grid.cells if c.col == 0]
    assert labels == [r[0] for r in table["rows"]], "a row lost, duplicated or out of order"
    assert not set(labels) & set(table["header"]), "the header printed again on page 7 became a row"
    rows_by_page = {p: sorted({c.row for c in grid.cells if c.box.page == p}) for p in (6, 7)}
    assert rows_by_page[6] == list(range(len(table["rows_by_page"]["6"])))
    assert rows_by_page[7] == list(range(len(rows_by_page[6]), len(table["rows"])))
    first_on_7 = next(c for c in grid.cells if c.box.page == 7 and c.col == 2)
    assert (first_on_7.row_label, first_on_7.parent_label, first_on_7.value) == \
        ("Current tax assets", "Current assets", 3180.0)


# -- Markdown: a pipe table and a grid table read alike ----------------------------------------------

_TITLE = ("# Consolidated income statement for the year ended 31 December 2024\n\n"
          "All figures in the table are audited.\n\n")
PIPE = _TITLE + """| EUR thousand | Note | 2024 | 2023 |
|---|---|---:|---:|
| Revenue | 3 | 1,032,400 | 980,500 |
| Cost of sales |  | (724,180) | (697,340) |
| Other operating income |  | 6,140 | — |
| Operating margin |  | 10.8% | (9.9)% |
| Basic and diluted earnings per share (EUR) |  | 1.42 | 1.23 |
"""
GRID = _TITLE + """+--------------------------------------------+------+-----------+-----------+
| EUR thousand                               | Note | 2024      | 2023      |
+============================================+======+===========+===========+
| Revenue                                    | 3    | 1,032,400 | 980,500   |
+--------------------------------------------+------+-----------+-----------+
| Cost of sales                              |      | (724,180) | (697,340) |
+--------------------------------------------+------+-----------+-----------+
| Other operating income                     |      | 6,140     | —         |
+--------------------------------------------+------+-----------+-----------+
| Operating margin                           |      | 10.8%     | (9.9)%    |
+--------------------------------------------+------+-----------+-----------+
| Basic and diluted earnings per share (EUR) |      | 1.42      | 1.23      |
+--------------------------------------------+------+-----------+-----------+
"""


def test_markdown_pipe_and_grid_tables_give_the_same_grid_without_boxes():
    (_, [pipe]), (_, [grid]) = (parsed_grids("t.md", data=text.encode(), name="t.md") for text in (PIPE, GRID))
    assert pipe == grid
    assert pipe.status == "parsed" and pipe.statement == "income"
    assert pipe.header == ("EUR thousand", "Note", "2024", "2023")
    assert (pipe.scale, pipe.currency) == (1000.0, "EUR")
    fy = Period("fiscal_year", "2024-12-31", 2024, 12)
    assert pipe.periods == (None, None, fy, Period("fiscal_year", "2023-12-31", 2023, 12))
    assert all(c.box is None and c.label_box is None for c in pipe.cells)
    got = {(c.row_label, c.header): (c.printed, c.value, c.unit, c.scale) for c in pipe.cells if c.col}
    assert got == {
        ("Revenue", "Note"): ("3", None, "", 1000.0),
        ("Revenue", "2024"): ("1,032,400", 1032400.0, "", 1000.0),
        ("Revenue", "2023"): ("980,500", 980500.0, "", 1000.0),
        ("Cost of sales", "2024"): ("(724,180)", -724180.0, "", 1000.0),
        ("Cost of sales", "2023"): ("(697,340)", -697340.0, "", 1000.0),
        ("Other operating income", "2024"): ("6,140", 6140.0, "", 1000.0),
        ("Other operating income", "2023"): ("—", None, "", 1000.0),
        ("Operating margin", "2024"): ("10.8%", 10.8, "%", 1.0),
        ("Operating margin", "2023"): ("(9.9)%", -9.9, "%", 1.0),
        ("Basic and diluted earnings per share (EUR)", "2024"): ("1.42", 1.42, "per_share", 1.0),
        ("Basic and diluted earnings per share (EUR)", "2023"): ("1.23", 1.23, "per_share", 1.0),
    }
    assert next(c for c in pipe.cells if c.printed == "1,032,400").period == fy


# -- periods, figures and scale lines as filings print them ------------------------------------------


@pytest.mark.parametrize(("header", "context", "statement", "want"), [
    ("2018", "Year ended December 31", "", Period("fiscal_year", "2018-12-31", 2018, 12)),
    ("2018", "Years ended December 31", "income", Period("fiscal_year", "2018-12-31", 2018, 12)),
    ("2020", "Fiscal years ended December 25, 2021, December 26, 2020 and December 28, 2019", "",
     Period("fiscal_year", "2020-12-26", 2020, 12)),
    ("3/25/2023", "12 Weeks Ended", "", Period("months", "2023-03-25", 2023, 3, 1)),
    ("Three Months Ended March 31, 2023", "", "", Period("months", "2023-03-31", 2023, 3, 1)),
    ("March 31, 2023", "Three Months Ended", "income", Period("months", "2023-03-31", 2023, 3, 1)),
    ("Six months ended June 30, 2023", "", "", Period("months", "2023-06-30", 2023, 6)),
    ("As of December 31, 2022", "", "", Period("instant", "2022-12-31", 2022)),
    ("2018", "Consolidated Balance Sheet", "balance", Period("instant", "", 2018)),
    ("2018", "Consolidated Balance Sheet At December 31", "balance", Period("instant", "2018-12-31", 2018)),
    ("December 31, 2022", "Consolidated Balance Sheets", "balance", Period("instant", "2022-12-31", 2022)),
    # 52/53-week retail years: the year is the one the filer names, not the calendar year of the end
    ("Fiscal 2019 February 2, 2019", "", "", Period("fiscal_year", "2019-02-02", 2019, 12)),
    ("Fiscal 2018 February 3, 2019", "", "", Period("fiscal_year", "2019-02-03", 2018, 12)),
    ("FY2023", "", "income", Period("fiscal_year", "", 2023, 12)),
    ("Note", "Year ended December 31", "income", None),
    ("Change %", "Year ended December 31", "income", None),
])
def test_column_period_reads_real_header_shapes(header, context, statement, want):
    assert column_period(header, context, statement) == want


@pytest.mark.parametrize(("printed", "want"), [
    ("(1,577)", (-1577.0, "")),
    ("$8,738", (8738.0, "")),
    ("$(1,577)", (-1577.0, "")),
    ("$ (1,577)", (-1577.0, "")),
    ("(5.9)%", (-5.9, "%")),
    ("45.1 %", (45.1, "%")),
    ("-12.5", (-12.5, "")),
    ("\u22123.2", (-3.2, "")),
    ("1,032,400", (1032400.0, "")),
    ("—", (None, "")),
    ("–", (None, "")),
    ("n/a", (None, "")),
    ("NM", (None, "")),
    ("1.2x", (None, "")),  # a multiple is a ratio, not an amount or a percentage: not a figure
    ("(1,577", (None, "")),
    ("Note 3", (None, "")),
])
def test_parse_figure(printed, want):
    assert parse_figure(printed) == want


@pytest.mark.parametrize(("printed", "value", "scale"), [
    ("$1,076M", 1076.0, 1e6),
    ("($18M)", -18.0, 1e6),
    ("$4.2bn", 4.2, 1e9),
    ("3.29B", 3.29, 1e9),
    ("$950K", 950.0, 1e3),
    ("$1,234", 1234.0, 1.0),
    ("305,000+", None, 1.0),  # a lower bound is not a figure
    ("5m", None, 1.0),  # a lower-case "m" alone may be metres
    ("12.5M%", None, 1.0),
])
def test_a_figure_printed_with_its_scale_letter_reads_its_number_and_scale(printed, value, scale):
    assert parse_figure(printed)[0] == value
    assert printed_scale(printed) == scale


def test_a_deck_highlights_table_reads_each_figure_in_the_scale_it_prints():
    """Twilio's "Segment Results Highlights" print "$75M" in a table with no "(in millions)": 75 million dollars,
    which the document's own scale does not override; the percentages stay percentages."""
    grid = interpret(markdown_raw_grid("| Metrics | Q3 2023 | Q4 2023 |\n|---|---|---|\n"
                                       "| Segment Revenue | $73M | $75M |\n"
                                       "| Segment Non-GAAP Income from Operations | ($18M) | ($18M) |\n"
                                       "| Y/Y Segment Revenue Growth | 3% | 4% |\n"
                                       "| Segment Active Customer Accounts | 8,200+ | 8,000+ |\n"), chunk_id="t0")
    grid = with_document_scale(grid, (1e3, "document"), "")
    cell = {(c.row_label, c.col): c for c in grid.cells}
    revenue = cell[("Segment Revenue", 2)]
    assert (revenue.value * revenue.scale, revenue.currency) == (75e6, "USD")
    assert cell[("Segment Non-GAAP Income from Operations", 1)].value * 1e6 == -18e6
    assert (cell[("Y/Y Segment Revenue Growth", 2)].value, cell[("Y/Y Segment Revenue Growth", 2)].unit) == (4.0, "%")
    assert cell[("Segment Active Customer Accounts", 1)].value is None


@pytest.mark.parametrize(("line", "scale", "currency"), [
    ("(In millions, except per share amounts)", 1e6, ""),
    ("(Millions)", 1e6, ""),
    ("(Dollars in millions, except per share amount)", 1e6, "USD"),
    ("EUR thousand", 1e3, "EUR"),
    ("(in thousands of U.S. dollars)", 1e3, "USD"),
    ("($ in billions)", 1e9, "USD"),
    ("Amounts in EUR thousand.", 1e3, "EUR"),
])
def test_scale_statement_reads_scale_lines(line, scale, currency):
    found = scale_statement(line)
    assert found is not None and found[:2] == (scale, currency)
    assert found[2] and found[2] in line, "the stated phrase is quoted as printed"


@pytest.mark.parametrize("sentence", ["sales grew by 3 million units", "Revenue of EUR 31.2 million",
                                      "2024", "Total revenue"])
def test_scale_statement_ignores_sentences_that_mention_an_amount(sentence):
    assert scale_statement(sentence) is None


@pytest.mark.parametrize(("caption", "heading", "labels", "want"), [
    ("3M Company and Subsidiaries Consolidated Statement of Changes in Equit y Years Ended December 31",
     "3M Company and Subsidiaries Consolidated Balance Shee t At December 31",
     ["Balance at December 31, 2017", "Net income", "Dividends declared"], "equity"),
    ("", "Consolidated Statement of Cash Flows (continued)",
     ["Financing Activities", "Net Cash Used for Financing Activities"], "cash_flow"),
    ("Common Stock", "Consolidated Statement of Equity", ["Balance, beginning of year", "Share repurchases"], "equity"),
    ("", "NOTE 7. Supplemental Balance Sheet Information", ["Other current assets", "Total other current assets"], ""),
    ("TABLE 9: USCS SELECTED INCOME STATEMENT DATA", "", ["Total revenues net of interest expense", "Net income"], ""),
    ("Statement of Cash Flows", "Acquisition and Divestiture-Related Charges",
     ["Interest paid", "Income taxes paid, net of refunds"], ""),  # a note's table: none of the statement's rows
    ("PARENT COMPANY – CONDENSED STATEMENTS OF CASH FLOWS", "", ["Net cash provided by operating activities"], ""),
    ("CONSOLIDATED BALANCE SHEETS (Millions, except share data)", "", ["Total assets", "Total liabilities"], "balance"),
    # rows alone: one statement's signs decide; net sales beside total assets is a selection of data
    ("", "Item 6. Selected Financial Data", ["Net sales", "Net income attributable to 3M", "Total assets",
                                            "Long-term debt", "a", "b", "c", "d"], ""),
    ("", "", ["Revenue", "Cost of sales", "Gross profit", "Operating profit", "Finance costs",
              "Profit before tax", "Income tax expense", "Net income"], "income"),
])
def test_statement_kind_from_caption_then_heading_then_rows(caption, heading, labels, want):
    assert classify_table(caption, heading, labels) == want


def test_tables_under_a_note_heading_are_not_statements():
    item_8 = "Item 8. Financial Statements and Supplementary Data."
    assert in_notes((item_8, "Note 13 — Acquisitions and Divestitures"))
    assert in_notes(("NOTE 7. Supplemental Balance Sheet Information",))
    assert not in_notes((item_8, "Consolidated Statement of Cash Flows"))


def test_year_columns_take_the_documents_fiscal_year_ends():
    calendar = document_year_ends([Period("fiscal_year", "2018-12-31", 2018, 12), None,
                                   Period("fiscal_year", "2017-12-31", 2017, 12),
                                   Period("instant", "2016-12-31", 2016)])
    assert calendar == {2018: "2018-12-31", 2017: "2017-12-31"}
    assert dated(Period("year", "", 2018), calendar) == Period("fiscal_year", "2018-12-31", 2018, 12)
    assert dated(Period("instant", "", 2016), calendar) == Period("instant", "2016-12-31", 2016)
    assert dated(Period("fiscal_year", "", 2015), calendar) == Period("fiscal_year", "2015-12-31", 2015, 12)
    # 52/53-week years: a year the statements date ends on its own day; an undated year stays undated
    weeks = {2021: "2021-12-25", 2020: "2020-12-26"}
    assert dated(Period("fiscal_year", "", 2020), weeks) == Period("fiscal_year", "2020-12-26", 2020, 12)
    assert dated(Period("year", "", 2018), weeks) == Period("fiscal_year", "", 2018, 12)
    # a retail year named for the calendar year before its end keeps that offset
    retail = {2018: "2019-01-31", 2017: "2018-01-31"}
    assert dated(Period("year", "", 2016), retail) == Period("fiscal_year", "2017-01-31", 2016, 12)
    # what a header already says is kept; a document without dated years changes nothing
    printed = Period("year", "2017-12-31", 2017)
    assert dated(printed, calendar) is printed and dated(Period("year", "", 2018), {}) == Period("year", "", 2018)


# -- PDF layouts: raw grids from rows as the page prints them ----------------------------------------


def pdf_row(y: float, *cells: tuple[float, float, str], size: float = 8.0) -> Row:
    """A row of page 1 from (x0, x1, text) cells."""
    made = [Cell(x0, x1, text, size, False) for x0, x1, text in cells]
    return Row(1, made[0].x0, y, made[-1].x1, y + 10, made, size)


def test_raw_grid_reads_year_rows_wrapped_labels_and_figures_set_close_together():
    region = TableRegion(page=1, columns=[], body=[
        pdf_row(100, (57, 190, "(Dollars in millions, except per share amounts)"), (300, 318, "2018*"),
                (360, 376, "2017"), (420, 436, "2016")),
        pdf_row(112, (57, 90, "Net sales"), (290, 318, "$32,765"), (352, 376, "31,657"), (412, 436, "30,109")),
        pdf_row(124, (57, 250, "Common shares (authorized 3.6 billion; issued 2022: 743; 2021:")),
        pdf_row(136, (63, 73, "16)"), (296, 318, "5,510"), (358, 376, "1,292"), (418, 436, "—")),
        # one text run over three columns, as a PDF may set figures close together: "1,000 $ 2,000 $ 3,000"
        pdf_row(148, (57, 75, "Total"), (300, 436, "1,000 $ 2,000 $ 3,000")),
    ])
    raw = region_raw_grid([region])
    assert raw is not None and raw.width == 4, "a year row or a wrapped label's last line made a column"
    assert [(c.text, c.span) for c in raw.header[0]] == [
        ("(Dollars in millions, except per share amounts)", (0, 0)), ("2018*", (1, 1)), ("2017", (2, 2)),
        ("2016", (3, 3))]
    assert [[c.text if c else None for c in r] for r in raw.body] == [
        ["Net sales", "$32,765", "31,657", "30,109"],
        ["Common shares (authorized 3.6 billion; issued 2022: 743; 2021:", None, None, None],
        ["16)", "5,510", "1,292", "—"],
        ["Total", "1,000", "$2,000", "$3,000"]]
    total = raw.body[3]
    assert [round(c.box.x1) for c in total[1:]] == [318, 377, 436], "each figure's box ends where it is printed"
    grid = interpret(raw, chunk_id="t0")
    assert [c.row_label for c in grid.cells if c.col == 0] == [
        "Net sales", "Common shares (authorized 3.6 billion; issued 2022: 743; 2021: 16)", "Total"]
    assert (grid.scale, grid.currency) == (1e6, "USD")
    assert [c.value for c in grid.cells if c.row == 2 and c.col] == [1000.0, 2000.0, 3000.0]
    assert [p and p.year for p in grid.periods] == [None, 2018, 2017, 2016]


def supplemental_rows(lead: tuple[float, float], ratio: bool = False) -> list[Row]:
    """eBay's supplemental operating data: "Three Months Ended" centred over five quarters' dates (touching only
    the middle ones), each date's day and year on lines of their own, a unit line between the dates and the
    figures. With `ratio`, the last column is a share with no date of its own."""
    dates = [(256, 292, "June 30,"), (312, 357, "March 31,"), (391, 405, "31,"), (438, 504, "September 30,"),
             (524, 560, "June 30,")]
    years = [(263, 286, "2023"), (324, 346, "2023"), (388, 410, "2022"), (461, 483, "2022"), (532, 554, "2022")]
    if ratio:
        dates[-1], years[-1] = (524, 560, "Ratio"), (524, 560, "%")
    figures = [(281, 294), (342, 355), (408, 421), (489, 502), (549, 562)]
    return [pdf_row(240, (lead[0], lead[1], "Three Months Ended")), pdf_row(251, (375, 422, "December")),
            pdf_row(260, *dates), pdf_row(270, *years),
            pdf_row(281, (336, 482, "(In millions, except percentages)")),
            pdf_row(290, (47, 122, "Active Buyers (1)"), *[(a, b, str(132 + k)) for k, (a, b) in enumerate(figures)]),
            pdf_row(300, (47, 190, "Total Gross Merchandise Volume"),
                    *[(a - 30, b, f"$ 18,{214 + k}") for k, (a, b) in enumerate(figures)])]


def test_a_band_of_dates_over_a_unit_line_heads_the_table_below_and_a_centred_period_heads_every_date():
    regions = find_tables(supplemental_rows((361, 456)), 8.0, 570)
    assert len(regions) == 1, "the band of dates was read as a table of its own"
    grid = interpret(region_raw_grid(regions), chunk_id="t0")
    assert grid.periods[1:] == (Period("months", "2023-06-30", 2023, 3, 2), Period("months", "2023-03-31", 2023, 3, 1),
                                Period("months", "2022-12-31", 2022, 3, 4), Period("months", "2022-09-30", 2022, 3, 3),
                                Period("months", "2022-06-30", 2022, 3, 2))
    assert [c.value for c in grid.cells if c.row == 0 and c.col] == [132, 133, 134, 135, 136]
    # printed well off the columns' centre, the same words head the columns they stand over and those to their right
    off = interpret(region_raw_grid(find_tables(supplemental_rows((470, 565)), 8.0, 570)), chunk_id="t0")
    assert off.periods[5] == Period("months", "2022-06-30", 2022, 3, 2) and off.periods[1].months is None
    # a column with no date of its own (a share beside the amounts) is not given the centred period
    shares = interpret(region_raw_grid(find_tables(supplemental_rows((361, 456), ratio=True), 8.0, 570)),
                       chunk_id="t0")
    assert shares.periods[5] is None and shares.periods[1].months is None


def nested(rows: list[tuple[str, float, bool]]) -> list[tuple[str, str]]:
    """(label, parent label) of each row of a PDF grid built from (label, indent, has a value)."""
    body = tuple((RawCell(label), RawCell("1") if value else None) for label, _, value in rows)
    grid = interpret(RawGrid((), body, 2, tuple(indent for _, indent, _ in rows)), chunk_id="t0")
    return [(c.row_label, c.parent_label) for c in grid.cells if c.col == 0]


def test_parent_rows_follow_indents_sub_groups_and_totals():
    # PepsiCo: group rows not indented; a sub-group's rows are, and the group's rows resume after it
    assert nested([("Financing Activities", 17, False), ("Proceeds from issuances of long-term debt", 17, True),
                   ("Short-term borrowings, by original maturity:", 17, False),
                   ("More than three months - proceeds", 27, True), ("Three months or less, net", 27, True),
                   ("Cash dividends paid", 17, True), ("Net Cash Used for Financing Activities", 17, True),
                   ("Effect of exchange rate changes on cash", 17, True)]) == [
        ("Financing Activities", ""), ("Proceeds from issuances of long-term debt", "Financing Activities"),
        ("Short-term borrowings, by original maturity:", "Financing Activities"),
        ("More than three months - proceeds", "Short-term borrowings, by original maturity"),
        ("Three months or less, net", "Short-term borrowings, by original maturity"),
        ("Cash dividends paid", "Financing Activities"),
        ("Net Cash Used for Financing Activities", "Financing Activities"),
        ("Effect of exchange rate changes on cash", "")]
    # a total closes its group and any sub-group still open inside it; an outdented subtotal stays in its group
    assert nested([("Current assets", 60, False), ("Inventories:", 68, False), ("Finished goods", 76, True),
                   ("Total current assets", 60, True), ("Goodwill", 60, True), ("Equity", 60, False),
                   ("Share capital", 68, True), ("Equity attributable to owners of the parent", 60, True),
                   ("Non-controlling interests", 68, True), ("Total equity", 60, True)]) == [
        ("Current assets", ""), ("Inventories:", "Current assets"), ("Finished goods", "Inventories"),
        ("Total current assets", "Current assets"), ("Goodwill", ""), ("Equity", ""), ("Share capital", "Equity"),
        ("Equity attributable to owners of the parent", "Equity"), ("Non-controlling interests", "Equity"),
        ("Total equity", "Equity")]


# -- real 10-K statements (dev corpus) ----------------------------------------------------------------


def corpus(test):
    """A test on the dev corpus: marked `corpus` and skipped when the corpus is absent (as in test_corpus.py)."""
    return pytest.mark.corpus(pytest.mark.skipif(not CORPUS.is_dir(), reason=f"dev corpus not found at {CORPUS}")(test))



def filing_grids(name: str) -> tuple[list, list[TableGrid]]:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"{name} not in the dev corpus at {CORPUS}")
    return parsed_grids(path)


@pytest.fixture(scope="module")
def mmm_2018():
    return filing_grids("3M_2018_10K.pdf")


@pytest.fixture(scope="module")
def pepsico_2021():
    return filing_grids("PEPSICO_2021_10K.pdf")


@pytest.fixture(scope="module")
def pepsico_2022():
    return filing_grids("PEPSICO_2022_10K.pdf")


def only_cell(grids: list[TableGrid], statement: str | None, label: re.Pattern, year: int):
    """The one value cell of a statement (None: any table) whose label matches, in a year's column."""
    hits = [(g, c) for g in grids if g.status == "parsed" and (statement is None or g.statement == statement)
            for c in g.cells if c.col and label.fullmatch(c.row_label) and c.period and c.period.year == year]
    assert len(hits) == 1, [(g.title, c.row_label, c.header) for g, c in hits]
    return hits[0]


@corpus
def test_3m_2018_capex_in_the_cash_flow_statement(mmm_2018):
    _, grids = mmm_2018
    grid, cell = only_cell(grids, "cash_flow", re.compile(r"Purchases of property, plant and equipment \(PP&E\)"), 2018)
    assert (cell.value, cell.scale, cell.printed, cell.currency) == (-1577.0, 1e6, "(1,577)", "USD")
    assert cell.period == Period("fiscal_year", "2018-12-31", 2018, 12)
    assert cell.parent_label.lower().startswith("cash flows from investing activities")
    with pymupdf.open(CORPUS / "3M_2018_10K.pdf") as doc:
        assert cell.box.page == 60
        printed = doc[59].search_for("(1,577)")
    assert len(printed) == 1
    assert cell.box.contains(Rect(60, *printed[0]), tolerance=0.5)
    assert cell.box.x1 - cell.box.x0 <= printed[0].width + 20


@corpus
def test_3m_2018_net_ppe_in_the_balance_sheet(mmm_2018):
    _, grids = mmm_2018
    grid, cell = only_cell(grids, "balance", re.compile(r"Property, plant and equipment [—-] net"), 2018)
    assert (cell.value, cell.scale, cell.unit) == (8738.0, 1e6, "")
    assert cell.period == Period("instant", "2018-12-31", 2018)
    assert "".join(grid.title.split()).startswith("3MCompanyandSubsidiariesConsolidatedBalanceSheet")  # "Shee t"


@corpus
def test_3m_2018_per_share_rows_are_not_scaled(mmm_2018):
    _, grids = mmm_2018
    income = [g for g in grids if g.statement == "income"]
    assert income, "no income statement found"
    eps = [c for g in income for c in g.cells if c.col and c.value is not None
           and re.search(r"per share", f"{c.parent_label} {c.row_label}", re.I)]
    assert eps and all(c.unit == "per_share" and c.scale == 1.0 for c in eps)
    assert any(c.value == 8.89 for c in eps)  # diluted EPS 2018 as printed: $8.89


@corpus
def test_pepsico_2021_capital_spending_in_the_cash_flow_statement(pepsico_2021):
    _, grids = pepsico_2021
    _, cell = only_cell(grids, "cash_flow", re.compile(r"Capital spending"), 2021)
    assert (cell.value, cell.scale, cell.printed) == (-4625.0, 1e6, "(4,625)")
    assert cell.period == Period("fiscal_year", "2021-12-25", 2021, 12)


@corpus
def test_pepsico_2022_note_table_inherits_the_documents_scale_and_year_end(pepsico_2022):
    _, grids = pepsico_2022
    grid, cell = only_cell(grids, None, re.compile(r"Total restructuring and impairment charges"), 2022)
    assert not grid.statement
    assert (cell.value, cell.scale, grid.scale_source) == (411.0, 1e6, "document")
    assert cell.period == Period("fiscal_year", "2022-12-31", 2022, 12)


@corpus
def test_an_earnings_release_quarter_column_is_read_from_its_header():
    # "12 Weeks Ended" over "3/25/2023", a date wider than its right-aligned figures
    _, grids = filing_grids("PEPSICO_2023Q1_EARNINGS.pdf")
    grid, cell = only_cell(grids, "income", re.compile(r"Net Revenue"), 2023)
    assert (cell.value, cell.scale, cell.printed) == (17846.0, 1e6, "$17,846")
    assert cell.period == Period("months", "2023-03-25", 2023, 3, 1)


# -- layouts of other filers (issue 25) -----------------------------------------------------------------


def test_a_line_of_figures_printed_as_one_text_run_is_read_as_one_figure_per_column():
    """Some filings print a row's figures as one run of text ("$ 62,343,810 $ 31,614,169"): each figure is
    its year's cell, the row is a body row (not part of the header) and Revenue is read for 2022."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((188, 60), "CONSOLIDATED STATEMENTS OF OPERATIONS", fontsize=10)
    page.insert_text((150, 75), "(in thousands, except per share amounts)", fontsize=9)
    page.insert_text((395, 100), "Fiscal Years Ended November 30,", fontsize=9)
    for x, year in ((376, "2022"), (445, "2021"), (513, "2020")):
        page.insert_text((x, 113), year, fontsize=9)
    page.insert_text((61, 127), "Revenue", fontsize=9)
    page.insert_text((372.5, 127), "$ 62,343,810      $ 31,614,169      $ 19,977,150", fontsize=9)
    page.insert_text((61, 142), "Cost of revenue", fontsize=9)
    page.insert_text((372, 142), "(58,443,611)      (29,724,635)      (18,783,292)", fontsize=9)
    for y, label, figures in ((157, "Gross profit", ("3,900,199", "1,889,534", "1,193,858")),
                              (172, "Operating income", ("1,050,873", "623,218", "521,341")),
                              (187, "Net income", ("651,307", "395,069", "529,160"))):
        page.insert_text((61, y), label, fontsize=9)
        for right, figure in zip((425, 493, 552), figures):
            page.insert_text((right - pymupdf.get_text_length(figure, fontsize=9), y), figure, fontsize=9)
    _, grids = parsed_grids("ops.pdf", data=doc.tobytes(), name="ops.pdf")
    grid = next(g for g in grids if g.status == "parsed" and any(c.row_label == "Net income" for c in g.cells))
    revenue = {c.period.year: c.value for c in grid.cells if c.row_label == "Revenue" and c.col and c.period}
    assert revenue == {2022: 62_343_810, 2021: 31_614_169, 2020: 19_977_150}
    cost = {c.period.year: c.value for c in grid.cells if c.row_label == "Cost of revenue" and c.col and c.period}
    assert cost[2022] == -58_443_611 and not any("62,343,810" in h for h in grid.header)


def test_a_line_of_dates_over_several_columns_gives_each_column_its_own_date():
    """A 52/53-week retailer's release: "12 Weeks Ended" and "36 Weeks Ended" over two columns each, and
    one line of four dates under them. Each column is its own period: 12 weeks a quarter, 36 weeks three."""
    header = ((RawCell("12 Weeks Ended", None, (1, 2)), RawCell("36 Weeks Ended", None, (3, 4))),
              (RawCell("May 7, 2023 May 8, 2022 May 7, 2023 May 8, 2022", None, (1, 4)),))
    body = ((RawCell("Net sales"), RawCell("52,604"), RawCell("51,612"), RawCell("160,280"), RawCell("151,966")),)
    grid = interpret(RawGrid(header, body, 5), chunk_id="t1", caption="CONSOLIDATED STATEMENTS OF INCOME")
    periods = {c.printed: (c.period.end, c.period.months) for c in grid.cells if c.col}
    assert periods == {"52,604": ("2023-05-07", 3), "51,612": ("2022-05-08", 3),
                       "160,280": ("2023-05-07", 9), "151,966": ("2022-05-08", 9)}


def test_the_scale_line_under_a_statement_s_title_is_the_table_s_scale_across_a_gap():
    """A release prints "(dollars in millions, except per share data)" under the statement's title, then
    a gap, then the table: its figures are millions, not dollars."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((220, 120), "ACME WHOLESALE CORPORATION", fontsize=10)
    page.insert_text((209, 138), "CONSOLIDATED STATEMENTS OF INCOME", fontsize=10)
    page.insert_text((210, 156), "(dollars in millions, except per share data)", fontsize=10)
    page.insert_text((280, 174), "(unaudited)", fontsize=10)
    page.insert_text((331, 248), "12 Weeks Ended", fontsize=7.5)
    page.insert_text((436, 248), "36 Weeks Ended", fontsize=7.5)
    page.insert_text((314, 257), "May 7, 2023   May 8, 2022   May 7, 2023   May 8, 2022", fontsize=7.5)
    for y, label, figures in ((272, "Net sales", ("52,604", "51,612", "160,280", "151,966")),
                              (282, "Membership fees", ("1,044", "984", "3,071", "2,897")),
                              (292, "Net income", ("1,302", "1,353", "4,132", "3,911"))):
        page.insert_text((104, y), label, fontsize=7.5)
        for right, figure in zip((368, 422, 475, 514), figures):
            page.insert_text((right - pymupdf.get_text_length(figure, fontsize=7.5), y), figure, fontsize=7.5)
    _, grids = parsed_grids("release.pdf", data=doc.tobytes(), name="release.pdf")
    grid = next(g for g in grids if g.status == "parsed" and any(c.row_label == "Net income" for c in g.cells))
    assert grid.scale == 1e6
    income = {(c.period.end, c.period.months): c.value for c in grid.cells if c.row_label == "Net income" and c.col}
    assert income == {("2023-05-07", 3): 1_302, ("2022-05-08", 3): 1_353, ("2023-05-07", 9): 4_132,
                      ("2022-05-08", 9): 3_911}


def test_a_row_of_months_and_days_over_repeated_years_heads_one_column_each():
    """Salesforce's additional metrics: "July 31," "April 30," "January 31," ... one over each column, each
    year ("2023" three times, "2022" twice) on the line below, then one row of figures. Each column is its own
    date; a month and day centred over two years ("December 31," over "2022 2021") still heads both."""
    days = [(286, 315, "July 31,"), (344, 382, "April 30,"), (398, 440, "January 31,"), (456, 498, "October 31,"),
            (521, 550, "July 31,")]
    years = [(292, 308, "2023"), (351, 367, "2023"), (410, 426, "2023"), (468, 484, "2022"), (527, 543, "2022")]
    figures = [(296, 336, "70,456"), (355, 395, "72,970"), (414, 454, "79,390"), (472, 512, "79,824"),
               (531, 561, "78,634")]
    region = TableRegion(page=1, columns=[], header=[pdf_row(83, *days)],
                         body=[pdf_row(92, *years), pdf_row(104, (52, 185, "Full time equivalent headcount"), *figures)])
    grid = interpret(region_raw_grid([region]), chunk_id="t0", caption="Additional Metrics")
    assert list(grid.header[1:]) == ["July 31, 2023", "April 30, 2023", "January 31, 2023", "October 31, 2022",
                                     "July 31, 2022"]
    assert [(c.period.end, c.value) for c in grid.cells if c.col] == [
        ("2023-07-31", 70456), ("2023-04-30", 72970), ("2023-01-31", 79390), ("2022-10-31", 79824),
        ("2022-07-31", 78634)]
    # no money scale or currency from the document for a count of people
    counted = with_document_scale(grid, (1e6, "document"), "USD")
    assert {(c.scale, c.currency) for c in counted.cells if c.col} == {(1.0, "")}
    centred = TableRegion(page=1, columns=[], header=[pdf_row(83, (312, 394, "December 31,"))], body=[
        pdf_row(92, (300, 320, "2022"), (390, 410, "2021")),
        pdf_row(104, (52, 150, "Inventories"), (296, 320, "1,234"), (386, 410, "1,111")),
        pdf_row(116, (52, 150, "Prepaid"), (296, 320, "34"), (386, 410, "11"))])
    both = interpret(region_raw_grid([centred]), chunk_id="t1", caption="Balance")
    assert list(both.header[1:]) == ["December 31, 2022", "December 31, 2021"]
