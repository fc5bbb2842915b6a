"""PDF -> blocks in reading order: headings, paragraphs, list items and atomic tables with geometry."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import pymupdf

from vera_core.errors import EmptyDocumentError, EncryptedPDFError, InvalidPDFError
from vera_core.ingest.ligatures import ligature_map, repair_ligatures
from vera_core.ingest.pdf_grid import region_raw_grid
from vera_core.ingest.pdf_headings import HeadingMark, body_size, font_headings, outline_headings
from vera_core.ingest.pdf_rows import Row, furniture_keys, page_rows, strip_furniture, without_cut_rows
from vera_core.ingest.pdf_charts import with_charts
from vera_core.ingest.slide_labels import join_centred_labels
from vera_core.ingest.pdf_tables import FOOTNOTE_MARK, TableRegion, find_tables, grid_markdown, region_grid
from vera_core.finance.statements import is_statement_title
from vera_core.ingest.source import SourceFile
from vera_core.ingest.split_words import repair_split_words, split_heads, vocabulary
from vera_core.ingest.structure import headings_with_ranges
from vera_core.records import CHART_CAPTION, Block, BlockKind, ParsedDocument, Rect

PARSER_VERSION = "pdf-13"  # pdf-13: a ligature PyMuPDF 2 reads as "ð" ("proðt") read like the other mislabelled letters, a row the page's foot cuts off and the next page prints whole is dropped, a statement begun at a page's foot (its dated header and one row) is one table with its rest atop the next page, a deck chart's years under a "YTD" label are the months to its quarter; pdf-12: a "$" printed after a figure is the next column's, a slide label on three lines around its figures is one row, a stacked chart is read as one row per part with its totals; pdf-11: a statement continued atop the next page under its group labels in capitals ("LIABILITIES AND EQUITY") is one table with the page before's; pdf-10: a row of months and days one over each column heads one column each, the years under them complete the dates; pdf-9: a call's speaker named in capitals atop the next page opens their turn, a list of participants ends at prose and its firm and title lines name no one; pdf-8: a band of dates with no amount under it heads the table below, a lone period header centred over the columns heads them all; pdf-7: a slide label centred on two lines around its figures is one row, a headerless block under a slide table in its columns continues it; pdf-6: a statement's title widowed at a page's foot titles the next page's table, ligatures a font mislabels read; pdf-5: a date's day on a header line of its own, slides' charts read as tables; pdf-4: table headers above group labels, statement titles as captions (pdf-3: split words joined)
_BULLET = re.compile(r"^([•●▪◦■□➢►✓–—-]|\(?[a-z]\)|\(?\d{1,2}[.)]|\(?[ivx]{1,4}\))\s+", re.IGNORECASE)
_SENTENCE_END = (".", ":", ";", "!", "?")


@dataclass
class _Table:
    """A detected table, possibly continued over several pages."""

    regions: list[TableRegion]

    @property
    def first(self) -> TableRegion:
        return self.regions[0]


def open_pdf(source: SourceFile) -> pymupdf.Document:
    """Open PDF bytes, turning every failure into a typed error naming the file."""
    try:
        doc = pymupdf.open(stream=source.data, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several types for damaged files
        raise InvalidPDFError(
            f"{source.name!r} is not a readable PDF ({exc}). Re-export or re-download it and ingest again.") from exc
    if doc.needs_pass or doc.is_encrypted:
        raise EncryptedPDFError(
            f"{source.name!r} is password-protected. Save an unencrypted copy (print to PDF) and ingest that.")
    if doc.page_count == 0:
        raise EmptyDocumentError(f"{source.name!r} has no pages. Choose the complete document.")
    return doc


def _join_split_words(pages: list[list[Row]]) -> None:
    """Read ligatures a font mislabels ("proÞt"), then join words the PDF prints in two pieces, in place, by the
    document's own vocabulary."""
    texts = [cell.text for rows in pages for row in rows for cell in row.cells]
    ligatures = ligature_map(texts, vocabulary(texts))
    if ligatures:
        for rows in pages:
            for row in rows:
                for cell in row.cells:
                    cell.text = repair_ligatures(cell.text, ligatures)
        texts = [cell.text for rows in pages for row in rows for cell in row.cells]
    words, heads = vocabulary(texts), split_heads(texts)
    for rows in pages:
        for row in rows:
            for cell in row.cells:
                cell.text = repair_split_words(cell.text, words, heads)


def parse_pdf(source: SourceFile) -> ParsedDocument:
    """Parse a validated PDF into blocks; raises a `VeraError` for unreadable or textless files."""
    started = time.perf_counter()
    doc = open_pdf(source)
    try:
        pages = [page_rows(page, number) for number, page in enumerate(doc, start=1)]
        heights = [page.rect.height for page in doc]
        landscape = sum(1 for page in doc if page.rect.width > page.rect.height) / max(doc.page_count, 1)
        toc = doc.get_toc(simple=True)
        info = {k: v for k, v in (doc.metadata or {}).items() if v}
        repaired = bool(getattr(doc, "is_repaired", False))
    except Exception as exc:
        raise InvalidPDFError(f"{source.name!r} is damaged: reading its pages failed ({exc}). "
                              f"Re-export the PDF and ingest again.") from exc
    finally:
        doc.close()
    if not any(pages) and repaired:
        raise InvalidPDFError(
            f"{source.name!r} is damaged or truncated: its structure had to be repaired and none of its "
            f"{len(pages)} pages has readable text. Download or export the complete file again and ingest that.")
    if not any(pages):
        raise EmptyDocumentError(
            f"{source.name!r} has no text layer on any of its {len(pages)} pages; it looks scanned. "
            f"Run OCR on it (e.g. ocrmypdf) and ingest the result.")
    warnings = damage_warnings(source.name, pages, repaired)
    keys = furniture_keys(pages, heights)
    stripped = [strip_furniture(rows, h, keys) for rows, h in zip(pages, heights)]
    # NOTE: what page furniture says is kept apart: a deck's footer names its owner ("©2023 TWILIO INC.")
    kept = {id(r) for rows in stripped for r in rows}
    furniture = list(dict.fromkeys(" ".join(r.text.split())[:FURNITURE_CHARS] for rows in pages for r in rows
                                   if id(r) not in kept and re.search(r"[A-Za-z]{2}", r.text)))[:FURNITURE_LINES]
    pages = without_cut_rows(stripped)  # NOTE: a row the page's foot cuts off is printed whole atop the next page
    _join_split_words(pages)
    if landscape >= SLIDE_SHARE:  # NOTE: a slide's label centred on two lines around its figures is one row's
        pages = [join_centred_labels(rows) for rows in pages]
    body = body_size(pages)
    parsed_at = time.perf_counter()

    text_right = max((r.x1 for rows in pages for r in rows), default=0.0)
    per_page = [find_tables(rows, body, text_right) for rows in pages]
    if landscape >= SLIDE_SHARE:  # NOTE: a deck's charts print its figures; a filing's pages are read as tables only
        per_page = [with_charts(rows, regions) for rows, regions in zip(pages, per_page)]
    _carry_widowed_titles(per_page, pages)
    tables = _merge_continued(per_page, pages, deck=landscape >= SLIDE_SHARE)
    consumed = {(region.page, _index(pages, region.page, row))
                for table in tables for region in table.regions for row in region.rows}
    tables_at = time.perf_counter()

    marks = outline_headings(toc, pages, consumed) if len(toc) >= 3 else []
    if not marks:
        marks = font_headings(pages, consumed, body)
    blocks = _blocks(pages, tables, marks, consumed)
    if not any(b.kind is not BlockKind.HEADING for b in blocks):
        raise EmptyDocumentError(f"{source.name!r} has no body text on any of its {len(pages)} pages "
                                 f"(only headings or page furniture). Choose the complete document.")
    parsed = ParsedDocument(
        doc_id=source.doc_id, name=source.name, format="pdf", sha256=source.sha256, pages=len(pages),
        blocks=blocks, metadata={"pdf": info, "body_font_size": body, "outline_entries": len(toc),
                                 "landscape_share": round(landscape, 3), "furniture": furniture,
                                 **({"warnings": warnings} if warnings else {})})
    parsed.headings = headings_with_ranges(blocks, last_page=len(pages))
    parsed.timings = {"parse": (parsed_at - started) + (time.perf_counter() - tables_at),
                      "tables": tables_at - parsed_at}
    return parsed


FURNITURE_LINES = 12
"""Distinct page-furniture lines kept in a document's metadata (running heads, footers)."""
FURNITURE_CHARS = 200

EMPTY_PAGES_WARNING = 0.25
"""Warn when at least this share of a PDF's pages has no text while others do."""
SLIDE_SHARE = 0.5
"""A document this share of whose pages are landscape is a deck: its charts are read as tables (`pdf_charts.py`)."""


def damage_warnings(name: str, pages: list[list[Row]], repaired: bool) -> list[dict]:
    """Warnings for a PDF that was read but may be incomplete: PyMuPDF had to repair its structure (a
    truncated or corrupt file), or many of its pages came out empty. Each is {code, message}."""
    empty = [i + 1 for i, rows in enumerate(pages) if not rows]
    out = []
    if repaired:
        out.append({"code": "damaged", "message": (
            f"{name!r} is damaged (its structure had to be repaired; it may be truncated): "
            f"{len(pages) - len(empty)} of {len(pages)} pages have text, and what is missing cannot be "
            f"searched. Download or export the complete file again and ingest it with --force.")})
    if empty and len(empty) >= EMPTY_PAGES_WARNING * len(pages):
        shown = ", ".join(map(str, empty[:10])) + (", ..." if len(empty) > 10 else "")
        out.append({"code": "empty_pages", "message": (
            f"{len(empty)} of {len(pages)} pages of {name!r} have no text (pages {shown}): "
            f"{'they are likely lost to the damage' if repaired else 'they may be scanned images; run OCR on the file to search them'}.")})
    return out


def _index(pages: list[list[Row]], page: int, row: Row) -> int:
    for idx, candidate in enumerate(pages[page - 1]):
        if candidate is row:
            return idx
    raise ValueError("row not on its page")


WIDOW_ROWS = 3
"""How many last rows of a page are searched for a statement's title left there for the next page's table."""


def _carry_widowed_titles(per_page: list[list[TableRegion]], pages: list[list[Row]]) -> None:
    """A statement's title printed alone among a page's last rows, after its last table, titles the table that
    opens the next page when that table has no statement title of its own (eBay's releases end page 8 with
    "Unaudited Condensed Consolidated Statement of Cash Flows" and print the statement on page 9)."""
    for number in range(2, len(pages) + 1):
        regions, rows = per_page[number - 1], pages[number - 1]
        if not regions or not rows:
            continue
        first = min(regions, key=lambda r: r.rows[0].y0)
        if first.rows[0] is not rows[0] or first.chart or any(is_statement_title(r.text) for r in first.caption):
            continue
        before = pages[number - 2]
        taken = {id(row) for region in per_page[number - 2] for row in region.rows}
        tail = []
        for row in reversed(before[-WIDOW_ROWS:]):
            if id(row) in taken:
                break
            tail.insert(0, row)
        title = next((r.text for r in tail if len(r.cells) == 1 and len(r.text.split()) <= 12
                      and is_statement_title(r.text)), "")
        if title:
            first.carried_title = " ".join(title.split())


def _merge_continued(per_page: list[list[TableRegion]], pages: list[list[Row]], deck: bool = False) -> list[_Table]:
    """Join a table that ends a page with the table that starts the next one when their value
    columns line up: one logical table with a region on each page. On a deck's slide, a block of rows printed
    under a table's, in its columns and with no header of its own, is more of that table (Meta's segment slide:
    operating income under revenue, the quarters printed once above both)."""
    tables: list[_Table] = []
    for number, regions in enumerate(per_page, start=1):
        for region in regions:
            prev = tables[-1] if tables else None
            if prev and deck and _continues_on_slide(prev.regions[-1], region, pages):
                tables[-1].regions.append(region)
            elif prev and _continues(prev.regions[-1], region, pages):
                if [r.text for r in region.header] == [r.text for r in prev.first.header]:
                    region.header = []
                if _group_labels(region):  # NOTE: "LIABILITIES AND EQUITY" over the rows it groups opens the body
                    region.body[:0], region.caption = region.caption, []
                tables[-1].regions.append(region)
            else:
                tables.append(_Table([region]))
    return [t for t in tables if not (len(t.regions) == 1 and t.first.stub)]  # a stub nothing continues is text


def _continues_on_slide(before: TableRegion, after: TableRegion, pages: list[list[Row]]) -> bool:
    if after.page != before.page or after.header or after.caption or after.chart or before.chart \
            or not before.header or len(after.columns) != len(before.columns):
        return False
    if _index(pages, after.page, after.rows[0]) != _index(pages, before.page, before.rows[-1]) + 1:
        return False  # NOTE: text printed between them makes them two tables
    return all(abs(a[1] - b[1]) <= 12 for a, b in zip(before.columns, after.columns))


def _continues(before: TableRegion, after: TableRegion, pages: list[list[Row]]) -> bool:
    if after.page != before.page + 1 or len(after.columns) != len(before.columns):
        return False
    rows_before, rows_after = pages[before.page - 1], pages[after.page - 1]
    if not rows_before or not rows_after or rows_before[-1] is not before.rows[-1] or rows_after[0] is not after.rows[0]:
        return False
    caption = " ".join(r.text for r in after.caption).lower()
    first_caption = " ".join(r.text for r in before.caption).lower()
    if caption and "continued" not in caption and caption != first_caption and not _group_labels(after):
        return False
    return all(abs(a[1] - b[1]) <= 12 for a, b in zip(before.columns, after.columns))


def _group_labels(region: TableRegion) -> bool:
    """Whether a headerless region's caption is the group labels of a statement continued from the page before
    ("LIABILITIES AND EQUITY" over "CURRENT LIABILITIES" atop Costco's page 4): each row one cell left of the value
    columns, in capitals or ending with a colon, and no statement's title."""
    left = region.columns[0][0] if region.columns else 0.0
    return bool(region.caption) and not region.header and all(
        len(r.cells) == 1 and r.x1 < left and not is_statement_title(r.text)
        and (r.text.strip().endswith(":") or (r.text.upper() == r.text and any(ch.isalpha() for ch in r.text)))
        for r in region.caption)


def _blocks(pages: list[list[Row]], tables: list[_Table], marks: list[HeadingMark],
            consumed: set[tuple[int, int]]) -> list[Block]:
    """Walk pages top to bottom, emitting headings, paragraphs and tables with their heading path."""
    table_at = {(t.first.page, _index(pages, t.first.page, t.first.rows[0])): t for t in tables}
    heading_at: dict[tuple[int, int], HeadingMark] = {}
    virtual: dict[int, list[HeadingMark]] = {}
    for mark in marks:
        if mark.row_ids:
            heading_at[(mark.page, mark.row_ids[0])] = mark
            consumed |= {(mark.page, i) for i in mark.row_ids}
        else:
            virtual.setdefault(mark.page, []).append(mark)
    stack: list[tuple[int, str]] = []
    blocks: list[Block] = []
    para: list[Row] = []

    def titles() -> tuple[str, ...]:
        return tuple(t for _, t in stack)

    def flush() -> None:
        if para:
            offsets, cursor = [], 0
            for row in para:
                offsets.append(cursor)
                cursor += len(row.text) + 1
            text = " ".join(r.text for r in para)
            kind = BlockKind.LIST if _BULLET.match(text) else BlockKind.PARAGRAPH
            blocks.append(Block(kind, text, titles(), tuple(r.rect for r in para), rect_offsets=tuple(offsets)))
            para.clear()

    def open_heading(mark: HeadingMark, rects: tuple[Rect, ...]) -> None:
        flush()
        while stack and stack[-1][0] >= mark.level:
            stack.pop()
        stack.append((mark.level, mark.title))
        blocks.append(Block(BlockKind.HEADING, mark.title, titles(), rects, level=mark.level))

    for number, rows in enumerate(pages, start=1):
        for mark in virtual.get(number, []):
            open_heading(mark, ())
        for idx, row in enumerate(rows):
            key = (number, idx)
            if key in table_at:
                flush()
                blocks.append(_table_block(table_at[key], titles()))
            if key in heading_at:
                mark = heading_at[key]
                open_heading(mark, tuple(rows[i].rect for i in mark.row_ids))
            if key in consumed:
                continue
            if para and _starts_new_paragraph(para[-1], row):
                flush()
            para.append(row)
    flush()
    return blocks


def _starts_new_paragraph(prev: Row, row: Row) -> bool:
    if _BULLET.match(row.text):
        return True
    if row.page != prev.page:
        return prev.text.rstrip().endswith(_SENTENCE_END)
    gap = row.y0 - prev.y1
    return gap > 0.5 * max(prev.height, 1.0) or abs(row.size - prev.size) >= 1.0 or row.bold != prev.bold and len(row.text) < 80


def _table_block(table: _Table, titles: tuple[str, ...]) -> Block:
    header: list[str] = []
    body: list[list[str]] = []
    rects: list[Rect] = []
    footnotes: list[str] = []
    for region in table.regions:
        region_header, region_body = region_grid(region)
        if not header:
            header = region_header
        elif any(region_header):
            body.append(region_header)
        body.extend(region_body)
        rows = region.rows
        rect = rows[0].rect
        for row in rows[1:]:
            rect = rect.union(row.rect)
        rects.append(rect)
        for row in region.footnotes:  # a wrapped footnote continues its line; a new marker starts one
            if footnotes and not FOOTNOTE_MARK.match(row.text.strip()):
                footnotes[-1] = f"{footnotes[-1]} {row.text}"
            else:
                footnotes.append(row.text)
    width = max(len(header), *(len(r) for r in body))
    header += [""] * (width - len(header))
    body = [r + [""] * (width - len(r)) for r in body]
    caption = f"{CHART_CAPTION}{table.first.chart}" if table.first.chart else \
        " ".join([table.first.carried_title] * bool(table.first.carried_title) + [r.text for r in table.first.caption])
    return Block(BlockKind.TABLE, grid_markdown(header, body), titles, tuple(rects),
                 caption=caption, footnotes="\n".join(footnotes), grid=region_raw_grid(table.regions))
