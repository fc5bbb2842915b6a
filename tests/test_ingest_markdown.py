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
    assert ground_truth[name]["lists"]
    for lst in ground_truth[name]["lists"]:
        holder = [c for c in chunks if lst["items"][0] in c.text]
        assert len(holder) == 1 and holder[0].kind == "text"
        assert lst["lead_in"] in holder[0].text, "list separated from its lead-in"
        for item in lst["items"]:
            assert f"- {item}" in holder[0].text


def test_links_are_kept(sample_store, ground_truth):
    name = "information_security_policy.md"
    text = " ".join(c.text for c in sample_store.catalog.chunks(doc_by_name(sample_store, name).doc_id))
    assert ground_truth[name]["links"]
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


def test_an_html_table_in_markdown_is_a_table_with_its_header_and_lead_in(tmp_path):
    path = tmp_path / "retention.md"
    path.write_text("# Retention\n\nData is kept for a set period, depending on its type:\n\n<table>\n  <tr>\n"
                    "   <td><strong>Data Assets</strong>\n   </td>\n   <td><strong>Retention period</strong></td>\n  </tr>\n"
                    "  <tr>\n   <td>Payment and billing information\n   </td>\n   <td>7 years</td>\n  </tr>\n"
                    "  <tr><td>Client logs</td><td><ul><li>12 months</li><li>then deleted</li></ul></td></tr>\n</table>\n\n"
                    "After the table.\n")
    parsed = parse_markdown(load_source(path, max_file_mb=1))
    tables = [b for b in parsed.blocks if b.kind == "table"]
    assert len(tables) == 1 and "<td>" not in tables[0].text
    assert tables[0].text.splitlines()[0] == "| Data Assets | Retention period |"
    assert "| Client logs | 12 months; then deleted |" in tables[0].text
    assert tables[0].caption == "Data is kept for a set period, depending on its type:"
    assert any(b.kind == "paragraph" and b.text == "After the table." for b in parsed.blocks)


@pytest.mark.parametrize("html", [
    "<table>\n<tr><td>a</td><td>b</td></tr>\n",                                   # never closed
    "<table>\n<tr><td><table><tr><td>x</td></tr></table></td></tr>\n</table>\n",  # a table inside a table
    "<table>\n" * 20000,                                                           # many openings, no close
    "<table><tr><td>a <![ b</td><td>y</td></tr></table>\n",                       # markup html.parser gives up on
    "```\n<table><tr><td>a</td><td>b</td></tr></table>\n```\n",                   # shown in a code block
])
def test_an_html_table_that_cannot_be_read_stays_text_and_costs_one_pass(tmp_path, html):
    path = tmp_path / "odd.md"
    path.write_text("# T\n\n" + html)
    parsed = parse_markdown(load_source(path, max_file_mb=5))
    assert not [b for b in parsed.blocks if b.kind == "table"]
