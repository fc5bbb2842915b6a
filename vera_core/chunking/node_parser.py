"""The chunker: a llama-index NodeParser that is heading-path aware and table-atomic.

Text chunks group consecutive paragraphs of ONE section (never across a heading) up to the
embedding model's budget; a paragraph longer than the budget is split at sentence ends. Tables and
code blocks are one chunk each, whatever their length; a table is embedded from a synopsis.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import BaseNode, Document, TextNode
from pydantic import Field, PrivateAttr

from vera_core import chunk_metadata as M
from vera_core.chunking.tokens import TokenCounter, split_sentences
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
        return table_synopsis(meta.get(M.CAPTION, ""), node.get_content())
    section = meta.get(M.HEADING_PATH, "").rsplit(M.HEADING_SEPARATOR, 1)[-1]
    text = node.get_content()
    return text if text.startswith(section) else f"{section}\n{text}"


class StructureNodeParser(NodeParser):
    """Blocks -> TextNodes: heading-path aware text grouping, atomic tables and code."""

    chunk_tokens: int = Field(default=200, description="Target word pieces per text chunk.")
    max_tokens: int = Field(default=256, description="Word pieces the embedding model reads at most.")
    model_dir: str | None = Field(default=None, description="Embedding model folder (for its tokenizer).")
    _counter: TokenCounter | None = PrivateAttr(default=None)

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
        for position, (kind, titles, text, rects, caption, footnotes) in enumerate(pieces):
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
        counts = self._tokens().count_many([embedding_text(n) for n in nodes])
        for node, count in zip(nodes, counts):
            node.metadata[M.TOKENS] = count
        return nodes

    def _pieces(self, blocks: list[Block]):
        """Yield (kind, titles, text, rects, caption, footnotes) per chunk."""
        counter = self._tokens()
        sizes = counter.count_many([b.text for b in blocks]) if blocks else []
        group: list[tuple[Block, int]] = []

        def flush():
            if group:
                text = "\n\n".join(b.text for b, _ in group)
                rects = tuple(r for b, _ in group for r in b.rects)
                yield M.KIND_TEXT, group[0][0].heading_titles, text, rects, "", ""
                group.clear()

        for block, size in zip(blocks, sizes):
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
        between its items, `_split_list`)."""
        if block.kind is BlockKind.LIST:
            yield from self._split_list(block)
            return
        counter = self._tokens()
        sentences = split_sentences(block.text)
        words_per_piece = max(16, int(self.chunk_tokens * 0.6))
        units: list[str] = []
        for sentence, size in zip(sentences, counter.count_many(sentences)):
            if size <= self.chunk_tokens:
                units.append(sentence)
            else:
                words = sentence.split()
                units.extend(" ".join(words[i:i + words_per_piece]) for i in range(0, len(words), words_per_piece))
        sizes = counter.count_many(units)
        piece: list[str] = []
        used = 0
        cursor = 0
        for unit, size in zip(units, sizes):
            if piece and used + size > self.chunk_tokens:
                text = " ".join(piece)
                yield M.KIND_TEXT, block.heading_titles, text, _rects_for(block, cursor, cursor + len(text)), "", ""
                cursor = block.text.find(unit, cursor + len(text) // 2) if unit else cursor
                piece, used = [], 0
            piece.append(unit)
            used += size
        if piece:
            text = " ".join(piece)
            yield M.KIND_TEXT, block.heading_titles, text, _rects_for(block, cursor, len(block.text)), "", ""


    def _split_list(self, block: Block):
        """An over-long list in pieces within the target size, split between top-level items, each
        piece a list of whole lines (so every item keeps its marker and indentation). An item whose
        sub-items alone overflow is split between them, and each later piece opens with the item's
        first line again, so its sub-items keep their parent (`answer.outlines` reads it once)."""
        counter = self._tokens()
        lines = [line for line in block.text.split("\n") if line.strip()]
        indents = [len(line) - len(line.lstrip()) for line in lines]
        top = min(indents) if indents else 0
        groups: list[list[str]] = []
        for line, indent in zip(lines, indents):
            if indent == top or not groups:
                groups.append([line])
            else:
                groups[-1].append(line)
        sizes = counter.count_many(lines)
        size_of = dict(zip(lines, sizes))
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


def _rects_for(block: Block, start: int, end: int) -> tuple[Rect, ...]:
    """The line rects of `block` whose text overlaps characters [start, end)."""
    if not block.rect_offsets:
        return block.rects
    bounds = [*block.rect_offsets[1:], len(block.text) + 1]
    return tuple(r for r, a, b in zip(block.rects, block.rect_offsets, bounds) if a < end and b > start) or block.rects
