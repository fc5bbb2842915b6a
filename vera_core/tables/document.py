"""A parsed document's table blocks -> one interpreted grid per table chunk, the document's scale
shared with tables that state none."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from vera_core.records import Block, BlockKind, TableGrid
from vera_core.tables.grid import document_scale, interpret, markdown_raw_grid, with_document_scale


def document_grids(blocks: Sequence[Block], table_chunk_ids: Sequence[str]) -> list[TableGrid]:
    """Grids of a document's tables, in order; `table_chunk_ids` are the chunk ids of its table
    blocks in the same order (each table block is one chunk)."""
    tables = [b for b in blocks if b.kind is BlockKind.TABLE]
    if len(tables) != len(table_chunk_ids):
        raise ValueError(f"{len(tables)} table blocks but {len(table_chunk_ids)} table chunks")
    grids = [interpret(b.grid if b.grid is not None else markdown_raw_grid(b.text), chunk_id=cid,
                       caption=b.caption, title=b.heading_titles[-1] if b.heading_titles else "",
                       footnotes=b.footnotes)
             for b, cid in zip(tables, table_chunk_ids)]
    scale = document_scale(grids)
    currencies = Counter(g.currency for g in grids if g.currency and g.scale_source)
    currency = currencies.most_common(1)[0][0] if currencies else ""
    return [with_document_scale(g, scale, currency) for g in grids]
