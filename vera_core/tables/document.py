"""A parsed document's table blocks -> one interpreted grid per table chunk, the document's scale
shared with tables that state none and its fiscal year ends with year columns that print none."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from vera_core.records import Block, BlockKind, TableGrid
from vera_core.tables.grid import (document_scale, interpret, markdown_raw_grid, with_document_periods,
                                   with_document_scale)
from vera_core.tables.periods import document_year_ends
from vera_core.finance.statements import in_notes


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
    grids = [replace(g, statement="") if g.statement and in_notes(b.heading_titles) else g
             for b, g in zip(tables, grids)]
    scale = document_scale(grids)
    currencies = Counter(g.currency for g in grids if g.currency and g.scale_source)
    currency = currencies.most_common(1)[0][0] if currencies else ""
    year_ends = document_year_ends(p for g in grids for p in g.periods)
    return [with_document_periods(with_document_scale(g, scale, currency), year_ends) for g in grids]
