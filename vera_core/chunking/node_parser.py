"""The chunker: a llama-index NodeParser that is heading-path aware and table-atomic.

Text chunks group consecutive paragraphs of ONE section (never across a heading) up to the
embedding model's budget; a paragraph longer than the budget is split at sentence ends. Tables and
code blocks are one chunk each, whatever their length; a table is embedded from a synopsis.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Sequence
from typing import Any

from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import BaseNode, Document, TextNode
from pydantic import Field, PrivateAttr

from vera_core import chunk_metadata as M
from vera_core.chunking.tokens import TokenCounter, sentence_spans
from vera_core.ingest.pdf_tables import markdown_rows, table_cells
from vera_core.records import Block, BlockKind, ParsedDocument, Rect


class StructuredDocument(Document):
    """A llama-index Document that carries the parsed blocks of one file."""

    parsed: Any = Field(default=None, exclude=True, description="The ParsedDocument behind this Document.")

    @classmethod
    def from_parsed(cls, parsed: ParsedDocument) -> StructuredDocument:
        # NOTE: the text is a short descriptor, not the whole document: NodeParser post-processing
        # searches the parent text for every node, which is quadratic on a 500-page filing.
        return cls(id_=parsed.doc_id, text=f"{parsed.name} sha256:{parsed.sha256}", parsed=parsed,
                   metadata={M.DOC_ID: parsed.doc_id, M.DOC_NAME: parsed.name, M.FORMAT: parsed.format})


def heading_path(stem: str, titles: Sequence[str]) -> str:
    """`<doc stem>/<h1>/<h2>...`."""
    return M.HEADING_SEPARATOR.join([stem, *titles])


def section_id(stem: str, titles: Sequence[str]) -> str:
    """The top-level section: `<doc stem>/<h1>` (the stem alone before the first heading)."""
    return heading_path(stem, titles[:1])


EMBED_CHARS = 16_384
"""The most characters of a chunk the embedding model is given: far beyond the 256 word pieces it reads (a
word piece covers ~4 characters), so only a text the model would cut anyway is cut, before tokenizing it."""
OVER_CHARS = 32
"""A text longer than `OVER_CHARS` characters per word piece of the budget is over the budget without
counting it (a word piece covers ~4 characters): the tokenizer never reads a whole 60 MB paragraph."""
COUNT_BATCH = 512
"""Texts counted per call to the tokenizer (its output for a whole large file at once would not fit memory)."""
PIECE_CHARS = 16
"""Characters per word piece of the budget a piece of a split paragraph spans at most: a run of "words" the
tokenizer reads as one unknown piece each (a 100,000-letter word) still ends its piece."""
CHECK_EVERY = 64
"""Pieces between two checks of the caller's budget (`checked`)."""


def table_synopsis(caption: str, markdown: str) -> str:
    """What a table is embedded from: caption, column headers and row labels (not its figures)."""
    cells = [table_cells(ln) for ln in markdown_rows(markdown)]
    header = " | ".join(c for c in cells[0] if c) if cells else ""
    labels = "; ".join(r[0] for r in cells[1:] if r and r[0])
    return "\n".join(part for part in (caption, f"Columns: {header}" if header else "",
                                       f"Rows: {labels}" if labels else "") if part)


def embedding_text(node: BaseNode) -> str:
    """The text the embedding model reads for a chunk: table synopsis, or section title + text."""
    meta = node.metadata
    if meta.get(M.KIND) == M.KIND_TABLE:
        return table_synopsis(meta.get(M.CAPTION, ""), node.get_content())[:EMBED_CHARS]
    section = meta.get(M.HEADING_PATH, "").rsplit(M.HEADING_SEPARATOR, 1)[-1]
    text = node.get_content()[:EMBED_CHARS]  # NOTE: an atomic code block of 60 MB is read no further than the model reads
    return text if text.startswith(section) else f"{section}\n{text}"


class StructureNodeParser(NodeParser):
    """Blocks -> TextNodes: heading-path aware text grouping, atomic tables and code."""

    chunk_tokens: int = Field(default=200, description="Target word pieces per text chunk.")
    max_tokens: int = Field(default=256, description="Word pieces the embedding model reads at most.")
    model_dir: str | None = Field(default=None, description="Embedding model folder (for its tokenizer).")
    _counter: TokenCounter | None = PrivateAttr(default=None)
    _check: Any = PrivateAttr(default=None)

    def checked(self, check) -> StructureNodeParser:
        """Call `check()` between steps of the chunking that follows (it raises to stop it); None: no checks."""
        self._check = check
        return self

    def _step(self, done: int) -> None:
        if self._check is not None and done % CHECK_EVERY == 0:
            self._check()

    @classmethod
    def class_name(cls) -> str:
        return "VeraStructureNodeParser"

    def _tokens(self) -> TokenCounter:
        if self._counter is None:
            self._counter = TokenCounter(None if self.model_dir is None else __import__("pathlib").Path(self.model_dir))
        return self._counter

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any) -> list[BaseNode]:
        out: list[BaseNode] = []
        for node in nodes:
            parsed = getattr(node, "parsed", None)
            if not isinstance(parsed, ParsedDocument):
                raise TypeError("StructureNodeParser takes StructuredDocument nodes built from parsed files")
            out.extend(self.chunk(parsed, source=node))
        return out

    def chunk(self, parsed: ParsedDocument, source: BaseNode | None = None) -> list[TextNode]:
        """All chunks of one parsed document, in document order."""
        pieces = list(self._pieces(parsed.blocks))
        nodes = []
        known: list[int | None] = []  # word pieces of a text counted while it was made
        for position, (kind, titles, text, rects, caption, footnotes, *counted) in enumerate(pieces):
            known.append(counted[0] if counted and len(text) <= EMBED_CHARS else None)
            self._step(position)
            chunk_id = f"{parsed.doc_id}-{position:05d}"
            pages = sorted({r.page for r in rects})
            node = TextNode(
                id_=chunk_id, text=text,
                metadata={
                    M.DOC_ID: parsed.doc_id, M.DOC_NAME: parsed.name, M.FORMAT: parsed.format,
                    M.CHUNK_ID: chunk_id, M.KIND: kind, M.POSITION: position,
                    M.PAGE_START: pages[0] if pages else 0, M.PAGE_END: pages[-1] if pages else 0,
                    M.HEADING_PATH: heading_path(parsed.stem, titles),
                    M.SECTION_ID: section_id(parsed.stem, titles),
                    M.CAPTION: caption, M.POLYGONS: json.dumps([r.as_dict() for r in rects]),
                    "footnotes": footnotes,
                },
                excluded_embed_metadata_keys=[*M.HIDDEN_FROM_MODELS, "footnotes"],
                excluded_llm_metadata_keys=[*M.HIDDEN_FROM_MODELS, "footnotes"],
            )
            if source is not None:
                node.relationships = {}
                from llama_index.core.schema import NodeRelationship
                node.relationships[NodeRelationship.SOURCE] = source.as_related_node_info()
            nodes.append(node)
        for node, count in zip(nodes, self._embedding_sizes(nodes, known)):
            node.metadata[M.TOKENS] = count
        return nodes

    def _embedding_sizes(self, nodes: list[TextNode], known: list[int | None]) -> list[int]:
        """Word pieces of each node's embedding text. A chunk counted while it was made (whole paragraphs grouped, or
        a piece of a split one) is not read again: word pieces never span a space, so its count is its parts' counts
        plus its section title's."""
        texts = [embedding_text(n) for n in nodes]
        todo = [i for i, count in enumerate(known) if count is None]
        sizes: list[int] = [0] * len(nodes)
        for i, size in zip(todo, self._sizes([texts[i] for i in todo])):
            sizes[i] = size
        titles: dict[str, int] = {}
        for i, count in enumerate(known):
            if count is not None:
                prefix = texts[i][:len(texts[i]) - len(nodes[i].get_content())]
                if prefix not in titles:
                    titles[prefix] = self._sizes([prefix])[0] if prefix else 0
                sizes[i] = count + titles[prefix]
        return sizes

    def _sizes(self, texts: list[str]) -> list[int]:
        """Word pieces of each text, counted in batches; a text over `OVER_CHARS` per word piece of
        `max_tokens` is not read through: its size is estimated (a quarter of its characters), above any budget."""
        limit = self.max_tokens * OVER_CHARS
        sizes = [max(len(t) // 4, self.max_tokens + 1) if len(t) > limit else -1 for t in texts]
        short = [i for i, size in enumerate(sizes) if size < 0]
        counter = self._tokens()
        for start in range(0, len(short), COUNT_BATCH):
            self._step(0)
            batch = short[start:start + COUNT_BATCH]
            for i, size in zip(batch, counter.count_many([texts[i] for i in batch])):
                sizes[i] = size
        return sizes

    def _pieces(self, blocks: list[Block]):
        """Yield (kind, titles, text, rects, caption, footnotes[, word pieces when counted]) per chunk."""
        sizes = self._sizes([b.text for b in blocks])
        group: list[tuple[Block, int]] = []

        def flush():
            if group:
                text = "\n\n".join(b.text for b, _ in group)
                rects = tuple(r for b, _ in group for r in b.rects)
                # NOTE: whole paragraphs joined: their counts add up (a count only estimated is not passed on)
                counted = all(len(b.text) <= self.max_tokens * OVER_CHARS for b, _ in group)
                yield (M.KIND_TEXT, group[0][0].heading_titles, text, rects, "", "",
                       *((sum(size for _, size in group),) if counted else ()))
                group.clear()

        for done, (block, size) in enumerate(zip(blocks, sizes)):
            self._step(done)
            if block.kind in (BlockKind.TABLE, BlockKind.CODE):
                yield from flush()
                kind = M.KIND_TABLE if block.kind is BlockKind.TABLE else M.KIND_CODE
                text = "\n\n".join(p for p in (block.caption, block.text, block.footnotes) if p)
                if block.kind is BlockKind.CODE and block.language:
                    text = f"```{block.language}\n{block.text}\n```"
                yield kind, block.heading_titles, text, block.rects, block.caption, block.footnotes
                continue
            if block.kind is BlockKind.HEADING or (group and group[0][0].heading_titles != block.heading_titles):
                yield from flush()
            budget = sum(s for _, s in group)
            if size > self.chunk_tokens and block.kind is not BlockKind.HEADING:
                if group and group[-1][0].kind is BlockKind.HEADING and len(group) == 1 \
                        and budget + size <= self.max_tokens - 8:
                    group.append((block, size))
                    continue
                yield from flush()
                yield from self._split(block)
                continue
            if group and budget + size > self.chunk_tokens:
                yield from flush()
            group.append((block, size))
        yield from flush()

    def _split(self, block: Block):
        """Split an over-long paragraph at sentence ends into pieces within the target size (a list:
        between its items, `_split_list`). Linear in the paragraph: a sentence over the budget is cut
        into runs of words (a "word" of more than 32 characters into 32-character parts), and each
        piece's boxes are found from its own offsets."""
        if block.kind is BlockKind.LIST:
            yield from self._split_list(block)
            return
        words_per_piece = max(16, int(self.chunk_tokens * 0.6))
        spans = sentence_spans(block.text)
        units: list[tuple[int, int, bool]] = []  # (start, end, a run of words cut from a sentence)
        for (start, end), size in zip(spans, self._sizes([block.text[a:b] for a, b in spans])):
            if size <= self.chunk_tokens:
                units.append((start, end, False))
            else:
                units.extend((start + m.start(), start + m.end(), True) for m in
                             re.finditer(_WORD_RUN % words_per_piece, block.text[start:end]))
        texts = [" ".join(block.text[a:b].split()) if run else block.text[a:b] for a, b, run in units]
        piece: list[tuple[int, int, bool]] = []
        pieces: list[str] = []
        used = 0
        for done, (unit, text, size) in enumerate(zip(units, texts, self._sizes(texts))):
            self._step(done)
            if piece and (used + size > self.chunk_tokens or unit[1] - piece[0][0] > self.chunk_tokens * PIECE_CHARS):
                yield _piece(block, piece, pieces, used)
                piece, pieces, used = [], [], 0
            piece.append(unit)
            pieces.append(text)
            used += size
        if piece:
            yield _piece(block, piece, pieces, used)

    def _split_list(self, block: Block):
        """An over-long list in pieces within the target size, split between top-level items, each
        piece a list of whole lines (so every item keeps its marker and indentation). An item whose
        sub-items alone overflow is split between them, and each later piece opens with the item's
        first line again, so its sub-items keep their parent (`answer.outlines` reads it once)."""
        lines = [line for line in block.text.split("\n") if line.strip()]
        indents = [len(line) - len(line.lstrip()) for line in lines]
        top = min(indents) if indents else 0
        groups: list[list[str]] = []
        for line, indent in zip(lines, indents):
            if indent == top or not groups:
                groups.append([line])
            else:
                groups[-1].append(line)
        size_of = dict(zip(lines, self._sizes(lines)))
        pieces: list[list[str]] = []
        piece: list[str] = []
        used = 0
        for group in groups:
            size = sum(size_of[line] for line in group)
            if piece and used + size > self.chunk_tokens:
                pieces.append(piece)
                piece, used = [], 0
            if size <= self.chunk_tokens:
                piece += group
                used += size
                continue
            head, rest = group[0], group[1:]
            piece, used = piece + [head], used + size_of[head]
            for line in rest:
                if used + size_of[line] > self.chunk_tokens and len(piece) > 1:
                    pieces.append(piece)
                    piece, used = [head], size_of[head]
                piece.append(line)
                used += size_of[line]
        if piece:
            pieces.append(piece)
        cursor = 0
        for lines_of in pieces:
            text = "\n".join(lines_of)
            start = max(cursor, block.text.find(lines_of[min(1, len(lines_of) - 1)].strip(), cursor))
            yield M.KIND_TEXT, block.heading_titles, text, _rects_for(block, start, start + len(text)), "", ""
            cursor = start


def _piece(block: Block, units: list[tuple[int, int, bool]], texts: list[str], tokens: int):
    """A chunk of the paragraph `block`: its units' texts joined, the boxes of the lines they span, its word pieces."""
    return (M.KIND_TEXT, block.heading_titles, " ".join(texts), _rects_for(block, units[0][0], units[-1][1]), "", "",
            tokens)


_WORD_RUN = r"(?:\S{1,32}\s*){1,%d}"
"""Up to n words, each at most 32 characters (a longer run without a space is cut into such parts)."""


def _rects_for(block: Block, start: int, end: int) -> tuple[Rect, ...]:
    """The line rects of `block` whose text overlaps characters [start, end)."""
    if not block.rect_offsets:
        return block.rects
    # NOTE: by bisection, so that pieces of a paragraph of many lines cost no more than its lines
    first = max(0, bisect.bisect_right(block.rect_offsets, start) - 1)
    last = bisect.bisect_left(block.rect_offsets, end)
    return tuple(block.rects[first:last]) or block.rects
