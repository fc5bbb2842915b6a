"""The `vera` CLI: ingest summary and exit codes, and the JSON contracts of list/show."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import SAMPLE_PDF, SAMPLES
from vera_core.cli.main import main


@pytest.fixture
def cli_env(monkeypatch, tmp_path):
    monkeypatch.setenv("VERA_EMBED_WORKERS", "1")
    return tmp_path / "store"


def run(capsys, *args) -> tuple[int, str, str]:
    code = main(list(map(str, args)))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_ingest_folder_with_a_bad_file_ingests_the_rest_and_exits_nonzero(cli_env, tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLE_PDF, folder)
    shutil.copy(SAMPLES / "expense_policy.md", folder)
    (folder / "broken.pdf").write_bytes(b"not a pdf at all")
    code, out, _ = run(capsys, "--data-dir", cli_env, "ingest", "--quiet", "--workers", "2", folder)
    assert code == 1
    assert "2 succeeded, 0 skipped (already present), 1 failed" in out
    assert "broken.pdf" in out and "not a PDF" in out
    code, out, _ = run(capsys, "--data-dir", cli_env, "ingest", "--quiet", str(folder / "*.md"))
    assert code == 0 and "0 succeeded, 1 skipped" in out
    code, out, _ = run(capsys, "--data-dir", cli_env, "list", "--json")
    names = [d["name"] for d in json.loads(out)["documents"]]
    assert sorted(names) == ["Aurora_Annual_Report_2024.pdf", "expense_policy.md"]


def test_show_json_contract_and_name_resolution(cli_env, capsys, ground_truth):
    assert run(capsys, "--data-dir", cli_env, "ingest", "--quiet", SAMPLE_PDF)[0] == 0
    code, out, _ = run(capsys, "--data-dir", cli_env, "show", "Aurora_Annual_Report_2024", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"doc_id", "name", "format", "pages"} <= set(data["doc"])
    assert data["doc"]["name"] == SAMPLE_PDF.name and data["doc"]["pages"] == 11
    gt = ground_truth[SAMPLE_PDF.name]
    assert [h["path"] for h in data["headings"]] == ["/".join([SAMPLE_PDF.stem, *h["path"]]) for h in gt["headings"]]
    assert all({"path", "level", "pages"} <= set(h) for h in data["headings"])
    assert [t["pages"] for t in data["tables"]] == [t["pages"] for t in gt["tables"]]
    assert [t["caption"] for t in data["tables"]] == [t["caption"] for t in gt["tables"]]
    for table in data["tables"]:
        assert {"chunk_id", "pages", "caption", "polygons"} <= set(table)
        assert {p["page"] for p in table["polygons"]} == set(table["pages"])
    doc_id = data["doc"]["doc_id"]
    for ref in (SAMPLE_PDF.name, doc_id, doc_id[:8]):
        assert json.loads(run(capsys, "--data-dir", cli_env, "show", ref, "--json")[1])["doc"]["doc_id"] == doc_id


def test_delete_and_unknown_document(cli_env, capsys):
    assert run(capsys, "--data-dir", cli_env, "ingest", "--quiet", SAMPLES / "expense_policy.md")[0] == 0
    code, _, err = run(capsys, "--data-dir", cli_env, "show", "no_such_doc")
    assert code == 2 and "No document matches 'no_such_doc'" in err and "expense_policy.md" in err
    assert run(capsys, "--data-dir", cli_env, "delete", "expense_policy")[0] == 0
    assert json.loads(run(capsys, "--data-dir", cli_env, "list", "--json")[1]) == {"documents": []}
