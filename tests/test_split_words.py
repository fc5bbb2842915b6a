"""Words a PDF prints in two pieces are joined by the document's own vocabulary before they become
headings, list items or keyword text (vera_core/ingest/split_words.py)."""

from __future__ import annotations

import pymupdf
import pytest

from tests.conftest import settings_for
from vera_core.ingest.service import Ingestor
from vera_core.ingest.split_words import repair_split_words, split_heads, vocabulary
from vera_core.workspace import Workspace

BODY = ("The business of the Company is described below. Our business segments serve many markets. "
        "Operations grew, and results of operations improved. Cash out flows and the asset base grew; "
        "an asset was sold. See Schedule D. We set off receivables. Legal proceedings are described below, "
        "and other proceedings are pending.")


@pytest.mark.parametrize("text, expected", [
    ("Item 1. Busines s.", "Item 1. Business."),
    ("RESULTS OF OPERATI ONS", "RESULTS OF OPERATIONS"),
    ("Item 3. Legal Proceeding s.", "Item 3. Legal Proceedings."),
    ("the as set base", "the as set base"),  # 'as' stands alone in the document: kept
    ("Cash out flows", "Cash out flows"),    # 'out' is a word of its own
    ("See Schedule D.", "See Schedule D."),  # a capital letter after a word is not a piece of it
    ("We set off receivables.", "We set off receivables."),
])
def test_split_words_are_joined_by_the_documents_own_vocabulary(text, expected):
    texts = [BODY, text]
    assert repair_split_words(text, vocabulary(texts), split_heads(texts)) == expected


def test_a_word_the_document_never_prints_whole_stays_split():
    texts = ["Zebr a crossing."]
    assert repair_split_words(texts[0], vocabulary(texts), split_heads(texts)) == "Zebr a crossing."


def test_an_ingested_heading_reads_the_whole_word(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Item 1. Busines", fontsize=16, fontname="hebo")
    x = 72 + pymupdf.get_text_length("Item 1. Busines", fontname="hebo", fontsize=16) + 6
    page.insert_text((x, 72), "s.", fontsize=16, fontname="hebo")
    y = 110
    for line in ("The business of the Company is described in this section of the report.",
                 "Our business serves customers in many markets around the world every day.",
                 "This business has grown for ten years and employs many people in each region."):
        page.insert_text((72, y), line, fontsize=10)
        y += 14
    path = tmp_path / "split.pdf"
    doc.save(path)
    ws = Workspace(settings_for(tmp_path / "store"))
    result = Ingestor(ws).ingest_file(path)
    assert result.status == "ingested", result
    titles = [h.title for h in ws.catalog.headings(result.doc_id)]
    assert "Item 1. Business." in titles, titles
    assert all("Busines s" not in c.heading_path for c in ws.catalog.chunks(result.doc_id))
