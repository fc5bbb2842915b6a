"""Markdown ingestion on the bundled policies, checked against the ground truth."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES, doc_by_name
from vera_core.ingest.markdown import parse_markdown
from vera_core.ingest.source import load_source

POLICIES = ["information_security_policy.md", "expense_policy.md", "data_retention_policy.md"]


@pytest.mark.parametrize("name", POLICIES)
def test_heading_hierarchy_and_front_matter(sample_store, ground_truth, name):
    doc = doc_by_name(sample_store, name)
    want = ground_truth[name]
    assert doc.format == "markdown" and doc.pages == 0
    assert doc.metadata["front_matter"] == want["front_matter"]
    got = [(h.title, h.level, list(h.path)) for h in sample_store.catalog.headings(doc.doc_id)]
    assert got == [(h["title"], h["level"], h["path"]) for h in want["headings"]]
    stem = name.removesuffix(".md")
    for chunk in sample_store.catalog.chunks(doc.doc_id):
        assert chunk.page_start == chunk.page_end == 0 and chunk.polygons == ()
        assert chunk.heading_path.startswith(stem + "/")


@pytest.mark.parametrize("name", POLICIES)
def test_tables_pipe_and_grid_are_single_atomic_chunks(sample_store, ground_truth, name):
    doc = doc_by_name(sample_store, name)
    tables = [c for c in sample_store.catalog.chunks(doc.doc_id) if c.kind == "table"]
    assert len(tables) == len(ground_truth[name]["tables"])
    for want, chunk in zip(ground_truth[name]["tables"], tables):
        assert chunk.heading_path == "/".join([name.removesuffix(".md"), *want["section_path"]])
        header_line = chunk.text.splitlines()[0]
        assert [c.strip() for c in header_line.strip("|").split("|")] == want["header"]
        for row in want["rows"]:
            assert "| " + " | ".join(row) + " |" in chunk.text, row


def test_code_block_is_one_code_chunk_and_its_comments_are_not_headings(sample_store, ground_truth):
    name = "information_security_policy.md"
    doc = doc_by_name(sample_store, name)
    code = [c for c in sample_store.catalog.chunks(doc.doc_id) if c.kind == "code"]
    want = ground_truth[name]["code_blocks"]
    assert len(code) == len(want) == 1
    assert want[0]["text"] in code[0].text and code[0].text.startswith("```bash")
    titles = {h.title for h in sample_store.catalog.headings(doc.doc_id)}
    assert not any(t.startswith("Report accounts") for t in titles)


def test_four_space_indented_list_is_text_kept_with_its_lead_in(sample_store, ground_truth):
    name = "information_security_policy.md"
    doc = doc_by_name(sample_store, name)
    chunks = sample_store.catalog.chunks(doc.doc_id)
    for lst in ground_truth[name]["lists"]:
        holder = [c for c in chunks if lst["items"][0] in c.text]
        assert len(holder) == 1 and holder[0].kind == "text"
        assert lst["lead_in"] in holder[0].text, "list separated from its lead-in"
        for item in lst["items"]:
            assert f"- {item}" in holder[0].text


def test_links_are_kept(sample_store, ground_truth):
    name = "information_security_policy.md"
    text = " ".join(c.text for c in sample_store.catalog.chunks(doc_by_name(sample_store, name).doc_id))
    for link in ground_truth[name]["links"]:
        assert f"]({link})" in text


def test_hostile_markdown_is_text_not_html_and_does_not_blow_up(tmp_path):
    evil = ("---\na: &x [1,2,3]\nb: [*x,*x,*x,*x]\n---\n# T\n\n<script>alert(1)</script>\n\n"
            + "> " * 500 + "deep\n\n" + "- " * 300 + "nest\n\n" + "[x](javascript:alert(1))\n")
    path = tmp_path / "evil.md"
    path.write_text(evil)
    parsed = parse_markdown(load_source(path, max_file_mb=1))
    text = "\n".join(b.text for b in parsed.blocks)
    assert "<script>alert(1)</script>" in text  # kept as literal text; the UI never renders HTML
    assert parsed.metadata["front_matter"]["b"] == ["*x"] * 4  # aliases are never expanded (issue 19)
    assert [h.title for h in parsed.headings] == ["T"]


def test_indented_list_nested_under_list_item_is_left_alone(tmp_path):
    path = tmp_path / "nested.md"
    path.write_text("# Rules\n\n- Top\n    - nested one\n    - nested two\n")
    parsed = parse_markdown(load_source(path, max_file_mb=1))
    lists = [b for b in parsed.blocks if b.kind == "list"]
    assert lists and lists[0].text == "- Top\n  - nested one\n  - nested two"


def test_sample_policies_round_trip_from_disk():
    for name in POLICIES:
        parsed = parse_markdown(load_source(SAMPLES / name, max_file_mb=1))
        assert parsed.blocks and parsed.headings
