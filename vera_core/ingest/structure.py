"""Format-independent structure helpers: the heading list with page ranges, from blocks."""

from __future__ import annotations

from vera_core.records import Block, BlockKind, Heading


def headings_with_ranges(blocks: list[Block], last_page: int | None) -> list[Heading]:
    """Every heading with the page range of its section: from its own page to the last page of
    any block before the next heading of the same or a higher level. Pages are None for Markdown."""
    heads = [i for i, b in enumerate(blocks) if b.kind is BlockKind.HEADING]
    out: list[Heading] = []
    for n, i in enumerate(heads):
        head = blocks[i]
        end = len(blocks)
        for j in heads[n + 1:]:
            if blocks[j].level <= head.level:
                end = j
                break
        pages = [p for b in blocks[i:end] for p in b.pages]
        start_page = pages[0] if pages else None
        if start_page is None and last_page:
            later = [p for b in blocks[i:] for p in b.pages]
            start_page = later[0] if later else last_page
        out.append(Heading(head.text, head.level, head.heading_titles, start_page,
                           max(pages) if pages else start_page))
    return out
