"""`vera table`: a document's table grids as JSON, CSV and aligned text; tables by number or id;
`vera show` marks whether each table's grid was read."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from tests.conftest import SAMPLE_PDF, settings_for
from vera_core.cli.main import main
from vera_core.ingest.service import Ingestor
from vera_core.workspace import Workspace

REPORT = SAMPLE_PDF.stem
CSV_COLUMNS = ["doc_id", "doc_name", "table_id", "table_number", "statement", "title", "row", "col", "row_label",
               "parent_label", "header", "period", "period_end", "printed", "value", "unit", "scale", "currency",
               "page", "x0", "y0", "x1", "y1"]
CHECKLIST = (b"# Checklist\n\n## Items\n\nBring these.\n\n| Item |\n|------|\n| Passport |\n| Visa |\n\n"
             b"## Costs\n\n| Cost | 2024 |\n|---|---|\n| Rail | 1,200 |\n")
"""A one-column table (no value column: its grid cannot be read) and a two-column one."""


def run(capsys, data_dir, *args) -> tuple[int, str, str]:
    code = main(["--data-dir", str(data_dir), *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def checklist_store(tmp_path_factory) -> Workspace:
    ws = Workspace(settings_for(tmp_path_factory.mktemp("checklist-store")))
    assert Ingestor(ws).ingest_file("checklist.md", data=CHECKLIST, name="checklist.md").status == "ingested"
    return ws


def test_json_lists_every_table_with_cells_periods_and_boxes(sample_store, capsys):
    code, out, _ = run(capsys, sample_store.data_dir, "table", REPORT, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["doc"]["name"] == SAMPLE_PDF.name and set(data["doc"]) == {"doc_id", "name"}
    tables = data["tables"]
    assert [t["number"] for t in tables] == [1, 2, 3, 4, 5]
    assert [t["statement"] for t in tables] == ["", "income", "balance", "cash_flow", ""]
    assert [t["pages"] for t in tables] == [[3], [6], [6, 7], [8], [10]]
    assert {t["status"] for t in tables} == {"parsed"}
    for table in tables:
        assert set(table) == {"table_id", "number", "status", "statement", "title", "pages", "scale", "scale_source",
                              "currency", "header", "periods", "cells"}
        assert len(table["periods"]) == len(table["header"])
    income = tables[1]
    assert income["title"] == "Consolidated income statement for the year ended 31 December 2024"
    assert (income["scale"], income["currency"]) == (1000, "EUR")
    assert income["header"] == ["EUR thousand", "Note", "2024", "2023"]
    assert income["periods"][2] == {"kind": "fiscal_year", "end": "2024-12-31", "year": 2024, "months": 12,
                                    "quarter": None, "label": "FY2024 (year ended December 31, 2024)"}
    revenue = next(c for c in income["cells"] if c["row_label"] == "Revenue" and c["header"] == "2024")
    assert (revenue["printed"], revenue["value"], revenue["scale"], revenue["page"]) == \
        ("1,032,400", 1032400, 1000, 6)
    assert revenue["period"]["end"] == "2024-12-31" and revenue["col"] == 2
    x0, y0, x1, y1 = revenue["bbox"]
    assert 0 < x0 < x1 < 612 and 0 < y0 < y1 < 842  # an A4/Letter page in points
    label = next(c for c in income["cells"] if c["row"] == revenue["row"] and c["col"] == 0)
    assert (label["printed"], label["value"], label["period"]) == ("Revenue", None, None)


def test_csv_has_one_row_per_cell_in_the_documented_columns(sample_store, tmp_path, capsys):
    out_file = tmp_path / "grids.csv"
    code, _, err = run(capsys, sample_store.data_dir, "table", SAMPLE_PDF.name, "--csv", "--output", out_file)
    assert code == 0 and str(out_file) in err
    with out_file.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    assert reader.fieldnames == CSV_COLUMNS
    assert {r["table_number"] for r in rows} == {"1", "2", "3", "4", "5"}
    revenue = next(r for r in rows
                   if r["statement"] == "income" and r["row_label"] == "Revenue" and r["header"] == "2024")
    assert (revenue["printed"], revenue["value"], revenue["scale"], revenue["page"]) == \
        ("1,032,400", "1032400", "1000", "6")
    assert (revenue["period_end"], revenue["currency"], revenue["table_number"]) == ("2024-12-31", "EUR", "2")
    inventories = next(r for r in rows if r["row_label"] == "Inventories" and r["header"] == "2024")
    assert (inventories["parent_label"], inventories["printed"]) == ("Current assets", "184,560")
    json_cells = sum(len(t["cells"]) for t in json.loads(run(capsys, sample_store.data_dir, "table", REPORT,
                                                             "--json")[1])["tables"])
    assert len(rows) == json_cells


def test_a_table_by_number_or_id_and_an_unknown_one(sample_store, capsys):
    code, out, _ = run(capsys, sample_store.data_dir, "table", REPORT, "2", "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    table_ids = {r["table_id"] for r in rows}
    assert len(table_ids) == 1 and {r["statement"] for r in rows} == {"income"}
    by_id = json.loads(run(capsys, sample_store.data_dir, "table", REPORT, table_ids.pop(), "--json")[1])
    assert [t["number"] for t in by_id["tables"]] == [2]
    for bad in ("9", "0", "no-such-table"):
        code, out, err = run(capsys, sample_store.data_dir, "table", REPORT, bad)
        assert code == 2 and out == ""
        assert f"has no table '{bad}'" in err and "it has 5 tables (numbers 1-5" in err
    code, _, err = run(capsys, sample_store.data_dir, "table", "no_such_doc", "1")
    assert code == 2 and "No document matches 'no_such_doc'" in err


def test_text_shows_each_row_under_its_headers(sample_store, capsys, ground_truth):
    code, out, _ = run(capsys, sample_store.data_dir, "table", REPORT, "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Table 3 — Consolidated balance sheet as at 31 December 2024 (pages 6, 7, balance sheet)"
    assert "Scale: EUR thousands (stated: EUR thousand)" in lines[2]
    header = next(line for line in lines if line.startswith("EUR thousand"))
    assert re.fullmatch(r"EUR thousand\s+Note\s+2024\s+2023", header)
    inventories = next(line for line in lines if "Inventories" in line)
    assert re.fullmatch(r"  Inventories\s+184,560\s+171,230", inventories)  # nested under "Current assets"
    assert inventories.index("184,560") + len("184,560") == header.index("2024") + len("2024")  # right-aligned
    income = run(capsys, sample_store.data_dir, "table", REPORT, "2")[1]
    assert ground_truth[SAMPLE_PDF.name]["tables"][1]["rows"]
    for row in ground_truth[SAMPLE_PDF.name]["tables"][1]["rows"]:
        assert any(line.split() == " ".join(row).split() for line in income.splitlines()), row


def test_show_marks_each_table_grid(sample_store, checklist_store, capsys):
    data = json.loads(run(capsys, sample_store.data_dir, "show", REPORT, "--json")[1])
    assert [(t["number"], t["grid"]) for t in data["tables"]] == [(n, "parsed") for n in range(1, 6)]
    assert {"chunk_id", "pages", "caption", "heading_path", "polygons"} <= set(data["tables"][0])
    code, out, _ = run(capsys, checklist_store.data_dir, "show", "checklist")
    assert code == 0
    tables = out.split("Tables (2):\n")[1].splitlines()
    assert tables[0].startswith("  1. ") and tables[0].endswith("grid: unparsed")
    assert tables[1].startswith("  2. ") and tables[1].endswith("grid: parsed")


def test_an_unparsed_table_exports_its_status_and_shows_its_text(checklist_store, capsys):
    data = json.loads(run(capsys, checklist_store.data_dir, "table", "checklist", "--json")[1])
    assert [(t["status"], len(t["cells"])) for t in data["tables"]] == [("unparsed", 0), ("parsed", 2)]
    code, out, _ = run(capsys, checklist_store.data_dir, "table", "checklist", "1")
    assert code == 0 and "could not be read" in out and "| Passport |" in out
    out = run(capsys, checklist_store.data_dir, "table", "checklist", "2", "--csv")[1]
    rows = list(csv.DictReader(io.StringIO(out)))
    rail = next(r for r in rows if r["col"] == "1")
    assert (rail["row_label"], rail["printed"], rail["value"]) == ("Rail", "1,200", "1200")
    assert (rail["page"], rail["x0"]) == ("", "")  # Markdown has no boxes
