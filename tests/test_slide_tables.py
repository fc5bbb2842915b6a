"""Issue 26, item 4: a deck's segment slide as Meta prints it. The quarters are printed once, over the revenue rows;
under them, after a gap, the operating income rows, each label on two lines centred on its figures ("Family of Apps"
above the numbers, "Operating Income" below). Read line by line, the figures had no label, each half of a label was a
row of its own and the lower block had no quarters, so "Reality Labs operating loss in Q1 2025" was not found."""

from __future__ import annotations

import pymupdf

from tests.conftest import searchable_pdfs
from vera_core.ingest.pdf import parse_pdf
from vera_core.ingest.source import load_source
from vera_core.query import QueryEngine

QUARTERS = ["Q2'24", "Q3'24", "Q4'24", "Q1'25"]
COLUMNS = [430, 560, 690, 820]


def _deck() -> bytes:
    doc = pymupdf.open()
    cover = doc.new_page(width=960, height=540)
    cover.insert_text((60, 200), "Falcon Holdings Q1 2025 Earnings Presentation", fontsize=28, fontname="hebo")
    page = doc.new_page(width=960, height=540)
    page.insert_text((60, 50), "Segment Results", fontsize=26, fontname="hebo")
    page.insert_text((60, 76), "In Millions", fontsize=14, fontname="helv")
    for x, q in zip(COLUMNS, QUARTERS):
        page.insert_text((x, 110), q, fontsize=16, fontname="hebo")
    y = 145
    for label, values in (("Cloud Revenue", ["9,100", "9,400", "9,900", "10,200"]),
                          ("Devices Revenue", ["1,300", "1,250", "1,400", "1,180"]),
                          ("Total Revenue", ["10,400", "10,650", "11,300", "11,380"])):
        page.insert_text((60, y), label, fontsize=16, fontname="helv")
        for x, v in zip(COLUMNS, values):
            page.insert_text((x, y), v, fontsize=16, fontname="helv")
        y += 34
    y += 40  # the gap between the two blocks
    for top, bottom, values in (("Cloud", "Operating Income", ["3,900", "4,100", "4,350", "4,500"]),
                                ("Devices", "Operating (Loss)", ["(610)", "(640)", "(705)", "(720)"])):
        page.insert_text((60, y), top, fontsize=16, fontname="helv")
        for x, v in zip(COLUMNS, values):
            page.insert_text((x, y + 10), v, fontsize=16, fontname="helv")
        page.insert_text((60, y + 20), bottom, fontsize=16, fontname="helv")
        y += 58
    return doc.tobytes()


def test_a_label_centred_on_its_figures_is_their_row_and_the_quarters_head_both_blocks(tmp_path):
    path = tmp_path / "falcon_deck.pdf"
    path.write_bytes(_deck())
    parsed = parse_pdf(load_source(path, max_file_mb=10))
    tables = [b for b in parsed.blocks if b.kind.name == "TABLE"]
    assert len(tables) == 1, [t.text for t in tables]
    text = tables[0].text
    assert "Q1'25" in text.splitlines()[0]
    assert "| Cloud Operating Income | 3,900 | 4,100 | 4,350 | 4,500 |" in text, text
    assert "| Devices Operating (Loss) | (610) | (640) | (705) | (720) |" in text, text


def test_the_lower_block_answers_by_quarter(tmp_path, tmp_path_factory):
    path = tmp_path / "falcon_deck.pdf"
    path.write_bytes(_deck())
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-deck-segments", [path]), llm=None)
    answer = engine.answer("What was the Devices segment's operating loss in Q1 2025?", docs=[path.name],
                           mode="deterministic")
    assert [f.printed for f in answer.figures] == ["(720)"], answer.answer
    assert answer.citations and answer.citations[0].page == 2
