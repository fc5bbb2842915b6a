"""PDF ingestion on the bundled annual report, checked against its generated ground truth."""

from __future__ import annotations

import re

import pymupdf
import pytest

from tests.conftest import SAMPLE_PDF, doc_by_name
from vera_core.records import Rect

NAME = SAMPLE_PDF.name
STEM = SAMPLE_PDF.stem


@pytest.fixture(scope="module")
def pdf_chunks(sample_store):
    doc = doc_by_name(sample_store, NAME)
    return sample_store.catalog.chunks(doc.doc_id)


@pytest.fixture(scope="module")
def gt(ground_truth):
    return ground_truth[NAME]


def test_document_is_listed_with_its_pages(sample_store, gt):
    doc = doc_by_name(sample_store, NAME)
    assert doc.pages == gt["pages"] and doc.format == "pdf" and doc.status == "ready"


def test_headings_titles_levels_pages_and_paths_equal_ground_truth(sample_store, gt):
    headings = sample_store.catalog.headings(doc_by_name(sample_store, NAME).doc_id)
    got = [(h.title, h.level, h.page_start, list(h.path)) for h in headings]
    want = [(h["title"], h["level"], h["page"], h["path"]) for h in gt["headings"]]
    assert got == want


def test_every_table_is_exactly_one_table_chunk_on_its_pages(pdf_chunks, gt):
    tables = [c for c in pdf_chunks if c.kind == "table"]
    assert len(tables) == len(gt["tables"])
    for want in gt["tables"]:
        matches = [c for c in tables if c.caption == want["caption"]]
        assert len(matches) == 1, want["caption"]
        chunk = matches[0]
        assert list(chunk.pages) == want["pages"]
        assert sorted({r.page for r in chunk.polygons}) == want["pages"], "one polygon per page spanned"
        assert chunk.heading_path == "/".join([STEM, *want["section_path"]])
        assert want["rows"]
        for row in want["rows"]:
            assert row
            for cell in row:
                assert cell in chunk.text, f"{cell!r} missing from table {want['caption']!r}"
        for note in want["footnotes"]:
            assert note in chunk.text


def test_table_polygon_contains_every_cell_as_printed(pdf_chunks, gt):
    pdf = pymupdf.open(SAMPLE_PDF)
    assert gt["tables"]
    for want in gt["tables"]:
        chunk = next(c for c in pdf_chunks if c.kind == "table" and c.caption == want["caption"])
        assert want["rows_by_page"]
        for page_number, rows in want["rows_by_page"].items():
            page = pdf[int(page_number) - 1]
            region = [r for r in chunk.polygons if r.page == int(page_number)]
            assert len(region) == 1
            cells = [c for row in rows for c in row if c]
            assert cells
            for cell in cells:
                hits = [Rect(int(page_number), h.x0, h.y0, h.x1, h.y1) for h in page.search_for(cell)]
                assert hits, f"{cell!r} not printed on page {page_number}"
                assert any(region[0].contains(h) for h in hits), \
                    f"cell {cell!r} on page {page_number} lies outside the table polygon"


def test_text_chunks_never_cross_a_heading(sample_store, pdf_chunks):
    """Every text chunk lies between its own heading and the next heading in reading order."""
    doc = doc_by_name(sample_store, NAME)
    from vera_core.ingest.pdf import parse_pdf
    from vera_core.ingest.source import load_source
    parsed = parse_pdf(load_source(SAMPLE_PDF, max_file_mb=100))
    heads = [b for b in parsed.blocks if b.kind == "heading"]
    starts = [(b.rects[0].page, round(b.rects[0].y0, 2)) for b in heads]  # stored polygons are rounded
    assert any(c.kind == "text" for c in pdf_chunks)
    for chunk in (c for c in pdf_chunks if c.kind == "text"):
        own = chunk.heading_titles
        index = max(i for i, h in enumerate(heads) if h.heading_titles == own)
        lo = starts[index]
        hi = starts[index + 1] if index + 1 < len(starts) else (doc.pages + 1, 0.0)
        assert chunk.polygons
        for rect in chunk.polygons:
            assert lo <= (rect.page, rect.y0) < hi, f"{chunk.chunk_id} crosses out of {own[-1]!r}"


def test_every_chunk_has_the_metadata_contract(pdf_chunks, gt):
    paths = {"/".join([STEM, *h["path"]]) for h in gt["headings"]} | {STEM}
    assert pdf_chunks
    for position, chunk in enumerate(pdf_chunks):
        assert chunk.position == position
        assert chunk.heading_path in paths
        assert chunk.section_id == "/".join(chunk.heading_path.split("/")[:2])
        assert 1 <= chunk.page_start <= chunk.page_end <= gt["pages"]
        assert chunk.polygons and all(chunk.page_start <= r.page <= chunk.page_end for r in chunk.polygons)
        if chunk.kind == "text":
            assert chunk.tokens <= 256


def test_running_header_footer_and_page_numbers_stay_out_of_chunks(pdf_chunks, gt):
    assert pdf_chunks
    for chunk in pdf_chunks:
        assert gt["running_header"] not in chunk.text
        assert not re.search(r"\bPage \d+\b", chunk.text), chunk.text[:200]


def test_significant_events_are_kept_across_the_page_break(pdf_chunks, gt):
    events = gt["significant_events"]
    path = "/".join([STEM, *events["section_path"]])
    section = [c for c in pdf_chunks if c.heading_path == path]
    text = " ".join(c.text for c in section)
    assert events["items"]
    for item in events["items"]:
        assert item in text, item[:60]
    assert sorted({p for c in section for p in c.pages}) == events["pages"]


def test_front_matter_facts_are_in_chunks_on_their_pages(pdf_chunks, gt):
    assert gt["facts"]
    for fact in gt["facts"].values():
        on_page = " ".join(c.text for c in pdf_chunks if fact["page"] in c.pages)
        assert " ".join(fact["evidence"].split()) in " ".join(on_page.split())
