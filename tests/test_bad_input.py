"""Each kind of bad input yields its typed VeraError naming the file and the fix, and leaves the
store exactly as it was."""

from __future__ import annotations

import pymupdf
import pytest

from tests.conftest import SAMPLES, settings_for
from vera_core.ingest.service import Ingestor
from vera_core.workspace import Workspace


def _encrypted_pdf() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret numbers 1,234")
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="owner")


def _scanned_pdf() -> bytes:
    doc = pymupdf.open()
    for _ in range(3):
        page = doc.new_page()
        page.draw_rect(pymupdf.Rect(72, 72, 400, 400), color=(0, 0, 0), fill=(0.6, 0.6, 0.6))
    return doc.tobytes()


def _empty_pdf() -> bytes:
    return (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
            b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
            b"trailer<</Root 1 0 R>>\n%%EOF\n")


CASES = {
    "report.docx": (b"PK\x03\x04 word document", "UnsupportedFormatError", "PDF (.pdf) and Markdown"),
    "notes.txt": (b"plain text", "UnsupportedFormatError", ".txt"),
    "image.pdf": (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "InvalidPDFError", "not a PDF"),
    "truncated.pdf": (b"%PDF-1.7\n1 0 obj<<garbage", "InvalidPDFError", "not a readable PDF"),
    "locked.pdf": (_encrypted_pdf(), "EncryptedPDFError", "password"),
    "no_pages.pdf": (_empty_pdf(), "EmptyDocumentError", "no pages"),
    "scan.pdf": (_scanned_pdf(), "EmptyDocumentError", "OCR"),
    "zero.pdf": (b"", "EmptyDocumentError", "empty"),
    "blank.md": (b"  \n\n \t\n", "EmptyDocumentError", "empty"),
    "binary.md": (b"# title\n\x00\x01\x02\xff", "InvalidMarkdownError", "binary"),
    "latin1.md": ("# Café résumé".encode("latin-1"), "InvalidMarkdownError", "UTF-8"),
}


@pytest.fixture(scope="module")
def populated(tmp_path_factory) -> Workspace:
    ws = Workspace(settings_for(tmp_path_factory.mktemp("bad-input")))
    assert Ingestor(ws).ingest_file(SAMPLES / "expense_policy.md").status == "ingested"
    return ws


def _state(ws: Workspace) -> tuple:
    return ([(d.doc_id, d.chunk_count) for d in ws.catalog.documents(include_pending=True)],
            ws.vectors.count(), sorted(p.name for p in ws.files_dir.iterdir()))


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_file_gets_typed_error_and_store_is_unchanged(populated, tmp_path, name):
    data, error_type, hint = CASES[name]
    path = tmp_path / name
    path.write_bytes(data)
    before = _state(populated)
    result = Ingestor(populated).ingest_file(path)
    assert (result.status, result.error_type) == ("failed", error_type), result.error
    assert name in result.error and hint.lower() in result.error.lower()
    assert _state(populated) == before


def test_file_over_the_size_limit(tmp_path):
    ws = Workspace(settings_for(tmp_path / "store", max_file_mb=0.01))
    result = Ingestor(ws).ingest_file(SAMPLES / "Aurora_Annual_Report_2024.pdf")
    assert result.error_type == "FileTooLargeError"
    assert "Aurora_Annual_Report_2024.pdf" in result.error and "VERA_MAX_FILE_MB" in result.error
    assert ws.catalog.documents(include_pending=True) == []


def _truncated(tmp_path, share: float):
    from tests.conftest import SAMPLE_PDF
    data = SAMPLE_PDF.read_bytes()
    path = tmp_path / f"report_cut_{int(share * 100)}.pdf"
    path.write_bytes(data[:int(len(data) * share)])
    return path


def test_a_truncated_pdf_is_ingested_with_a_damaged_warning_that_vera_list_shows(tmp_path, capsys):
    import json

    from vera_core.cli.main import main
    path = _truncated(tmp_path, 0.56)
    store = tmp_path / "store"
    assert main(["--data-dir", str(store), "ingest", "--quiet", str(path)]) == 0
    out = capsys.readouterr().out
    assert "warning: 'report_cut_56.pdf' is damaged" in out
    assert main(["--data-dir", str(store), "list", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["documents"][0]
    codes = [w["code"] for w in doc["warnings"]]
    assert codes == ["damaged", "empty_pages"] and "truncated" in doc["warnings"][0]["message"]
    assert doc["chunks"] > 0


def test_a_heavily_truncated_pdf_is_called_damaged_not_scanned(tmp_path):
    result = Ingestor(Workspace(settings_for(tmp_path / "store"))).ingest_file(_truncated(tmp_path, 0.25))
    assert result.status == "failed" and result.error_type == "InvalidPDFError"
    assert "damaged or truncated" in result.error and "OCR" not in result.error
    assert "report_cut_25.pdf" in result.error


def test_an_intact_pdf_has_no_warning(sample_store):
    assert all(d.warnings == [] for d in sample_store.catalog.documents())
