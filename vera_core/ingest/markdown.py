"""Markdown -> blocks with markdown-it-py (CommonMark + pipe tables): headings, paragraphs, lists,
atomic code blocks and tables (pipe, pandoc grid and HTML `<table>` ones). Other raw HTML is not
interpreted; it stays text."""

from __future__ import annotations

import re

import time

from markdown_it import MarkdownIt
from markdown_it.token import Token

from vera_core.errors import EmptyDocumentError
from vera_core.ingest.markdown_lists import normalise_lists
from vera_core.ingest.markdown_html_tables import extract_html_tables
from vera_core.ingest.markdown_prep import GRID_PLACEHOLDER, extract_grid_tables, split_front_matter, strip_leftovers
from vera_core.ingest.pdf_tables import grid_markdown
from vera_core.ingest.source import SourceFile, markdown_text
from vera_core.ingest.structure import headings_with_ranges
from vera_core.records import Block, BlockKind, ParsedDocument

PARSER_VERSION = "md-1"
_PARSER = MarkdownIt("commonmark", {"html": False, "maxNesting": 20}).enable("table")


def parse_markdown(source: SourceFile) -> ParsedDocument:
    """Parse validated Markdown bytes into blocks; front matter becomes document metadata."""
    started = time.perf_counter()
    text = markdown_text(source.name, source.data)
    front_matter, body = split_front_matter(text)
    body, removed = strip_leftovers(body)
    body, grids = extract_html_tables(body, GRID_PLACEHOLDER)  # NOTE: before lists: a cell's lines are not list items
    body, more = extract_grid_tables(normalise_lists(body), start=len(grids))
    grids += more
    blocks = _Walker(grids).walk(_PARSER.parse(body))
    if not blocks:
        raise EmptyDocumentError(f"{source.name!r} has no text content. Choose a Markdown file with content.")
    parsed = ParsedDocument(doc_id=source.doc_id, name=source.name, format="markdown", sha256=source.sha256,
                            pages=0, blocks=blocks,
                            metadata={"front_matter": front_matter, **({"notes_removed": removed} if removed else {})})
    parsed.headings = headings_with_ranges(blocks, last_page=None)
    parsed.timings = {"parse": time.perf_counter() - started, "tables": 0.0}
    return parsed


def inline_text(token: Token) -> str:
    """Inline children back to readable Markdown-ish text: links kept as [text](url), bold kept."""
    parts: list[str] = []
    for child in token.children or []:
        if child.type == "text":
            parts.append(child.content)
        elif child.type == "code_inline":
            parts.append(f"`{child.content}`")
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "link_open":
            parts.append("[")
        elif child.type == "link_close":
            parts.append("]")
            opener = next((c for c in reversed(token.children[:token.children.index(child)])
                           if c.type == "link_open"), None)
            if opener is not None:
                parts.append(f"({opener.attrGet('href') or ''})")
        elif child.type in ("strong_open", "strong_close"):
            parts.append("**")
        elif child.type == "image":
            parts.append(child.content or "")
        elif child.type in ("html_inline",):
            parts.append(child.content)
    return "".join(parts).strip()


class _Walker:
    """Turns the flat token stream into blocks with a heading stack."""

    def __init__(self, grids: list[tuple[list[str], list[list[str]]]]) -> None:
        self.grids = grids
        self.stack: list[tuple[int, str]] = []
        self.blocks: list[Block] = []

    def titles(self) -> tuple[str, ...]:
        return tuple(t for _, t in self.stack)

    def _lead_in(self) -> str:
        """The sentence that leads into a table just below it ("Incidents can be classified based on their
        severity:"), its caption: it says what the table's rows are when its header does not."""
        before = self.blocks[-1] if self.blocks else None
        if before is None or before.kind is not BlockKind.PARAGRAPH or not before.text.rstrip().endswith(":"):
            return ""
        return re.split(r"(?<=[.!?])\s+", " ".join(before.text.split()))[-1][:300]

    def walk(self, tokens: list[Token]) -> list[Block]:
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok.type == "heading_open":
                level = int(tok.tag[1])
                title = inline_text(tokens[i + 1])
                while self.stack and self.stack[-1][0] >= level:
                    self.stack.pop()
                self.stack.append((level, title))
                self.blocks.append(Block(BlockKind.HEADING, title, self.titles(), level=len(self.stack)))
                i += 3
            elif tok.type == "paragraph_open":
                text = inline_text(tokens[i + 1])
                grid = text.strip()
                if grid.startswith("VERAGRIDTABLE") and grid[len("VERAGRIDTABLE"):].isdigit() \
                        and int(grid[len("VERAGRIDTABLE"):]) < len(self.grids) \
                        and grid == GRID_PLACEHOLDER.format(int(grid[len("VERAGRIDTABLE"):])):
                    header, rows = self.grids[int(grid[len("VERAGRIDTABLE"):])]
                    self.blocks.append(Block(BlockKind.TABLE, grid_markdown(header, rows), self.titles(),
                                             caption=self._lead_in()))
                elif text:
                    self.blocks.append(Block(BlockKind.PARAGRAPH, text, self.titles()))
                i += 3
            elif tok.type in ("bullet_list_open", "ordered_list_open"):
                end = _close(tokens, i)
                self.blocks.append(Block(BlockKind.LIST, _list_text(tokens[i:end + 1]), self.titles()))
                i = end + 1
            elif tok.type in ("fence", "code_block"):
                language = tok.info.strip().split(" ")[0] if tok.type == "fence" else ""
                self.blocks.append(Block(BlockKind.CODE, tok.content.rstrip("\n"), self.titles(), language=language))
                i += 1
            elif tok.type == "table_open":
                end = _close(tokens, i)
                self.blocks.append(Block(BlockKind.TABLE, _table_markdown(tokens[i:end + 1]), self.titles(),
                                         caption=self._lead_in()))
                i = end + 1
            elif tok.type == "html_block":
                if tok.content.strip():
                    self.blocks.append(Block(BlockKind.PARAGRAPH, tok.content.strip(), self.titles()))
                i += 1
            else:
                i += 1
        return self.blocks


def _close(tokens: list[Token], start: int) -> int:
    """Index of the token closing the one at `start`."""
    depth = 0
    for j in range(start, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return len(tokens) - 1


def _list_text(tokens: list[Token]) -> str:
    """A (nested) list as Markdown lines: `- item` / `1. item`, indented two spaces per level."""
    lines: list[str] = []
    kinds: list[tuple[str, int]] = []
    item_open = False
    for tok in tokens:
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            kinds.append((tok.type, int(tok.attrGet("start") or 1)))
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            kinds.pop()
        elif tok.type == "list_item_open":
            item_open = True
        elif tok.type == "inline" and kinds:
            kind, number = kinds[-1]
            if item_open:
                marker = "-" if kind == "bullet_list_open" else f"{number}."
                if kind == "ordered_list_open":
                    kinds[-1] = (kind, number + 1)
                lines.append(f"{'  ' * (len(kinds) - 1)}{marker} {inline_text(tok)}")
                item_open = False
            else:
                lines.append(f"{'  ' * len(kinds)}{inline_text(tok)}")
        elif tok.type in ("fence", "code_block"):
            lines.append(f"{'  ' * len(kinds)}{tok.content.strip()}")
    return "\n".join(lines)


def _table_markdown(tokens: list[Token]) -> str:
    header: list[str] = []
    rows: list[list[str]] = []
    current: list[str] = []
    in_head = False
    for tok in tokens:
        if tok.type == "thead_open":
            in_head = True
        elif tok.type == "thead_close":
            in_head = False
        elif tok.type == "tr_open":
            current = []
        elif tok.type == "inline":
            current.append(inline_text(tok))
        elif tok.type == "tr_close":
            (header.extend(current) if in_head else rows.append(current))
    width = max([len(header), *(len(r) for r in rows)] or [1])
    header += [""] * (width - len(header))
    return grid_markdown(header, [r + [""] * (width - len(r)) for r in rows])
