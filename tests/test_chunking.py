"""Properties of the chunker: tables never split, text covered in order, no chunk crosses a
heading, text chunks fit the embedding model."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vera_core.chunking.node_parser import StructureNodeParser
from vera_core.records import Block, BlockKind, ParsedDocument, Rect

WORDS = st.sampled_from("revenue grew by 12% in the industrial segment while costs (1,234) fell sharply . ;".split())
SENTENCE = st.lists(WORDS, min_size=3, max_size=60).map(lambda ws: " ".join(ws) + ".")
PARSER = StructureNodeParser()


@st.composite
def documents(draw):
    blocks: list[Block] = []
    titles: tuple[str, ...] = ()
    for i in range(draw(st.integers(1, 25))):
        kind = draw(st.sampled_from(["heading", "para", "para", "para", "table", "long"]))
        rect = (Rect(1 + i // 5, 50, 100 + (i % 5) * 100, 500, 110 + (i % 5) * 100),)
        if kind == "heading":
            titles = (f"Section {i}",)
            blocks.append(Block(BlockKind.HEADING, titles[0], titles, rect, level=1))
        elif kind == "table":
            rows = "\n".join(f"| row {i}-{r} | {r * 1000:,} |" for r in range(draw(st.integers(1, 120))))
            blocks.append(Block(BlockKind.TABLE, f"| item | 2024 |\n|---|---|\n{rows}", titles, rect,
                                caption=f"Table {i}"))
        else:
            n = 40 if kind == "long" else draw(st.integers(1, 4))
            text = " ".join(draw(SENTENCE) for _ in range(n))
            blocks.append(Block(BlockKind.PARAGRAPH, text, titles, rect, rect_offsets=(0,)))
    return ParsedDocument("d" * 16, "doc.pdf", "pdf", "0" * 64, 10, blocks)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_chunker_invariants(doc):
    nodes = PARSER.chunk(doc)
    tables = [b for b in doc.blocks if b.kind is BlockKind.TABLE]
    table_nodes = [n for n in nodes if n.metadata["kind"] == "table"]
    assert len(table_nodes) == len(tables), "every table is exactly one chunk"
    for block, node in zip(tables, table_nodes):
        assert block.text in node.text
    joined = " ".join(n.text for n in nodes if n.metadata["kind"] == "text").split()
    expected = " ".join(b.text for b in doc.blocks if b.kind in (BlockKind.PARAGRAPH, BlockKind.HEADING)).split()
    assert joined == expected, "text chunks cover every word once, in order"
    assert nodes
    for node in nodes:
        if node.metadata["kind"] == "text":
            assert node.metadata["tokens"] <= 256
    assert [n.metadata["position"] for n in nodes] == list(range(len(nodes)))


def test_text_chunk_never_mixes_sections():
    blocks = [Block(BlockKind.HEADING, "A", ("A",), level=1), Block(BlockKind.PARAGRAPH, "alpha text.", ("A",)),
              Block(BlockKind.HEADING, "B", ("B",), level=1), Block(BlockKind.PARAGRAPH, "beta text.", ("B",))]
    nodes = PARSER.chunk(ParsedDocument("e" * 16, "x.md", "markdown", "0" * 64, 0, blocks))
    assert [(n.metadata["heading_path"], n.text) for n in nodes] == [("x/A", "A\n\nalpha text."),
                                                                      ("x/B", "B\n\nbeta text.")]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(WORDS, min_size=1, max_size=30), min_size=1, max_size=30), st.lists(WORDS, min_size=1, max_size=8))
def test_vectorised_bm25_equals_rank_bm25(docs, query):
    from vera_core.index.bm25 import IDF_FLOOR, BM25Index, tokenize
    from vera_core.records import KeywordRow
    rows = [KeywordRow(f"c{i}", 1, 1, "", "d/s", " ".join(words), "text") for i, words in enumerate(docs)]
    index = BM25Index(rows)
    from rank_bm25 import BM25Okapi
    reference = BM25Okapi([tokenize(f"\ns\n{' '.join(words)}") or ["_"] for words in docs])
    # VERA's one deliberate difference: no term of the document weighs less than IDF_FLOOR, so a
    # word in most chunks of a short policy still finds them (rank-bm25 gives it zero or below)
    reference.idf = {term: max(idf, IDF_FLOOR) for term, idf in reference.idf.items()}
    expected = reference.get_scores(tokenize(" ".join(query)))
    assert [round(x, 9) for x in index._scores(tokenize(" ".join(query)))] == [round(float(x), 9) for x in expected]
    stored = BM25Index.from_bytes(index.to_bytes(), rows)  # the index written at ingestion scores the same
    assert [round(x, 9) for x in stored._scores(tokenize(" ".join(query)))] == [round(float(x), 9) for x in expected]


def test_a_word_in_every_chunk_of_a_short_policy_still_finds_them():
    from vera_core.index.bm25 import BM25Index, tokenize
    from vera_core.records import KeywordRow
    texts = ["Encryption keys are rotated yearly.", "Laptops use full disk encryption."]
    index = BM25Index([KeywordRow(f"c{i}", 1, 1, "", "d/s", t, "text") for i, t in enumerate(texts)])
    scores = index._scores(tokenize("encryption"))
    assert scores[0] > 0 and scores[1] > 0  # rank-bm25 scores both below zero
