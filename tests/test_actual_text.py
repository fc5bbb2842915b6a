"""Text a PDF prints with glyphs of no width (the producer's ActualText): kept where it stands, so a speaker line
and the words after an apostrophe are read (vera_core/ingest/actual_text.py)."""

from __future__ import annotations

import re

import pymupdf
import pytest

from tests.conftest import ROOT
from vera_core.ingest.pdf import parse_pdf
from vera_core.ingest.pdf_rows import TEXT_FLAGS, page_rows
from vera_core.ingest.source import load_source

CITI_CALLS = sorted((ROOT.parent / "shared" / "corpus" / "ir-dev" / "C").glob("C_*_CALL.pdf"))


def _widthless(text: bytes) -> bytes:
    """Content that shows `text` only as an ActualText over one glyph of no width (as Citi's calls print it)."""
    return b"/Span <</ActualText (" + text + b")>> BDC 0 Tz (X) Tj 100 Tz EMC"


def _transcript_page(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Falcon Industries Fourth Quarter Earnings Call", fontsize=10)
    stream = doc.xref_stream(page.get_contents()[0]) + (
        b"BT /helv 10 Tf 1 0 0 1 72 700 Tm (OPERATOR: Our next question will come from Matt Oconnor with Harbor "
        b"Securities.) Tj ET\n"
        b"BT /helv 10 Tf 1 0 0 1 72 680 Tm " + _widthless(b"MATT OCONNOR:") + b" 80 0 Td (Hi. I want to follow up "
        b"on the Russian exposure.) Tj ET\n"
        b"BT /helv 10 Tf 1 0 0 1 72 660 Tm (JANE FRASER: It is a source of strength for our clients.) Tj "
        + _widthless(b"That is not an accident.") + b" ET\n")
    doc.update_stream(page.get_contents()[0], stream)
    path = tmp_path / "falcon_call.pdf"
    doc.save(path)
    return path


def test_a_speaker_line_and_a_sentence_printed_without_width_are_read_in_their_place(tmp_path):
    path = _transcript_page(tmp_path)
    page = pymupdf.open(path)[0]
    assert "OCONNOR" not in " ".join(s["text"] for b in page.get_text("dict")["blocks"] for line in b.get("lines", ())
                                     for s in line["spans"])  # NOTE: the case read here: PyMuPDF's spans lack it
    rows = [r.text for r in page_rows(page, 1)]
    assert "MATT OCONNOR: Hi. I want to follow up on the Russian exposure." in rows
    assert "JANE FRASER: It is a source of strength for our clients. That is not an accident." in rows
    assert sum("OCONNOR:" in r for r in rows) == 1


def test_a_page_whose_spans_hold_all_its_text_is_read_as_before(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Revenue was $1,234 million, up 12% year over year.", fontsize=10)
    rows = page_rows(page, 1)
    assert [r.text for r in rows] == ["Revenue was $1,234 million, up 12% year over year."]


@pytest.mark.skipif(not CITI_CALLS, reason="../shared/corpus/ir-dev is not here")
@pytest.mark.parametrize("path", CITI_CALLS, ids=lambda p: p.stem)
def test_every_word_of_a_citi_call_is_read(path):
    """Citi prints every curly apostrophe without width: 107 lines of its four calls were lost, among them the
    speaker line "MATT O’CONNOR:" (his questions went to the speaker before him)."""
    parsed = parse_pdf(load_source(path, max_file_mb=50))
    read = re.sub(r"\W+", "", " ".join(b.text for b in parsed.blocks))
    furniture = {re.sub(r"[\W\d]+", "", line) for line in parsed.metadata["furniture"]}  # running heads, footers
    document = pymupdf.open(path)
    lost = []
    for page in document:
        for line in page.get_textpage(flags=TEXT_FLAGS).extractText().splitlines():
            words = re.sub(r"\W+", "", line)
            if len(words) >= 12 and words not in read and re.sub(r"\d+", "", words) not in furniture:
                lost.append((page.number, line))
    assert not lost, lost[:5]
    assert "MATT O’CONNOR" in " ".join(b.text for b in parsed.blocks)  # NOTE: he asks on each of the four calls
